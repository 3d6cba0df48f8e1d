"""Per-cell change against the last known position: what each label would make of it.

Between two still views only the cells a move touches change. A reader's labels come
from looks learned at some moment (a tinted overlay, a lamp, a set nobody drew here can
make them wrong); whether a cell still looks like *that same cell* did when the board was
last known does not depend on any of that. So each time the referee knows the position,
the plane is kept as the reference (`reference`), and every later still plane gets, per
cell, how likely its difference from the reference is under each label the cell might
hold now (`evidence`). Nothing here decides: the referee weighs these against what each
candidate history puts there (controller/evidence.py).

A cell's difference from its reference is measured in units of this view's own noise:
the median difference of the cells whose reference holds the same kind of thing (pieces,
or empty squares: on real boards pieces are nudged, compressed and lit differently from
move to move, empty squares much less), for most cells of any view do not change. In
those units (logarithms, x = 0 at the noise level or below):
- a cell that holds what it held looks as it did (x spread as this board's cells are
  spread), or now and then (NUDGE) a little moved: a piece nudged off its centre, a
  shadow, glare;
- a cell whose label changed differs by about the step this kind of change makes on
  this table: each time a new position is known, the cells that changed since the last
  one teach it, per kind of change (which two labels, and on squares which colour of
  square). A dark pawn leaving a dark walnut square changes its disk little (about the
  noise), a dark piece arriving on a cream square a lot (fifty times): after a few moves
  the first says almost nothing either way and the labels decide, where a single global
  step would have called the walnut pawn "unchanged" for sure.

Before any of that the plane is laid back on its reference (`_aligned`): a camera or
table nudged a pixel or two, or a photo taken again, while the corners stay where they
were clicked, shifts the picture on the plane, and the grain of a wooden square shifted
two pixels differs from itself several times more than a dark piece leaving a dark
square (a tall walnut set from a low side: followed 9 of 97 plies unshifted, 97 of 97
shifted back). The shift is OpenCV's phase correlation over the whole plane, most of
which is the same board, kept only when clear and a few pixels at most.

A cell's patch is where its piece stands as the camera sees it: the reader's sampling
disk, which follows the lean of a standing piece away from the camera (see
vision/read_squares.py `view_from`). The patch difference is the mean over the disk of the
summed per-channel absolute difference, after the light's drift since that cell's
reference was seen (per channel, the median over the board then and now: most cells do
not change) is divided out. The cell's own empty look is kept too, from every known
position where it was empty, and weighed the same way: a vacated square looks like its
own empty self again, even behind a tall piece.

What each cell's look shows is weighed by how well it is seen (`weights`): a cell behind
the pieces standing nearer the camera less (the reader's `visible`), and a cell under
something that moves (a hand at the board's edge while the rest is still) or under a
hand at rest (vision/cover.py) not at all (0, from the watcher's mask): a hand over a
cell says nothing of it.

A standing piece also hides part of the square behind it (away from the camera).
`camera(H, size)` works out, per cell, the square in front of it (towards the camera)
and a first guess of how often a piece coming or going there changes the cell's look:
from its lean, the height of a tall piece times the cell's distance from the camera's
foot over the camera's height. That guess is only geometry (a pawn is shorter than a
king, the lens is not where a cropped frame says): every known position then tells, for
each cell whose front square filled or emptied while its own label stayed, whether its
look changed, and `fronts` gives the share learned on this table (a `Front`). A cell
whose front square has not yet filled or emptied learns nothing itself, yet its like
cells may have: the cells on the same line across the lean (as far from the camera
along it, each with its front square the same way: from a player's side, a rank and the
rank in front of it) stand at a like height in the picture, and in a game set up in
rows they hide behind like pieces (the pawns in front of a back rank). So each cell's
share is learned in two steps (`_share`): its line's, from what the line's other cells
showed, with the geometric guess counting as PRIOR looks; then its own, from what it
showed, with its line's share counting as PRIOR looks. Where nothing was learned the
guess stands; a rook behind a pawn that never moved expects to look as little changed
when the pawn goes as the pieces beside it did when theirs went, not a king's
height's worth. The referee expects a cell to look changed by that share when the piece
in front of it came or went, and trusts its label less while one stands there.

Two kinds of reader get change evidence, as each declares (vision/reader.py). A reader of
the plane's 8x8 squares, each sampled on a disk (`Reader.squares`: the chess reader), is
measured here (`patches(reader)` is the one place that knows that geometry); every part
above about disks, square colours, empty looks, fronts, weights and motion masks is about
it. A reader that `measures_change` measures it itself (`Reader.change(plane,
reference)`: the Connect 4 reader compares each hole and the plastic right around it,
the light on it divided out); its values are weighed against this board's noise the
same way. Such a reader learns its own empty looks. The evidence per cell is a `Change`
(vision/view.py), what the view carries to the referee.
"""
from __future__ import annotations

import math
from typing import Hashable

import cv2
import numpy as np

from .view import Change, Front

FLOOR = 3.0  # summed-channel grey levels: the least noise level a board of squares is credited with
MEASURED_FLOOR = 0.1  # the same for a reader's own change measure (1: the least a piece makes)
MIN_GROUP = 6  # cells: fewer of a kind, and their noise is taken from all cells
SPREAD = (0.35, 1.0)  # the spread of an unchanged cell's log difference: at least, at most
STEP = math.log(12.0)  # before anything is learned: a change is about 12 times the noise
STEP_SPREAD = 0.9  # how much changes of one kind vary around their step (log)
STEP_PRIOR = 2.0  # the first guess of a step counts as this many changed cells seen
STEP_CAP = 40.0  # changed cells remembered at most per kind: the steps follow a table that changes
NUDGE = 0.03  # of the cells that keep what they hold, this share looks moved a little
NUDGE_SPREAD = 1.0  # (a nudged piece, a passing shadow, glare): about half a change, widely spread
LL_FLOOR = 12.0  # no label is more than this below the best, by one cell's change alone
MOVING_WEIGHT = 0.0  # the weight of a cell under motion: a hand there says nothing of it
VISIBLE_FLOOR = 0.25  # a cell hidden behind a piece still shows this much of itself
TALL = 1.0  # squares: about a queen's or king's height, the pieces that hide what is behind them
PRIOR = 2.0  # looks the geometric guess counts as in a line's hidden share, and that share in each cell's
HIDDEN_MAX = 0.9  # a piece in front never hides all of a cell
NUDGE_PX = 4.0  # pixels (at 40 a square) a plane may lie off its reference and still be shifted back
ALIGNED = 0.1  # phase correlation's peak below which the shift between plane and reference is unclear


def patches(reader):
    """(cells, q: a cell's side in pixels) for a reader of the plane's 8x8 squares
    (`Reader.squares`: cells in plane order, row 0 at the top, each sampled on a disk,
    `disks`, 8x8xqxq); None for any other reader."""
    if not reader.squares:
        return None
    return list(reader.cells), np.shape(reader.disks)[2]


class Steps:
    """How far each kind of change stands above the noise on this table (log units): a
    running mean per kind (the two labels, and on squares the square colour), starting
    from STEP as if STEP_PRIOR cells had shown it."""

    def __init__(self):
        self._seen: dict = {}  # kind -> [sum of log ratios, count]

    def mean(self, kind=None) -> float:
        """The step of one kind, or (None) of all kinds together."""
        if kind is None:
            total = [sum(v[0] for v in self._seen.values()), sum(v[1] for v in self._seen.values())]
        else:
            total = self._seen.get(kind, [0.0, 0.0])
        return (STEP_PRIOR * STEP + total[0]) / (STEP_PRIOR + total[1])

    def add(self, kind, x: float) -> None:
        seen = self._seen.setdefault(kind, [0.0, 0.0])
        if seen[1] >= STEP_CAP:  # keep following: old changes count less and less
            seen[0] *= (STEP_CAP - 1) / STEP_CAP
            seen[1] = STEP_CAP - 1
        seen[0] += x
        seen[1] += 1.0


class CellChange:
    """The last known plane and each cell's empty look, and the evidence against them."""

    def __init__(self, reader):
        self.reader = reader
        self.labels = tuple(reader.labels)
        n = len(reader.cells)
        self.ref: np.ndarray | None = None  # squares: (64, q, q, 3) float32 blocks of the last known plane; else the plane
        self.known = np.zeros(n, bool)  # cells whose reference was seen (not under a hand)
        self.board: dict | None = None  # the position the reference shows
        self.fronts: dict[Hashable, Front] = {}  # cell -> the cell in front of it, towards the camera
        self._hidden: dict = {}  # cell -> [looks changed, looks] learned when its front square filled or emptied
        self._guess: dict = {}  # cell -> the geometric first guess of its hidden share
        self._lines: dict = {}  # cell -> the cells on its line across the lean (itself included)
        self.empty: np.ndarray | None = None  # (64, q, q, 3), NaN where never seen empty
        self.ref_light = np.ones((n, 3))  # the light (per channel) each cell's reference was seen in
        self.empty_light = np.ones((n, 3))  # and each empty look
        self.steps = Steps()
        self._H: np.ndarray | None = None  # the homography the reference was taken through
        self._window: np.ndarray | None = None  # phase correlation's window, for the plane's size

    @property
    def squares(self) -> bool:
        """Are the reader's cells the plane's 8x8 squares, measured here (motion masks,
        fronts, empty looks)?"""
        return self.reader.squares

    @property
    def supported(self) -> bool:
        """Do this reader's views carry change evidence?"""
        return self.reader.squares or self.reader.measures_change

    def forget_position(self) -> None:
        """The players set up another game on this board: the last known position is
        gone until the next one is known; the empty looks and the steps learned on this
        table stay."""
        self.ref, self.board = None, None
        self.known[:] = False

    def turned(self, H: np.ndarray) -> None:
        """The camera turned on its mount and the board was found again through `H`
        (vision/watch.py `Watcher._moved`): a camera turning about itself maps every point,
        piece tops too, by one homography, so the reference and the empty looks, and where
        tall pieces lean, hold as they are."""
        self._H = H

    def camera(self, H: np.ndarray, frame_size) -> None:
        """Where the camera stands (frame -> plane homography `H`, frame (width, height)):
        for each cell, the neighbour between it and the camera and how far a tall piece
        there leans over it. A board found at another place (bumped, markers found
        again) makes the reference and the empty looks, which are planes warped through
        the old H, unusable until the next known position; the same place found again
        (H recomputed a pixel apart) keeps them."""
        if self._H is not None and same_place(self._H, H, self.reader.plane_size):
            return
        self._H = H
        self.ref, self.empty, self.board = None, None, None
        self.known[:] = False
        geo = patches(self.reader)
        if geo is None:
            return
        from .read_squares import camera_foot

        cells, q = geo
        foot, height = camera_foot(H, frame_size, q)
        self.fronts, self._hidden, self._guess, self._lines = {}, {}, {}, {}
        lines: dict = {}
        for k, cell in enumerate(cells):
            r, c = divmod(k, 8)
            towards = foot - (c + 0.5, r + 0.5)
            dist = float(np.linalg.norm(towards))
            if dist < 1.0:
                continue
            step = np.round(towards / dist * 1.2).astype(int)  # the nearest neighbour that way
            dc, dr = int(np.clip(step[0], -1, 1)), int(np.clip(step[1], -1, 1))
            fc, fr = c + dc, r + dr
            share = _hidden_share(TALL * dist / height)
            if 0 <= fc < 8 and 0 <= fr < 8 and (fc, fr) != (c, r) and share > 0:
                self._hidden[cell] = [0.0, 0.0]
                self._guess[cell] = share
                self.fronts[cell] = Front(cells[fr * 8 + fc], share)
                # the line across the lean: the same way to the front, as far along it
                lines.setdefault((dc, dr, dc * c + dr * r), []).append(cell)
        self._lines = {cell: line for line in lines.values() for cell in line}

    def _aligned(self, plane: np.ndarray, q: int) -> np.ndarray:
        """`plane` shifted onto the reference where the two lie a pixel or two apart (a
        table or camera nudged, a photo taken again; corners clicked once do not follow
        it): the grain of a wooden square moved by two pixels differs from itself as much
        as a dark piece leaving a dark square, so the change is measured after the shift
        that best lays the plane on its reference (phase correlation over the whole plane,
        most of which is the same board). Unshifted when the shift is unclear or larger
        than a few pixels (then it is no nudge)."""
        ref = self.ref.reshape(8, 8, q, q, 3).swapaxes(1, 2).reshape(8 * q, 8 * q, 3)
        a = cv2.cvtColor(np.clip(ref, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY).astype(np.float32)
        b = cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY).astype(np.float32)
        if self._window is None or self._window.shape != a.shape:
            self._window = cv2.createHanningWindow(a.shape[::-1], cv2.CV_32F)
        (dx, dy), response = cv2.phaseCorrelate(a, b, self._window)
        if response < ALIGNED or np.hypot(dx, dy) < 0.25 or np.hypot(dx, dy) > NUDGE_PX * q / 40:
            return plane
        back = np.float32([[1, 0, -dx], [0, 1, -dy]])
        return cv2.warpAffine(plane, back, plane.shape[1::-1], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def _blocks(self, plane: np.ndarray, q: int) -> np.ndarray:
        img = plane.astype(np.float32)
        return img.reshape(8, q, 8, q, 3).swapaxes(1, 2).reshape(64, q, q, 3)

    def _kind(self, k: int, a: str, b: str) -> tuple:
        """The kind of a change between labels `a` and `b` at cell index `k`: on squares, the
        colour of its square matters (a dark piece shows on a cream square, hardly on a
        dark one)."""
        return ((k // 8 + k % 8) % 2 if self.squares else None, frozenset((a, b)))

    # --- learning ----------------------------------------------------------------------
    def reference(self, plane: np.ndarray, board: dict, moving=None) -> None:
        """The board is known to hold `board` ({cell: label}) in `plane`: keep it as the
        reference (cells under motion keep their previous reference), remember the empty
        cells' looks, and learn from the cells that changed since the last reference how
        large each kind of change is on this table."""
        geo = patches(self.reader)
        if geo is None:
            if self.reader.measures_change and moving is None:
                if self.ref is not None and self.ref.shape == plane.shape and self.board is not None:
                    self._learn_steps(self._diffs(plane), board)
                self.board, self.ref = dict(board), plane.copy()
                self.known[:] = True
            return
        if plane.shape[:2] != (8 * geo[1], 8 * geo[1]):
            return
        cells, q = geo
        blocks = self._blocks(plane, q)
        keep = np.zeros(64, bool) if moving is None else np.asarray(moving).reshape(64)
        if self.ref is not None and self.board is not None:
            aligned = self._blocks(self._aligned(plane, q), q)
            diff = self._diff(aligned, _light(aligned))
            self._learn_steps(np.where(keep | ~self.known, np.nan, diff), board)
        # a cell under a hand keeps its reference, and the label that reference shows
        self.board = {c: (self.board or {}).get(c, board.get(c)) if k else board.get(c)
                      for c, k in zip(cells, keep)}
        self.ref = np.where(keep[:, None, None, None], self.ref, blocks) if self.ref is not None else blocks
        light = _light(blocks)
        self.ref_light[~keep] = light
        self.known |= ~keep
        if self.empty is None:
            self.empty = np.full_like(blocks, np.nan)
        empty = np.array([board.get(c) == "empty" for c in cells]) & ~keep
        self.empty[empty] = blocks[empty]
        self.empty_light[empty] = light

    def _learn_steps(self, diff: np.ndarray, board: dict) -> None:
        """The cells whose label changed between the reference's position and `board` (the
        position now known) changed for real: how far above this view's noise they stand
        is what that kind of change looks like on this table. And the cells behind a
        square that filled or emptied while their own label stayed: did their look
        change?"""
        cells = list(self.reader.cells)
        usable = ~np.isnan(diff)
        changed = np.array([self.board.get(c) != board.get(c) for c in cells]) & usable
        if not changed.any():
            return
        level, _ = self._per_cell(self._noise(np.nan_to_num(diff, nan=0.0), usable & ~changed))
        x = np.log(np.maximum(np.nan_to_num(diff, nan=0.0), level) / level)
        for k in np.flatnonzero(changed):
            self.steps.add(self._kind(k, self.board.get(cells[k]), board.get(cells[k])), float(x[k]))
        index = {c: k for k, c in enumerate(cells)}
        for cell, front in self.fronts.items():
            k = index[cell]
            filled = (self.board.get(front.cell, "empty") != "empty") != (board.get(front.cell, "empty") != "empty")
            if filled and usable[k] and not changed[k]:
                seen = self._hidden[cell]
                seen[0] += float(x[k] > self.steps.mean() / 2)
                seen[1] += 1.0
        self.fronts = {cell: Front(front.cell, self._share(cell)) for cell, front in self.fronts.items()}

    def _share(self, cell) -> float:
        """The share of `cell` a piece coming or going in front of it changes, as learned
        on this table (module docstring): its line's share from the line's other cells,
        the geometric guess counting as PRIOR looks; then the cell's own, its line's
        share counting as PRIOR looks (the line's share leaves the cell's own looks out:
        they count once)."""
        others = [self._hidden[c] for c in self._lines[cell] if c != cell]
        line = ((PRIOR * self._guess[cell] + sum(o[0] for o in others))
                / (PRIOR + sum(o[1] for o in others)))
        own = self._hidden[cell]
        return min(HIDDEN_MAX, (PRIOR * line + own[0]) / (PRIOR + own[1]))

    # --- weighing a view -----------------------------------------------------------------
    def _diff(self, blocks: np.ndarray, light: np.ndarray) -> np.ndarray:
        """Per cell, how much its square differs from the reference, the light's drift
        since that reference divided out."""
        return _square_diff(blocks * _gain(self.ref_light, light), self.ref)

    def _diffs(self, plane: np.ndarray) -> np.ndarray:
        measured = self.reader.change(plane, self.ref)
        return np.array([measured[c] for c in self.reader.cells], float)

    def _noise(self, diff: np.ndarray, usable: np.ndarray) -> dict:
        """The noise of this view, per kind of reference ({True: occupied, False: empty}:
        (level, spread)): the median difference of the usable cells whose reference holds
        a piece, or nothing, and the spread of their log differences. A kind with too few
        cells takes all cells' noise."""
        cells = list(self.reader.cells)
        floor = FLOOR if self.squares else MEASURED_FLOOR
        occupied = np.array([(self.board or {}).get(c, "empty") != "empty" for c in cells])
        pooled = _level(diff[usable], floor)
        return {kind: (_level(diff[usable & (occupied == kind)], floor)
                       if (usable & (occupied == kind)).sum() >= MIN_GROUP else pooled)
                for kind in (True, False)}

    def _per_cell(self, noise: dict) -> tuple[np.ndarray, np.ndarray]:
        """(level, spread) per cell, by the kind its reference holds."""
        occupied = [(self.board or {}).get(c, "empty") != "empty" for c in self.reader.cells]
        return (np.array([noise[o][0] for o in occupied]), np.array([noise[o][1] for o in occupied]))

    def _likelihoods(self, k: int, x: float, spread: float, held: str) -> dict:
        """{label: log-likelihood} of a cell's difference `x` (noise units, log) from a
        look of it that held `held`: as it was (or nudged) for `held`, the step of that
        kind of change for every other label; the best at 0."""
        same = _log_normal(x, 0.0, spread)
        nudged = _log_normal(x, self.steps.mean() / 2, NUDGE_SPREAD)
        out = {held: float(np.logaddexp(math.log(1.0 - NUDGE) + same, math.log(NUDGE) + nudged))}
        for label in self.labels:
            if label != held:
                out[label] = float(_log_normal(x, self.steps.mean(self._kind(k, held, label)), STEP_SPREAD))
        top = max(out.values())
        return {label: max(v - top, -LL_FLOOR) for label, v in out.items()}

    def weights(self, moving=None, visible=None) -> list[float] | None:
        """How well each cell (reader order) is seen, 0..1, which weighs what it shows: on
        squares, behind the pieces standing nearer the camera (`visible`, the reader's,
        at least VISIBLE_FLOOR) and not at all under motion (`moving`, an 8x8 bool mask,
        plane rows: MOVING_WEIGHT); None: every cell whole (any other reader)."""
        if not self.squares:
            return None
        weight = np.ones(64) if visible is None else np.maximum(VISIBLE_FLOOR, np.asarray(visible, float))
        if moving is not None:
            weight[np.asarray(moving).reshape(64)] = MOVING_WEIGHT
        return [float(w) for w in weight]

    def evidence(self, plane: np.ndarray) -> dict[Hashable, Change]:
        """{cell: how it looks against its looks at the last known position (`Change`)};
        {} before a position is known, or for a reader without change evidence."""
        geo = patches(self.reader)
        if geo is None:
            return self._measured(plane)
        if plane.shape[:2] != (8 * geo[1], 8 * geo[1]):
            return {}
        cells, q = geo
        if self.ref is None:
            return {}
        blocks = self._blocks(self._aligned(plane, q), q)
        light = _light(blocks)
        diff = self._diff(blocks, light)
        noise = self._noise(diff, self.known)
        level, spread = self._per_cell(noise)
        x = np.log(np.maximum(diff, level) / level)
        seen = ~np.isnan(self.empty[:, 0, 0, 0]) if self.empty is not None else np.zeros(64, bool)
        # a square against its own empty look is as noisy as the empty squares against
        # their references (and says nothing new where the reference is that look)
        seen &= np.array([self.board.get(c) != "empty" for c in cells])
        x_empty = np.full(64, np.nan)
        if seen.any():
            d_empty = _square_diff(blocks[seen] * _gain(self.empty_light[seen], light), self.empty[seen])
            x_empty[seen] = np.log(np.maximum(d_empty, noise[False][0]) / noise[False][0])
        return {c: Change(self._likelihoods(k, x[k], spread[k], self.board[c]) if self.known[k] else None,
                          self._likelihoods(k, x_empty[k], noise[False][1], "empty") if seen[k] else None)
                for k, c in enumerate(cells)}

    def _measured(self, plane: np.ndarray) -> dict[Hashable, Change]:
        """Evidence from a reader that measures change itself (module docstring)."""
        if not self.reader.measures_change or self.ref is None or plane.shape != self.ref.shape:
            return {}
        diff = self._diffs(plane)
        level, spread = self._per_cell(self._noise(diff, np.ones(len(diff), bool)))
        x = np.log(np.maximum(diff, level) / level)
        return {c: Change(self._likelihoods(k, x[k], spread[k], self.board[c]), None)
                for k, c in enumerate(self.reader.cells)}


def looks_changed(likelihoods: dict | None, held: str | None) -> float | None:
    """How much better some change explains a cell than "holds `held`, as it did"
    (log-likelihood; negative: it looks as it did); None without a reference."""
    if not likelihoods or held not in likelihoods:
        return None
    return max(v for label, v in likelihoods.items() if label != held) - likelihoods[held]


def _log_normal(x, mean, spread):
    """The log density of a normal distribution (of log differences), up to a constant."""
    return -0.5 * ((x - mean) / spread) ** 2 - np.log(spread)


def _hidden_share(lean: float) -> float:
    """How much of a cell a tall piece in front of it hides, from its lean (squares)."""
    return min(HIDDEN_MAX, max(0.0, (lean - 0.4) / 0.6))


def _level(diff: np.ndarray, floor: float) -> tuple[float, float]:
    """(median, spread of the logarithm) of mostly unchanged cells' differences."""
    if not len(diff):
        return floor, SPREAD[1]
    level = max(float(np.median(diff)), floor)
    logs = np.log(np.maximum(diff, 1e-6) / level)
    spread = 1.4826 * float(np.median(np.abs(logs - np.median(logs))))
    return level, min(max(spread, SPREAD[0]), SPREAD[1])


def same_place(old: np.ndarray, new: np.ndarray, plane_size) -> bool:
    """Do two frame -> plane homographies put the plane's corners within a pixel of each
    other in the frame?"""
    w, h = plane_size
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    a = cv2.perspectiveTransform(corners, np.linalg.inv(old))
    b = cv2.perspectiveTransform(corners, np.linalg.inv(new))
    return float(np.abs(a - b).max()) < 1.0


def _light(blocks: np.ndarray) -> np.ndarray:
    """The light over the board now, per colour channel: the median of the plane (most
    of it is the same board from view to view)."""
    return np.median(blocks.reshape(-1, 3), axis=0)


def _gain(then: np.ndarray, now: np.ndarray) -> np.ndarray:
    """Per cell, the factor (n, 1, 1, 3) that takes a patch seen in the light `now` to the
    light its reference was seen in (`then`, n x 3: cells keep references from different
    moments while a hand covers some)."""
    return ((np.asarray(then) + 1.0) / (now + 1.0)).reshape(-1, 1, 1, 3)


TOP = 1 / 3  # the share of a square's pixels that changed most is what its change is


def _square_diff(blocks: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Per cell, the mean summed-channel difference over the third of its square (a
    border of q/16 left out) that differs most: a piece anywhere on the square, leaning
    whichever way the camera sees it, changes that much of it."""
    d = np.abs(blocks - ref).sum(axis=-1)
    q = d.shape[1]
    b = max(1, q // 16)
    inner = d[:, b:q - b, b:q - b].reshape(len(d), -1)
    k = max(1, int(inner.shape[1] * TOP))
    return np.partition(inner, inner.shape[1] - k, axis=1)[:, -k:].mean(axis=1)
