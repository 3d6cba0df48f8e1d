"""`referee firmware flash`: copy firmware/ to the die module with mpremote.

The running firmware turns Ctrl-C off on its serial line (a 0x03 byte in a frame must not
stop it), so mpremote could not reach the REPL. If the board answers our HELLO, it is
first sent MAINTENANCE: it notes that on flash and reboots into the REPL, where mpremote
copies the files and resets it into the new firmware. A board that does not answer
(fresh MicroPython, or the roll button held while plugging in) is flashed directly.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import serial

from firmware import protocol

from ..config import DieModuleSettings
from .link import find_port

FIRMWARE = Path(__file__).resolve().parent.parent.parent / "firmware"
REBOOT_WAIT_S = 6.0  # the board re-enumerates on USB after its reset


def firmware_files() -> list[Path]:
    """What goes on the board: the firmware modules, side by side (not the stubs)."""
    return sorted(p for p in FIRMWARE.glob("*.py") if p.name != "__init__.py")


def mpremote_command(port: str) -> list[str]:
    files = [str(p) for p in firmware_files()]
    return [sys.executable, "-m", "mpremote", "connect", port, "cp", *files, ":", "+", "reset"]


def firmware_running(port: str, wait_s: float = 0.6) -> bool:
    """True when the board answers HELLO with INFO, i.e. our firmware is running on it."""
    answered = []
    ep = protocol.Endpoint(lambda d: None, lambda kind, body: answered.append(kind))
    with serial.Serial(port, 115200, timeout=0.05) as s:
        ep.write = s.write
        ep.send(protocol.HELLO, protocol.hello_body(1000))
        deadline = time.monotonic() + wait_s
        while time.monotonic() < deadline and protocol.INFO not in answered:
            ep.feed(s.read(64), protocol.ticks_ms())
    return protocol.INFO in answered


def enter_repl(port: str) -> None:
    """Ask the running firmware to reboot into the REPL (MAINTENANCE)."""
    with serial.Serial(port, 115200, timeout=0.05) as s:
        for _ in range(3):  # unsequenced: say it a few times
            s.write(protocol.encode(protocol.MAINTENANCE, 0, b"REPL"))
            time.sleep(0.05)


def _wait_for(find, timeout: float) -> str | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        port = find()
        if port:
            return port
        time.sleep(0.2)
    return None


def cmd_firmware(args) -> int:
    """Flash the die module; what it does and why it failed, in `--lang`'s words."""
    from ..cli import failed, words

    _ = words(args)
    usb_id = DieModuleSettings().usb_id
    if args.port == "auto":
        def find():
            return find_port(usb_id)
    else:
        def find():
            return args.port if Path(args.port).exists() else None
    port = find()
    if port is None:
        where = (_("no board with USB id {usb_id}", usb_id=usb_id) if args.port == "auto"
                 else _("no port {port}", port=args.port))
        return failed(args, _("{where} is connected. Plug the die module (a Raspberry Pi Pico with MicroPython) "
                              "into a USB port, or give --port /dev/ttyACM0.", where=where), "flash", status=1)
    try:
        if firmware_running(port):
            print(_("{port}: die module firmware is running; rebooting it into the REPL", port=port))
            enter_repl(port)
            time.sleep(1.0)
            port = _wait_for(find, REBOOT_WAIT_S)
            if port is None:
                return failed(args, _("the board did not come back after its reboot; unplug it, hold the roll "
                                      "button while plugging it in, and try again"), "flash", status=1)
    except serial.SerialException as exc:
        return failed(args, _("cannot open {port}: {error}", port=port, error=exc), "flash", status=1)
    cmd = mpremote_command(port)
    print(_("copying {files} to {port}", files=", ".join(p.name for p in firmware_files()), port=port))
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return failed(args, _("mpremote got no answer from {port} in 2 minutes; unplug the board, hold the roll "
                              "button while plugging it in, and try again", port=port), "flash", status=1)
    if run.returncode != 0:
        return failed(args, _("mpremote failed on {port}:", port=port) + "\n" + (run.stderr.strip() or run.stdout.strip()),
                      "flash", status=1)
    print(_("flashed; the board has been reset into the new firmware"))
    return 0
