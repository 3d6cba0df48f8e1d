"""Issue 21: the hall trusts nothing it receives, and a table nothing the hall asks.
Forged and broken messages published on a real Mosquitto (loopback) by a plain paho
client, as anyone on an anonymous broker could: each is dropped with one note naming
the table and the field, the receiving threads on both sides go on, a forged event never
displaces the one kept, and the page warns that the broker lets anonymous clients in."""
from __future__ import annotations

import json
import time


import controller.hall as hall_package
from hall_forger import forger, publish
from support import need
from controller.config import HallSettings
from controller.events import Bus
from controller.hall.export import export_round
from controller.hall.publisher import Publisher
from controller.hall import receiver
from controller.hall.receiver import Hall
from controller.journal import Journal
from controller.referee import Referee
from mosquitto import MOSQUITTO, MOSQUITTO_PASSWD, Mosquitto
from waiting import wait_for


def table(tmp_path, port: int, name: str = "t1", game: str = "chess"):
    """A table's referee and its publisher on the broker."""
    journal = Journal(tmp_path / f"{name}.sqlite")
    referee = Referee(journal, Bus())
    referee.new_game(game)
    publisher = Publisher(journal.path, HallSettings(enabled=True, broker="127.0.0.1", port=port, table=name),
                          snapshot=referee.snapshot, client_id=f"test-{name}")
    referee.bus.subscribe(publisher.wake)
    return referee, publisher.start()


BROKEN = [  # (what, topic leaf, payload): each must be dropped, and the hall go on
    ("seq", "events", b'{"type": "move", "seq": 1e400, "prev": 0, "t": 1.0, "game_id": 1}'),
    ("nests", "events", b"[" * 30_000),
    ("game_id", "events", b'{"type": "move", "seq": 5, "prev": 4, "t": 1.0, "game_id": [1]}'),
    ("type", "events", b'{"type": {"x": 1}, "seq": 5, "prev": 4, "t": 1.0}'),
    ("t", "events", b'{"type": "move", "seq": 5, "prev": 4, "t": "soon"}'),
    ("not valid JSON", "state", b"\xff\xfe"),
    ("seq", "state", b'{"journal": "abc", "seq": -3}'),
    ("online flag", "online", b"x" * 500),
]


def test_forged_and_broken_messages_are_dropped_and_the_hall_keeps_hearing(tmp_path, broker):
    """Issue 21 #1: `"seq": 1e400` raised OverflowError in the hall's network thread and it
    heard nothing more from any table, while its page said connected."""
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    bad = forger(broker.port)
    try:
        wait_for(lambda: hall.connected, "the hall to connect", 10)
        for _what, leaf, payload in BROKEN:
            publish(bad, f"referee/t1/{leaf}", payload)
        publish(bad, "referee/no such table!/events", b"{}")
        referee, publisher = table(tmp_path, broker.port)  # the real t1, after the forgeries
        referee.enter("e4")
        wait_for(lambda: [e["type"] for e in hall.store.events("t1")] == ["game_started", "move"],
                 "table t1's real events at the hall", 10)
        overview = hall.overview()
        assert overview["receiving"] and overview["connected"]
        assert overview["dropped"]["t1"] == len(BROKEN)
        notes = [n for n in hall.notes if n.startswith("table t1:")]
        assert len(notes) == 1, notes  # one note for the table, the rest counted
        assert "events: the event is not valid JSON (the number 1e400 is out of range)" in notes[0]
        assert any("no table's topic" in n for n in hall.notes)
        publisher.close()
    finally:
        bad.loop_stop()
        hall.close()


def test_invented_table_names_cannot_grow_the_hall_without_end(tmp_path, broker, monkeypatch):
    monkeypatch.setattr(receiver, "MAX_TABLES", 3)
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    bad = forger(broker.port)
    try:
        wait_for(lambda: hall.connected, "the hall to connect", 10)
        for n in range(6):
            publish(bad, f"referee/x{n}/events", b"junk")  # dropped: no name taken
        for n in range(6):
            publish(bad, f"referee/made-up-{n}/online", b"online")
        # counted apart for three names, then together
        wait_for(lambda: hall.dropped == {"x0": 1, "x1": 1, "x2": 1, "": 6}, "every message dropped or kept", 10)
        assert [t["table"] for t in hall.store.tables()] == ["made-up-0", "made-up-1", "made-up-2"]
    finally:
        bad.loop_stop()
        hall.close()


def test_a_resend_request_out_of_range_leaves_the_table_publishing(tmp_path, broker):
    """Issue 21 #1: `{"after": 1e400}` on referee/T/resend ended the table's network
    thread: that table went offline at the hall for good."""
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    referee, publisher = table(tmp_path, broker.port)
    bad = forger(broker.port)
    try:
        wait_for(lambda: hall.store.events("t1"), "t1's start at the hall", 10)
        for payload in (b'{"after": 1e400}', b'{"after": -1}', b"[" * 50_000, b'{"after": "x"}'):
            publish(bad, "referee/t1/resend", payload)
        wait_for(lambda: publisher.bad_requests == 4, "the four requests to be dropped", 10)
        referee.enter("e4")
        wait_for(lambda: len(hall.store.events("t1")) == 2, "t1's move after the bad requests", 10)
        publish(bad, "referee/t1/resend", json.dumps({"after": 0, "journal": publisher.journal_id}))
        wait_for(lambda: publisher.sent >= 4, "a good request answered: both events sent again", 10)
    finally:
        bad.loop_stop()
        publisher.close()
        hall.close()


def test_a_forged_event_never_displaces_the_one_kept_and_the_conflict_is_flagged(tmp_path, broker):
    """Issue 21 #2: a fake game_over with the next seq was kept as the game's result, and
    the real event with that number (the move) dropped as a duplicate, without a word."""
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    referee, publisher = table(tmp_path, broker.port)
    bad = forger(broker.port)
    try:
        wait_for(lambda: hall.store.events("t1"), "t1's start at the hall", 10)
        forged = {"type": "game_over", "winner": 1, "reason": "Bowser's team wins: forged", "game_id": 1,
                  "seq": 2, "prev": 1, "t": time.time(), "journal": publisher.journal_id}
        publish(bad, "referee/t1/events", json.dumps(forged))
        wait_for(lambda: len(hall.store.events("t1")) == 2, "the forgery at the hall", 10)
        referee.enter("e4")  # the real seq 2
        wait_for(lambda: hall.overview()["conflicts"], "the conflict to be flagged", 10)
        conflict = hall.overview()["conflicts"][0]
        assert (conflict["table"], conflict["seq"]) == ("t1", 2)
        assert conflict["kept"]["type"] == "game_over" and conflict["refused"]["notation"] == "e4"
        assert any("two publishers speak as this table" in n for n in hall.notes)
        publish(bad, "referee/t1/events", json.dumps(forged))  # the forger again: a duplicate, no new conflict
        referee.enter("e5")
        wait_for(lambda: len(hall.store.events("t1")) == 3, "the next real event", 10)
        assert len(hall.overview()["conflicts"]) == 1
        _, _, problems = export_round(hall.store, None)
        assert problems and "table t1 game 1: another publisher sent events" in problems[0]
        # the other way round: a forgery after the real event leaves the real one kept
        referee.enter("Nf3")
        wait_for(lambda: len(hall.store.events("t1")) == 4, "the real seq 4", 10)
        publish(bad, "referee/t1/events", json.dumps({**forged, "seq": 4, "prev": 3}))
        wait_for(lambda: len(hall.overview()["conflicts"]) == 2, "the second conflict", 10)
        assert hall.store.events("t1")[3]["notation"] == "Nf3"
    finally:
        bad.loop_stop()
        publisher.close()
        hall.close()


def test_the_hall_warns_when_the_broker_lets_anonymous_clients_publish(tmp_path, broker):
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    try:
        wait_for(lambda: hall.overview()["anonymous"] == "publishes", "the probe's verdict", 15)
        warning = hall.overview()["warnings"][0]
        assert "lets clients without a user name publish" in warning and "hardware.md" in warning
    finally:
        hall.close()


def test_a_broker_with_passwords_and_an_acl_gets_no_warning(tmp_path):
    need(MOSQUITTO is not None and MOSQUITTO_PASSWD is not None,
         "mosquitto and mosquitto_passwd are missing (apt install mosquitto)")
    broker = Mosquitto(tmp_path / "broker", users={"hall": "hall-pw", "t1": "t1-pw"}).start()
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port, username="hall", password="hall-pw").start()
    try:
        wait_for(lambda: hall.overview()["anonymous"] == "refused", "the probe's verdict", 15)
        assert hall.overview()["warnings"] == []
    finally:
        hall.close()
        broker.stop()


def test_a_fault_in_the_network_loop_is_on_the_page_and_the_loop_runs_again(tmp_path, broker, monkeypatch):
    """What no check foresaw (here: a callback that raises) must not leave the hall deaf
    while its page says connected."""
    monkeypatch.setattr(hall_package, "RESTART_S", 0.5)
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    bad = forger(broker.port)
    try:
        wait_for(lambda: hall.connected, "the hall to connect", 10)
        taken = hall._client.on_message

        def fault(*args):
            hall._client.on_message = taken  # once
            raise RuntimeError("a fault nobody foresaw")

        hall._client.on_message = fault
        publish(bad, "referee/t1/online", b"online")
        wait_for(lambda: any("MQTT loop failed (RuntimeError: a fault nobody foresaw)" in n for n in hall.notes),
                 "the fault on the page", 10)
        referee, publisher = table(tmp_path, broker.port)
        wait_for(lambda: hall.store.events("t1"), "t1's start, heard after the fault", 10)
        assert hall.overview()["receiving"] and hall.overview()["warnings"][1:] == []
        publisher.close()
    finally:
        bad.loop_stop()
        hall.close()
