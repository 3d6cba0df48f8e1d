"""A view read while a new hand moves over part of the board is one more look, not a
re-read of the last still board: what that board showed under the hand stands.

The watcher reads the rest of a board while a hand moves at its edge, and marks such a
view with the time the still part last moved: the same time as the last still view when
only the hand changed. Taking it for a re-read of that board dropped what the board
showed where the hand now is (issue 27's held-out stand-in, bench/following.py: f4 seen
with the knight still on h7, then the hand that played ...Nf6 read moving over h7, and
Nf6 was recorded before f4 while a sleeve hid the ply before them)."""
import chess

from controller.journal import Journal
from support import label, referee_on
from vision.view import BoardView, CellSight

SLEEVE = {"e2", "e4"}  # a sleeve at rest over White's e-pawn, its square and where it goes


class Views:
    """Labelled views of chess boards, each read four times a second while it stands."""

    def __init__(self, referee):
        self.referee, self.t, self.moved_at = referee, 0.0, 0.0

    def show(self, board, hold=1.0, covered=(), moving=(), new_motion=True):
        """`board` read for `hold` seconds; `covered`: cells under a hand at rest; `moving`:
        cells a hand still moves over (weighing nothing, as the watcher weighs them); the
        first reading counts one hand motion since the view before; `new_motion` False:
        the still part of the board has not moved since the last view (a hand reaching
        in at its edge), so the view carries the last view's time."""
        if new_motion:
            self.moved_at = self.t + 0.1
        cells = {chess.square_name(s): (label(board.piece_at(s)), 0.95) for s in chess.SQUARES}
        sight = {**{c: CellSight(covered=True, weight=0.0) for c in covered},
                 **{c: CellSight(moving=True, weight=0.0) for c in moving}}
        for i in range(int(hold / 0.25)):
            self.t += 0.25
            self.referee.observe(BoardView(cells, t=self.t, moved_at=self.moved_at, motions=1 if i == 0 else 0,
                                           sight=sight))


def test_what_a_still_board_showed_under_a_hand_that_then_moves_in_still_orders_the_plies():
    """1. e4 is played under a sleeve at rest; 1...e5 is seen with the knight still on g1;
    then the hand that plays 2. Nf3 is read moving over g1 and f3 (the still part of the
    board unchanged since), rests on f3, and leaves with the sleeve. Nf3 then e5 (one ply
    shorter) would explain every view but the one that showed g1 still occupied after
    e5: the record is e4 e5 Nf3, in order, with no correction and no alarm."""
    referee, events = referee_on(Journal(":memory:"))
    referee.new_game("chess")
    views, board = Views(referee), chess.Board()
    views.show(board, hold=2.0)
    board.push_san("e4")
    views.show(board, covered=SLEEVE)
    board.push_san("e5")
    views.show(board, covered=SLEEVE)
    board.push_san("Nf3")
    views.show(board, hold=0.25, covered=SLEEVE, moving={"g1", "f3", "g2", "h2", "h1"}, new_motion=False)
    views.show(board, covered=SLEEVE | {"f3"})
    views.show(board, hold=2.0)
    board.push_san("Nc6")
    views.show(board, hold=2.0)
    referee.settle()
    assert referee.history == ["e4", "e5", "Nf3", "Nc6"]
    assert [(e.kind, e.data) for e in events if e.kind in ("illegal", "doubt", "corrected")] == []
