"""The page's server limits, chosen rather than defaulted.

Waitress's defaults suit a server behind a proxy in a data centre, not a Pi on a club's
Wi-Fi: 100 connections in all (110 slow ones from one laptop made the page unreachable),
two minutes before an idle connection goes, bodies up to 1 GB spooled to the SD card,
headers up to 256 KB. Here:

- CONNECTIONS in all (each costs a file descriptor and a few KB; the process may hold
  1,024 descriptors), and at most PER_ADDRESS from one address: a phone's browser opens
  six at most, so a dozen phones each get theirs while one machine holding connections
  open is answered "503 too many connections" beyond its share;
- a request must arrive whole within REQUEST_S of its first byte: a client that sends
  its headers a byte at a time (keeping the connection "active" for waitress) is cut off;
- IDLE_S without a byte either way closes a kept-alive connection (the event streams
  send a comment every 15 s, so a live page is never idle that long);
- headers up to MAX_HEADER bytes and bodies up to MAX_BODY (the app refuses more than
  64 KB with its own 413 first; waitress cuts off anything far beyond without reading it).
"""
from __future__ import annotations

import logging
import time

from waitress.channel import HTTPChannel

CONNECTIONS = 400
PER_ADDRESS = 16
REQUEST_S = 10.0
IDLE_S = 30
MAX_HEADER = 16 * 1024
MAX_BODY = 128 * 1024

log = logging.getLogger("referee.web")


def server_options() -> dict:
    """Keyword arguments for waitress.create_server: the limits above."""
    return {"connection_limit": CONNECTIONS, "channel_timeout": IDLE_S, "cleanup_interval": 1,
            "max_request_header_size": MAX_HEADER, "max_request_body_size": MAX_BODY,
            "asyncore_use_poll": True}  # poll, not select: select fails past descriptor 1023


class GuardedChannel(HTTPChannel):
    """A waitress connection with the two limits waitress lacks: connections per address
    and the time a request may take to arrive. Waitress calls `readable()` on every
    connection at each turn of its loop (at least once a second), which is where a
    request too slow in coming is cut off."""

    request_began = 0.0

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        host = addr[0] if isinstance(addr, tuple) else addr
        if sum(1 for c in list(server.active_channels.values()) if c.addr[0] == host) > PER_ADDRESS:
            log.warning("web: %s holds more than %d connections; refusing more", host, PER_ADDRESS)
            body = f"too many connections from {host} (at most {PER_ADDRESS}): close some and try again\n".encode()
            self.write_soon(b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\n"
                            b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            self.close_when_flushed = True

    def received(self, data):
        if self.request is None:
            self.request_began = time.monotonic()
        return super().received(data)

    def readable(self):
        if (self.request is not None and not self.requests and not self.will_close
                and time.monotonic() - self.request_began > REQUEST_S):
            log.warning("web: a request from %s did not arrive whole within %.0f s; its connection is closed",
                        self.addr[0], REQUEST_S)
            self.will_close = True
            return False
        return super().readable()
