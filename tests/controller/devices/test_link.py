"""The host link (controller/devices/link.py) against the simulated die module: the
firmware's own code behind a pseudo-terminal, spoken to with real pyserial."""
import time
from types import SimpleNamespace

import pytest

from controller.devices import dice, link as link_module
from controller.devices.link import DieLink, find_port
from controller.demo_rig.module import SimulatedModule
from controller.events import Bus
from firmware import main as firmware_main
from link_rig import Rig
from waiting import wait


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.close()


def test_a_press_becomes_one_roll_drawn_on_the_pi_and_shown_on_the_module(rig):
    assert rig.texts("up") == ["die module connected (firmware 1.0)"]
    rig.sim.press()
    assert wait(lambda: rig.sim.face != b"")
    assert len(rig.rolls) == 1 and rig.sim.face == rig.rolls[0].codes


def test_unplugging_is_reported_and_a_press_made_meanwhile_arrives_once_after_replug(rig):
    rig.sim.unplug()
    assert wait(lambda: rig.link.state == "down")
    assert rig.texts("down") == ["die module disconnected"]
    rig.sim.press()  # the cable is out: the module keeps the press
    time.sleep(0.3)
    assert rig.rolls == []
    rig.sim.replug()
    assert wait(lambda: len(rig.rolls) == 1 and rig.sim.pending == [])
    time.sleep(0.3)
    assert len(rig.rolls) == 1 and rig.link.state == "up" and len(rig.texts("up")) == 2


def test_a_press_pending_across_a_firmware_reset_arrives_once(rig):
    rig.sim.unplug()
    rig.sim.press()
    assert rig.sim.pending == [1]
    rig.sim.reset()  # the watchdog fires while the press is still unacknowledged
    rig.sim.replug()
    assert wait(lambda: len(rig.rolls) == 1 and rig.sim.pending == [])
    rig.sim.press()
    assert wait(lambda: len(rig.rolls) == 2)
    time.sleep(0.2)
    assert len(rig.rolls) == 2 and rig.link.lost == 0


def test_a_reset_while_connected_is_reported_and_the_link_comes_back(rig):
    rig.sim.reset()
    assert wait(lambda: "die module restarted" in rig.texts("down"))
    assert wait(lambda: rig.link.state == "up")
    rig.sim.press()
    assert wait(lambda: len(rig.rolls) == 1)


def test_presses_the_module_could_not_keep_are_reported_as_lost(rig):
    rig.sim.unplug()
    for _ in range(firmware_main.PENDING_MAX + 2):  # more than the module can hold
        rig.sim.press()
    rig.sim.replug()
    assert wait(lambda: rig.sim.pending == [] and len(rig.rolls) == firmware_main.PENDING_MAX)
    rig.sim.press()
    assert wait(lambda: len(rig.rolls) == firmware_main.PENDING_MAX + 1)
    assert rig.link.lost == 2
    notices = [e.data["text"] for e in rig.events if e.kind == "notice"]
    assert notices == ["2 roll press(es) on the die module were lost"]


def test_silence_for_the_set_number_of_heartbeats_declares_the_link_dead():
    rig = Rig(heartbeat_s=0.1)
    try:
        rig.sim.faults.drop = 1.0  # every frame vanishes, the port stays open
        assert wait(lambda: rig.link.state == "down", timeout=3)
        assert rig.texts("down") == ["die module not answering (3 heartbeats missed)"]
        rig.sim.faults.drop = 0.0
        assert wait(lambda: rig.link.state == "up", timeout=3)
    finally:
        rig.close()


def test_tones_reach_the_module_piezo(rig):
    pwm = rig.sim.firmware.piezo.pwm
    rig.link.tone("chirp")
    assert wait(lambda: rig.sim.log["tones"] != [])
    assert wait(lambda: any(f == 2349 and d for f, d in pwm.history))


def test_a_tone_asked_for_while_unplugged_is_not_played_later_but_a_roll_is_shown(rig):
    rig.sim.unplug()
    assert wait(lambda: rig.link.state == "down")
    rig.link.tone("chirp")
    roll = dice.parse("monopoly", "roll 2 4")
    rig.link.show(roll)
    time.sleep(0.1)
    rig.sim.replug()
    assert wait(lambda: rig.sim.face == roll.codes)
    time.sleep(0.2)
    assert rig.sim.log["tones"] == [] and rig.link.tones_missed == 1


def test_auto_finds_the_module_by_usb_id(monkeypatch):
    ports = [SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001),
             SimpleNamespace(device="/dev/ttyACM3", vid=0x2E8A, pid=0x0005)]
    monkeypatch.setattr(link_module.serial.tools.list_ports, "comports", lambda: ports)
    assert find_port("2e8a:0005") == "/dev/ttyACM3"
    assert find_port("2e8a:000a") is None


def test_a_port_that_is_not_there_is_waited_for_without_error(tmp_path):
    bus = Bus()
    seen = []
    bus.subscribe(seen.append)
    link = DieLink(str(tmp_path / "ttyACM9"), bus, lambda: None, heartbeat_s=0.1)
    try:
        time.sleep(0.3)
        assert link.state == "down" and list(bus.errors) == []
        assert [e.data["text"] for e in seen] == [f"die module not found ({tmp_path / 'ttyACM9'})"]
    finally:
        link.close()


def test_the_firmware_simulator_is_handed_in_by_its_port():
    bus = Bus()
    presses = []
    sim = SimulatedModule(roll_ms=400)
    link = DieLink(sim.port, bus, lambda: presses.append(1), heartbeat_s=0.2)
    try:
        assert wait(lambda: link.state == "up")
        sim.press()
        assert wait(lambda: presses == [1])
    finally:
        link.close()
        sim.close()
    assert not __import__("os").path.exists(sim.dir)
