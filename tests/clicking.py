"""Corners as a person clicks them: each a share of a square off, in a direction of its own
(the labelled corners moved; seeded). Used by tests/vision/test_fit_squares.py and
bench/real_boards.py."""
import numpy as np


def clicked_off(corners, share: float, rng) -> np.ndarray:
    """The four `corners` (BL, BR, TR, TL) each moved `share` of a square (the board's
    mean side over 8) in a random direction, kept inside the frame's top-left edges."""
    corners = np.float32(corners)
    square = np.mean([np.hypot(*(corners[i] - corners[(i + 1) % 4])) for i in range(4)]) / 8
    angle = rng.uniform(0, 2 * np.pi, 4)
    return np.maximum(corners + share * square * np.stack([np.cos(angle), np.sin(angle)], axis=1), 0)
