"""The die module's link as the link tests run it: the firmware's own code behind a
pseudo-terminal (controller/demo_rig/module.py), a real DieLink to it, and a service-like
press handler that draws a roll on the Pi and shows it on the module."""
from controller.demo_rig.module import SimulatedModule
from controller.devices import dice
from controller.devices.link import DieLink
from controller.events import Bus
from waiting import wait


class Rig:
    """A simulated module, a link to it and a service-like press handler that draws a
    roll on the Pi and shows it on the module."""

    def __init__(self, faults=None, heartbeat_s=0.2, seed=1):
        import random

        self.bus = Bus()
        self.events = []
        self.bus.subscribe(self.events.append)
        self.sim = SimulatedModule(faults)
        self.rng = random.Random(seed)
        self.rolls = []
        self.link = DieLink(self.sim.port, self.bus, self.on_press, heartbeat_s=heartbeat_s)
        assert wait(lambda: self.link.state == "up")

    def on_press(self):
        roll = dice.roll("monopoly", self.rng)
        self.rolls.append(roll)
        self.link.show(roll)

    def texts(self, state):
        return [e.data["text"] for e in self.events if e.kind == "link" and e.data["state"] == state]

    def close(self):
        self.link.close()
        self.sim.close()
