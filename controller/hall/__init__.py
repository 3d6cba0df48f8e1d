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

import ssl

ROOT = "referee"


def topic(table: str, leaf: str) -> str:
    return f"{ROOT}/{table}/{leaf}"


def table_of(topic_name: str) -> tuple[str, str] | None:
    """'referee/T/events' -> ('T', 'events'); None for anything else."""
    parts = topic_name.split("/")
    if len(parts) != 3 or parts[0] != ROOT or not parts[1]:
        return None
    return parts[1], parts[2]


def mqtt_client(client_id: str, *, username: str = "", password: str = "", tls: bool = False,
                ca_file: str = "", clean_session: bool = True):
    """A paho-mqtt client with the hall's credentials and TLS, reconnecting on its own
    (1 s, doubling up to 4 s) once `connect_async` and `loop_start` run it."""
    import paho.mqtt.client as mqtt  # late: a table without [hall] never needs it

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=clean_session)
    if username:
        client.username_pw_set(username, password or None)
    if tls:
        client.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
    client.reconnect_delay_set(1, 4)
    return client
