"""The server's connection limits (web/connections.py), chosen rather than defaulted:
one machine holding connections open leaves the page reachable for everyone else and is
told so, and a request that never arrives whole is cut off. The page's app under a real
waitress server opened by `open_server`, exactly as `referee serve` opens it, over a real
Service; strangers are sockets from other loopback addresses (127.0.0.x)."""
from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest

from web import close_streams, connections, create_app
from web.server import open_server


class Served:
    def __init__(self, app, threads: int = 4):
        self.app = app
        self.server = open_server(app, "127.0.0.1", 0, threads)
        self.port = self.server.effective_port
        threading.Thread(target=self.server.run, daemon=True).start()

    def connect(self, source: str) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=(source, 0))

    def close(self):
        close_streams(self.app)
        self.server.task_dispatcher.shutdown(timeout=2)
        self.server.close()


@pytest.mark.timeout(60)
def test_slow_connections_from_one_machine_leave_the_page_reachable(service):
    """110 connections that never finish their request made /api/state time out for
    everyone (waitress's default limit of 100 connections in all)."""
    served = Served(create_app(service))
    held = []
    try:
        for _ in range(110):
            sock = served.connect("127.0.0.2")
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: referee\r\n")  # and never the blank line
            held.append(sock)
        page = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5, source_address=("127.0.0.3", 0))
        started = time.monotonic()
        page.request("GET", "/api/state")
        assert page.getresponse().status == 200 and time.monotonic() - started < 2
        page.close()
        refused = served.connect("127.0.0.2")
        answer = refused.recv(4096)
        assert answer.startswith(b"HTTP/1.1 503") and b"too many connections from 127.0.0.2" in answer
        refused.close()
    finally:
        for sock in held:
            sock.close()
        served.close()


@pytest.mark.timeout(30)
def test_a_request_that_never_arrives_whole_is_cut_off(service, monkeypatch):
    """A client that sends its headers a byte now and then looks active to waitress for
    ever; it gets REQUEST_S (10 s; 1 s here) for the whole request."""
    monkeypatch.setattr(connections, "REQUEST_S", 1.0)
    served = Served(create_app(service))
    try:
        sock = served.connect("127.0.0.4")
        sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: referee\r\n")
        sock.settimeout(0.3)
        started, closed = time.monotonic(), False
        while time.monotonic() - started < 6 and not closed:
            try:
                sock.sendall(b"X")  # a header's byte now and then
                closed = sock.recv(100) == b""
            except socket.timeout:
                continue
            except OSError:  # reset by the server
                closed = True
        assert closed and time.monotonic() - started < 4, time.monotonic() - started
        sock.close()
        # a whole request on another connection is answered as before
        page = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5, source_address=("127.0.0.4", 0))
        page.request("GET", "/api/state")
        assert page.getresponse().status == 200
    finally:
        served.close()


def test_the_server_is_opened_with_the_chosen_limits_not_waitress_s_defaults(service):
    served = Served(create_app(service))
    try:
        adj = served.server.adj
        assert (adj.connection_limit, adj.channel_timeout) == (connections.CONNECTIONS, connections.IDLE_S)
        assert (adj.max_request_header_size, adj.max_request_body_size) == (connections.MAX_HEADER,
                                                                          connections.MAX_BODY)
        assert served.server.channel_class is connections.GuardedChannel
    finally:
        served.close()
