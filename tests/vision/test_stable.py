"""When a board may be read (vision/stable.py): a camera giving black or identical frames
is named, sensor noise is no motion while a hand is, the board is still `still_s` after
the last motion (and a block of it once the hand has left that block), and a hand held
still over the board's never-changing parts is told from a change of light. Frames are
seeded noise over a flat board; the camera's clock is the test's."""
import numpy as np
import pytest

from vision.stable import FrameHealth, MotionGate, occluded

H, W = 120, 160


def board(rng, noise: float = 3.0) -> np.ndarray:
    """The playing area as a webcam sees it: a flat green board with sensor noise."""
    base = np.zeros((H, W, 3), np.float32) + (40, 140, 60)
    return np.clip(base + rng.normal(0, noise, base.shape), 0, 255).astype(np.uint8)


def with_hand(frame: np.ndarray, rows: slice, cols: slice) -> np.ndarray:
    out = frame.copy()
    out[rows, cols] = (150, 180, 220)  # skin
    return out


def test_a_healthy_feed_then_a_covered_lens_then_a_hung_driver():
    rng = np.random.default_rng(7)
    health = FrameHealth()
    assert [health.check(t / 10, board(rng)) for t in range(20)] == [None] * 20
    dark = (board(rng) * 0.03).astype(np.uint8)
    assert health.check(2.0, dark) == "too dark"
    frozen = board(rng)
    said = [health.check(3.0 + k / 4, frozen) for k in range(8)]  # the same frame, again from 3.25 s
    assert said == [None] * 5 + ["frozen"] * 3  # frozen once the repeat has lasted a second
    assert health.check(5.0, board(rng)) is None  # a new frame: healthy again


def test_sensor_noise_is_not_motion_and_the_board_is_still_after_still_s():
    rng = np.random.default_rng(8)
    gate = MotionGate(still_s=0.5)
    assert gate.update(0.0, board(rng)) is True  # the first frame: nothing to compare, counted as motion
    moved = [gate.update(t / 10, board(rng)) for t in range(1, 12)]
    assert not any(moved)
    assert not gate.still(0.4) and gate.still(0.5) and gate.still(1.1)
    assert not gate.moving(1.1).any()


def test_a_hand_is_motion_and_the_board_is_still_only_once_it_has_left():
    rng = np.random.default_rng(9)
    gate = MotionGate(still_s=0.5)
    gate.update(0.0, board(rng))
    gate.update(0.1, board(rng))
    assert gate.update(1.0, with_hand(board(rng), slice(40, 80), slice(60, 100)))  # comes in
    assert gate.update(1.1, with_hand(board(rng), slice(45, 85), slice(65, 105)))  # moves over the board
    assert gate.update(1.2, board(rng))  # goes: a change too
    assert not gate.update(1.3, board(rng))
    assert gate.moved_at == 1.2 and not gate.still(1.6) and gate.still(1.7)


def test_a_hand_waiting_at_one_edge_leaves_the_rest_of_the_board_still():
    rng = np.random.default_rng(10)
    gate = MotionGate(still_s=0.5)
    gate.update(0.0, board(rng))
    t = 0.0
    for step in range(10):  # a hand fidgeting at the left edge: the two left columns of blocks
        t = 0.1 * (step + 1)
        gate.update(t, with_hand(board(rng), slice(20, 100), slice(0, 20 + 10 * (step % 2))))
    assert not gate.still(t + 0.2)
    moving = gate.moving(t + 0.2)
    assert moving[2:10, :2].any() and not moving[:, 3:].any()  # the rest may be read meanwhile


def test_a_new_geometry_counts_as_motion_now():
    rng = np.random.default_rng(11)
    gate = MotionGate(still_s=0.5)
    gate.update(0.0, board(rng))
    gate.update(0.1, board(rng))
    assert gate.still(1.0)
    gate.reset(1.0)
    assert not gate.still(1.2) and gate.moving(1.2).all()
    assert gate.update(1.3, board(rng)) is True  # no frame before to compare with
    assert gate.update(1.4, board(rng)[:100]) is True  # a frame of another size is no comparison either


@pytest.mark.parametrize("light", [0.6, 1.0, 1.4])
def test_a_change_of_light_is_not_a_hand_but_a_hand_held_still_is(light):
    rng = np.random.default_rng(12)
    reference = board(rng).astype(np.float32)
    mask = np.zeros((H, W), bool)
    mask[::10, :] = True  # the frame between the holes: every tenth row
    now = np.clip(board(rng).astype(np.float32) * light, 0, 255).astype(np.uint8)
    assert not occluded(now, reference, mask)
    assert occluded(with_hand(now, slice(0, 60), slice(0, 40)), reference, mask)
    assert not occluded(with_hand(now, slice(1, 9), slice(0, 40)), reference, mask)  # between the rows: unseen
