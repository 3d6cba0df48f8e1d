"""A player's shadow over part of a real board, straight-edged or round, is found and
taken out; pieces moved, a real hand and the light's drift over the whole board are no
shadow (vision/shade.py).

On the real chess-rectified photos, each warped as vision/cover.py keeps a view (the
board's 8x8 squares with a margin of table), each against the photo before it (a ply
between them): the kept look of the last known position against the view now."""
import json

import cv2
import numpy as np
import pytest

import real_hands
from camera_slips import round_shadow, shadowed
from shared_data import SHARED_DATA
from vision.shade import shade

RECTIFIED = SHARED_DATA / "chess-rectified"
SIDE, PAD = 40, 40  # plane pixels per square, and of table around the board


@pytest.fixture(scope="module")
def sequence():
    """The photos of the sequence (d4 d5 c4 e6 e3) and their corners a1 h1 h8 a8."""
    labels = json.loads((RECTIFIED / "labels.json").read_text())
    names = labels["sequence"]["sequence"]
    corners = np.float32(labels["photos"][names[0]]["corners_a1_h1_h8_a8"])
    return [cv2.imread(str(RECTIFIED / n)) for n in names], corners


def plane(photo, corners):
    edge = PAD + 8 * SIDE
    H = cv2.getPerspectiveTransform(corners, np.float32([[PAD, edge], [edge, edge], [edge, PAD], [PAD, PAD]]))
    return cv2.warpPerspective(photo, H, (edge + PAD, edge + PAD)).astype(np.float32)


def board_light(now, then):
    """log(now / then) over the board's pixels, smoothed over a square: the light's change."""
    inner = slice(PAD, PAD + 8 * SIDE)
    ratio = np.log((cv2.blur(now, (SIDE, SIDE)) + 2) / (cv2.blur(then, (SIDE, SIDE)) + 2))
    return ratio[inner, inner].mean(axis=-1)


def pairs(sequence, change=lambda photo: photo):
    photos, corners = sequence
    return [(plane(change(now), corners), plane(before, corners)) for before, now in zip(photos, photos[1:])]


@pytest.mark.parametrize("side, depth, tilt", [("left", 0.9, 0), ("top", 0.55, 0), ("right", 0.7, 25),
                                               ("bottom", 0.7, -35), ("left", 0.55, 40)])
def test_a_shadow_over_part_of_a_real_board_is_taken_out(sequence, side, depth, tilt):
    """After every ply of the real sequence, a shadow over half of the photo: with it taken
    out, the light over the board is as in the view before but for the squares the ply
    changed (the 90th percentile of the change, pieces moved included, within 4%), where
    the shadow left it darker by up to 45%."""
    for now, then in pairs(sequence, lambda photo: shadowed(photo, side, 0.5, depth, tilt=tilt)):
        found = shade(now, then, PAD)
        assert found is not None
        light = found[0]
        before, after = board_light(now, then), board_light(now * light, then)
        assert np.percentile(np.abs(before - np.median(before)), 90) > 0.5 * abs(np.log(depth))
        assert np.percentile(np.abs(after - np.median(after)), 90) < 0.04


@pytest.mark.parametrize("centre, radius, depth, first", [((0.5, 0.5), 0.3, 0.6, 0), ((0.35, 0.6), 0.22, 0.75, 1),
                                                          ((0.65, 0.35), 0.33, 0.55, 0), ((0.95, 0.55), 0.4, 0.7, 0)])
def test_a_round_shadow_over_part_of_a_real_board_is_taken_out(sequence, centre, radius, depth, first):
    """A head's round shadow (its rim half a square wide), over the middle of the board or
    reaching in from its side, is taken out as a straight edge's is, after each ply from
    the `first` on. (A small one, under four squares across, over the start position is
    not found: with pieces on four ranks, fewer than five of the points where four squares
    meet tell it, and a shadow needs five, vision/shade.py EACH_SIDE.)"""
    for now, then in pairs(sequence, lambda photo: round_shadow(photo, centre, radius, depth))[first:]:
        found = shade(now, then, PAD)
        assert found is not None
        before, after = board_light(now, then), board_light(now * found[0], then)
        assert np.percentile(np.abs(before - np.median(before)), 90) > 0.5 * abs(np.log(depth))
        assert np.percentile(np.abs(after - np.median(after)), 90) < 0.04


def test_a_shadow_that_stays_is_kept_as_placed_and_one_that_moved_is_placed_anew(sequence):
    """The view before's shadow is kept exactly as it was placed while it explains the
    light as well (the looks learned under it were relit by it, and the same shadow placed
    a little otherwise would read as a change on its rim); moved a square, it is placed
    anew and taken out where it lies now."""
    photos, corners = sequence
    then = plane(photos[1], corners)
    shadowed_now = plane(round_shadow(photos[2], (0.5, 0.5), 0.3, 0.6), corners)
    found = shade(shadowed_now, then, PAD)
    assert found is not None
    again = shade(shadowed_now, then, PAD, found[1])
    assert again is not None and again[1] is found[1]
    now = plane(round_shadow(photos[2], (0.6, 0.5), 0.3, 0.6), corners)  # a square across
    moved = shade(now, then, PAD, found[1])
    assert moved is not None and moved[1] is not found[1]
    after = board_light(now * moved[0], then)
    assert np.percentile(np.abs(after - np.median(after)), 90) < 0.04


def test_pieces_moved_a_real_hand_and_the_light_over_the_whole_board_are_no_shadow(sequence):
    photos, corners = sequence
    for now, then in pairs(sequence):
        assert shade(now, then, PAD) is None  # a ply between the views, nothing else
    for now, then in pairs(sequence, lambda photo: np.clip(photo * 0.75, 0, 255).astype(np.uint8)):
        assert shade(now, then, PAD) is None  # a lamp dimmed: each reader takes that out itself
    for photo, before, (name, turn, square) in zip(photos[1:], photos, real_hands.RECTIFIED_HANDS):
        handed = real_hands.paste(photo, corners, name, grey=True, turn=turn, over=square)
        assert shade(plane(handed, corners), plane(before, corners), PAD) is None, (name, square)


def test_a_black_a_blown_out_and_a_noisy_view_are_no_shadow(sequence):
    """What a camera gives when it fails (vision/camera.py: black, white, noise) against a
    real kept look: nothing to take out, and no error."""
    _, then = pairs(sequence)[0]
    rng = np.random.default_rng(7)
    for now in (np.zeros_like(then), np.full_like(then, 255.0), rng.uniform(0, 255, then.shape).astype(np.float32)):
        assert shade(now, then, PAD) is None


def test_a_shadow_is_found_against_a_kept_look_with_cells_never_seen(sequence):
    """The cover keeps no look of a cell a hand lay over when the position was first known
    (NaN): the shadow is still found against such a look, and taken out over the whole
    board (judged against the look in full)."""
    for now, then in pairs(sequence, lambda photo: shadowed(photo, "left", 0.5, 0.7)):
        unseen = then.copy()
        unseen[PAD + SIDE:PAD + 3 * SIDE, PAD + 2 * SIDE:PAD + 4 * SIDE] = np.nan  # four squares never seen
        found = shade(now, unseen, PAD)
        assert found is not None
        after = board_light(now * found[0], then)
        assert np.percentile(np.abs(after - np.median(after)), 90) < 0.04
