"""Cells a still hand lies over (vision/cover.py), with real hands and arms cut out of
the scholar's mate video (tests/real_hands.py) pasted still over the real chess-rectified
start photo: the squares under each hand are covered and nothing far from it; a move is
no hand; a hand that lay there when the position was known and has gone covers nothing;
what stays long enough is part of the table; and the watcher's view flags the covered
squares and weighs nothing of them."""
import json

import chess
import cv2
import pytest

import real_hands
from shared_data import SHARED_DATA
from support import chess_labels
from controller.registry import entry
from vision.cover import STAYS_S, Cover

DATA = SHARED_DATA / "chess-rectified"
# (cut-out, quarter turns, the square its tip lies on): from White's side and from Black's
HANDS = [("resting", 0, "d4"), ("reaching", 0, "e4"), ("sleeve", 0, "c6"), ("fist", 0, "d6")]


@pytest.fixture(scope="module")
def table():
    """(watcher that learned the start, corners, the start photo, the photo after 1. d4,
    the start's labels)."""
    labels = json.loads((DATA / "labels.json").read_text())
    sequence = labels["sequence"]
    corners = labels["photos"][sequence["sequence"][0]]["corners_a1_h1_h8_a8"]
    watcher = entry("chess").watcher(corners=" ".join(f"{x},{y}" for x, y in corners))
    start, after = (cv2.imread(str(DATA / name)) for name in sequence["sequence"][:2])
    board = chess_labels(chess.STARTING_FEN)
    watcher.learn(board)
    watcher.read_frame(start)  # the reader learns the start's looks, as at a game's start
    return watcher, corners, start, after, board


def cover_of(watcher, frame, board) -> Cover:
    """A Cover whose known position `board` was seen in `frame`."""
    cover = Cover(watcher.reader)
    cover.reference(cover.around(frame, watcher.H), board)
    return cover


def covered(cover, watcher, frame, t: float = 0.0) -> set:
    return set(cover.covered(cover.around(frame, watcher.H), watcher.reader.read(watcher.plane(frame)), t))


def near(squares: set) -> set:
    """The squares within one square of any of `squares`."""
    return {chess.square_name(s) for s in chess.SQUARES
            if any(chess.square_distance(s, chess.parse_square(o)) <= 1 for o in squares)}


@pytest.mark.parametrize("name, turn, over", HANDS)
def test_a_real_hand_at_rest_covers_the_squares_under_it_and_nothing_far_from_it(table, name, turn, over):
    watcher, corners, start, _, board = table
    cover = cover_of(watcher, start, board)
    frame = real_hands.paste(start, corners, name, grey=True, turn=turn, over=over)
    got = covered(cover, watcher, frame)
    under = real_hands.covered_squares(name, turn, over, share=0.5)
    assert under and under <= got, sorted(under - got)
    assert got <= near(real_hands.covered_squares(name, turn, over, share=0.05)), sorted(got)


@pytest.mark.parametrize("name, turn, over", [("resting", 0, "d4"), ("resting", 1, "c3"), ("fist", 0, "c6"),
                                              ("reaching", 0, "e5")])
def test_every_square_a_real_hand_lies_over_is_covered_though_the_board_shows_through_it(table, name, turn, over):
    """A hand's outline on the picture is not one piece: where fingers, a fold of the
    sleeve or a gap let a stretch of board through that looks as it should, the foreign
    pixels on a square fall into several parts, each under a sixth of it. Counted
    together on a square the hand reaches into, every square it lies over by a sixth or
    more is covered (before: the square the tip rested on, or one beside it, was left
    seen in each of these placements, and its change read as a move), and still none it
    does not touch."""
    watcher, corners, start, _, board = table
    frame = real_hands.paste(start, corners, name, grey=True, turn=turn, over=over)
    got = covered(cover_of(watcher, start, board), watcher, frame)
    under = real_hands.covered_squares(name, turn, over, share=0.15)
    assert under <= got, sorted(under - got)
    assert got <= real_hands.covered_squares(name, turn, over, share=0.02), sorted(got)


def test_a_move_is_no_hand(table):
    """1. d4 changes two squares: no still thing covers anything."""
    watcher, _, start, after, board = table
    assert covered(cover_of(watcher, start, board), watcher, after) == set()


def test_nothing_is_covered_before_a_position_is_known(table):
    watcher, corners, start, _, _ = table
    frame = real_hands.paste(start, corners, "resting", grey=True, over="d4")
    assert covered(Cover(watcher.reader), watcher, frame) == set()


def test_a_hand_that_lay_there_when_the_position_was_known_and_has_gone_covers_nothing(table):
    """The kept look has a sleeve over Black's pieces on a7-d8; the board without it
    reads surely as the known position: what differs is the kept look, not the view.
    The same sleeve arriving after the position was known is a hand."""
    watcher, corners, start, _, board = table
    with_sleeve = real_hands.paste(start, corners, "sleeve", grey=True, over="b7")
    assert covered(cover_of(watcher, start, board), watcher, with_sleeve) == {"a8", "b8", "c8", "d8",
                                                                             "a7", "b7", "c7", "d7"}
    assert covered(cover_of(watcher, with_sleeve, board), watcher, start) == set()


def test_what_stays_long_enough_is_part_of_the_table_unless_it_still_hides_the_board(table):
    """A fist still over the same squares view after view, read as something else than
    the position (a sleeve resting while play goes on), stays covered however long; a
    thing under which every square reads as the position (a shadow, a hand that lay
    there when the position was known and has gone) is covered until STAYS_S have
    passed, then its look is kept and those squares are read again."""
    watcher, corners, start, _, board = table
    cover = cover_of(watcher, start, board)
    frame = real_hands.paste(start, corners, "fist", grey=True, over="d6")
    assert covered(cover, watcher, frame, t=0.0)
    assert covered(cover, watcher, frame, t=STAYS_S / 2)
    assert covered(cover, watcher, frame, t=STAYS_S + 0.5)
    assert covered(cover, watcher, frame, t=3 * STAYS_S)


def test_the_watcher_flags_the_covered_squares_and_weighs_nothing_of_them(table):
    """1. d4 played, a hand resting over the king's side: a view (d4 and d2 changed) whose
    squares under the hand are covered. (A hand coming to rest over a board that reads as
    before gives no new view at all.)"""
    watcher, corners, start, after, board = table
    watcher = entry("chess").watcher(corners=" ".join(f"{x},{y}" for x, y in corners))
    watcher.learn(board)
    watcher.read_frame(start)
    frame = real_hands.paste(after, corners, "resting", grey=True, over="g4")
    view = watcher.read_frame(frame, t=1.0)
    under = real_hands.covered_squares("resting", 0, "g4", share=0.5)
    assert under <= view.covered
    assert all(view.sight_of(c).weight == 0.0 for c in view.covered)
    assert all(view.sight_of(c).weight > 0.0 for c in set(view.cells) - view.covered)



def shadow(frame, corners, share: float):
    """A soft shadow (a spectator leaning over the board) on the h-file side, over the
    empty squares f3-h6 and the table beside them: that share of the light there."""
    import numpy as np

    c = np.float32(corners)
    h1, h8, inward = c[1], c[2], c[0] - c[1]  # along the h-file; towards the a-file
    quad = [h1 + 0.3 * (h8 - h1) - 0.3 * inward, h1 + 0.75 * (h8 - h1) - 0.3 * inward,
            h1 + 0.75 * (h8 - h1) + 0.3 * inward, h1 + 0.3 * (h8 - h1) + 0.3 * inward]
    mask = np.zeros(frame.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(np.float32(quad)).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), 6)[..., None]
    return np.clip(frame * (1 - mask * (1 - share)), 0, 255).astype(np.uint8)


def test_a_shadow_the_reader_takes_for_pieces_stays_covered_however_long_it_lies(table):
    """A shadow over empty squares (the real start photo at 40% of the light on f3-h6)
    reads as pieces there; however long it lies it is never kept as the table's look, so
    those squares stay unseen (no alarm for pieces nobody put there) until it goes."""
    watcher, corners, start, _, board = table
    cover = cover_of(watcher, start, board)
    frame = shadow(start, corners, 0.4)
    reads = watcher.reader.read(watcher.plane(frame))
    under = covered(cover, watcher, frame, t=0.0)
    assert {"g4", "h4", "g5", "h5"} <= under and any(reads[c][0] != board[c] for c in under)
    assert covered(cover, watcher, frame, t=STAYS_S + 0.5) == under
    assert covered(cover, watcher, frame, t=3 * STAYS_S) == under
