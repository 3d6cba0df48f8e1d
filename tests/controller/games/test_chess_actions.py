"""What a chess player does (controller/games/chess/actions.py): each action writes itself
in the notation the journal records, and the parser reads moves and commands back."""
import chess
import pytest

from controller.games import load_game
from controller.games.base import IllegalAction, NotationError
from controller.games.chess.actions import (AcceptDraw, ClaimDraw, Flag, OfferDraw, Promote, Resign, notation, parse,
                                            said_by)


def test_each_action_is_written_and_read_back_the_same():
    game = load_game("chess")
    state = game.start()
    for action in (Resign(0), Resign(1), OfferDraw(1), AcceptDraw(0), AcceptDraw(None), ClaimDraw(), Flag(1),
                   Promote(chess.KNIGHT)):
        assert parse(game, state, action.notation()) == action
    assert [a.notation() for a in (AcceptDraw(None), Flag(0), Promote(chess.ROOK))] == [
        "draw agreed", "flag red", "promote r"]
    move = parse(game, state, "Nf3")
    assert move == chess.Move.from_uci("g1f3") == parse(game, state, "g1f3") and notation(state, move) == "Nf3"


def test_a_bare_command_is_the_side_to_move_s_or_the_phone_s():
    game = load_game("chess")
    state = game.start()
    assert parse(game, state, "resign") == Resign(0) and parse(game, state, "offer draw Bowser") == OfferDraw(1)
    assert parse(game, state, "accept draw") == AcceptDraw(1)
    assert said_by("  Resign ", 1) == "resign green" and said_by("offer draw", 0) == "offer draw red"
    assert said_by("e2e4", 1) == "e2e4"


def test_a_promotion_without_its_piece_is_the_default_piece():
    game = load_game("chess", settings={"default_promotion": "n"})
    state = game.start({"fen": "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"})
    assert parse(game, state, "a7a8") == chess.Move.from_uci("a7a8n") == parse(game, state, "a8")
    assert parse(game, state, "a7a8q").promotion == chess.QUEEN


def test_text_that_is_no_action_is_refused_with_its_reason():
    game = load_game("chess")
    state = game.start()
    for text, reason in (("e2e2", "not to the square it starts on"), ("e7e8k", "never to a king"),
                         ("promote x", "a pawn is promoted to q"), ("hello", "is not a chess move")):
        with pytest.raises(NotationError, match=reason):
            parse(game, state, text)
    with pytest.raises(IllegalAction, match="Luigi cannot move from d1 to h5"):
        parse(game, state, "Qh5")
