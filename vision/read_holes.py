"""The Connect 4 reader: what is in each of the 42 holes, and how sure that is.

The plane is the rectangle that just encloses the holes, PITCH pixels per hole; given
corners are the centres of the four corner holes (bottom-left, bottom-right, top-right,
top-left), marker inner corners are the corners of that rectangle.

Each hole is summed up by the median colour of its middle (a sticker or the moulded
ring of a chip does not move a median) and by the mean of a thin ring of frame plastic
around it. The ring is what makes the reading hold under changing light: the ratio of
the ring's brightness to a reference (its brightness when the grid was first learned,
else the photo's median ring) is the local light level, and the hole's colour is divided
by it before it is compared.

A hole is compared, in CIE Lab with lightness counting half, with looks of each label:
- empty: what that very hole looked like when it was last known empty (learned from
  every accepted position), so a wall, a curtain or a green sweater that was there from
  the start reads as empty. A hole never seen empty compares with what this photo shows
  for sure through its other holes (colourless, or of no chip's hue) and with the grid's
  own plastic (a hole seen at an angle shows its own wall);
- the chips: their learned looks once chips have been seen in known positions, and in
  any case this photo's own clear chips: holes whose hue is near a configured colour and
  strongly coloured (for their lightness, or for a dull camera against the photo's most
  coloured holes), when the rules vouch for them (`_photo_chips`). The configured colours ("#e86a2c", ...) only
  say which hue is which player: a dim photo shows an orange chip as brown, and it is
  found as the photo's brown cluster, not by its distance to bright orange;
- the blocker: the configured third colour, else the frame's own blue, but only for a
  hole whose empty look is known (unknown, a blue hole is the hole's own wall).
The scores become per-hole probabilities, and gravity is applied as a prior over each
column (`_gravity`): a chip rests on a chip, a blocker or the bottom row; a blocker may
sit anywhere. The prior is soft: a chip clearly seen hanging over an empty hole is still
reported (the referee calls that illegal), but a weak reading that gravity contradicts
loses, and every hole's confidence is its probability under the prior, so a hole that
resembles nothing (a hand, a shadow) or that sits on doubt is unsure rather than wrong.

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
SIGMA_SEEN = 8.0  # a look seen on this grid (learned, or this photo's own clear holes)
SIGMA_EMPTY = 9.0  # plus the hole's own learned spread
UNLIKE = float(np.exp(-0.5 * 3.0 ** 2))  # the score of "nothing matches within 3 sigma"
UNLEARNED_EMPTY = float(np.exp(-0.5 * 2.5 ** 2))  # empty, when nothing tells what empty looks like
NEIGHBOUR_DOUBT = 0.3
BALANCE = 2  # the two players' chips differ by this many at most (a turn may go to a blocker)
# A photo's clear chip: hue within SEED_HUE of a configured colour and chroma at least
# SEED_SATURATION of its lightness (lightness floored at DARK: a near-black hole's hue is
# noise). A photo's clear empty: chroma under CLEAR_SATURATION of its lightness, or a
# hue at least CLEAR_HUE from every chip's.
SEED_HUE, SEED_SATURATION = np.radians(30.0), 0.45
CLEAR_HUE, CLEAR_SATURATION = np.radians(50.0), 0.15
DARK = 30.0
SEED_FLOOR, RELATIVE_SEED = 0.2, 0.6  # a dull camera's chips: see _photo_chips
FLOATING = float(np.exp(-3.0))  # gravity's prior odds against a chip over an empty hole
LEARN_RATE = 0.5  # how much a newly known position moves a learned look


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


def _nearest(looks: np.ndarray, refs: list[tuple[np.ndarray, float]]) -> np.ndarray:
    """Each look's distance, in sigmas, to the nearest of some reference looks (each
    with its own sigma); inf when there are none."""
    z = np.full(len(looks), np.inf)
    for ref, sigma in refs:
        if len(ref):
            z = np.minimum(z, _distance(looks[:, None, :], ref[None, :, :]).min(axis=1) / sigma)
    return z


def _hue_gap(looks: np.ndarray, hues: np.ndarray) -> np.ndarray:
    """(n, k) angle between each look's hue and each of k reference hues (radians)."""
    h = np.arctan2(looks[:, 2], looks[:, 1])
    return np.abs((h[:, None] - hues[None, :] + np.pi) % (2 * np.pi) - np.pi)


class HoleReader(Reader):
    """Reader for a Connect 4 grid (the interface is described in vision/watch.py)."""

    labels = ("empty", "p0", "p1", "blocker")
    grid = (COLS, ROWS)
    measures_change = True  # each hole against its look at the known position (`change`)

    def grid_place(self, cell):
        return cell[0], ROWS - 1 - cell[1]  # row 0 is the bottom row

    def __init__(self, colours=None):
        colours = list(colours or DEFAULT_COLOURS)
        self.plane_size = (COLS * PITCH, ROWS * PITCH)
        self.cells = [(c, r) for c in range(COLS) for r in range(ROWS)]
        half = PITCH / 2
        w, h = self.plane_size
        # given corners: the centres of the corner holes, BL, BR, TR, TL
        self.anchors = np.float32([[half, h - half], [w - half, h - half], [w - half, half], [half, half]])
        self.chip_config = lab(np.stack([hex_bgr(c) for c in colours[:2]]))
        self.chip_hue = np.arctan2(self.chip_config[:, 2], self.chip_config[:, 1])
        self.chip_lab: list = [None, None]  # learned looks of each player's chips
        self.blocker_lab = lab(hex_bgr(colours[2])) if len(colours) > 2 else None
        self._index(w, h)
        self.empty_lab: np.ndarray | None = None  # per hole, NaN until seen empty
        self.empty_spread: np.ndarray | None = None
        self.ring_grey: np.ndarray | None = None  # the light when first learned
        self.frame_lab: np.ndarray | None = None
        self.settled: dict = {}  # cell -> last label read surely

    def _index(self, w: int, h: int) -> None:
        ys, xs = np.mgrid[0:h, 0:w]
        centres = [((c + 0.5) * PITCH, (ROWS - r - 0.5) * PITCH) for c, r in self.cells]
        disk, ring, square = [], [], []
        plastic = np.ones((h, w), bool)
        for cx, cy in centres:
            x0, x1 = int(cx - PITCH / 2), int(cx + PITCH / 2)
            y0, y1 = int(cy - PITCH / 2), int(cy + PITCH / 2)
            d = np.hypot(xs[y0:y1, x0:x1] + 0.5 - cx, ys[y0:y1, x0:x1] + 0.5 - cy)
            flat = (ys[y0:y1, x0:x1] * w + xs[y0:y1, x0:x1])
            disk.append(flat[d <= 0.27 * PITCH])
            ring.append(flat[(d >= 0.44 * PITCH) & (d <= 0.5 * PITCH)])
            square.append(flat.ravel())
            plastic[y0:y1, x0:x1] &= d > 0.58 * PITCH  # between four holes, clear of their edges
        n_disk, n_ring = min(map(len, disk)), min(map(len, ring))
        self._disk = np.stack([d[:n_disk] for d in disk])
        self._ring = np.stack([r[:n_ring] for r in ring])
        self._square = np.stack(square)  # the hole and the plastic right around it
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
        """Each hole's light relative to the reference (module docstring)."""
        grey = ring.mean(axis=1)
        ref = self.ring_grey if self.ring_grey is not None else np.full_like(grey, np.median(grey))
        k = grey / np.maximum(ref, 1.0)
        # a hand or shadow over a few rings should not relight the hole: keep each hole
        # near the grid-wide level
        med = float(np.median(k))
        return np.clip(k, med * 0.8, med * 1.25).astype(np.float32)

    def _looks(self, plane: np.ndarray):
        disk, ring = self._measure(plane)
        return lab(disk / self._light(ring)[:, None]), ring

    # --- the reader interface ------------------------------------------------------
    def learn(self, plane: np.ndarray, expected: dict) -> None:
        """The grid holds `expected` now (game start, and after every accepted position):
        blend each empty hole's look, each player's chip look, the frame's colour into
        what was learned before. A look no hole shows now is kept as it was."""
        first = self.ring_grey is None
        if first:  # the light now is the reference every later look is divided by
            self.ring_grey = self._measure(plane)[1].mean(axis=1)
            self.empty_lab = np.full((len(self.cells), 3), np.nan, np.float32)
            self.empty_spread = np.zeros(len(self.cells), np.float32)
        looks, ring = self._looks(plane)
        frame = lab(np.median(ring / self._light(ring)[:, None], axis=0))
        self.frame_lab = frame if first else _blend(self.frame_lab, frame)
        empty = np.array([expected.get(c) == "empty" for c in self.cells])
        known = ~np.isnan(self.empty_lab[:, 0])
        fresh, again = empty & ~known, empty & known
        self.empty_lab[fresh] = looks[fresh]
        self.empty_lab[again] = _blend(self.empty_lab[again], looks[again])
        flat = plane.reshape(-1, 3).astype(np.float32)
        spread = _norm_spread(lab(flat[self._disk]).std(axis=1))  # texture inside each hole
        self.empty_spread[fresh] = spread[fresh]
        self.empty_spread[again] = _blend(self.empty_spread[again], spread[again])
        for k, label in enumerate(("p0", "p1")):
            mine = np.array([expected.get(c) == label for c in self.cells])
            if mine.any():
                seen = np.median(looks[mine], axis=0)
                self.chip_lab[k] = seen if self.chip_lab[k] is None else _blend(self.chip_lab[k], seen)
        self.settled = {c: expected.get(c, "empty") for c in self.cells}

    def read(self, plane: np.ndarray) -> dict:
        """cell -> (label, confidence) for every hole."""
        looks, ring = self._looks(plane)
        scores = self._scores(looks, ring)
        probs = np.column_stack([scores, np.full(len(scores), UNLIKE)])
        probs = _gravity(probs / probs.sum(axis=1, keepdims=True))
        best = probs[:, :4].argmax(axis=1)
        out = {c: (self.labels[b], float(probs[k, b])) for k, (c, b) in enumerate(zip(self.cells, best))}
        self._balance(out, probs)
        self._doubt_behind(out)
        self._remember(out, looks)
        return out

    def _scores(self, looks: np.ndarray, ring: np.ndarray) -> np.ndarray:
        """(42, 4) likelihood-like scores of empty, p0, p1, blocker for each hole."""
        scores = np.zeros((len(self.cells), 4))
        known = np.zeros(len(self.cells), bool)
        if self.empty_lab is not None:
            known = ~np.isnan(self.empty_lab[:, 0])
            d = _distance(looks, np.nan_to_num(self.empty_lab)) / (SIGMA_EMPTY + self.empty_spread)
            scores[:, 0] = np.where(known, np.exp(-0.5 * d ** 2), 0.0)
        lightness = np.maximum(looks[:, 0], DARK)
        saturation = np.hypot(looks[:, 1], looks[:, 2]) / lightness
        gap = _hue_gap(looks, self.chip_hue)
        hued = (gap < SEED_HUE) & (gap == gap.min(axis=1, keepdims=True))  # one player at most
        hued &= ~(known & (scores[:, 0] > UNLEARNED_EMPTY))[:, None]  # not a hole's own empty look
        seeds = _photo_chips(hued, saturation, self.cells)
        for k in range(2):
            refs = [(looks[seeds[:, k]], SIGMA_SEEN)]
            if self.chip_lab[k] is not None:
                refs.append((self.chip_lab[k][None], SIGMA_SEEN))
            else:  # the configured colour, until chips have been seen in known positions
                refs.append((self.chip_config[k][None], SIGMA_CHIP))
            scores[:, 1 + k] = np.exp(-0.5 * _nearest(looks, refs) ** 2)
        # empty: the hole's own look when known, else what this photo shows for sure
        # through other holes, and the grid's own plastic
        clear = (saturation < CLEAR_SATURATION) | (gap > CLEAR_HUE).all(axis=1)
        plastic = lab(np.median(ring / self._light(ring)[:, None], axis=0))[None]
        cold = np.exp(-0.5 * _nearest(looks, [(looks[clear & ~seeds.any(axis=1)], SIGMA_SEEN),
                                              (plastic, SIGMA_EMPTY)]) ** 2)
        scores[:, 0] = np.where(known, scores[:, 0], np.maximum(cold, UNLEARNED_EMPTY))
        # the blocker: configured, else the frame's blue where a hole's empty look is known
        blocker = self.blocker_lab if self.blocker_lab is not None else self.frame_lab
        if blocker is not None:
            b = np.exp(-0.5 * (_distance(looks, blocker) / SIGMA_CHIP) ** 2)
            scores[:, 3] = b if self.blocker_lab is not None else np.where(known, b, 0.0)
        return scores

    def change(self, plane: np.ndarray, reference: np.ndarray) -> dict:
        """cell -> how much the hole and the plastic right around it changed since
        `reference` (the plane of the last accepted view), in units of a chip's spread
        of looks, the light on each hole divided out (a lamp switched on changes little,
        a chip dropped in changes its hole a lot; a chip seen from the side also covers
        the plastic around its hole). This is the reader's `Reader.change`: 1 is about the
        least a chip arriving or leaving makes (a chip makes about 6, an unchanged hole
        about 0.1 on the renders); vision/change.py judges it against the board's noise
        and the referee ranks the moves by it, as for chess."""
        now, ring_now = self._measure(plane)
        then, ring_then = self._measure(reference)
        k_now, k_then = self._light(ring_now), self._light(ring_then)
        hole = _distance(lab(now / k_now[:, None]), lab(then / k_then[:, None]))
        flat_now = plane.reshape(-1, 3)[self._square].astype(np.float32) / k_now[:, None, None]
        flat_then = reference.reshape(-1, 3)[self._square].astype(np.float32) / k_then[:, None, None]
        around = _distance(lab(flat_now), lab(flat_then)).mean(axis=1)
        score = (hole + around) / (2 * SIGMA_SEEN)
        return {c: float(v) for c, v in zip(self.cells, score)}

    def _balance(self, out: dict, probs: np.ndarray) -> None:
        """The rules' prior on the whole grid: a chip per turn, a turn spent on a blocker
        now and then, so the two players' chips differ by BALANCE at most. A reading with
        more (a grey wall through the holes, tinted by the camera, read as one player's
        chips) is brought back within it by the cheapest changes: a top chip of the side
        with too many read empty, or a hole of the other side's colour that rests on
        something read as its chip, whichever its own probabilities favour more. Changed
        holes are unsure."""
        n = {side: sum(label == side for label, _ in out.values()) for side in ("p0", "p1")}
        while abs(n["p0"] - n["p1"]) > BALANCE:
            many, few = ("p0", "p1") if n["p0"] > n["p1"] else ("p1", "p0")
            km, kf = self.labels.index(many), self.labels.index(few)
            options = []
            for k, (col, row) in enumerate(self.cells):
                label = out[(col, row)][0]
                above = out[(col, row + 1)][0] if row + 1 < ROWS else "empty"
                below = out[(col, row - 1)][0] if row else "floor"
                if label == many and above not in ("p0", "p1"):
                    options.append((probs[k, 0] / max(probs[k, km], 1e-9), (col, row), "empty"))
                elif label == "empty" and below != "empty":
                    options.append((probs[k, kf] / max(probs[k, 0], 1e-9), (col, row), few))
            if not options:
                return
            _, cell, label = max(options)
            n[out[cell][0]] = n.get(out[cell][0], 0) - 1
            n[label] = n.get(label, 0) + 1
            out[cell] = (label, 0.5)

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


# gravity's chain: each hole is empty, a chip that rests on something, blocker, unlike
# anything (a hand: it may rest on or hold anything), or a chip over an empty hole or
# over such a chip
_STATES = 7  # empty, p0, p1, blocker, unlike, p0 floating, p1 floating
_LABEL_OF_STATE = [0, 1, 2, 3, 4, 1, 2]
_STEP = np.zeros((_STATES, _STATES))
_STEP[:, [0, 3, 4]] = 1.0  # anything may lie under an empty hole, a blocker, a hand
_STEP[np.ix_([1, 2, 3, 4], [1, 2])] = 1.0  # a chip rests on a chip, a blocker, a hand
_STEP[np.ix_([0, 5, 6], [5, 6])] = FLOATING  # a chip over a gap, or over a floating chip


def _gravity(probs: np.ndarray) -> np.ndarray:
    """Each hole's label probabilities under gravity's prior. `probs` is 42 x [empty, p0,
    p1, blocker, unlike anything], holes column by column from the bottom. Every chip
    that hangs (over an empty hole, or over hanging chips) costs the odds FLOATING: one
    chip dropped where it cannot stay is still read (the referee calls it illegal), but
    a stack of chips over a hole that reads empty makes that hole unsure, not empty.
    Returns the exact marginals (forward-backward over each column's chain of six
    holes, all columns at once)."""
    p = probs[:, _LABEL_OF_STATE].reshape(COLS, ROWS, _STATES)
    fwd, back = np.empty_like(p), np.ones_like(p)
    fwd[:, 0] = p[:, 0] * (np.arange(_STATES) < 5)  # the floor holds the bottom row
    for r in range(1, ROWS):
        f = p[:, r] * (fwd[:, r - 1] @ _STEP)
        fwd[:, r] = f / np.maximum(f.sum(axis=1, keepdims=True), 1e-300)
    for r in range(ROWS - 2, -1, -1):
        b = (p[:, r + 1] * back[:, r + 1]) @ _STEP.T
        back[:, r] = b / np.maximum(b.sum(axis=1, keepdims=True), 1e-300)
    m = (fwd * back).reshape(len(probs), _STATES)
    m = m / np.maximum(m.sum(axis=1, keepdims=True), 1e-300)
    out = m[:, :5].copy()
    out[:, 1:3] += m[:, 5:]
    return out


def _photo_chips(hued: np.ndarray, saturation: np.ndarray, cells: list) -> np.ndarray:
    """This photo's clear chips, (42, 2): holes of each player's hue whose colour is
    strong, either for their lightness (SEED_SATURATION) or, for a dull camera, against
    the photo's most coloured holes of that hue. Only those standing on each other or on
    the bottom row are kept, and only when the rules' prior vouches for them: about as
    many of one player's as of the other's (give or take two). A wall of one tint
    behind the grid, or a colour cast on it, fails that test; then only the strongly
    coloured holes are tried, and then none."""
    strong = hued & (saturation[:, None] >= SEED_SATURATION)
    dull = np.zeros_like(hued)
    for k in range(2):
        s = np.sort(saturation[hued[:, k]])
        if len(s):
            top = s[-2] if len(s) >= 2 else s[-1]
            dull[:, k] = hued[:, k] & (saturation >= max(SEED_FLOOR, RELATIVE_SEED * top))
    for chips in (strong | dull, strong):
        chips = _standing(chips, cells)
        n = chips.sum(axis=0)
        if abs(int(n[0]) - int(n[1])) <= BALANCE:
            return chips
    return np.zeros_like(hued)


def _standing(chips: np.ndarray, cells: list) -> np.ndarray:
    """Only the candidate chips that stand on the bottom row or on other candidates."""
    chips = chips.copy()
    held = chips.any(axis=1)
    for k, (c, r) in enumerate(cells):  # column by column, from the bottom
        if r > 0 and not held[k - 1]:
            held[k] = False
    chips[~held] = False
    return chips


def _blend(old, new):
    return (1 - LEARN_RATE) * old + LEARN_RATE * new


def _norm_spread(spread: np.ndarray) -> np.ndarray:
    """A hole's texture (Lab std, L weighted as in distances) as extra tolerance."""
    s = spread.copy()
    s[:, 0] *= LIGHTNESS_WEIGHT
    return np.sqrt((s ** 2).sum(-1)).astype(np.float32)
