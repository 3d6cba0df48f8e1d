"""A client of nobody's on the hall's broker, for the tests of what the hall trusts."""
from __future__ import annotations

import time

import paho.mqtt.client as mqtt


def forger(port: int) -> mqtt.Client:
    """A client of nobody's: no user name, publishing wherever it likes."""
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"forger-{time.monotonic_ns()}")
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def publish(client: mqtt.Client, topic: str, payload) -> None:
    client.publish(topic, payload, qos=1).wait_for_publish(5)
