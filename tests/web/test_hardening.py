"""Issue 13, the page's side: what a stranger on the network can do to a referee left
running all season. Real Service and journal; the Flask test client, and a real
waitress server (run as `referee serve` runs it) where connections matter."""
from __future__ import annotations

import http.client
import logging
import socket
import struct
import threading
import time

import numpy as np
import pytest
import waitress

from controller.events import Enter
from support import admin, player, running_service
from web import close_streams, create_app
from web.limits import CSP
from web.payload import player_token


@pytest.fixture
def app(service):
    return create_app(service)


def test_every_answer_carries_the_security_headers(app):
    client = app.test_client()
    for path in ("/", "/api/state", "/api/nothing-here", "/calibrate"):
        reply = client.get(path)
        assert reply.headers["Content-Security-Policy"] == CSP, path
        assert reply.headers["X-Content-Type-Options"] == "nosniff"
        assert reply.headers["X-Frame-Options"] == "DENY"
        assert reply.headers["Referrer-Policy"] == "no-referrer"
    assert "script-src 'self'" in CSP and "frame-ancestors 'none'" in CSP


def test_repeated_wrong_tokens_from_one_address_are_slowed_others_are_not(app, service):
    clock = [1000.0]
    app.extensions["referee_limits"]["tokens"].clock = lambda: clock[0]
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    for _ in range(5):
        assert guesser.post("/api/undo", headers={"Authorization": "Bearer guess"}).status_code == 403
    reply = guesser.post("/api/undo", headers=admin(service))  # even the right token waits 1 s now
    assert reply.status_code == 429 and reply.headers["Retry-After"] == "1"
    assert "too many wrong tokens from 10.0.0.9" in reply.get_json()["error"]
    assert guesser.get("/seat/0123456789abcdef").status_code == 429  # links are tokens too
    other = app.test_client()
    other.environ_base["REMOTE_ADDR"] = "10.0.0.10"
    assert other.post("/api/move", json={"text": "4"}, headers=player(service, 0)).status_code == 200
    clock[0] += 1.5
    assert guesser.post("/api/undo", headers={"Authorization": "Bearer guess"}).status_code == 403  # 6th: 2 s
    clock[0] += 1.0
    assert guesser.post("/api/undo", headers=admin(service)).status_code == 429
    clock[0] += 1.5
    assert guesser.post("/api/undo", headers=admin(service)).status_code == 200  # looked at again


def test_wrong_tokens_from_a_shared_address_do_not_lock_out_a_browser_that_used_its_token(app, service):
    """Issue 21 #10: five wrong tokens from an address (a club's NAT: everyone's address)
    locked the right token out too, the admin's own page included."""
    clock = [1000.0]
    app.extensions["referee_limits"]["tokens"].clock = lambda: clock[0]
    admin_page, phone, guesser, fresh = (app.test_client() for _ in range(4))
    for client in (admin_page, phone, guesser, fresh):
        client.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    assert admin_page.get("/api/player-links", headers=admin(service)).status_code == 200
    assert phone.get(f"/seat/{player_token(service.admin_token, 1)}").status_code == 200
    for _ in range(5):
        assert guesser.post("/api/undo", headers={"Authorization": "Bearer guess"}).status_code == 403
    assert guesser.post("/api/undo", headers=admin(service)).status_code == 429  # the guesser waits
    assert fresh.post("/api/undo", headers=admin(service)).status_code == 429  # a new browser too
    assert admin_page.get("/api/player-links", headers=admin(service)).status_code == 200  # not the admin's page
    assert phone.post("/api/move", json={"text": "4"}, headers=player(service, 0)).status_code == 429  # not its token
    assert phone.get(f"/seat/{player_token(service.admin_token, 1)}").status_code == 200
    assert phone.get("/api/state", query_string={"seat": 1, "token": player_token(service.admin_token, 1)}).status_code == 200


def test_typed_moves_are_bounded_in_length_and_pace_per_seat(app, service):
    """Issue 13: 300 POSTs of 60,000 characters grew the journal by 36 MB in 1.6 s."""
    clock = [1000.0]  # the page's clock, stepped here: the pace cannot depend on this machine's speed
    app.extensions["referee_limits"]["pace"].clock = lambda: clock[0]
    client = app.test_client()
    journal = service.config.data.folder + "/journal.sqlite"
    reply = client.post("/api/move", json={"text": "x" * 60_000}, headers=player(service, 0))
    assert reply.status_code == 400 and "60000 characters long; at most 200" in reply.get_json()["error"]
    codes = []
    for _ in range(40):  # 40 tries in 2 s
        codes.append(client.post("/api/move", json={"text": "nonsense " * 20}, headers=player(service, 0)).status_code)
        clock[0] += 0.05
    # a burst of 10 (the refused 60,000 characters took one), then 2 a second
    assert codes[:9] == [422] * 9 and codes.count(422) == 13 and codes.count(429) == 27
    slowed = client.post("/api/move", json={"text": "nonsense"}, headers=player(service, 0))
    assert "seat 0 is sending moves too fast" in slowed.get_json()["error"]
    # the other seat is not slowed by seat 0's flood, nor the admin
    assert client.post("/api/move", json={"text": "9"}, headers=player(service, 1)).status_code == 422
    assert client.post("/api/move", json={"text": "4"}, headers=admin(service)).status_code == 200
    events = service.journal.events(service.referee.game_id)
    assert sum(e.kind == "illegal" for e in events) <= 16
    import os
    assert os.path.getsize(journal) < 1_000_000


def test_a_null_chess_move_through_the_api_is_an_illegal_entry_journalled(app, service):
    """Issue 13: e2e2 was a 422 with the library's words and no journalled `illegal`."""
    client = app.test_client()
    assert client.post("/api/new-game", json={"game": "chess"}, headers=admin(service)).status_code == 200
    reply = client.post("/api/move", json={"text": "e2e2"}, headers=player(service, 0))
    assert reply.status_code == 422 and "from one square to another" in reply.get_json()["error"]
    last = service.journal.events(service.referee.game_id)[-1]
    assert last.kind == "illegal" and last.data["input"] == "e2e2"


def test_a_bad_variant_is_a_422_without_a_traceback_in_the_log(app, service, caplog):
    """Issue 13: the 422 was right, but a full traceback went to the log."""
    caplog.set_level(logging.INFO)
    reply = app.test_client().post("/api/new-game", json={"game": "connect4", "variant": "speed"},
                                   headers=admin(service))
    assert reply.status_code == 422 and "'speed'" in reply.get_json()["error"]
    assert "classic" in reply.get_json()["error"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_corners_that_make_no_board_are_refused_through_the_api(tmp_path, caplog):
    import cv2

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "table.png"), np.full((360, 640, 3), 90, np.uint8))
    with running_service(tmp_path / "data", camera_source=str(frames)) as service:
        client = create_app(service).test_client()
        deadline = time.monotonic() + 5
        while service.watcher.last_frame is None and time.monotonic() < deadline:
            time.sleep(0.05)
        for points, words in (([[1, 1]] * 4, "degenerate"), ([[0, 0], [1e308, 0], [1e308, 1e308], [0, 1e308]],
                                                              "out of the frame (640x360)")):
            reply = client.post("/api/corners", json={"points": points}, headers=admin(service))
            assert reply.status_code == 422 and words in reply.get_json()["error"]
        good = [[100, 300], [540, 300], [540, 60], [100, 60]]
        assert client.post("/api/corners", json={"points": good}, headers=admin(service)).status_code == 200
    assert not [r for r in caplog.records if r.exc_info]


# --- event streams under a real waitress server -------------------------------------------
class Server:
    """The page's app under waitress as `referee serve` runs it (threads = 4)."""

    def __init__(self, service, threads=4):
        service.config.web.threads = threads
        self.app = create_app(service)
        self.streams = self.app.extensions["referee_streams"]
        self.server = waitress.create_server(self.app, host="127.0.0.1", port=0, threads=threads,
                                             channel_request_lookahead=1, asyncore_use_poll=True)
        self.port = self.server.effective_port
        threading.Thread(target=self.server.run, daemon=True).start()

    def open(self, source: str):
        """GET /events from the loopback address `source`; (status, socket)."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=(source, 0))
        sock.sendall(b"GET /events HTTP/1.1\r\nHost: referee\r\n\r\n")
        got = b""
        while b"\r\n\r\n" not in got or (got.startswith(b"HTTP/1.1 200") and b"retry:" not in got):
            got += sock.recv(4096)
        return int(got.split()[1]), sock

    def close(self):
        close_streams(self.app)
        self.server.task_dispatcher.shutdown(timeout=2)
        self.server.close()


def reset(conn) -> None:
    """Drop the connection as a phone that loses the network does: a TCP reset."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


@pytest.mark.timeout(30)
def test_one_address_holding_streams_cannot_take_live_updates_from_others(service):
    """Issue 13: with threads = 4, two held /events connections got everyone else a 503,
    and a slot came back about 30 s after the holder reset."""
    server = Server(service)
    held = []
    try:
        assert server.streams.limit == 2 and server.streams.per_address == 1
        status, conn = server.open("127.0.0.2")
        held.append(conn)
        assert status == 200
        status, conn = server.open("127.0.0.2")  # the same machine again: refused
        held.append(conn)
        assert status == 503
        status, viewer = server.open("127.0.0.3")  # someone else still gets live updates
        held.append(viewer)
        assert status == 200 and server.streams.count() == 2
        page = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        page.request("GET", "/api/state")  # and a thread is left for the page's requests
        assert page.getresponse().status == 200
        page.close()
        reset(held[0])  # the holder goes away without a word
        started = time.monotonic()
        while server.streams.count() > 1 and time.monotonic() - started < 10:
            time.sleep(0.05)
        freed_after = time.monotonic() - started
        assert server.streams.count() == 1 and freed_after < 3, freed_after  # heartbeat is 15 s
        status, conn = server.open("127.0.0.4")
        held.append(conn)
        assert status == 200
    finally:
        for conn in held:
            conn.close()
        server.close()


def test_the_pages_work_under_the_csp_without_a_console_error_in_chromium(browser, tmp_path):
    """The headers must not break the page: the live page, calibration and enrolment in
    real Chromium, with every console message and failed request collected."""
    from support import WAIT_MS, Served

    with running_service(tmp_path / "data") as service:
        served = Served(service, heartbeat_s=0.2)
        try:
            context = browser.new_context(viewport={"width": 420, "height": 900})
            page = context.new_page()
            problems = []
            page.on("console", lambda m: m.type in ("error", "warning") and problems.append(m.text))
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(served.url + "/")
            page.wait_for_selector("#live.on", timeout=WAIT_MS)  # scripts ran, the stream is open
            service.submit(Enter(text="4"))
            page.wait_for_selector('[data-cell="4,1"][data-label="p0"]', timeout=WAIT_MS)  # drawn
            for path in ("/calibrate", "/enrol"):
                page.goto(served.url + path)
                page.wait_for_load_state("load")
                page.wait_for_timeout(500)  # its script runs and fetches
            context.close()
            assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
        finally:
            served.close()


def test_the_hall_slows_repeated_wrong_admin_tokens_too():
    """The hall's app is guarded like the page's: guessing its admin token is slowed."""
    from web.hall import create_hall_app

    app = create_hall_app(object(), "sesame")
    guesser = app.test_client()
    guesser.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    codes = [guesser.post("/api/hall/round", headers={"Authorization": "Bearer guess"}).status_code
             for _ in range(6)]
    assert codes[:5] == [403] * 5 and codes[5] == 429
