"""Where the playing area is in a camera frame: from the board's markers or four corners.

The result is always four reference points in the frame, bottom-left, bottom-right,
top-right, top-left, and the plane points they stand for; `plane_homography` turns them
into the frame -> plane warp a reader wants. Markers are searched on a downscaled grey
copy first (about four times cheaper than full resolution) and at full resolution only
when that misses one.
"""
from __future__ import annotations

import cv2
import numpy as np

from . import markers


def N_(message: str) -> str:
    """Marks a message for the referee's catalogues (controller/i18n.py reads vision/ too);
    vision imports nothing from controller, so the mark is its own."""
    return message


class CornersError(ValueError):
    """Corner text that is not four points; the message says what was expected. str() is
    the English; `said(_)` the words in the language of a translator `_` (the referee's,
    controller/i18n.py `said`, where a config error or the page quotes it)."""

    def __init__(self, message: str, **params):
        super().__init__(message.format(**params))
        self.message, self.params = message, params

    def said(self, _) -> str:
        return _(self.message, **self.params)


MAX_COORD = 100_000.0  # pixels: no camera frame is this big, whatever its size
MIN_SIDE = 8.0  # pixels between two corners: closer, the board cannot be read
MIN_AREA = 400.0  # square pixels the playing area covers at least (20 x 20)


def parse_corners(text, frame_size: tuple[int, int] | None = None) -> np.ndarray:
    """'x,y x,y x,y x,y', four 'x,y' strings (as in referee.toml) or four (x, y) pairs
    -> a 4x2 array. The four must make a board: finite, inside the frame (`frame_size`
    (width, height) when known), apart from each other, and in order round a convex
    shape; a quadrilateral that is none of these warps the board into nonsense, and the
    camera would raise false alarms from it."""
    parts = text.split() if isinstance(text, str) else list(text) if isinstance(text, (list, tuple)) else []
    try:
        pts = [tuple(float(v) for v in (p.split(",") if isinstance(p, str) else p)) for p in parts]
    except (ValueError, TypeError, OverflowError):
        pts = []
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise CornersError(N_("corners {text}: expected four points 'x,y x,y x,y x,y' (bottom-left, bottom-right, "
                              "top-right, top-left)"), text=_short(text))
    p = np.array(pts, dtype=np.float64)
    where = " ".join(f"{x:g},{y:g}" for x, y in pts)
    w, h = frame_size if frame_size else (MAX_COORD, MAX_COORD)
    if not np.isfinite(p).all() or (p < 0).any() or (p[:, 0] > w).any() or (p[:, 1] > h).any():
        size = f"{w}x{h}" if frame_size else f"0-{MAX_COORD:.0f} px"
        raise CornersError(N_("corners {points}: out of the frame ({size}); expected points inside it"), points=where,
                           size=size)
    for i in range(4):
        for j in range(i + 1, 4):
            if np.hypot(*(p[i] - p[j])) < MIN_SIDE:
                raise CornersError(N_("corners {points}: degenerate: points {i} and {j} are less than {px} pixels "
                                      "apart; expected the board's four corners"), points=where, i=i + 1, j=j + 1,
                                   px=f"{MIN_SIDE:.0f}")
    edges = np.roll(p, -1, axis=0) - p
    turns = edges[:, 0] * np.roll(edges, -1, axis=0)[:, 1] - edges[:, 1] * np.roll(edges, -1, axis=0)[:, 0]
    area = abs(float(np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1]))) / 2
    if (turns > 0).any() and (turns < 0).any():
        raise CornersError(N_("corners {points}: not convex (the points cross or bend inwards); expected them in "
                              "order round the board: bottom-left, bottom-right, top-right, top-left"), points=where)
    if area < MIN_AREA or not ((turns > 0).all() or (turns < 0).all()):
        raise CornersError(N_("corners {points}: degenerate: the four points enclose {area} square pixels or lie on "
                              "a line; expected the board's four corners"), points=where, area=f"{area:.0f}")
    return np.float32(p)


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def inner_corners(found: dict[int, np.ndarray], ids) -> np.ndarray | None:
    """The inner corners of the sheet's four markers `ids` (BL, BR, TR, TL); None
    unless all four were found."""
    if not all(i in found for i in ids):
        return None
    return np.float32([found[i][markers.INNER_CORNER[k]] for k, i in enumerate(ids)])


def find_markers(grey: np.ndarray, ids, det=None, scale: float = 0.5) -> np.ndarray | None:
    """The inner corners of the markers `ids` (a sheet's four) in `grey` (full-frame
    pixels), or None."""
    det = det or markers.detector()
    if scale < 1.0:
        small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        pts = inner_corners(markers.detect(small, det), ids)
        if pts is not None:
            # refine on the full frame: a downscaled corner is off by up to 1/scale px
            pts = (pts + 0.5) / scale - 0.5
            return refine(grey, pts)
    return inner_corners(markers.detect(grey, det), ids)


def refine(grey: np.ndarray, pts: np.ndarray) -> np.ndarray:
    pts = pts.reshape(-1, 1, 2).astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    cv2.cornerSubPix(grey, pts, (3, 3), (-1, -1), crit)
    return pts.reshape(4, 2)


def plane_homography(points: np.ndarray, anchors) -> np.ndarray:
    """Frame -> plane: the four frame `points` go to the four plane `anchors`."""
    return cv2.getPerspectiveTransform(np.float32(points), np.float32(anchors))


def scaled(H: np.ndarray, scale: float) -> np.ndarray:
    """The same warp into the plane scaled by `scale` (a smaller copy of the plane)."""
    return np.diag([scale, scale, 1.0]) @ H
