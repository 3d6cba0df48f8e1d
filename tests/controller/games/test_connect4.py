"""Connect 4, classic and Blocker, as shared/RULINGS.md section 2 reads the rules."""

import pytest

from controller.games.base import IllegalAction, NotationError
from controller.games.connect4 import ROWS, C4State, Connect4, Drop, KeepBlocker, PlaceBlocker, RemoveBlocker
from shared_data import SHARED_DATA

DATA = SHARED_DATA / "connect4"


def play(game, moves, state=None):
    state = state or game.start()
    for text in moves.split():
        state = game.play(state, game.parse(state, text))
    return state


def illegal(game, state, text) -> str:
    with pytest.raises(IllegalAction) as info:
        game.play(state, game.parse(state, text))
    return info.value.reason


classic, blocker = Connect4("classic"), Connect4("blocker")


@pytest.mark.parametrize("moves, winner, how", [
    ("1 1 2 2 3 3 4", 0, "horizontal"),
    ("1 2 1 2 1 2 1", 0, "vertical"),
    ("1 2 2 3 3 4 3 4 4 7 4", 0, "diagonal up"),
    ("7 6 6 5 5 4 5 4 4 1 4", 0, "diagonal down"),
    ("7 1 1 2 2 3 3 4", 1, "second player"),
])
def test_four_in_a_line_wins(moves, winner, how):
    state = play(classic, moves)
    assert classic.outcome(state).winner == winner, how


def test_full_grid_without_a_line_is_a_draw():
    # columns filled in pairs so that no four ever line up
    order = "1 2 1 2 1 2 2 1 2 1 2 1 3 4 3 4 3 4 4 3 4 3 4 3 5 6 5 6 5 6 6 5 6 5 6 5 7 7 7 7 7 7"
    state = play(classic, order)
    outcome = classic.outcome(state)
    assert outcome is not None and outcome.winner is None and "draw" in outcome.reason


def test_full_column_and_notation_errors():
    state = play(classic, "1 1 1 1 1 1")
    assert illegal(classic, state, "1") == "column 1 is full"
    for bad in ("0", "8", "", "a", "b4", "b8/1", "4y"):
        with pytest.raises(NotationError):
            classic.parse(state, bad)


def test_moves_after_the_end_are_illegal():
    state = play(classic, "1 2 1 2 1 2 1")
    assert "game is over" in illegal(classic, state, "3")


def test_classic_has_no_blocker():
    assert illegal(classic, classic.start(), "b4/1") == "classic Connect 4 has no blockers"


def test_solver_positions_replay_without_a_false_win():
    """A published solver's positions: every sequence is legal and unfinished."""
    lines = (DATA / "Test_L2_R1").read_text().split("\n")[:300]
    for line in filter(None, lines):
        moves = line.split()[0]
        state = play(classic, " ".join(moves))
        assert classic.outcome(state) is None, moves
        assert state.turn == len(moves) % 2


# --- the Blocker -------------------------------------------------------------------

def test_blocker_goes_into_any_empty_hole_and_kills_the_holes_below():
    state = play(blocker, "b4/3")  # Mario's blocker, column 4, row 3: rows 1-2 dead
    assert state.cols[3][2] == "B0" and state.turn == 1
    state = play(blocker, "4", state)  # Luigi's chip lands on the blocker
    assert state.cols[3][3] == "1" and state.cols[3][0] == "" and state.cols[3][1] == ""
    # a dead hole may still take the other blocker
    state = play(blocker, "1 b4/1", state)
    assert state.cols[3][0] == "B1"


def test_blocker_in_the_top_hole_blocks_the_column():
    state = play(blocker, "b2/6")
    assert illegal(blocker, state, "2") == "column 2 is full (a blocker closes it)"


def test_each_player_places_a_blocker_once():
    state = play(blocker, "b1/1 2")
    assert "already used the blocker" in illegal(blocker, state, "b3/3")


def test_blocker_cannot_go_into_a_taken_hole():
    state = play(blocker, "4")
    assert illegal(blocker, state, "b4/1") == "column 4, row 1 is not empty"


def grid(rows_top_down: str, turn: int, blockers=("hand", "hand")):
    """A position drawn as text, top row first: '.' empty, R Mario, G Luigi,
    b Mario's blocker, B Luigi's blocker."""
    rows = [r.split() for r in rows_top_down.strip().splitlines()][::-1]
    code = {".": "", "R": "0", "G": "1", "b": "B0", "B": "B1"}
    cols = tuple(tuple(code[rows[r][c]] for r in range(ROWS)) for c in range(7))
    return C4State(cols=cols, turn=turn, blockers=blockers)


# Mario's blocker holds three of his chips up in column 1; Luigi's next chip in column 7
# lands in the top row.
TALL = """
. . . . . . .
R . . . . . G
R . . . . . R
R . . . . . G
b . . . . . R
. . . . . . G
"""


def test_removal_only_after_a_top_row_drop():
    state = grid(TALL, 0, ("placed", "hand"))
    assert "only right after" in illegal(blocker, state, "x")
    state = play(blocker, "3", state)
    assert "lands in row 1" in illegal(blocker, state, "2x")


def test_top_row_drop_removes_the_opponents_blocker_and_the_column_settles():
    state = play(blocker, "7x", grid(TALL, 1, ("placed", "hand")))
    assert state.blockers == ("removed", "hand")
    # the chips that stood on the blocker fell into rows 1-3; row 1 was dead
    assert state.cols[0] == ("0", "0", "0", "", "", "")
    assert state.turn == 0 and blocker.outcome(state) is None


def test_removal_as_a_separate_step_and_declining_it():
    state = play(blocker, "7", grid(TALL, 1, ("placed", "hand")))
    assert state.may_remove == 1 and state.turn == 0
    assert "Luigi may first remove" in blocker.prompt(state).text
    removed = play(blocker, "x", state)
    assert removed.blockers[0] == "removed" and removed.turn == 0 and removed.may_remove is None
    declined = play(blocker, "3", state)  # Mario simply moves: the chance is gone
    assert declined.may_remove is None
    assert "only right after" in illegal(blocker, declined, "x")


def test_removing_needs_an_opponent_blocker_in_the_grid():
    state = grid(TALL, 1, ("hand", "hand"))
    assert "Mario has no blocker in the grid" in illegal(blocker, state, "7x")


def test_top_row_four_ends_the_game_with_no_removal():
    rows = """
. . . . . . .
. . . . . . G
. . . . . . G
. . . . . . G
. . . . . . R
b . . . . . R
"""
    state = grid(rows, 1, ("placed", "hand"))
    assert "makes four in a line" in illegal(blocker, state, "7x")
    done = play(blocker, "7", state)
    assert blocker.outcome(done).winner == 1 and done.blockers[0] == "placed"


def test_settle_can_make_four_for_the_opponent_and_for_both():
    b = blocker
    cols = [list("" for _ in range(ROWS)) for _ in range(7)]
    # Column 1: Luigi's blocker at row 1, Mario chip above it at row 2.
    cols[0][0], cols[0][1] = "B1", "0"
    # Row 1, columns 2-4: Mario chips -> the settle gives Mario four on row 1.
    for c in (1, 2, 3):
        cols[c][0] = "0"
    # Column 6 filled to row 5 so a top-row drop is possible; no lines anywhere.
    for r, v in enumerate("10101"):
        cols[5][r] = v
    state = C4State(cols=tuple(map(tuple, cols)), turn=0, blockers=("hand", "placed"))
    # Mario drops into column 6's top row and removes Luigi's blocker: Mario's four.
    after = b.play(state, b.parse(state, "6x"))
    assert b.outcome(after).winner == 0
    # The same with Luigi's chips: the settle completes Luigi's line -> Luigi wins.
    cols2 = [list(c) for c in cols]
    cols2[0][1] = "1"
    for c in (1, 2, 3):
        cols2[c][0] = "1"
    cols2[5] = list("01010") + [""]
    state2 = C4State(cols=tuple(map(tuple, cols2)), turn=0, blockers=("hand", "placed"))
    after2 = b.play(state2, b.parse(state2, "6x"))
    assert b.outcome(after2).winner == 1
    # Both get four by the settle: the mover (Mario) wins.
    cols3 = [list(c) for c in cols]
    cols3[0] = ["B1", "0", "1", "", "", ""]
    cols3[1] = ["0", "1", "", "", "", ""]
    cols3[2] = ["0", "1", "", "", "", ""]
    cols3[3] = ["0", "1", "", "", "", ""]
    cols3[5] = list("01010") + [""]
    state3 = C4State(cols=tuple(map(tuple, cols3)), turn=0, blockers=("hand", "placed"))
    after3 = b.play(state3, b.parse(state3, "6x"))
    out = b.outcome(after3)
    assert out.winner == 0 and "both" in out.reason


def test_no_reachable_hole_and_no_blocker_is_a_draw():
    b = blocker
    # every column is closed; Luigi's blocker is used; the last empty holes are dead
    pattern = ["101010", "101010", "010101", "010101", "101010", "101010"]
    cols = [tuple(p) for p in pattern] + [("", "", "B1", "0", "1", "B0")]
    state = C4State(cols=tuple(cols), turn=1, blockers=("placed", "placed"))
    state = b._finish(state, 0)
    assert b.outcome(state) is not None and b.outcome(state).winner is None
    assert "no reachable hole and no blocker" in b.outcome(state).reason


def test_legal_actions_cover_drops_removals_and_placements():
    state = play(blocker, "1")
    acts = blocker.legal_actions(state)
    assert Drop(0) in acts and PlaceBlocker(0, 1) in acts and PlaceBlocker(0, 0) not in acts
    assert not any(isinstance(a, RemoveBlocker) for a in acts)
    assert len([a for a in acts if isinstance(a, PlaceBlocker)]) == 41


def test_declining_the_removal_when_the_opponent_has_no_move_left_is_a_draw():
    """Mario fills the last reachable hole with a top-row drop while Luigi's blocker is in
    the grid: the only way on is to remove it ('x') or leave it in ('-'); left in, Luigi
    has no hole and no blocker: a draw."""
    cols = (("B1", "0", "1", "0", "1", ""),) + tuple(tuple(p) for p in
                                                     ("101010", "101010", "010101", "010101", "101010", "101010"))
    state = C4State(cols=cols, turn=0, blockers=("removed", "placed"))
    state = play(blocker, "1", state)
    assert state.may_remove == 0 and blocker.outcome(state) is None
    assert blocker.legal_actions(state) == [RemoveBlocker()]
    assert "or leave it ('-')" in blocker.prompt(state).text
    assert blocker.actor(state, KeepBlocker()) == 0
    drawn = play(blocker, "-", state)
    assert blocker.outcome(drawn).winner is None
    assert blocker.outcome(drawn).reason == "draw: Luigi has no reachable hole and no blocker to place"
    assert "no blocker removal to decline" in illegal(blocker, drawn.__class__(cols=cols), "-")
