"""The light over a board of 8x8 squares, point by point: a player's shadow is no piece.

A reader's learned looks and the cover's kept look (vision/read_squares.py,
vision/cover.py) take the light's drift out over the whole board: a lamp switched on, a
cloud, a warm bulb. A player leaning over the table under a lamp shades part of the
board only, and there the squares read as pieces and the shadow as a sleeve resting over
them (the real chess-rectified photos, dimmed to 55% beyond a soft edge a square wide
from 1...d5 on: 0 of 4 games followed, silently, each waiting under the "sleeve").

Where four squares meet, a small patch holds as much of each square colour wherever it
lies, and a piece rarely stands on it: it changes with the light alone. So `shade`
compares those patches now and in a look kept earlier: each one whose two pairs of
diagonal quarters still differ as they did (a shadow dims them alike; a hand, a piece
leaning over it or one moved there does not) tells the light on it; one that does not
takes the median of those around it. Between the points the light runs linearly, as a
shadow's soft edge does. A shadow's hard edge across the middle of a square is not
followed (docs/vision.md, known limits)."""
from __future__ import annotations

import warnings

import cv2
import numpy as np

KEEPS = 0.3  # a patch whose contrast stays within this share of the board's of what it was keeps its squares


def crossings(plane: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """On each of the 7x7 inner points where four squares meet in `plane` (8x8 squares),
    a small patch: (its mean colour (7, 7, 3), its contrast (7, 7): how much brighter one
    diagonal pair of its quarters is than the other, over their sum)."""
    q = plane.shape[0] // 8
    h = max(1, q // 8)
    quarter = cv2.blur(plane, (h, h), anchor=(h - 1, h - 1))  # the mean of the h x h patch ending at each pixel
    at = np.arange(q, 8 * q, q)[:7]
    ul, ur = quarter[at - 1][:, at - 1], quarter[at - 1][:, at + h - 1]
    ll, lr = quarter[at + h - 1][:, at - 1], quarter[at + h - 1][:, at + h - 1]
    one, other = (ul + lr).sum(axis=-1), (ur + ll).sum(axis=-1)
    return (ul + ur + ll + lr) / 4, (one - other) / (one + other + 1.0)


def shade(now: np.ndarray, then: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """Per pixel of a plane of 8x8 squares (float, its side a multiple of 8), the factor
    per colour channel that takes the light on it `now` to the light on it in the plane
    whose `crossings` are `then` (NaN where that plane was not seen: under a hand), the
    drift over the whole board already divided out of `now` (module docstring)."""
    (light, contrast), (light_then, contrast_then) = crossings(now), then
    ratio = (light_then + 1.0) / (light + 1.0)
    scale = np.nanmedian(np.abs(contrast_then)) if not np.isnan(contrast_then).all() else 0.0
    same = np.abs(contrast - contrast_then) <= KEEPS * max(float(scale), 0.05)  # NaN: False
    if not same.any():
        return np.ones(now.shape, np.float32)
    ratio[~same] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a window with no patch that counts
        padded = np.pad(ratio, ((2, 2), (2, 2), (0, 0)), constant_values=np.nan)
        around = np.nanmedian(np.lib.stride_tricks.sliding_window_view(padded, (5, 5), axis=(0, 1))
                              .reshape(7, 7, 3, 25), axis=-1)
    ratio = np.where(same[..., None], ratio, around)
    ratio = np.where(np.isnan(ratio), np.nanmedian(ratio.reshape(-1, 3), axis=0), ratio)
    # the 9x9 corners of the squares; on the board's edges those of the points inside
    grid = np.pad(ratio, ((1, 1), (1, 1), (0, 0)), mode="edge").astype(np.float32)
    at = (np.arange(now.shape[0], dtype=np.float32) + 0.5) / (now.shape[0] // 8)
    return cv2.remap(grid, *np.meshgrid(at, at), cv2.INTER_LINEAR)
