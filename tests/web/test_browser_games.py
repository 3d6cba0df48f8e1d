"""Each game's status page as a family sees it, in real headless Chromium over a real
service under waitress: on a seat's phone (390x844) and on a desktop (1280x800) the
board is drawn, nothing throws (a console error fails the test), nothing is wider than
the screen, the prompt and the seat's buttons are on the first screen of the phone, the
latest move is in view; a camera alarm says who/what/how, boxes the cells, and then
"board restored" shows when the board is put right. One Chromium and one service for the
module; each game is one test."""
from __future__ import annotations

import pytest

from controller.events import Enter, NewGame, View
from game_pages import DESKTOP, OPENINGS, PHONE, fits_the_screen, on_first_screen, open_page, served  # noqa: F401
from support import WAIT_MS
from web.payload import player_token

def wrong_board(game: str, board: dict) -> dict:
    """What the camera would see after a plain mistake at the table, per game."""
    if game == "connect4":
        return {**board, (2, 3): "p0"}  # a chip floating in column 3, row 4
    if game == "chess":
        return {**board, "d2": "empty", "d5": "p0"}  # a pawn jumping three squares
    if game == "labyrinth":
        return {**board, (0, 0): "tile:NESW"}  # a fixed corner tile turned into a crossing
    if game == "smb":
        mario = next(c for c, lab in board.items() if lab == "mario")
        return {**board, mario: "empty", "w1-20": "mario"}  # Mario far ahead, no roll
    if game == "monopoly":
        return {**board, 3: "empty", 25: "p0"}  # Mario's Cap on the wrong space
    raise KeyError(game)


def see_an_alarm_and_the_restore(page, service) -> None:
    from vision.view import BoardView

    board = service.referee.game.board(service.referee.state)
    bad = wrong_board(service.referee.game.name, board)
    service.submit(View(view=BoardView({c: (lab, 0.99) for c, lab in bad.items()})))
    banner = page.locator("#alarm")
    banner.wait_for(state="visible", timeout=WAIT_MS)
    alarm = service.snapshot()["alarm"]
    assert alarm is not None, "the wrong board raised no alarm"
    text = banner.inner_text()
    assert (alarm.get("fix") or alarm["reason"]) in text  # what, and how to put it right
    if alarm.get("who"):
        assert alarm["who"] in text  # who
    assert "ILLEGAL MOVE" in text.upper()  # the word beside the colour
    page.wait_for_selector("#board .bad-box, #board .bad-ring", timeout=WAIT_MS)
    service.submit(View(view=BoardView({c: (lab, 0.99) for c, lab in board.items()})))
    page.locator("#restored").wait_for(state="visible", timeout=WAIT_MS)
    assert "Board restored" in page.locator("#restored").inner_text()
    assert banner.is_hidden()


@pytest.mark.parametrize("game", list(OPENINGS))
def test_each_game_reads_at_a_glance_on_a_phone_and_a_desktop(browser, served, game):
    service = served.service
    assert service.submit(NewGame(game=game)).ok
    for text in OPENINGS[game]:
        result = service.submit(Enter(text=text))
        assert result.ok, (text, result.error)
    snap = service.snapshot()
    seat = snap["prompt"]["seat"]
    move = service.journal.events(snap["game_id"])[-1].data
    latest = move["text"]  # "Luigi drops a chip in column 3", as the game's describer says it

    # the seat's phone: the prompt and their buttons first, then the board
    context, phone, errors = open_page(browser, f"{served.url}/seat/{player_token(service.admin_token, seat)}", PHONE)
    try:
        fits_the_screen(phone, PHONE)
        on_first_screen(phone, "#prompt", PHONE)
        assert phone.locator("#prompt").inner_text() == snap["prompt"]["text"]
        options, words = snap["prompt"]["options"], snap["prompt"]["words"]
        buttons = phone.locator("#choices button:not([disabled])").all()[:len(options)]
        assert [b.get_attribute("data-notation") for b in buttons] == options
        for option, button in zip(options, buttons):  # in words, without the player's own name
            assert button.inner_text() == words[option].removeprefix(snap["seats"][seat] + " ")
        if game == "smb":
            assert buttons[0].inner_text().startswith("moves Mario to ")
        if options:
            on_first_screen(phone, "#choices", PHONE)
        assert latest in phone.locator("#last-move-text").inner_text()
        on_first_screen(phone, "#last-move", PHONE)
        if game == "monopoly":  # where each token stands, in words the phone can read
            for player in snap["state"]["players"]:
                card = phone.locator(f'.player-card[data-seat="{player["seat"]}"]')
                assert f'on {player["space_name"]}' in card.inner_text()
        if game == "labyrinth":  # the player's own next treasure, on their phone only
            assert phone.locator("#your-target").is_visible()
        fits_the_screen(phone, PHONE)
        assert errors == []
    finally:
        context.close()

    # a watcher's desktop: the drawing, the latest move in the list's view, the alarm
    context, desk, errors = open_page(browser, served.url + "/", DESKTOP)
    try:
        fits_the_screen(desk, DESKTOP)
        assert desk.locator("#your-target").count() == 0  # watchers never see a secret
        last = desk.locator("#moves li").last
        # each move in words; chess by move number, its words as each ply's detail
        assert latest in (last.inner_text() if game != "chess" else last.locator(".ply").last.get_attribute("title"))
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        # asked of the list as it stands, again until true: the page redraws the list once
        # its stream opens, and an item found before that is gone when it is measured
        try:
            desk.wait_for_function("""() => { const l = document.getElementById("moves"), li = l && l.lastElementChild;
                                              if (!li) return false;
                                              const a = li.getBoundingClientRect(), b = l.getBoundingClientRect();
                                              return a.bottom <= b.bottom + 1 && a.top >= b.top - 1; }""",
                                   timeout=WAIT_MS)
        except PlaywrightTimeout:
            pytest.fail("the latest move is scrolled out of the move list")
        # the hall's thumbnail of the same drawing (opts.small)
        assert desk.evaluate("""game => { const d = document.createElement('div');
                                          window.drawings[game](d, window.referee.snap, {small: true});
                                          return d.querySelectorAll('svg.drawing').length; }""", game) == 1
        see_an_alarm_and_the_restore(desk, service)
        fits_the_screen(desk, DESKTOP)
        assert errors == []
    finally:
        context.close()

    # the TV's table mode: the whole board on one screen, no controls
    context, tv, errors = open_page(browser, served.url + "/table", DESKTOP)
    try:
        on_first_screen(tv, "#board svg.drawing", DESKTOP)
        assert tv.locator("#controls").is_hidden() and tv.locator("#move-form").is_hidden()
        fits_the_screen(tv, DESKTOP)
        assert errors == []
    finally:
        context.close()


def test_a_player_link_of_a_seat_the_new_game_lacks_says_so_and_watches(browser, served):
    """A fourth player's phone stays open while a two-player game starts: the page says
    the link has expired and goes on showing the game as a watcher (a live page that
    silently stops updating would look like a referee that saw nothing)."""
    service = served.service
    assert service.submit(NewGame(game="monopoly")).ok
    context, phone, _ = open_page(browser, f"{served.url}/seat/{player_token(service.admin_token, 3)}", PHONE)
    try:
        assert service.submit(NewGame(game="connect4")).ok
        phone.locator(".you.error").wait_for(timeout=WAIT_MS)
        assert "expired" in phone.locator(".you.error").inner_text()
        assert service.submit(Enter(text="4")).ok
        phone.locator("#moves li").first.wait_for(timeout=WAIT_MS)  # still following the game
    finally:
        context.close()


def test_monopoly_draws_a_token_where_it_stands_until_it_is_put(browser, served):
    """One truth (issue 23): after a roll the prompt asks to put the tokens; the board
    draws them where they still stand on the table, with a dashed ring and a faded token
    where they are to go, and only the prompt's player is marked to play."""
    service = served.service
    assert service.submit(NewGame(game="monopoly")).ok
    assert service.submit(Enter(text="roll 1 2")).ok
    assert service.submit(Enter(text="put bowser@21")).ok
    assert service.snapshot()["prompt"]["text"] == "Mario's Cap: put your token on Mario Bros. Plumbing"
    context, page, errors = open_page(browser, served.url + "/", DESKTOP)
    try:
        page.wait_for_selector(".mono-token[data-token='p0']", timeout=WAIT_MS)
        assert page.locator(".mono-token[data-token='p0']:not(.faded)").get_attribute("data-on") == "0"  # on GO
        assert page.locator(".mono-token.faded[data-token='p0']").get_attribute("data-on") == "3"
        assert page.locator(".mono-to-put").count() == 1
        assert page.locator(".mono-bowser").get_attribute("data-on") == "21"
        assert page.locator(".player-card.turn").count() == 1
        assert page.locator(".player-card.turn").get_attribute("data-seat") == "0"
        assert "to move to Mario Bros. Plumbing" in page.locator(".player-card[data-seat='0']").inner_text()
        assert service.submit(Enter(text="put p0@3")).ok
        page.wait_for_function("() => !document.querySelector('.mono-token.faded')", timeout=WAIT_MS)
        assert page.locator(".mono-token[data-token='p0']").get_attribute("data-on") == "3"
        assert errors == []
    finally:
        context.close()
