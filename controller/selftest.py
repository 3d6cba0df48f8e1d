"""`referee selftest --config FILE`: is the rig wired up? Camera, pins, die module.

Each check prints one line that says in plain words what works or what is wrong and
what to try; the exit status is 1 when anything is wrong (2 for a bad config), so it
can gate a systemd unit or a setup script. The lines are in the config's [table] language
(or --lang's; controller/i18n.py); each check takes that language's translator `_`.
"""
from __future__ import annotations

import os
import time
import warnings

from .cli import failed, words
from .config import Config, ConfigError, load
from .events import Bus

BLACK_LEVEL = 8  # mean grey below this: a lens cap, no light or a dead sensor


def check_camera(config: Config, _) -> tuple[bool, str]:
    source = config.camera.source
    if source == "synthetic":
        return True, _("camera: 'synthetic' (the demo's rendered table), nothing to check")
    try:
        from vision.camera import CameraError, open_camera
    except ImportError as exc:
        return False, _("camera: the camera code is not available in this version ({error})", error=exc)
    try:
        cam = open_camera(source, width=config.camera.width, height=config.camera.height, fps=config.camera.fps)
    except CameraError as exc:
        return False, _("camera: {error}", error=exc)
    except Exception as exc:  # picamera2 and drivers raise their own kinds
        return False, _("camera: {source!r} cannot be opened ({error})", source=source, error=exc)
    try:
        item = None
        for _attempt in range(10):  # live cameras often drop the first frames
            item = cam.read()
            if item is not None:
                break
    except Exception as exc:
        return False, _("camera: {source!r} opened but reading a frame failed ({error})", source=source, error=exc)
    finally:
        cam.close()
    if item is None:
        return False, _("camera: {source!r} opened but gave no picture", source=source)
    frame = item[1]
    h, w = frame.shape[:2]
    if frame.mean() < BLACK_LEVEL:
        return False, _("camera: {source!r} gives a black picture ({w}x{h}): lens cap on, or no light?",
                        source=source, w=w, h=h)
    return True, _("camera: {source!r} gives {w}x{h} pictures", source=source, w=w, h=h)


def check_pins(config: Config, _) -> tuple[bool, str]:
    from gpiozero.exc import BadPinFactory, GPIOZeroError, PinFactoryFallback

    from .devices.gpio import GpioDie, Panel

    g = config.gpio
    try:
        with warnings.catch_warnings():  # gpiozero lists every factory it tried; we say it once
            warnings.simplefilter("ignore", PinFactoryFallback)
            panel = Panel(g, Bus())
    except BadPinFactory:
        return False, _("pins: no GPIO pins found (not a Raspberry Pi, or lgpio missing); "
                        "set [gpio] factory = \"mock\" to run without them")
    except GPIOZeroError as exc:
        return False, _("pins: {error} (is another program using the pins?)", error=exc)
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
        return False, _("pins: the GPIO die: {error}", error=exc)
    if die is not None:
        die.close()
    panel.close()
    parts = _("buzzer {buzzer} ({kind}), LEDs {ready}/{illegal}/{busy}, new-game button {button}", buzzer=g.buzzer,
              kind=g.buzzer_kind, ready=g.led_ready, illegal=g.led_illegal, busy=g.led_busy,
              button=g.new_game_button) + (", " + _("GPIO die ({die})", die=g.die) if g.die != "off" else "")
    return True, _("pins: {parts} set up; you should have heard a chirp and seen the three LEDs light", parts=parts)


def check_die_module(config: Config, _) -> tuple[bool, str]:
    from .devices.link import DieLink, find_port

    d = config.die_module
    if d.port == "off":
        return True, _("die module: off in the config")
    if d.port == "auto" and find_port(d.usb_id) is None:
        return False, _("die module: no board with USB id {usb_id} is plugged in "
                        "(check the cable; a charge-only cable has no data lines)", usb_id=d.usb_id)
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
                return False, _("die module: {port} does not exist (is the module plugged in?)", port=d.port)
            return False, _("die module: the port is there but the firmware does not answer; "
                            "flash it with `referee firmware flash`")
        link.tone("chirp")
        time.sleep(0.2)
        return True, _("die module: firmware {version} answers on {port}", version=link.info['version'], port=link.port)
    finally:
        link.close()
        if simulator is not None:
            simulator.close()


CHECKS = (check_camera, check_pins, check_die_module)


def cmd_selftest(args) -> int:
    _ = words(args)
    try:
        config = load(args.config)
    except ConfigError as exc:
        return failed(args, exc)
    faults = 0
    for check in CHECKS:
        ok, text = check(config, _)
        faults += not ok
        print((_("ok") if ok else _("FAULT")).ljust(6) + text, flush=True)
    print(_("all checks passed") if not faults else _.n("{n} check failed", "{n} checks failed", faults))
    return 1 if faults else 0
