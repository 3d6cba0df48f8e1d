"""Why a chess move is illegal (controller/games/chess/illegal.py): the rule it breaks,
the piece by its Mario name and the squares, through the referee as `referee play`
enters text, and straight from a python-chess board."""
import chess
import pytest

from controller.games.chess.illegal import attacked, why, why_san
from controller.i18n import translator
from controller.journal import Journal
from controller.referee import Referee


@pytest.mark.parametrize("lines, reason", [
    (["b1b4"], "Yoshi cannot move from b1 to b4: a knight moves in an L, two squares one way and one to the side"),
    (["e4", "d2d4"], "it is Bowser's team's turn: Coin cannot move now"),
    (["a1a3"], "Toad cannot move from a1 to a3: Coin on a2 is in the way"),
    (["e1e2"], "Mario cannot move from e1 to e2: Mario's team's own Coin stands there"),
    (["e2e5"], "Coin cannot move from e2 to e5: a pawn moves one square forward (two from its starting square) or one diagonally to capture"),
    (["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5", "d3", "Ng4", "h3", "Bxf2+", "O-O"], "Mario cannot castle out of check"),
    (["e4", "b6", "g3", "Ba6", "Nf3", "Nc6", "Bh3", "Nf6", "O-O"],
     "Mario cannot castle through check: f1 is attacked by Magikoopa on a6"),
    (["g4", "h5", "gxh5", "Rxh5", "Nf3", "Rg5", "Bh3", "d6", "O-O"],
     "Mario cannot castle into check: g1 is attacked by Goomba on g5"),
    (["O-O"], "Mario cannot castle kingside: Daisy on f1 is in the way"),
    (["d4", "e6", "Bd2", "Bb4", "d2e3"], "Peach is pinned: moving her would leave Mario in check"),
    (["e4", "f5", "Qh5", "g8f6"], "Bowser is in check: moving Birdo from g8 to f6 does not get him out of it"),
    (["e4", "d5", "Bb5", "e8d7"], "Bowser cannot move into check on d7: d7 is attacked by Daisy on b5"),
    (["Nb4"], "no Yoshi of Mario's team can move to b4"),
    (["claim draw"], "no draw can be claimed: the position has occurred 1 time (a claim needs three) and "
                     "the last capture or pawn move was 0 moves ago (a claim needs 50)"),
    (["accept draw"], "there is no draw offer to accept ('offer draw' first, or 'draw agreed' when both players agree)"),
    (["promote n"], "'promote' changes a promoted piece only right after the promotion, before the next move"),
])
def test_illegal_moves_say_which_piece_which_squares_and_which_rule(lines, reason):
    """Through the referee, as `referee play` does (one subprocess below covers the CLI)."""
    referee = Referee(Journal(":memory:"))
    referee.new_game("chess")
    events = [referee.enter(text) for text in lines]
    assert [e.kind for e in events] == ["move"] * (len(lines) - 1) + ["illegal"]
    assert events[-1].data["reason"].startswith(reason)


def test_the_explainer_answers_for_any_board_and_names_the_squares_to_show():
    _ = translator()
    board = chess.Board()
    knight = why(_, board, chess.Move.from_uci("g1g3"))
    assert knight.reason == "Yoshi cannot move from g1 to g3: a knight moves in an L, two squares one way and one to the side"
    assert knight.cells == ("g1", "g3")
    assert why(_, board, chess.Move.from_uci("e3e4")).reason == "there is no piece on e3"
    assert why_san(_, board, "Qh5").reason == "Luigi cannot move from d1 to h5: Coin on e2 is in the way"
    assert why_san(_, board, "Nd4").reason == "no Yoshi of Mario's team can move to d4"
    assert why_san(translator("fr"), board, "Nd4").reason.startswith("aucun Yoshi")


def test_a_move_into_check_names_a_piece_that_attacks_the_square():
    _ = translator()
    board = chess.Board("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")  # Goomba on d2 holds the second rank
    assert attacked(_, "X", board, chess.BLACK, chess.E2) == "X: e2 is attacked by Goomba on d2"
    assert attacked(_, "X", board, chess.BLACK, chess.H5) == "X"
    assert attacked(translator("fr"), "X", board, chess.BLACK, chess.E2).startswith("X : ")  # French typography
    assert why(_, board, chess.Move.from_uci("e1f2")).reason == (
        "Mario cannot move into check on f2: f2 is attacked by Goomba on d2")
