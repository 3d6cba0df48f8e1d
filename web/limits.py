"""What a stranger on the network may cost the referee, bounded.

A club leaves the referee running all season on a network anyone may join, so nothing a
client sends may grow without limit:
- `Pace`: typed moves per seat (a token bucket): a phone that sends a line every few
  milliseconds is told to slow down (429) instead of filling the journal and every page;
- `WrongTokens`: wrong tokens per address: after a few, that address waits (429, a
  Retry-After that doubles with each further miss) before any token it sends is looked
  at, so guessing a token takes years, not minutes. A browser that has used a token
  before carries a mark of it (a cookie: an HMAC of the token under a key of this run)
  and is let past another's misses from its address (a club's NAT, a proxy): five wrong
  guesses from a shared address do not lock out the admin's own page. A
  new browser with the right token still waits, or the wait would tell a guesser which
  guess was right at full speed;
- `security_headers`: what every answer tells the browser (no framing, no sniffing, no
  script from anywhere but the referee itself);
- `LogThrottle`: log lines a stranger can cause (a fault behind a route, waitress's
  queue warnings, connections refused), at most one of each kind a minute, the next one
  saying how many were held back: a flood of requests must not flood the SD card.
Event streams per address and in all are bounded in web/stream.py; connections, slow
requests and sizes in web/connections.py; request bodies by Flask's MAX_CONTENT_LENGTH
and JSON nesting by controller/bounded_json.py; texts in the journal by
controller/journal.py. Each table of addresses or seats holds at most MAX_KEYS entries
(the oldest go first).
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections import OrderedDict

MAX_TYPED = 200  # characters of one typed move (the longest real one is a few dozen)
MAX_KEYS = 4096
FORGET_S = 3600.0  # an address's wrong tokens are forgotten after an hour without one

# The page is the referee's own files; pictures may be data: URLs (treasure pictures)
# or blobs (the calibration frame); the enrolment view carries its own <style>.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"}


def security_headers(response):
    """Flask after_request hook: the headers above on every answer."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class _Table:
    """key -> value, at most MAX_KEYS, least recently touched dropped first."""

    def __init__(self) -> None:
        self._items: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, default):
        return self._items.get(key, default)

    def put(self, key, value) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > MAX_KEYS:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


class Pace:
    """A token bucket per key: `burst` at once, then `per_s` a second."""

    def __init__(self, per_s: float = 2.0, burst: int = 10, clock=time.monotonic):
        self.per_s, self.burst, self.clock = per_s, burst, clock
        self._table = _Table()

    def allow(self, key) -> bool:
        now = self.clock()
        with self._table.lock:
            tokens, at = self._table.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - at) * self.per_s)
            ok = tokens >= 1.0
            self._table.put(key, (tokens - 1.0 if ok else tokens, now))
            return ok


class WrongTokens:
    """Wrong tokens per address: `free` misses, then a wait of 1 s, 2 s, 4 s ... (at most
    `longest`) after each further miss; forgotten after FORGET_S without one. `mark` and
    `marked` are the browser's mark of a token it has used (module docstring)."""

    COOKIE = "referee_known"

    def __init__(self, free: int = 5, longest: float = 300.0, clock=time.monotonic):
        self.free, self.longest, self.clock = free, longest, clock
        self._table = _Table()
        self._key = secrets.token_bytes(32)

    def mark(self, token: str) -> str:
        return hmac.new(self._key, token.encode(), hashlib.sha256).hexdigest()

    def marked(self, token: str, mark: str | None) -> bool:
        return bool(mark) and hmac.compare_digest(self.mark(token), mark)

    def wait_s(self, address) -> float:
        """Seconds this address must still wait before a token it sends is looked at."""
        with self._table.lock:
            misses, at = self._table.get(address, (0, 0.0))
        if misses < self.free or self.clock() - at > FORGET_S:
            return 0.0
        return max(0.0, at + min(self.longest, 2.0 ** (misses - self.free)) - self.clock())

    def missed(self, address) -> None:
        with self._table.lock:
            now = self.clock()
            misses, at = self._table.get(address, (0, now))
            self._table.put(address, (1 if now - at > FORGET_S else misses + 1, now))


class LogThrottle(logging.Filter):
    """A logging filter: at most one record of each kind (logger and message format)
    every `every_s`; the next one let through says how many were held back."""

    def __init__(self, every_s: float = 60.0, clock=time.monotonic):
        super().__init__()
        self.every_s, self.clock = every_s, clock
        self._table = _Table()

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, str(record.msg))
        now = self.clock()
        with self._table.lock:
            last, held = self._table.get(key, (None, 0))
            if last is not None and now - last < self.every_s:
                self._table.put(key, (last, held + 1))
                return False
            self._table.put(key, (now, 0))
        if held:
            record.msg, record.args = f"{record.getMessage()} ({held} more like it in the last " \
                                      f"{self.every_s:.0f} s were not logged)", ()
        return True


LOG_THROTTLE = LogThrottle()
THROTTLED_LOGGERS = ("referee.web", "waitress", "waitress.queue")


def throttle_logs() -> None:
    """Put LOG_THROTTLE on the loggers a stranger can make write (a filter is added once)."""
    for name in THROTTLED_LOGGERS:
        logging.getLogger(name).addFilter(LOG_THROTTLE)
