"""The referee's side of the hall (controller/hall/publisher.py), heard by a plain MQTT
client on a real Mosquitto: the journal's events go out in journal order, each naming the
one before and the journal file; the table is "online" and its state retained while it
publishes and "offline" after; the newest acknowledged seq is kept in the journal file, so
a restarted table sends only what the broker has not had; a resend request sends again
from the seq asked, one for another journal is not ours. The whole hall (receiver
included) through restarts: tests/controller/hall/test_hall.py."""
from __future__ import annotations

import json
import sqlite3
import threading

import paho.mqtt.client as mqtt
import pytest

from controller.config import HallSettings
from controller.events import Bus, Event, Kind
from controller.hall.publisher import Publisher
from controller.journal import Journal
from controller.referee import Referee
from waiting import wait_for


class Heard:
    """Everything published under referee/t1/, as a hall would hear it."""

    def __init__(self, port: int):
        self.events: list[dict] = []
        self.states: list[tuple[int, int]] = []  # (the state's seq, the newest event's heard before it)
        self.last: dict[str, bytes] = {}
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="test-listener")
        subscribed = threading.Event()
        self.client.on_message = self._message
        self.client.on_subscribe = lambda *args: subscribed.set()
        self.client.connect("127.0.0.1", port)
        self.client.subscribe("referee/t1/#", qos=1)
        self.client.loop_start()
        assert subscribed.wait(5)

    def _message(self, client, userdata, message):
        leaf = message.topic.rsplit("/", 1)[1]
        self.last[leaf] = message.payload
        if leaf == "events":
            self.events.append(json.loads(message.payload))
        elif leaf == "state":
            self.states.append((json.loads(message.payload)["seq"], max((e["seq"] for e in self.events), default=0)))

    def seqs(self) -> list[tuple[int, int]]:
        return [(e["seq"], e["prev"]) for e in self.events]

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


def publisher(journal: Journal, port: int, referee: Referee | None = None) -> Publisher:
    p = Publisher(journal.path, HallSettings(enabled=True, broker="127.0.0.1", port=port, table="t1"),
                  snapshot=referee.snapshot if referee else None, client_id="test-t1")
    if referee:
        referee.bus.subscribe(p.wake)
    return p.start()


@pytest.fixture
def table(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    referee = Referee(journal, Bus())
    referee.new_game("chess")
    for san in ("e4", "e5"):
        referee.enter(san)
    yield journal, referee
    journal.close()


def test_events_go_out_in_journal_order_and_a_restarted_table_sends_only_what_is_new(tmp_path, broker, table):
    journal, referee = table
    heard = Heard(broker.port)
    first = publisher(journal, broker.port, referee)
    try:
        wait_for(lambda: len(heard.events) == 3 and first.acked == 3, "three events acknowledged", 10)
        assert heard.seqs() == [(1, 0), (2, 1), (3, 2)]
        assert [e["type"] for e in heard.events] == ["game_started", "move", "move"]
        assert {e["journal"] for e in heard.events} == {first.journal_id} and heard.events[2]["notation"] == "e5"
        wait_for(lambda: heard.last.get("state"), "the retained state", 10)
        state = json.loads(heard.last["state"])
        assert (state["table"], state["journal"], state["seq"]) == ("t1", first.journal_id, 3)
        assert heard.last["online"] == b"online"
    finally:
        first.close()
    wait_for(lambda: heard.last.get("online") == b"offline", "offline after close", 10)
    with sqlite3.connect(journal.path) as db:  # the mark is in the journal file itself
        assert db.execute("SELECT seq FROM hall_acked").fetchall() == [(3,)]
    referee.enter("Nf3")  # played while the table was not publishing
    again = publisher(journal, broker.port, referee)
    try:
        assert again.journal_id == first.journal_id and again.acked == 3
        wait_for(lambda: len(heard.events) == 4, "the new event", 10)
        assert heard.seqs()[3:] == [(4, 3)] and heard.events[3]["notation"] == "Nf3"
    finally:
        again.close()
        heard.close()


def test_a_resend_request_sends_again_from_the_seq_asked_and_only_for_this_journal(broker, table):
    journal, referee = table
    heard = Heard(broker.port)
    p = publisher(journal, broker.port, referee)
    try:
        wait_for(lambda: len(heard.events) == 3 and p.acked == 3, "three events acknowledged", 10)
        heard.client.publish("referee/t1/resend", json.dumps({"after": 0, "journal": "another-one"}), qos=1)
        heard.client.publish("referee/t1/resend", b'{"after": 1e400}', qos=1)  # not one: dropped, counted
        heard.client.publish("referee/t1/resend", json.dumps({"after": 1, "journal": p.journal_id}), qos=1)
        wait_for(lambda: len(heard.events) == 5, "seq 2 and 3 again", 10)
        assert heard.seqs()[3:] == [(2, 1), (3, 2)] and p.bad_requests == 1
        referee.enter("Nf3")
        wait_for(lambda: len(heard.events) == 6, "the next event", 10)
        assert heard.seqs()[5] == (4, 3)
    finally:
        p.close()
        heard.close()


def test_a_new_journal_file_is_another_journal_and_the_same_file_keeps_its_id(tmp_path):
    """A new SD card numbers its events from 1 again: the hall keeps its journal apart."""
    settings = HallSettings(enabled=True, broker="127.0.0.1", port=1, table="t1")

    def journal_id(path) -> str:
        p = Publisher(str(path), settings)  # never started: only the journal file is read
        p._db.close()
        return p.journal_id

    for name in ("a.sqlite", "b.sqlite"):
        Journal(tmp_path / name).close()
    ids = [journal_id(tmp_path / name) for name in ("a.sqlite", "b.sqlite", "a.sqlite")]
    assert ids[0] != ids[1] and ids[2] == ids[0] and all(len(i) == 12 for i in ids)


def test_closing_sends_what_the_journal_holds_before_saying_offline(tmp_path, broker, table):
    """A table that ends (the demo's last turn, a service stopped) gives the broker the
    events it has not yet sent before it says "offline": the hall has the game's end now,
    not when the table next starts."""
    journal, referee = table
    heard = Heard(broker.port)
    p = publisher(journal, broker.port)  # woken by no bus: its thread looks at the journal twice a second
    try:
        wait_for(lambda: p.acked == 3, "three events acknowledged", 10)
        for i in range(300):  # more than the publisher sends at once (WINDOW)
            journal.append(Event(Kind.NOTICE, {"text": f"note {i}"}, 1, t=float(i)))
    finally:
        p.close()
    wait_for(lambda: heard.last.get("online") == b"offline", "offline after close", 10)
    assert [seq for seq, _ in heard.seqs()] == list(range(1, 304))
    heard.close()


def test_the_state_never_runs_ahead_of_the_events_sent(broker, table):
    """The retained state says the seq the table stands at, and the hall takes a state
    ahead of the events it kept for events lost, and asks for them: an event written
    between the publisher's sending and its reading the state must wait for the next
    state (test_hall_trust.py saw a gap noted so under load)."""
    journal, referee = table
    heard = Heard(broker.port)
    p = publisher(journal, broker.port, referee)
    try:
        for i in range(300):  # events written as fast as the journal takes them, each waking the publisher
            journal.append(Event(Kind.NOTICE, {"text": f"note {i}"}, 1, t=float(i)))
            p.wake()
        wait_for(lambda: len(heard.events) == 303 and heard.states and heard.states[-1][0] == 303,
                 "every event and the last state", 10)
    finally:
        p.close()
        heard.close()
    ahead = [(state, newest) for state, newest in heard.states if state > newest]
    assert not ahead, f"states ahead of the events heard before them: {ahead[:5]}"
