"""Connect 4, classic and with the Blocker (shared/RULINGS.md section 2).

The grid has 7 columns and 6 rows; a cell is (column, row), both counted from 0 at the
bottom left. Seat 0 is Mario (red chips), seat 1 is Luigi (green chips).

Text notation (columns 1-7 from the left, rows 1-6 from the bottom):
- ``4``      drop a chip in column 4;
- ``4x``     drop a chip in column 4, which lands in the top row, and remove the
             opponent's blocker in the same turn;
- ``x``      remove the opponent's blocker right after one's own top-row drop (the
             camera sees the drop and the removal one after the other);
- ``b4/3``   push one's blocker into column 4, row 3 (the whole turn);
- ``-``      leave the opponent's blocker in after one's own top-row drop.
A top-row drop that is not followed by ``x`` ends its turn when the opponent moves (or
with ``-``, which is needed only when the opponent then has no move left: a draw).

What the camera sees in each hole: "empty", "p0", "p1" or "blocker" (the two blockers
look alike; the rules know which is whose from where they went in).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Mapping

from ..i18n import N_
from .base import Game, IllegalAction, NotationError, Outcome, Prompt, Ruling
from .words import semicolon

COLS, ROWS = 7, 6
EMPTY = ""
NAMES = ("Mario", "Luigi")
CHIP_COLOUR = (N_("red chip"), N_("green chip"))
BLOCKER_WORDS = {"hand": N_("blocker still to play"), "placed": N_("blocker in the grid"),
                 "removed": N_("blocker taken out"), "none": N_("no blocker")}


@dataclass(frozen=True)
class Drop:
    col: int
    remove: bool = False


@dataclass(frozen=True)
class PlaceBlocker:
    col: int
    row: int


@dataclass(frozen=True)
class RemoveBlocker:
    pass


@dataclass(frozen=True)
class KeepBlocker:
    """The removal declined (the camera sees nothing: it is entered)."""


@dataclass(frozen=True)
class C4State:
    # cols[c][r]: "" empty, "0"/"1" a chip of that seat, "B0"/"B1" that seat's blocker
    cols: tuple[tuple[str, ...], ...]
    turn: int = 0
    blockers: tuple[str, str] = ("hand", "hand")  # "hand", "placed", "removed", "none"
    may_remove: int | None = None  # seat that just dropped into the top row
    outcome: Outcome | None = None



def landing_row(column: tuple[str, ...]) -> int | None:
    """Where a chip dropped in this column comes to rest: just above the highest chip
    or blocker. Holes below a blocker are dead. None when the top hole is taken."""
    top = max((r for r, v in enumerate(column) if v), default=-1)
    return top + 1 if top + 1 < ROWS else None


def settle(column: tuple[str, ...]) -> tuple[str, ...]:
    """Chips fall down onto the next chip, blocker or the bottom; blockers stay put."""
    out = list(column)
    floor = 0
    for r, v in enumerate(column):
        if v.startswith("B"):
            floor = r + 1
        elif v:
            out[r] = EMPTY
            out[floor] = v
            floor += 1
    return tuple(out)


# The 69 runs of four cells on the grid, computed once.
WINDOWS = tuple(
    tuple((c + i * dc, r + i * dr) for i in range(4))
    for c in range(COLS) for r in range(ROWS)
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
    if 0 <= c + 3 * dc < COLS and 0 <= r + 3 * dr < ROWS
)


def lines_of(cols, seat: int) -> list[tuple[tuple[int, int], ...]]:
    """Every run of four cells holding `seat`'s chips."""
    mark = str(seat)
    return [w for w in WINDOWS if all(cols[x][y] == mark for x, y in w)]


class Connect4(Game):
    name = "connect4"
    title = N_("Connect 4")
    example = N_("a column, e.g. 4")
    variants = (N_("classic"), N_("blocker"))
    sure_labels_name_changes = True  # a chip's colour is its hue: one of the other colour is out of turn

    def __init__(self, variant: str | None = None, settings: Mapping | None = None, lang: str = "en"):
        super().__init__(variant, settings, lang)
        if self.settings:
            raise ValueError(self._("Connect 4 has no settings; {keys} is not one (its rulings are fixed: "
                                    "see shared/RULINGS.md section 2)", keys=', '.join(map(repr, self.settings))))

    def start(self, setup: Mapping | None = None) -> C4State:
        self.checked_setup(setup)  # none: every game starts from the empty grid
        blockers = ("hand", "hand") if self.variant == "blocker" else ("none", "none")
        return C4State(cols=tuple((EMPTY,) * ROWS for _ in range(COLS)), blockers=blockers)

    def seats(self, state: C4State) -> list[str]:
        return list(NAMES)

    def rulings(self) -> list[Ruling]:
        if self.variant != "blocker":
            return []
        return [
            Ruling("blocker_any_hole", True, self._("A blocker may go into any empty hole, a dead one too.")),
            Ruling("removal_same_turn", True, self._("The removal is part of the turn of the top-row drop.")),
            Ruling("top_row_four_ends", True, self._("A top-row chip that makes four ends the game; no removal.")),
            Ruling("both_four_mover_wins", True, self._("If a settle makes four for both, the mover wins.")),
        ]

    # --- notation ------------------------------------------------------------------
    _DROP = re.compile(r"^([1-7])(x?)$")
    _PLACE = re.compile(r"^b([1-7])/([1-6])$")

    def parse(self, state: C4State, text: str):
        t = text.strip().lower()
        if t == "x":
            return RemoveBlocker()
        if t == "-":
            return KeepBlocker()
        if m := self._DROP.match(t):
            return Drop(int(m[1]) - 1, bool(m[2]))
        if m := self._PLACE.match(t):
            return PlaceBlocker(int(m[1]) - 1, int(m[2]) - 1)
        raise NotationError(self._("{text!r} is not a Connect 4 move", text=text.strip()),
                            self._("expected a column 1-7 ('4'), a drop with removal ('4x'), a removal ('x'), no "
                                   "removal ('-') or a blocker placement ('b4/3' = column 4, row 3)"))

    def notation(self, state: C4State, action) -> str:
        if isinstance(action, Drop):
            return f"{action.col + 1}{'x' if action.remove else ''}"
        if isinstance(action, PlaceBlocker):
            return f"b{action.col + 1}/{action.row + 1}"
        return "-" if isinstance(action, KeepBlocker) else "x"

    def actor(self, state: C4State, action) -> int | None:
        """A removal is made by the player who just dropped into the top row."""
        return state.may_remove if isinstance(action, (RemoveBlocker, KeepBlocker)) else state.turn

    def describe(self, state: C4State, action) -> str:
        if isinstance(action, (RemoveBlocker, KeepBlocker)):
            seat = state.may_remove
            if isinstance(action, RemoveBlocker):
                return self._("{who} removes {other}'s blocker", who=NAMES[seat], other=NAMES[1 - seat])
            return self._("{who} leaves in {other}'s blocker", who=NAMES[seat], other=NAMES[1 - seat])
        who = NAMES[state.turn]
        if isinstance(action, PlaceBlocker):
            return self._("{who} pushes the blocker into {cell}", who=who, cell=self.cell_name((action.col, action.row)))
        if action.remove:
            return self._("{who} drops a chip in column {col} and removes {other}'s blocker",
                          who=who, col=action.col + 1, other=NAMES[1 - state.turn])
        return self._("{who} drops a chip in column {col}", who=who, col=action.col + 1)

    def cell_name(self, cell) -> str:
        return self._("column {col}, row {row}", col=cell[0] + 1, row=cell[1] + 1)

    def label_words(self, state: C4State, label: str) -> str:
        if label in ("p0", "p1"):
            return self._("{name}'s chip", name=NAMES[int(label[1])])
        return self._("a blocker") if label == "blocker" else self._("nothing")

    # --- rules ---------------------------------------------------------------------
    def prompt(self, state: C4State) -> Prompt:
        if state.outcome:
            return Prompt("move", None, self._("Game over: {reason}", reason=state.outcome.reason))
        who = NAMES[state.turn]
        text = self._("{who} to move ({chip})", who=who, chip=self._(CHIP_COLOUR[state.turn]))
        if state.may_remove is not None:
            text += semicolon(self._) + self._("{other} may first remove {who}'s blocker ('x') or leave it ('-')",
                                  other=NAMES[state.may_remove], who=who)
        return Prompt("move", state.turn, text)

    def check(self, state: C4State, action) -> None:
        if state.outcome:
            raise IllegalAction(self._("the game is over: {reason}", reason=state.outcome.reason))
        if isinstance(action, RemoveBlocker):
            self._check_removal(state, state.may_remove)
            return
        if isinstance(action, KeepBlocker):
            if state.may_remove is None:
                raise IllegalAction(self._("there is no blocker removal to decline"))
            return
        seat = state.turn
        if isinstance(action, PlaceBlocker):
            if self.variant != "blocker":
                raise IllegalAction(self._("classic Connect 4 has no blockers"))
            if state.blockers[seat] != "hand":
                raise IllegalAction(self._("{who} has already used the blocker: each player places it at most "
                                           "once per game", who=NAMES[seat]))
            if state.cols[action.col][action.row]:
                raise IllegalAction(self._("{cell} is not empty", cell=self.cell_name((action.col, action.row))),
                                    [(action.col, action.row)])
            return
        column = state.cols[action.col]
        row = landing_row(column)
        if row is None:
            closed = column[-1].startswith("B")
            raise IllegalAction(self._("column {col} is full (a blocker closes it)", col=action.col + 1) if closed
                                else self._("column {col} is full", col=action.col + 1), [(action.col, ROWS - 1)])
        if action.remove:
            if row != ROWS - 1:
                raise IllegalAction(self._("a blocker may be removed only right after a chip lands in the top "
                                           "row; this chip lands in row {row}", row=row + 1))
            self._check_removal(state, seat)
            cols = self._with(state.cols, action.col, row, str(seat))
            if lines_of(cols, seat):
                raise IllegalAction(self._("the top-row chip makes four in a line: the game ends at once, "
                                           "with no removal"))

    def _check_removal(self, state: C4State, seat: int | None) -> None:
        if seat is None:
            raise IllegalAction(self._("a blocker may be removed only right after one's own chip lands in the "
                                       "top row"))
        if state.blockers[1 - seat] != "placed":
            raise IllegalAction(self._("{who} has no blocker in the grid to remove", who=NAMES[1 - seat]))

    @staticmethod
    def _with(cols, c: int, r: int, value: str):
        column = list(cols[c])
        column[r] = value
        return cols[:c] + (tuple(column),) + cols[c + 1:]

    def apply(self, state: C4State, action) -> C4State:
        if isinstance(action, RemoveBlocker):
            return self._remove(state, state.may_remove)
        if isinstance(action, KeepBlocker):
            return self._finish(replace(state, may_remove=None), state.may_remove)
        seat = state.turn
        state = replace(state, may_remove=None)
        if isinstance(action, PlaceBlocker):
            cols = self._with(state.cols, action.col, action.row, f"B{seat}")
            blockers = tuple("placed" if s == seat else b for s, b in enumerate(state.blockers))
            return self._finish(replace(state, cols=cols, blockers=blockers, turn=1 - seat), seat)
        row = landing_row(state.cols[action.col])
        cols = self._with(state.cols, action.col, row, str(seat))
        state = replace(state, cols=cols, turn=1 - seat)
        if lines_of(cols, seat):
            return replace(state, outcome=Outcome(seat, self._("{who} has four in a line", who=NAMES[seat]),
                                                  NAMES[seat]))
        if row == ROWS - 1 and state.blockers[1 - seat] == "placed":
            state = replace(state, may_remove=seat)
            if action.remove:
                return self._remove(state, seat)
        return self._finish(state, seat)

    def _remove(self, state: C4State, seat: int) -> C4State:
        mark = f"B{1 - seat}"
        c = next(c for c in range(COLS) if mark in state.cols[c])
        column = tuple(EMPTY if v == mark else v for v in state.cols[c])
        cols = state.cols[:c] + (settle(column),) + state.cols[c + 1:]
        blockers = tuple("removed" if s == 1 - seat else b for s, b in enumerate(state.blockers))
        return self._finish(replace(state, cols=cols, blockers=blockers, may_remove=None), seat)

    def _finish(self, state: C4State, mover: int) -> C4State:
        """Lines are checked after everything has settled: if both have four, the mover
        wins; the opponent's four alone wins for the opponent. Then the draw rule."""
        mine, theirs = lines_of(state.cols, mover), lines_of(state.cols, 1 - mover)
        if mine or theirs:
            winner = mover if mine else 1 - mover
            reason = self._("{who} has four in a line (both have four; the mover wins)", who=NAMES[winner]) \
                if mine and theirs else self._("{who} has four in a line", who=NAMES[winner])
            return replace(state, may_remove=None, outcome=Outcome(winner, reason, NAMES[winner]))
        nxt = state.turn
        can_drop = any(landing_row(col) is not None for col in state.cols)
        can_block = state.blockers[nxt] == "hand" and any(not v for col in state.cols for v in col)
        if not can_drop and not can_block and state.may_remove is None:
            reason = self._("the grid is full") if self.variant == "classic" else \
                self._("{who} has no reachable hole and no blocker to place", who=NAMES[nxt])
            return replace(state, outcome=Outcome(None, self._("draw: {reason}", reason=reason)))
        return state

    def outcome(self, state: C4State) -> Outcome | None:
        return state.outcome

    def snapshot(self, state: C4State, viewer: int | None = None) -> dict:
        board = self.board(state)
        return {
            # rows from the top of the grid down, as a person sees it
            "grid": [[board[(c, r)] for c in range(COLS)] for r in reversed(range(ROWS))],
            "turn": state.turn,
            "blockers": {NAMES[s]: b for s, b in enumerate(state.blockers)},
            # what the page writes on each player's card: their blocker (nothing in the classic game)
            "seat_words": [self._(BLOCKER_WORDS[b]) if self.variant == "blocker" else "" for b in state.blockers],
            "may_remove": state.may_remove,
        }

    def legal_actions(self, state: C4State) -> list:
        if state.outcome:
            return []
        acts: list = []
        if state.may_remove is not None:
            acts.append(RemoveBlocker())
        for c in range(COLS):
            row = landing_row(state.cols[c])
            if row is None:
                continue
            acts.append(Drop(c))
            if row == ROWS - 1 and state.blockers[1 - state.turn] == "placed":
                acts.append(Drop(c, True))
        if self.variant == "blocker" and state.blockers[state.turn] == "hand":
            acts += [PlaceBlocker(c, r) for c in range(COLS) for r in range(ROWS) if not state.cols[c][r]]
        legal = []
        for a in acts:
            try:
                self.check(state, a)
            except IllegalAction:
                continue
            legal.append(a)
        return legal

    def observable_actions(self, state: C4State, changed: set | None = None) -> list:
        return self.legal_actions(state)

    def board(self, state: C4State) -> dict:
        label = {EMPTY: "empty", "0": "p0", "1": "p1", "B0": "blocker", "B1": "blocker"}
        return {(c, r): label[state.cols[c][r]] for c in range(COLS) for r in range(ROWS)}

    def explain(self, state: C4State, seen: Mapping) -> IllegalAction:
        """Put a view that no legal move explains into words, worst problem first."""
        now = self.board(state)
        changed = [cell for cell in now if seen.get(cell, now[cell]) != now[cell]]
        added = [c for c in changed if now[c] == "empty"]
        gone = [c for c in changed if now[c] != "empty" and seen[c] == "empty"]
        swapped = [c for c in changed if c not in added and c not in gone]
        if swapped:
            return IllegalAction(self._("board does not match: {cells}", cells=", ".join(
                self._("{cell} shows {seen} where {was} was", cell=self.cell_name(c),
                       seen=self.label_words(state, seen[c]), was=self.label_words(state, now[c]))
                for c in swapped)), swapped)
        floating = [c for c in added if seen[c] != "blocker" and c[1] > 0 and seen.get((c[0], c[1] - 1)) == "empty"]
        if floating:
            c = floating[0]
            return IllegalAction(self._("a chip floats at {cell}: the hole below it is empty", cell=self.cell_name(c)),
                                 floating)
        blockers_gone = [c for c in gone if now[c] == "blocker"]
        if blockers_gone:
            c = blockers_gone[0]
            owner = int(state.cols[c[0]][c[1]][1])
            if state.may_remove is None:
                why = self._("a blocker may be removed only right after a chip lands in the top row")
            elif owner == state.may_remove:
                why = self._("{who} may remove only {other}'s blocker, not their own",
                             who=NAMES[owner], other=NAMES[1 - owner])
            else:
                why = self._("the chips above the removed blocker must fall down")
            return IllegalAction(why, blockers_gone)
        if gone:
            return IllegalAction(self._("board does not match: a chip was taken out of {cells}",
                                        cells=", ".join(self.cell_name(c) for c in gone)), gone)
        new_chips = [c for c in added if seen[c] in ("p0", "p1")]
        new_blockers = [c for c in added if seen[c] == "blocker"]
        if state.outcome and added:
            return IllegalAction(self._("the game is over: {reason}", reason=state.outcome.reason), added)
        wrong = [c for c in new_chips if seen[c] != f"p{state.turn}"]
        if wrong:
            return IllegalAction(self._("it is {who}'s turn, not {other}'s", who=NAMES[state.turn],
                                        other=NAMES[1 - state.turn]), wrong)
        if new_blockers and self.variant == "classic":
            return IllegalAction(self._("classic Connect 4 has no blockers"), new_blockers)
        if new_blockers and state.blockers[state.turn] != "hand":
            return IllegalAction(self._("{who} has already used the blocker", who=NAMES[state.turn]), new_blockers)
        if len(added) > 1:
            return IllegalAction(self._("{n} pieces went in at once: one chip or one blocker per turn", n=len(added)),
                                 added)
        return IllegalAction(self._("board does not match: {cells}", cells=", ".join(
            self._("{cell} shows {seen}", cell=self.cell_name(c), seen=self.label_words(state, seen[c]))
            for c in changed)), changed)
