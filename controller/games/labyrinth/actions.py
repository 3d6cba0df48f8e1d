"""What a Labyrinth player does, as small values that write themselves in the text
notation (as python-chess's `Move` writes its UCI), and the parser of that notation.

Text notation (a colour word in front, ``red push N2 r90``, says whose action it is and
is checked; without it the action is the current player's, `seat` None):
- ``push N2 r90``  insert the spare at N2 after turning it 90 degrees clockwise from the
                   way it came out (r0, r90, r180, r270; r0 may be left out);
- ``push N2 NES``  the same, giving the sides the inserted tile has open on the board;
- ``move d4``      move the pawn to d4 along an unbroken passage (again and again if
                   need be; the turn goes on);
- ``end``          end the turn with the pawn where it stands (``stay``, the old word,
                   is the same; the notation says ``stay`` when the pawn has not moved);
- ``found``        paper-cards mode only: the player whose pawn stands on their card's
                   treasure declares it (checked, then counted); said during the turn
                   it ends the turn there, after it it may come until the next push;
- ``exit a3``      younger players' variant with finish "any_side": leave the maze
                   through a3's open outer edge once every target is found.

The notation is what the journal records, so it never depends on the table's language.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import NotationError
from .maze import ARROWS, cell_index, cell_text, parse_tile, rotate, sides_text
from .state import LabState


@dataclass(frozen=True)
class Push:
    """Push the spare tile in at an arrow, turned `turns` quarter turns."""
    arrow: str
    turns: int  # quarter turns clockwise from the spare's orientation as it came out
    seat: int | None = None

    def notation(self, state: LabState) -> str:
        return f"push {self.arrow} r{self.turns * 90}"

    @staticmethod
    def every(state: LabState) -> list[Push]:
        """The pushes the player to push may make: every arrow but the banned one, and
        of the spare's turns one per distinct result (a straight turned 180 degrees is
        the same tile)."""
        turns = {}
        for q in range(4):
            turns.setdefault(rotate(state.spare.sides, q), q)
        return [Push(a, q) for a in ARROWS if a != state.banned for q in sorted(turns.values())]


@dataclass(frozen=True)
class MovePawn:
    """Put the pawn down on a cell its passage reaches (the turn goes on)."""
    cell: int
    seat: int | None = None

    def notation(self, state: LabState) -> str:
        return f"move {cell_text(self.cell)}"


@dataclass(frozen=True)
class Stay:
    """End the turn with the pawn where it stands (``end``, ``stay``, the button)."""
    seat: int | None = None

    def notation(self, state: LabState) -> str:
        """``stay`` when the pawn is where the push left it, else ``end``."""
        return "stay" if state.pawns[state.turn] == state.turn_start else "end"


@dataclass(frozen=True)
class DeclareFound:
    """A find declared by the player who moved (the paper-cards mode)."""
    seat: int | None = None

    def notation(self, state: LabState) -> str:
        return "found"


@dataclass(frozen=True)
class Leave:
    """Leave the maze at an edge cell (the younger players' finish)."""
    cell: int
    seat: int | None = None

    def notation(self, state: LabState) -> str:
        return f"exit {cell_text(self.cell)}"


Action = Push | MovePawn | Stay | DeclareFound | Leave

_ACTION = re.compile(r"^(?:(red|yellow|green|blue)\s*:?\s+)?"
                     r"(?:push\s+([nesw][246])(?:\s+(?:r?(0|90|180|270)|([nesw]+)))?"
                     r"|move\s+([a-g][1-7])|exit\s+([a-g][1-7])|(stay|end)|(found))$")


def parse(_, state: LabState, text: str) -> Action:
    """The action `text` writes, or NotationError saying why not in the table's language
    (`_`, the game's translator). Whether the rules allow it is checked afterwards."""
    m = _ACTION.match(" ".join(text.strip().lower().split()))
    if m is None:
        raise NotationError(_("{text!r} is not a Labyrinth move", text=text.strip()),
                            _("expected 'push N2 r90' (arrow N2 N4 N6 E2 E4 E6 S2 S4 S6 W2 W4 W6, turn r0 r90 "
                              "r180 r270 or the open sides such as NES), 'move d4', 'end' (or 'stay'), "
                              "'found' or 'exit a3', optionally after a colour ('red push N2')"))
    colour, arrow, degrees, sides, move, leave, stay, found = m.groups()
    seat = None
    if colour:
        if colour not in state.colours:
            raise NotationError(_("{colour} is not playing in this game (players: {players})",
                                  colour=colour, players=', '.join(state.colours)))
        seat = state.colours.index(colour)
    if arrow:
        arrow = arrow.upper()
        if sides:
            want = parse_tile(sides.upper(), f"{text.strip()!r}").sides
            turns = next((q for q in range(4) if rotate(state.spare.sides, q) == want), None)
            if turns is None:
                raise NotationError(_("the spare tile ({tile}) cannot be turned to be open on {sides}",
                                      tile=sides_text(state.spare.sides), sides=sides_text(want)))
            return Push(arrow, turns, seat)
        return Push(arrow, int(degrees or 0) // 90, seat)
    if move:
        return MovePawn(cell_index(move), seat)
    if leave:
        return Leave(cell_index(leave), seat)
    if stay:
        return Stay(seat)
    return DeclareFound(seat)
