"""Issue 21 #8: a die module that loses its saved state (reflashed, or its flash
damaged) numbers its presses from 1 again after its reboot. Those numbers were taken for
presses already counted: 4 presses gave 0 rolls, without a word. The firmware's own code
behind a pseudo-terminal (controller/demo_rig/module.py), real pyserial on this side."""
from __future__ import annotations

import os

from firmware import main as firmware_main
from link_rig import Rig
from waiting import wait


def test_presses_after_the_module_lost_its_saved_state_are_counted_and_said():
    rig = Rig()
    try:
        for _ in range(6):
            rig.sim.press()
        assert wait(lambda: len(rig.rolls) == 6 and rig.sim.pending == [])
        os.remove(os.path.join(rig.sim.dir, firmware_main.STATE_FILE))  # the flash file is gone
        rig.sim.reset()
        assert wait(lambda: rig.link.state == "up" and rig.link.info["boots"] == 1)
        for _ in range(4):
            rig.sim.press()
        assert wait(lambda: len(rig.rolls) == 10), len(rig.rolls)
        notices = [e.data["text"] for e in rig.events if e.kind == "notice"]
        assert notices == ["the die module's press count went back from 6 to 0: it lost its saved state "
                           "(reflashed or reset); its presses are counted from there"]
        assert rig.link.lost == 0 and rig.link.counter_resets == 1
    finally:
        rig.close()
