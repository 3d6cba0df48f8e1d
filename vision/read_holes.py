"""The Connect 4 reader: what is in each of the 42 holes, and how sure that is.

The plane is the rectangle that just encloses the holes, PITCH pixels per hole; given
corners are the centres of the four corner holes (bottom-left, bottom-right, top-right,
top-left), marker inner corners are the corners of that rectangle.

Each hole is summed up by the median colour of its middle (a sticker or the moulded
ring of a chip does not move a median) and by the mean of a thin ring of frame plastic
around it. The ring is what makes the reading hold under changing light: the ratio of
the ring's brightness now to its brightness when the grid was learned is the local light
level, and the hole's colour is divided by it before it is compared.

A hole is compared, in CIE Lab with lightness counting half, with:
- what that very hole looked like when the grid was empty (learned at game start), so
  a wall, a curtain or a green sweater that was there from the start reads as empty;
- the chip colours from config (Mario red and green by default), or the chips' own
  colours when the start position holds chips;
- the blocker: the frame's own blue unless config gives a blocker colour.
The confidence is the best match's share of all matches plus an "unlike anything" term,
so a hole that resembles nothing (a hand, a shadow) is unsure rather than wrong.

What shows through an empty hole can change during a game (a person walks behind the
grid). A chip arrives in one hole per turn and rests on something; when holes read empty
before turn chip-coloured together, as a patch over neighbouring columns that hangs over
empty holes or holds three or more holes, that is taken to be something behind the grid,
and those holes get a low confidence: the referee waits on unsure cells instead of
sounding a false alarm. (A chip-coloured backdrop behind just one or two holes that rest
on chips would still be read as chips.)
"""
from __future__ import annotations

import cv2
import numpy as np

from .reader import Reader

COLS, ROWS = 7, 6
PITCH = 24
DEFAULT_COLOURS = ("#d22328", "#1e9e3c")
LIGHTNESS_WEIGHT = 0.5
SIGMA_CHIP = 14.0  # Lab units: config colours are nominal, a camera is not
SIGMA_EMPTY = 9.0  # plus the hole's own learned spread
UNLIKE = float(np.exp(-0.5 * 3.0 ** 2))  # the score of "nothing matches within 3 sigma"
UNLEARNED_EMPTY = float(np.exp(-0.5 * 2.5 ** 2))  # empty, when the empty look is unknown
NEIGHBOUR_DOUBT = 0.3


def hex_bgr(colour) -> np.ndarray:
    if isinstance(colour, str):
        c = colour.strip().lstrip("#")
        if len(c) != 6:
            raise ValueError(f"colour {colour!r}: expected '#rrggbb'")
        return np.float32([int(c[4:6], 16), int(c[2:4], 16), int(c[0:2], 16)])
    return np.float32(colour)


def lab(bgr: np.ndarray) -> np.ndarray:
    """BGR (any shape ...x3, 0-255 floats) -> Lab with L 0-100."""
    arr = np.clip(np.float32(bgr).reshape(-1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(arr, cv2.COLOR_BGR2Lab).reshape(np.shape(bgr))


def _distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = a - b
    d[..., 0] *= LIGHTNESS_WEIGHT
    return np.sqrt((d ** 2).sum(-1))


class HoleReader(Reader):
    """Reader for a Connect 4 grid (the interface is described in vision/watch.py)."""

    labels = ("empty", "p0", "p1", "blocker")

    def __init__(self, colours=None):
        colours = list(colours or DEFAULT_COLOURS)
        self.plane_size = (COLS * PITCH, ROWS * PITCH)
        self.cells = [(c, r) for c in range(COLS) for r in range(ROWS)]
        half = PITCH / 2
        w, h = self.plane_size
        # given corners: the centres of the corner holes, BL, BR, TR, TL
        self.anchors = np.float32([[half, h - half], [w - half, h - half], [w - half, half], [half, half]])
        self.chip_lab = lab(np.stack([hex_bgr(c) for c in colours[:2]]))
        self.blocker_lab = lab(hex_bgr(colours[2])) if len(colours) > 2 else None
        self._index(w, h)
        self.empty_lab: np.ndarray | None = None
        self.empty_spread: np.ndarray | None = None
        self.ring_grey: np.ndarray | None = None
        self.frame_lab: np.ndarray | None = None
        self.settled: dict = {}  # cell -> last label read surely

    def _index(self, w: int, h: int) -> None:
        ys, xs = np.mgrid[0:h, 0:w]
        centres = [((c + 0.5) * PITCH, (ROWS - r - 0.5) * PITCH) for c, r in self.cells]
        disk, ring = [], []
        plastic = np.ones((h, w), bool)
        for cx, cy in centres:
            x0, x1 = int(cx - PITCH / 2), int(cx + PITCH / 2)
            y0, y1 = int(cy - PITCH / 2), int(cy + PITCH / 2)
            d = np.hypot(xs[y0:y1, x0:x1] + 0.5 - cx, ys[y0:y1, x0:x1] + 0.5 - cy)
            flat = (ys[y0:y1, x0:x1] * w + xs[y0:y1, x0:x1])
            disk.append(flat[d <= 0.27 * PITCH])
            ring.append(flat[(d >= 0.44 * PITCH) & (d <= 0.5 * PITCH)])
            plastic[y0:y1, x0:x1] &= d > 0.58 * PITCH  # between four holes, clear of their edges
        n_disk, n_ring = min(map(len, disk)), min(map(len, ring))
        self._disk = np.stack([d[:n_disk] for d in disk])
        self._ring = np.stack([r[:n_ring] for r in ring])
        # where nothing ever changes during play: the watcher's "hand over the board"
        # check; the plane's rim is left out (markers may overlap its corners)
        rim = int(0.3 * PITCH)
        plastic[:rim], plastic[-rim:], plastic[:, :rim], plastic[:, -rim:] = False, False, False, False
        self.static_mask = plastic

    # --- measuring -------------------------------------------------------------------
    def _measure(self, plane: np.ndarray):
        flat = plane.reshape(-1, 3)
        disk = np.median(flat[self._disk], axis=1).astype(np.float32)  # (42, 3)
        ring = flat[self._ring].astype(np.float32).mean(axis=1)  # (42, 3)
        return disk, ring

    def _light(self, ring: np.ndarray) -> np.ndarray:
        """Each hole's light now relative to when the grid was learned."""
        if self.ring_grey is None:
            return np.ones(len(self.cells), np.float32)
        grey = ring.mean(axis=1)
        k = grey / np.maximum(self.ring_grey, 1.0)
        # a hand or shadow over a few rings should not relight the hole: keep each hole
        # near the grid-wide level
        med = float(np.median(k))
        return np.clip(k, med * 0.8, med * 1.25).astype(np.float32)

    # --- the reader interface ------------------------------------------------------
    def learn(self, plane: np.ndarray, expected: dict) -> None:
        """The grid as it stands at game start: learn each empty hole's look, the frame's
        colour and light, and chip colours from chips already in place (if any)."""
        disk, ring = self._measure(plane)
        self.ring_grey = ring.mean(axis=1)
        self.frame_lab = lab(np.median(ring, axis=0))
        looks = lab(disk)
        empty = np.array([expected.get(c) == "empty" for c in self.cells])
        if self.empty_lab is None:
            self.empty_lab = np.full_like(looks, np.nan)
            self.empty_spread = np.zeros(len(self.cells), np.float32)
        self.empty_lab[empty] = looks[empty]
        flat = plane.reshape(-1, 3).astype(np.float32)
        spread = lab(flat[self._disk]).std(axis=1)  # texture inside each hole
        self.empty_spread[empty] = _norm_spread(spread[empty])
        for k, label in enumerate(("p0", "p1")):
            mine = np.array([expected.get(c) == label for c in self.cells])
            if mine.any():
                self.chip_lab[k] = np.median(looks[mine], axis=0)
        self.settled = {c: expected.get(c, "empty") for c in self.cells}

    def read(self, plane: np.ndarray) -> dict:
        """cell -> (label, confidence) for every hole."""
        disk, ring = self._measure(plane)
        looks = lab(disk / self._light(ring)[:, None])
        scores = np.empty((len(self.cells), 4), np.float64)
        if self.empty_lab is not None:
            sigma = SIGMA_EMPTY + self.empty_spread
            d = _distance(looks, self.empty_lab)
            scores[:, 0] = np.where(np.isnan(d), UNLEARNED_EMPTY, np.exp(-0.5 * (np.nan_to_num(d) / sigma) ** 2))
        else:
            scores[:, 0] = UNLEARNED_EMPTY
        for k in range(2):
            scores[:, 1 + k] = np.exp(-0.5 * (_distance(looks, self.chip_lab[k]) / SIGMA_CHIP) ** 2)
        blocker = self.blocker_lab if self.blocker_lab is not None else self.frame_lab
        if blocker is None:  # unlearned and not configured: the usual blue
            blocker = lab(np.float32([200, 110, 35]))
        scores[:, 3] = np.exp(-0.5 * (_distance(looks, blocker) / SIGMA_CHIP) ** 2)
        best = scores.argmax(axis=1)
        conf = scores.max(axis=1) / (scores.sum(axis=1) + UNLIKE)
        out = {c: (self.labels[b], float(p)) for c, b, p in zip(self.cells, best, conf)}
        self._doubt_behind(out)
        self._remember(out, looks)
        return out

    def _doubt_behind(self, out: dict) -> None:
        """Lower the confidence of chip-coloured holes that appeared, where the grid was
        read empty before, as a patch over neighbouring columns that hangs over empty
        holes or holds three or more: chips arrive one per turn and never hang in the
        air in a group, a sweater behind the grid does (module docstring). One floating
        chip, or two chips dropped at once, stay sure: those are illegal moves the
        referee must report."""
        fresh = {c for c, (label, _) in out.items()
                 if label in ("p0", "p1") and self.settled.get(c) == "empty"}
        while fresh:
            patch, todo = set(), [fresh.pop()]
            while todo:
                c = todo.pop()
                patch.add(c)
                near = {d for d in fresh if abs(c[0] - d[0]) <= 1 and abs(c[1] - d[1]) <= 1}
                fresh -= near
                todo += near
            columns = {c[0] for c in patch}
            hangs = any(r > 0 and out[(c, r - 1)][0] == "empty" for c, r in patch)
            if len(columns) > 1 and (hangs or len(patch) >= 3):
                for c in patch:
                    out[c] = (out[c][0], out[c][1] * NEIGHBOUR_DOUBT)

    def _remember(self, out: dict, looks: np.ndarray) -> None:
        for k, c in enumerate(self.cells):
            label, p = out[c]
            if p >= 0.8:
                self.settled[c] = label
            # what shows through an empty hole drifts (light behind the grid): follow it
            if label == "empty" and p >= 0.9 and self.empty_lab is not None and not np.isnan(self.empty_lab[k, 0]):
                self.empty_lab[k] = 0.7 * self.empty_lab[k] + 0.3 * looks[k]


def _norm_spread(spread: np.ndarray) -> np.ndarray:
    """A hole's texture (Lab std, L weighted as in distances) as extra tolerance."""
    s = spread.copy()
    s[:, 0] *= LIGHTNESS_WEIGHT
    return np.sqrt((s ** 2).sum(-1)).astype(np.float32)
