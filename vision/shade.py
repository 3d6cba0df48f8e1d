"""A player's shadow over part of a board of squares, taken out: a shadow is no piece.

The readers, the cover and the change model each take the light's drift out over the
whole board (a lamp switched on, a cloud, a warm bulb). A player leaning over the table
shades part of the board only, and there the squares read as pieces, the shadow as a
sleeve and the shaded cells as changed: on the real chess-rectified photos with real
hands, a shadow over half of each photo from 1...d5 on, leaving 90% of the light, lost
8 of 12 games, and some recorded plies nobody made.

Where four squares meet, the two squares of one colour face each other across the point,
and those of the other colour across the other diagonal. A shadow dims both colours alike;
a piece moved there, a hand or a sleeve does not: over the point they show their own
colour where the board showed two. So the four corners of each such point are compared
with the same corners in the kept look of the last known position, and where the two
diagonals' ratios agree, that ratio is the light's change there (`_told`). A piece that
stands where it stood, leaning over the point, is in both looks and changes nothing.

What the points tell is then explained by the simplest shadow a player casts: one soft
edge across the board, the light the same on each side of it (`_edge`). A shadow is
taken out only when that edge explains many more points than the light being the same
everywhere does, and dims by more than noise: one piece moved, a hand's edge, a lean
or a glare alter a few points near each other, which no straight edge across the board
explains. The points lie a square apart, so the edge is then placed finer on the light
taken every quarter of a square (`_refined`), with its depth per colour channel. A
shadow stays while a player leans: an edge near the one found in the view before needs
fewer points (a shadow over most of the board leaves few in the light). The factor given
back takes one side of the edge to the other's light; which side does not matter, for
each reader takes the light over the whole board out itself. A shadow with a curved
edge, or two shadows, are not taken out (docs/following.md, "Known limits").
"""
from __future__ import annotations

import cv2
import numpy as np

AGREE = 0.06  # the two diagonals' light ratios (log) agree within this where only the light changed
SATURATED = 245  # a patch this bright in any colour channel is at the sensor's top ...
DARK = 8  # ... or this dark in any: the sensor's noise, no light ratio
FIT = 0.03  # a point the light model explains within this (log) is explained
DEEPER = 0.07  # a shadow dims by at least this (log: 7%), beyond the readers' own noise
DEEPEST = np.log(4.0)  # the most a shadow is taken out by: a quarter of the light left
MORE = 5  # points an edge must explain beyond the light being the same everywhere
SHARE = 0.8  # ... and this share of the points that tell off its ramp
EACH_SIDE = 5  # and at least this many on each side of the edge
AGAIN = 2  # points beyond the flat light's for an edge near the view before's
NEAR_TURN, NEAR_SHIFT = np.cos(np.radians(20)), 1.0  # near: turned 20 degrees at most, a square along
ANGLES = 24  # edge directions tried in half a turn (each both ways)
WIDTHS = (0.75, 2.0)  # the soft edge's width, in squares (a hand's shadow near, a body's far)
_NORMALS = np.array([(np.cos(t), np.sin(t)) for t in np.arange(2 * ANGLES) * np.pi / ANGLES])  # a whole turn
_OFFSETS = np.arange(-4.0, 4.25, 0.5)  # where an edge lies along its normal, squares from the middle
# the edge placed finer, in two stages: (turns in degrees, shifts in squares, widths in
# squares, every how many of the quarter-square samples)
_STAGES = ((np.arange(-15.0, 15.5, 2.5), np.arange(-1.0, 1.01, 0.25), (0.5, 1.0, 2.0), 3),
           (np.arange(-2.0, 2.5, 1.0), np.arange(-0.25, 0.26, 0.0625), (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0), 1))


def shade(now: np.ndarray, then: np.ndarray, pad: int, last: tuple | None = None) -> tuple | None:
    """(per pixel of `now`, the factor that takes a shadow over part of the board out; the
    shadow's edge), against `then` (the same place at the last known position; NaN where
    it was not seen); None when no shadow is found (module docstring). `now` is float,
    H x W x 3: a board of 8x8 squares with `pad` pixels of table around it, as
    vision/cover.py keeps it. `last`: the edge found in the view before, if any."""
    square = (min(now.shape[:2]) - 2 * pad) / 8
    told = _told(now, then, pad, square)
    if told is None:
        return None
    edge = _edge(told, last)
    if edge is None:
        return None
    placed = _refined(edge, now, then, pad, square)
    if placed is None:
        return None
    normal, offset, width, depth = placed
    h, w = now.shape[:2]
    xs = (np.arange(w, dtype=np.float32) - pad) / square - 4.0  # squares from the board's middle
    ys = (np.arange(h, dtype=np.float32) - pad) / square - 4.0
    inside = _step(normal[0] * xs[None, :] + normal[1] * ys[:, None] - offset, width)
    return np.exp(inside[..., None] * depth).astype(np.float32), (normal, offset)


def _told(now: np.ndarray, then: np.ndarray, pad: int, square: float) -> np.ndarray | None:
    """Per point where four squares meet (7x7), the log of the light now over the light
    then (the mean over colour channels), NaN where the point does not tell."""
    size = max(2, int(round(square / 5)))
    now_q, then_q = _corners(now, pad, square, size), _corners(then, pad, square, size)
    one = (now_q[:, :, 0] + now_q[:, :, 3] + 2.0) / (then_q[:, :, 0] + then_q[:, :, 3] + 2.0)  # one diagonal
    other = (now_q[:, :, 1] + now_q[:, :, 2] + 2.0) / (then_q[:, :, 1] + then_q[:, :, 2] + 2.0)  # the other
    with np.errstate(invalid="ignore", divide="ignore"):
        l1, l2 = np.log(one).mean(axis=-1), np.log(other).mean(axis=-1)
        agree = np.abs(l1 - l2) <= AGREE  # NaN (not seen then): False
        # a patch at the sensor's top (glare, a bright lamp) does not follow the light
        agree &= (np.maximum(now_q, then_q) < SATURATED).all(axis=(2, 3))
    if agree.sum() < 2 * EACH_SIDE + MORE:
        return None
    return np.where(agree, (l1 + l2) / 2, np.nan)


def _edge(told: np.ndarray, last: tuple | None) -> tuple | None:
    """The straight soft edge that explains the points' light best: (its normal, where it
    lies along it from the board's middle), or None when none explains clearly more than
    the light being the same everywhere, by a step of DEEPER or more. A shadow stays while
    a player leans: an edge near `last` (the view before's) needs fewer points beyond the
    flat light's (AGAIN), for a shadow over most of the board leaves few points in the
    light."""
    ys, xs = np.nonzero(~np.isnan(told))
    light = told[ys, xs]
    flat = np.abs(light - np.median(light)) <= FIT
    if (~flat).sum() < (MORE if last is None else AGAIN):
        return None  # no edge explains more points than are off the flat light (most views: no shadow)
    inside = _inside(_NORMALS, _OFFSETS, WIDTHS, xs - 3.0, ys - 3.0)  # squares from the middle
    depth, explained, clear, enough = _fit(light, inside)
    gain = explained - (flat & clear).sum(axis=1)
    good = enough & (explained >= SHARE * clear.sum(axis=1)) & (np.abs(depth) >= DEEPER)
    least = np.full(len(gain), MORE)
    if last is not None:
        # the same edge, either way round (its normal turned by half a turn, its offset negated)
        turn = (_NORMALS @ np.asarray(last[0]))[:, None, None]
        same = (np.abs(turn) >= NEAR_TURN) & (np.abs(_OFFSETS[None, :, None] - np.sign(turn) * last[1]) <= NEAR_SHIFT)
        least = np.where(np.broadcast_to(same, (len(_NORMALS), len(_OFFSETS), len(WIDTHS))).reshape(-1), AGAIN, MORE)
    k = int(np.argmax(np.where(good & (gain >= least), gain, -len(light))))
    if not good[k] or gain[k] < least[k]:
        return None
    a, o, _ = np.unravel_index(k, (len(_NORMALS), len(_OFFSETS), len(WIDTHS)))
    return _NORMALS[a], float(_OFFSETS[o])


def _refined(edge: tuple, now: np.ndarray, then: np.ndarray, pad: int, square: float) -> tuple | None:
    """The edge found through the points, placed to a fraction of a square, with its width
    and its depth per colour channel: (normal, offset, width, depth), or None when the
    light every quarter square shows no step of DEEPER. The points lie a square apart,
    and a deep shadow's edge a quarter of a square off leaves a band of squares half lit.
    Here the light is taken every quarter of a square, wherever it was seen neither
    saturated nor dark (a piece moved, a hand: values no edge explains, outvoted), and the
    edge that explains most of it near the first is kept."""
    q = square / 4
    size = max(1, int(round(q)))
    at = pad + (np.arange(32) + 0.5) * q
    ys, xs = np.meshgrid(np.round(at).astype(int), np.round(at).astype(int), indexing="ij")
    now_at, then_at = _blurred(now, size)[ys, xs], _blurred(then, size)[ys, xs]
    with np.errstate(invalid="ignore", divide="ignore"):
        seen = (np.maximum(now_at, then_at) < SATURATED).all(axis=-1) & (np.minimum(now_at, then_at) > DARK).all(axis=-1)
        channels = np.log((now_at + 2.0) / (then_at + 2.0))[seen]  # (samples, 3)
    if len(channels) < 4 * EACH_SIDE:
        return None
    light = channels.mean(axis=-1)
    px, py = (xs[seen] - pad) / square - 4.0, (ys[seen] - pad) / square - 4.0
    normal, offset = edge
    for turns, shifts, widths, every in _STAGES:
        turn = np.arctan2(normal[1], normal[0]) + np.radians(turns)
        normals = np.stack([np.cos(turn), np.sin(turn)], axis=1)
        offsets = offset + shifts
        inside = _inside(normals, offsets, widths, px[::every], py[::every])
        drop, explained, _, enough = _fit(light[::every], inside, ramp=True)
        k = int(np.argmax(np.where(enough, explained, -1)))
        if not enough[k]:
            return None
        t, o, w = np.unravel_index(k, (len(turns), len(shifts), len(widths)))
        normal, offset, width, depth = normals[t], float(offsets[o]), float(widths[w]), float(drop[k])
    if abs(depth) < DEEPER:
        return None
    # the depth per colour channel (a shadow is lit by the room's other light, of its own
    # colour), by least squares over the samples the edge explains
    inside = _step(normal @ np.stack([px, py]) - offset, width)
    fits = np.abs(light - (np.median(light[inside < 0.1]) - depth * inside)) <= FIT
    if (fits & (inside < 0.1)).sum() < EACH_SIDE or (fits & (inside > 0.9)).sum() < EACH_SIDE:
        return normal, offset, width, np.full(3, np.clip(depth, -DEEPEST, DEEPEST))  # too few to tell the colours apart
    design = np.stack([np.ones(fits.sum()), -inside[fits]], axis=1)
    (_, depths), *_ = np.linalg.lstsq(design, channels[fits], rcond=None)
    return normal, offset, width, np.clip(depths, -DEEPEST, DEEPEST)


def _inside(normals: np.ndarray, offsets: np.ndarray, widths, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """How far into its shadow (`_step`) each point (px, py: squares from the board's
    middle) lies for every candidate edge, one row per (normal, offset, width) in that
    order of nesting."""
    along = normals @ np.stack([px, py])  # (normals, points)
    inside = _step(along[:, None, None, :] - np.asarray(offsets)[None, :, None, None],
                   np.asarray(widths)[None, None, :, None])
    return inside.reshape(-1, len(px))


def _fit(light: np.ndarray, inside: np.ndarray, ramp: bool = False) -> tuple:
    """For each candidate edge (a row of `inside`: how far into its shadow each point lies),
    how much darker it is beyond the edge (the medians well inside and well outside), how
    many points that explains within FIT, which points lie off its ramp, and whether it
    has EACH_SIDE points on each side. Points on the ramp count only with `ramp`: a square
    apart, the ramp's shape is a guess, and no evidence either way; a quarter of a square
    apart, it is what places the edge."""
    lit_side, dark_side = inside < 0.1, inside > 0.9
    lit = _median(light, lit_side)
    depth = lit - _median(light, dark_side)
    clear = lit_side | dark_side
    fits = np.abs(light - (lit[:, None] - depth[:, None] * inside)) <= FIT
    explained = (fits if ramp else fits & clear).sum(axis=1)
    enough = (lit_side.sum(axis=1) >= EACH_SIDE) & (dark_side.sum(axis=1) >= EACH_SIDE)
    return depth, explained, clear, enough


def _median(light: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Per row of `where` (candidates x points), the median of `light` over the points it
    marks (0 where it marks none: `_fit` leaves such a candidate out)."""
    n = where.sum(axis=1)
    ranked = np.sort(np.where(where, light, np.inf), axis=1)
    rows = np.arange(len(where))
    low, high = np.maximum(n - 1, 0) // 2, np.maximum(n, 1) // 2
    return np.where(n > 0, (ranked[rows, low] + ranked[rows, np.minimum(high, where.shape[1] - 1)]) / 2, 0.0)


def _step(d: np.ndarray, width: float) -> np.ndarray:
    """How far into the shadow (0 lit to 1 shaded) a point `d` squares beyond the edge's
    middle lies, for an edge `width` squares wide (a smooth ramp)."""
    t = np.clip(d / width + 0.5, 0.0, 1.0)
    return t * t * (3 - 2 * t)


def _blurred(img: np.ndarray, size: int) -> np.ndarray:
    """The mean over a size x size box around each pixel, NaN where the box holds any NaN
    (a cell of the kept look that was never seen: cv2.blur would carry its NaN on along
    whole rows)."""
    img = img.astype(np.float32)
    unseen = np.isnan(img).any(axis=-1)
    if not unseen.any():
        return cv2.blur(img, (size, size))
    mean = cv2.blur(np.where(unseen[..., None], 0.0, img).astype(np.float32), (size, size))
    holes = cv2.blur(unseen.astype(np.float32), (size, size)) > 1e-6
    mean[holes] = np.nan
    return mean


def _corners(img: np.ndarray, pad: int, square: float, size: int) -> np.ndarray:
    """The mean colour of a size x size patch in each of the four squares at each point
    where four squares meet: (7, 7, 4, 3), in the order up-left, up-right, down-left,
    down-right (so 0 and 3 are one square colour, 1 and 2 the other)."""
    box = _blurred(img, size)
    at = pad + np.arange(1, 8) * square
    d = size / 2 + 1  # the patch's middle from the point: clear of the line between the squares

    def patch(dy: float, dx: float) -> np.ndarray:
        ys = np.clip(np.round(at + dy).astype(int), 0, img.shape[0] - 1)
        xs = np.clip(np.round(at + dx).astype(int), 0, img.shape[1] - 1)
        return box[ys][:, xs]

    return np.stack([patch(-d, -d), patch(-d, d), patch(d, -d), patch(d, d)], axis=2)
