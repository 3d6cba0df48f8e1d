"""The interface every board reader declares (vision/watch.py drives readers through it).

A reader turns the warped playing area (a BGR "plane" of `plane_size`) into labels per
cell, and learns what the table looks like from any position the referee knows. The
Watcher relies on nothing but what is declared here; the defaults are what a reader of a
flat board with its markers at the plane's corners needs.
"""
from __future__ import annotations

from typing import Hashable, Mapping

import numpy as np


class Reader:
    plane_size: tuple[int, int]  # (width, height) of the plane it reads
    cells: list  # the cell keys it reports, in a fixed order
    labels: tuple = ("empty", "p0", "p1")  # what a cell may show
    # 4x2 plane points where given corners go (BL, BR, TR, TL); None: the plane's corners
    anchors: np.ndarray | None = None
    # bool array of plane size: where the board never changes in play (a hand held still
    # over it is told from it); None: no such part
    static_mask: np.ndarray | None = None
    # the four marker ids of the sheet this reader reads, when the board type has several
    # sheets (a Super Mario Bros. World); empty: the board type's own markers
    markers: tuple = ()
    # what the last learn() could not learn, in words (empty when all went well)
    problems: list[str] = []
    # (columns, rows) when the cells tile the plane as a grid: `grid_place` then places
    # each cell and `cell_outline` needs nothing more; None: the reader outlines its own
    grid: tuple[int, int] | None = None
    # fit(frame, points, same) -> points or None: corners given by hand (BL, BR, TR, TL,
    # frame pixels) moved onto the board's own marks (vision/locate.py: a chess board's
    # crossings), the given ones where the marks agree with them to `same` of a cell; None
    # where the marks cannot tell. None: the board has no marks to fit (corners given for
    # it are used as they are; Connect 4's holes, seen through at an angle, were tried and
    # are not exact enough: docs/vision.md)
    fit = None
    # What the watcher measures of each cell's change since the last known position
    # (vision/change.py), as the reader declares it:
    # - `squares`: its cells are the plane's 8x8 squares in plane order (row 0 at the
    #   top), each sampled on a disk (`disks`, 8x8xqxq bool, q a square's side in
    #   pixels). vision/change.py then measures each square's change itself, and the
    #   watcher tells which squares a hand still moves over (the motion gate's 8x8 blocks);
    # - `measures_change`: the reader measures each cell's change itself (`change`).
    # Neither: its views carry labels (and learned looks) only.
    squares: bool = False
    disks: np.ndarray | None = None
    measures_change: bool = False
    # does one action shift a whole line of cells at once (a Labyrinth tile pushed in)?
    # Then a large changed patch reaching in from an edge may be a move, and only the cells
    # of it read unsurely are taken as under a hand (vision/cover.py)
    lines_move: bool = False

    def read(self, plane: np.ndarray) -> dict[Hashable, tuple[str, float]]:
        """{cell: (label, confidence 0..1)} for every cell. Reading never changes the reader."""
        raise NotImplementedError

    def weigh(self, plane: np.ndarray) -> dict | None:
        """{cell: {label: log-likelihood}}: how well each label a cell may hold explains
        what it shows, from the looks learned on this table (the best at 0), for the
        referee to weigh against every history it considers; None when the reader knows
        only its labels and confidences (`read`), as before anything is learned."""
        return None

    def learn(self, plane: np.ndarray, expected: Mapping[Hashable, str]) -> None:
        """The board shows `expected` (any position the referee knows: a start, a resumed
        game, the position after an accepted move): learn the looks from it. Cheap and
        incremental: blend with what was learned, never forget a look because this
        position lacks it. A grid reader may be given only the cells nothing moves over
        (the others left out of `expected`)."""
        raise NotImplementedError

    def change(self, plane: np.ndarray, reference: np.ndarray) -> dict:
        """{cell: how much the cell changed since `reference`, the plane of the last
        known position, in units where 1 is the least a piece coming or going changes
        it}: asked only of a reader that `measures_change` (its views then carry change
        evidence for the referee, vision/change.py)."""
        raise NotImplementedError

    @property
    def unlearned(self) -> bool:
        """Does the reader still lack the looks a known position teaches it? Then every
        view of a position the referee is sure of is learned from (vision/watch.py
        `learning`, controller/table.py). Default: no (a reader that reads as well before
        it has learned anything)."""
        return False

    def visible(self, cells: Mapping[Hashable, tuple[str, float]]) -> list[float] | None:
        """How well each cell (in `cells` order of the reader) can be seen, 0..1, given
        what was read (`read`): a cell behind a standing piece shows less of itself.
        None: every cell is seen whole (a flat board seen from above)."""
        return None

    def adopt(self, other: "Reader") -> None:
        """Take over what `other`, the reader of another sheet of the same game (the
        previous Super Mario Bros. World board), learned of the pieces that move from
        sheet to sheet. Default: nothing carries over."""

    def view_from(self, H: np.ndarray, frame_size: tuple[int, int]) -> None:
        """Told the frame->plane homography whenever it changes, before the first learn
        (readers of tall pieces that lean over the cells behind them use it)."""

    def grid_place(self, cell: Hashable) -> tuple[int, int] | None:
        """(column, row from the plane's top) of a grid cell; None for a cell with no
        square of its own (it is outlined as the whole plane)."""
        raise NotImplementedError

    def cell_outline(self, cell: Hashable) -> np.ndarray:
        """Where `cell` lies in the plane: 4x2 points (BL, BR, TR, TL), so what the camera
        saw there can be boxed on the frame (web/camera.py, through the watcher's H)."""
        w, h = self.plane_size
        place = self.grid_place(cell)
        if place is None:
            return np.float32([[0, h], [w, h], [w, 0], [0, 0]])
        cols, rows = self.grid
        x0, x1 = place[0] * w / cols, (place[0] + 1) * w / cols
        y0, y1 = place[1] * h / rows, (place[1] + 1) * h / rows
        return np.float32([[x0, y1], [x1, y1], [x1, y0], [x0, y0]])
