"""The Pi's end of the serial link to the die module (firmware/, protocol in hardware.md).

One thread owns the port: it finds the module (by USB vendor/product id, or a given
path), says HELLO, and then serves the link until the cable comes out, the module stops
answering (a set number of heartbeats missed) or a message cannot get through; then it
reports the link down on the bus and starts looking again. Commands (show a face, play
a tone) wait in a queue that outlives a reconnect, and each carries its own number, so
the module acts on each one once; a tone asked for while the link is down is dropped
(a chirp for a move made minutes ago would only mislead).

Presses are counted exactly once: the module numbers each press and keeps it until it
is acknowledged, resending it after a reconnect or a reboot; this end remembers the last
number it counted per module and ignores any repeat. A gap in the numbers means presses
the module could not keep; they are reported on the bus as lost, never guessed at.

Nothing the module sends stops the thread. A frame with a good CRC but a body of the
wrong size is dropped and counted as damaged; a module speaking another protocol version
(a Pico with other or older firmware has the same USB id) is refused with a link-down
event that says to flash it; and any other fault is reported as a link-down event naming
it, after which the thread looks for the module again, as after an unplug.
"""
from __future__ import annotations

import os
import queue
import re
import threading
import time

import serial
import serial.tools.list_ports

from firmware import protocol

from ..events import Bus, Event, Kind
from ..i18n import N_, Wrong

TONES = {"tick": protocol.TONE_TICK, "chirp": protocol.TONE_CHIRP, "alarm": protocol.TONE_ALARM,
         "fanfare": protocol.TONE_FANFARE}
HELLO_EVERY_S = 0.25  # HELLO again until INFO arrives
SEARCH_EVERY_S = 0.2  # look for the port again this often while it is missing
READ_TIMEOUT_S = 0.002
FAULT_PAUSE_S = 1.0  # after a fault or a refused module: try again, but do not spin
# A gap in press numbers bigger than this is not presses lost (a module keeps 32 and
# nobody presses a roll button thousands of times with the Pi away) but a protocol fault.
MAX_LOST = 1000
USB_ID = re.compile(r"[0-9a-fA-F]{4}:[0-9a-fA-F]{4}")


def parse_usb_id(text: str) -> tuple[int, int]:
    """(vendor, product) from "vvvv:pppp"; the config check and DieLink both call this,
    so a typo stops start-up with this message instead of failing in the link thread."""
    if not isinstance(text, str) or not USB_ID.fullmatch(text):
        raise Wrong(N_("usb_id {text!r}: expected four hex digits, a colon, four hex digits, e.g. 2e8a:0005"),
                    text=text)
    vid, pid = text.split(":")
    return int(vid, 16), int(pid, 16)


class _Refused(Exception):
    """The module answered, but this end cannot serve it (the text says why and what to do)."""


def find_port(usb_id: str) -> str | None:
    """The device path of the first serial port with this "vvvv:pppp" USB id."""
    vid, pid = parse_usb_id(usb_id)
    for port in serial.tools.list_ports.comports():
        if port.vid == vid and port.pid == pid:
            return port.device
    return None


class DieLink:
    """`port`: "auto" (find the module by `usb_id`) or a device path (the firmware
    simulator's pseudo-terminal too: it is started where hardware is simulated,
    controller/demo_rig/module.py, and its port handed in here)."""

    def __init__(self, port: str, bus: Bus, on_press, *, usb_id: str = "2e8a:0005",
                 heartbeat_s: float = 1.0, missed: int = 3):
        parse_usb_id(usb_id)
        self.port = port
        self.bus = bus
        self.on_press = on_press
        self.usb_id = usb_id
        self.heartbeat_s = heartbeat_s
        self.missed = missed
        self.state = "down"
        self.info: dict | None = None
        self.presses = 0  # presses delivered to on_press
        self.lost = 0  # presses the module numbered but could not keep
        self.downs = 0  # times the link went down
        self.stale_tones = 0  # tones in flight when the module rebooted, dropped
        self.tones_missed = 0  # tones asked for while the link was down, not played
        self.protocol_faults = 0  # press numbers that cannot be right (reported, not counted as lost)
        self.counter_resets = 0  # times the module's press counter went back (its saved state lost)
        self.faults = 0  # sessions ended by an unexpected error (reported, then reconnected)
        self._refusal: str | None = None  # the last refusal or fault reported while down
        self._last_press: dict[bytes, int] = {}  # module uid -> last press number counted
        self._inbox: queue.Queue = queue.Queue()
        self._numbers = 0  # SHOW/TONE numbers
        self._uid = b""
        self._boot: tuple | None = None  # (uid, boot count) of the module last heard
        self._closed = threading.Event()
        self._endpoint = protocol.Endpoint(self._write, self._deliver, queue_limit=256)
        self._serial: serial.Serial | None = None
        self._thread = threading.Thread(target=self._run, name="die-link", daemon=True)
        self._thread.start()

    # --- the API --------------------------------------------------------------------
    def show(self, roll) -> None:
        """Show a roll (controller.devices.dice.Roll) on the module."""
        self._inbox.put((protocol.SHOW, roll.codes))

    def tone(self, pattern) -> None:
        """Play "tick", "chirp", "alarm" or "fanfare" (or a pattern number), now or never."""
        if self.state != "up":
            self.tones_missed += 1
            return
        self._inbox.put((protocol.TONE, TONES.get(pattern, pattern)))

    def waiting(self) -> int:
        """Commands not yet acknowledged by the module (queued or in flight)."""
        return len(self._endpoint.queue) + self._inbox.qsize()

    def stats(self) -> dict:
        return {"state": self.state, "presses": self.presses, "lost": self.lost, "downs": self.downs,
                "stale_tones": self.stale_tones, "tones_missed": self.tones_missed, "faults": self.faults,
                "protocol_faults": self.protocol_faults,
                "overflowed": self._endpoint.dropped, "queued": len(self._endpoint.queue),
                **self._endpoint.stats.as_dict()}

    def close(self) -> None:
        self._closed.set()
        self._thread.join(timeout=2)

    # --- the link thread -----------------------------------------------------------------
    def _path(self) -> str | None:
        if self.port == "auto":
            return find_port(self.usb_id)
        return self.port if os.path.exists(self.port) else None

    def _run(self) -> None:
        first = True
        while not self._closed.is_set():
            try:
                self._connect(first)
            except Exception as exc:  # last resort (finding or opening the port)
                self._down(self._fault(exc), refused=True)
                self._closed.wait(FAULT_PAUSE_S)
            first = False

    def _connect(self, first: bool) -> None:
        """One look for the module and, if it is there, one session."""
        path = self._path()
        if path is None:
            if first:  # say so once, not on every look
                where = f"USB id {self.usb_id}" if self.port == "auto" else self.port
                self.bus.publish(Event(Kind.LINK, {"state": "down", "text": f"die module not found ({where})"}))
            self._closed.wait(SEARCH_EVERY_S)
            return
        try:
            self._serial = serial.Serial(path, 115200, timeout=READ_TIMEOUT_S, write_timeout=1)
        except (serial.SerialException, OSError):
            self._closed.wait(SEARCH_EVERY_S)
            return
        why, refused = self._session()
        try:
            self._serial.close()
        except (serial.SerialException, OSError):
            pass
        if why == "closed":
            self.state = "down"
        else:
            self._down(why, refused=refused)
            self._closed.wait(FAULT_PAUSE_S if refused else SEARCH_EVERY_S)

    def _fault(self, exc: Exception) -> str:
        """Count and describe an unexpected error; the thread goes on looking."""
        self.faults += 1
        self.bus.errors.append(f"die link: {exc!r}")
        return f"die link fault ({type(exc).__name__}: {exc}); reconnecting"

    def _session(self) -> tuple[str, bool]:
        """Serve one connection; returns why it ended, in words, and whether the module
        was refused or a fault ended it (reported even if the link never came up)."""
        ep = self._endpoint
        ep.reset()
        ep.accepting = False  # nothing counts before INFO: the module will resend it
        self._hello_at = beat_at = 0.0
        heard = time.monotonic()
        frames = ep.stats.frames_in
        dead_after = self.heartbeat_s * self.missed
        try:
            while not self._closed.is_set():
                now = time.monotonic()
                if self.state != "up" and now - self._hello_at >= HELLO_EVERY_S:
                    ep.send(protocol.HELLO, protocol.hello_body(int(self.heartbeat_s * 1000)))
                    self._hello_at = now
                data = self._serial.read(max(1, self._serial.in_waiting))
                if data:
                    ep.feed(data, protocol.ticks_ms())
                if ep.stats.frames_in != frames:
                    frames, heard = ep.stats.frames_in, now
                elif now - heard > dead_after:
                    return f"die module not answering ({self.missed} heartbeats missed)", False
                while True:
                    try:
                        kind, arg = self._inbox.get_nowait()
                    except queue.Empty:
                        break
                    if kind == protocol.TONE and self.state != "up":
                        self.tones_missed += 1  # a tone is for now; played later it misleads
                        continue
                    self._numbers = (self._numbers + 1) & 0xFFFF
                    body = protocol.show_body(self._numbers, arg) if kind == protocol.SHOW else \
                        protocol.tone_body(self._numbers, arg)
                    ep.enqueue(kind, body)
                if self.state == "up":
                    ep.poll(protocol.ticks_ms())
                    if ep.stalled:
                        return "die module not acknowledging messages", False
                    if now - beat_at >= self.heartbeat_s:
                        ep.send(protocol.HEARTBEAT, protocol.heartbeat_body(0, len(ep.queue)))
                        beat_at = now
            return "closed", False
        except (serial.SerialException, OSError):
            return "die module disconnected", False
        except _Refused as refusal:
            return str(refusal), True
        except Exception as exc:  # last resort: a bug here must not end the link for good
            return self._fault(exc), True

    def _write(self, data: bytes) -> None:
        self._serial.write(data)

    def _down(self, why: str, refused: bool = False) -> None:
        """Report the link down: always when it was up; a refusal or fault also while it
        was down, once per distinct text (a module that keeps failing says so once)."""
        if self.state == "up":
            self.state = "down"
            self.downs += 1
        elif not refused or why == self._refusal:
            return
        if refused:
            self._refusal = why
        self.bus.publish(Event(Kind.LINK, {"state": "down", "text": why}))

    def _damaged(self) -> None:
        """A frame whose CRC was good but whose body does not fit its kind: dropped and
        counted with the frames that failed their CRC."""
        self._endpoint.stats.damaged += 1

    def _deliver(self, kind: int, body: bytes) -> None:
        if kind == protocol.INFO:
            if body and body[0] != protocol.PROTOCOL_VERSION:
                raise _Refused(f"die module runs firmware protocol {body[0]}, this referee speaks "
                               f"{protocol.PROTOCOL_VERSION}: flash it with `referee firmware flash`")
            info = protocol.parse_info(body)
            if info is None:
                return self._damaged()
            self._count_from(info["uid"], info["presses"])
            ep = self._endpoint
            if (info["uid"], info["boots"]) != self._boot:
                if self._boot is not None and ep.head_sent and ep.queue[0][0] == protocol.TONE:
                    # A tone sent before the reboot may or may not have played: drop it
                    # rather than play it twice. A face goes again: the reboot blanked
                    # the display (the roll itself is counted once, here).
                    ep.drop_head()
                    self.stale_tones += 1
                self._boot = (info["uid"], info["boots"])
            if not info["reply"]:  # the module has just booted: handshake again
                self._down("die module restarted")
                ep.reset()
                ep.accepting = False
                self._hello_at = 0.0
                return
            self._endpoint.reset()
            self._endpoint.accepting = True
            self._uid, self.info = info["uid"], info
            if self.state != "up":
                self.state = "up"
                self._refusal = None
                self.bus.publish(Event(Kind.LINK, {"state": "up", "text":
                                                f"die module connected (firmware {info['version']})"}))
        elif kind == protocol.PRESS:
            press = protocol.parse_press(body)
            if press is None:
                return self._damaged()
            self._press(press[0])

    def _count_from(self, uid: bytes, numbered: int) -> None:
        """The module's press counter never goes back, unless it lost the file it keeps it
        in (a reflash, a damaged flash): then its next presses reuse numbers already
        counted and would all be ignored as repeats (4 presses, 0 rolls). So a
        counter below the last press counted is believed, said, and counted from."""
        last = self._last_press.get(uid)
        if last is not None and numbered < last:
            self._last_press[uid] = numbered
            self.counter_resets += 1
            self.bus.publish(Event(Kind.NOTICE, {"text": f"the die module's press count went back from {last} to "
                                              f"{numbered}: it lost its saved state (reflashed or reset); its "
                                              "presses are counted from there"}))

    def _press(self, number: int) -> None:
        last = self._last_press.get(self._uid)
        if last is not None and last - 1000 < number <= last:
            return  # counted already: the module resent it after a lost acknowledgement
        if last is not None and last < number - 1:
            gap = number - last - 1
            if gap > MAX_LOST:  # no button is pressed that often: the number is wrong
                self.protocol_faults += 1
                self.bus.publish(Event(Kind.NOTICE, {"text": f"die module protocol fault: press {number} came "
                                                  f"after press {last}; counting on from {number}"}))
            else:
                self.lost += gap
                self.bus.publish(Event(Kind.NOTICE, {"text": f"{gap} roll press(es) on the die module were lost"}))
        self._last_press[self._uid] = number
        self.presses += 1
        try:
            self.on_press()
        except Exception as exc:  # the service's fault must not break the link
            self.bus.errors.append(f"die link on_press: {exc}")
