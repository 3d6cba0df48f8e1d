"""The Super Mario Bros. inputs as small values, each with its text notation: `read` one
from its text, `notation()` its canonical text (as python-chess's Move has `from_uci`
and `uci`). The journal holds only this text, so a value here must always say the same.

Text notation (seats 1-4 as on the page, spaces by their id, e.g. ``w1-04``):
- ``roll red`` | ``roll yellow`` | ``roll red/yellow`` | ``roll stop``  a die roll (the
  referee's die draws it; the die definition is "smb");
- ``move w1-04``  Mario put on a space: after a roll (one of the nearest spaces of the
  rolled colour), on the next World's START after a link space (the board swap), and
  onto the Princess after a winning roll in the King Bowser phase;
- ``buy`` | ``pass``  after a STOP or a lost life: trade 4 coins for an extra life and
  roll again, or end the turn;
- ``card 2 goomba``  seat 2 announces a hazard card (after the player has rolled and
  moved at least once; one card per player per roll); the card goes to the discards;
- ``token w1-09``  the announced hazard's token is put on a space;
- ``fireball w1-09``  the player to roll plays a Fireball and takes the token off w1-09.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import NotationError
from .board import Worlds

FACES = ("red", "yellow", "red/yellow", "stop")  # the die's faces, as a roll writes them
ROLL_COLOURS = {"red": ("red",), "yellow": ("yellow",), "red/yellow": ("red", "yellow"), "stop": ()}


class Action:
    """What every input has: its verb and text, and who enters it out of turn (`by`:
    None for the seat the game waits for)."""

    verb = ""
    by: int | None = None

    def notation(self) -> str:
        raise NotImplementedError

    @classmethod
    def read(cls, arg: str, _, worlds: Worlds, players: int) -> "Action":
        """The input of this verb that `arg` (what follows the verb) writes; NotationError
        in `_`'s words when it is wrong."""
        raise NotImplementedError


@dataclass(frozen=True)
class Roll(Action):
    face: str

    verb = "roll"

    def notation(self) -> str:
        return f"roll {self.face}"

    @classmethod
    def read(cls, arg, _, worlds, players):
        if arg not in FACES:
            raise NotationError(_("{face!r} is not a face of the die: red, yellow, red/yellow or stop",
                                  face=arg) if arg else
                                _("a roll says the face the die shows: red, yellow, red/yellow or stop"))
        return cls(arg)


class Alone(Action):
    """An input that is its verb alone."""

    def notation(self) -> str:
        return self.verb

    @classmethod
    def read(cls, arg, _, worlds, players):
        if arg:
            raise NotationError(_("'{verb}' takes nothing after it", verb=cls.verb))
        return cls()


@dataclass(frozen=True)
class Buy(Alone):
    verb = "buy"


@dataclass(frozen=True)
class Pass(Alone):
    verb = "pass"


@dataclass(frozen=True)
class Card(Action):
    seat: int
    kind: str

    verb = "card"

    @property
    def by(self) -> int:
        """A hazard card is played by the opponent who holds it, out of turn."""
        return self.seat

    def notation(self) -> str:
        return f"card {self.seat + 1} {self.kind}"

    @classmethod
    def read(cls, arg, _, worlds, players):
        parts = arg.split()
        if len(parts) < 2 or not parts[0].isdigit():
            raise NotationError(_("a card is played as 'card <seat> <hazard>', e.g. 'card 2 goomba'"))
        seat, kind = int(parts[0]) - 1, "_".join(parts[1:])  # 'card 2 bullet bill' as printed
        if not 0 <= seat < players:
            raise NotationError(_("seat {seat} does not exist: seats are 1-{last}", seat=parts[0], last=players))
        if kind == "fireball":
            raise NotationError(_("a Fireball is played as 'fireball <space>' by the player to roll"))
        if kind not in worlds.hazards:
            raise NotationError(_("{kind!r} is not a hazard card: {kinds}", kind=kind, kinds=', '.join(worlds.hazards)))
        return cls(seat, kind)


class OnSpace(Action):
    """An input that names one space of the World boards."""

    def notation(self) -> str:
        return f"{self.verb} {self.space}"

    @classmethod
    def read(cls, arg, _, worlds, players):
        if worlds.world_of(arg) is None:
            raise NotationError(_("{space!r} is not a space on the World boards", space=arg))
        return cls(arg)


@dataclass(frozen=True)
class Move(OnSpace):
    space: str

    verb = "move"


@dataclass(frozen=True)
class Token(OnSpace):
    space: str

    verb = "token"


@dataclass(frozen=True)
class Fireball(OnSpace):
    space: str

    verb = "fireball"


VERBS = {kind.verb: kind for kind in (Roll, Move, Card, Token, Fireball, Buy, Pass)}
_RE = re.compile(r"^(roll|move|card|token|fireball|buy|pass)(?:\s+(.*))?$")


def parse(text: str, _, worlds: Worlds, players: int) -> Action:
    """The input `text` writes; NotationError, in `_`'s words, for text that is none."""
    t = " ".join(text.strip().lower().split())
    m = _RE.match(t)
    if not m:
        raise NotationError(_("{text!r} is not a Super Mario Bros. move", text=text.strip()),
                            _("expected 'roll red|yellow|red/yellow|stop', 'move <space>', 'buy', 'pass', "
                              "'card <seat> <hazard>', 'token <space>' or 'fireball <space>'"))
    return VERBS[m[1]].read(m[2] or "", _, worlds, players)
