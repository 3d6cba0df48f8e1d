"""Does the broker let a client without a user name publish where tables publish?
(controller/hall/probe.py): the probe connects with no credentials and publishes a word
that the hall, listening with its own credentials, must hear. A real Mosquitto on
loopback (tests/mosquitto.py): anonymous (publishes), with passwords (refused), with
anonymous clients let in but kept out of every topic by the ACL (cannot publish), and a
broker that is not there (unknown: asked again at the next connection). What the hall's
page says of each: tests/controller/hall/test_hall_trust.py."""
from __future__ import annotations

import threading

import pytest

from controller.hall import mqtt_client, probe
from controller.hall.probe import CANNOT_PUBLISH, PUBLISHES, REFUSED, UNKNOWN, AnonymousProbe
from mosquitto import MOSQUITTO, MOSQUITTO_PASSWD, Mosquitto, free_port
from support import need


def listening(port: int, found: AnonymousProbe, username: str = "", password: str = ""):
    """The hall's side: a client with the hall's credentials subscribed to the probe's
    topic, handing what it hears to the probe (as the hall's on_message does)."""
    client = mqtt_client("test-hall", username=username, password=password)
    subscribed = threading.Event()
    client.on_message = lambda c, u, message: found.heard(message.payload)
    client.on_subscribe = lambda *args: subscribed.set()
    client.on_connect = lambda c, u, f, reason, p: c.subscribe(found.topic, qos=1)
    client.connect("127.0.0.1", port)
    client.loop_start()
    assert subscribed.wait(5), "the hall's side never subscribed"
    return client


@pytest.fixture
def guarded(tmp_path):
    need(MOSQUITTO is not None and MOSQUITTO_PASSWD is not None,
         "mosquitto and mosquitto_passwd are missing (apt install mosquitto)")
    return Mosquitto(tmp_path / "broker", users={"hall": "hall-pw", "t1": "t1-pw"})


def test_an_anonymous_broker_lets_the_probe_publish(broker):
    found = AnonymousProbe("127.0.0.1", broker.port)
    hall = listening(broker.port, found)
    try:
        assert found.run() == PUBLISHES and found.result == PUBLISHES
        assert found.run() == PUBLISHES  # asked again (the next connection): a new word, heard again
    finally:
        hall.loop_stop()


def probed(broker: Mosquitto) -> str:
    """What the probe finds on `broker` (with passwords), the hall listening as "hall"."""
    broker.start()
    try:
        found = AnonymousProbe("127.0.0.1", broker.port)
        hall = listening(broker.port, found, "hall", "hall-pw")
        try:
            return found.run()
        finally:
            hall.loop_stop()
    finally:
        broker.stop()


def test_a_broker_with_passwords_refuses_the_probe(guarded):
    assert probed(guarded) == REFUSED


def test_anonymous_clients_let_in_but_kept_out_by_the_acl_cannot_publish(guarded, monkeypatch):
    monkeypatch.setattr(probe, "PROBE_S", 1.0)  # how long it listens for its word
    guarded.conf.write_text(guarded.conf.read_text().replace("allow_anonymous false", "allow_anonymous true"))
    assert probed(guarded) == CANNOT_PUBLISH


def test_no_broker_there_is_unknown_not_an_exception():
    found = AnonymousProbe("127.0.0.1", free_port())
    assert found.run() == UNKNOWN and found.result == UNKNOWN
    assert found.topic.startswith("referee/hall-probe-") and found.topic.endswith("/probe")
