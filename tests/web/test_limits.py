"""Issue 21 #4, #5: the server's limits are chosen, not defaulted. The page's app under
a real waitress server opened by `open_server`, exactly as `referee serve` opens it,
over a real Service; strangers are sockets from other loopback addresses (127.0.0.x)."""
from __future__ import annotations

import http.client
import logging
import socket
import threading
import time

import pytest

from support import admin
from web import close_streams, connections, create_app, limits
from web.hall import create_hall_app
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


def post_routes(app) -> list[str]:
    return sorted(r.rule for r in app.url_map.iter_rules() if "POST" in r.methods)


def test_deeply_nested_json_is_a_400_naming_the_depth_on_every_post_route(service, caplog):
    """30,000 nested `[` was a 500 with a RecursionError and a 1.4 KB traceback in the log
    on every POST route, without a token."""
    caplog.set_level(logging.INFO)
    apps = {"page": create_app(service), "hall": create_hall_app(object(), "sesame-sesame-sesame")}
    for name, app in apps.items():
        client = app.test_client()
        routes = post_routes(app)
        assert routes, name
        for route in routes:
            reply = client.post(route, data="[" * 30_000 + "]" * 30_000, content_type="application/json",
                                headers=admin(service))
            assert reply.status_code == 400, (route, reply.status_code)
            assert "nests lists and objects more than 32 levels deep" in reply.get_json()["error"], route
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_a_fault_behind_a_route_is_logged_once_a_minute_and_never_with_a_token(service, caplog, monkeypatch):
    """Log lines are what a stranger can grow too: one traceback a minute per kind,
    the next saying how many were held back; a link's token never in the log."""
    clock = [1000.0]
    monkeypatch.setattr(limits.LOG_THROTTLE, "clock", lambda: clock[0])
    monkeypatch.setattr(limits.LOG_THROTTLE, "_table", limits._Table())
    app = create_app(service)

    @app.get("/boom/<token>")
    def boom(token):
        raise RuntimeError("a fault behind the page")

    caplog.set_level(logging.INFO)
    client = app.test_client()
    secret = "s3cret-link-token"
    for _ in range(50):
        assert client.get(f"/boom/{secret}").status_code == 500
    errors = [r for r in caplog.records if r.name == "referee.web" and r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info
    assert errors[0].getMessage() == "web: GET /boom/<token> failed"
    clock[0] += 61
    client.get(f"/boom/{secret}")
    errors = [r for r in caplog.records if r.name == "referee.web" and r.levelno >= logging.ERROR]
    assert len(errors) == 2 and "(49 more like it in the last 60 s were not logged)" in errors[1].getMessage()
    assert secret not in caplog.text
