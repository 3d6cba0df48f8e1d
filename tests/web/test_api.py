"""The status page's HTTP side through Flask's test client, over a real Service (real
Referee, real SQLite journal in tmp_path, real bus; camera and devices off): what every
endpoint serves, who may do what with which token, and that a malformed request gets a
400 that names the field instead of a 500."""
from __future__ import annotations

import io
import json
import threading

import pytest

from controller.events import Enter
from support import admin, player
from web import close_streams, create_app
from web.payload import player_token


@pytest.fixture
def client(service):
    return create_app(service).test_client()


def bottom_row(snapshot: dict) -> list[str]:
    return snapshot["state"]["grid"][-1]


# --- reading ---------------------------------------------------------------------------
def test_state_is_the_referee_snapshot_and_follows_moves(client, service):
    assert client.get("/api/state").get_json() == service.snapshot()
    assert client.post("/api/move", json={"text": "4"}, headers=admin(service)).status_code == 200
    state = client.get("/api/state").get_json()
    assert state["moves"] == ["4"]
    assert bottom_row(state) == ["empty"] * 3 + ["p0"] + ["empty"] * 3
    assert state["prompt"]["seat"] == 1


def test_status_and_catalogue(client):
    status = client.get("/api/status").get_json()
    assert status["camera"] == "off" and "die_module" in status
    connect4 = next(g for g in client.get("/api/catalogue").get_json() if g["game"] == "connect4")
    assert connect4["variants"] == ["classic", "blocker"]


# --- moves and tokens ------------------------------------------------------------------
def test_illegal_move_is_refused_with_the_referees_reason(client, service):
    for _ in range(6):
        assert client.post("/api/move", json={"text": "1"}, headers=admin(service)).status_code == 200
    full = client.post("/api/move", json={"text": "1"}, headers=admin(service))
    assert full.status_code == 422
    assert full.get_json()["error"] == "column 1 is full"
    bad = client.post("/api/move", json={"text": "9"}, headers=admin(service))
    assert bad.status_code == 422 and "not a Connect 4 move" in bad.get_json()["error"]
    assert len(service.snapshot()["moves"]) == 6


def test_a_player_moves_only_on_their_own_turn(client, service):
    assert client.post("/api/move", json={"text": "3"}, headers=player(service, 0)).status_code == 200
    again = client.post("/api/move", json={"text": "3"}, headers=player(service, 0))
    assert again.status_code == 422 and again.get_json()["error"] == "it is Luigi's turn, not Mario's"
    assert client.post("/api/move", json={"text": "3"}, headers=player(service, 1)).status_code == 200
    assert service.snapshot()["moves"] == ["3", "3"]


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic x"}])
def test_a_move_without_a_valid_token_is_forbidden(client, service, headers):
    reply = client.post("/api/move", json={"text": "4"}, headers=headers)
    assert reply.status_code == 403 and "token" in reply.get_json()["error"]
    assert service.snapshot()["moves"] == []


def test_form_fields_work_like_json(client, service):
    reply = client.post("/api/move", data={"text": "5", "token": service.admin_token})
    assert reply.status_code == 200 and service.snapshot()["moves"] == ["5"]


def test_a_seat_token_shows_that_seats_view_only(client, service):
    token = player_token(service.admin_token, 1)
    assert client.get(f"/api/state?seat=1&token={token}").get_json() == service.snapshot(viewer=1)
    assert client.get(f"/api/state?seat=0&token={token}").status_code == 403
    assert client.get("/api/state?seat=1").status_code == 403
    seat = client.get(f"/api/state?seat=one&token={token}")
    assert seat.status_code == 400 and "'seat'" in seat.get_json()["error"]
    far = client.get(f"/api/state?seat=7&token={token}")  # a link of a game with more players
    assert far.status_code == 403 and "seats 0-1" in far.get_json()["error"]  # the page then drops the seat


@pytest.mark.parametrize("path, body, field", [
    ("/api/move", b"{not json", "JSON"),
    ("/api/move", b"[1, 2]", "JSON object"),
    ("/api/move", b"{}", "'text'"),
    ("/api/move", b'{"text": 4}', "'text'"),
    ("/api/move", b'{"text": "   "}', "'text'"),
    ("/api/move", b'{"text": "4", "seat": "left"}', "'seat'"),
    ("/api/new-game", b'{"variant": "blocker"}', "'game'"),
    ("/api/new-game", b'{"game": ["connect4"]}', "'game'"),
    ("/api/new-game", b'{"game": "draughts"}', "'game'"),
    ("/api/new-game", b'{"game": "connect4", "variant": 2}', "'variant'"),
    ("/api/corners", b"{}", "'points'"),
    ("/api/corners", b'{"points": [[0, 0], [1, 0], [1, 1]]}', "'points'"),
    ("/api/corners", b'{"points": [[0, 0], [1, 0], [1, 1], [0, "y"]]}', "point 4"),
    ("/api/corners", b'{"points": "1,2 3,4 5,6 seven"}', "'points'"),
])
def test_malformed_requests_get_400_naming_the_field(client, service, path, body, field):
    reply = client.post(path, data=body, headers={**admin(service), "Content-Type": "application/json"})
    assert reply.status_code == 400, reply.get_data(as_text=True)
    assert field in reply.get_json()["error"]


@pytest.mark.parametrize("method, path", [
    ("post", "/api/new-game"), ("post", "/api/undo"), ("post", "/api/corners"), ("post", "/api/position"),
    ("get", "/api/player-links"), ("get", "/api/frame.jpg"),
])
def test_controls_need_the_admin_token(client, service, method, path):
    body = {"game": "connect4", "points": [[0, 0], [1, 0], [1, 1], [0, 1]]}
    for headers in ({}, player(service, 0), {"Authorization": "Bearer wrong"}):
        reply = getattr(client, method)(path, json=body, headers=headers)
        assert reply.status_code == 403, (path, headers)
        assert "admin token" in reply.get_json()["error"]
    assert service.snapshot()["game_id"] == 1


def test_new_game_with_variant_and_undo(client, service):
    reply = client.post("/api/new-game", json={"game": "connect4", "variant": "blocker"}, headers=admin(service))
    assert reply.status_code == 200 and reply.get_json()["event"]["type"] == "game_started"
    snap = client.get("/api/state").get_json()
    assert snap["variant"] == "blocker" and snap["game_id"] == 2 and snap["rulings"]
    client.post("/api/move", json={"text": "b2/3"}, headers=admin(service))
    assert client.post("/api/undo", headers=admin(service)).status_code == 200
    assert service.snapshot()["moves"] == []
    nothing = client.post("/api/undo", headers=admin(service))
    assert nothing.status_code == 422 and nothing.get_json()["error"] == "nothing to undo"
    unknown = client.post("/api/new-game", json={"game": "connect4", "variant": "giant"}, headers=admin(service))
    assert unknown.status_code == 422 and "giant" in unknown.get_json()["error"]


def test_the_admin_sets_the_position_the_board_stands_in_and_play_goes_on_from_it(client, service):
    """After an illegal move the players played on from, the admin accepts the board as
    it stands: journalled as its own event, the moves before it kept, refereed on."""
    client.post("/api/new-game", json={"game": "chess"}, headers=admin(service))
    client.post("/api/move", json={"text": "e4"}, headers=admin(service))
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    reply = client.post("/api/position", json={"setup": {"fen": fen}}, headers=admin(service))
    assert reply.status_code == 200 and reply.get_json()["event"]["type"] == "position_set"
    snap = client.get("/api/state").get_json()
    assert snap["state"]["fen"] == fen and snap["moves"] == ["e4"]
    assert client.post("/api/move", json={"text": "Nf3"}, headers=admin(service)).status_code == 200
    bad = client.post("/api/position", json={"setup": {"fen": "not a position"}}, headers=admin(service))
    assert bad.status_code == 422 and "not a position" in bad.get_json()["error"]
    missing = client.post("/api/position", json={"fen": fen}, headers=admin(service))
    assert missing.status_code == 400 and "setup" in missing.get_json()["error"]
    assert client.get("/api/state").get_json()["moves"] == ["e4", "Nf3"]


def test_player_links_last_the_evening_with_a_qr_code_each(client, service):
    links = client.get("/api/player-links", headers=admin(service)).get_json()
    assert [link["name"] for link in links] == ["Mario", "Luigi"]
    assert all(link["qr_svg"].startswith("<svg") for link in links)
    luigi = links[1]["url"].replace("http://localhost", "")
    page = client.get(luigi)
    assert page.status_code == 200 and "You are playing as <strong id=\"you\">Luigi" in page.get_data(as_text=True)
    assert client.get("/seat/not-a-token").status_code == 404
    client.post("/api/new-game", json={"game": "chess"}, headers=admin(service))
    page = client.get(luigi)  # the next game: the same link, the same seat
    assert page.status_code == 200 and "You are playing as <strong id=\"you\">Bowser&#39;s team" in page.get_data(as_text=True)
    client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service))
    fourth = client.get("/api/player-links", headers=admin(service)).get_json()[3]["url"]
    client.post("/api/new-game", json={"game": "connect4"}, headers=admin(service))
    assert client.get(fourth.replace("http://localhost", "")).status_code == 404  # no fourth seat now


def test_the_page_gets_moves_in_words_layouts_and_a_favicon(client, service):
    assert service.submit(Enter(text="4")).ok
    [ply] = client.get("/api/moves").get_json()
    assert {k: v for k, v in ply.items() if k != "t"} == {
        "notation": "4", "text": "Mario drops a chip in column 4", "seat": 0, "name": "Mario", "unsure": False}
    assert isinstance(ply["t"], float)
    assert client.post("/api/undo", headers=admin(service)).status_code == 200
    assert client.get("/api/moves").get_json() == []
    assert client.get("/favicon.ico").status_code == 301
    assert client.post("/api/new-game", json={"game": "monopoly"}, headers=admin(service)).status_code == 200
    ring = client.get("/api/layout").get_json()["spaces"]
    assert len(ring) == 40 and ring[0]["name"] == "GO"
    assert client.post("/api/new-game", json={"game": "smb"}, headers=admin(service)).status_code == 200
    world = client.get("/api/layout").get_json()["worlds"]["1"]
    assert any("start" in s["features"] for s in world["spaces"])
    assert client.get("/api/camera.jpg").status_code == 404  # no camera: said, not a crash


def test_camera_endpoints_without_a_camera(client, service):
    frame = client.get("/api/frame.jpg", headers=admin(service))
    assert frame.status_code == 404 and "no camera frame" in frame.get_json()["error"]
    corners = client.post("/api/corners", json={"points": "10,10 90,10 90,90 10,90"}, headers=admin(service))
    assert corners.status_code == 422 and corners.get_json()["error"] == "no camera in this service"
    assert client.get("/calibrate").status_code == 200


def test_game_records_download(client, service):
    client.post("/api/move", json={"text": "4"}, headers=admin(service))
    assert [g["game"] for g in client.get("/api/games").get_json()] == ["connect4"]
    # while the game is open its record (with the whole setup) is for the admin only
    assert client.get("/api/games/1/export.json").status_code == 403
    record = client.get("/api/games/1/export.json", headers=admin(service))
    assert record.headers["Content-Disposition"] == 'attachment; filename="game-1.json"'
    kinds = [e["type"] for e in json.loads(record.get_data())["events"]]
    assert kinds == ["game_started", "move"]
    assert client.get("/api/games/9/export.json").status_code == 404
    pgn = client.get("/api/games/1/export.pgn")
    assert pgn.status_code == 404 and "connect4; it is not written as PGN" in pgn.get_json()["error"]


def test_a_chess_game_downloads_as_pgn(client, service):
    import chess.pgn as chess_pgn
    client.post("/api/new-game", json={"game": "chess"}, headers=admin(service))
    for san in ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"):
        assert client.post("/api/move", json={"text": san}, headers=admin(service)).status_code == 200
    reply = client.get("/api/games/2/export.pgn")
    assert reply.status_code == 200
    assert reply.headers["Content-Disposition"] == 'attachment; filename="game-2.pgn"'
    game = chess_pgn.read_game(io.StringIO(reply.get_data(as_text=True)))
    assert game.headers["Result"] == "1-0"
    assert game.end().board().is_checkmate()


def test_unknown_paths_methods_and_huge_bodies_answer_in_json(client, service):
    assert client.get("/api/nothing").status_code == 404
    wrong = client.get("/api/move")
    assert wrong.status_code == 405 and "error" in wrong.get_json()
    huge = client.post("/api/move", json={"text": "4" * 100_000}, headers=admin(service))
    assert huge.status_code == 413 and "error" in huge.get_json()


def test_admin_token_is_not_taken_from_the_query_string(client, service):
    """Control URLs with the token in them would end up in logs and browser history."""
    reply = client.post(f"/api/undo?token={service.admin_token}")
    assert reply.status_code == 403


# --- the event stream ------------------------------------------------------------------
def test_event_stream_sends_each_event_as_json_and_heartbeats(service):
    app = create_app(service)
    app.config["HEARTBEAT_S"] = 0.05
    reply = app.test_client().get("/events", buffered=False)
    assert reply.mimetype == "text/event-stream"
    chunks = iter(reply.response)
    assert next(chunks).startswith(b"retry:")
    assert next(chunks) == b": keep-alive\n\n"  # nothing happened within the heartbeat
    service.submit(Enter(text="6"))
    data = next(c for c in chunks if c.startswith(b"data: "))
    event = json.loads(data[len(b"data: "):])
    assert (event["type"], event["notation"], event["seat"]) == ("move", "6", 0)
    streams = app.extensions["referee_streams"]
    assert streams.count() == 1
    reply.close()
    assert streams.count() == 0
    service.submit(Enter(text="6"))  # nobody listens any more; the referee goes on
    assert service.snapshot()["moves"] == ["6", "6"]


@pytest.mark.timeout(20)
def test_streams_are_capped_below_the_thread_count_and_end_on_shutdown(service):
    service.config.web.threads = 3  # one stream, two threads kept for requests
    app = create_app(service)
    client = app.test_client()
    first = client.get("/events", buffered=False)
    chunks = iter(first.response)
    next(chunks)
    refused = client.get("/events", buffered=False)
    assert refused.status_code == 503 and "too many open pages (1)" in refused.get_json()["error"]
    ender = threading.Thread(target=close_streams, args=(app, 5.0))
    ender.start()  # what the service does before it stops the server
    assert list(chunks) == []  # the stream ended without waiting for a heartbeat
    first.close()
    ender.join()
    again = client.get("/events", buffered=False)
    assert again.status_code == 200
    again.close()


def test_secret_targets_are_never_announced_nor_exported_to_watchers(client, service):
    """A Labyrinth deal stays in the journal: the event stream's game_started and the
    record of an open game show the maze, never another player's targets."""
    import queue

    q = service.bus.subscribe(queue.Queue())
    assert client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service)).status_code == 200
    started = q.get(timeout=5)
    service.bus.unsubscribe(q)
    assert started.kind == "game_started" and "rows" in started.data["setup"]
    assert "targets" not in started.data["setup"]
    game_id = service.snapshot()["game_id"]
    assert client.get(f"/api/games/{game_id}/export.json").status_code == 403
    journalled = service.journal.events(game_id)[0]
    assert "targets" in journalled.data["setup"]  # the journal keeps the whole deal


def test_a_seat_that_is_not_a_number_or_not_in_the_game_is_a_clear_400_or_refusal(client, service):
    assert client.get("/api/state?seat=--1&token=x").status_code == 400
    assert "whole number" in client.get("/api/state?seat=%C2%B2&token=x").get_json()["error"]
    refused = client.post("/api/move", json={"text": "4", "seat": 5}, headers=admin(service))
    assert refused.status_code == 422 and "seat 5 is not in this game" in refused.get_json()["error"]
