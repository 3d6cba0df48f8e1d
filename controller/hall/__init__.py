"""Many tables, one hall: each referee publishes its public record to an MQTT broker
(Mosquitto), and the hall collects every table's record, shows them on one page and
exports a round.

Topics, for a table named T (its `[hall] table`):
- `referee/T/events`: every journalled event, QoS 1, in journal order, as the page gets it
  (a game's secret setup replaced by its public part); each carries the journal's
  `game_id` and `seq`, `prev` (the `seq` of the event sent before it, so the hall drops
  duplicates and notices a gap) and `journal` (the journal file's id: a new file numbers
  from 1 again);
- `referee/T/state` (retained): the table's snapshot, the same JSON as `/api/state` for a
  watcher, plus `table`, `journal` and `seq` (the newest journalled event it reflects);
- `referee/T/online` (retained): "online", or "offline" (also the last will);
- `referee/T/resend` (from the hall): {"after": S, "journal": J}: send again every event
  of journal J after seq S.

`publisher.py` is the referee's side, `receiver.py` and `store.py` the hall's.
"""
from __future__ import annotations

import logging
import ssl
import threading

ROOT = "referee"
RESTART_S = 5.0  # how soon a network loop that failed runs again
log = logging.getLogger("referee.hall")


def topic(table: str, leaf: str) -> str:
    return f"{ROOT}/{table}/{leaf}"


def table_of(topic_name: str) -> tuple[str, str] | None:
    """'referee/T/events' -> ('T', 'events'); None for anything else, a table name that
    no table may have ([hall] table: TABLE_NAME) included."""
    from ..config import TABLE_NAME

    parts = topic_name.split("/")
    if len(parts) != 3 or parts[0] != ROOT or not TABLE_NAME.fullmatch(parts[1]):
        return None
    return parts[1], parts[2]


def mqtt_client(client_id: str, *, username: str = "", password: str = "", tls: bool = False,
                ca_file: str = "", clean_session: bool = True):
    """A paho-mqtt client with the hall's credentials and TLS, reconnecting on its own
    (1 s, doubling up to 4 s) once `connect_async` and `network_loop` run it."""
    import paho.mqtt.client as mqtt  # late: a table without [hall] never needs it

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session)
    if username:
        client.username_pw_set(username, password or None)
    if tls:
        client.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(1, 4)
    return client


class NetworkLoop:
    """paho's network loop on a thread of ours rather than `loop_start`'s, so that a fault
    that escapes it (a callback that raised, a bug in a library) is seen: `fault` says
    what and since when, `on_fault(text)` is told, and the loop runs again after
    RESTART_S (else a hall may stop hearing its tables while its page says
    connected). `stop()` after `client.disconnect()` ends it."""

    def __init__(self, client, name: str, on_fault=lambda text: None):
        self.client, self.on_fault = client, on_fault
        self.fault: str | None = None  # the last fault, until the loop ran again
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> "NetworkLoop":
        self._thread.start()
        return self

    @property
    def running(self) -> bool:
        return self._thread.is_alive() and self.fault is None

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.client.loop_forever(retry_first_connection=True)
                if self._stop.is_set():
                    return
            except Exception as exc:  # noqa: BLE001 - whatever it was, say so and go on
                self.fault = f"{type(exc).__name__}: {exc}"[:300]
                log.exception("hall: the MQTT network loop %s failed", self._thread.name)
                self.on_fault(self.fault)
            if self._stop.wait(RESTART_S):
                return
            self.fault = None

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self.client.disconnect()
        self._thread.join(timeout)
