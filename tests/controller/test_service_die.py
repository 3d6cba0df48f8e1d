"""The die in the running service: a press on the module rolls once, is journalled and
used by the game; with the module unplugged the page is told and the GPIO die's button
rolls instead; plugged back, the module works again on its own."""
import time

from controller.events import Undo
from controller.config import Config
from controller.demo_rig.module import SimulatedModule
from controller.journal import Journal
from controller.service import Service
from waiting import wait


def test_module_roll_unplug_fallback_to_gpio_die_and_replug(tmp_path, mock_pins):
    config = Config(path="(test)")
    config.game.name = "smb"
    config.gpio.factory = "mock"
    config.gpio.die = "rgb"
    config.die_module.heartbeat_s = 0.2
    config.data.folder = str(tmp_path)
    service = Service(config, camera=False, die_module=SimulatedModule(roll_ms=400))  # its port, the link's
    events = []
    service.bus.subscribe(events.append)
    service.start()
    try:
        sim = service.die_simulator
        assert wait(lambda: service.status()["die_module"] == "up")
        assert service.snapshot()["prompt"]["kind"] == "roll"
        sim.press()
        assert wait(lambda: any(e.kind == "move" for e in events))
        rolls = [e for e in events if e.kind == "move"]
        assert len(rolls) == 1 and rolls[0].data["notation"].startswith("roll ")
        assert rolls[0].data["source"] == "die"
        assert service.snapshot()["moves"] == [rolls[0].data["notation"]]

        sim.unplug()
        assert wait(lambda: service.status()["die_module"] == "down")
        down = [e for e in events if e.kind == "link" and e.data["state"] == "down"]
        assert down and "disconnected" in down[-1].data["text"]
        # take the roll back so that a roll is due again, then roll with the GPIO die
        assert service.submit(Undo()).ok
        assert service.snapshot()["prompt"]["kind"] == "roll"
        pin = mock_pins.pin(config.gpio.roll_button)
        pin.drive_low()
        time.sleep(0.1)
        pin.drive_high()
        assert wait(lambda: len(service.snapshot()["moves"]) == 1)
        gpio_roll = service.snapshot()["moves"][0]
        assert gpio_roll.startswith("roll ")
        assert [e.data["source"] for e in events if e.kind == "move"] == ["die", "die"]

        sim.replug()
        assert wait(lambda: service.status()["die_module"] == "up")
    finally:
        service.stop()
    # every roll is in the journal once: the module's, its undo, the GPIO die's
    kinds = [(e.kind, e.data.get("notation")) for e in Journal(service.journal.path).events(1)
             if e.kind in ("move", "undo")]
    assert kinds == [("move", rolls[0].data["notation"]), ("undo", rolls[0].data["notation"]), ("move", gpio_roll)]
