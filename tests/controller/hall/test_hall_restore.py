"""Issue 28 #8: a table's journal restored from an earlier copy, and states forged under
a new journal id, at a hall on a real Mosquitto (loopback). A restored journal numbers
its new events from where the copy stood: the hall keeps what it had as it was, follows
the restored history apart (never spliced after the old one), and names the cause (it
used to blame "two publishers"). A state alone under a journal id of its own never takes
a table's card over."""
from __future__ import annotations

import json
import sqlite3
import time

from controller.config import HallSettings
from controller.events import Bus
from controller.hall.publisher import Publisher
from controller.hall.receiver import Hall
from controller.journal import Journal
from controller.referee import Referee
from hall_forger import forger, publish
from waiting import wait_for


class Seat:
    """A table's journal (a file), its referee and its publisher."""

    def __init__(self, path, port: int, new: bool):
        self.journal = Journal(path)
        self.referee = Referee(self.journal, Bus())
        if new:
            self.referee.new_game("chess")
        else:
            assert self.referee.resume()
        self.publisher = Publisher(self.journal.path, HallSettings(enabled=True, broker="127.0.0.1", port=port,
                                                                   table="t1"),
                                   snapshot=self.referee.snapshot, client_id="test-t1")
        self.referee.bus.subscribe(self.publisher.wake)
        self.publisher.start()

    def close(self) -> None:
        self.publisher.close()
        self.journal.close()


def kinds(events) -> list:
    return [e.get("notation", e["type"]) for e in events]


def test_a_journal_restored_from_a_copy_is_kept_apart_and_named(tmp_path, broker):
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    path, copy = tmp_path / "journal.sqlite", tmp_path / "backup.sqlite"
    seat = Seat(path, broker.port, new=True)
    try:
        for move in ("e4", "e5"):
            seat.referee.enter(move)
        wait_for(lambda: len(hall.store.events("t1")) == 3, "the first moves at the hall", 10)
        with sqlite3.connect(copy) as backup:  # the club's backup, taken now
            sqlite3.connect(path).backup(backup)
        for move in ("Nf3", "Nc6"):
            seat.referee.enter(move)
        wait_for(lambda: len(hall.store.events("t1")) == 5, "the later moves at the hall", 10)
    finally:
        seat.close()
    old = hall.store.tables()[0]["journal"]
    for leftover in tmp_path.glob("journal.sqlite*"):
        leftover.unlink()
    copy.rename(path)  # the journal restored from the backup; play goes on from it

    seat = Seat(path, broker.port, new=False)
    try:
        # the table says where its journal stands as it connects, before anyone plays on
        wait_for(lambda: hall.store.tables()[0]["state"]["seq"] == 3, "the restored table's state", 10)
        for move in ("d4", "exd4", "c3"):
            seat.referee.enter(move)
        wait_for(lambda: kinds(hall.store.events("t1")) == ["game_started", "e4", "e5", "d4", "exd4", "c3"],
                 "the restored history on t1's card", 10)
        time.sleep(0.5)  # anything else the table sent has arrived
        assert kinds(hall.store.events("t1", journal=old)) == ["game_started", "e4", "e5", "Nf3", "Nc6"]
        assert hall.store.tables()[0]["journal"] != old and len(hall.store.tables()) == 1
        assert hall.overview()["conflicts"] == []
        said = [n for n in hall.notes if n.startswith("table t1:")]
        assert any("went back from seq 5 to seq 3" in n and "restored from an earlier copy" in n for n in said), said
        assert not any("two publishers" in n for n in said)
    finally:
        seat.close()
        hall.close()


def test_a_state_forged_under_a_new_journal_id_does_not_take_the_card_over(tmp_path, broker):
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    seat = Seat(tmp_path / "journal.sqlite", broker.port, new=True)
    bad = forger(broker.port)
    try:
        seat.referee.enter("e4")
        wait_for(lambda: (hall.store.tables() or [{}])[0].get("state", {}) and
                 hall.store.tables()[0]["state"]["moves"] == ["e4"], "t1's card", 10)
        card = hall.store.tables()[0]
        forged = {**card["state"], "journal": "abcdef012345", "seq": 90, "moves": ["f3", "e5", "g4", "Qh4#"]}
        publish(bad, "referee/t1/state", json.dumps(forged))
        publish(bad, "referee/t9/online", b"online")  # after the forgery: once t9 is known, it was read
        wait_for(lambda: "t9" in [t["table"] for t in hall.store.tables()], "the forged state to be read", 10)
        now = [t for t in hall.store.tables() if t["table"] == "t1"][0]
        assert now["journal"] == card["journal"] and now["state"]["moves"] == ["e4"]
        seat.referee.enter("e5")  # the real table goes on
        wait_for(lambda: hall.store.tables()[0]["state"]["moves"] == ["e4", "e5"]
                 and len(hall.store.events("t1")) == 3, "the real next move and state", 10)
        after = [t for t in hall.store.tables() if t["table"] == "t1"]
        assert len(after) == 1 and after[0]["journal"] == card["journal"]
        assert kinds(hall.store.events("t1")) == ["game_started", "e4", "e5"]
        # the page says why such a broker cannot be trusted
        wait_for(lambda: hall.warnings(), "the anonymous broker's warning", 10)
        assert "cannot be trusted" in hall.warnings()[0]
    finally:
        bad.loop_stop()
        seat.close()
        hall.close()
