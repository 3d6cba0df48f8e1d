"""sd_notify: telling systemd that the referee is up and still refereeing.

Under a unit with `Type=notify` and `WatchdogSec=` (hardware.md), systemd passes a unix
datagram socket in NOTIFY_SOCKET and the watchdog interval in WATCHDOG_USEC. The service
sends READY=1 once the page is served, WATCHDOG=1 from the referee's own thread (so a
referee thread that hangs stops the heartbeats and systemd restarts the service, while a
web server that merely still answers would not), and STOPPING=1 on the way out. The
protocol is one datagram of "KEY=value" lines; the standard library's socket module is
all it takes, so no package is added for it. Outside systemd every call does nothing.
"""
from __future__ import annotations

import os
import socket
import time


class Notifier:
    def __init__(self, environ=os.environ, clock=time.monotonic):
        address = environ.get("NOTIFY_SOCKET", "")
        # an address starting with "@" is in the abstract namespace (a NUL byte first)
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.clock = clock
        usec = environ.get("WATCHDOG_USEC", "")
        pid = environ.get("WATCHDOG_PID", "")
        watched = usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid()))
        # beat at half the interval, as sd_watchdog_enabled(3) advises
        self.every_s: float | None = int(usec) / 2e6 if watched and self.address else None
        self._beat_at = float("-inf")
        self.errors = 0

    def send(self, *lines: str) -> bool:
        """One datagram; False (counted in `errors`) if there is no socket or it fails."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
                s.connect(self.address)
                s.sendall("\n".join(lines).encode())
            return True
        except OSError:  # systemd went away or the socket is not ours: refereeing goes on
            self.errors += 1
            return False

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def alive(self) -> None:
        """WATCHDOG=1 if the last one is half an interval old (call it as often as you like)."""
        if self.every_s is None:
            return
        now = self.clock()
        if now - self._beat_at >= self.every_s:
            self._beat_at = now
            self.send("WATCHDOG=1")
