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


# --- corners clicked by hand, fitted to the board's own marks ------------------------------
FIT_WINDOWS = (0.45, 0.3, 0.15)  # each round's search window around a mark, in squares (half-width)
FIT_SAMPLE = 0.22  # a crossing's four squares are sampled this far along each line from it, in squares
FIT_TOLERANCE = 0.06  # a mark further than this from the fitted grid is not one, in squares
FIT_MOST = 0.5  # the fit moves no corner further than this from where it was clicked, in squares
FIT_SAME = 0.05  # corners the fit moves less than this are right as clicked (what a fit can tell apart), in squares
FIT_MOVED = 0.1  # once play is on, marks this far from the corners say the camera moved, in squares
FIT_LEAST = 8  # marks it takes to fit a grid, over at least three lines each way
FIT_CONTRAST = 8.0  # grey levels between a crossing's dark and light squares, at least: above a camera's noise


def fit_squares(grey: np.ndarray, points: np.ndarray, n: int = 8, same: float = FIT_SAME) -> np.ndarray | None:
    """The four outer corners of a checkered board of n x n squares (`points`, BL, BR, TR,
    TL, clicked by hand: good to a few pixels at best) moved onto the board's own lines
    (the clicked ones where the lines agree with them to `same` of a square); None where
    its lines cannot tell.

    Why: the squares are read where the corners say, and a corner a sixth of a square off
    lets each square's sample take in its neighbour's edge; on the real phone photos with
    corners clicked a fifth of a square off, 91% of squares read right, against 99.6%. The
    crossings where four squares meet, light and dark in turn, are the board's most exact
    marks, and most show between the pieces in any position: each is found near where the
    clicked corners put it (`cv2.cornerSubPix`, the calibration tool for just such
    crossings), kept only if its four squares alternate around it (a piece's edge, a
    hand's or a shadow's does not), and a homography is fitted through them, rejecting the
    ones the others disagree with (RANSAC, `_fitted`). Three rounds, each searching a
    smaller window. A fit that rests on too few crossings, or that would move a corner
    more than FIT_MOST, is no fit; and a1 is dark, so a grid a square off (a corner
    clicked over half a square off) fits nothing."""
    corners = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
    crossings = np.float32([[i, j] for j in range(1, n) for i in range(1, n)])
    clicked = cv2.getPerspectiveTransform(corners, np.float32(points))  # squares -> frame
    H = clicked
    for window in FIT_WINDOWS:  # each round searches a smaller window round the crossings the last fit puts
        H = _fitted(crossings, *_crossings(grey, H, crossings, window))
        if H is None:
            return None
    fitted = through(H, corners)
    moved = np.hypot(*(through(np.linalg.inv(clicked), fitted) - corners).T).max()
    if moved > FIT_MOST:
        return None
    return np.float32(points) if moved < same else np.float32(fitted)


def through(H: np.ndarray, pts) -> np.ndarray:
    """Points (N x 2) carried through the homography `H`."""
    return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), H).reshape(-1, 2)


def _fitted(marks: np.ndarray, found: np.ndarray, ok: np.ndarray, unit: float) -> np.ndarray | None:
    """The homography (grid -> frame) through the `marks` found (`ok`) at `found`,
    rejecting the ones the others disagree with by FIT_TOLERANCE of a grid `unit` (pixels)
    (RANSAC); None where fewer than FIT_LEAST are left, or they lie on fewer than three
    lines either way."""
    if ok.sum() < FIT_LEAST:
        return None
    H, kept = cv2.findHomography(marks[ok], found[ok], cv2.RANSAC, FIT_TOLERANCE * unit)
    if H is None:
        return None
    on = kept.ravel() > 0
    if on.sum() < FIT_LEAST or len(set(marks[ok][on][:, 0])) < 3 or len(set(marks[ok][on][:, 1])) < 3:
        return None
    return cv2.findHomography(marks[ok][on], found[ok][on])[0]


def _crossings(grey: np.ndarray, H: np.ndarray, crossings: np.ndarray, window: float):
    """Where each crossing is found, searched around where `H` (squares -> frame) puts it
    within `window` squares; which are kept (their four squares alternate with a1's dark
    diagonal); and a square's side in pixels."""
    h, w = grey.shape
    at = through(H, crossings)
    along_file = through(H, crossings + [FIT_SAMPLE, 0]) - at  # one sample step along each line
    along_rank = through(H, crossings + [0, FIT_SAMPLE]) - at
    square = float(np.median(np.hypot(*along_file.T))) / FIT_SAMPLE  # a square's side in pixels, about
    half = max(2, int(round(window * square)))
    inside = (at[:, 0] > half + 1) & (at[:, 0] < w - half - 2) & (at[:, 1] > half + 1) & (at[:, 1] < h - half - 2)
    found = at.copy()
    if inside.any():
        near = found[inside].reshape(-1, 1, 2)
        cv2.cornerSubPix(grey, near, (half, half), (-1, -1),
                         (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01))
        found[inside] = near.reshape(-1, 2)
    # the four squares round each crossing: the two on one diagonal alike, and unlike the other two
    r = max(1, int(0.35 * FIT_SAMPLE * square))
    contrasts = np.zeros(len(found))
    for k in np.flatnonzero(inside):
        a, b = along_file[k], along_rank[k]
        q = [_mean(grey, found[k] + s * a + t * b, r) for s, t in ((1, 1), (-1, -1), (1, -1), (-1, 1))]
        contrast = (q[0] + q[1] - q[2] - q[3]) / 2
        if abs(contrast) > max(FIT_CONTRAST, 2 * (abs(q[0] - q[1]) + abs(q[2] - q[3]))):
            contrasts[k] = contrast
    # a1 is dark: the squares after a crossing along both lines are dark where i + j is
    # even; a grid one square off (a corner clicked over half a square off) has them light
    return found, contrasts * np.where(crossings.sum(axis=1) % 2 == 0, -1, 1) > 0, square


def _mean(grey: np.ndarray, at: np.ndarray, r: int) -> float:
    """The mean grey of the (2r+1)-square patch round `at` (clipped to the frame)."""
    x, y = int(round(at[0])), int(round(at[1]))
    patch = grey[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1]
    return float(patch.mean()) if patch.size else 0.0
