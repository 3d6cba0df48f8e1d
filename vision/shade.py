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
straight edge across the board (a body's, leaning in from a side), or a soft disc (a
head's, over the middle), the light the same on each side of its rim (`_shapes`). A
shadow is taken out only when such a shape explains many more points than the light
being the same everywhere does, and dims by more than noise: one piece moved, a hand's
edge, a lean or a glare alter a few points near each other, which no such shape
explains. The points lie a square apart, so the shape is then placed finer on the light
taken every quarter of a square (`_refined`), with its depth per colour channel. A
shadow stays while a player leans: a shape near the one found in the view before needs
fewer points (a shadow over most of the board leaves few in the light), and is kept as
it was placed while it explains the light about as well (KEEP). The factor given back
takes one side of the rim to the other's light; which side does not matter, for each
reader takes the light over the whole board out itself. Two shadows at once are not
taken out (docs/following.md, "Known limits").
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

AGREE = 0.06  # the two diagonals' light ratios (log) agree within this where only the light changed
SATURATED = 245  # a patch this bright in any colour channel is at the sensor's top ...
DARK = 8  # ... or this dark in any: the sensor's noise, no light ratio
FIT = 0.03  # a point the light model explains within this (log) is explained
DEEPER = 0.07  # a shadow dims by at least this (log: 7%), beyond the readers' own noise
DEEPEST = np.log(4.0)  # the most a shadow is taken out by: a quarter of the light left
MORE = 5  # points a shape must explain beyond the light being the same everywhere
SHARE = 0.8  # ... and this share of the points that tell off its ramp
EACH_SIDE = 5  # and at least this many on each side of its rim
AGAIN = 2  # points beyond the flat light's for a shadow near the view before's
KEEP = 0.97  # the view before's shadow is kept while it explains this share of what the best placement does
NEAR_TURN, NEAR_SHIFT = np.cos(np.radians(20)), 1.0  # near: turned 20 degrees at most, moved a square at most
ANGLES = 24  # edge directions tried in half a turn (each both ways)
WIDTHS = (0.75, 2.0)  # the soft rim's width, in squares (a hand's shadow near, a body's far)
EDGE, DISC = 0, 1  # the shapes a shadow takes: a straight edge, or round (a head's)
RADIUS = 4.5  # squares: a disc's largest (a larger one's rim is as straight as an edge over the board)


def _grid(*axes) -> np.ndarray:
    """Every combination of the values on `axes`, one row each (the last axis fastest)."""
    return np.stack(np.meshgrid(*axes, indexing="ij"), axis=-1).reshape(-1, len(axes))


_TURNS = np.arange(2 * ANGLES) * np.pi / ANGLES  # a whole turn
# the shapes tried first, one row each: (kind, a, b, c), squares from the board's middle:
# an edge's normal (a, b) and where it lies along it (c); a disc's middle (a, b) and radius (c)
_EDGES = _grid(np.arange(2 * ANGLES), np.arange(-4.0, 4.25, 0.5))
_DISCS = _grid(np.arange(-5.0, 5.25, 0.5), np.arange(-5.0, 5.25, 0.5), np.arange(1.0, RADIUS + 0.25, 0.5))
_SHAPES = np.concatenate([
    np.column_stack([np.full(len(_EDGES), EDGE), np.cos(_TURNS[_EDGES[:, 0].astype(int)]),
                     np.sin(_TURNS[_EDGES[:, 0].astype(int)]), _EDGES[:, 1]]),
    np.column_stack([np.full(len(_DISCS), DISC), _DISCS])])
_POINTS = _grid(np.arange(7.0), np.arange(7.0)) - 3.0  # (down, across) of each point where four squares meet
# the shape placed finer, in stages: each a list of moves tried (one row each: an edge's
# turn in degrees and shift in squares; a disc's middle moved across and down, and its
# radius changed, in squares), the rim's widths in squares, and every how many of the
# quarter-square samples are taken. The first stage places the best edge and the best
# disc alike, on the same samples, and keeps the one of them that explains the light
# best (a disc's middle and radius trade off along the line from the board's middle, which
# every third sample did not tell: half are taken); then that kind's own stages, the last
# on every sample (KEEP compares the view before's shadow with it over all of them).
_FIRST = ({EDGE: _grid(np.arange(-15.0, 15.5, 2.5), np.arange(-1.0, 1.01, 0.25)),
           DISC: _grid(*[np.arange(-1.5, 1.51, 0.5)] * 3)}, (0.5, 1.0, 2.0), 2)
_FINER = {EDGE: ((_grid(np.arange(-2.0, 2.5, 1.0), np.arange(-0.25, 0.26, 0.0625)),
                  (0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0), 1),),
          DISC: ((_grid(*[np.arange(-0.375, 0.38, 0.125)] * 3), (0.5, 1.0, 2.0), 2),
                 (_grid(*[np.arange(-0.0625, 0.07, 0.0625)] * 3), (0.25, 0.5, 0.75, 1.0, 1.5), 1))}


class Shadow(NamedTuple):
    """A shadow placed: its shape ((kind, a, b, c) as `_SHAPES`' rows), its rim's width
    (squares) and how much darker it is, per colour channel (log)."""
    shape: np.ndarray
    width: float
    depth: np.ndarray


def shade(now: np.ndarray, then: np.ndarray, pad: int, last: Shadow | None = None) -> tuple | None:
    """(per pixel of `now`, the factor that takes a shadow over part of the board out; the
    `Shadow`), against `then` (the same place at the last known position; NaN where it was
    not seen); None when no shadow is found (module docstring). `now` is float, H x W x 3:
    a board of 8x8 squares with `pad` pixels of table around it, as vision/cover.py keeps
    it. `last`: the shadow found in the view before, if any."""
    square = (min(now.shape[:2]) - 2 * pad) / 8
    told = _told(now, then, pad, square)
    if told is None:
        return None
    shapes = _shapes(told, None if last is None else last.shape)
    placed = _refined(shapes, now, then, pad, square, last) if shapes else None
    if placed is None:
        return None
    h, w = now.shape[:2]
    xs = (np.arange(w, dtype=np.float32) - pad) / square - 4.0  # squares from the board's middle
    ys = (np.arange(h, dtype=np.float32) - pad) / square - 4.0
    inside = _step(_beyond(placed.shape[None], *np.meshgrid(xs, ys))[0], placed.width)
    return np.exp(inside[..., None] * placed.depth).astype(np.float32), placed


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


def _shapes(told: np.ndarray, last: np.ndarray | None) -> list[np.ndarray]:
    """Of each kind, the shape (a row of `_SHAPES`: a straight soft edge or a disc) that
    explains the points' light best, unless none explains clearly more than the light
    being the same everywhere, by a step of DEEPER or more. A shadow stays while a player
    leans: a shape near `last` (the view before's) needs fewer points beyond the flat
    light's (AGAIN), for a shadow over most of the board leaves few points in the light.
    A disc as large as the board passes for an edge a square apart; the finer light
    tells which explains the shadow (`_refined`)."""
    ys, xs = np.nonzero(~np.isnan(told))
    light = told[ys, xs]
    flat = np.abs(light - np.median(light)) <= FIT
    if (~flat).sum() < (MORE if last is None else AGAIN):
        return []  # no shape explains more points than are off the flat light (most views: no shadow)
    depth, explained, clear, enough = _fit(light, _at_points()[:, ys * 7 + xs])
    gain = explained - (flat & clear).sum(axis=1)
    good = enough & (explained >= SHARE * clear.sum(axis=1)) & (np.abs(depth) >= DEEPER)
    least = np.full(len(gain), MORE)
    if last is not None:
        least = np.where(np.repeat(_near(last), len(WIDTHS)), AGAIN, MORE)
    score = np.where(good & (gain >= least), gain, -1)
    best = []
    for kind in (EDGE, DISC):
        of_kind = np.where(np.repeat(_SHAPES[:, 0] == kind, len(WIDTHS)), score, -1)
        k = int(np.argmax(of_kind))
        if of_kind[k] >= 0:
            best.append(_SHAPES[k // len(WIDTHS)])
    return best


@lru_cache(maxsize=1)
def _at_points() -> np.ndarray:
    """How far into the shadow of each of `_SHAPES` (rows: shape, then width) each point
    where four squares meet lies (columns, row by row): the same for every view, so
    worked out once."""
    return _inside(_SHAPES, WIDTHS, _POINTS[:, 1], _POINTS[:, 0]).astype(np.float32)


def _near(last: np.ndarray) -> np.ndarray:
    """Which of `_SHAPES` lie near the shape `last`: of its kind, an edge turned 20 degrees
    at most (NEAR_TURN, its cosine; either way round: its normal turned by half a turn, its
    offset negated), a disc's middle and radius, and an edge, moved NEAR_SHIFT at most."""
    kind, a, b, c = last
    if kind == EDGE:
        turn = _SHAPES[:, 1] * a + _SHAPES[:, 2] * b
        near = (np.abs(turn) >= NEAR_TURN) & (np.abs(_SHAPES[:, 3] - np.sign(turn) * c) <= NEAR_SHIFT)
    else:
        near = ((np.hypot(_SHAPES[:, 1] - a, _SHAPES[:, 2] - b) <= NEAR_SHIFT)
                & (np.abs(_SHAPES[:, 3] - c) <= NEAR_SHIFT))
    return near & (_SHAPES[:, 0] == kind)


def _refined(shapes: list, now: np.ndarray, then: np.ndarray, pad: int, square: float,
             last: Shadow | None) -> Shadow | None:
    """The shape found through the points, placed to a fraction of a square, with its rim's
    width and its depth per colour channel, or None when the light every quarter square
    shows no step of DEEPER. The points lie a square apart, and a deep shadow's edge a
    quarter of a square off leaves a band of squares half lit.
    Here the light is taken every quarter of a square, wherever it was seen neither
    saturated nor dark (a piece moved, a hand: values no shape explains, outvoted), and the
    shape that explains most of it near the first is kept. Of `shapes` (the best edge and
    the best disc through the points), the first stage keeps the one that explains the
    finer light best (`_FIRST`). The shadow of the view before (`last`) is kept as it was
    placed while it explains the light nearly as well (KEEP): the looks learned under
    a shadow were relit by it, and the same shadow placed a little otherwise would relight
    every square a little otherwise, a change on every square."""
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
    light = channels.mean(axis=-1).astype(np.float32)
    px = ((xs[seen] - pad) / square - 4.0).astype(np.float32)  # squares from the board's middle
    py = ((ys[seen] - pad) / square - 4.0).astype(np.float32)

    def best(shapes: np.ndarray, widths, every: int) -> tuple | None:
        """Of `shapes` with each of `widths`, on every `every`-th sample: (shape, width,
        depth, how much it explains) of the one that explains most, or None."""
        inside = _inside(shapes, widths, px[::every], py[::every])
        drop, explained, _, enough = _fit(light[::every], inside, ramp=True)
        k = int(np.argmax(np.where(enough, explained, -1)))
        if not enough[k]:
            return None
        return shapes[k // len(widths)], float(widths[k % len(widths)]), float(drop[k]), explained[k]

    moves, widths, every = _FIRST
    placed = best(np.concatenate([_moved(shape, moves[int(shape[0])]) for shape in shapes]), widths, every)
    if placed is None:
        return None
    for moves, widths, every in _FINER[int(placed[0][0])]:
        placed = best(_moved(placed[0], moves), widths, every)
        if placed is None:
            return None
    shape, width, depth, explained = placed
    if abs(depth) < DEEPER:
        return None
    if last is not None:
        _, still, _, enough = _fit(light, _inside(last.shape[None], (last.width,), px, py), ramp=True)
        if enough[0] and still[0] >= KEEP * explained:
            return last
    # the depth per colour channel (a shadow is lit by the room's other light, of its own
    # colour), by least squares over the samples the shape explains
    inside = _inside(shape[None], (width,), px, py)[0]
    fits = np.abs(light - (np.median(light[inside < 0.1]) - depth * inside)) <= FIT
    if (fits & (inside < 0.1)).sum() < EACH_SIDE or (fits & (inside > 0.9)).sum() < EACH_SIDE:
        return Shadow(shape, width, np.full(3, np.clip(depth, -DEEPEST, DEEPEST)))  # too few to tell the colours apart
    design = np.stack([np.ones(fits.sum()), -inside[fits]], axis=1)
    (_, depths), *_ = np.linalg.lstsq(design, channels[fits], rcond=None)
    return Shadow(shape, width, np.clip(depths, -DEEPEST, DEEPEST))


def _moved(shape: np.ndarray, moves: np.ndarray) -> np.ndarray:
    """`shape` moved each of the ways `moves` gives (`_FIRST`, `_FINER`), one row each: an edge
    turned (degrees) and shifted along its normal, a disc's middle moved and its radius
    changed (squares)."""
    kind, a, b, c = shape
    if kind == EDGE:
        turn = np.arctan2(b, a) + np.radians(moves[:, 0])
        return np.column_stack([np.full(len(moves), EDGE), np.cos(turn), np.sin(turn), c + moves[:, 1]])
    return np.column_stack([np.full(len(moves), DISC), a + moves[:, 0], b + moves[:, 1],
                            np.clip(c + moves[:, 2], 0.25, RADIUS)])


def _beyond(shapes: np.ndarray, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """How far (squares) each point (px, py: squares from the board's middle, any shape of
    array) lies beyond each shape's rim (a row of `shapes`), into its shadow: along an
    edge's normal past where it lies, or in from a disc's rim."""
    out = np.empty((len(shapes),) + np.shape(px), np.float32)
    for kind in (EDGE, DISC):
        of = shapes[:, 0] == kind
        if of.any():
            a, b, c = (col.reshape((-1,) + (1,) * np.ndim(px)).astype(np.float32) for col in shapes[of, 1:].T)
            out[of] = a * px + b * py - c if kind == EDGE else c - np.hypot(px - a, py - b)
    return out


def _inside(shapes: np.ndarray, widths, px: np.ndarray, py: np.ndarray) -> np.ndarray:
    """How far into its shadow (`_step`) each point lies for every candidate, one row per
    (shape, width) in that order of nesting."""
    beyond = _beyond(shapes, px, py)  # (shapes, points)
    inside = _step(beyond[:, None, :], np.asarray(widths)[None, :, None])
    return inside.reshape(-1, len(px))


def _fit(light: np.ndarray, inside: np.ndarray, ramp: bool = False) -> tuple:
    """For each candidate shape (a row of `inside`: how far into its shadow each point
    lies), how much darker it is beyond the rim (the medians well inside and well outside),
    how many points that explains within FIT, which points lie off its ramp, and whether
    it has EACH_SIDE points on each side. Points on the ramp count only with `ramp`: a
    square apart, the ramp's shape is a guess, and no evidence either way; a quarter of a
    square apart, it is what places the rim, and there each point counts by how well it
    is explained (1 exactly, 0 at FIT or beyond: of the many placements that explain as
    many points, the one nearest the light)."""
    lit_side, dark_side = inside < 0.1, inside > 0.9
    lit = _median(light, lit_side)
    depth = lit - _median(light, dark_side)
    clear = lit_side | dark_side
    off = np.abs(light - (lit[:, None] - depth[:, None] * inside)) / FIT
    explained = np.maximum(1 - off * off, 0).sum(axis=1) if ramp else ((off <= 1) & clear).sum(axis=1)
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


def _step(d: np.ndarray, width) -> np.ndarray:
    """How far into the shadow (0 lit to 1 shaded) a point `d` squares beyond the rim's
    middle lies, for a rim `width` squares wide (a smooth ramp; `width` may be an array
    that broadcasts with `d`)."""
    t = d / np.asarray(width, np.float32) + np.float32(0.5)  # float32 throughout: the search's most work
    np.clip(t, 0.0, 1.0, out=t)
    ramp = 3 - 2 * t
    ramp *= t
    ramp *= t
    return ramp


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
