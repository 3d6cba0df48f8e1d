"""The host link (controller/devices/link.py) against a module that is not ours or not
well: frames with a good CRC but a body of the wrong size, another protocol version, an
unexpected error in the link thread, a bad usb_id. Real pyserial on a pseudo-terminal;
the far end is written frame by frame with firmware/protocol.py."""
import os
import select
import threading
import time
import tty

import pytest

from controller.devices import link as link_module
from controller.devices.link import DieLink, parse_usb_id
from controller.demo_rig.module import SimulatedModule
from controller.events import Bus
from firmware import protocol
from waiting import wait

UID = b"PICO0001"


class FarEnd:
    """The module's side of a pseudo-terminal: answers every HELLO with `self.info` (an
    INFO body, replaceable mid-test), sends a heartbeat every 50 ms and lets a test write
    any frame."""

    def __init__(self, info):
        self.master, self._slave = os.openpty()  # the slave stays open: the port outlives the link's handle
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self.info = info
        self.hellos = 0
        self._ep = protocol.Endpoint(lambda data: os.write(self.master, data), self._deliver)
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _deliver(self, kind, body):
        if kind == protocol.HELLO:
            self.hellos += 1
            self.send(protocol.INFO, self.info)

    def _serve(self):
        beat = 0.0
        while not self._closed.is_set():
            if select.select([self.master], [], [], 0.01)[0]:
                self._ep.feed(os.read(self.master, 1024), protocol.ticks_ms())
            if time.monotonic() - beat > 0.05:
                self.send(protocol.HEARTBEAT, protocol.heartbeat_body(0, 0))
                beat = time.monotonic()

    def send(self, kind, body, seq=0):
        os.write(self.master, protocol.encode(kind, seq, body))

    def close(self):
        self._closed.set()
        self._thread.join(2)
        os.close(self.master)
        os.close(self._slave)


GOOD_INFO = protocol.info_body((1, 0), protocol.CAP_BUTTON, UID, 0, 1, True)


@pytest.fixture
def far(request):
    """A far end answering HELLO with the INFO body the test is parametrised with, and a
    link to it."""
    bus = Bus()
    events = []
    bus.subscribe(events.append)
    end = FarEnd(request.param)
    link = DieLink(end.port, bus, lambda: None, heartbeat_s=0.2)
    yield end, link, bus, events
    link.close()
    end.close()


def downs(events):
    return [e.data["text"] for e in events if e.kind == "link" and e.data["state"] == "down"]


@pytest.mark.parametrize("far", [GOOD_INFO[:2]], indirect=True, ids=["2-byte-info"])  # good CRC
def test_info_and_press_with_a_short_body_are_dropped_and_the_link_lives_on(far):
    end, link, bus, events = far
    assert wait(lambda: link.stats()["damaged"] >= 2)  # each HELLO's answer dropped
    assert link.state == "down" and link._thread.is_alive()
    end.info = GOOD_INFO
    assert wait(lambda: link.state == "up")
    damaged = link.stats()["damaged"]
    end.send(protocol.PRESS, b"\x01", seq=1)
    assert wait(lambda: link.stats()["damaged"] == damaged + 1)
    end.send(protocol.PRESS, protocol.press_body(1, protocol.SOURCE_BUTTON), seq=2)
    assert wait(lambda: link.presses == 1)
    assert link.state == "up" and list(bus.errors) == [] and downs(events) == []


@pytest.mark.parametrize("far", [GOOD_INFO], indirect=True, ids=["good-info"])
def test_random_press_numbers_with_a_good_crc_are_a_protocol_fault_not_lost_presses(far):
    """Issue 13: random press numbers made `lost` jump to about 3e12; a gap no button
    could make is reported as a protocol fault and counting goes on from there."""
    end, link, bus, events = far
    assert wait(lambda: link.state == "up")
    numbers = [5, 6, 9, 4_000_000_000, 4_000_000_001, 123_456_789]
    for seq, n in enumerate(numbers, start=1):
        end.send(protocol.PRESS, protocol.press_body(n, protocol.SOURCE_BUTTON), seq=seq)
        assert wait(lambda: link.presses == seq)
    assert link.lost == 2  # 7 and 8: a gap a module can have
    assert link.stats()["protocol_faults"] == 1  # 9 -> 4e9 (123456789 counts as a new start)
    texts = [e.data["text"] for e in events if e.kind == "notice"]
    assert any("protocol fault" in t and "4000000000" in t for t in texts)


@pytest.fixture
def short_pause(monkeypatch):
    monkeypatch.setattr(link_module, "FAULT_PAUSE_S", 0.05)


@pytest.mark.parametrize("far", [bytes([protocol.PROTOCOL_VERSION + 1]) + GOOD_INFO[1:]], indirect=True,
                         ids=["next-protocol"])
def test_a_module_speaking_another_protocol_is_refused_once_with_what_to_do(short_pause, far):
    end, link, bus, events = far
    assert wait(lambda: end.hellos >= 4)  # it keeps trying, and keeps refusing
    assert link.state == "down" and link._thread.is_alive()
    assert downs(events) == [f"die module runs firmware protocol {protocol.PROTOCOL_VERSION + 1}, this "
                             f"referee speaks {protocol.PROTOCOL_VERSION}: flash it with "
                             "`referee firmware flash`"]
    end.info = GOOD_INFO  # flashed
    assert wait(lambda: link.state == "up")
    assert list(bus.errors) == []


def test_an_unexpected_error_is_reported_and_the_link_reconnects(short_pause, monkeypatch):
    """The last resort: whatever goes wrong in the link thread, the page hears what and
    the thread goes back to looking for the module instead of dying."""
    counted = DieLink._press
    delivered = []

    def fails_on_the_second_press(self, number):
        delivered.append(number)
        if len(delivered) == 2:
            raise RuntimeError("boom")
        counted(self, number)

    monkeypatch.setattr(DieLink, "_press", fails_on_the_second_press)
    bus = Bus()
    events = []
    bus.subscribe(events.append)
    presses = []
    sim = SimulatedModule()
    link = DieLink(sim.port, bus, lambda: presses.append(1), heartbeat_s=0.2)
    try:
        assert wait(lambda: link.state == "up")
        sim.press()
        assert wait(lambda: presses == [1])
        sim.press()
        assert wait(lambda: "die link fault (RuntimeError: boom); reconnecting" in downs(events))
        assert link.stats()["faults"] == 1 and list(bus.errors) == ["die link: RuntimeError('boom')"]
        assert wait(lambda: link.state == "up")
        sim.press()
        # The press the fault interrupted comes again (its acknowledgement did not get
        # out before the port closed) or is reported lost: never counted twice.
        assert wait(lambda: len(presses) + link.lost == 3)
        time.sleep(0.2)
        assert len(presses) + link.lost == 3 and link._thread.is_alive()
        notices = [e.data["text"] for e in events if e.kind == "notice"]
        assert notices == ["1 roll press(es) on the die module were lost"] * link.lost
    finally:
        link.close()
        sim.close()


@pytest.mark.parametrize("text", ["zz", "2e8a0005", "2e8a:5", "2e8a:00051", " 2e8a:0005", "g2e8:0005"])
def test_a_bad_usb_id_is_refused_when_the_link_is_made_not_in_its_thread(text):
    message = f"usb_id {text!r}: expected four hex digits, a colon, four hex digits, e.g. 2e8a:0005"
    with pytest.raises(ValueError) as caught:
        parse_usb_id(text)
    assert str(caught.value) == message
    with pytest.raises(ValueError) as caught:
        DieLink("auto", Bus(), lambda: None, usb_id=text)
    assert str(caught.value) == message


def test_usb_id_is_read_as_hex_in_either_case():
    assert parse_usb_id("2e8a:0005") == (0x2E8A, 0x0005) == parse_usb_id("2E8A:0005")
