"""The hall's side: every table's topics from the broker into the hall's journal and bus.

The hall subscribes to `referee/+/events`, `/state` and `/online` with QoS 1 under a
fixed client id and a kept session, so a broker that stays up holds the events of a
hall that is away. Whatever is lost anyway (a broker restarted without persistence, a
hall that was away longer) shows as a gap: an event that does not follow the last one
kept, or a retained state newer than it. The hall then asks that table, on
`referee/T/resend`, for everything after its last kept seq, and asks again every
`RETRY_S` while the gap stays open. It also asks a table each time the table says it is
online (on every connection, and retained for a hall that connects later), for all of
it when the hall has nothing of it yet: events a broker acknowledged and lost before it
restarted, or sent before the hall first listened, leave no gap to notice until the
table's next event, and a table that ends first could no longer answer. A table
answers with what comes after, nothing when the hall has it all. What is kept goes out
on the hall's bus to the page. The hall counts as connected once the broker has
acknowledged its subscriptions: before that, what tables send passes it by.

The hall trusts nothing it receives: each message is checked field by field
(message.py) and a bad one is dropped, the first from each table logged and shown, the
rest counted; no message can end the network thread, and a fault that does is on the
page (NetworkLoop). Only MAX_TABLES table names are kept, so a stranger inventing names
cannot grow the journal without end. Whether the broker lets anonymous clients publish
is probed at every connection (probe.py) and warned of on the page.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

from ..events import Bus, Event, Kind, clears_alarm
from . import NetworkLoop, mqtt_client, table_of, topic
from . import message as check
from .probe import PUBLISHES, AnonymousProbe
from .store import HallStore

log = logging.getLogger("referee.hall")

RETRY_S = 2.0  # how soon a gap that stays open is asked for again
MAX_TABLES = 500  # table names the hall keeps (a club has a few dozen tables at most)
LEAVES = ("events", "state", "online")


class Hall:
    def __init__(self, folder: str | Path, broker: str, port: int = 1883, *, username: str = "",
                 password: str = "", tls: bool = False, ca_file: str = "", client_id: str = "referee-hall"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        self.store = HallStore(Path(folder) / "hall.sqlite")
        self.bus = Bus()
        self.broker = f"{broker}:{port}"
        self.connected = False
        self.notes: list[str] = []  # gaps and unreadable messages, the newest 50, for the page
        self.dropped: dict[str, int] = {}  # messages dropped, by table ("" for no table's topic)
        self._asked: dict[str, float] = {}
        self._names = {t["table"] for t in self.store.tables()}
        self._stop = threading.Event()
        self._client = mqtt_client(client_id, username=username, password=password, tls=tls,
                                   ca_file=ca_file, clean_session=False)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_subscribe = self._on_subscribe
        self._client.on_message = self._on_message
        self._host, self._port = broker, port
        self.probe = AnonymousProbe(broker, port, tls, ca_file)
        self._network = NetworkLoop(self._client, "hall-mqtt", lambda fault: self._note(
            f"the hall's MQTT loop failed ({fault}): it starts again in a few seconds"))
        self._watch = threading.Thread(target=self._watch_gaps, name="hall-gaps", daemon=True)

    def start(self) -> "Hall":
        self._client.connect_async(self._host, self._port, keepalive=10)
        self._network.start()
        self._watch.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._network.stop()
        self._watch.join(timeout=3)
        self.store.close()

    def _note(self, text: str) -> None:
        log.warning("hall: %s", text)
        self.notes = (self.notes + [text])[-50:]
        self.bus.publish(Event(Kind.HALL_NOTE, {"text": text}))

    def _drop(self, table: str, why: str) -> None:
        """A message not taken: the first from each table logged and on the page, the
        rest counted (a flood must not flood the log too). Invented table names are
        counted apart only up to MAX_TABLES, then together under ""."""
        if table not in self.dropped and len(self.dropped) >= MAX_TABLES:
            table = ""
        count = self.dropped.get(table, 0)
        self.dropped[table] = count + 1
        if count == 0:
            self._note(f"table {table}: a message was dropped: {why} (later ones from it are counted, not logged)"
                       if table else f"a message was dropped: {why} (later ones like it are counted, not logged)")

    # --- the network thread ---------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            self._note(f"broker {self.broker} refused the hall: {reason}")
            return
        client.subscribe([(topic("+", leaf), 1) for leaf in LEAVES] + [(self.probe.topic, 1)])

    def _on_subscribe(self, client, userdata, mid, reasons, properties) -> None:
        refused = [str(r) for r in reasons if r.is_failure]
        if refused:
            self._note(f"broker {self.broker} refused the hall's subscriptions ({', '.join(refused)}): "
                       "give the hall's user read access to referee/# (hardware.md, \"A hall of tables: the broker\")")
            return
        self.connected = True
        log.info("hall: connected to %s", self.broker)
        self.bus.publish(Event(Kind.HALL_LINK, {"state": "up"}))
        threading.Thread(target=self._probe_broker, daemon=True).start()

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        self.connected = False
        self.bus.publish(Event(Kind.HALL_LINK, {"state": "down"}))

    def _probe_broker(self) -> None:
        if self.probe.run() == PUBLISHES:
            self._note(self.warnings()[0])
        self.bus.publish(Event(Kind.HALL_WARNINGS, {"warnings": self.warnings()}))

    def _on_message(self, client, userdata, message) -> None:
        try:
            self._receive(message.topic, message.payload)
        except Exception as exc:  # noqa: BLE001 - one message must never end the network thread
            if not self.dropped.get(""):  # the first with its traceback; then counted like the rest
                log.exception("hall: a message on %r could not be taken", message.topic[:100])
            self._drop("", f"{message.topic[:80]}: {type(exc).__name__}: {exc}")

    def _receive(self, name: str, payload: bytes) -> None:
        if name == self.probe.topic:
            self.probe.heard(payload)
            return
        where = table_of(name)
        if where is None or where[1] not in LEAVES:
            self._drop("", f"{name[:80]!r} is no table's topic (referee/<letters, digits, - or _>/{'|'.join(LEAVES)})")
            return
        table, leaf = where
        if table not in self._names and len(self._names) >= MAX_TABLES:
            self._drop("", f"table {table}: the hall keeps {MAX_TABLES} tables and has them all")
            return
        try:
            if leaf == "online":
                online = check.online(payload)
                self.store.set_online(table, online)
                self.bus.publish(Event(Kind.HALL_ONLINE, {"table": table, "online": online}))
                if online == "online":  # back: ask now, and at once on its next gap
                    self._asked.pop(table, None)
                    self._ask(table, *(self.store.present(table) or (None, 0)))
            elif leaf == "events":
                self._event(table, check.event(payload))
            else:
                data = check.state(payload)
                self.store.set_state(table, data)
                self.bus.publish(Event(Kind.HALL_STATE, {"table": table, "state": data}))
                self._ask_if_behind()
        except check.BadMessage as exc:
            self._drop(table, f"{leaf}: {exc}")
            return
        self._names.add(table)  # a name counts once something of it was taken

    def _event(self, table: str, data: dict) -> None:
        verdict = self.store.add(table, data)
        if verdict == "restored":
            self._note(self.store.went_back[table])
        if verdict in ("kept", "restored"):
            self._asked.pop(table, None)
            # the hall's page asks the event whether it puts the table's alarms right
            self.bus.publish(Event(Kind.HALL_EVENT, {"table": table, "event": {**data, "clears_alarm": clears_alarm(data["type"])}}))
        elif verdict == "gap":
            self._ask_if_behind()
        elif verdict == "conflict":
            self._drop(table, f"event seq {data['seq']} ({data['type']}) differs from the one kept with that "
                              "seq: two publishers speak as this table (or its journal was restored from an "
                              "earlier copy and played on before it told the hall); the first is kept "
                              "(see Conflicts)")

    # --- asking for what is missing ----------------------------------------------------------
    def _ask_if_behind(self) -> None:
        now = time.monotonic()
        for table, journal, last in self.store.behind():
            if now - self._asked.get(table, -1e9) >= RETRY_S and self.connected:
                if table not in self._asked:
                    self._note(f"table {table}: events after seq {last} are missing; asked for them again")
                self._asked[table] = now
                self._ask(table, journal, last)

    def _ask(self, table: str, journal: str | None, last: int) -> None:
        """Ask `table` for its events after `last` of `journal` (None: of whichever
        journal it has, when the hall has none of the table's yet)."""
        asked = {"after": last} if journal is None else {"after": last, "journal": journal}
        self._client.publish(topic(table, "resend"), json.dumps(asked), qos=1)

    def _watch_gaps(self) -> None:
        while not self._stop.wait(RETRY_S / 2):
            try:
                self._ask_if_behind()
            except Exception:  # the store closing under it at shutdown, or a fault: look again later
                if not self._stop.is_set():
                    log.exception("hall: looking for gaps failed")

    # --- what the page shows ------------------------------------------------------------------
    def warnings(self) -> list[str]:
        """What the organiser must act on, most urgent first."""
        out = []
        if self.probe.result == PUBLISHES:
            out.append(f"broker {self.broker} lets clients without a user name publish: what it carries cannot "
                       "be trusted, for anyone on its network can send moves, states and results as any table "
                       "(the hall keeps one card per table and never lets a forged event displace a kept one, "
                       "but cannot tell a forged game from a real one). Give each table its own user and an ACL "
                       "(hardware.md, \"A hall of tables: the broker\").")
        if not self._network.running and not self._stop.is_set():
            out.append(f"the hall is not receiving from the broker: its MQTT loop failed "
                       f"({self._network.fault or 'it stopped'}); if this stays, restart `referee hall`")
        return out

    def overview(self) -> dict:
        return {"broker": self.broker, "connected": self.connected and self._network.running,
                "receiving": self._network.running, "anonymous": self.probe.result, "warnings": self.warnings(),
                "dropped": dict(self.dropped), "conflicts": self.store.conflicts(),
                "tables": self.store.tables(), "alarms": self.store.alarms(), "rounds": self.store.rounds(),
                "notes": list(self.notes)}
