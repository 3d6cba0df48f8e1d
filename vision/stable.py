"""When a board may be read: the camera feed is healthy, and nothing moves over the board.

`FrameHealth` looks at a sparse sample of each frame (every 8th pixel each way: a black
or frozen frame is black or frozen everywhere) and says when the camera gives black frames or the
same frame over and over (a real sensor never gives two identical frames).

`MotionGate` compares each frame's small colour copy of the playing area with the one
before; any change bigger than sensor noise over more than a few pixels is motion (a
hand, an arm, a chip still falling), and `moved_at` is the time of the last frame that
had some. A board is still once `moved_at` lies `still_s` in the past. The same is kept
per block of an 8x8 grid (`block_at`, `moving`): a hand waiting at one edge of the board
leaves the rest of it still, and a quick reply can be read there meanwhile.

`occluded` compares the parts of the board that never change in play (the frame of a
Connect 4 grid, between the holes) with how they looked at the last good reading: a hand
held still over the board covers them, and a bumped board or camera shifts them.
"""
from __future__ import annotations

import cv2
import numpy as np

BLACK_LEVEL = 12.0  # mean 0-255 below which a frame counts as black
FROZEN_S = 1.0  # identical frames for this long: the feed is frozen
NOISE_STEP = 14.0  # weighted sum of the channels' changes: about 4 sigma of a webcam's noise
MOVING_SHARE = 0.002  # share of the area's pixels that must change to count as motion
BLOCKS = 8  # motion is also kept per block of an 8x8 grid over the playing area
BLOCK_SHARE = 0.03  # share of a block's pixels that must change to count as motion there
OCCLUDED_STEP = 30.0
OCCLUDED_SHARE = 0.015  # a hand over one column covers a few per cent of the frame


class FrameHealth:
    def __init__(self) -> None:
        self.previous: np.ndarray | None = None
        self.same_since: float | None = None

    def check(self, t: float, frame: np.ndarray) -> str | None:
        """"too dark" (a black frame: lens covered, lights off), "frozen" (the same frame
        again and again: a hung driver), or None when healthy."""
        h, w = frame.shape[:2]
        sample = cv2.resize(frame, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_NEAREST)
        if self.previous is not None and self.previous.shape == sample.shape and np.array_equal(sample, self.previous):
            self.same_since = t if self.same_since is None else self.same_since
        else:
            self.same_since = None
        self.previous = sample
        if max(cv2.mean(sample)[:3]) < BLACK_LEVEL:
            return "too dark"
        if self.same_since is not None and t - self.same_since >= FROZEN_S:
            return "frozen"
        return None


class MotionGate:
    def __init__(self, still_s: float) -> None:
        self.still_s = still_s
        self.previous: np.ndarray | None = None
        self.moved_at = 0.0
        self.block_at = np.zeros((BLOCKS, BLOCKS))  # the last motion per block (rows from the top)

    def reset(self, t: float) -> None:
        """Forget the last frame (the view changed geometry): count as motion now."""
        self.previous = None
        self.moved_at = t
        self.block_at[:] = t

    def update(self, t: float, small: np.ndarray) -> bool:
        """True when this frame (the small playing area, BGR) differs from the last one:
        something moved. The change is summed over the colour channels, so a red chip
        on a green backdrop of the same brightness is a change too."""
        prev, self.previous = self.previous, small
        if prev is None or prev.shape != small.shape:
            self.moved_at = t
            self.block_at[:] = t
            return True
        change = cv2.cvtColor(cv2.absdiff(small, prev), cv2.COLOR_BGR2GRAY)
        mask = cv2.threshold(change, NOISE_STEP, 255, cv2.THRESH_BINARY)[1]
        changed = cv2.countNonZero(mask)
        if changed:
            share = cv2.resize(mask, (BLOCKS, BLOCKS), interpolation=cv2.INTER_AREA) / 255.0
            self.block_at[share > BLOCK_SHARE] = t
        if changed > MOVING_SHARE * change.size:
            self.moved_at = t
            return True
        return False

    def still(self, t: float) -> bool:
        return t - self.moved_at >= self.still_s

    def moving(self, t: float) -> np.ndarray:
        """8x8 bool (rows from the top of the playing area): blocks not yet still."""
        return t - self.block_at < self.still_s


def occluded(plane: np.ndarray, reference: np.ndarray, mask: np.ndarray) -> bool:
    """Do the board's never-changing parts (`mask`) of the plane look different from
    `reference`? The overall light level is divided out first, so a cloud or a lamp is
    not a hand."""
    cur, ref = plane[mask].astype(np.float32), reference[mask]
    gain = float(ref.mean()) / max(float(cur.mean()), 1.0)
    differ = np.abs(cur * gain - ref).max(axis=-1) > OCCLUDED_STEP
    return np.count_nonzero(differ) > OCCLUDED_SHARE * len(differ)
