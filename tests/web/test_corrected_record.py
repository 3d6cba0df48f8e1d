"""After a camera correction every place that shows the game's record shows the history
the game holds, each ply with its words: Black's f7-f5 is read as h7-h6 and recorded,
then the views that follow take h6 back (`corrected`, retracted ["h6"]). /api/moves, the
page with and without JavaScript (real Chromium), the hall's page (real Mosquitto),
`referee play`/`replay`'s output (plain and --json) and the exports (PGN, JSON) all say
e4 f5 Nf3 Nc6 Bc4 e6, and none "h7 to h6" (issue 29: before, /api/moves said
e4 h6 f5 ..., and the page showed bare notation from the corrected ply on)."""
from __future__ import annotations

import io
import json
import re

import chess.pgn
import pytest

from controller.cli import print_events
from controller.events import Bus, Kind, NewGame, Settle
from controller.games import load_game
from controller.journal import Journal
from controller.pgn import export_pgn
from controller.referee import Referee
from support import (WAIT_MS, Camera, Served, ServiceSight, misread_then_corrected, running_service,
                     served_hall)
from waiting import wait_for

MISREAD = "Green Shell moves from h7 to h6"


def words_of(sans: list[str]) -> list[str]:
    """Each ply in the chess rules' own words, replayed here from the start."""
    game = load_game("chess")
    state, words = game.start({}), []
    for san in sans:
        action = game.parse(state, san)
        words.append(game.describe(state, action))
        state = game.apply(state, action)
    return words


def on_camera(referee: Referee) -> Referee:
    referee.confirm_s = 0.5  # the live camera's clock, as the Table sets it
    return referee


@pytest.fixture
def corrected(tmp_path):
    """A served status page whose chess game the camera followed through the correction."""
    with running_service(tmp_path / "data") as service:
        assert service.submit(NewGame(game="chess")).ok
        on_camera(service.referee)
        sans = misread_then_corrected(Camera(ServiceSight(service)))
        assert service.submit(Settle()).ok  # the recording ended: the history shown stands
        served = Served(service, heartbeat_s=0.2)
        yield served, sans
        served.close()


def test_the_api_the_plain_page_and_the_exports_hold_the_corrected_history_in_words(corrected):
    served, sans = corrected
    service, client = served.service, served.app.test_client()
    words = words_of(sans)
    kinds = [e.kind for e in service.journal.events(service.referee.game_id)]
    assert Kind.CORRECTED in kinds  # the camera did take a ply back

    moves = client.get("/api/moves").get_json()
    assert [(m["notation"], m["text"]) for m in moves] == list(zip(sans, words))
    assert [m["name"] for m in moves] == ["Mario's team", "Bowser's team"] * 3

    html = client.get("/").get_data(as_text=True)  # the page as a browser without JavaScript gets it
    listed = re.search(r'<ol id="moves"[^>]*>(.*?)</ol>', html, re.S)[1]
    assert re.findall(r"<li[^>]*>(.*?)</li>", listed) == words
    assert MISREAD not in html

    pgn = chess.pgn.read_game(io.StringIO(export_pgn(service.journal, service.referee.game_id)))
    board, played = pgn.board(), []
    for move in pgn.mainline_moves():
        played.append(board.san(move))
        board.push(move)
    assert played == sans
    exported = service.journal.export(service.referee.game_id)
    assert [(p["notation"], p["text"]) for p in exported["record"]] == list(zip(sans, words))


def test_the_page_shows_the_corrected_history_with_each_plys_words(browser, corrected):
    served, sans = corrected
    words = words_of(sans)
    context = browser.new_context(viewport={"width": 420, "height": 900})
    page = context.new_page()
    page.goto(served.url + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    plies = page.locator("#moves .ply")
    assert plies.all_inner_texts() == sans
    assert [plies.nth(i).get_attribute("title") for i in range(len(sans))] == words
    assert page.locator("#last-move-text").inner_text() == f"3... e6 ({words[-1]})"
    assert MISREAD not in page.locator("#moves").inner_text()
    context.close()


@pytest.mark.parametrize("as_json", [False, True])
def test_replay_output_says_the_correction_and_the_history_after_it(capsys, as_json):
    """`referee replay` prints each frame's events once the frame is decided (as the
    Table's `run` hands them over): here each view's and each tick's."""
    referee = on_camera(Referee(Journal(":memory:"), Bus()))
    caught: list = []
    referee.bus.subscribe(caught.append)

    class Printed:
        def observe(self, view):
            referee.observe(view)
            self.flush()

        def tick(self, t, moved_at):
            referee.tick(t, moved_at)
            self.flush()

        @staticmethod
        def flush():
            print_events(caught, referee, as_json)
            caught.clear()

    referee.new_game("chess")
    sans = misread_then_corrected(Camera(Printed()))
    referee.settle()
    Printed.flush()
    lines = capsys.readouterr().out.splitlines()
    words = words_of(sans)
    if as_json:
        out = [json.loads(line) for line in lines]
        at = next(i for i, o in enumerate(out) if o["type"] == "corrected")
        assert out[at]["retracted"] == ["h6"]
        after = out[at + 1]  # the state, as after a move: the record without h6, with the plies the view showed
        assert after["type"] == "state"
        shown = [p["notation"] for p in after["record"]]
        assert len(shown) > 1 and shown == sans[:len(shown)]
        last = [o for o in out if o["type"] == "state"][-1]
        assert [(p["notation"], p["text"]) for p in last["record"]] == list(zip(sans, words))
    else:
        said = next(line for line in lines if "corrected:" in line)
        assert said.strip().startswith(f"corrected: {words[1]}") and said.endswith("(taken back: h6)")
        after = lines[lines.index(said) + 1:]
        assert [line.split()[:2] for line in after if line.strip()[:1].isdigit()] == [
            [f"{n}.", san] for n, san in enumerate(sans[1:], start=2)]
        assert all(word in "\n".join(after) for word in words[1:])
        assert not any(line.startswith("corrected: {") or "{'text'" in line for line in lines)  # no raw dict


@pytest.fixture
def hall_of_one(tmp_path, broker):
    """A table's referee publishing through a real Mosquitto to a hall served under waitress."""
    journal = Journal(tmp_path / "t1.sqlite")
    referee = on_camera(Referee(journal, Bus()))
    referee.new_game("chess")
    with served_hall(tmp_path / "hall", broker, referee) as (url, hall):
        yield url, referee, hall
    journal.close()


def test_the_hall_shows_the_corrected_history_with_each_plys_words(browser, hall_of_one):
    url, referee, hall = hall_of_one
    sans = misread_then_corrected(Camera(referee))
    referee.settle()
    words = words_of(sans)
    sent = len(referee.journal.events(referee.game_id))
    wait_for(lambda: len(hall.store.events("t1", referee.game_id)) == sent, "every event at the hall", 10)
    assert hall.store.record("t1", referee.game_id).notations == sans

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    page.locator('.card[data-table="t1"]').click()
    page.wait_for_function(f"() => document.querySelectorAll('#full-moves .ply').length === {len(sans)}",
                           timeout=WAIT_MS)
    plies = page.locator("#full-moves .ply")
    assert plies.all_inner_texts() == sans
    assert [plies.nth(i).get_attribute("title") for i in range(len(sans))] == words
    assert MISREAD not in page.locator("#full-moves").inner_text()
    said = [t for t in page.locator("#full-events li").all_inner_texts() if t.startswith("Corrected")]
    assert len(said) == 1 and said[0].startswith(f"Corrected: {words[1]}")  # the event list says it once
    assert said[0].endswith(f"not {MISREAD} (taken back: h6)")
    context.close()
