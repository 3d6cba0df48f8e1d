"""The chess clock the camera runs: the move seen is the clock pressed.

The referee (controller/referee.py) tells the clock only what it journals: each event
passes `stamp` on its way to the journal, a move with the time the hand left the piece
(the view's time for a camera ply, the time it was typed otherwise). The clock does the
arithmetic of docs/games/chess.md "The clock":

- a side's clock stops at the moment the hand left the piece of its move, however late
  the referee decided: a ply recorded from a later view, or settled by the next views,
  costs nothing (`move` events carry `clock`, the mover's time left, and `clocks`, both);
- nobody's clock runs before White's first move (FIDE 6.6.1 starts White's at the start,
  but the camera cannot tell when the players are seated); that move starts Black's;
- a camera alarm (`illegal` from the camera) stops both clocks, as an arbiter would,
  until the board is right (`restored`, or a legal move, whose hand time restarts it);
- a take-back of camera plies (`corrected` with `retracted`) puts the clocks back to the
  last ply that stands, and the plies recorded instead are charged at their own times;
- an undo, a restart and a record rebuilt put the clocks back to what the journal last
  wrote (the last `clocks`), and the side to move's clock runs again from then: the time
  the referee was down, or between the undone move and the undo, is charged to nobody;
- `tick`: a low-time warning is said once a side (`clock` event, in words), and a flag
  fall is entered as the game's action ``flag red|green`` (the rules decide the result:
  FIDE 6.9, a draw when the opponent cannot mate).

Times are the table's: the camera's frame times under a camera (the Table hands its
`now`), else `time.monotonic`; tests hand their own.
"""
from __future__ import annotations

import copy
import time
from dataclasses import dataclass, replace
from typing import Callable

from .events import Kind
from .record import fold
from .games.time_control import TimeControl, allowance, charged


FLAG_S = 1e-3  # a time left this short has run out (the sums of the table's times are floats)


@dataclass(frozen=True)
class Reading:
    """What the clocks show after a recorded action: each side's time left at its last
    press, how many moves each made, whose clock runs (None: not started, or over) and
    since when (the table's time)."""

    left: tuple[float, float]
    made: tuple[int, int] = (0, 0)
    turn: int | None = None
    since: float = 0.0

    def clocks(self) -> list[float]:
        """Each side's time left as events carry it (seconds, to a tenth)."""
        return [round(max(0.0, s), 1) for s in self.left]


def shown(seconds: float) -> str:
    """A time left as a clock shows it: m:ss.s (h:mm:ss from an hour), rounded down, so a
    clock at 0:00.0 has flagged."""
    tenths = max(0, int(seconds * 10 + 1e-6))
    s = tenths // 10
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}.{tenths % 10}"


class Clock:
    """The running clock of one game (`control` None: a game without a clock, which
    stamps nothing on the events and shows no clock: `snapshot` is None)."""

    def __init__(self, now: Callable[[], float] = time.monotonic):
        self.now = now
        self.control: TimeControl | None = None
        self.readings: list[Reading] = []  # after the start, and after each recorded action
        self.stopped_at: float | None = None  # an alarm stopped the clocks then
        self.warned: set[int] = set()
        self.over = False

    def saved(self) -> "Clock":
        """A copy to put back if what changed it cannot be journalled (Referee.kept)."""
        other = copy.copy(self)
        other.readings, other.warned = list(self.readings), set(self.warned)
        return other

    # --- the record ------------------------------------------------------------------
    def begin(self, game, events, state) -> None:
        """Set up for `game` from its record (a new game, a resume, an undo): the times the
        journal last wrote, the side to move's clock running from now."""
        text = (getattr(game, "settings", None) or {}).get("clock") if game is not None else None
        control = TimeControl.parse(text) if text else None
        self.control = None  # the camera's thread reads `due`: nothing half set
        self.stopped_at, self.warned, self.over = None, set(), False
        if control is None:
            self.readings = []
            return
        start = Reading((control.start(0), control.start(1)))
        readings = [start]
        for ply in fold(events).plies:
            last = readings[-1]
            mover = last.turn if last.turn is not None else ply.seat
            if ply.clocks is not None and mover in (0, 1):
                made = tuple(n + (i == mover) for i, n in enumerate(last.made))
                last = Reading(ply.clocks, made, 1 - mover)
            readings.append(last)
        self.warned = {e.data["seat"] for e in events if e.kind == Kind.CLOCK and e.data.get("seat") is not None}
        outcome = game.outcome(state)
        prompt = game.prompt(state)
        last = readings[-1]
        started = any(last.made)
        readings[-1] = replace(last, turn=prompt.seat if started and outcome is None else None, since=self.now())
        self.readings = readings
        self.over = outcome is not None
        self.control = control

    def keep_time(self, now: Callable[[], float]) -> None:
        """Keep the table's time from now on (the camera's, handed by the Table): a clock
        running since the referee started runs from this moment."""
        self.now = now
        if self.readings:
            self.readings[-1] = replace(self.readings[-1], since=now())

    def stamp(self, referee, kind: str, data: dict, at: float | None) -> dict:
        """`data` of an event about to be journalled, with the clock's part (a move's
        `clock` and `clocks`); the clock follows the event (an alarm stops it, ...)."""
        if self.control is None:
            return data
        t = self.now() if at is None else at
        if kind == "move":
            return {**data, **self._press(referee, data, t)}
        if kind == "illegal" and data.get("source") == "camera" and self.stopped_at is None:
            self.stopped_at = self.now()
        elif kind == "restored":
            self._restart(self.now())
        elif kind == "corrected" and data.get("retracted"):
            del self.readings[max(1, len(self.readings) - len(data["retracted"])):]
            self.over = False  # a game-ending ply taken back: the game goes on
        return data

    def _restart(self, t: float) -> None:
        if self.stopped_at is not None:
            last = self.readings[-1]
            self.readings[-1] = replace(last, since=last.since + max(0.0, t - max(self.stopped_at, last.since)))
            self.stopped_at = None

    def _used(self, last: Reading, t: float) -> float:
        end = t if self.stopped_at is None else min(t, self.stopped_at)
        return max(0.0, end - last.since)

    def _press(self, referee, data: dict, t: float) -> dict:
        """A recorded action at `t` (the hand left the piece then): if the turn passed,
        the clock of the side that moved stops and the other starts."""
        game, state = referee.game, referee.sure
        over = game.outcome(state) is not None
        turn_after = None if over else game.prompt(state).seat
        last = self.readings[-1]
        mover = last.turn if last.turn is not None else data.get("seat")
        if self.over or mover is None or (turn_after == mover and not over):
            self.readings.append(last)  # not a press (a draw offer, a promotion picked)
            return {}
        left, made = list(last.left), list(last.made)
        period = self.control.period(mover, made[mover])
        if last.turn is not None:
            used = self._used(last, t)
            if used > allowance(period, left[mover]):  # the flag fell before the hand left
                left[mover] = 0.0
            else:
                left[mover] -= charged(period, used)
        elif period.kind == "increment":  # the first move: no time used, the increment from move 1
            left[mover] += period.bonus
        made[mover] += 1
        if left[mover] > 0:
            left[mover] += self.control.added_after(mover, made[mover])
        self.stopped_at = None  # a legal move puts the board right
        self.over = over
        reading = Reading(tuple(round(x, 3) for x in left), tuple(made), turn_after, t)
        self.readings.append(reading)
        return {"clock": reading.clocks()[mover], "clocks": reading.clocks()}

    # --- what the page and the camera's thread ask -------------------------------------
    def left(self, t: float | None = None) -> list[float]:
        """Each side's time left now."""
        last = self.readings[-1]
        left = list(last.left)
        if last.turn is not None and not self.over:
            t = self.now() if t is None else t
            period = self.control.period(last.turn, last.made[last.turn])
            used = self._used(last, t)
            spent = charged(period, used) if period.kind == "delay" else used  # a delay is not yet spent
            left[last.turn] = left[last.turn] - spent
        return [max(0.0, x) for x in left]

    def snapshot(self, _) -> dict | None:
        """The clocks for the page: time left, whose clock runs (None: stopped), why it
        stands, and the control in words (in the language of the translator `_`)."""
        if self.control is None:
            return None
        last = self.readings[-1]
        running = None if self.over or self.stopped_at is not None else last.turn
        why = (_("game over") if self.over else _("stopped while the board is put right")
               if self.stopped_at is not None else _("starts with the first move") if not any(last.made) else None)
        return {"control": self.control.text(), "words": self.control.words(_), "left": [round(x, 1) for x in self.left()],
                "running": running, "stopped": why, "low": [self.control.low(0), self.control.low(1)]}

    def due(self) -> float | None:
        """The table's time at which `tick` has something to do (a warning, a flag), or
        None. Read by the camera's thread: a float, set by the referee's."""
        control, readings = self.control, self.readings
        if control is None or not readings or self.over or self.stopped_at is not None:
            return None
        last = readings[-1]
        if any(x <= 0 for x in last.left):
            return last.since
        if last.turn is None:
            return None
        seat = last.turn
        period = control.period(seat, last.made[seat])
        flag = last.since + allowance(period, last.left[seat])
        return flag if seat in self.warned else flag - control.low(seat)

    def tick(self, referee) -> list:
        """Say what the time calls for: a low-time warning once a side, the flag fall as
        the game's action. Events it caused."""
        due = self.due()
        if due is None or self.now() < due:
            return []
        if referee.unsure:  # a ply shown but not yet recorded may have been in time: wait
            return []
        left = self.left()
        names = referee.game.seats(referee.sure)
        for seat in (0, 1):
            if left[seat] <= FLAG_S:
                # the chess rules' action (controller/games/chess/actions.py): the only game with a clock
                event = referee.enter(f"flag {('red', 'green')[seat]}", source="clock")
                self.over = True  # entered once: a game whose rules refuse it is not asked again
                return [event]
        events = []
        seat = self.readings[-1].turn
        if seat is not None and seat not in self.warned and left[seat] <= self.control.low(seat):
            self.warned.add(seat)
            events.append(referee._emit("clock", seat=seat, left=round(left[seat], 1),
                                        text=referee._("{who}: {time} left on the clock", who=names[seat],
                                                              time=_said(left[seat], referee._))))
        return events


def _said(seconds: float, _) -> str:
    """A time left in words: "9 seconds", "1 minute", "2 minutes 5 seconds" (in the
    language of the translator `_`)."""
    s = max(1, int(round(seconds)))  # a warning is said before the flag: never "0 seconds"
    secs = _.n("{n} second", "{n} seconds", s % 60 if s >= 60 else s)
    if s >= 60:
        return _.n("{n} minute", "{n} minutes", s // 60) + (" " + secs if s % 60 else "")
    return secs
