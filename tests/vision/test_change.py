"""Per-cell change against the last known position (vision/change.py), on the real
chess-rectified photos (shared/data: a plastic set photographed by a phone, an opening
d4 d5 c4 e6 e3): a moved piece changes its own two squares and nothing away from them,
a dimmer room is no change (a move made as it dims still shows), a square a piece came
to no longer looks like its own empty self, a hand moving over a square says nothing of
it, a new game or a bumped board measures change again only from the next known
position, and the size of each kind of change and how much a piece in front hides
follow the table."""
import json

import chess
import cv2
import numpy as np
import pytest

from shared_data import SHARED_DATA
from support import chess_labels
from controller.registry import entry
from vision.change import MOVING_WEIGHT, STEP, VISIBLE_FLOOR, CellChange, Steps, looks_changed
from vision.view import Change

DATA = SHARED_DATA / "chess-rectified"


@pytest.fixture(scope="module")
def opening():
    """(watcher, planes, boards, plies): the sequence's photos warped onto the reader's
    plane, and the position each shows ({square: label})."""
    labels = json.loads((DATA / "labels.json").read_text())
    sequence = labels["sequence"]
    corners = labels["photos"][sequence["sequence"][0]]["corners_a1_h1_h8_a8"]
    watcher = entry("chess").watcher(corners=" ".join(f"{x},{y}" for x, y in corners))
    frames = [cv2.imread(str(DATA / name)) for name in sequence["sequence"]]
    watcher.read_frame(frames[0])  # tells the reader and the change where the camera stands
    board, boards = chess.Board(), [chess_labels(chess.STARTING_FEN)]
    for uci in sequence["moves"]:
        board.push_uci(uci)
        boards.append(chess_labels(board.fen()))
    return watcher, [watcher.plane(f) for f in frames], boards, sequence["moves"]


def changed(evidence: dict, board: dict) -> dict:
    """{square: how much better a change explains it than what `board` held there}."""
    return {c: looks_changed(e.known, board[c]) for c, e in evidence.items()}


def test_a_moved_piece_changes_its_own_two_squares_and_nothing_away_from_them(opening):
    """After each ply, measured from the position before it: the square the piece came
    to looks the most changed, the square it left changed too; squares more than a
    square away from both look as they did (a piece leans over its neighbours as the
    phone saw it), but for at most one (on these photos a pawn nudged between two
    shots: e2 during c4, d5 during e3)."""
    watcher, planes, boards, plies = opening
    change = CellChange(watcher.reader)
    for k, uci in enumerate(plies):
        change.reference(planes[k], boards[k])
        score = changed(change.evidence(planes[k + 1]), boards[k])
        assert max(score, key=score.get) == uci[2:] and score[uci[:2]] > 0, (uci, score)
        near = {chess.square_name(s) for s in chess.SQUARES
                if min(chess.square_distance(s, chess.parse_square(uci[:2])),
                       chess.square_distance(s, chess.parse_square(uci[2:]))) <= 1}
        assert len({c for c, x in score.items() if x > 0} - near) <= 1, (uci, score)


def dimmer(plane, share: float):
    return (plane.astype(np.float32) * share).astype(np.uint8)


def test_a_dimmer_room_is_no_change_and_a_move_made_as_it_dims_still_shows(opening):
    """The light's drift is divided out: the same board a quarter darker looks as it did;
    1. d4 photographed as the room dims to 60 % shows on d4 and d2 as in full light (the
    drift taken for noise would drown it)."""
    watcher, planes, boards, _ = opening
    change = CellChange(watcher.reader)
    change.reference(planes[5], boards[5])
    score = changed(change.evidence(dimmer(planes[5], 0.75)), boards[5])
    assert max(score.values()) < 0, {c: x for c, x in score.items() if x >= 0}
    change.reference(planes[0], boards[0])
    score = changed(change.evidence(dimmer(planes[1], 0.6)), boards[0])
    assert max(score, key=score.get) == "d4" and score["d2"] > 1.0, score


def nudged(plane, dx: float, dy: float):
    """The plane as a camera (or table) moved by a pixel or two would show it, its
    corners clicked before: the picture shifted on the plane."""
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(plane, m, plane.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("dx, dy", [(2.0, 0.0), (-1.5, 1.5), (0.7, -2.2)])
def test_a_board_nudged_a_pixel_or_two_is_no_change_and_a_move_made_meanwhile_still_shows(opening, dx, dy):
    """The plane is laid back on its reference before it is compared: the same board
    shifted two pixels looks as it did (the grain and edges of every square, shifted,
    differ from themselves as much as a piece leaving), and 1. d4 photographed from the
    nudged camera shows on d4 and d2, and hardly anywhere else, as from where it stood."""
    watcher, planes, boards, _ = opening
    change = CellChange(watcher.reader)
    change.reference(planes[5], boards[5])
    score = changed(change.evidence(nudged(planes[5], dx, dy)), boards[5])
    assert max(score.values()) < 0, {c: round(x, 2) for c, x in score.items() if x >= 0}
    change.reference(planes[0], boards[0])
    score = changed(change.evidence(nudged(planes[1], dx, dy)), boards[0])
    assert max(score, key=score.get) == "d4" and score["d2"] > 1.0, score
    far = {c for c, x in score.items() if x > 0 and min(chess.square_distance(chess.parse_square(c), chess.D2),
                                                        chess.square_distance(chess.parse_square(c), chess.D4)) > 1}
    assert len(far) <= 1, far  # as unshifted (test above): a piece nudged between two shots


def test_a_square_a_piece_came_to_no_longer_looks_like_its_own_empty_self(opening):
    """d4 was seen empty at the start; once 1. d4 is known, its empty look says a piece
    stands there (on the next photo too), while a square never seen empty has no such
    look and a square empty in the known position needs none."""
    watcher, planes, boards, _ = opening
    change = CellChange(watcher.reader)
    change.reference(planes[0], boards[0])
    change.reference(planes[1], boards[1])
    evidence = change.evidence(planes[2])
    assert all(isinstance(e, Change) for e in evidence.values()) and len(evidence) == 64
    d4 = evidence["d4"].empty
    assert d4 is not None and d4["empty"] < max(v for label, v in d4.items() if label != "empty")
    assert evidence["e2"].empty is None  # a pawn since the start: never seen empty
    assert evidence["d2"].empty is None and evidence["e4"].empty is None  # empty in the known position


def test_a_hand_moving_over_a_square_says_nothing_of_it_and_a_hidden_square_little(opening):
    watcher, _, _, _ = opening
    change = CellChange(watcher.reader)
    moving = np.zeros((8, 8), bool)
    moving[0, 6] = True  # plane row 0 is rank 8: g8
    visible = [1.0] * 64
    visible[1] = 0.1  # b8, behind a tall piece
    weights = dict(zip(watcher.reader.cells, change.weights(moving, visible)))
    assert weights["g8"] == MOVING_WEIGHT == 0.0
    assert weights["b8"] == VISIBLE_FLOOR
    assert all(w == 1.0 for c, w in weights.items() if c not in ("g8", "b8"))


def test_a_new_game_measures_change_again_from_its_first_known_position(opening):
    """Another game set up on the board: no change is measured until its position is
    known (an old reference would call every piece moved), the empty looks stay."""
    watcher, planes, boards, _ = opening
    change = CellChange(watcher.reader)
    change.reference(planes[0], boards[0])
    assert change.evidence(planes[1])
    change.forget_position()
    assert change.evidence(planes[1]) == {} and change.board is None
    assert not np.isnan(change.empty).all()
    change.reference(planes[1], boards[1])
    assert max(changed(change.evidence(planes[1]), boards[1]).values()) < 0


def test_a_bumped_board_forgets_its_references_the_same_place_found_again_keeps_them(opening):
    watcher, planes, boards, _ = opening
    size = watcher.last_frame.shape[1::-1]  # the photos' (width, height)
    change = CellChange(watcher.reader)
    change.camera(watcher.H, size)
    change.reference(planes[0], boards[0])
    again = watcher.H @ np.array([[1, 0, 0.3], [0, 1, 0.0], [0, 0, 1]])  # corners found a third of a pixel apart
    change.camera(again, size)
    assert change.evidence(planes[1])
    bumped = watcher.H @ np.array([[1, 0, 15.0], [0, 1, 0.0], [0, 0, 1]])  # the board slid 15 pixels
    change.camera(bumped, size)
    assert change.evidence(planes[1]) == {} and change.empty is None
    assert change.fronts  # where the camera stands is worked out again


def test_each_kind_of_change_follows_what_this_table_shows():
    """A kind of change starts at the first guess, comes to what the table shows, and
    keeps following when the table changes (a lamp turned on): recent changes count
    most; another kind keeps its own."""
    steps = Steps()
    walnut, cream = (1, frozenset(("p1", "empty"))), (0, frozenset(("p1", "empty")))
    assert steps.mean(walnut) == steps.mean() == STEP
    for _ in range(100):
        steps.add(walnut, 1.0)
    assert abs(steps.mean(walnut) - 1.0) < 0.1 and steps.mean(cream) == STEP
    for _ in range(40):
        steps.add(walnut, 3.0)
    assert steps.mean(walnut) > 2.0


def learned_fronts(opening) -> tuple:
    """(change, guess, boards): the change measure after every photo of the sequence was
    known, the fronts' first guesses from where the camera stands, and the positions."""
    watcher, planes, boards, _ = opening
    change = CellChange(watcher.reader)
    change.camera(watcher.H, watcher.last_frame.shape[1::-1])
    guess = dict(change.fronts)
    for plane, board in zip(planes, boards):
        change.reference(plane, board)
    return change, guess, boards


def test_how_much_a_piece_in_front_hides_is_learned_on_this_table(opening):
    """Where the camera stands gives each square the square in front of it and a first
    guess, from geometry, of how often a piece coming or going there changes its look.
    On these photos the pawns leaving d7, e7, c2 and d2 did not change the look of the
    pieces behind them (d8, e8, b1, c1): their shares fall below the guess; a square
    whose front never filled or emptied, and whose like squares (its line across the
    lean) learned nothing either, keeps it."""
    change, guess, boards = learned_fronts(opening)
    for cell in ("d8", "e8", "b1", "c1"):
        assert change.fronts[cell].cell == guess[cell].cell and change.fronts[cell].share < 0.8 * guess[cell].share
    still = [c for c, f in guess.items() if len({(b[f.cell] != "empty") for b in boards}) == 1]
    alone = ("a8", "b8", "g8", "h8")  # behind b7, c7, f7, g7 obliquely: no square on their lines learned
    assert set(alone) <= set(still) and all(change.fronts[c] == guess[c] for c in alone)


def test_a_square_whose_front_never_moved_takes_its_share_from_like_squares_that_did(opening):
    """c7 and f7 hold their pawns through these photos, so c8 and f8 never show what a
    pawn going in front of them does; d8 and e8, on the same line across the lean (the
    back rank behind the pawns, as far from the camera), showed it twice: nothing
    changed. c8 and f8 then expect less change than the geometric guess (a king's height
    in front) too, by what their like squares showed, not by a threshold; a square on
    another line (a8, behind b7, the lean the other way) learns nothing from them."""
    change, guess, _ = learned_fronts(opening)
    for cell in ("c8", "f8"):
        assert change.fronts[cell].cell == guess[cell].cell and change.fronts[cell].share < 0.8 * guess[cell].share
    assert change.fronts["a8"] == guess["a8"]
