"""Per-cell change against the last accepted view: what moved, whatever the learned looks say.

Between two still views only the cells a move touches change. A reader's labels come
from looks learned at some moment (a tinted overlay, a lamp, a set nobody drew here can
make them wrong); how much a cell differs from how *that same cell* looked when the board
was last known does not depend on any of that. So each time the referee accepts a
position the plane is kept as the reference (`reference`), and every later still plane
gets, per cell, the probability that the cell's look changed (`evidence`).

A cell's patch is where its piece stands as the camera sees it: the reader's sampling
disk, which follows the lean of a standing piece away from the camera (see
vision/read_squares.py `view_from`). The patch difference is the mean over the disk of the
summed per-channel absolute difference, after the light's overall drift (per channel,
the median over the board: most cells do not change) is divided out. What counts as a
change is measured on the board itself: the unchanged cells' differences (their median
and spread) are the noise of this camera now, and a cell well beyond it has changed.
The cell's own empty look is kept too, from every accepted position where it was empty:
a cell that matches its empty look is evidence for "empty" (a vacated square behind a
tall piece still reads unlike the piece that left it).

Cells under something that moves (a hand at the board's edge while the rest is still)
get a low weight from the watcher's motion mask: they never veto a move that explains
the rest of the board.

A standing piece also hides part of the square behind it (away from the camera): how
much is its lean, the height of a tall piece times the cell's distance from the camera's
foot over the camera's height. `camera(H, size)` works out, per cell, the square in
front of it (towards the camera) and that lean; the referee then expects a cell to look
changed when the piece in front of it came or went, and trusts its label less while one
stands there.

Two kinds of reader get change evidence. A reader whose cells tile the plane as an 8x8
grid with sampling disks (the chess reader) is measured here (`patches(reader)` is the
one place that knows that geometry); every part above about disks, empty looks, fronts
and motion masks is about it. Any other reader may measure change itself
(`Reader.change(plane, reference)`, in units where 1 is the least a piece coming or
going changes a cell: the Connect 4 reader compares each hole and the plastic right
around it, the light on it divided out); its values are judged against this board's
noise the same way, and the referee scores them exactly as the grid's. Such a reader
learns its own empty looks, so its evidence carries no p_empty.
"""
from __future__ import annotations

import cv2
import numpy as np

MIN_STEP = 18.0  # summed-channel grey levels: below this no cell counts as changed
JITTER = 1.0 / MIN_STEP  # a grey level: the least noise spread, in units of MIN_STEP
NOISE_SIGMAS = 6.0  # a change is this many noise spreads above the unchanged cells' median
MOVING_WEIGHT = 0.1  # the weight of a cell under motion
TALL = 1.0  # squares: about a queen's or king's height, the pieces that hide what is behind them


def patches(reader):
    """(cells, weights (n, q, q) summing to 1 per cell, q) for a reader whose cells tile the
    plane 8x8 (row 0 at the top of the plane, cells in plane order) and that samples each
    cell on a disk (`disks`, 8x8xqxq); None for any other reader."""
    disks = getattr(reader, "disks", None)
    cells = list(getattr(reader, "cells", ()))
    if disks is None or len(cells) != 64 or np.shape(disks)[:2] != (8, 8):
        return None
    q = np.shape(disks)[2]
    w = np.asarray(disks, np.float32).reshape(64, q, q)
    return cells, w / np.maximum(w.sum(axis=(1, 2), keepdims=True), 1.0), q


class CellChange:
    """The last accepted plane and each cell's empty look, and the change against them."""

    def __init__(self, reader):
        self.reader = reader
        self.ref: np.ndarray | None = None  # grid: (64, q, q, 3) float32 blocks of the last accepted plane; else the plane
        self.known = np.zeros(len(getattr(reader, "cells", ())), bool)  # cells whose reference was seen (not under a hand)
        self.board: dict | None = None  # the position the reference shows
        self.fronts: dict = {}  # cell -> (the cell in front of it, towards the camera; lean in squares)
        self.empty: np.ndarray | None = None  # (64, q, q, 3), NaN where never seen empty
        self._H: np.ndarray | None = None  # the homography the reference was taken through

    @property
    def grid(self) -> bool:
        """Are the reader's cells an 8x8 grid measured here (motion masks, fronts, empty looks)?"""
        return patches(self.reader) is not None

    @property
    def supported(self) -> bool:
        return self.grid or _measures(self.reader)

    def camera(self, H: np.ndarray, frame_size) -> None:
        """Where the camera stands (frame -> plane homography `H`, frame (width, height)):
        for each cell, the neighbour between it and the camera and how far a tall piece
        there leans over it. A board found at another place (bumped, markers found
        again) makes the reference and the empty looks, which are planes warped through
        the old H, unusable until the next known position; the same place found again
        (H recomputed a pixel apart) keeps them."""
        if self._H is not None and _same_place(self._H, H, self.reader.plane_size):
            return
        self._H = H
        self.ref, self.empty, self.board = None, None, None
        self.known[:] = False
        geo = patches(self.reader)
        if geo is None:
            return
        from .read_squares import camera_foot

        cells, _, q = geo
        foot, height = camera_foot(H, frame_size, q)
        self.fronts = {}
        for k, cell in enumerate(cells):
            r, c = divmod(k, 8)
            towards = foot - (c + 0.5, r + 0.5)
            dist = float(np.linalg.norm(towards))
            if dist < 1.0:
                continue
            step = np.round(towards / dist * 1.2).astype(int)  # the nearest neighbour that way
            fc, fr = c + int(np.clip(step[0], -1, 1)), r + int(np.clip(step[1], -1, 1))
            if 0 <= fc < 8 and 0 <= fr < 8 and (fc, fr) != (c, r):
                self.fronts[cell] = (cells[fr * 8 + fc], TALL * dist / height)

    def _blocks(self, plane: np.ndarray, q: int) -> np.ndarray:
        img = plane.astype(np.float32)
        return img.reshape(8, q, 8, q, 3).swapaxes(1, 2).reshape(64, q, q, 3)

    def reference(self, plane: np.ndarray, board: dict, moving=None) -> None:
        """The board is known to hold `board` ({cell: label}) in `plane`: keep it as the
        reference (cells under motion keep their previous reference) and remember the
        empty cells' looks."""
        geo = patches(self.reader)
        if geo is None:
            if _measures(self.reader) and moving is None:
                self.board, self.ref = dict(board), plane.copy()
                self.known[:] = True
            return
        if plane.shape[:2] != (8 * geo[2], 8 * geo[2]):
            return
        cells, _, q = geo
        self.board = dict(board)
        blocks = self._blocks(plane, q)
        keep = np.zeros(64, bool) if moving is None else np.asarray(moving).reshape(64)
        self.ref = np.where(keep[:, None, None, None], self.ref, blocks) if self.ref is not None else blocks
        self.known |= ~keep
        if self.empty is None:
            self.empty = np.full_like(blocks, np.nan)
        empty = np.array([board.get(c) == "empty" for c in cells]) & ~keep
        self.empty[empty] = blocks[empty]

    def evidence(self, plane: np.ndarray, moving=None) -> dict:
        """{cell: (p_changed or None, p_empty or None, weight)} against the reference
        (None where no reference was seen yet); {} for a reader without change evidence.
        `moving`: an 8x8 bool mask (plane rows) of grid cells under motion."""
        geo = patches(self.reader)
        if geo is None:
            return self._measured(plane)
        if plane.shape[:2] != (8 * geo[2], 8 * geo[2]):
            return {}
        cells, w, q = geo
        weight = np.ones(64)
        if moving is not None:
            weight[np.asarray(moving).reshape(64)] = MOVING_WEIGHT
        if self.ref is None:
            return {c: (None, None, float(weight[k])) for k, c in enumerate(cells)}
        blocks = self._blocks(plane, q)
        gain = _gain(blocks, self.ref)
        diff = _patch_diff(blocks * gain, self.ref, w) / MIN_STEP
        p_changed = np.where(self.known, _changed(diff, base=diff[self.known]), np.nan)
        p_empty = np.full(64, np.nan)
        if self.empty is not None:
            known = ~np.isnan(self.empty[:, 0, 0, 0])
            if known.any():
                d_empty = _patch_diff(blocks[known] * gain, self.empty[known], w[known]) / MIN_STEP
                # a cell as close to its empty look as unchanged cells are to theirs is empty
                p_empty[known] = 1.0 - _changed(d_empty, base=diff)
        return {c: (None if np.isnan(p_changed[k]) else float(p_changed[k]), None if np.isnan(p_empty[k]) else float(p_empty[k]), float(weight[k]))
                for k, c in enumerate(cells)}

    def _measured(self, plane: np.ndarray) -> dict:
        """Evidence from a reader that measures change itself (module docstring)."""
        if not _measures(self.reader):
            return {}
        if self.ref is None or plane.shape != self.ref.shape:
            return {c: (None, None, 1.0) for c in self.reader.cells}
        measured = self.reader.change(plane, self.ref)
        diff = np.array([measured[c] for c in self.reader.cells], float)
        return {c: (float(p), None, 1.0) for c, p in zip(self.reader.cells, _changed(diff))}


def _same_place(old: np.ndarray, new: np.ndarray, plane_size) -> bool:
    """Do two frame -> plane homographies put the plane's corners within a pixel of each
    other in the frame?"""
    w, h = plane_size
    corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    a = cv2.perspectiveTransform(corners, np.linalg.inv(old))
    b = cv2.perspectiveTransform(corners, np.linalg.inv(new))
    return float(np.abs(a - b).max()) < 1.0


def _measures(reader) -> bool:
    """Does the reader measure per-cell change itself (vision/reader.py `Reader.change`)?"""
    return callable(getattr(reader, "change", None))


def _gain(blocks: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Per-channel light drift now against the reference (most cells do not change)."""
    now = np.median(blocks.reshape(-1, 3), axis=0)
    then = np.median(ref.reshape(-1, 3), axis=0)
    return (then + 1.0) / (now + 1.0)


def _patch_diff(blocks: np.ndarray, ref: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.einsum("nij,nij->n", w, np.abs(blocks - ref).sum(axis=-1))


def _changed(diff: np.ndarray, base: np.ndarray | None = None) -> np.ndarray:
    """P(changed) per cell from its difference (in units where 1 is the least a piece
    coming or going makes); the noise level comes from `base` (default `diff` itself):
    the median and spread of mostly unchanged cells."""
    base = diff if base is None else base
    med = float(np.median(base))
    spread = 1.4826 * float(np.median(np.abs(base - med))) + JITTER
    step = max(1.0, med + NOISE_SIGMAS * spread)
    return 1.0 / (1.0 + np.exp(-(diff - step) / (0.15 * step)))
