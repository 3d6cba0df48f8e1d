"""The journal: events survive a kill, bad files are reported and left untouched."""
import json
import signal
import subprocess
import sys
import textwrap

import pytest

from controller.events import Bus
from controller.journal import Journal, JournalError, open_journal
from controller.referee import Referee


def test_an_event_is_written_before_anyone_hears_of_it(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    bus = Bus()
    seen = []
    # a listener that reads the journal from another connection when it hears an event
    bus.subscribe(lambda e: seen.append([x.seq for x in Journal(tmp_path / "j.sqlite").events(e.game_id)]))
    referee = Referee(journal, bus)
    referee.new_game("connect4", "classic")
    referee.enter("4")
    assert seen[-1] == [1, 2] and seen[0] == [1]


def test_resume_after_the_process_is_killed_mid_game(tmp_path):
    script = textwrap.dedent(f"""
        import os, signal
        from controller.journal import open_journal
        from controller.referee import Referee
        journal, _ = open_journal({str(tmp_path)!r})
        r = Referee(journal)
        r.new_game("connect4", "blocker")
        for m in ["4", "4", "b3/2", "5"]:
            r.enter(m)
        os.kill(os.getpid(), signal.SIGKILL)  # the plug is pulled
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True)
    assert proc.returncode == -signal.SIGKILL
    journal, notes = open_journal(tmp_path)
    assert notes == []
    referee = Referee(journal)
    assert referee.resume()
    assert referee.history == ["4", "4", "b3/2", "5"]
    assert referee.state.cols[2][1] == "B0" and referee.state.turn == 0
    referee.enter("5")
    assert referee.history[-1] == "5"


def test_finished_games_are_not_resumed_and_undo_reopens(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    referee = Referee(journal)
    referee.new_game("connect4", "classic")
    for m in "1 2 1 2 1 2 1".split():
        referee.enter(m)
    assert referee.snapshot()["outcome"]["winner"] == 0
    assert journal.open_game() is None
    assert not Referee(journal).resume()
    referee.undo()
    assert referee.snapshot()["outcome"] is None and referee.history == ["1", "2", "1", "2", "1", "2"]
    fresh = Referee(journal)
    assert fresh.resume() and fresh.history == referee.history


def test_export_holds_every_event_in_order(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    referee = Referee(journal)
    referee.new_game("connect4", "classic")
    referee.enter("4")
    referee.enter("9")
    record = journal.export(referee.game_id)
    assert [e["type"] for e in record["events"]] == ["game_started", "move", "illegal"]
    assert record["game"] == "connect4" and json.dumps(record)


def test_corrupt_journal_is_reported_left_untouched_and_a_new_one_started(tmp_path):
    bad = tmp_path / "journal.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    before = bad.read_bytes()
    journal, notes = open_journal(tmp_path)
    assert "journal.sqlite" in str(notes[0]) and "left untouched" in str(notes[0])
    assert bad.read_bytes() == before
    assert journal.path != str(bad)
    Referee(journal).new_game("connect4", "classic")
    journal.close()
    # the next start goes on with the journal started beside it
    again, notes2 = open_journal(tmp_path)
    assert again.path == journal.path and any("going on with" in str(n) for n in notes2)


def test_journal_from_a_newer_version_is_refused(tmp_path):
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    import sqlite3
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    try:
        Journal(path)
    except JournalError as exc:
        assert "newer version" in str(exc) and str(path) in str(exc)
    else:
        raise AssertionError("a newer journal was opened")
    journal, notes = open_journal(tmp_path)
    assert journal.path != str(path) and "newer version" in str(notes[0])


def test_a_record_that_cannot_be_replayed_is_kept_closed_and_named(tmp_path):
    import sqlite3

    journal = Journal(tmp_path / "j.sqlite")
    referee = Referee(journal)
    referee.new_game("connect4", "classic")
    referee.enter("4")
    journal.close()
    db = sqlite3.connect(tmp_path / "j.sqlite")
    db.execute("UPDATE events SET data = ? WHERE kind = 'move'", (json.dumps({"notation": "9"}),))
    db.commit()
    db.close()
    journal = Journal(tmp_path / "j.sqlite")
    fresh = Referee(journal)
    assert not fresh.resume()
    assert "game 1 (connect4) cannot be resumed" in fresh.notes[0] and "j.sqlite" in fresh.notes[0]
    assert journal.games()[0]["result"] == "unreadable" and len(journal.events(1)) == 2
    fresh.new_game("connect4", "classic")  # play goes on in a new game
    assert fresh.enter("4").kind == "move"


def test_a_game_and_its_start_are_written_together(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    event = Referee(journal).new_game("connect4", "blocker")
    assert (event.game_id, event.seq) == (1, 1)
    assert [e.kind for e in journal.events(1)] == ["game_started"] and journal.open_game()["id"] == 1


def test_an_illegal_typed_line_is_journalled_and_broadcast_cut_to_a_bound(tmp_path):
    """Issue 13: 300 typed lines of 60,000 characters grew the journal by 36 MB."""
    journal = Journal(tmp_path / "j.sqlite")
    bus = Bus()
    heard = []
    bus.subscribe(heard.append)
    referee = Referee(journal, bus)
    referee.new_game("chess")
    size = (tmp_path / "j.sqlite").stat().st_size
    for _ in range(50):
        event = referee.enter("x" * 60_000)
        assert event.kind == "illegal"
    stored = journal.events(referee.game_id)[-1].data
    assert stored["input"].startswith("x" * 500) and "(60000 characters, cut)" in stored["input"]
    assert all(len(v) < 600 for v in stored.values() if isinstance(v, str))
    assert heard[-1].data == stored  # the page hears what the journal holds
    journal.close()
    grown = sum(p.stat().st_size for p in tmp_path.glob("j.sqlite*")) - size
    assert grown < 400_000, grown  # 50 lines, not 3 MB


def test_a_data_folder_that_is_a_file_or_a_journal_that_is_a_folder_is_named(tmp_path):
    """Issue 13: both gave errors naming no path."""
    (tmp_path / "data").write_text("not a folder")
    try:
        open_journal(tmp_path / "data")
        raise AssertionError("a file was taken for the data folder")
    except JournalError as exc:
        assert str(tmp_path / "data") in str(exc) and "is a file" in str(exc)
    (tmp_path / "d2" / "journal.sqlite").mkdir(parents=True)
    try:
        open_journal(tmp_path / "d2")
        raise AssertionError("a folder was taken for the journal")
    except JournalError as exc:
        assert str(tmp_path / "d2" / "journal.sqlite") in str(exc) and "is a folder" in str(exc)


def test_a_season_of_games_does_not_grow_the_journals_memory(tmp_path):
    """Games over are not kept in memory: SQLite's page cache is bounded (CACHE_KB), so
    after the first games, hundreds more leave the memory in use as it was (glibc's own
    count of bytes in use: the cache lives in C, out of Python's sight)."""
    import ctypes
    import ctypes.util

    from controller.events import Event

    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    if not hasattr(libc, "mallinfo2"):
        pytest.skip("the C library has no mallinfo2 (not glibc)")

    class MallInfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in
                    "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost".split()]

    libc.mallinfo2.restype = MallInfo2
    journal = Journal(tmp_path / "journal.sqlite")

    def play(games):
        for _ in range(games):
            first = journal.start_game("connect4", "classic", Event("game_started", {"game": "connect4"}))
            for _ in range(20):
                journal.append(Event("move", {"notation": "4", "text": "Mario drops a chip " * 4}, first.game_id))
            journal.end_game(first.game_id, "won")

    play(300)  # the cache fills
    in_use = libc.mallinfo2().uordblks
    play(500)  # about 1.5 MB more journal
    assert libc.mallinfo2().uordblks - in_use < 150_000
    journal.close()


def test_the_record_s_troubles_are_said_in_the_table_s_language(tmp_path):
    """The journal's words are catalogue messages: the page and the voice hear them in
    the table's language; the log keeps the English."""
    heard = []
    bus = Bus()
    bus.subscribe(heard.append)
    path = tmp_path / "journal.sqlite"
    referee = Referee(Journal(str(path)), bus, lang="de")
    referee.new_game("connect4")
    path.unlink()
    referee.check_record()  # deleted: written again from the copy kept open, and said
    assert [e.data["text"] for e in heard if e.kind == "record"] == [
        f"das Journal {path} wurde während des Betriebs gelöscht oder verschoben",
        f"das Journal {path} wird aus der offen gehaltenen Kopie neu geschrieben: nichts ging verloren"]
    path.unlink()
    path.write_bytes(b"another file")
    referee.check_record()  # replaced: not written over
    assert heard[-1].data == {"kept": False, "text": f"die Partie kann nicht mehr notiert werden: das Journal {path} "
                              "wurde während des Betriebs durch eine andere Datei ersetzt; sie wird nicht "
                              "überschrieben (den Schiedsrichter neu starten, um sie zu verwenden)"}
