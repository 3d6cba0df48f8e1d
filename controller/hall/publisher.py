"""The referee's side of the hall: the journal's public record to the broker.

The publisher reads the journal (its own SQLite connection to the same file: WAL lets it
read while the referee writes) on its own thread, so refereeing never waits for the
broker or the network. It keeps in the journal file, in table `hall_acked`, the newest
seq the broker has acknowledged (PUBACK, QoS 1) with every earlier one; on (re)connect
it sends again everything after that mark, in journal order. The hall drops what it
already has (by table and seq) and, when it notices a gap (an event whose `prev` it
never got, lost by a broker that restarted before passing it on), asks on
`referee/T/resend` for everything after its last one: the mark goes back there too.

Only the paho network thread calls the callbacks; they only queue what happened, and
the publisher's own thread does the rest (paho calls `on_publish` holding a lock that
`publish` needs, so nothing in a callback may publish or wait).
"""
from __future__ import annotations

import json
import logging
import os
import queue
import secrets
import sqlite3
import threading
import time
from collections import deque

from ..events import Kind
from . import NetworkLoop, mqtt_client, topic
from . import message as check

log = logging.getLogger("referee.hall")

WINDOW = 200  # events sent and not yet acknowledged, at most
BATCH = 100  # events read from the journal at once


class Publisher:
    """Publishes the journal at `journal_path` for table `settings.table` ([hall]).
    `snapshot()`: the table's public snapshot for the retained state (None: no state)."""

    def __init__(self, journal_path: str, settings, snapshot=None, client_id: str | None = None):
        self.table = settings.table
        self.settings = settings
        self._snapshot = snapshot
        self._path = journal_path
        self._db = sqlite3.connect(journal_path, check_same_thread=False, timeout=10, isolation_level=None)
        self._file = _identity(journal_path)
        self._db.execute("CREATE TABLE IF NOT EXISTS hall_acked (broker TEXT PRIMARY KEY, seq INTEGER NOT NULL)")
        # this journal file's id: a new file (a new SD card, a journal started beside a
        # damaged one) numbers its events from 1 again, and the hall keeps them apart
        self._db.execute("CREATE TABLE IF NOT EXISTS hall_journal (id TEXT NOT NULL)")
        row = self._db.execute("SELECT id FROM hall_journal").fetchone()
        if row is None:
            row = (secrets.token_hex(6),)
            self._db.execute("INSERT INTO hall_journal(id) VALUES (?)", row)
        self.journal_id = row[0]
        self._key = f"{settings.broker}:{settings.port}/{settings.table}"
        row = self._db.execute("SELECT seq FROM hall_acked WHERE broker=?", (self._key,)).fetchone()
        self.acked = row[0] if row else 0  # the broker has every event up to this seq
        self._saved = self.acked
        self._cursor = self.acked  # the newest seq sent on this connection
        self._inflight: deque[list] = deque()  # [seq, mid, acked] in the order sent
        self._mids: dict[int, list] = {}
        self._public: dict[int, dict] = {}  # game id -> its public setup
        self._last_state: bytes | None = None
        self._changed = True  # the snapshot may differ from the one last sent
        self._todo: queue.SimpleQueue = queue.SimpleQueue()  # what the callbacks saw
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.connected = False
        self.sent = 0  # events published, resends included (for the bench and tests)
        self.bad_requests = 0  # resend requests dropped as unreadable
        self._client = mqtt_client(client_id or f"referee-{self.table}", username=settings.username,
                                   password=settings.password, tls=settings.tls, ca_file=settings.ca_file)
        self._client.will_set(topic(self.table, "online"), "offline", qos=1, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = lambda *a: self._tell(("down",))
        self._client.on_publish = lambda c, u, mid, rc, p: self._tell(("ack", mid))
        self._client.on_message = self._on_message
        self._thread = threading.Thread(target=self._run, name=f"hall-{self.table}", daemon=True)
        self._network = NetworkLoop(self._client, f"hall-mqtt-{self.table}")

    def start(self) -> "Publisher":
        self._client.connect_async(self.settings.broker, self.settings.port, keepalive=10)
        self._network.start()
        self._thread.start()
        return self

    def wake(self, event=None) -> None:
        """Something happened at the table (a bus listener): look at the journal and the
        snapshot now."""
        self._changed = True
        self._wake.set()

    def close(self, timeout: float = 2.0) -> None:
        """Send what the journal holds and say "offline", waiting up to `timeout` for
        the acknowledgements, and stop: a table that ends gives the hall its last
        events (and what the hall asked for again) now, not when it next starts."""
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=5)
        self._flush(timeout)
        if self.connected:
            info = self._client.publish(topic(self.table, "online"), "offline", qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        self._drain()
        self._save()
        self._network.stop()
        self._db.close()

    def _flush(self, timeout: float) -> None:
        """Every event to the broker and acknowledged, while connected (at most `timeout`)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._drain()
            if not self.connected:
                return
            self._send_events()
            if not self._inflight:
                return
            self._wake.wait(0.05)
            self._wake.clear()

    # --- the network thread: only queue what happened ------------------------------------
    def _tell(self, item) -> None:
        self._todo.put(item)
        self._wake.set()

    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            log.warning("hall: broker %s:%s refused table %s: %s", self.settings.broker,
                        self.settings.port, self.table, reason)
            return
        client.subscribe(topic(self.table, "resend"), qos=1)
        self._tell(("up",))

    def _on_message(self, client, userdata, message) -> None:
        """A resend request, checked (message.py) before use: `{"after": 1e400}` ended the
        network thread once, and the table went offline at the hall for good. The first
        bad request is logged, the rest counted."""
        try:
            after = check.resend(message.payload, self.journal_id)
        except check.BadMessage as exc:
            self.bad_requests += 1
            if self.bad_requests == 1:
                log.warning("hall: table %s: a resend request was dropped: %s (later ones are counted, "
                            "not logged)", self.table, exc)
            return
        if after is not None:  # None: a request for an earlier journal of this table, not ours
            self._tell(("resend", after))

    # --- the publisher's thread ------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            try:
                self._follow_the_file()
                self._drain()
                if self.connected:
                    self._send_events()
                    self._send_state()
                self._save()
            except Exception:  # a fault here must never reach the referee; try again later
                log.exception("hall: publishing failed")
                time.sleep(1.0)

    def _drain(self) -> None:
        while True:
            try:
                item = self._todo.get_nowait()
            except queue.Empty:
                return
            if item[0] == "ack":
                entry = self._mids.pop(item[1], None)
                if entry is not None:
                    entry[2] = True
                while self._inflight and self._inflight[0][2]:
                    self.acked = max(self.acked, self._inflight.popleft()[0])
            elif item[0] == "up":
                self.connected = True
                self._restart(self.acked)
                self._client.publish(topic(self.table, "online"), "online", qos=1, retain=True)
                self._last_state, self._changed = None, True
                log.info("hall: table %s connected to %s:%s; sending after seq %d", self.table,
                         self.settings.broker, self.settings.port, self.acked)
            elif item[0] == "down":
                self.connected = False
            elif item[0] == "resend":
                self.acked = min(self.acked, item[1])
                self._restart(self.acked)
                log.info("hall: the hall asked table %s for every event after seq %d", self.table, item[1])

    def _follow_the_file(self) -> None:
        """A journal deleted while serving is written again at its place from the copy
        the referee kept open (controller/journal.py): read that one, or the events
        after it would never leave the table."""
        now = _identity(self._path)
        if now is None or now == self._file:
            return
        self._db.close()
        self._db = sqlite3.connect(self._path, check_same_thread=False, timeout=10, isolation_level=None)
        self._file = now
        log.info("hall: table %s reads its journal %s again (written again at its place)", self.table, self._path)

    def _restart(self, after: int) -> None:
        """Send again from `after`; acknowledgements of what was in flight no longer count."""
        self._cursor = after
        self._inflight.clear()
        self._mids.clear()

    def _send_events(self) -> None:
        while len(self._inflight) < WINDOW:
            rows = self._db.execute(
                "SELECT seq, game_id, t, kind, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                (self._cursor, min(BATCH, WINDOW - len(self._inflight)))).fetchall()
            if not rows:
                return
            for seq, game_id, t, kind, data in rows:
                payload = {"type": kind, **self._public_data(kind, json.loads(data), game_id),
                           "game_id": game_id, "seq": seq, "prev": self._cursor, "t": t, "journal": self.journal_id}
                info = self._client.publish(topic(self.table, "events"), json.dumps(payload), qos=1)
                if info.rc != 0:  # the connection went: start again from the mark when it is back
                    return
                entry = [seq, info.mid, False]
                self._inflight.append(entry)
                self._mids[info.mid] = entry
                self._cursor = seq
                self.sent += 1

    def _public_data(self, kind: str, data: dict, game_id: int | None) -> dict:
        """What the page gets of a journalled event: a game's setup only in its public
        part (a Labyrinth's secret targets and deck orders stay on the table)."""
        if kind != Kind.GAME_STARTED:
            return data
        if game_id not in self._public:
            from ..games import load_game

            try:
                game = load_game(data["game"], data.get("variant") or None, data.get("settings"))
                self._public[game_id] = game.public_setup(data.get("setup") or {})
            except Exception as exc:  # an unknown game: nothing of its setup leaves the table
                log.warning("hall: game %s: its setup is withheld (%s)", game_id, exc)
                self._public[game_id] = {}
        return {**data, "setup": self._public[game_id]}

    def _send_state(self) -> None:
        if self._snapshot is None or not self._changed:
            return
        seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0]
        if seq > self._cursor:  # the state never runs ahead of the events sent: the hall
            return  # would take an event still on its way for one lost, and ask for it
        self._changed = False
        snapshot = self._snapshot()
        # the plies that stand the hall folds from the events it keeps (controller/record.py):
        # the state carries only those not yet sure, so a long game's state stays small
        unsure = [ply for ply in snapshot.get("record") or () if ply.get("unsure")]
        payload = json.dumps({**snapshot, "record": unsure, "table": self.table, "journal": self.journal_id,
                              "seq": seq}).encode()
        if payload != self._last_state:
            info = self._client.publish(topic(self.table, "state"), payload, qos=1, retain=True)
            if info.rc == 0:
                self._last_state = payload
            else:
                self._changed = True

    def _save(self) -> None:
        if self.acked != self._saved:
            self._db.execute("INSERT INTO hall_acked(broker, seq) VALUES (?, ?) "
                             "ON CONFLICT(broker) DO UPDATE SET seq=excluded.seq", (self._key, self.acked))
            self._saved = self.acked


def _identity(path: str) -> tuple[int, int] | None:
    """Which file `path` is now (None: none)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def hall_publisher(service) -> Publisher | None:
    """The service's publisher when [hall] is on (else None); it wakes on every event the
    bus carries and reads what is new from the journal."""
    if not service.config.hall.enabled:
        return None
    # the table's chip colours go with its state, so the hall draws its chips as its page does
    publisher = Publisher(service.journal.path, service.config.hall,
                          snapshot=lambda: {**service.snapshot(), "colours": service.config.camera.colours})
    service.bus.subscribe(publisher.wake)
    return publisher.start()
