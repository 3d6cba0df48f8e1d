"""Cells a still hand, arm, sleeve or any foreign object lies over: unseen, not misread.

The motion gate (vision/stable.py) holds reading back while something moves; a hand that
rests still over the board passes it, and what it lies on would be read as pieces. A
piece a move puts down is small and stands on its own cell; a hand comes from outside
the board. So, each time the referee knows the position, the playing area and a cell's
width of the table around it are kept small (`reference`, per pixel, with each cell's
own empty look where the position showed it empty), and every still view is compared
with it (`covered`):
1. a pixel is foreign when it fits neither what its cell looked like in the last known
   position nor the cell's own empty look (a piece that left shows its empty look
   again): its difference from both stands far above this view's own noise (the median
   difference over the plane, most of which is the same board; the light's drift, per
   colour channel, divided out first);
2. the foreign pixels that touch (8-connected) are one thing; a thing is a hand when it
   reaches in from outside (it touches the outer edge of the table kept around the
   board: an arm), crosses cell borders (a quarter of three cells or more) and covers
   COVER_AREA cells' worth of the playing area; or when it covers more still
   (LOOSE_AREA) wherever it lies (a phone put down on the board). What one move changes
   (a castled king and rook, their tops leaning over the squares behind them) stays on
   the board. A piece stands on its cell: what lies where no cell is (the table around
   the board, where a hand at the edge mostly rests; between the spaces of a track:
   Super Mario Bros., Monopoly's middle) is no piece, so that area counts towards the
   thing's size too, each quarter cell's worth of it as a border crossed;
3. unless every cell it lies over held a piece in the known position and reads surely
   as it, but for at most two read empty (the squares a move left): then what differs
   is the kept look (a hand rested there when the position was known, and has gone),
   refreshed there at the next known position (vision/watch.py);
4. what has covered any of its cells view after view for STAYS_S, every cell under it
   read surely as the known position, is part of the table now (a hand that lay there
   when the position was known and has gone from cells the known position had empty, a
   cup beside the pieces): its look is kept from then on, and the cells are read again;
   and at once, a thing whose cells all read surely as a board the referee's histories
   lead to, or one move on from them, where it differs from the known position
   (`expected`: the referee tells the watcher, as it tells it the known position; a
   cell behind a piece that board puts in front of it may read unsurely or as that
   piece, as a lean does: `fronts`): from a camera low at the side, a
   castled king and rook lean far past the board's edge, reach in from outside as an
   arm does and never leave, and only the board they stand on tells them from a hand
   (covered, the move stayed unseen, every ply after it waited unsure and unlearned,
   and the tall pieces' leans piled up into misreads). A thing the reader takes for
   pieces no history put there (a sleeve resting while play goes on, a deep shadow over
   empty squares) stays covered however long it lies;
5. on a board where one action shifts a whole line of cells (a Labyrinth tile pushed
   in: `Reader.lines_move`), such a patch may be the move itself: there only its cells
   the reader reads unsurely are covered.
The cells a hand covers at least COVER_SHARE of are `covered`, counting on a cell the
hand reaches into every foreign pixel there (a hand's pixels split by a stretch that
happens to look like the board are the hand's all the same). What was learned is
nothing but looks of the table seen at known positions, and noise measured in the view
itself: no colour of skin or sleeve is assumed.

Work: one small warp of the frame (the playing area at half the reader's scale, and the
table around it), some numpy over it and one connected-components pass, whenever a view
is read (a still board, or the rest of it while a hand waits at the edge; never on every
frame).
"""
from __future__ import annotations

import cv2
import numpy as np

from .shade import Shadow, shade
from .view import SURE

SCALE = 0.5  # the comparison runs on the playing area at this scale of the reader's plane
AROUND = 1.0  # cells of the table around the playing area that are looked at too
NOISE_FLOOR = 6.0  # summed-channel grey levels: the least noise a view is credited with
FOREIGN = 6.0  # a foreign pixel differs by this many times the view's noise from both looks
COVER_AREA = 2.5  # cells' worth of the playing area a thing reaching in from outside covers to be a hand
CROSSED = 0.25  # ... over at least three cells it covers this share of (it crosses their borders)
LOOSE_AREA = 6.0  # cells' worth of area that is a foreign object wherever it lies
WHOLE = 0.9  # a cell outlined as this share of the plane or more has no place of its own
COVER_SHARE = 0.15  # a cell a hand covers this share of is unseen
STAYS_S = 8.0  # a thing covering any of its cells, view after view, this long is part of the table
LEFT = 2  # squares a move leaves empty at most (castling)


class Cover:
    """The known position's look, kept small, and the cells a still hand covers."""

    def __init__(self, reader):
        self.reader = reader
        w, h = reader.plane_size
        inner = (max(8, int(w * SCALE)), max(8, int(h * SCALE)))
        self.cells = list(reader.cells)
        # which cell each small pixel belongs to (-1: none), from the reader's outlines
        cell_of = np.full(inner[::-1], -1, np.int32)
        for k, cell in enumerate(self.cells):
            outline = np.float32(reader.cell_outline(cell))
            if cv2.contourArea(outline) >= WHOLE * w * h:
                continue  # a cell with no place of its own (a Labyrinth pawn) is outlined as the whole plane
            cv2.fillConvexPoly(cell_of, np.round(outline * SCALE).astype(np.int32), int(k))
        counts = np.bincount(cell_of[cell_of >= 0].ravel(), minlength=len(self.cells))
        self.cell_area = float(np.median(counts[counts > 0])) if (counts > 0).any() else 1.0
        # the table around the playing area, AROUND cells wide, where an arm comes from
        self.pad = int(round(AROUND * np.sqrt(self.cell_area)))
        self.cell_of = np.pad(cell_of, self.pad, constant_values=-1)
        # what no cell holds: the playing area between the cells (a track of spaces leaves
        # room between them) and the table around it
        self.between = self.cell_of < 0
        self.size = (inner[0] + 2 * self.pad, inner[1] + 2 * self.pad)
        self.to_small = np.array([[inner[0] / w, 0, self.pad], [0, inner[1] / h, self.pad], [0, 0, 1.0]])
        self.ref: np.ndarray | None = None  # the small plane at the last known position
        self.shadow: Shadow | None = None  # a player's shadow as placed in the view before (vision/shade.py)
        self.empty: np.ndarray | None = None  # each pixel's empty look (NaN: never seen empty)
        self.board: dict = {}  # the label each cell's kept look shows
        self._edge_of: tuple | None = None  # (H, where the outside begins in `around`'s plane)
        self._since: dict = {}  # cell -> since when it has been covered, view after view
        # the boards the referee's histories lead to now, besides the known position (rule 4)
        self.expected: tuple = ()
        self.fronts: dict = {}  # cell -> the `Front` between it and the camera (vision/change.py)

    def around(self, frame: np.ndarray, H: np.ndarray) -> np.ndarray:
        """The playing area of `frame` (H: frame -> plane), small, with the table around it.
        Also notes where the outside begins: the outer edge of that table, or of the frame
        where the board fills it (an arm comes in from there)."""
        M = self.to_small @ H
        if self._edge_of is None or self._edge_of[0] is not H:
            inside = cv2.warpPerspective(np.ones(frame.shape[:2], np.uint8), M, self.size, flags=cv2.INTER_NEAREST)
            edge = cv2.dilate((inside == 0).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
            edge[0], edge[-1], edge[:, 0], edge[:, -1] = True, True, True, True
            self._edge_of = (H, edge)
        return cv2.warpPerspective(frame, M, self.size, flags=cv2.INTER_LINEAR).astype(np.float32)

    def relit(self, small: np.ndarray, plane: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`small` (`around`) and the reader's `plane` with a player's shadow over part of
        a board of squares taken out, against the kept look (vision/shade.py): a shadow is
        no sleeve, no piece and no change. As they are before a position is known, on
        other boards, and where no shadow is found."""
        if self.ref is None or not self.reader.squares or self.ref.shape != small.shape:
            return small, plane
        found = shade(small, self.ref, self.pad, self.shadow)
        if found is None:
            self.shadow = None
            return small, plane
        light, self.shadow = found
        p, size = self.pad, tuple(self.reader.plane_size)
        board = cv2.resize(light[p:light.shape[0] - p, p:light.shape[1] - p], size, interpolation=cv2.INTER_LINEAR)
        return small * light, np.clip(plane * board, 0, 255).astype(plane.dtype)

    def reference(self, small: np.ndarray, board: dict, left_out=()) -> None:
        """The board holds `board` in `small` (`around`): keep its look, but for the
        cells in `left_out` (something lay over them), which keep the look they had."""
        skip = np.isin(self.cell_of, [k for k, c in enumerate(self.cells) if c in left_out])
        if self.ref is None or self.ref.shape != small.shape:
            self.ref, self.empty = small.copy(), np.full_like(small, np.nan)
            if skip.any():
                self.ref[skip] = np.nan
        self.ref[~skip] = small[~skip]
        self.board.update({c: lab for c, lab in board.items() if c not in left_out})
        empty = np.isin(self.cell_of, [k for k, c in enumerate(self.cells) if board.get(c) == "empty"]) & ~skip
        self.empty[empty] = small[empty]

    def forget(self) -> None:
        """The board moved in the frame (or another game began): nothing kept applies."""
        self.ref, self.shadow, self.empty, self.board, self._since, self.expected = None, None, None, {}, {}, ()

    def covered(self, small: np.ndarray, cells: dict, t: float = 0.0) -> list:
        """The cells a still foreign thing lies over in `small` (`around`, read at time
        `t`; the module docstring), in reader order; [] before any position is known."""
        if self.ref is None:
            return []
        since, self._since = self._since, {}
        foreign = self._foreign(small)
        if not foreign.any():
            return []
        n, parts = cv2.connectedComponents(foreign.astype(np.uint8), connectivity=8)
        out = set()
        inside = self.cell_of >= 0
        # every foreign pixel on each cell, whatever part it belongs to: a hand's pixels
        # split by a stretch that happens to look like the board (a piece, a fold of the
        # sleeve) lie over the cells it reaches into all the same
        total = np.bincount(self.cell_of[foreign & inside], minlength=len(self.cells)) / self.cell_area
        for k in range(1, n):
            part = parts == k
            mine = part & inside
            share = np.bincount(self.cell_of[mine], minlength=len(self.cells)) / self.cell_area
            between = float((part & self.between).sum()) / self.cell_area  # cells' worth where no cell is
            over = float(share.sum()) + between  # cells' worth it covers, on the board and around it
            crossed = int((share >= CROSSED).sum() + between // CROSSED)
            from_outside = self._edge_of is not None and bool((part & self._edge_of[1]).any())
            if not ((from_outside and over >= COVER_AREA and crossed >= 3) or over >= LOOSE_AREA):
                continue
            under = [self.cells[i] for i in np.flatnonzero((share > 0) & (total >= COVER_SHARE))]
            if self._gone(under, cells):
                continue  # what lay there when the look was kept has gone
            if self.reader.lines_move:
                # a row of tiles pushed along is a move: only what reads unsurely is under a hand
                under = [c for c in under if cells.get(c, ("", 0.0))[1] < SURE]
            if under and self._as_expected(under, cells):
                self.ref[part] = small[part]  # the pieces a history moved there (rule 4)
                continue
            first = min((since.get(c, t) for c in under), default=t)
            if under and t - first >= STAYS_S and self._as_known(under, cells):
                self.ref[part] = small[part]  # there that long, hiding nothing: part of the table now
                continue
            self._since.update({c: since.get(c, t) for c in under})
            out.update(under)
        return [c for c in self.cells if c in out]

    def _read_otherwise(self, under: list, cells: dict, board: dict | None = None) -> list | None:
        """The cells of `under` read surely otherwise than `board` (by default the known
        position) has them; None when one of them is not read surely."""
        if any(c not in cells or cells[c][1] < SURE for c in under):
            return None
        board = self.board if board is None else board
        return [c for c in under if cells[c][0] != board.get(c, "empty")]

    def _as_known(self, under: list, cells: dict) -> bool:
        """Do the cells under a thing all read surely as the known position? A shadow, a
        cup beside the pieces or a hand that lay there when the look was kept and has
        left; not a sleeve still lying there, which reads as pieces where there are none
        (or as the wrong side's), however long it lies."""
        return self._read_otherwise(under, cells) == []

    def _as_expected(self, under: list, cells: dict) -> bool:
        """Do the cells under a thing all read surely as one board the referee's
        histories lead to (`expected`), where it differs there from the known position?
        (A thing that reads as the known position hides nothing yet; it waits STAYS_S.)
        A cell behind a piece that board puts in front of it (`fronts`) may read unsurely
        or as that piece: it is what a tall piece's lean does (O-O-O from a low camera at
        the h-file side, the king on c1 leaning over empty b1, read red at 0.78)."""
        for board in self.expected:
            leant = [c for c in under if c in self.fronts and board.get(self.fronts[c].cell, "empty") != "empty"
                     and (c not in cells or cells[c][1] < SURE or cells[c][0] == board[self.fronts[c].cell])]
            sure = [c for c in under if c not in leant]
            if (self._read_otherwise(sure, cells, board) == []
                    and any(board.get(c) != self.board.get(c, "empty") for c in sure)):
                return True
        return False

    def _gone(self, under: list, cells: dict) -> bool:
        """Does what differs read as the known position, but for a piece or two gone (a
        move's squares left behind)? Then the kept look held something foreign (a hand
        rested there when the position was known, and has left), not the view now. Only
        where the known position has pieces: a hand over empty cells may read empty (a
        Connect 4 hole shows the room behind it, a hand too)."""
        if not under or any(self.board.get(c, "empty") == "empty" for c in under):
            return False
        other = self._read_otherwise(under, cells)
        return other is not None and len(other) <= LEFT and all(cells[c][0] == "empty" for c in other)

    def _foreign(self, small: np.ndarray) -> np.ndarray:
        """Pixels that fit neither the known position's look nor their cell's empty look."""
        known = ~np.isnan(self.ref[..., 0])
        ref = np.where(known[..., None], self.ref, 0.0)
        # the light's drift: the median ratio per pixel (most of the board is unchanged;
        # a median of the plane itself jumps between the two square colours)
        gain = np.median((ref[known] + 1.0) / (small[known] + 1.0), axis=0) if known.any() else 1.0
        now = small * gain
        d_ref = np.abs(now - ref).sum(axis=-1)
        noise = max(float(np.median(d_ref[known])) if known.any() else NOISE_FLOOR, NOISE_FLOOR)
        step = FOREIGN * noise
        d_empty = np.abs(now - np.nan_to_num(self.empty)).sum(axis=-1)
        seen_empty = ~np.isnan(self.empty[..., 0])
        foreign = known & (d_ref > step) & (~seen_empty | (d_empty > step))
        return cv2.morphologyEx(foreign.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)) > 0
