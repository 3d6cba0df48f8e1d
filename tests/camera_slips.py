"""How a camera's view of the board parts from what its corners say: corners clicked a
share of a square off, and a camera knocked aside in play; a player's shadow, straight
or round; and a recording as another camera would give it. Used by
tests/vision/test_fit_squares.py, tests/vision/test_shade.py, tests/rig/test_chess_video.py,
tests/rig/test_hands_at_rest.py and bench/real_boards.py."""
import itertools
from pathlib import Path

import cv2
import numpy as np


def clicked_off(corners, share: float, rng) -> np.ndarray:
    """The four `corners` (BL, BR, TR, TL) each moved `share` of a square (the board's
    mean side over 8) in a random direction, kept inside the frame's top-left edges."""
    corners = np.float32(corners)
    square = np.mean([np.hypot(*(corners[i] - corners[(i + 1) % 4])) for i in range(4)]) / 8
    angle = rng.uniform(0, 2 * np.pi, 4)
    return np.maximum(corners + share * square * np.stack([np.cos(angle), np.sin(angle)], axis=1), 0)


def knocked(frame: np.ndarray, dx: float, dy: float, degrees: float = 0.0) -> np.ndarray:
    """`frame` as a camera knocked aside shows it: moved `dx`, `dy` pixels and turned
    `degrees` about its middle (the edge repeated where the picture left the frame)."""
    h, w = frame.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    M[:, 2] += (dx, dy)
    return cv2.warpAffine(frame, M, (w, h), borderMode=cv2.BORDER_REPLICATE)


def knocked_from(first: int, dx: float, dy: float, degrees: float = 0.0):
    """What changes in frame k of a recording: from frame `first` on, `knocked`."""
    return lambda frame, k: frame if k < first else knocked(frame, dx, dy, degrees)


def shadowed(frame: np.ndarray, side: str, share: float, depth: float, soft: int = 60,
             tilt: float = 0.0) -> np.ndarray:
    """`frame` with a shadow over `share` of it from `side` ("left", "right", "top" or
    "bottom"), `depth` of the light left in it, its edge a soft ramp `soft` pixels wide
    and turned `tilt` degrees about the frame's middle (a player leaning over the table
    under a lamp)."""
    h, w = frame.shape[:2]
    turn = np.radians({"left": 0, "top": 90, "right": 180, "bottom": 270}[side] + tilt)
    span = w if side in ("left", "right") else h
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    # how far each pixel lies from the side the shadow falls from, across the frame
    along = (xs - (w - 1) / 2) * np.cos(turn) + (ys - (h - 1) / 2) * np.sin(turn) + (span - 1) / 2
    inside = np.clip((share * span - along) / soft, 0, 1)
    light = 1 - (1 - depth) * inside
    return np.clip(frame.astype(np.float32) * light[..., None], 0, 255).astype(np.uint8)


def round_shadow(frame: np.ndarray, centre: tuple, radius: float, depth: float, soft: float = 0.06) -> np.ndarray:
    """`frame` with a round soft shadow (a head's, leaning in over the table under a lamp):
    its middle at `centre` (x, y as shares of the frame's width and height), `radius` and
    its soft rim `soft` wide as shares of the frame's shorter side, `depth` of the light
    left in it."""
    h, w = frame.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    dist = np.hypot(xs - centre[0] * w, ys - centre[1] * h) / min(h, w)  # from the middle
    inside = np.clip((radius - dist) / soft + 0.5, 0, 1)
    light = 1 - (1 - depth) * inside
    return np.clip(frame.astype(np.float32) * light[..., None], 0, 255).astype(np.uint8)


def rewritten(source: Path, into: Path, change) -> Path:
    """The recording `source` written to `into` as another camera would give it: frame k
    as `change(frame, k)` makes it, in MJPG (a webcam's codec), at 20 frames a second."""
    cap, out = cv2.VideoCapture(str(source)), None
    try:
        for k in itertools.count():
            ok, frame = cap.read()
            if not ok:
                break
            frame = change(frame, k)
            out = out or cv2.VideoWriter(str(into), cv2.VideoWriter_fourcc(*"MJPG"), 20, frame.shape[1::-1])
            out.write(frame)
    finally:
        cap.release()
        if out is not None:
            out.release()
    return into
