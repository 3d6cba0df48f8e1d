"""Issue 28 #7: a page answer names the position it answers. A doubt answered from the
page 1 ms after the camera settled it was journalled as a second push nobody made: a
tap (a doubt's reading, a choice, a space) and the page's undo carry the snapshot's
`position`, and the referee refuses one given at a position that has changed since,
in words. Real Service and journal, the page's API through Flask's test client."""
from __future__ import annotations

from controller.events import Enter
from support import admin, player
from web import create_app


def test_a_tap_answering_a_position_the_camera_has_moved_on_from_is_refused(service):
    client = create_app(service).test_client()
    asked = client.get("/api/state").get_json()
    assert isinstance(asked["position"], int)
    # the page shows Mario's doubt (column 4?); the camera settles it first
    assert service.submit(Enter("4", source="camera")).ok
    reply = client.post("/api/move", json={"text": "4", "position": asked["position"]}, headers=admin(service))
    assert reply.status_code == 422
    assert reply.get_json()["error"] == ("this answer was for an earlier position: the game has moved on (4 was "
                                         "recorded since); nothing was entered: look at the board again")
    assert client.get("/api/state").get_json()["moves"] == ["4"]
    moves = [e for e in service.journal.events(service.referee.game_id) if e.kind == "move"]
    assert len(moves) == 1
    # an answer to the position as it is now is taken, from a phone too
    now = client.get("/api/state").get_json()["position"]
    assert now != asked["position"]
    reply = client.post("/api/move", json={"text": "3", "position": now}, headers=player(service, 1))
    assert reply.status_code == 200
    assert client.get("/api/state").get_json()["moves"] == ["4", "3"]


def test_the_page_s_undo_asked_before_a_move_was_recorded_takes_nothing_back(service):
    client = create_app(service).test_client()
    assert client.post("/api/move", json={"text": "4"}, headers=admin(service)).status_code == 200
    asked = client.get("/api/state").get_json()["position"]  # the admin means to take back 4
    assert service.submit(Enter("5", source="camera")).ok
    reply = client.post("/api/undo", json={"position": asked}, headers=admin(service))
    assert reply.status_code == 422 and "earlier position" in reply.get_json()["error"]
    assert client.get("/api/state").get_json()["moves"] == ["4", "5"]
    now = client.get("/api/state").get_json()["position"]
    assert client.post("/api/undo", json={"position": now}, headers=admin(service)).status_code == 200
    assert client.get("/api/state").get_json()["moves"] == ["4"]


def test_the_position_survives_a_restart(tmp_path):
    """The position is the journal's number of the event that made it: a page open
    before a restart answers the same position after it."""
    from support import running_service

    with running_service(tmp_path / "data") as service:
        service.submit(Enter("4"))
        before = service.snapshot()["position"]
    with running_service(tmp_path / "data") as service:
        assert service.snapshot()["position"] == before
        assert service.submit(Enter("3", at=before)).ok
