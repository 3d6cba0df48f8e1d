"""The status page as a person sees it: the app served by a real waitress server on a
free port, opened in a real headless Chromium, over a real Service. Moves go in through
`service.submit`, the path the camera and the devices use, so what the page shows must
arrive through the event stream, without a reload."""
from __future__ import annotations

import http.client
import time

import pytest

from controller.events import Enter, NewGame, View
from support import WAIT_MS, Served, running_service
from web.payload import player_token


@pytest.fixture
def page(browser, served):
    context = browser.new_context(viewport={"width": 420, "height": 900})
    p = context.new_page()
    p.goto(served.url + "/")
    p.wait_for_selector("#live.on", timeout=WAIT_MS)  # the event stream is open
    yield p
    context.close()


def cell(page, column: int, row: int):
    return page.locator(f'[data-cell="{column},{row}"]')


def move(served, text: str):
    return served.service.submit(Enter(text=text))


def test_the_page_draws_the_grid_and_a_move_appears_without_a_reload(page, served):
    assert page.locator("svg.c4 [data-cell]").count() == 42
    assert cell(page, 4, 1).get_attribute("data-label") == "empty"
    page.evaluate("window.stillThisPage = 'yes'")
    assert move(served, "4").ok
    page.wait_for_selector('[data-cell="4,1"][data-label="p0"]', timeout=WAIT_MS)
    assert page.evaluate("window.stillThisPage") == "yes"  # no reload happened
    assert cell(page, 4, 1).locator("circle.chip").get_attribute("fill") == served.service.config.camera.colours[0]
    assert page.locator("#moves li .move-words").all_inner_texts() == ["Mario drops a chip in column 4"]
    assert page.locator("#moves li code").all_text_contents() == ["4"]  # the notation, on tap or hover
    assert "Luigi to move" in page.locator("#prompt").inner_text()


def test_a_typed_mistake_is_answered_on_the_phone_that_typed_it_only(browser, page, served):
    """The big banner is for what the camera sees; a typo is the typist's business."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    phone = context.new_page()
    phone.goto(f"{served.url}/seat/{player_token(served.service.admin_token, 0)}")
    phone.wait_for_selector("#live.on", timeout=WAIT_MS)
    phone.fill("#move-text", "9")
    phone.locator("#move-form button").click()
    phone.wait_for_selector("#move-error:visible", timeout=WAIT_MS)
    assert "Not accepted" in phone.locator("#move-error").inner_text()
    assert move(served, "5").ok  # the watcher's page follows the game all the while
    page.wait_for_selector('[data-cell="5,1"][data-label="p0"]', timeout=WAIT_MS)
    assert page.locator("#alarm").is_hidden() and phone.locator("#alarm").is_hidden()
    assert page.locator("#move-error").is_hidden()
    context.close()


def test_a_camera_alarm_rings_the_cells_and_clears_when_restored(page, served):
    from vision.view import BoardView

    service = served.service
    board = service.referee.game.board(service.referee.state)
    floating = {**board, (2, 3): "p0"}  # a chip in column 3, row 4 over an empty hole
    service.submit(View(view=BoardView({c: (lab, 0.99) for c, lab in floating.items()})))
    page.wait_for_selector('[data-cell="3,4"].bad .bad-ring', timeout=WAIT_MS)
    assert "floats at column 3, row 4" in page.locator("#alarm").inner_text()
    service.submit(View(view=BoardView({c: (lab, 0.99) for c, lab in board.items()})))
    page.locator("#alarm").wait_for(state="hidden", timeout=WAIT_MS)
    page.wait_for_selector(".bad", state="detached", timeout=WAIT_MS)
    assert "Board restored" in page.locator("#restored").inner_text()


def test_an_alarm_says_who_and_how_and_draws_the_piece_where_it_was_seen(page, served):
    """The illegal-alarm contract (BRIEF): a camera alarm carrying who/fix/seen, as the
    referee's decision publishes it, is shown in those words with the misplaced chip
    drawn faded where the camera saw it; the board put right shows "Board restored"."""
    from controller.events import Event
    from vision.view import BoardView

    service = served.service
    board = service.referee.game.board(service.referee.state)
    alarm = {"reason": "a chip floats at column 3, row 4: the hole below it is empty",
             "cells": ["column 3, row 4"], "who": "Luigi", "fix": "take the chip out of column 3, row 4",
             "seen": {"column 3, row 4": "p1"}}
    service.referee.alarm = alarm  # the referee's standing alarm, as its decision sets it
    service.bus.publish(Event("illegal", {"source": "camera", **alarm}))
    page.locator("#alarm").wait_for(state="visible", timeout=WAIT_MS)
    assert "Luigi: take the chip out of column 3, row 4" in " ".join(page.locator("#alarm").inner_text().split())
    page.wait_for_selector('[data-cell="3,4"][data-seen="p1"] .chip-g.faded', timeout=WAIT_MS)
    assert page.locator('[data-cell="3,4"]').get_attribute("data-label") == "empty"  # the position stays legal
    service.submit(View(view=BoardView({c: (lab, 0.99) for c, lab in board.items()})))
    page.locator("#restored").wait_for(state="visible", timeout=WAIT_MS)
    page.wait_for_selector(".faded", state="detached", timeout=WAIT_MS)


def test_the_result_shows_when_the_game_ends(page, served):
    for text in "1212121":
        move(served, text)
    result = page.locator("#result")
    result.wait_for(state="visible", timeout=WAIT_MS)
    assert "Mario wins" in result.inner_text()
    assert "four in a line" in result.inner_text()
    assert page.locator("#move-form").is_hidden()


def test_a_player_link_plays_by_tapping_a_column(browser, served):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{served.url}/seat/{player_token(served.service.admin_token, 0)}")
    phone.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert phone.locator("#you").inner_text() == "Mario"
    phone.locator('[data-column="6"]').tap()
    phone.wait_for_selector('[data-cell="6,1"][data-label="p0"]', timeout=WAIT_MS)
    assert served.service.snapshot()["moves"] == ["6"]
    # Luigi's turn now: no columns to tap; typing stays open (out-of-turn actions), and the
    # referee refuses what is not Mario's to do, in words
    phone.wait_for_selector('[data-column="6"]', state="detached", timeout=WAIT_MS)
    phone.fill("#move-text", "3")
    phone.locator("#move-form button").click()
    phone.wait_for_selector("text=it is Luigi's turn, not Mario's", timeout=WAIT_MS)
    assert served.service.snapshot()["moves"] == ["6"]
    context.close()


def test_admin_controls_start_a_new_game_with_a_variant(page, served):
    page.locator("#controls summary").click()
    page.fill("#admin-token", "wrong")
    page.click("#token-form button")
    page.wait_for_selector("text=That is not the admin token", timeout=WAIT_MS)
    page.fill("#admin-token", served.service.admin_token)
    page.click("#token-form button")
    page.locator("#admin-tools").wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator("#player-links li").count() == 2
    assert page.locator("#player-links .qr svg").count() == 2  # a QR code per link
    page.select_option("#ng-variant", "blocker")
    page.click("#new-game-form button")
    page.wait_for_selector("#variant:text('blocker')", timeout=WAIT_MS)
    assert page.locator("#rulings li").count() == 4
    assert served.service.snapshot()["variant"] == "blocker"


def test_an_event_stream_ends_when_its_client_goes_away(served):
    """Each stream holds a waitress thread; a closed page must give it back."""
    streams = served.app.extensions["referee_streams"]
    conn = http.client.HTTPConnection("127.0.0.1", served.server.effective_port, timeout=5)
    conn.request("GET", "/events")
    reply = conn.getresponse()
    assert reply.getheader("Content-Type").startswith("text/event-stream")
    assert reply.read(6) == b"retry:"
    assert streams.count() == 1
    reply.close()  # the response holds the socket open until it is closed too
    conn.close()
    deadline = time.monotonic() + 5
    while streams.count() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert streams.count() == 0


def test_a_chess_game_draws_the_board_with_mario_names_and_the_mate(page, served):
    service = served.service
    assert service.submit(NewGame(game="chess")).ok
    page.wait_for_selector('[data-square="e2"][data-piece="P"]', timeout=WAIT_MS)
    assert page.locator("[data-square]").count() == 64
    assert page.locator('[data-square="e1"] title').text_content() == "e1: King Mario (Mario's team)"
    assert page.locator('[data-square="g8"] title').text_content() == "g8: Knight Birdo (Bowser's team)"
    assert page.locator("#choices button").count() == 0  # a watcher gets no player's buttons
    for san in ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"):
        assert service.submit(Enter(text=san)).ok, san
    page.locator("#result").wait_for(state="visible", timeout=WAIT_MS)
    assert "checkmate" in page.locator("#result").inner_text()
    assert "check" in page.locator('[data-square="e8"]').get_attribute("class")
    assert page.locator('[data-on="e8"] .check-ring').count() == 1  # ringed, not only tinted
    assert page.locator('[data-square="f7"]').get_attribute("data-piece") == "Q"
    assert page.locator('[data-square="f7"] rect.last').count() == 1  # the last move
    layers = page.evaluate("() => [...document.querySelector('svg.chess').children].map(c => c.getAttribute('class'))")
    assert layers.index("arrows") < layers.index("pieces")  # its arrow under the pieces, never over one
    assert page.locator("svg.chess .arrows .last-arrow").count() == 1
    # the record as a club writes it, the Mario words as each ply's detail (issue 23)
    assert page.locator("#moves .record-row .num").all_inner_texts() == ["1.", "2.", "3.", "4."]
    last = page.locator("#moves .record-row").last
    assert last.locator(".ply").all_inner_texts() == ["Qxf7#"]
    assert last.locator(".ply").get_attribute("title").startswith("Luigi moves from h5 to f7 and captures")
    assert page.locator("#last-move-text").inner_text().startswith("4. Qxf7# (Luigi moves from h5 to f7")


def test_unsure_plies_are_marked_and_a_correction_is_said_once(page, served):
    """The camera's referee shows its leading reading at once and settles it with the
    next views (snapshot "unsure": the last N plies are provisional; a later view may
    correct them, event "corrected"): the page marks unsure plies lighter with a "?" and
    says a correction once, as a notice, then shows the state as it is."""
    from controller.events import Event

    for text in ("4", "3", "5"):
        assert move(served, text).ok
    page.wait_for_function("() => window.referee.snap.moves.length === 3", timeout=WAIT_MS)
    assert page.locator("#moves li.unsure").count() == 0  # a referee without "unsure": all sure

    def unsure(route):  # the last two plies of the record not yet sure
        reply = route.fetch()
        snap = reply.json()
        record = [{**ply, "unsure": i >= len(snap["record"]) - 2} for i, ply in enumerate(snap["record"])]
        route.fulfill(response=reply, json={**snap, "unsure": 2, "record": record})

    page.route("**/api/state*", unsure)
    served.service.bus.publish(Event("corrected", {"text": "corrected: Mario drops a chip in column 5, not in column 6",
                                                   "retracted": ["6"]}))
    page.wait_for_selector("#notice:text('Corrected: Mario drops a chip in column 5')", timeout=WAIT_MS)
    page.wait_for_selector("#moves li.unsure", timeout=WAIT_MS)
    marked = page.locator("#moves li")
    assert [("unsure" in (marked.nth(i).get_attribute("class") or "")) for i in range(3)] == [False, True, True]
    assert marked.nth(2).get_attribute("title") == "not yet sure: the next moves will tell"
    assert marked.nth(2).inner_text().rstrip().endswith("?")
    assert page.locator("#last-move-text").inner_text().endswith("?")
    assert move(served, "4").ok  # the next move: the notice was said once
    page.wait_for_function("() => window.referee.snap.moves.length === 4", timeout=WAIT_MS)
    assert page.locator("#notice").is_hidden()


def test_connect4_seats_say_whose_blocker_is_still_to_play(page, served):
    service = served.service
    assert service.submit(NewGame(game="connect4", variant="blocker")).ok
    assert move(served, "b4/1").ok
    page.wait_for_selector(".seat[data-seat='0'] .seat-words:text('blocker in the grid')", timeout=WAIT_MS)
    assert page.locator(".seat[data-seat='1'] .seat-words").inner_text() == "blocker still to play"
    assert page.locator(".seat.turn").get_attribute("data-seat") == "1"  # one player to play, the prompt's
    assert "Luigi to move" in page.locator("#prompt").inner_text()


def test_a_doubt_offers_its_readings_as_buttons_that_play_the_move(page, served):
    """The referee's doubt (BRIEF contract: event `doubt` with text and candidates): the
    page shows the question once and a tap sends the notation through the move path."""
    from controller.events import Event

    page.locator("#controls summary").click()
    page.fill("#admin-token", served.service.admin_token)  # a person allowed to answer
    page.click("#token-form button")
    page.locator("#admin-tools").wait_for(state="visible", timeout=WAIT_MS)
    doubt = {"text": "I can't tell what moved: is it column 2 or column 3?",
             "candidates": [{"notation": "2", "text": "a chip in column 2"},
                            {"notation": "3", "text": "a chip in column 3"}],
             "cells": ["column 2, row 1", "column 3, row 1"]}
    served.service.referee.doubt = doubt  # the referee's standing doubt, as it says it
    served.service.bus.publish(Event("doubt", doubt))
    page.locator("#doubt").wait_for(state="visible", timeout=WAIT_MS)
    assert "column 2 or column 3" in page.locator("#doubt").inner_text()
    assert page.locator("#board.doubting .bad-ring").count() == 2  # where the camera hesitates
    page.click('#doubt-choices button[data-notation="3"]')
    page.wait_for_selector('[data-cell="3,1"][data-label="p0"]', timeout=WAIT_MS)
    assert served.service.snapshot()["moves"] == ["3"]
    page.locator("#doubt").wait_for(state="hidden", timeout=WAIT_MS)


def test_a_drawing_that_throws_leaves_the_page_live(page, served):
    """One broken drawing must not stop the page: a small note, the badge stays live, and
    the next move still arrives."""
    page.evaluate("() => { window.drawings.connect4 = () => { throw new Error('broken on purpose'); }; }")
    assert move(served, "3").ok
    page.wait_for_selector(".draw-error", timeout=WAIT_MS)
    assert "broken on purpose" in page.locator(".draw-error").inner_text()
    assert move(served, "4").ok
    page.wait_for_selector("#last-move-text:text('column 4')", timeout=WAIT_MS)
    assert page.locator("#live").get_attribute("class") == "live on"


def test_a_player_link_lasts_the_evening(browser, served):
    context = browser.new_context()
    phone = context.new_page()
    phone.goto(f"{served.url}/seat/{player_token(served.service.admin_token, 1)}")
    phone.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert served.service.submit(NewGame(game="chess")).ok
    phone.wait_for_selector('[data-square="e2"]', timeout=WAIT_MS)
    assert phone.locator("#you").inner_text() == "Bowser's team"  # same link, the next game
    assert phone.locator(".you.error").count() == 0
    assert served.service.submit(Enter(text="e4")).ok
    phone.wait_for_selector("#move-form:visible", timeout=WAIT_MS)
    context.close()


def test_a_lost_die_module_shows_on_the_page(page, served):
    from controller.events import Event

    assert served.service.submit(NewGame(game="smb")).ok  # a game that rolls: its page shows the die
    page.wait_for_selector("#status dt:text('Die module')", timeout=WAIT_MS)
    bus = served.service.bus
    bus.publish(Event("link", {"state": "down", "text": "die module not found"}))
    page.wait_for_selector("#status dd.warn:text('die module disconnected')", timeout=WAIT_MS)
    bus.publish(Event("link", {"state": "up", "text": "die module connected"}))
    page.wait_for_selector("#status dd:text-is('connected')", timeout=WAIT_MS)
    assert page.locator("#status dd.warn").count() == 0


def test_calibration_sends_the_four_clicked_corners(browser, tmp_path):
    import cv2
    import numpy as np

    frames = tmp_path / "frames"
    frames.mkdir()
    picture = np.zeros((360, 640, 3), np.uint8)
    picture[:, :, 1] = np.linspace(40, 200, 640, dtype=np.uint8)  # something to see
    picture[:, :40] = picture[:, 600:] = (255, 0, 255)  # the room, magenta, left and right of the board
    cv2.imwrite(str(frames / "table.png"), picture)
    with running_service(tmp_path / "data", camera_source=str(frames)) as service:
        deadline = time.monotonic() + 5
        while getattr(service.watcher, "last_frame", None) is None and time.monotonic() < deadline:
            time.sleep(0.05)  # the camera thread reads the picture
        served = Served(service, heartbeat_s=0.2)
        try:
            # what the camera sees of the board is for everyone, no token needed; the room
            # is not: until the board is located, there is no picture but on /calibrate
            import urllib.error
            import urllib.request

            with pytest.raises(urllib.error.HTTPError) as missing:
                urllib.request.urlopen(served.url + "/api/camera.jpg")
            assert missing.value.code == 404 and "not located" in missing.value.read().decode()
            # the status page does not ask for a picture that is not there (issue 23: a 404
            # in every console while the board was not located)
            context = browser.new_context(viewport={"width": 800, "height": 900})
            status_page = context.new_page()
            asked, errors = [], []
            status_page.on("request", lambda r: asked.append(r.url) if "/api/camera.jpg" in r.url else None)
            status_page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            status_page.goto(served.url + "/")
            status_page.wait_for_selector("#live.on", timeout=WAIT_MS)
            assert status_page.evaluate("window.referee.status.picture") is False
            assert asked == [] and errors == [] and status_page.locator("#camera-box").is_hidden()
            page = context.new_page()
            page.goto(served.url + "/calibrate")
            page.fill("#admin-token", service.admin_token)
            page.click("#token-form button")
            page.wait_for_selector("text=Picture 640 x 360 px", timeout=WAIT_MS)
            box = page.locator("#frame").bounding_box()
            scale = box["width"] / 640
            for x, y in ((100, 300), (540, 300), (540, 60), (100, 60)):
                page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)
            assert page.locator("#marks circle").count() == 4
            page.click("#send")
            page.wait_for_selector("text=The referee now uses these corners", timeout=WAIT_MS)
            # the next frame the camera thread feeds is placed by the clicked corners
            service.watcher.feed(99.0, picture)
            assert np.allclose(service.watcher.quad, [(100, 300), (540, 300), (540, 60), (100, 60)], atol=3)
            assert service.watcher.status != "no markers in view"
            assert service.submit(Enter(text="4")).ok  # the next event: now there is a picture to show
            status_page.wait_for_function("() => document.getElementById('camera').naturalWidth > 0", timeout=WAIT_MS)
            assert status_page.locator("#camera-box").is_visible() and errors == []
            context.close()
            with urllib.request.urlopen(served.url + "/api/camera.jpg") as reply:
                assert reply.headers["Content-Type"] == "image/jpeg"
                small = cv2.imdecode(np.frombuffer(reply.read(), np.uint8), cv2.IMREAD_COLOR)
            assert small.shape[1] == 480  # the board and a margin, made small for a phone on Wi-Fi
            room = (small[:, :, 0] > 180) & (small[:, :, 1] < 80) & (small[:, :, 2] > 180)
            assert room.sum() == 0  # the room beside the board is not shown
        finally:
            served.close()
