"""What one still view says about the board: a log-likelihood for any board a history
puts on the table.

A view (vision/view.py) carries, per cell, what the reader reads there (`Read`: a label
and a confidence) and how vision saw it (`CellSight`: where the reader has learned looks
on this table, a log-likelihood per label; where vision measures it, vision/change.py,
whether the cell still looks as it did in the last known position and as its own empty
look, a `Change`; how well it is seen; the cell in front of it; a hand over it). The
referee asks this class one question for every board it considers: how well does the
view fit it? The answer is a sum over cells, each weighted by how well it is seen (a
cell under a hand still moving weighs nothing: vision/change.py's MOVING_WEIGHT):

- what the reader reads: the label's log-likelihood (learned looks), or the reader's
  confidence spread over the other labels (a cold read, a game whose reader gives
  labels only). Where change is measured, labels count half: a lamp or an overlay can
  fool learned looks, not a before/after comparison;
- how the cell changed since the last known position: vision gives, per cell and per
  label, how likely its difference from that look is (vision/change.py): "holds what it
  held" expects it to look as it did (or a little moved: a nudged piece, a shadow), any
  other label the step that kind of change makes on this table; and the same against
  the cell's own empty look;
- what stands in front: at a low camera a tall piece hides part of the square behind
  it, so a board that puts a piece on (or takes one off) the square in front of a cell
  expects that cell to look changed too, and trusts its label less.

A cell a still hand, arm or sleeve lies over (`CellSight.covered`, vision/cover.py) is
unseen: it weighs nothing, shows no change, contradicts nothing; a history that changes
it is weighed by the cells the view does show (the square a piece went to, beside the
hand), so a hand resting where it took a piece from does not hold the ply back.

A cell *contradicts* a board when the view clearly shows something else there: the
reader surely reads another label and, where measured, the change agrees (or, in a game
whose labels name what changed, `Game.sure_labels_name_changes`, the cell changed as the
board says but surely into a third thing: a chip of the other colour). A board no history
reaches without a contradicted cell is what an alarm is about (controller/referee.py).
"""
from __future__ import annotations

import math

from vision.change import looks_changed
from vision.view import BoardView, Change, Read

UNMEASURED = Change(None, None)  # a cell whose change is not measured

LABEL_WEIGHT = 0.5  # where change is measured, what the reader reads counts this much
SEEN = 0.5  # a cell weighted at least this is seen well enough to show something
HIDDEN = 0.5  # a piece in front hiding at least this share of a cell hides it
CLEAR = 2.0  # a cell's change evidence this far either way says clearly "as it was" or "changed"
MISFIT = 2.0  # a cell this much better explained by another label is poorly explained
STRAIN = 8.0  # poorly explained cells in all, with one contradicted: a wrong board even so
START_MISFITS = 2  # well-seen cells a board may read otherwise and still be the start (cold reads err)
K = 3  # a misread is one of about two other looks (empty, the other side), whatever the game


class Evidence:
    """The view's log-likelihood of any board (see the module's docstring). `board` is the
    position the referee is sure of; boards are scored relative to the position the
    change is measured from (`BoardView.change_from`), or to `board` without one."""

    def __init__(self, view: BoardView, board: dict, min_confidence: float, labels_name_changes: bool,
                 wrong_cells: int = 1):
        self.read = view.cells
        self.looks = {c: s.looks for c, s in view.sight.items() if s.looks is not None}
        self.board = board
        self.min_confidence = min_confidence
        self.labels_name_changes = labels_name_changes
        self.wrong_cells = wrong_cells  # contradicted cells that make a wrong board (Game.wrong_cells)
        self.ref = view.change_from or None  # the board the change reference shows
        self.fronts = {c: s.front for c, s in view.sight.items() if s.front is not None}  # cell -> Front
        self.weights = {c: s.weight for c, s in view.sight.items()}  # how well each cell is seen
        change = {} if self.ref is None else {c: s.change for c, s in view.sight.items() if s.change is not None}
        # a recorded ply changed a cell that a piece in front hides (the knight left b8
        # behind the bishop on c8): its look against the reference says nothing more,
        # and would favour every history that fills it again
        self.change = {c: seen._replace(known=None) if self.ref.get(c) != board.get(c) and self.hidden(c, board)
                       else seen for c, seen in change.items()}
        self.moving = set(view.moving)
        self.covered = set(view.covered)  # under a hand at rest: unseen
        self.behind: dict = {}
        for c, front in self.fronts.items():
            self.behind.setdefault(front.cell, []).append(c)
        self.measured = any(change.known for change in self.change.values())
        # where change is measured, learned looks count half, unless this game's labels
        # are read surely (a chip's hue)
        self.label_weight = LABEL_WEIGHT if self.measured and not labels_name_changes else 1.0
        self.base_board = dict(self.ref) if self.ref is not None else dict(board)
        self._cache: dict = {}
        self._seen: dict = {}
        self._shows: dict = {}  # (cell, label) -> `_shows_changed`
        self.base = sum(self.ll(c, self.base_board) for c in self.base_board)

    # --- per cell ------------------------------------------------------------------------
    def label(self, cell) -> str:
        return self.read.get(cell, Read(self.board.get(cell), 0.0)).label

    def weight(self, cell) -> float:
        if cell in self.covered:
            return 0.0
        return self.weights.get(cell, 1.0)

    def label_ll(self, cell, label) -> float:
        """What the reader reads, as a log-likelihood of `label` (the best label at 0). A
        reader unsure of its best label (a look unlike any it learned: a hand, a shadow)
        says that much less."""
        looks = self.looks.get(cell)
        if looks is not None:
            sure = min(1.0, self.read.get(cell, Read(None, 1.0)).confidence / self.min_confidence)
            return sure * looks.get(label, min(looks.values()))
        if cell not in self.read:
            return 0.0
        lab, conf = self.read[cell]
        conf = min(max(conf, 0.05), 0.97)
        other = math.log((1.0 - conf) / (K - 1))
        return 0.0 if lab == label else min(0.0, other - math.log(conf))

    def _expect(self, cell, after: dict) -> tuple:
        """(label, how much a change in front makes the cell look changed, trust in what
        the reader reads) under `after`."""
        label = after.get(cell)
        hidden, trust = 0.0, 1.0
        if cell in self.fronts:
            front = self.fronts[cell]
            now = after.get(front.cell, "empty") != "empty"
            if now != (self.base_board.get(front.cell, "empty") != "empty"):
                hidden = front.share
            if now:
                trust = 1.0 - front.share
        return label, hidden, trust

    def ll(self, cell, after: dict) -> float:
        key = self._expect(cell, after)
        if (cell, key) not in self._cache:
            label, hidden, trust = key
            ll = trust * self.label_weight * self.label_ll(cell, label)
            change = self.change.get(cell, UNMEASURED)
            held, empty = change.known, change.empty
            if held:
                ref = self.ref.get(cell)
                if label == ref and hidden:
                    # a piece that came or went in front makes it look changed, by its share
                    changed = max(v for lab, v in held.items() if lab != ref)
                    ll += math.log((1.0 - hidden) * math.exp(held[ref]) + hidden * math.exp(changed))
                else:
                    ll += held.get(label, min(held.values()))
            if empty:
                ll += trust * empty.get(label, min(empty.values()))
            self._cache[(cell, key)] = self.weight(cell) * ll
        return self._cache[(cell, key)]

    def looks_changed(self, cell) -> float | None:
        """How much better a change explains the cell than "as it was" (None: not measured)."""
        held = self.change.get(cell, UNMEASURED).known
        return looks_changed(held, self.ref.get(cell)) if held else None

    def misfit(self, cell, after: dict) -> float:
        """How much better another label explains `cell` than `after`'s (0: none does)."""
        labels = {self.label(cell), "empty", self.base_board.get(cell), self.board.get(cell)} - {None}
        here = self.ll(cell, after)
        return max(0.0, max(self.ll(cell, {**after, cell: lab}) for lab in labels) - here)

    # --- whole boards --------------------------------------------------------------------
    def affected(self, after: dict) -> set:
        """The cells whose expectation `after` changes against the base board: its own
        changes and the cells behind them."""
        moved = {c for c in set(after) | set(self.base_board) if after.get(c) != self.base_board.get(c)}
        return moved | {b for c in moved for b in self.behind.get(c, ())}

    def score(self, after: dict) -> float:
        """The view's log-likelihood of `after` (up to a constant shared by all boards)."""
        return self.base + sum(self.ll(c, after) - self.ll(c, self.base_board) for c in self.affected(after))

    def hidden(self, cell, board: dict) -> bool:
        """Does a piece `board` puts in front of `cell` hide most of it?"""
        front = self.fronts.get(cell)
        return front is not None and front.share >= HIDDEN and board.get(front.cell, "empty") != "empty"

    def contradicts(self, cell, after: dict) -> bool:
        """Does the view clearly show something else on this well-seen cell than `after`
        puts there: the reader surely reads another label and (where measured) the change
        agrees? A cell hidden behind a piece shows nothing for sure."""
        if self.weight(cell) < SEEN or self.hidden(cell, after):
            return False
        label, hidden, _ = self._expect(cell, after)
        lab, conf = self.read.get(cell, (label, 0.0))
        by_label = lab != label and conf >= self.min_confidence
        held = self.change.get(cell, UNMEASURED).known
        if not held:
            # where vision measures change, a cell it could not yet measure (a hand covered
            # it when the position was last known) shows nothing for sure
            return by_label and not self.measured
        ref = self.ref.get(cell)
        kept = label == ref
        if kept and hidden >= 0.5:
            return False  # a piece came or went in front of it: its look says nothing
        changed = looks_changed(held, ref)
        by_change = changed > CLEAR if kept else held.get(label, -math.inf) < held[ref] - CLEAR
        if self.labels_name_changes and by_label and not kept and changed > CLEAR and lab != ref:
            # it changed as `after` says, but surely into something else (a chip of the
            # other colour), and this game's labels are to be believed on that
            return True
        return by_change and (by_label or cell not in self.read)

    def unexplained(self, after: dict) -> set:
        """The cells the view clearly shows otherwise than `after`."""
        return {c for c in after if self.contradicts(c, after)}

    def explains(self, after: dict) -> bool:
        """Does `after` explain the view: fewer cells contradicted than make a wrong board
        in this game, and where one cell misread is no wrong board (looks that can be
        fooled), that one not strained by other cells that fit badly too (a piece put
        on a square it cannot reach: the square it left may fit a legal move, its new
        one and the square behind it do not)?"""
        wrong = self.unexplained(after)
        if len(wrong) >= self.wrong_cells:
            return False
        return not wrong or self.strain(after) < STRAIN

    def strain(self, after: dict) -> float:
        """How much better other labels explain the cells `after` explains poorly, in
        all (log-likelihood). Each cell's evidence is already weighed by how much of it
        is seen: a square half hidden behind a piece counts half here, not nothing (a
        knight put down where it cannot go, its square left behind a pawn, is a wrong
        board, not one misread cell)."""
        misfits = (self.misfit(c, after) for c in after)
        return sum(m for m in misfits if m > MISFIT)

    def shown(self, cell, after: dict) -> bool:
        """Does this cell, where seen, favour `after` over the position?"""
        return (cell not in self.read or self.weight(cell) < SEEN
                or self.ll(cell, after) > self.ll(cell, self.board))

    def hides(self, before: dict, after: dict) -> bool:
        """Is a cell that changes from `before` to `after` under a hand still moving? A move
        is not guessed from what a hand covers: the next view will show it."""
        return any(after.get(c) != before.get(c) for c in self.moving)

    def poorly_explained(self, after: dict) -> bool:
        """Is a well-seen cell clearly better explained by another label (worth a longer
        history)?"""
        return any(self.weight(c) >= SEEN and self.misfit(c, after) > MISFIT for c in after)

    def maybe_changed(self, board: dict) -> set:
        """Cells a move from `board` could explain: read otherwise or unsurely, or whose
        look disagrees with what `board` keeps or changes since the known position; and,
        when some cell does, the cells a piece `board` puts in front mostly hides (a
        knight leaving b8 behind the bishop on c8 changes nothing the camera sees there;
        where it went shows the move) and those a hand covers, at rest or still moving (a
        move made under it, before the reply the view shows; castling while the arm still
        lies over e1 and f1 leaves g1 and h1 as Rg1 does, and left out, Rg1 led alone)."""
        seen = self._seen_changed(board)
        if not seen:
            return seen
        hands = (self.moving | self.covered).intersection(board)
        return seen | hands | {c for c in self.fronts if c in board and self.hidden(c, board)}

    def unseen(self, before: dict, after: dict) -> bool:
        """Does going from `before` to `after` leave alone every cell the view shows
        changed? Such a history (a piece moving only among hidden cells) is guessed from
        nothing."""
        seen = self._seen_changed(before)
        return not any(after.get(c) != before.get(c) for c in seen)

    def _seen_changed(self, board: dict) -> set:
        """The cells `maybe_changed` finds by what the view shows (cached per board, and
        per cell and label: a search asks it of thousands of boards a move apart)."""
        cached = self._seen.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1]
        shows = self._shows
        out = set()
        for item in board.items():
            changed = shows.get(item)
            if changed is None:
                changed = shows[item] = self._shows_changed(*item)
            if changed:
                out.add(item[0])
        self._seen[id(board)] = (board, out)
        return out

    def _shows_changed(self, c, lab) -> bool:
        """Does the view show cell `c` otherwise than a board that puts `lab` there?"""
        if c in self.moving or c in self.covered:
            return False  # a hand over it: nothing it shows is a move yet
        read = self.read.get(c)
        if read is not None and (read.label != lab or read.confidence < self.min_confidence):
            return True
        changed = self.looks_changed(c)
        return changed is not None and (changed > 0.0) == (lab == self.ref.get(c))

    def unclear(self, board: dict) -> bool:
        """Is any well-seen cell read unsurely as something other than `board` (and, where
        measured, changed)? Then the view is not clear enough for an alarm."""
        for c, lab in board.items():
            read, conf = self.read.get(c, (lab, 1.0))
            changed = self.looks_changed(c)
            if (read != lab and conf < self.min_confidence and self.weight(c) >= SEEN
                    and (changed is None or changed > 0.0)):
                return True
        return False

    def fits_the_start(self, board: dict) -> bool:
        """Does a cold read show the start position as well as a cold read can? Before any
        look is learned on the table, what a reader gets right is whether each cell is
        empty (a few may err); which side a piece belongs to it may read by its square's
        colour (dark wood on dark wood), so the sides are a prior, never a veto: their
        looks are learned from the start itself."""
        sure = [c for c in board if c in self.read and self.read[c].confidence >= self.min_confidence
                and self.weight(c) >= SEEN]
        misfits = [c for c in sure if (self.read[c].label == "empty") != (board[c] == "empty")]
        return len(misfits) <= START_MISFITS

