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
    for text in ("roll 1 2", "auction", "bid p1 3"):
        assert referee.enter(text, seat=1 if text.startswith("bid") else 0).kind == "move", text
    refused = referee.enter("close", seat=1)  # the highest bidder would buy before anyone outbids
    assert refused.kind == "illegal" and "the auction is closed by the Bank" in refused.data["reason"]
    assert referee.enter("bid p0 4", seat=0).kind == "move"  # so the other player could still bid
    closed = referee.enter("close")  # the referee's (admin) close
    assert closed.kind == "move" and "Mario's Cap takes the deed" in closed.data["text"]
