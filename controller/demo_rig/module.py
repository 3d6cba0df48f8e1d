"""The die module, simulated: the firmware's own code (firmware/main.py) on CPython with
stub `machine` pins (firmware/stubs/machine.py), behind a pseudo-terminal, so the host
talks real pyserial to `.port` exactly as it would to /dev/ttyACM0.

This is the one place the die module is simulated (the demo and the tests use it). It
can also misbehave on purpose, for the robustness tests and bench/link.py: corrupt
bytes, drop frames, put garbage between frames, lose its cable and reboot.

`.port` is a symlink (like /dev/serial/by-id/...) that follows the pseudo-terminal
across an unplug and replug, as a udev rule would for a real module.
"""
from __future__ import annotations

import importlib.util
import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty
from dataclasses import dataclass
from pathlib import Path

import firmware
from firmware import board as firmware_board
from firmware import main as firmware_main

STUB = Path(firmware.__file__).resolve().parent / "stubs" / "machine.py"


def stub_machine():
    """A fresh copy of the stub `machine` module (each simulated board has its own pins)."""
    spec = importlib.util.spec_from_file_location("die_module_machine", STUB)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@dataclass
class Faults:
    """What the simulated cable does wrong, per direction, from a seeded generator."""

    corrupt: float = 0.0  # chance each byte is replaced by a random one
    drop: float = 0.0  # chance a whole frame vanishes
    garbage: float = 0.0  # chance random bytes (0x00 included) go between two frames
    seed: int = 0

    def __post_init__(self):
        self.rng = random.Random(self.seed)
        self.lock = threading.Lock()

    def apply(self, data: bytes) -> bytes:
        if not (self.corrupt or self.drop or self.garbage):
            return data
        with self.lock:
            out = bytearray()
            parts = data.split(b"\x00")
            for i, part in enumerate(parts):
                whole = i < len(parts) - 1  # ends in a delimiter; the last part is a fragment
                if whole and self.rng.random() < self.garbage:
                    out += bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(1, 12)))
                if whole and self.rng.random() < self.drop:
                    continue
                frame = bytearray(part)
                for j in range(len(frame)):
                    if self.rng.random() < self.corrupt:
                        frame[j] = self.rng.getrandbits(8)
                out += frame + (b"\x00" if whole else b"")
            return bytes(out)


class _PtyIo:
    """The firmware's USB serial, as the master side of a pseudo-terminal."""

    def __init__(self, sim: SimulatedModule):
        self.sim = sim

    def read(self) -> bytes:
        fd = self.sim._master
        if fd is None:
            return b""
        try:
            if not select.select([fd], [], [], 0)[0]:
                return b""
            data = os.read(fd, 4096)
        except OSError:  # nobody has the port open: like a host that is not listening
            return b""
        return self.sim.faults.apply(data)

    def write(self, data: bytes) -> None:
        fd = self.sim._master
        if fd is None:
            return  # unplugged: bytes go nowhere, as on the board
        try:
            os.write(fd, self.sim.faults.apply(bytes(data)))
        except OSError:
            pass

    def wait(self, ms: int) -> None:
        fd = self.sim._master
        if fd is None:
            time.sleep(ms / 1000)
            return
        try:
            select.select([fd], [], [], ms / 1000)
        except (OSError, ValueError):
            pass


class _Firmware(firmware_main.Module):
    """The firmware, with a log of what it acted on (for tests and the bench)."""

    def __init__(self, sim: SimulatedModule, *args, **kwargs):
        self.sim = sim
        super().__init__(*args, **kwargs)

    def deliver(self, kind, body):
        p = firmware_main.protocol
        fields = p.parse_show(body) if kind == p.SHOW else p.parse_tone(body) if kind == p.TONE else None
        if kind == p.SHOW and fields and fields[0] != self.last_show:
            self.sim._log("shows", fields[0])
        elif kind == p.TONE and fields and fields[0] != self.last_tone:
            self.sim._log("tones", fields[0])
        super().deliver(kind, body)

    def settle(self, now):
        waiting = self.face_waiting
        super().settle(now)
        if waiting is not None and self.face_waiting is None:
            self.sim.face = bytes(waiting)
            self.sim.face_shown.set()


class SimulatedModule:
    def __init__(self, faults: Faults | None = None, roll_ms: int = 0, debounce_ms: int = 3,
                 board: dict | None = None):
        self.faults = faults or Faults()
        self.board = dict(firmware_board.BOARD, roll_ms=roll_ms, debounce_ms=debounce_ms, **(board or {}))
        self.machine = stub_machine()
        self.dir = tempfile.mkdtemp(prefix="die-module-")
        self.port = os.path.join(self.dir, "ttyDIE")
        self.face = b""  # the face on display, as SHOW codes
        self.face_shown = threading.Event()
        # (number, boot) of each SHOW/TONE message the firmware acted on, in order
        self.log = {"shows": [], "tones": []}
        self.resets = 0
        self._master = self._slave = None
        self._stop = threading.Event()
        self._reset = threading.Event()
        self._plug()
        self.firmware = self._boot()
        self._thread = threading.Thread(target=self._run, name="die-module-sim", daemon=True)
        self._thread.start()

    # --- the cable ----------------------------------------------------------------------
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        tmp = self.port + ".new"
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)
        self._master, self._slave = master, slave

    def unplug(self) -> None:
        """The cable comes out: the port vanishes and the host's reads fail."""
        master, slave = self._master, self._slave
        self._master = self._slave = None
        if os.path.lexists(self.port):
            os.unlink(self.port)
        for fd in (master, slave):
            if fd is not None:
                os.close(fd)

    def replug(self) -> None:
        if self._master is None:
            self._plug()

    # --- the board ------------------------------------------------------------------------
    def press(self, timeout: float = 1.0) -> None:
        """Press and release the roll button, held until the firmware has counted it."""
        pin = self.machine.PINS[self.board["input_pin"]]
        before = self.presses
        pin.drive(0)
        deadline = time.monotonic() + timeout
        while self.presses == before and time.monotonic() < deadline:
            time.sleep(0.0005)
        pin.drive(1)
        while self.firmware.switch.stable == 0 and time.monotonic() < deadline:
            time.sleep(0.0005)  # released long enough to count as released

    @property
    def presses(self) -> int:
        """Presses the firmware has numbered so far (kept in its flash file)."""
        return self.firmware.store.presses

    @property
    def pending(self) -> list[int]:
        return list(self.firmware.store.pending)

    def reset(self) -> None:
        """Restart the firmware, as the watchdog would: RAM is lost, flash is kept."""
        self._reset.set()
        while self._reset.is_set() and self._thread.is_alive():
            time.sleep(0.001)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.unplug()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _log(self, what: str, number: int) -> None:
        self.log[what].append((number, self.resets))

    def _boot(self) -> _Firmware:
        store = firmware_main.Store(os.path.join(self.dir, firmware_main.STATE_FILE), os)
        fw = _Firmware(self, self.machine, _PtyIo(self), self.board, store, uid=b"SIMDIE01")
        fw.maintenance_file = os.path.join(self.dir, firmware_main.MAINTENANCE_FILE)
        return fw

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._reset.is_set():
                self.resets += 1
                self.firmware = self._boot()
                self._reset.clear()
            try:
                self.firmware.step(firmware_main.protocol.ticks_ms())
            except self.machine.Reset:
                self._reset.set()
                continue
            self.firmware.io.wait(1)


def soak(commands: int, presses: int, unplugs: int, resets: int, seed: int = 0,
         faults: Faults | None = None, heartbeat_s: float = 0.2, timeout_s: float = 600.0) -> dict:
    """The link under abuse: `commands` SHOW/TONE messages and `presses` button presses
    through a faulty cable, with unplugs and firmware resets spread over the run. Returns
    the figures; zero lost, duplicated or reordered rolls is what the tests and
    bench/link.py check. Rolls are drawn from a seeded generator, one per counted press."""
    from ..events import Bus, Kind
    from ..devices import dice
    from ..devices.link import DieLink

    rng = random.Random(seed)
    bus = Bus()
    events: list = []
    bus.subscribe(events.append)
    sim = SimulatedModule(faults or Faults(corrupt=0.01, drop=0.01, garbage=0.01, seed=seed))
    rolls: list = []
    sent = 0
    link: DieLink

    def on_press():
        nonlocal sent
        roll = dice.roll(rng.choice(["smb", "monopoly"]), rng)
        rolls.append(roll)
        link.show(roll)
        sent += 1

    def recover():
        while link.state != "up" and time.monotonic() < deadline:
            time.sleep(0.005)

    link = DieLink(sim.port, bus, on_press, heartbeat_s=heartbeat_s)
    start = time.monotonic()
    deadline = start + timeout_s
    press_at = set(rng.sample(range(commands), min(presses, commands)))
    unplug_at = set(rng.sample(range(commands), unplugs))
    reset_at = set(rng.sample(sorted(set(range(commands)) - unplug_at), resets))
    try:
        recover()
        for i in range(commands):
            while link.waiting() > 32 and time.monotonic() < deadline:
                time.sleep(0.001)
            if i in press_at:
                # A player presses a few times a second, not hundreds: while the link
                # is re-establishing itself after a damaged handshake, wait for it, or
                # this loop would outrun the 32 presses the module can hold.
                recover()
                sim.press()
            if i in unplug_at or i in reset_at:
                recover()  # each fault starts from a link that is up: one drop each
                downs = link.downs
                if i in unplug_at:
                    sim.unplug()
                    if rng.random() < 0.5:
                        sim.press()  # pressed while the cable is out: kept and sent later
                    time.sleep(rng.uniform(0.05, 0.3))
                    sim.replug()
                else:
                    sim.reset()
                while link.downs == downs and time.monotonic() < deadline:
                    time.sleep(0.005)
                recover()
            if sent < commands:
                link.tone(rng.choice(["tick", "chirp"]))
                sent += 1
        while time.monotonic() < deadline and (link.waiting() or sim.pending or link.state != "up"):
            time.sleep(0.01)
        time.sleep(0.2)
    finally:
        link.close()
        sim.close()
    shows, tones = sim.log["shows"], sim.log["tones"]
    acted = shows + tones
    downs = [e for e in events if e.kind == Kind.LINK and e.data["state"] == "down"]
    show_numbers = [n for n, _ in shows]
    return {
        "seconds": round(time.monotonic() - start, 1),
        "commands_sent": sent,
        "commands_acted_on": len({n for n, _ in acted}),
        # the same message acted on twice by one boot of the firmware
        "commands_repeated": len(acted) - len(set(acted)),
        "commands_out_of_order": sum(1 for log in (shows, tones) for a, b in zip(log, log[1:]) if b[0] < a[0]),
        "presses_made": sim.presses,
        "rolls": len(rolls),
        "rolls_shown": len(set(show_numbers)),
        # a face shown again because a reboot blanked it before its acknowledgement
        "rolls_shown_again_after_reboot": len(show_numbers) - len(set(show_numbers)),
        "presses_lost": link.lost,
        "unplugs": unplugs,
        "resets": resets,
        "downs_reported": len(downs),
        "downs_by_reason": {r: sum(1 for e in downs if e.data["text"] == r)
                            for r in sorted({e.data["text"] for e in downs})},
        "link": link.stats(),
    }
