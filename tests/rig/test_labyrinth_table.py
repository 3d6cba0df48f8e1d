"""A Labyrinth game started from the maze laid out on the table, through the running
service: a rendered board is the service's camera (synthetic source, the real Watcher,
reader, catalogue, referee thread and SQLite journal), commands go in through the page's
API (Flask's test client, admin token). The first game's pictures are named once on the
enrolment view; the next game's shuffle is read without help."""
from __future__ import annotations

import time

import cv2
import pytest

from controller.events import Enter
from controller.config import default
from controller.games.labyrinth.maze import cell_index, tile_text
from controller.games.labyrinth.rules import Labyrinth
from controller.service import Service
from controller.table_start import treasure_names
from controller.demo_rig import render_labyrinth as R
from labyrinth_table import (FIRST, SECOND, Table, decode, enrolment_naming, position, shuffle, spare,
                             start_waiting_for_names, table_service, treasures)
from support import admin
from web import create_app
from waiting import wait_for


@pytest.fixture
def table():
    return Table()


@pytest.fixture
def service(tmp_path, table):
    with table_service(tmp_path / "data", table) as s:
        yield s


@pytest.fixture
def client(service):
    return create_app(service).test_client()


def neighbourhood(cell: str) -> list[str]:
    """`cell` and the cells of the maze beside it (diagonals too)."""
    col, row = "abcdefg".index(cell[0]), int(cell[1:])
    return [f"{'abcdefg'[c]}{r}" for c in range(col - 1, col + 2) for r in range(row - 1, row + 2)
            if 0 <= c < 7 and 1 <= r <= 7]


def test_a_game_starts_from_the_table_after_naming_the_pictures_once(service, client, table, tmp_path):
    events = []
    service.bus.subscribe(events.append)
    first = shuffle(FIRST)
    assert first.spare.treasure is None  # every picture lies on the board, so all 24 get named
    table.lay(position(first))
    reply = client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service))
    assert reply.status_code == 200 and "reading the Super Mario Labyrinth maze" in reply.get_json()["waiting"]
    assert service.referee.game.name == "connect4"  # the open game stands until the maze is read

    view = enrolment_naming(client)
    truth = treasures(first)
    assert {p["id"] for p in view["pictures"]} == set(truth)  # every picture tile, no other
    assert view["names"] == treasure_names() and len(view["names"]) == 24
    # each is shown as its whole tile, cut from the camera frame where that tile lies: it
    # looks like that tile more than like any tile around it (a cut a tile off would show
    # a neighbour; tiles far apart may share their shape and a picture's colour, which
    # the noise of one shot can tip at this size)
    shown = {p["id"]: decode(p["png"]) for p in view["pictures"]}
    for cell, photo in shown.items():
        assert photo.shape == (160, 160, 3)
        around = {c: R.draw_tile(tile_text(first.tiles[cell_index(c)])) for c in neighbourhood(cell)}
        small = cv2.resize(photo, around[cell].shape[1::-1], interpolation=cv2.INTER_AREA)
        fit = {c: cv2.matchTemplate(small, tile, cv2.TM_CCOEFF_NORMED)[0, 0] for c, tile in around.items()}
        assert max(fit, key=fit.get) == cell
    assert any("need a name" in e.data.get("text", "") for e in events if e.kind == "notice")

    cells = sorted(truth)
    reply = client.post("/api/enrol", json={"names": {c: truth[c] for c in cells[:-1]}}, headers=admin(service))
    assert reply.status_code == 200 and "1 treasure picture needs a name" in reply.get_json()["waiting"]
    assert [p["id"] for p in client.get("/api/enrol").get_json()["pictures"]] == cells[-1:]
    reply = client.post("/api/enrol", json={"names": {cells[-1]: truth[cells[0]]}}, headers=admin(service))
    assert reply.status_code == 400  # a treasure lies on one tile only
    assert reply.get_json()["error"] == f"field 'names': {cells[-1]}: {truth[cells[0]]} is already on {cells[0]}"
    reply = client.post("/api/enrol", json={"names": {cells[-1]: truth[cells[-1]]}}, headers=admin(service))
    assert reply.status_code == 200 and reply.get_json()["event"]["type"] == "game_started"

    r = service.referee
    assert r.game.name == "labyrinth"
    assert r.state.tiles == first.tiles  # the maze on the table
    assert spare(r.state) == spare(first)  # the tile the set is missing (turned any way)
    assert sorted(x for cards in r.setup["targets"].values() for x in cards) == sorted(truth.values())
    assert client.get("/api/enrol").get_json() | {"pictures": [], "printed": {}} == {
        "state": "idle", "message": "Super Mario Labyrinth started from the layout on the table",
        "pictures": [], "names": treasure_names(), "known": sorted(truth.values()), "printed": {}}
    assert (tmp_path / "data" / "treasures.npz").exists()
    # the reader learns again from the whole layout: the table as it stands is no move
    n = len(events)
    time.sleep(1.0)
    assert [e for e in events[n:] if e.kind in ("illegal", "move")] == []

    # a new shuffle: recognised without help, the game starts by itself
    second = shuffle(SECOND)
    table.lay(position(second))
    first_id = r.game_id
    reply = client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service))
    assert reply.status_code == 200
    wait_for(lambda: r.game_id != first_id, "the second game to start from the table")
    assert (r.state.tiles, spare(r.state)) == (second.tiles, spare(second))
    assert client.get("/api/enrol").get_json()["state"] == "idle"


def test_the_game_read_from_the_table_is_rebuilt_on_resume(table, tmp_path):
    first = shuffle(FIRST)
    with table_service(tmp_path / "data", table) as service:
        client = create_app(service).test_client()
        start_waiting_for_names(service, client, table, first)
        reply = client.post("/api/enrol", json={"names": treasures(first)}, headers=admin(service))
        assert reply.get_json()["event"]["type"] == "game_started"
        assert service.submit(Enter(text="push W2")).ok
        before = service.referee.state
    assert before.tiles[7:14] != first.tiles[7:14]  # row 2 has moved
    config = default()
    config.data.folder = str(tmp_path / "data")
    again = Service(config, camera=False, devices=False)
    try:
        assert again.referee.game.name == "labyrinth"
        assert again.referee.state == before
    finally:
        again.journal.close()


def test_a_damaged_catalogue_is_named_and_nothing_waits(service, client, tmp_path):
    (tmp_path / "data" / "treasures.npz").write_bytes(b"not a catalogue")
    reply = client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service))
    assert reply.status_code == 422
    assert "treasures.npz: not a treasure catalogue" in reply.get_json()["error"]
    assert client.get("/api/enrol").get_json()["state"] == "idle"
    assert service.referee.game.name == "connect4"


def test_another_game_started_meanwhile_ends_the_wait(service, client, table):
    view = start_waiting_for_names(service, client, table, shuffle(FIRST))
    reply = client.post("/api/new-game", json={"game": "connect4"}, headers=admin(service))
    assert reply.status_code == 200 and service.referee.game.name == "connect4"
    assert client.get("/api/enrol").get_json()["state"] == "idle"
    reply = client.post("/api/enrol", json={"names": {view["pictures"][0]["id"]: "Mario"}}, headers=admin(service))
    assert reply.status_code == 422 and reply.get_json()["error"] == "no game is waiting to start from the table"
    assert not service.enrolment.path.exists()  # nothing was enrolled


def test_the_maze_is_read_only_with_the_pawns_on_their_corners(service, client, table):
    """A pawn off its corner could hide a picture: the referee says so and waits, and
    reads the maze once the pawn is back (also when it was away while the reader learned
    the colours, and when it is taken away while the pictures wait for names)."""
    first = shuffle(FIRST)
    away = position(first)
    away["players"] = [p if p["colour"] != "blue" else {**p, "cell": "d4"} for p in away["players"]]
    table.lay(away)
    assert client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service)).status_code == 200
    wait_for(lambda: client.get("/api/enrol").get_json()["message"]
             == "waiting for the pawns on their start corners: the blue pawn on a7", "the pawn to be named")
    table.lay(position(first))
    assert {p["id"] for p in enrolment_naming(client)["pictures"]} == set(treasures(first))
    table.lay(away)
    wait_for(lambda: client.get("/api/enrol").get_json()["message"]
             == "waiting for the pawns on their start corners: the blue pawn on a7", "the pawn to be named")
    table.lay(position(first))
    assert {p["id"] for p in enrolment_naming(client)["pictures"]} == set(treasures(first))
    assert service.referee.game.name == "connect4"
