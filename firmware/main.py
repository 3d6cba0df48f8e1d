"""Die module firmware (MicroPython, RP2040): report presses, show faces, play tones.

The Pi draws every roll; this board only says "pressed" and shows what it is told. A
press is numbered and written to flash before it is sent, and stays queued until the Pi
acknowledges it, so a cable pulled or a crash in between cannot lose it: after the next
HELLO (or the next boot) it goes again under the same number, and the Pi ignores a number
it has already counted.

On the board this file runs at power-up. Holding the roll button while plugging in (or
the Pi's MAINTENANCE message) leaves the REPL free for `referee firmware flash`;
otherwise Ctrl-C is disabled on the data channel and a hardware watchdog restarts the
board if the loop ever stops.
"""
import random

try:
    from firmware import die, protocol
except ImportError:  # on the board the modules sit side by side
    import die
    import protocol

VERSION = (1, 0)
HEARTBEAT_MS = 1000
UNSYNCED_INFO_MS = 250  # after boot, INFO this often until the Pi says HELLO
RESTALL_MS = 1000  # after giving up on a message, try again this much later
FRAME_MS = 60  # the rolling animation changes face this often
ROLL_GIVE_UP_MS = 3000  # no face from the Pi by then (link down): stop rolling, go blank
PENDING_MAX = 32  # unacknowledged presses kept; beyond that a press is numbered but not kept
STATE_FILE = "die_state.txt"
MAINTENANCE_FILE = "maintenance"


class Store:
    """Press counter, boot counter and unacknowledged presses, kept in a small text file
    (written whole and renamed into place, so a reset mid-write keeps the old one)."""

    def __init__(self, path, os_module):
        self.path = path
        self.os = os_module
        self.presses = 0
        self.boots = 0
        self.pending = []
        try:
            with open(path) as f:
                words = f.read().split()
            self.presses, self.boots = int(words[0]), int(words[1])
            self.pending = [int(w) for w in words[2:]]
        except (OSError, ValueError, IndexError):
            pass

    def save(self):
        tmp = self.path + ".new"
        with open(tmp, "w") as f:
            f.write(" ".join(str(n) for n in [self.presses, self.boots] + self.pending))
        self.os.rename(tmp, self.path)


class Module:
    """The firmware's logic, with every piece of hardware handed in: `machine` (or the
    simulator's stub), `io` with read() -> bytes, write(bytes) and wait(ms), and a Store."""

    def __init__(self, machine, io, board, store, uid=b""):
        self.machine = machine
        self.io = io
        self.board = board
        self.store = store
        self.uid = uid or machine.unique_id()
        self.switch = die.Switch(machine, board["input_pin"], board["input"], board["debounce_ms"])
        if board["display"] == "oled":
            import ssd1306  # micropython-lib's driver, copied to the board beside this file
            bus, sda, scl = board["oled_i2c"]
            i2c = machine.I2C(bus, sda=machine.Pin(sda), scl=machine.Pin(scl))
            self.face = die.OledFace(ssd1306.SSD1306_I2C(128, 64, i2c))
            caps = protocol.CAP_OLED
        else:
            self.face = die.LedFace(machine, board["pips"], board["rgb"])
            caps = (protocol.CAP_PIPS if board["pips"] else 0) | (protocol.CAP_RGB if board["rgb"] else 0)
        self.piezo = die.Piezo(machine, board["piezo"])
        tilt = board["input"] == "tilt"
        self.source = protocol.SOURCE_TILT if tilt else protocol.SOURCE_BUTTON
        self.caps = caps | protocol.CAP_PIEZO | (protocol.CAP_TILT if tilt else protocol.CAP_BUTTON)
        self.maintenance_file = MAINTENANCE_FILE
        self.link = protocol.Endpoint(io.write, self.deliver, queue_limit=PENDING_MAX + 1)
        self.link.on_acked = self.acked
        self.heartbeat_ms = HEARTBEAT_MS
        self.last_beat = 0
        self.stalled_at = None
        self.last_show = None
        self.last_tone = None
        self.shown = b""  # the face on display
        self.rolling_since = None
        self.next_frame = 0
        self.face_waiting = None
        store.boots += 1
        store.save()
        for n in store.pending:
            self.link.enqueue(protocol.PRESS, protocol.press_body(n, self.source))
        # Until the Pi's HELLO, no sequenced message goes either way: the Pi may still
        # hold sequence numbers from before this boot.
        self.synced = False
        self.link.accepting = False
        self.info_at = None
        self.now = 0  # the time of the step in progress, for what the link delivers

    def send_info(self, reply):
        self.link.send(protocol.INFO, protocol.info_body(
            VERSION, self.caps, self.uid, self.store.presses, self.store.boots, reply))

    # --- from the Pi --------------------------------------------------------------------
    def deliver(self, kind, body):
        """A message from the Pi. A body too short for its kind (it passed the CRC, so
        it comes from other firmware or a bug) is dropped and counted as damaged."""
        now = self.now
        parser = {protocol.HELLO: protocol.parse_hello, protocol.SHOW: protocol.parse_show,
                  protocol.TONE: protocol.parse_tone}.get(kind)
        fields = parser(body) if parser else None
        if parser and fields is None:
            self.link.stats.damaged += 1
            return
        if kind == protocol.HELLO:
            _, beat = fields
            self.heartbeat_ms = max(100, beat)
            self.link.reset()
            self.synced = self.link.accepting = True
            self.send_info(True)
        elif kind == protocol.SHOW:
            number, codes = fields
            if number != self.last_show:  # the same SHOW again after a reconnect
                self.last_show = number
                self.face_waiting = codes
                self.settle(now)
        elif kind == protocol.TONE:
            number, pattern = fields
            if number != self.last_tone:
                self.last_tone = number
                self.piezo.play(pattern, now)
        elif kind == protocol.MAINTENANCE and bytes(body) == b"REPL":
            with open(self.maintenance_file, "w") as f:
                f.write("1")
            self.machine.reset()

    def acked(self, kind, body):
        if kind == protocol.PRESS:
            number, _ = protocol.parse_press(body)
            if number in self.store.pending:
                self.store.pending.remove(number)
                self.store.save()

    # --- the player -----------------------------------------------------------------------
    def press(self, now):
        self.store.presses += 1
        if len(self.store.pending) >= PENDING_MAX:  # the Pi will see the gap and report it
            self.store.save()
            self.piezo.play(protocol.TONE_ALARM, now)
            return
        self.store.pending.append(self.store.presses)
        self.store.save()
        self.link.enqueue(protocol.PRESS, protocol.press_body(self.store.presses, self.source))
        self.rolling_since = now
        self.next_frame = now

    def settle(self, now):
        """Show the face the Pi sent once the animation has run its minimum time."""
        if self.face_waiting is None:
            return
        if self.rolling_since is not None and \
                protocol.ticks_diff(now, self.rolling_since) < self.board["roll_ms"]:
            return
        self.face.show(self.face_waiting)
        self.shown, self.face_waiting, self.rolling_since = self.face_waiting, None, None
        self.piezo.play(protocol.TONE_TICK, now)

    def animate(self, now):
        if self.rolling_since is None or protocol.ticks_diff(now, self.next_frame) < 0:
            return
        if protocol.ticks_diff(now, self.rolling_since) >= ROLL_GIVE_UP_MS:
            self.rolling_since = None  # the press is kept; its face comes when the Pi is back
            self.face.off()
            return
        self.next_frame = protocol.ticks_add(now, FRAME_MS)
        if self.shown and self.shown[0] >= die.RED:
            self.face.show(bytes((die.RED + random.getrandbits(2),)))
        else:
            self.face.show(bytes((random.getrandbits(8) % 6 + 1, random.getrandbits(8) % 6 + 1)))
        self.piezo.play(protocol.TONE_TICK, now)

    # --- the loop -------------------------------------------------------------------------
    def step(self, now):
        self.now = now
        data = self.io.read()
        if data:
            self.link.feed(data, now)
        if self.switch.poll(now):
            self.press(now)
        self.animate(now)
        self.settle(now)
        self.face.tick(now)
        self.piezo.tick(now)
        if self.link.stalled:
            if self.stalled_at is None:
                self.stalled_at = now
            elif protocol.ticks_diff(now, self.stalled_at) >= RESTALL_MS:
                self.link.retry()
                self.stalled_at = None
        if not self.synced:
            if self.info_at is None or protocol.ticks_diff(now, self.info_at) >= UNSYNCED_INFO_MS:
                self.info_at = now
                self.send_info(False)
            return
        self.link.poll(now)
        if protocol.ticks_diff(now, self.last_beat) >= self.heartbeat_ms:
            self.last_beat = now
            self.link.send(protocol.HEARTBEAT, protocol.heartbeat_body(now, len(self.link.queue)))

    def run(self, wdt=None, wait_ms=5):
        while True:
            self.step(protocol.ticks_ms())
            if wdt:
                wdt.feed()
            self.io.wait(wait_ms)


class UsbIo:
    """USB CDC serial on the board: sys.stdin/stdout, read without blocking via poll."""

    def __init__(self, sys_module, select_module):
        self.inp = sys_module.stdin.buffer
        self.out = sys_module.stdout.buffer
        self.poller = select_module.poll()
        self.poller.register(sys_module.stdin, select_module.POLLIN)

    def read(self):
        data = bytearray()
        while len(data) < 256 and self.poller.poll(0):
            data.extend(self.inp.read(1))
        return data

    def write(self, data):
        self.out.write(data)

    def wait(self, ms):
        self.poller.poll(ms)


def main():
    import machine
    import micropython
    import os
    import select
    import sys

    try:
        from board import BOARD
    except ImportError:
        from firmware.board import BOARD
    try:
        os.remove(MAINTENANCE_FILE)
        return  # the Pi asked for the REPL (firmware update)
    except OSError:
        pass
    if machine.Pin(BOARD["input_pin"], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        return  # button held at power-up: stay in the REPL
    micropython.kbd_intr(-1)  # a 0x03 byte in a frame must not raise KeyboardInterrupt
    wdt = machine.WDT(timeout=BOARD["watchdog_ms"])
    try:
        Module(machine, UsbIo(sys, select), BOARD, Store(STATE_FILE, os)).run(wdt)
    except Exception as exc:  # noqa: BLE001 - anything: note it and start again
        with open("crash.txt", "w") as f:
            f.write(repr(exc))
        machine.reset()


if __name__ == "__main__":
    main()
