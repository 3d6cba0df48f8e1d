r"""Time controls as clubs write them, and what FIDE's Laws of Chess (Article 6 and the
Guidelines on clocks) say each one does to a player's clock. Pure arithmetic on seconds:
the running clock, with its times, is controller/clock.py.

Written forms (spaces optional, case ignored; minutes, then seconds):

| text | what it is | the rule |
|---|---|---|
| ``5+0``, ``5``, ``G/5`` | sudden death: 5 minutes for the whole game | FIDE 6.3.1, 6.9 |
| ``3+2`` | Fischer increment: 3 minutes, 2 seconds added after each move, from move 1 | FIDE 6.3.1 |
| ``5 b3`` | Bronstein delay: after each move, the time used on it is given back, up to 3 seconds | FIDE's Guidelines on electronic clocks |
| ``5 d3`` | simple (US) delay: each move, the clock waits 3 seconds before it counts down | US Chess (time delay) |
| ``40/90, 30+30`` | periods: 40 moves in 90 minutes, then 30 minutes (+30 s a move) for the rest | FIDE 6.3.1, 6.9 |
| ``40/120, 20/60`` | a last period with a move count repeats (20 moves an hour after move 40) | |
| ``10+5 \| 5+5`` | time odds: red's (White's) control, then green's (Black's) | |
| ``0:30+1`` | minutes as m:ss (30 seconds, 1 second a move) | |

An increment or delay belongs to the period it is written in (``40/90+30, 30+30`` for
FIDE's classical control with an increment from move 1). The time of the next period is
added the moment the last move of a period is made (6.9: the prescribed number of moves).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..i18n import N_, Said
from .words import semicolon

MAX_MINUTES = 24 * 60  # a longer control is a typo
MAX_BONUS_S = 600  # an increment or delay longer than ten minutes is a typo
MAX_MOVES = 200

KINDS = {"+": "increment", "b": "bronstein", "d": "delay"}
_PERIOD = re.compile(r"(?:g/)?(?:(\d+)/)?(\d+(?:\.\d+)?|\d+:[0-5]\d)(?:([+bd])(\d+(?:\.\d+)?))?")


class ControlError(Said, ValueError):
    """A time control that is not one, said in words (in any language: `said(_)`)."""


@dataclass(frozen=True)
class Period:
    moves: int | None  # moves to make in it; None: the rest of the game
    seconds: float  # the time it gives
    kind: str | None = None  # "increment" (Fischer), "bronstein", "delay" (simple, US), or None
    bonus: float = 0.0  # the increment or delay, seconds

    def text(self) -> str:
        minutes = self.seconds / 60
        m = f"{minutes:g}" if minutes >= 1 or self.seconds % 60 == 0 else f"0:{int(self.seconds):02d}"
        sign = {"increment": "+", "bronstein": " b", "delay": " d"}.get(self.kind, "+")
        return (f"{self.moves}/" if self.moves else "") + m + (f"{sign}{self.bonus:g}" if self.kind else
                                                                 ("" if self.moves else "+0"))

    def words(self, _) -> str:
        """The period in words, in the language of the translator `_` (controller/i18n.py)."""
        time = _duration(self.seconds)
        out = _.n("{time} for {n} move", "{time} for {n} moves", self.moves, time=time) if self.moves \
            else _("{time} for the game", time=time)
        bonus = f"{self.bonus:g}"
        if self.kind == "increment":
            out += ", " + _("{bonus} s added after each move", bonus=bonus)
        elif self.kind == "bronstein":
            out += ", " + _("Bronstein delay {bonus} s (the time used on a move given back, up to that)", bonus=bonus)
        elif self.kind == "delay":
            out += ", " + _("delay {bonus} s (the clock waits that long each move before it counts)", bonus=bonus)
        return out


def _duration(seconds: float) -> str:
    if seconds % 3600 == 0 and seconds >= 3600:
        return f"{seconds / 3600:g} h"
    if seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    return f"{seconds / 60:g} min" if seconds > 60 else f"{seconds:g} s"


@dataclass(frozen=True)
class TimeControl:
    """Each side's periods (seat 0 plays White)."""

    sides: tuple[tuple[Period, ...], tuple[Period, ...]]

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """A control from its written form (the table in this module's docstring);
        ValueError naming the part that is not one."""
        if not isinstance(text, str):
            raise ControlError(N_("a time control is text such as \"3+2\", not {value!r}"), value=text)
        parts = [p for p in text.lower().split("|")]
        if len(parts) > 2:
            raise ControlError(N_("time control {control!r}: at most two sides, red's | green's"), control=text)
        sides = tuple(cls._side(p, text) for p in parts)
        return cls(sides if len(sides) == 2 else (sides[0], sides[0]))

    @staticmethod
    def _side(text: str, whole: str) -> tuple[Period, ...]:
        periods = []
        for raw in text.split(","):
            part = re.sub(r"\s+", "", raw)
            m = _PERIOD.fullmatch(part)
            if not m:
                raise ControlError(N_("time control {control!r}: {part!r} is not a period; expected minutes and "
                                      "increment as 3+2, a delay as 5 d3 or 5 b3, or moves/minutes as 40/90"),
                                   control=whole, part=raw.strip())
            moves, minutes, sign, bonus = m.groups()
            if ":" in minutes:
                mm, ss = minutes.split(":")
                seconds = float(int(mm) * 60 + int(ss))
            else:
                seconds = float(minutes) * 60
            if moves is not None and not 1 <= int(moves) <= MAX_MOVES:
                raise ControlError(N_("time control {control!r}: {moves} moves in a period; expected 1-{most}"),
                                   control=whole, moves=moves, most=MAX_MOVES)
            if seconds > MAX_MINUTES * 60:
                raise ControlError(N_("time control {control!r}: {part!r} is over {hours} hours"), control=whole,
                                   part=raw.strip(), hours=MAX_MINUTES // 60)
            if bonus is not None and float(bonus) > MAX_BONUS_S:
                raise ControlError(N_("time control {control!r}: {bonus} s a move; expected at most {most}"),
                                   control=whole, bonus=bonus, most=MAX_BONUS_S)
            kind = KINDS[sign] if sign and float(bonus) > 0 else None
            periods.append(Period(int(moves) if moves else None, seconds, kind, float(bonus) if kind else 0.0))
        for p in periods[:-1]:
            if p.moves is None:
                raise ControlError(N_("time control {control!r}: only the last period may be for the rest of the "
                                      "game"), control=whole)
        if periods[0].seconds <= 0:
            raise ControlError(N_("time control {control!r}: no time to start with"), control=whole)
        return tuple(periods)

    def text(self) -> str:
        """The control written back in its usual form ("3+2", "40/90+30, 30+30")."""
        white, black = (", ".join(p.text() for p in side) for side in self.sides)
        return white if white == black else f"{white} | {black}"

    def words(self, _) -> str:
        """The control in words, in the language of the translator `_` (each side named by
        its colour, for a control with time odds)."""
        said = [(semicolon(_) + _("then") + " ").join(p.words(_) for p in side) for side in self.sides]
        if said[0] == said[1]:
            return said[0] + (", " + _("repeated") if self.sides[0][-1].moves else "")
        names = (_("red"), _("green"))
        return f"{names[0]}: {said[0]}; {names[1]}: {said[1]}"

    def start(self, seat: int) -> float:
        """The time on a side's clock before its first move."""
        return self.sides[seat][0].seconds

    def period(self, seat: int, made: int) -> Period:
        """The period a side's move number `made + 1` is played in."""
        periods, done = self.sides[seat], 0
        for p in periods:
            if p.moves is None or made < done + p.moves:
                return p
            done += p.moves
        last = periods[-1]  # a last period with a move count repeats
        return last

    def added_after(self, seat: int, made: int) -> float:
        """The time the next period adds once a side has made `made` moves (0 unless that
        move ended a period: FIDE 6.9)."""
        periods, done = self.sides[seat], 0
        for i, p in enumerate(periods):
            if p.moves is None:
                return 0.0
            done += p.moves
            if made == done:
                return periods[i + 1].seconds if i + 1 < len(periods) else p.seconds
            if made < done:
                return 0.0
        last = periods[-1]  # repeating: every `moves` after the listed ones
        return last.seconds if (made - done) % last.moves == 0 else 0.0

    def low(self, seat: int) -> float:
        """The time left at which the side is warned once: a tenth of its first period,
        at least 10 s and at most a minute (a third of it for a control shorter than 30 s)."""
        return min(60.0, max(10.0, self.start(seat) / 10), self.start(seat) / 3)


def charged(period: Period, used: float) -> float:
    """What a move that took `used` seconds costs the clock, after its bonus (negative:
    an increment larger than the time used)."""
    if period.kind == "increment":
        return used - period.bonus
    if period.kind == "bronstein":
        return used - min(used, period.bonus)
    if period.kind == "delay":
        return max(0.0, used - period.bonus)
    return used


def allowance(period: Period, remaining: float) -> float:
    """How long a side whose clock shows `remaining` may think before its flag falls (a
    simple delay runs before the clock counts; an increment or a Bronstein delay comes
    only after the move)."""
    return remaining + (period.bonus if period.kind == "delay" else 0.0)
