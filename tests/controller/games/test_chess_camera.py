"""What the camera sees of a chess board (controller/games/chess/camera.py): colours on
squares, each legal move once, a view no move explains in words, and the fix."""
import pytest

from controller.games import load_game
from controller.games.base import IllegalAction, NotationError
from controller.games.chess.camera import fix, observable_actions
from controller.i18n import translator


def test_the_camera_sees_red_on_ranks_one_and_two_and_every_legal_move_once():
    game = load_game("chess")
    state = game.start()
    board = game.board(state)
    assert len(board) == 64
    assert {board[f"{f}{r}"] for f in "abcdefgh" for r in "12"} == {"p0"}
    assert {board[f"{f}{r}"] for f in "abcdefgh" for r in "78"} == {"p1"}
    assert {board[f"{f}{r}"] for f in "abcdefgh" for r in "3456"} == {"empty"}
    # after a promotion is possible, the camera is offered only the queen
    for san in "a4 b5 axb5 h6 b6 h5 bxc7 h4".split():
        state = game.play(state, game.parse(state, san))
    promos = [m for m in game.observable_actions(state) if m.promotion]
    assert sorted(m.uci() for m in promos) == ["c7b8q", "c7d8q"]
    with pytest.raises(NotationError):
        game.parse(state, "c7c8p")
    with pytest.raises(IllegalAction, match="no Coin of Mario's team can move to c6"):
        game.parse(state, "c6")


def seen_after(game, state, edit):
    """What the camera would see with pieces moved by hand: {square: label}."""
    return {**game.board(state), **edit}


def test_explain_puts_a_view_no_move_explains_into_words():
    game = load_game("chess")
    state = game.start()
    for san in "e4 e5 Nf3 Nc6 Bc4 Bc5".split():
        state = game.play(state, game.parse(state, san))
    # the king steps two squares but the rook stays: half a castling
    half = game.explain(state, seen_after(game, state, {"e1": "empty", "g1": "p0"}))
    assert half.reason == "Mario stepped from e1 to g1: castling moves the rook to f1 too"
    # a legal move and then an illegal reply in one view
    quick = seen_after(game, state, {"d2": "empty", "d3": "p0", "c6": "empty", "c4": "p1"})
    reply = game.explain(state, quick)
    assert reply.reason == ("after d3: Birdo cannot move from c6 to c4: a knight moves in an L, "
                            "two squares one way and one to the side")
    assert set(reply.cells) == {"c6", "c4"}
    # a piece from nowhere
    extra = game.explain(state, seen_after(game, state, {"h4": "p1"}))
    assert extra.reason == "board does not match: h4 shows a green piece where an empty square should be"
    assert extra.cells == ("h4",)


def test_an_illegal_move_first_seen_with_the_reply_played_on_it_is_still_named():
    """A wrong board must stand CONFIRM_S before the alarm; where the players answer an
    illegal move sooner, the first view the alarm is raised on already shows the reply.
    The words still name the illegal move and the rule (15...b6?? ignoring 15. Nxe7+,
    then 16. Bg3), not four squares that "do not match"."""
    game = load_game("chess")
    state = game.start()
    for san in ("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Bxc6 dxc6 Re1 Nd7 d4 exd4 Qxd4 O-O Bf4 Nc5 "
                "Qe3 Bg4 Nd4 Qd7 Nc3 Rad8 Nf5 Ne6 Nxe7+").split():
        state = game.play(state, game.parse(state, san))
    seen = seen_after(game, state, {"b7": "empty", "b6": "p1", "f4": "empty", "g3": "p0"})
    said = game.explain(state, seen)
    assert said.reason == ("Bowser is in check: moving Green Shell from b7 to b6 does not get him out of it; "
                           "then Peach from f4 to g3")
    assert set(said.cells) == {"b7", "b6", "f4", "g3"}
    # the same four squares with the reply's piece where the rules do not let it go are no such story
    odd = game.explain(state, seen_after(game, state, {"b7": "empty", "b6": "p1", "f4": "empty", "f8": "p0"}))
    assert odd.reason.startswith("board does not match: ")
    # in the table's language
    fr = load_game("chess", lang="fr")
    assert fr.explain(state, seen).reason.endswith(" ; puis Peach de f4 à g3")


def test_only_moves_from_a_changed_square_are_weighed_and_a_promotion_is_the_default_piece():
    game = load_game("chess", settings={"default_promotion": "n"})
    state = game.start({"fen": "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"})
    assert sorted(m.uci() for m in observable_actions(game, state, {"a7"})) == ["a7a8n"]
    assert {m.uci()[:2] for m in observable_actions(game, state, {"e1"})} == {"e1"}
    assert observable_actions(game, state, {"h4"}) == []


def test_the_fix_puts_each_piece_back_and_clears_the_rest():
    game = load_game("chess")
    state = game.start()
    seen = {**game.board(state), "d1": "empty", "e3": "p0", "e4": "p1"}
    assert fix(translator(), state, seen) == "put Luigi (red) back on d1; clear e3, e4"
    assert fix(translator(), state, game.board(state)) == "put the board back as it was"
    assert fix(translator("fr"), state, seen).count("d1") == 1
