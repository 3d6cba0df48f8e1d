"""Issue 28 #1 and #2: the journal is written first. A real Service on a real SQLite
journal, the page's API through Flask's test client: a full disk (SQLite's own
`max_page_count`, which fails a write with the very error a full disk gives: "database
or disk is full"), a data folder deleted while serving, a journal replaced by another
file. Each input the record cannot keep is refused in words and changes nothing; the
page hears it once; play goes on, and the record is kept again as soon as it can be."""
from __future__ import annotations

import itertools
import logging
import queue
import shutil
from pathlib import Path

import pytest

from controller.events import Enter, Event, Undo
from controller.journal import Journal, RecordLost
from support import admin, running_service
from waiting import wait_for
from web import create_app

COLUMNS = "1 1 1 1 1 1 2 2 2 2 2 2 3 3 3 3 3 3 5 4 4 4 4 4 4 5 5 5 5 5 6 6 6 6 6 6 7 7 7 7".split()  # no four in a line


def page(service):
    """The page's client; its pace clock steps a second a request (the moves here are
    typed at a person's pace)."""
    app = create_app(service)
    app.extensions["referee_limits"]["pace"].clock = itertools.count(0.0, 1.0).__next__
    return app.test_client()


def fill_the_disk(journal: Journal) -> None:
    """The journal's file may grow no further: the next pages it needs are refused
    exactly as a full disk refuses them (SQLITE_FULL)."""
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count={pages}")


def free_the_disk(journal: Journal) -> None:
    journal._db.execute("PRAGMA max_page_count=1073741823")


def records(bus) -> queue.Queue:
    heard = bus.subscribe(queue.Queue())
    return heard


def heard_records(heard: queue.Queue) -> list[dict]:
    out = []
    while not heard.empty():
        event = heard.get_nowait()
        if event.kind == "record":
            out.append(event.data)
    return out


def test_a_full_disk_refuses_moves_in_words_changes_nothing_and_play_resumes(tmp_path, caplog):
    """Issue 28 #1: with the disk full, 79 moves were answered 422 yet the page showed 34
    of them and a game over; after a restart 3 were left; each failure logged a
    traceback."""
    caplog.set_level(logging.INFO)
    folder = tmp_path / "data"
    with running_service(folder) as service:
        client = page(service)
        heard = records(service.bus)
        fill_the_disk(service.journal)
        accepted, refused = [], []
        for column in COLUMNS:
            reply = client.post("/api/move", json={"text": column}, headers=admin(service))
            if reply.status_code == 200:
                assert not refused, "a move was kept after one was refused with the disk still full"
                accepted.append(column)
            else:
                assert reply.status_code == 422
                refused.append(reply.get_json()["error"])
        assert accepted and refused, "the disk never filled: the probe proves nothing"
        assert refused[0].startswith("the record cannot be kept: database or disk is full (journal ")
        assert str(folder / "journal.sqlite") in refused[0]
        state = client.get("/api/state").get_json()
        assert state["moves"] == accepted and state["outcome"] is None
        status = client.get("/api/status").get_json()
        assert status["record"].startswith("the record cannot be kept: database or disk is full")
        assert not client.post("/api/undo", json={"position": -1}, headers=admin(service)).get_json()["ok"]
        said = heard_records(heard)  # (an input that writes nothing does not say the record is kept)
        assert said == [{"kept": False, "text": refused[0]}]  # once, not for every refused move
        # no traceback, one line a refused move
        assert not [r for r in caplog.records if r.exc_info]
        lines = [r.getMessage() for r in caplog.records if "cannot be kept" in r.getMessage()]
        assert len(lines) == len(refused) and all("\n" not in line for line in lines)
        free_the_disk(service.journal)
        column = COLUMNS[len(accepted)]
        reply = client.post("/api/move", json={"text": column}, headers=admin(service))
        assert reply.status_code == 200
        accepted.append(column)
        assert heard_records(heard) == [{"kept": True, "text": "the record is kept again"}]
        assert client.get("/api/status").get_json()["record"] == "kept"
        assert client.get("/api/state").get_json()["moves"] == accepted
    with running_service(folder) as service:  # what the page showed is what was kept
        assert service.snapshot()["moves"] == accepted


def test_a_full_disk_keeps_the_camera_side_as_it_was_too(tmp_path):
    """A move the record cannot keep leaves the referee as it was, whatever input
    brought it: the history, the sure position, the beliefs (here through the Table, as
    the camera's views and the die's rolls come)."""
    with running_service(tmp_path / "data") as service:
        before = service.snapshot()
        referee = service.referee
        sure, beliefs, epoch = referee.sure, referee.beliefs.lines, referee.epoch
        fill_the_disk(service.journal)
        refusal = None
        while refusal is None:
            before, sure, beliefs, epoch = service.snapshot(), referee.sure, referee.beliefs.lines, referee.epoch
            result = service.submit(Enter(COLUMNS[len(before["moves"])]))
            refusal = None if result.ok else result.error
        assert "cannot be kept" in refusal
        assert service.snapshot() == before
        assert (referee.sure, referee.beliefs.lines, referee.epoch) == (sure, beliefs, epoch)
        events = service.journal.events(referee.game_id)
        assert [e.data["notation"] for e in events if e.kind == "move"] == before["moves"]


def test_a_data_folder_deleted_while_serving_is_said_and_written_again_nothing_lost(tmp_path):
    """Issue 28 #2: `rm -rf` of the data folder while `serve` ran: 4 more moves answered
    200, no note on the page, nothing survived."""
    folder = tmp_path / "data"
    with running_service(folder) as service:
        client = page(service)
        heard = records(service.bus)
        for column in "4 4 3".split():
            assert client.post("/api/move", json={"text": column}, headers=admin(service)).status_code == 200
        shutil.rmtree(folder)
        assert client.post("/api/move", json={"text": "3"}, headers=admin(service)).status_code == 200
        journal = str(folder / "journal.sqlite")
        assert heard_records(heard) == [
            {"kept": False, "text": f"journal {journal} was deleted or moved while serving"},
            {"kept": True, "text": f"journal {journal} is written again from the copy kept open: nothing was lost"}]
        assert Path(journal).is_file()
        assert client.post("/api/move", json={"text": "5"}, headers=admin(service)).status_code == 200
    with running_service(folder) as service:
        assert service.snapshot()["moves"] == "4 4 3 3 5".split()


def test_a_data_folder_deleted_while_nobody_plays_is_written_again_before_the_next_move(tmp_path):
    """Deleted while the table is quiet, the journal would be lost with the next power
    cut: the idle referee checks the file every few seconds (here a twentieth)."""
    folder = tmp_path / "data"
    with running_service(folder) as service:
        said = []
        service.bus.subscribe(lambda e: e.kind == "record" and said.append(e.data["kept"]))
        assert service.submit(Enter("4")).ok
        service.journal_check_s = 0.05
        service.submit(Undo(at=-1))  # wakes the referee's thread, which then checks at that pace
        shutil.rmtree(folder)
        wait_for(lambda: said == [False, True], "the journal written again, and the page told", 10)
        assert (folder / "journal.sqlite").is_file()
    with running_service(folder) as service:
        assert service.snapshot()["moves"] == ["4"]


def test_a_journal_that_cannot_be_written_again_refuses_moves_until_it_can(tmp_path):
    """The data folder gone and a file in its place (its parent cannot hold the folder
    again): refused in words, the page told; the folder back, the record is kept again."""
    folder = tmp_path / "data"
    with running_service(folder) as service:
        client = page(service)
        heard = records(service.bus)
        assert client.post("/api/move", json={"text": "4"}, headers=admin(service)).status_code == 200
        shutil.rmtree(folder)
        folder.write_text("not a folder")
        reply = client.post("/api/move", json={"text": "4"}, headers=admin(service))
        assert reply.status_code == 422
        error = reply.get_json()["error"]
        assert error.startswith(f"the record cannot be kept: journal {folder / 'journal.sqlite'} was deleted or "
                                "moved while serving, and cannot be written again there")
        assert client.get("/api/state").get_json()["moves"] == ["4"]
        assert heard_records(heard) == [{"kept": False, "text": error}]  # one alarm
        folder.unlink()
        assert client.post("/api/move", json={"text": "4"}, headers=admin(service)).status_code == 200
        assert heard_records(heard)[-1] == {"kept": True, "text": "the record is kept again"}
    with running_service(folder) as service:
        assert service.snapshot()["moves"] == ["4", "4"]


def test_a_journal_replaced_by_another_file_is_not_written_over(tmp_path):
    folder = tmp_path / "data"
    with running_service(folder) as service:
        client = page(service)
        assert client.post("/api/move", json={"text": "4"}, headers=admin(service)).status_code == 200
        journal = folder / "journal.sqlite"
        backup = tmp_path / "backup.sqlite"
        shutil.copy(journal, backup)
        journal.unlink()
        shutil.copy(backup, journal)  # someone put a backup in its place while serving
        reply = client.post("/api/move", json={"text": "5"}, headers=admin(service))
        assert reply.status_code == 422 and "was replaced by another file while serving" in reply.get_json()["error"]
        assert client.get("/api/state").get_json()["moves"] == ["4"]
    assert journal.read_bytes()[:16] == b"SQLite format 3\x00"


def test_the_buzzer_says_the_record_cannot_be_kept():
    """The panel's buzzer (gpiozero on its mock pins) sounds the alarm when the record
    cannot be kept."""
    from controller.config import default
    from controller.devices.gpio import Panel, use_factory
    from controller.events import Bus, Event, Kind

    settings = default().gpio
    settings.factory = "mock"
    use_factory(settings)
    bus = Bus()
    panel = Panel(settings, bus)
    played = []
    panel.play = played.append
    try:
        bus.publish(Event(Kind.RECORD, {"kept": False, "text": "the record cannot be kept: database or disk is full"}))
        bus.publish(Event(Kind.RECORD, {"kept": True, "text": "the record is kept again"}))
    finally:
        panel.close()
    assert played == ["alarm"]


def test_the_page_says_the_record_cannot_be_kept_and_when_it_is_again(browser, tmp_path):
    """The page in a real Chromium: a move the full disk refuses is answered on the page
    that typed it, the notice and the status's "Record" row say the record cannot be
    kept; space freed, the next move is kept and the row goes."""
    from support import WAIT_MS, Served

    with running_service(tmp_path / "data") as service:
        served = Served(service, heartbeat_s=0.2)
        context = browser.new_context(viewport={"width": 420, "height": 900})
        try:
            page = context.new_page()
            page.goto(served.url + "/")
            page.wait_for_selector("#live.on", timeout=WAIT_MS)
            page.locator("#controls summary").click()
            page.fill("#admin-token", service.admin_token)
            page.click("#token-form button")
            page.locator("#admin-tools").wait_for(state="visible", timeout=WAIT_MS)
            served.app.extensions["referee_limits"]["pace"].clock = itertools.count(0.0, 1.0).__next__
            fill_the_disk(service.journal)
            moves = 0
            while service.submit(Enter(COLUMNS[moves])).ok:  # the table plays on until the disk is full
                moves += 1
            page.wait_for_function(f"() => document.querySelectorAll('#moves li').length === {moves}",
                                   timeout=WAIT_MS)
            page.fill("#move-text", COLUMNS[moves])  # the admin types the next move on the page
            page.press("#move-text", "Enter")
            page.locator("#move-error").wait_for(state="visible", timeout=WAIT_MS)
            assert "the record cannot be kept: database or disk is full" in page.locator("#move-error").inner_text()
            page.wait_for_selector("#notice:has-text('the record cannot be kept')", timeout=WAIT_MS)
            page.wait_for_selector("#status dd.warn:has-text('cannot be kept')", timeout=WAIT_MS)
            assert page.locator("#moves li").count() == moves
            free_the_disk(service.journal)
            page.fill("#move-text", COLUMNS[moves])
            page.press("#move-text", "Enter")
            page.wait_for_function(f"() => document.querySelectorAll('#moves li').length === {moves + 1}",
                                   timeout=WAIT_MS)
            page.wait_for_selector("#status dd.warn", state="detached", timeout=WAIT_MS)
        finally:
            context.close()
            served.close()


def test_the_camera_s_inputs_the_record_cannot_keep_are_logged_once(tmp_path, caplog):
    """The camera sees a wrong board on a full disk: its alarm cannot be written, frame
    after frame. The referee stays as it was (no alarm it could not keep), and the log
    has one line, not one a frame."""
    from controller.config import default
    from controller.events import View
    from controller.referee import Referee
    from controller.table import Table
    from vision.view import BoardView

    caplog.set_level(logging.INFO)
    journal = Journal(tmp_path / "journal.sqlite")
    referee = Referee(journal)
    referee.new_game("connect4")
    table = Table(referee, default().game)
    board = referee.game.board(referee.state)
    floating = {**{c: (label, 0.95) for c, label in board.items()}, (3, 2): ("p0", 0.95)}  # a chip in mid-air
    fill_the_disk(journal)
    with pytest.raises(RecordLost):  # the last page filled too
        while True:
            journal.append(Event("notice", {"text": "x" * 400}, referee.game_id))
    results = [table.command(View(BoardView(floating, t=10.0 + i, moved_at=9.7 + i))) for i in range(30)]
    assert all(not r.ok and "database or disk is full" in r.error for r in results)
    assert referee.alarm is None and referee.snapshot()["alarm"] is None
    assert len([r for r in caplog.records if "cannot be kept" in r.getMessage()]) == 1
    free_the_disk(journal)
    alarm = table.command(View(BoardView(floating, t=50.0, moved_at=49.7)))
    assert alarm.event is not None and alarm.event.kind == "illegal" and referee.alarm is not None
    journal.close()


def test_the_hall_hears_the_moves_after_a_deleted_journal_is_written_again(tmp_path, broker):
    """The hall's publisher reads the journal with its own connection: after the journal
    is written again at its place, it reads that one (the moves after it reached the
    hall too)."""
    from support import Listener, read, serving

    folder = tmp_path / "data"
    with serving(folder, "connect4", broker) as service:
        hall = Listener(broker.port)
        try:
            client = page(service)
            assert client.post("/api/move", json={"text": "4"}, headers=admin(service)).status_code == 200
            shutil.rmtree(folder)
            for column in "3 5".split():
                assert client.post("/api/move", json={"text": column}, headers=admin(service)).status_code == 200
            wait_for(lambda: [m.get("notation") for t, p in hall.messages if t.endswith("/events")
                              for m in [read(p)] if m.get("type") == "move"] == ["4", "3", "5"],
                     "the three moves at the hall", 15)
        finally:
            hall.close()
