"""`referee firmware flash`: what it copies, how it gets past the running firmware, and
what it says when there is no board."""
import os

from controller.cli import main
from controller.devices import flash
from controller.demo_rig.module import SimulatedModule
from firmware import main as firmware_main


def test_the_board_gets_the_firmware_modules_side_by_side_and_no_stubs():
    names = [p.name for p in flash.firmware_files()]
    assert {"main.py", "protocol.py", "die.py", "board.py"} <= set(names)
    assert "__init__.py" not in names and "machine.py" not in names
    cmd = flash.mpremote_command("/dev/ttyACM0")
    assert cmd[1:6] == ["-m", "mpremote", "connect", "/dev/ttyACM0", "cp"]
    assert cmd[-3:] == [":", "+", "reset"]


def test_no_board_connected_says_so(capsys, monkeypatch):
    monkeypatch.setattr(flash, "find_port", lambda usb_id: None)
    assert main(["firmware", "flash"]) == 1
    err = capsys.readouterr().err
    assert "no board with USB id 2e8a:0005 is connected" in err and "--port" in err


def test_a_running_firmware_is_recognised_and_sent_into_the_repl():
    sim = SimulatedModule()
    try:
        assert flash.firmware_running(sim.port)
        resets = sim.resets
        flash.enter_repl(sim.port)
        maintenance = os.path.join(sim.dir, firmware_main.MAINTENANCE_FILE)
        for _ in range(200):
            if sim.resets > resets:
                break
            __import__("time").sleep(0.01)
        assert sim.resets > resets and os.path.exists(maintenance)
    finally:
        sim.close()
