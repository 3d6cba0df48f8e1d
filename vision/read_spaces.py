"""A reader for track boards: what stands on each space of a path (the Super Mario Bros.
World boards, Monopoly's 40 spaces), and how sure that is.

A track board is a picture with spaces at known places, not a grid: the spaces' centres
in plane pixels come from the board data (the rules' board file, never from vision) and
every space has its own printed look (a red disc, a pipe top, a property's colour bar).
So the reader learns at game start, from the known start position:
- each empty space's own look, pixel by pixel (blurred, so a warp that is off by a pixel
  or two does not matter), which makes a printed mushroom or a coin read as "empty";
- each piece's colours, from the spaces the start position says it stands on (Mario on
  START; Monopoly's tokens on GO), as a small histogram of Lab colours;
and reads a space as:
1. the share of its disc that differs from its learned empty look (after the board-wide
   light change is taken out: the median brightness ratio over all spaces, which are
   mostly empty). Little change: "empty". Much change: something stands there;
2. whatever stands there is the learned piece whose colours it matches best, or, when
   it matches none, `other_label` (a hazard token: its picture is not known at start).
A space whose empty look was never seen (START under Mario at game start) is compared
with the pieces only, and reads "empty" with a middling confidence when none matches.
Every later call of `learn` (for instance with the board the referee has just accepted)
fills in and refreshes the empty looks, which also follows slow light changes.

Confidences reflect the margins, so the referee waits on a space that is half covered
or that looks like nothing it knows, instead of sounding a false alarm.

The interface is vision/reader.py's `Reader`. `SmbSpaceReader` is this reader for one
World board of the Super Mario Bros. board game, built from that World's board data
(handed in: vision opens no game file).
"""
from __future__ import annotations

from typing import Hashable, Mapping

import cv2
import numpy as np

from .read_holes import hex_bgr, lab
from .reader import Reader

LIGHTNESS_WEIGHT = 0.5
CHANGE = 16.0  # Lab distance (lightness counting half) of a pixel that changed
EMPTY_SHARE, FULL_SHARE = 0.12, 0.30  # changed share of a disc: surely empty, surely taken
MATCH = 0.55  # histogram distance under which a space's middle matches a piece
BINS = (3, 6, 6)  # L, a, b bins of a colour histogram
BLUR = 2.0
UNSEEN_EMPTY = 0.65  # confidence of "empty" on a space whose empty look is unknown
UNKNOWN_PIECE = 0.3  # the same while a piece's look is unknown too (not seen on this table yet)


def _hist(labs: np.ndarray) -> np.ndarray:
    """Normalised L,a,b histogram of some Lab pixels (N x 3)."""
    if len(labs) == 0:
        return np.zeros(int(np.prod(BINS)), np.float32)
    h, _ = np.histogramdd(labs, bins=BINS, range=((0, 100), (-80, 80), (-80, 80)))
    h = h.ravel().astype(np.float32)
    return h / h.sum()


def _hist_distance(a: np.ndarray, b: np.ndarray) -> float:
    return float(1.0 - np.minimum(a, b).sum())


class SpaceReader(Reader):
    """Per-space reader for a track board (see the module docstring)."""

    def __init__(self, points: Mapping[Hashable, tuple[float, float]], plane_size: tuple[int, int],
                 radius: float, *, pieces: tuple[str, ...] = ("p0", "p1"), other_label: str | None = None,
                 colours=None):
        self.plane_size = (int(plane_size[0]), int(plane_size[1]))
        self.cells = list(points)
        self.pieces = tuple(pieces)
        self.other_label = other_label
        self.labels = ("empty",) + self.pieces + ((other_label,) if other_label else ())
        self.radius = float(radius)
        self.points = {c: (float(x), float(y)) for c, (x, y) in points.items()}
        self._index(points)
        self.empty_ref: np.ndarray | None = None  # Lab of every disc pixel when empty (NaN: unseen)
        self.grey_ref: np.ndarray | None = None
        # nominal piece colours from config until the start position teaches better ones
        self.piece_hist: dict[str, np.ndarray] = {}
        self.learned: set[str] = set()  # pieces whose colours were learned on the table
        self.other_hist: np.ndarray | None = None  # the look of `other_label` things seen so far
        for label, colour in zip(self.pieces, colours or ()):
            c = lab(hex_bgr(colour)[None, :])
            self.piece_hist[label] = _hist(np.repeat(c, 10, axis=0))

    def _index(self, points: Mapping) -> None:
        """Flat pixel indices of all spaces' discs, one after the other (`_cut` marks
        where each starts), and of each disc's inner part (where a piece hides the space)."""
        w, h = self.plane_size
        r = self.radius
        oy, ox = np.mgrid[-int(r):int(r) + 1, -int(r):int(r) + 1]
        d = np.hypot(ox, oy)
        discs, self._inner = [], []
        for cell in self.cells:
            cx, cy = points[cell]
            xs, ys = np.round(cx + ox).astype(int), np.round(cy + oy).astype(int)
            inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
            if not inside[d <= r].any():
                raise ValueError(f"space {cell!r} at {points[cell]} lies off the {w}x{h} plane")
            keep = inside & (d <= r)
            discs.append((ys * w + xs)[keep])
            self._inner.append(((d <= 0.7 * r) & inside)[keep])
        self._cut = np.cumsum([0] + [len(x) for x in discs])[:-1]
        self._all = np.concatenate(discs)

    def cell_outline(self, cell) -> np.ndarray:
        """The square around a space's disc, kept on the plane."""
        (x, y), r = self.points[cell], self.radius
        w, h = self.plane_size
        x0, x1 = max(0.0, x - r), min(float(w), x + r)
        y0, y1 = max(0.0, y - r), min(float(h), y + r)
        return np.float32([[x0, y1], [x1, y1], [x1, y0], [x0, y0]])

    # --- measuring -------------------------------------------------------------------
    def _pixels(self, plane: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Lab and grey of every disc pixel (blurred), and each space's mean grey."""
        if plane.shape[1::-1] != self.plane_size:
            raise ValueError(f"plane is {plane.shape[1]}x{plane.shape[0]}, the reader wants "
                             f"{self.plane_size[0]}x{self.plane_size[1]}")
        bgr = cv2.GaussianBlur(plane, (0, 0), BLUR).reshape(-1, 3)[self._all].astype(np.float32)
        grey = bgr.mean(axis=1)
        means = np.add.reduceat(grey, self._cut) / np.diff(np.append(self._cut, len(grey)))
        return bgr, means

    def _light(self, means: np.ndarray) -> float:
        """The board-wide light now relative to when the empty looks were learned: the
        median over all spaces, which are mostly empty."""
        if self.grey_ref is None:
            return 1.0
        return float(np.clip(np.median(means / np.maximum(self.grey_ref, 1.0)), 0.3, 3.0))

    def _disc(self, values: np.ndarray, k: int) -> np.ndarray:
        end = self._cut[k + 1] if k + 1 < len(self._cut) else len(values)
        return values[self._cut[k]:end]

    # --- the reader interface ------------------------------------------------------
    def learn(self, plane: np.ndarray, expected: Mapping) -> None:
        """The board holds `expected` now: learn the empty spaces' looks and the pieces'
        colours (a piece's colours are those of the discs it stands on)."""
        bgr, means = self._pixels(plane)
        light = self._light(means)
        labs = lab(bgr / light)
        if self.grey_ref is None:
            self.grey_ref = means.copy()
            self.empty_ref = np.full_like(labs, np.nan)
        samples: dict[str, list] = {}
        for k, cell in enumerate(self.cells):
            label = expected.get(cell)
            if label == "empty":
                sl = slice(self._cut[k], self._cut[k] + len(self._inner[k]))
                self.empty_ref[sl] = labs[sl]
                self.grey_ref[k] = means[k] / light
            elif label in self.pieces or (label is not None and label == self.other_label):
                samples.setdefault(label, []).append(self._disc(labs, k)[self._inner[k]])
        for label, parts in samples.items():  # blended: one position never erases a look
            new = _hist(np.concatenate(parts))
            if label == self.other_label:  # tokens of many looks: only to tell an unseen space
                self.other_hist = new if self.other_hist is None else (self.other_hist + new) / 2
                continue
            old = self.piece_hist.get(label) if label in self.learned else None
            self.piece_hist[label] = new if old is None else (old + new) / 2
            self.learned.add(label)

    def adopt(self, other: Reader) -> None:
        """The pieces' and tokens' looks learned on another sheet (Mario goes with the
        players from World to World; the spaces' empty looks are this board's own)."""
        if isinstance(other, SpaceReader):
            self.piece_hist.update({k: other.piece_hist[k] for k in other.learned})
            self.learned |= other.learned
            self.other_hist = other.other_hist

    def read(self, plane: np.ndarray) -> dict:
        """cell -> (label, confidence) for every space."""
        bgr, means = self._pixels(plane)
        labs = lab(bgr / self._light(means))
        if self.empty_ref is None:
            return {c: self._unseen(self._disc(labs, k)[self._inner[k]]) for k, c in enumerate(self.cells)}
        diff = labs - self.empty_ref
        diff[:, 0] *= LIGHTNESS_WEIGHT
        changed = np.sqrt((diff ** 2).sum(axis=1)) > CHANGE  # NaN (never seen) is False
        share = np.add.reduceat(changed.astype(np.float32), self._cut) / np.diff(np.append(self._cut, len(labs)))
        seen = ~np.isnan(np.add.reduceat(self.empty_ref[:, 0], self._cut))
        out = {}
        for k, cell in enumerate(self.cells):
            if not seen[k]:
                out[cell] = self._unseen(self._disc(labs, k)[self._inner[k]])
            elif share[k] <= EMPTY_SHARE:
                out[cell] = ("empty", float(1.0 - 0.5 * share[k] / EMPTY_SHARE))
            else:
                label, conf = self._what(self._disc(labs, k)[self._inner[k]])
                if share[k] < FULL_SHARE:  # partly covered: something, but not surely
                    conf = min(conf, 0.5)
                out[cell] = (label, conf)
        return out

    def _what(self, inner: np.ndarray) -> tuple[str, float]:
        """The piece whose colours the space's middle matches, or `other_label`."""
        h = _hist(inner)
        dists = sorted((_hist_distance(h, ph), label) for label, ph in self.piece_hist.items())
        if dists and dists[0][0] < MATCH:
            d, label = dists[0]
            margin = (dists[1][0] - d) / MATCH if len(dists) > 1 else 1.0
            return label, float(np.clip(1.0 - 0.5 * d / MATCH, 0.5, 1.0) * np.clip(0.5 + margin, 0.5, 1.0) ** 0.5)
        if self.other_label:
            d = dists[0][0] if dists else 1.0
            return self.other_label, float(np.clip(0.5 + (d - MATCH) * 2.0, 0.5, 0.95))
        return (dists[0][1] if dists else "empty"), 0.3

    def _unseen(self, inner: np.ndarray) -> tuple[str, float]:
        """A space whose empty look is unknown (something stood on it whenever the board
        was learned: a resumed game's pieces and tokens): a piece, or a token seen on
        the table before, if it matches one, else empty."""
        h = _hist(inner)
        looks = {**self.piece_hist, **({self.other_label: self.other_hist} if self.other_hist is not None else {})}
        dists = sorted((_hist_distance(h, ph), label) for label, ph in looks.items())
        if dists and dists[0][0] < MATCH:
            return dists[0][1], float(1.0 - 0.5 * dists[0][0] / MATCH)
        if set(self.pieces) - self.learned:
            return "empty", UNKNOWN_PIECE  # a piece whose look is unknown may stand there
        return "empty", UNSEEN_EMPTY


PX_PER_UNIT = 0.5  # plane pixels per board unit (mm)
SPACE_RADIUS = 16.0  # board units


class SmbSpaceReader(SpaceReader):
    """The reader for one World board of the Super Mario Bros. board game: labels
    "empty", "mario" and "hazard" on each of its spaces (ids as in the board file)."""

    def __init__(self, world: Mapping, colours=None, scale: float = PX_PER_UNIT):
        """`world`: one World's plain board data (controller/games/smb/board.world_data),
        handed in by the referee's side: vision opens no game file."""
        data = world
        w, h = data["size"]
        points = {s["id"]: (s["at"][0] * scale, s["at"][1] * scale) for s in data["spaces"]}
        super().__init__(points, (round(w * scale), round(h * scale)), SPACE_RADIUS * scale,
                         pieces=("mario",), other_label="hazard", colours=(colours or ())[:1])
        self.world = data["world"]
        self.markers = tuple(data.get("markers", ()))
