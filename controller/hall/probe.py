"""Does the broker let a client without a user name publish where tables publish?

MQTT 3.1.1 gives a publisher no answer when the broker's ACL drops its message, so the
only sure test is to publish and listen: a client with no credentials connects and
publishes a random word on a `referee/.../probe` topic, and the hall, subscribed to that
topic with its own credentials, says whether it heard it. If it did, anyone on the
broker's network can send events as any table (a forged `game_over` would be kept
as a game's result); hardware.md shows the password file and ACL that stop it.
"""
from __future__ import annotations

import secrets
import threading
import time

from . import mqtt_client, topic

PROBE_S = 3.0  # how long the probe waits to connect, and then to be heard

# what the probe found, for the page
UNKNOWN, REFUSED, CANNOT_PUBLISH, PUBLISHES = "unknown", "refused", "cannot publish", "publishes"


class AnonymousProbe:
    """One probe per connection of the hall: `topic` to subscribe to, `heard(payload)`
    from the hall's on_message, `run()` on a thread of its own; `result` after."""

    def __init__(self, host: str, port: int, tls: bool = False, ca_file: str = ""):
        self.host, self.port, self.tls, self.ca_file = host, port, tls, ca_file
        self.topic = topic(f"hall-probe-{secrets.token_hex(4)}", "probe")
        self.result = UNKNOWN
        self._word = b""
        self._heard = threading.Event()

    def heard(self, payload: bytes) -> None:
        if self._word and payload == self._word:
            self._heard.set()

    def run(self) -> str:
        self._word, self.result = secrets.token_hex(8).encode(), UNKNOWN
        self._heard.clear()
        client = mqtt_client(f"referee-hall-probe-{secrets.token_hex(4)}", tls=self.tls, ca_file=self.ca_file)
        deadline = time.monotonic() + PROBE_S
        try:
            client.connect(self.host, self.port, keepalive=10)
            while not client.is_connected() and time.monotonic() < deadline:
                if client.loop(0.05) != 0:  # the broker closed the connection: not let in
                    break
            if not client.is_connected():
                self.result = REFUSED
                return self.result
            client.publish(self.topic, self._word, qos=1)
            deadline = time.monotonic() + PROBE_S
            while not self._heard.is_set() and time.monotonic() < deadline:
                client.loop(0.05)
            self.result = PUBLISHES if self._heard.is_set() else CANNOT_PUBLISH
        except OSError:  # the broker went away meanwhile: asked again at the next connection
            self.result = UNKNOWN
        finally:
            client.disconnect()
        return self.result
