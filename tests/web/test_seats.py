"""Issue 21 #3: seats act only for themselves. An agreement of both players (a chess
draw) is an offer from one seat's phone and an acceptance from the other's; what is no
one seat's (a draw agreed at once, the Bank closing a Monopoly auction) is not taken
from any phone; the admin, who hears it from the players, still enters it."""
from __future__ import annotations

import random

from controller.journal import Journal
from controller.referee import Referee
from support import admin, player, running_service
from web import create_app


def test_one_phone_cannot_end_a_chess_game_as_agreed_both_players_can(tmp_path):
    with running_service(tmp_path / "data") as service:
        client = create_app(service).test_client()
        assert client.post("/api/new-game", json={"game": "chess"}, headers=admin(service)).status_code == 200
        # the case: Bowser's phone, not its turn; and then on its turn
        for move in ("draw agreed", None):
            reply = client.post("/api/move", json={"text": "draw agreed"}, headers=player(service, 1))
            assert reply.status_code == 422, reply.get_json()
            assert "a draw needs both players: one offers it ('offer draw')" in reply.get_json()["error"]
            assert service.snapshot()["outcome"] is None
            if move is None:
                break
            assert client.post("/api/move", json={"text": "e4"}, headers=player(service, 0)).status_code == 200
        # nor can one phone accept its own offer, or accept for the other side
        assert client.post("/api/move", json={"text": "offer draw"}, headers=player(service, 1)).status_code == 200
        reply = client.post("/api/move", json={"text": "accept draw"}, headers=player(service, 1))
        assert reply.status_code == 422 and service.snapshot()["outcome"] is None
        reply = client.post("/api/move", json={"text": "accept draw red"}, headers=player(service, 1))
        assert reply.status_code == 422 and "it is Mario's team's turn, not Bowser's team's" in reply.get_json()["error"]
        # the offer from one phone, the acceptance from the other's: a draw
        assert client.post("/api/move", json={"text": "accept draw"}, headers=player(service, 0)).status_code == 200
        assert service.snapshot()["outcome"]["reason"] == "draw agreed"
        # the admin (told by both players) still enters an agreed draw at once
        assert client.post("/api/new-game", json={"game": "chess"}, headers=admin(service)).status_code == 200
        assert client.post("/api/move", json={"text": "draw agreed"}, headers=admin(service)).status_code == 200
        assert service.snapshot()["outcome"]["reason"] == "draw agreed"


def test_a_bidder_cannot_close_a_monopoly_auction_the_bank_does():
    referee = Referee(Journal(":memory:"))
    referee.new_game("monopoly", settings={"confirm_tokens": False, "bowser": False, "players": 2},
                     rng=random.Random(1))
    assert referee.enter("roll 1 2", source="die").kind == "move"
    for text in ("auction", "bid p1 3"):
        assert referee.enter(text, seat=1 if text.startswith("bid") else 0).kind == "move", text
    refused = referee.enter("close", seat=1)  # the highest bidder would buy before anyone outbids
    assert refused.kind == "illegal" and "the auction is closed by the Bank" in refused.data["reason"]
    assert referee.enter("bid p0 4", seat=0).kind == "move"  # so the other player could still bid
    closed = referee.enter("close")  # the referee's (admin) close
    assert closed.kind == "move" and "Mario's Cap takes the deed" in closed.data["text"]


def _stepped(service):
    """The page's client, its pace clock a second a request (typed at a person's pace)."""
    import itertools

    app = create_app(service)
    app.extensions["referee_limits"]["pace"].clock = itertools.count(0.0, 1.0).__next__
    return app.test_client()


def test_a_player_s_phone_cannot_roll_the_die_or_the_admin_and_the_die_can(tmp_path):
    """Issue 28 #3: a seat's link sent "roll red" in Super Mario Bros. (and a roll in
    Monopoly) and it was recorded ("Player 1 rolls red"): a player chose their own
    roll. Rolls come from the die (its button, the die module) and the admin's page
    (a table that plays with ordinary dice; docs/dice.md "Who rolls")."""
    from controller.events import RollDie

    with running_service(tmp_path / "data") as service:
        client = _stepped(service)
        for game, roll in (("smb", "roll red"), ("monopoly", "roll 3 4")):
            assert client.post("/api/new-game", json={"game": game}, headers=admin(service)).status_code == 200
            seat = service.snapshot()["prompt"]["seat"]
            assert service.snapshot()["prompt"]["kind"] == "roll"
            reply = client.post("/api/move", json={"text": roll}, headers=player(service, seat))
            assert reply.status_code == 422, game
            assert f"'{roll}' is a roll: rolls come from the die" in reply.get_json()["error"]
            assert service.snapshot()["moves"] == [], game
            # the admin enters a roll of ordinary dice; the die's button draws one
            assert client.post("/api/move", json={"text": roll}, headers=admin(service)).status_code == 200, game
            assert service.snapshot()["moves"] == [roll]
        assert client.post("/api/new-game", json={"game": "smb"}, headers=admin(service)).status_code == 200
        rolled = service.submit(RollDie())
        assert rolled.ok and service.snapshot()["moves"] == [rolled.rolled.notation]


def test_lines_a_phone_types_that_are_refused_are_journalled_a_few_times_a_position(tmp_path):
    """Issue 28 #9: every refused line a phone typed was journalled (up to 2 a second,
    all evening). Each is still answered in words; the journal keeps the first three a
    seat types at one position (REFUSED_KEPT), and three more once the game moves on."""
    from controller.referee import REFUSED_KEPT

    with running_service(tmp_path / "data") as service:
        client = _stepped(service)
        for i in range(20):
            reply = client.post("/api/move", json={"text": f"column {i}"}, headers=player(service, 0))
            assert reply.status_code == 422 and reply.get_json()["error"], i
        illegal = [e for e in service.journal.events(service.referee.game_id) if e.kind == "illegal"]
        assert len(illegal) == REFUSED_KEPT == 3
        assert client.post("/api/move", json={"text": "4"}, headers=player(service, 0)).status_code == 200
        for i in range(5):
            assert client.post("/api/move", json={"text": "9"}, headers=player(service, 1)).status_code == 422
        illegal = [e for e in service.journal.events(service.referee.game_id) if e.kind == "illegal"]
        assert len(illegal) == 6
        # the admin's own mistakes are the record's, each
        for i in range(5):
            assert client.post("/api/move", json={"text": "9"}, headers=admin(service)).status_code == 422
        assert sum(e.kind == "illegal" for e in service.journal.events(service.referee.game_id)) == 11


def test_a_chess_side_resigns_from_its_phone_when_it_is_not_its_turn(tmp_path):
    """Issue 28 #9: Bowser's phone tapped "resign" while Mario's team was to move and was
    told "it is Mario's team's turn, not Bowser's team's"."""
    with running_service(tmp_path / "data") as service:
        client = create_app(service).test_client()
        assert client.post("/api/new-game", json={"game": "chess"}, headers=admin(service)).status_code == 200
        prompt = service.snapshot(viewer=1)["prompt"]
        assert "resign green" in prompt["anytime"] and prompt["actors"]["resign green"] == 1  # the phone's button
        reply = client.post("/api/move", json={"text": "resign"}, headers=player(service, 1))
        assert reply.status_code == 200, reply.get_json()
        assert service.snapshot()["outcome"]["reason"] == "Bowser's team resigns"
        # on its own turn too, and an offer of a draw out of turn is that side's
        assert client.post("/api/new-game", json={"game": "chess"}, headers=admin(service)).status_code == 200
        assert client.post("/api/move", json={"text": "offer draw"}, headers=player(service, 1)).status_code == 200
        assert client.post("/api/move", json={"text": "accept draw"}, headers=player(service, 0)).status_code == 200
        assert service.snapshot()["outcome"]["reason"] == "draw agreed"
        assert client.post("/api/new-game", json={"game": "chess"}, headers=admin(service)).status_code == 200
        assert client.post("/api/move", json={"text": "resign"}, headers=player(service, 0)).status_code == 200
        assert service.snapshot()["outcome"]["reason"] == "Mario's team resigns"
