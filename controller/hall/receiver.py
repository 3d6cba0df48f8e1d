"""The hall's side: every table's topics from the broker into the hall's journal and bus.

The hall subscribes to `referee/+/events`, `/state` and `/online` with QoS 1 under a
fixed client id and a kept session, so a broker that stays up holds the events of a
hall that is away. Whatever is lost anyway (a broker restarted without persistence, a
hall that was away longer) shows as a gap: an event that does not follow the last one
kept, or a retained state newer than it. The hall then asks that table, on
`referee/T/resend`, for everything after its last kept seq, and asks again every
`RETRY_S` while the gap stays open. What is kept goes out on the hall's bus to the page.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

from ..events import Bus, Event
from . import mqtt_client, table_of, topic
from .store import HallStore

log = logging.getLogger("referee.hall")

RETRY_S = 2.0  # how soon a gap that stays open is asked for again


class Hall:
    def __init__(self, folder: str | Path, broker: str, port: int = 1883, *, username: str = "",
                 password: str = "", tls: bool = False, ca_file: str = "", client_id: str = "referee-hall"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        self.store = HallStore(Path(folder) / "hall.sqlite")
        self.bus = Bus()
        self.broker = f"{broker}:{port}"
        self.connected = False
        self.notes: list[str] = []  # gaps and unreadable messages, the newest 50, for the page
        self._asked: dict[str, float] = {}
        self._stop = threading.Event()
        self._client = mqtt_client(client_id, username=username, password=password, tls=tls,
                                   ca_file=ca_file, clean_session=False)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._host, self._port = broker, port
        self._watch = threading.Thread(target=self._watch_gaps, name="hall-gaps", daemon=True)

    def start(self) -> "Hall":
        self._client.connect_async(self._host, self._port, keepalive=10)
        self._client.loop_start()
        self._watch.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._client.disconnect()
        self._client.loop_stop()
        self._watch.join(timeout=3)
        self.store.close()

    def _note(self, text: str) -> None:
        log.warning("hall: %s", text)
        self.notes = (self.notes + [text])[-50:]
        self.bus.publish(Event("hall_note", {"text": text}))

    # --- the network thread ---------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason, properties) -> None:
        if reason.is_failure:
            self._note(f"broker {self.broker} refused the hall: {reason}")
            return
        self.connected = True
        client.subscribe([(topic("+", leaf), 1) for leaf in ("events", "state", "online")])
        log.info("hall: connected to %s", self.broker)
        self.bus.publish(Event("hall_link", {"state": "up"}))

    def _on_disconnect(self, client, userdata, flags, reason, properties) -> None:
        self.connected = False
        self.bus.publish(Event("hall_link", {"state": "down"}))

    def _on_message(self, client, userdata, message) -> None:
        where = table_of(message.topic)
        try:
            if where is None:
                return
            table, leaf = where
            if leaf == "online":
                online = message.payload.decode("utf-8", "replace")[:20]
                self.store.set_online(table, online)
                self.bus.publish(Event("hall_online", {"table": table, "online": online}))
                return
            data = json.loads(message.payload)
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            if leaf == "events":
                self._event(table, data)
            elif leaf == "state":
                self.store.set_state(table, data)
                self.bus.publish(Event("hall_state", {"table": table, "state": data}))
                self._ask_if_behind()
        except (ValueError, KeyError, TypeError) as exc:  # one bad message must not stop the hall
            self._note(f"{message.topic}: a message that cannot be read ({exc}): {message.payload[:80]!r}")

    def _event(self, table: str, data: dict) -> None:
        verdict = self.store.add(table, data)
        if verdict == "kept":
            self._asked.pop(table, None)
            self.bus.publish(Event("hall_event", {"table": table, "event": data}))
        elif verdict == "gap":
            self._ask_if_behind()

    # --- asking for what is missing ----------------------------------------------------------
    def _ask_if_behind(self) -> None:
        now = time.monotonic()
        for table, journal, last in self.store.behind():
            if now - self._asked.get(table, -1e9) >= RETRY_S and self.connected:
                if table not in self._asked:
                    self._note(f"table {table}: events after seq {last} are missing; asked for them again")
                self._asked[table] = now
                self._client.publish(topic(table, "resend"), json.dumps({"after": last, "journal": journal}), qos=1)

    def _watch_gaps(self) -> None:
        while not self._stop.wait(RETRY_S / 2):
            try:
                self._ask_if_behind()
            except Exception:  # the store closing under it at shutdown, or a fault: look again later
                if not self._stop.is_set():
                    log.exception("hall: looking for gaps failed")

    # --- what the page shows ------------------------------------------------------------------
    def overview(self) -> dict:
        return {"broker": self.broker, "connected": self.connected, "tables": self.store.tables(),
                "alarms": self.store.alarms(), "rounds": self.store.rounds(), "notes": list(self.notes)}
