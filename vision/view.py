"""BoardView: what vision hands the referee, once the board is still and clear.

Vision knows board geometry and colours, never rules: a view says, for each cell, which
label it looks like ("empty", "p0", "p1", "blocker", ...) and how sure the reader is
(`Read`), and how vision saw that cell beyond the label (`CellSight`): the looks'
likelihood of each label, how the cell changed since the last position the referee
knew (`Change`), how well it is seen, which cell in front may hide it (`Front`), and
whether a hand lies still or moves over it. Per view: when the frame was read, when the
last motion over the board ended, how many motions since the view before, and the
position the change is measured from. All of it is frozen: a view is what the camera
saw then, whatever vision learns afterwards.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Mapping, NamedTuple

SURE = 0.6  # a label read at least this surely is taken as read (the referee's default confidence)
STILL_S = 0.25  # how long the board must stand still before it is read ([camera] still_s's default)


class Read(NamedTuple):
    """What the reader reads on one cell."""

    label: str
    confidence: float  # 0..1


class Change(NamedTuple):
    """How one cell looks against its looks kept at the last known position
    (vision/change.py): per label the cell may hold now, the log-likelihood of its
    difference (the best at 0)."""

    known: Mapping[str, float] | None  # from its look in the known position (None: that look was not seen)
    empty: Mapping[str, float] | None  # from its own empty look (None: never seen empty, or empty there)


class Front(NamedTuple):
    """The cell between a cell and the camera, and the share of the cell a tall piece
    standing there hides (learned on this table; vision/change.py)."""

    cell: Hashable
    share: float


@dataclass(frozen=True, slots=True)
class CellSight:
    """How vision saw one cell beyond its label. The defaults are a cell seen whole with
    nothing measured but its label (a reader that gives labels only, a view built by hand)."""

    looks: Mapping[str, float] | None = None  # per label, log-likelihood by the looks learned here (None: none)
    change: Change | None = None  # None: change not measured (no known position yet, or a reader without it)
    weight: float = 1.0  # how well it is seen, 0..1: less behind a piece nearer the camera, 0 under a moving hand
    front: Front | None = None  # the cell in front of it, towards the camera (None: none that hides it)
    covered: bool = False  # a hand, arm or foreign object lies still over it (vision/cover.py)
    moving: bool = False  # something still moves over it (a hand at the board's edge while the rest is read)


LABEL_ONLY = CellSight()  # a cell seen whole, nothing measured but its label


@dataclass(frozen=True)
class BoardView:
    """One stable reading of the board.

    `cells` maps a cell to its `Read` (plain (label, confidence) pairs are taken as one).
    `t` is the time of the frame the view was read from, and `moved_at` the time of the
    last frame in which something was still moving over the board; their difference is
    the decision delay. `motions`: the motions over the board the watcher counted since
    the view before (a burst of movement ended in stillness is one; None: not counted).
    `change_from`: the position the cells' `Change` is measured from (None: no change
    measured). `sight`: per cell, how vision saw it beyond its label (a cell left out
    is seen whole, nothing more measured).
    """

    cells: Mapping[Hashable, Read]
    t: float = 0.0
    moved_at: float = 0.0
    source: str = ""
    motions: int | None = None
    change_from: Mapping[Hashable, str] | None = None
    sight: Mapping[Hashable, CellSight] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "cells", {c: Read(*read) for c, read in self.cells.items()})

    def sight_of(self, cell) -> CellSight:
        return self.sight.get(cell, LABEL_ONLY)

    @property
    def covered(self) -> frozenset:
        """The cells a still hand lies over."""
        return frozenset(c for c, s in self.sight.items() if s.covered)

    @property
    def moving(self) -> frozenset:
        """The cells something still moves over."""
        return frozenset(c for c, s in self.sight.items() if s.moving)

    def labels(self, min_confidence: float = 0.0) -> dict:
        """Cell -> label for the cells read at least this surely."""
        return {c: lab for c, (lab, conf) in self.cells.items() if conf >= min_confidence}
