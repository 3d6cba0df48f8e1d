"""BoardView: what vision hands the referee, once the board is still and clear.

Vision knows board geometry and colours, never rules: a view says, for each cell, which
label it looks like ("empty", "p0", "p1", "blocker", ...) and how sure the reader is.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Mapping

SURE = 0.6  # a label read at least this surely is taken as read (the referee's default confidence)
STILL_S = 0.25  # how long the board must stand still before it is read ([camera] still_s's default)


@dataclass(frozen=True)
class BoardView:
    """One stable reading of the board.

    `cells` maps a cell to (label, confidence in 0..1). `t` is the time of the frame the
    view was read from, and `moved_at` the time of the last frame in which something was
    still moving over the board; their difference is the decision delay.
    """

    cells: Mapping[Hashable, tuple[str, float]]
    t: float = 0.0
    moved_at: float = 0.0
    source: str = ""
    extra: Mapping[str, object] = field(default_factory=dict)

    def labels(self, min_confidence: float = 0.0) -> dict:
        """Cell -> label for the cells read at least this surely."""
        return {c: lab for c, (lab, conf) in self.cells.items() if conf >= min_confidence}
