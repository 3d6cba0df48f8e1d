"""`referee selftest --config FILE`: is the rig wired up? Camera, pins, die module.

Each check prints one line that says in plain words what works or what is wrong and
what to try; the exit status is 1 when anything is wrong (2 for a bad config), so it
can gate a systemd unit or a setup script.
"""
from __future__ import annotations

import os
import sys
import time
import warnings

from .config import Config, ConfigError, load
from .events import Bus

BLACK_LEVEL = 8  # mean grey below this: a lens cap, no light or a dead sensor


def check_camera(config: Config) -> tuple[bool, str]:
    source = config.camera.source
    if source == "synthetic":
        return True, "camera: 'synthetic' (the demo's rendered table), nothing to check"
    try:
        from vision.camera import CameraError, open_camera
    except ImportError as exc:
        return False, f"camera: the camera code is not available in this version ({exc})"
    try:
        cam = open_camera(source, width=config.camera.width, height=config.camera.height, fps=config.camera.fps)
    except CameraError as exc:
        return False, f"camera: {exc}"
    except Exception as exc:  # picamera2 and drivers raise their own kinds
        return False, f"camera: {source!r} cannot be opened ({exc})"
    try:
        item = None
        for _ in range(10):  # live cameras often drop the first frames
            item = cam.read()
            if item is not None:
                break
    except Exception as exc:
        return False, f"camera: {source!r} opened but reading a frame failed ({exc})"
    finally:
        cam.close()
    if item is None:
        return False, f"camera: {source!r} opened but gave no picture"
    frame = item[1]
    h, w = frame.shape[:2]
    if frame.mean() < BLACK_LEVEL:
        return False, f"camera: {source!r} gives a black picture ({w}x{h}): lens cap on, or no light?"
    return True, f"camera: {source!r} gives {w}x{h} pictures"


def check_pins(config: Config) -> tuple[bool, str]:
    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    from .devices.gpio import GpioDie, Panel

    g = config.gpio
    try:
        with warnings.catch_warnings():  # gpiozero lists every factory it tried; we say it once
            warnings.simplefilter("ignore", PinFactoryFallback)
            panel = Panel(g, Bus())
    except BadPinFactory:
        return False, ("pins: no GPIO pins found (not a Raspberry Pi, or lgpio missing); "
                       "set [gpio] factory = \"mock\" to run without them")
    except GPIOZeroError as exc:
        return False, f"pins: {exc} (is another program using the pins?)"
    try:
        die = None
        if g.die != "off":
            die = GpioDie(g, on_press=lambda: None, panel=panel)
        for led in (panel.led_ready, panel.led_illegal, panel.led_busy):
            led.on()
        panel.play("chirp")
        panel.wait_quiet(2)
        time.sleep(0.3)
    except (GPIOZeroError, ValueError) as exc:
        panel.close()
        return False, f"pins: the GPIO die: {exc}"
    if die is not None:
        die.close()
    panel.close()
    parts = f"buzzer {g.buzzer} ({g.buzzer_kind}), LEDs {g.led_ready}/{g.led_illegal}/{g.led_busy}, " \
            f"new-game button {g.new_game_button}" + (f", GPIO die ({g.die})" if g.die != "off" else "")
    return True, f"pins: {parts} set up; you should have heard a chirp and seen the three LEDs light"


def check_die_module(config: Config) -> tuple[bool, str]:
    from .devices.link import DieLink, find_port

    d = config.die_module
    if d.port == "off":
        return True, "die module: off in the config"
    if d.port == "auto" and find_port(d.usb_id) is None:
        return False, (f"die module: no board with USB id {d.usb_id} is plugged in "
                       "(check the cable; a charge-only cable has no data lines)")
    simulator = None
    port = d.port
    if port == "sim":  # the firmware simulator, as the demo rig runs it
        from .demo_rig.module import SimulatedModule

        simulator = SimulatedModule(roll_ms=400)
        port = simulator.port
    link = DieLink(port, Bus(), lambda: None, usb_id=d.usb_id, heartbeat_s=d.heartbeat_s,
                   missed=d.missed_heartbeats)
    try:
        deadline = time.monotonic() + max(2.0, d.heartbeat_s * d.missed_heartbeats)
        while link.state != "up" and time.monotonic() < deadline:
            time.sleep(0.05)
        if link.state != "up":
            if d.port not in ("auto", "sim") and not os.path.exists(d.port):
                return False, f"die module: {d.port} does not exist (is the module plugged in?)"
            return False, ("die module: the port is there but the firmware does not answer; "
                           "flash it with `referee firmware flash`")
        link.tone("chirp")
        time.sleep(0.2)
        return True, f"die module: firmware {link.info['version']} answers on {link.port}"
    finally:
        link.close()
        if simulator is not None:
            simulator.close()


CHECKS = (check_camera, check_pins, check_die_module)


def cmd_selftest(args) -> int:
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"referee selftest: {exc}", file=sys.stderr)
        return 2
    faults = 0
    for check in CHECKS:
        ok, text = check(config)
        faults += not ok
        print(("ok    " if ok else "FAULT ") + text, flush=True)
    print("all checks passed" if not faults else f"{faults} check(s) failed")
    return 1 if faults else 0
