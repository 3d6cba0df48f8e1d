"""The Watcher: camera frames in, a BoardView out whenever the board settles differently.

Per frame it does as little as a frame needs (the figures are in bench/vision.py):
1. a sparse sample of the frame says whether the feed is black or frozen;
2. the playing area is warped, small, into a colour plane and compared with the last
   frame's: any motion over the board (a hand, an arm, a chip still falling) holds the
   reading back and marks the time (`moved_at`);
3. once nothing has moved for `still_s`, the playing area is warped at the size the
   reader wants. If the board may have moved (the patches around the markers changed, or
   the board's never-changing parts look different from the last reading), the markers
   are searched again (on a downscaled grey frame); a hand held still over the board
   keeps holding the reading back (for up to PATIENCE_S; then it is read, the cells the
   hand covers marked as such, below, and the never-changing parts' reference is kept
   from the last clear reading, so the hand's leaving holds nothing back). Then the
   reader reads the plane. A view is returned only when that reading differs from the
   last view returned (or is the first), on the cells neither moving nor covered.
Markers are searched on every frame only while none have been found, and then at most
twice a second.

What a view carries beyond the labels is typed (vision/view.py): per cell a `CellSight`,
per view the motions counted and the position change is measured from. On a board of
8x8 squares (chess: `Reader.squares`), and for a reader that measures change itself
(Connect 4: `Reader.measures_change`), each cell's sight carries how it changed since the
last position the referee accepted (vision/change.py, `CellSight.change`, measured from
`BoardView.change_from`) and, on squares, how well it is seen (`weight`), which square
stands in front of it (`front`, with the share of the cell a piece there hides) and
whether it still moves (`moving`); while a hand waits at the board's edge (at most a
quarter of the blocks still moving) the rest of the board is read anyway, so a quick
reply is seen between the plies. `learn(..., at=t)` also measures change from then on
against the plane that view came from. A reader that learns looks gives each cell's
`looks` (`Reader.weigh`).

Every view also says which cells a hand, arm, sleeve or any foreign object lies over while
it is still (`CellSight.covered`; vision/cover.py tells them from the look of the last
known position and each cell's empty look): the referee takes them as unseen, the change
evidence weighs them 0, and nothing is learned from them when that view's position is
known (but for a covered cell read surely as the position has it: the kept look is
refreshed there, so a hand that lay there when a position was known is not taken for a
hand forever).

`BoardView.motions` (views read by `feed`; None on `read_frame`'s) counts the motions over
the board since the previous view returned: a motion is a burst of frames with movement
over the playing area that ends in `still_s` of stillness, however long it lasts and
however many hands take part (a quick reply in one motion is one). A burst still going on
when a view is read (a hand waiting at the edge) counts 1 for that view, and again for
the next view once it has ended, so the count never falls short of the hands that moved
(the referee, adding views up, counts such a burst once: controller/following.py).
A re-read of a still board that reads differently without anything moving says 0; the
first view counts from the watcher's first frame (which is a motion: nothing came before).
After a stretch the watcher did not see (no frames for over LOST_S and four of the
source's usual intervals, black frames, the markers out of view) the next view says None:
what moved meanwhile was not counted.

Geometry. Four reference points in the frame, in the order bottom-left, bottom-right,
top-right, top-left, map to four points in the reader's plane: the inner corners of the
board's four markers (vision/markers.py) go to the plane's corners, and corners given by
the user or the config go to the reader's `anchors` (for Connect 4 the centres of the
corner holes; for chess the outer corners a1, h1, h8, a8, the plane's corners). Corners
given for a board with marks to fit (`Reader.fit`: a chess board's crossings) are fitted
to them first (`_fit`, vision/locate.py): clicked by hand, they are a few pixels off at
best.

A reader (one per board type, named by the game's entry in controller/registry.py, which
builds it and hands it to the Watcher: vision keeps no table of games) implements
vision/reader.py's `Reader`: `plane_size`, `cells`, `read`, `learn` (from any position the
referee knows, blending what it learned), `anchors`, `static_mask`, `markers`,
`view_from`, and what it measures beyond labels (`squares`, `measures_change`, `weigh`,
`visible`, `unlearned`): the watcher asks no reader for anything it does not declare.
It is built as `Reader(colours=..., **reader_options)` with the colours from config
("#rrggbb" list) and the options of the board sheet in play (the referee's side hands
them in: vision opens no game file).
"""
from __future__ import annotations

import copy

import cv2
import numpy as np

from . import locate, markers
from .change import ALIGNED, CellChange, same_place
from .cover import Cover
from .stable import FrameHealth, MotionGate, occluded
from .view import STILL_S, BoardView, CellSight, Change
from .view import SURE  # a change of a cell's read across it is a new view

MOTION_SCALE = 0.5  # the motion plane is the reader's plane at this scale
SEARCH_EVERY_S = 0.5  # while no markers are in view
REREAD_S = 1.0  # re-read a still board this often, in case a reading was unsure
PATCH_STEP = 20.0  # mean grey change of a marker patch that means the view moved
KEEP_PLANES_S = 10.0  # a view's plane is kept this long, for learning once it is accepted
SAME_PX = 2.0  # markers found again within this many frame pixels of where they were: the board has not moved
PATIENCE_S = 3.0  # a "hand" still this long over the board's never-changing parts: read (covered cells marked)
LOST_S = 1.0  # frames further apart than this and than a few of the source's own intervals: unseen between
PARTIAL_SHARE = 0.25  # at most this share of a board of squares may still move for a partial read
SHIFT_SCALE = 0.25  # a knocked camera's move is measured on the frame at this scale


class Watcher:
    def __init__(self, board: str, reader, marker_ids, *, corners=None, still_s: float = STILL_S,
                 reader_options: dict | None = None):
        self.board = board  # the game's name, for messages
        self.reader_options = reader_options or None  # the board sheet read (None: the only one)
        self.reader = reader
        self.marker_ids = tuple(marker_ids)  # the four markers of the sheet in play
        w, h = self.reader.plane_size
        self.plane_corners = np.float32([[0, h], [w, h], [w, 0], [0, 0]])  # BL, BR, TR, TL
        self.anchors = self.plane_corners if self.reader.anchors is None else np.float32(self.reader.anchors)
        self.small_size = (max(8, int(w * MOTION_SCALE)), max(8, int(h * MOTION_SCALE)))
        self.static_mask = self.reader.static_mask
        self.health = FrameHealth()
        self.gate = MotionGate(still_s)
        self.detector = markers.detector()
        self.given = corners is not None and len(corners) > 0
        self.H: np.ndarray | None = None
        self.quad: np.ndarray | None = None  # the four reference points in the frame
        self.patches: list = []
        self.reference: np.ndarray | None = None  # the plane at the last good reading
        self._blocked_since: float | None = None
        self.status = "no markers in view"
        self.last_frame: np.ndarray | None = None
        self.last_plane: np.ndarray | None = None
        self.last_view: BoardView | None = None
        self._searched_at: float | None = None
        self._read_at: float | None = None
        self._pending_learn: dict | None = None
        self.lessons = 0  # how many times the reader has learned (its looks are kept after each)
        self.change = CellChange(self.reader)  # per-cell change against the last known position
        self.cover = Cover(self.reader)  # the cells a still hand lies over
        self._cover_H: np.ndarray | None = None  # the homography the cover's reference was taken through
        self._motions = 0  # bursts of motion ended since the last view returned
        # the watcher did not see the board for a while since the last view returned (no
        # frames, black frames, no markers in view): the motions it counted are not all
        # there were, so the next view says None (not counted)
        self._blind = False
        self._looked_at: float | None = None  # the last frame the board was looked at in
        self._intervals: list[float] = []  # the source's latest intervals between such frames
        self._in_motion = False  # a burst of motion is going on
        self._moving = None  # the cells under motion in the last read (8x8), None when all still
        # (expected, plane, hidden, agree, around: None while a thing lies on the board) to
        # learn before the next frame
        self._learn_from: tuple | None = None
        # (plane, hidden: the cells under a hand, {covered cell: label read surely, else
        # None}, the table around the board) of the last few views, by time
        self._planes: dict[float, tuple] = {}
        self._told_H: np.ndarray | None = None  # the homography the reader was last told of
        self._new_corners: np.ndarray | None = None  # clicked corners, for the next frame
        self.kept_quad: np.ndarray | None = None  # where the markers were before a restart
        self._unremembered = None  # the reader as made, while the one reading has looks kept from before a restart
        self._unfitted = False  # corners given by hand, not yet fitted to the board's own lines
        self._fitted_at: float | None = None  # the last frame a fit was tried on
        self.fitted_by: float | None = None  # how far (frame pixels) the fit moved the corners given (None: no fit yet)
        self._look_again = False  # a burst of motion ended since the lines were last looked at (the camera may have moved)
        self._turned = False  # the corners moved because the camera turned on its mount (`_moved`), not yet told
        self._read_grey: np.ndarray | None = None  # the frame the board was last read in, grey, at SHIFT_SCALE
        self._shift_window: np.ndarray | None = None  # phase correlation's window, for that size
        self.moved_by: list[float] = []  # how far (frame pixels) the board was found moved, each time the camera moved
        if self.given:
            self._set_geometry(locate.parse_corners(corners), self.anchors)
            self._unfitted = self._fits
            self.status = "ok"

    # --- geometry ----------------------------------------------------------------------
    def _set_geometry(self, points: np.ndarray, anchors: np.ndarray, grey: np.ndarray | None = None) -> None:
        self.quad = np.float32(points)
        self.H = locate.plane_homography(points, anchors)
        self.H_small = locate.scaled(self.H, MOTION_SCALE)
        self.patches = [] if grey is None else self._marker_patches(grey)

    def cell_outline(self, cell) -> np.ndarray | None:
        """Where `cell` lies in the frame (4x2 points, the reader's outline mapped back
        through H); None while the board has not been located."""
        if self.H is None:
            return None
        plane = np.float32(self.reader.cell_outline(cell)).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(plane, np.linalg.inv(self.H)).reshape(-1, 2)

    def set_corners(self, points) -> None:
        """Corners clicked on the page's calibration view: from the next frame on they
        place the board instead of the markers (order as for `corners`). Checked now,
        applied by the thread that feeds frames, never in the middle of a frame."""
        size = None if self.last_frame is None else self.last_frame.shape[1::-1]
        self._new_corners = locate.parse_corners(points, size)

    def _apply_corners(self) -> None:
        points, self._new_corners = self._new_corners, None
        self.given = True
        self._set_geometry(points, self.anchors)
        self._unfitted, self._fitted_at = self._fits, None
        self.gate = MotionGate(self.gate.still_s)
        self.status = "ok"

    @property
    def _fits(self) -> bool:
        """Are the corners given by hand, on a board with marks to fit them to?"""
        return self.given and self.reader.fit is not None

    def _fit(self, t: float, frame: np.ndarray) -> None:
        """Corners given by hand (the config, `--corners`, the page) are moved onto the
        board's own marks (`Reader.fit`, a chess board's crossings): tried on the first
        frame, and again every SEARCH_EVERY_S while the marks cannot tell (a hand or an
        overlay over the board) until one fits or the board is first read; never after,
        for what is learned is kept through the corners. Before the motion gate looks at
        the frame: corners a third of a square off take in the table beside the board,
        where hands move all the time, and the board would never look still."""
        self._fitted_at = t
        fitted = self.reader.fit(frame, self.quad, locate.FIT_SAME)
        if fitted is None:
            return
        self._unfitted = False
        self.fitted_by = float(np.hypot(*(fitted - self.quad).T).max())
        if self.fitted_by > 0:
            self._set_geometry(fitted, self.anchors)

    def _moved(self, frame: np.ndarray) -> None:
        """After a burst of motion, before the still board is read: are the board's lines
        where the corners say? A camera knocked, or its mount settling, moves the whole
        board in the frame, and every square would be read from beside itself. Lines
        FIT_MOVED of a square or more from the corners (a fit is good to about a fiftieth)
        say it moved: the corners follow them. The fit starts from where the whole frame
        went (`_shift`: a knock of more than half a square would otherwise put each
        crossing nearer another than its own). A knock turns the camera about its mount,
        and a camera turning about itself maps every point, piece tops too, by one
        homography: what was kept through the old corners (the reader's looks, the
        change's reference, the cover's kept look) holds through the new ones (`_read`:
        `change.turned`), where markers found elsewhere (the board moved on the table, the
        pieces seen from another place) drop them. Less is left alone: moving the corners
        by a pixel changes how every square is sampled for nothing."""
        self._look_again = False
        fitted = self.reader.fit(frame, self.quad + self._shift(frame), 0.0)
        if fitted is None or not self._apart(fitted):
            return
        self.moved_by.append(float(np.hypot(*(fitted - self.quad).T).max()))
        self._set_geometry(fitted, self.anchors)
        self._turned = True
        self.gate.previous = self.small_plane(frame)

    def _apart(self, points: np.ndarray) -> bool:
        """Are `points` FIT_MOVED of a cell or more from the corners in use?"""
        off = locate.through(self.H, points) - self.anchors
        return bool(np.hypot(*off.T).max() >= locate.FIT_MOVED * self.reader.plane_size[0] / self.reader.grid[0])

    def _shift(self, frame: np.ndarray) -> np.ndarray:
        """How far the whole frame moved since the board was last read (frame pixels; zero
        when unclear): a knock of more than half a square puts every crossing nearer
        another than its own, so the fit (`_moved`) starts from where the frame went. Phase
        correlation over the whole frame, most of which (the table, the board) is as it
        was whatever a hand moved meanwhile."""
        small = _small_grey(frame)
        last = self._read_grey
        if last is None or last.shape != small.shape:
            return np.zeros(2, np.float32)
        if self._shift_window is None or self._shift_window.shape != small.shape:
            self._shift_window = cv2.createHanningWindow(small.shape[::-1], cv2.CV_32F)
        (dx, dy), response = cv2.phaseCorrelate(last, small, self._shift_window)
        return np.float32([dx, dy]) / SHIFT_SCALE if response >= ALIGNED else np.zeros(2, np.float32)

    def _marker_patches(self, grey: np.ndarray) -> list:
        """Small grey patches around the markers, to notice when the view moves."""
        out = []
        h, w = grey.shape
        centre = self.quad.mean(axis=0)
        for p in self.quad:
            # the marker lies outside its inner corner, away from the board's middle
            c = p + (p - centre) / np.linalg.norm(p - centre) * 12
            x0, y0 = int(max(0, c[0] - 24)), int(max(0, c[1] - 24))
            x1, y1 = int(min(w, c[0] + 24)), int(min(h, c[1] + 24))
            if x1 > x0 and y1 > y0:
                out.append(((y0, y1, x0, x1), grey[y0:y1, x0:x1].astype(np.float32)))
        return out

    def _view_moved(self, frame: np.ndarray) -> bool:
        """Does any marker patch differ from when the markers were found (the light level
        divided out)?"""
        for (y0, y1, x0, x1), ref in self.patches:
            cur = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY).astype(np.float32)
            cur *= float(ref.mean()) / max(float(cur.mean()), 1.0)
            if float(np.abs(cur - ref).mean()) > PATCH_STEP:
                return True
        return False

    def _search(self, t: float, frame: np.ndarray) -> bool:
        """Look for the board's markers; True when all four were found. Found again where
        they were (a hand over a marker's edge moves its corners a pixel), the board has
        not moved: the geometry stays, or everything kept through it (the cover's look,
        the change reference) would be dropped and a hand read as the board."""
        self._searched_at = t
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        pts = locate.find_markers(grey, self.marker_ids, self.detector)
        if pts is None:
            return False
        if self.quad is not None and float(np.abs(np.float32(pts) - self.quad).max()) < SAME_PX:
            self.patches = self._marker_patches(grey)
            return True
        self._set_geometry(pts, self.plane_corners, grey)
        return True

    # --- the per-frame path ----------------------------------------------------------
    def learn(self, expected: dict, at: float | None = None, skip=()) -> None:
        """The board holds `expected` (any position the referee knows): the reader learns
        what it looks like, and change is measured from it. With `at`, from the plane of
        the view read at that time (the view a move was accepted from; nothing is learned
        once that plane is gone, for the board may have changed since), leaving out the
        cells in `skip` (on squares: the referee reads them otherwise); without it, from
        the next still view (a game started or resumed, where the board is known to stand
        as `expected`). Called from the referee's thread: the learning itself happens on
        the thread that feeds frames, never in the middle of a frame."""
        if at is not None:
            kept = self._planes.get(at)
            if kept is not None:
                plane, hidden, under, around = kept
                if skip and self.change.squares:
                    left_out = np.array([c in skip for c in self.reader.cells]).reshape(np.shape(self.gate.block_at))
                    hidden = left_out if hidden is None else (hidden | left_out)
                elif skip:
                    return  # a reader of the whole board at once learns only from all of it
                # covered cells that read surely as the known position has them show the
                # table again (a hand lay there when a position was known, and has left):
                # the cover keeps their look, and the table around, from this view. But
                # only when every covered cell reads so: one read otherwise, or unsurely,
                # says the thing still lies there (a dark sleeve reads as the dark pieces
                # under it on some squares), and the cover keeps the look it had, or the
                # thing would become the table's look where it reaches in from outside,
                # and be read as pieces from the next view on
                gone = all(expected.get(c) == lab for c, lab in under.items())
                agree = {c for c in under if c not in skip} if gone else set()
                self._learn_from = (dict(expected), plane, hidden, agree, around if gone else None)
                self._pending_learn = None  # a later known position replaces an earlier one
            return
        self._pending_learn = dict(expected)
        self._read_at = None

    def expect(self, boards) -> None:
        """The boards the referee's histories lead to now (it keeps a few likeliest): a
        still thing whose cells all read surely as one of them, where it differs from the
        known position, is what those histories' moves put there, not a hand
        (vision/cover.py, rule 4). Called
        from the referee's thread after each view; the cover reads it on the thread that
        feeds frames (one tuple, swapped whole)."""
        self.cover.expected = tuple(boards)

    @property
    def waits_to_learn(self) -> bool:
        """Will the next still view be learned as a position the camera never saw
        (`learn` without `at`: a game started, resumed without kept looks)?"""
        return self._pending_learn is not None

    def new_game(self) -> None:
        """Another game on the board this watcher reads: its looks stay, the position it
        last knew does not (change is measured again from the next known position), and
        the next still view is handed on whatever the last one read."""
        self.change.forget_position()
        self.cover.forget()
        self._pending_learn, self._learn_from = None, None
        self.last_view = None

    def _learn(self, plane: np.ndarray, expected: dict, moving=None, agree=(), around=None) -> None:
        """The reader learns from what no hand lies or moves over (on squares, the cells
        clear; elsewhere only a board all clear); the change reference keeps its old look
        there. The cover's reference is refreshed also on the covered cells in `agree`
        (read surely as the known position has them): a hand that lay there when a
        position was first known, and left since, is not taken for a hand forever.
        `around`: the cover's small plane of the same frame, with the table around (None:
        the cover keeps the look it has)."""
        if moving is None or self.change.squares:
            still = expected if moving is None else {
                c: lab for c, lab, m in zip(self.reader.cells, (expected.get(c) for c in self.reader.cells),
                                           np.asarray(moving).reshape(-1)) if not m and lab is not None}
            try:
                self.reader.learn(plane, still)
                self.lessons += 1
            except ValueError:
                pass  # a position this reader cannot learn from: it keeps the looks it has
        self.change.reference(plane, expected, moving)
        if around is not None:
            self.cover.reference(around, expected, () if moving is None else self._cells_of(moving) - set(agree))
        self.last_view = None

    def remember(self, reader, quad=None) -> None:
        """Take the looks `reader` learned of this table before a restart: all of them
        when it read this very sheet, else what carries over from sheet to sheet
        (`Reader.adopt`); and `quad`, where its markers were found then, used only if
        they are not all in view now. Called before the first frame."""
        self._unremembered = self.reader
        self.reader = copy.deepcopy(self.reader)  # `adopt` blends into its own sets and tables
        if type(reader) is type(self.reader) and reader.cells == self.reader.cells and \
                reader.plane_size == self.reader.plane_size:
            self.reader.__dict__.update(reader.__dict__)
            self.kept_quad = None if quad is None or self.given else np.float32(quad)
        else:
            self.reader.adopt(reader)

    def tried_remembered(self, fit: bool) -> None:
        """The looks taken in `remember` were tried on the first view: they read on
        (`fit`, the reader as made is let go), or they do not fit the table now (the
        camera was moved or the light changed while the service was down) and the reader
        as made takes over, to learn the table again from a known position."""
        made, self._unremembered = self._unremembered, None
        if fit or made is None:
            return
        self.reader = made
        if self._told_H is not None:  # it learns next, from the camera where it stands now
            h, w = self.last_frame.shape[:2]
            self.reader.view_from(self._told_H, (w, h))

    def _cells_of(self, mask) -> set:
        """The cells of a mask (bool per cell in reader order; on squares 8x8, plane rows)."""
        return {c for c, m in zip(self.reader.cells, np.asarray(mask).reshape(-1)) if m}

    @property
    def learning(self) -> bool:
        """Does the reader still lack what a known position teaches: its looks, or a cell's
        reference (a hand covered it when the position was last known)?"""
        return self.reader.unlearned or (self.change.squares and not self.change.known.all())

    def small_plane(self, frame: np.ndarray) -> np.ndarray:
        """The playing area, small, in colour: a red chip on a green backdrop of the same
        brightness is motion too."""
        return cv2.warpPerspective(frame, self.H_small, self.small_size, flags=cv2.INTER_LINEAR)

    def feed(self, t: float, frame: np.ndarray) -> BoardView | None:
        """One camera frame; a BoardView when the board has just settled differently."""
        if self._new_corners is not None:
            self._apply_corners()
        if self._learn_from is not None:
            expected, plane, moving, agree, around = self._learn_from
            self._learn_from = None
            self._learn(plane, expected, moving, agree, around)
        self.last_frame = frame
        problem = self.health.check(t, frame)
        if problem == "too dark":
            self.status = problem
            self._blind = True
            return None
        if self.H is None:
            if self._searched_at is not None and t - self._searched_at < SEARCH_EVERY_S:
                return None
            if not self._search(t, frame):
                if self.kept_quad is None:
                    self.status = "no markers in view"
                    self._blind = self._looked_at is not None  # before the first look there is nothing to miss
                    return None
                # a restart where a piece now hides a marker: where the board was found
                # before it (the markers are searched again whenever the view moves)
                self._set_geometry(self.kept_quad, self.plane_corners, cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
            self.kept_quad = None
            self.gate.reset(t)
        self._look(t)
        if self._unfitted and (self._fitted_at is None or t - self._fitted_at >= SEARCH_EVERY_S):
            self._fit(t, frame)
        moving = None
        moved = self.gate.update(t, self.small_plane(frame))
        if moved:
            self._in_motion = True
        elif self._in_motion and self.gate.still(t):
            self._in_motion = False  # a burst of motion over the board ended in stillness
            self._motions += 1
            self._look_again = self._fits and not self._unfitted
        if moved or not self.gate.still(t):
            moving = self._partial(t)
            if moving is None:
                self.status = "hand over the board"
                self._read_at = None
                return None
        if problem:
            self.status = problem
        if moving is None and self._moving is None and self._read_at is not None and t - self._read_at < REREAD_S:
            return None
        if moving is None and self._look_again:
            self._moved(frame)
        plane = self.plane(frame)
        if moving is not None:
            self.status = "hand at the board's edge"
            return self._read(t, plane, moving, self._motions + 1)
        if self._blocked(plane) or (self.patches and self._view_moved(frame)):
            searchable = self._searched_at is None or t - self._searched_at >= SEARCH_EVERY_S
            if not self.given and searchable and self._search(t, frame):
                plane = self.plane(frame)
                self.gate.previous = self.small_plane(frame)
            if self._blocked(plane):
                self._blocked_since = t if self._blocked_since is None else self._blocked_since
                if t - self._blocked_since < PATIENCE_S:
                    self.status = "hand over the board"
                    return None
                # unchanged for that long: a shadow or a moved lamp, not a hand
        self._blocked_since = None
        self.status = problem or "ok"
        return self._read(t, plane, motions=self._motions)

    def _look(self, t: float) -> None:
        """A frame the board is looked at in: a gap since the last one longer than
        LOST_S and than four of the source's usual intervals (a camera lost, frames
        dropped from a recording; a folder of stills at its own slow pace is no gap)
        means the motions counted miss what happened in it."""
        if self._looked_at is not None:
            gap = t - self._looked_at
            # the source's pace is known after a few frames (a folder of stills may be slow)
            if gap > LOST_S and len(self._intervals) >= 3 and gap > 4 * float(np.median(self._intervals)):
                self._blind = True  # (the median only for a gap: this runs on every frame)
            self._intervals.append(gap)
            del self._intervals[:-20]
        self._looked_at = t

    def plane(self, frame: np.ndarray) -> np.ndarray:
        """The playing area at the size the reader wants."""
        return cv2.warpPerspective(frame, self.H, tuple(self.reader.plane_size), flags=cv2.INTER_LINEAR)

    def _blocked(self, plane: np.ndarray) -> bool:
        return self.reference is not None and occluded(plane, self.reference, self.static_mask)

    def _partial(self, t: float) -> np.ndarray | None:
        """The cells still moving (8x8, plane rows) when the rest of a board of squares may be
        read now: most of it has been still for `still_s`, part of that settled since the
        last read, and the last read is `still_s` old. None otherwise (wait)."""
        if not self.change.squares:
            return None
        moving = self.gate.moving(t)
        if moving.mean() > PARTIAL_SHARE or moving.all():
            return None
        last = self._read_at if self._read_at is not None else -np.inf
        if t - last < self.gate.still_s or not (self.gate.block_at[~moving] > last).any():
            return None
        return moving

    def _read(self, t: float, plane: np.ndarray, moving=None, motions: int | None = None) -> BoardView | None:
        self._read_at = t
        self._unfitted = False  # the board is read through these corners from now on
        if self._fits and moving is None:
            self._read_grey = _small_grey(self.last_frame)
        self._moving = moving
        if self._told_H is not self.H:
            # readers of tall pieces need to know where the camera stands (the lean)
            h, w = self.last_frame.shape[:2]
            self.reader.view_from(self.H, (w, h))
            if self._turned:
                # the camera turned on its mount (`_moved`): every plane kept holds through the new corners
                self.change.turned(self.H)
                self._cover_H = self.H
            else:
                self.change.camera(self.H, (w, h))
                if self._cover_H is None or not same_place(self._cover_H, self.H, self.reader.plane_size):
                    self.cover.forget()  # the board lies elsewhere in the frame: its kept look is gone
                    self._cover_H = self.H
            self._told_H, self._turned = self.H, False
        # a player's shadow over part of the board taken out (vision/shade.py), before anything is read
        around, plane = self.cover.relit(self.cover.around(self.last_frame, self.H), plane)
        self.last_plane = plane
        if self._pending_learn is not None and moving is None:
            self._learn(plane, self._pending_learn, around=around)
            self._pending_learn = None
        cells = self.reader.read(plane)
        self.cover.fronts = self.change.fronts  # where tall pieces lean, as learned so far
        covered = self.cover.covered(around, cells, t)
        if self.static_mask is not None and not covered:
            # the board's never-changing parts as they look clear (not with a hand on them,
            # or its leaving would hold the next reading back again)
            self.reference = plane.astype(np.float32)
        hidden = moving  # the cells nothing can be seen on: under a moving or a resting hand
        if covered:
            mask = np.array([c in covered for c in self.reader.cells])
            if self.change.squares:
                mask = mask.reshape(np.shape(self.gate.block_at))
                hidden = mask if moving is None else (moving | mask)
            elif moving is None:
                hidden = mask  # a board read whole is not learned from while a hand lies on it
        moved_at = self.gate.moved_at if moving is None else float(self.gate.block_at[~moving].max())
        view = BoardView(cells, t=t, moved_at=moved_at, source=self.board,
                         motions=None if self._blind else motions,
                         change_from=self.change.board,
                         sight=self._sight(plane, cells, covered, moving, hidden))
        if self.last_view is not None and _same(self.last_view, view):
            return None
        self.last_view = view
        if motions is not None:
            self._motions, self._blind = 0, False
        self._planes = {k: p for k, p in self._planes.items() if k > t - KEEP_PLANES_S}
        self._planes[t] = (plane, hidden, {c: cells[c][0] if cells[c][1] >= SURE else None for c in covered}, around)
        return view

    def _sight(self, plane: np.ndarray, cells: dict, covered: list, moving, hidden) -> dict:
        """How each cell was seen beyond its label (vision/view.py `CellSight`): its looks'
        likelihoods, its change since the last known position (from the position
        `change.board`), how well it is seen (0 under `hidden`, the cells under a moving
        or resting hand, on squares), the square in front of it, whether a hand covers it
        (`covered`) or still moves over it (`moving`, an 8x8 mask on squares)."""
        looks = self.reader.weigh(plane) or {}
        change, weights, moved = {}, None, ()
        if self.change.supported:
            change = self.change.evidence(plane)
            if self.change.squares:
                weights = self.change.weights(hidden, self.reader.visible(cells))
            if moving is not None:
                moved = self._cells_of(moving)
        fronts, covered = self.change.fronts, set(covered)
        return {c: CellSight(looks=looks.get(c), change=change.get(c), weight=1.0 if weights is None else weights[k],
                             front=fronts.get(c), covered=c in covered, moving=c in moved)
                for k, c in enumerate(self.reader.cells)}

    def read_frame(self, frame: np.ndarray, t: float = 0.0) -> BoardView:
        """Read one picture at once, without waiting for stillness (`referee read`).
        Raises CornersError (a ValueError, worded in the listener's language) when the
        board cannot be found in it."""
        self.last_frame = frame
        if self.H is None and not self._search(t, frame):
            raise locate.CornersError(locate.N_("the {board} markers (ids {ids}) are not all in view; "
                                                "give the corners instead"), board=self.board, ids=self.marker_ids)
        if self._unfitted:
            self._fit(t, frame)
        return self._read(t, self.plane(frame)) or self.last_view


def _small_grey(frame: np.ndarray) -> np.ndarray:
    """The frame in grey at SHIFT_SCALE, as `Watcher._shift` compares two."""
    return cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), None, fx=SHIFT_SCALE, fy=SHIFT_SCALE,
                      interpolation=cv2.INTER_AREA).astype(np.float32)


def _same(last: BoardView, view: BoardView) -> bool:
    """The same reading, on the cells nothing moves over: labels, sureness, and (where
    change is measured) which cells changed since the last known position."""
    a, b = last.cells, view.cells
    skip = view.moving | view.covered
    if (last.moving | last.covered) - skip:
        return False  # cells a hand hid last time are seen now
    return all(a[c].label == b[c].label and (a[c].confidence >= SURE) == (b[c].confidence >= SURE)
               and _favoured(last.sight_of(c).change) == _favoured(view.sight_of(c).change)
               for c in b if c not in skip)


def _favoured(change: Change | None) -> str | None:
    """The label a cell's change evidence (vision/change.py) favours, if any."""
    if change is None or not change.known:
        return None
    return max(change.known, key=change.known.get)
