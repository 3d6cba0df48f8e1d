"""The referee's lifecycle: what it is doing about the board, as one frozen value.

The phase (`Phase`) says what a camera view is for:

    AWAITING_START ──(a view fits the start, a ply recorded, any view explained)──► FOLLOWING
    FOLLOWING ──(an undo whose move is still on the table)──► PUT_BACK
    PUT_BACK ──(a clear view of the board put back; a new game, a rebuild)──► FOLLOWING
    any ──(a new game on the camera: `Referee.await_start`)──► AWAITING_START

While following, what the referee says about the board stands beside the phase, each
report pending on the camera's clock before it is said (nobody taps; said once):

    nothing ──(an undecided board)──► unsure ──(still so DOUBT_S: `tick`)──► doubt
    nothing ──(a wrong board)──► suspect ──(`confirm_s` of clear views no history
        explains, whatever changed since the first, the last still STILL_S: `tick`)──► alarm
    unsure, doubt ──(decided, or a move typed)──► nothing (`doubt_cleared`, in words)
    suspect, alarm ──(a view explained)──► nothing (`restored` when an alarm stood)

An alarm and a doubt may stand together (a board a hand covers after an alarm); an
alarm raised clears the doubt. `misread`: a take-back of recorded plies explains the
board, not yet surely (controller/takeback.py): the board is then a doubt, not an alarm.

Each transition is a method that returns the next value and the events to journal
(`Say`), in order; the referee (controller/referee.py) writes them.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from vision.view import BoardView

from .events import Kind
from .i18n import N_

if TYPE_CHECKING:
    from .takeback import Retraction

DOUBT_S = 3.0  # an undecided board must stand still this long before the referee says so
STILL_S = 0.5  # the last wrong board must stand still this long before its alarm: a hand passing postpones it


class Phase(Enum):
    AWAITING_START = "awaiting start"  # the camera has not yet seen the board in the position
    FOLLOWING = "following"
    PUT_BACK = "put back asked"  # after an undo, until the camera sees the board as before that move


class Say(NamedTuple):
    """An event a transition calls for: its kind and data, journalled by the referee;
    `words`, a fixed text of the catalogue (N_), said as the event's text in the table's
    language (the lifecycle is a value: it holds no language)."""

    kind: Kind
    data: dict
    words: str | None = None


class Pending(NamedTuple):
    """A report waiting for the camera's clock: the view that first left the board so,
    and what will be said (None: nothing to say, the clock only runs)."""

    view: BoardView
    data: dict | None


class PutBack(NamedTuple):
    """After an undo: the board still on the table, and the request in words."""

    board: dict
    text: str


@dataclass(frozen=True)
class Lifecycle:
    phase: Phase = Phase.FOLLOWING
    put_back: PutBack | None = None  # in PUT_BACK
    alarm: dict | None = None  # the standing illegal-board report, until put right
    suspect: Pending | None = None  # the latest wrong board, waiting for `confirm_s`
    first_wrong: Pending | None = None  # the first clear view no history explained since one did: the clock's start
    doubt: dict | None = None  # the standing "I can't tell yet", until settled
    unsure: Pending | None = None  # an undecided board waiting for DOUBT_S
    doubts_said: tuple = ()  # each doubt said since the sure position last changed
    misread: Retraction | None = None  # a take-back explaining the board, not yet surely

    @property
    def awaiting_start(self) -> bool:
        return self.phase is Phase.AWAITING_START

    @property
    def confirming(self) -> bool:
        """Is a wrong or undecided board waiting for the camera's clock?"""
        return self.suspect is not None or self.unsure is not None

    # --- the position --------------------------------------------------------------------
    def anew(self, alarm_too: bool = True) -> Lifecycle:
        """Sure of a new position (a new game, a record rebuilt or set; a take-back keeps
        the alarm, `alarm_too` False): nothing pending, no doubt, no put-back asked. The
        misread take-back stays for the next view that looks further to weigh again."""
        phase = Phase.FOLLOWING if self.phase is Phase.PUT_BACK else self.phase
        return replace(self, phase=phase, put_back=None, doubt=None, suspect=None, first_wrong=None, unsure=None,
                       doubts_said=(), alarm=None if alarm_too else self.alarm)

    def await_start(self) -> Lifecycle:
        return replace(self, phase=Phase.AWAITING_START)

    def started(self) -> Lifecycle:
        """The camera sees the game: follow it."""
        return replace(self, phase=Phase.FOLLOWING) if self.awaiting_start else self

    def recorded(self, typed: str | None) -> tuple[Lifecycle, list[Say]]:
        """Plies recorded: the board is legal, the camera follows; `typed`, the plies in
        words when they were typed, not seen (a standing doubt is over)."""
        life = replace(self.started(), alarm=None, suspect=None, first_wrong=None, doubts_said=())
        return life._clear_doubt(typed) if typed is not None else (life, [])

    def ask_put_back(self, board: dict, text: str, cells: list) -> Lifecycle:
        """An undo whose move is still on the table (`board`): asked in words, standing
        as the doubt until the camera sees the board put back."""
        return replace(self, phase=Phase.PUT_BACK, put_back=PutBack(board, text),
                       doubt={"text": text, "candidates": [], "cells": cells})

    def put_back_seen(self) -> tuple[Lifecycle, list[Say]]:
        return (replace(self, phase=Phase.FOLLOWING, put_back=None, doubt=None),
                [Say(Kind.DOUBT_CLEARED, {}, N_("the board is put back"))])

    # --- the board -------------------------------------------------------------------------
    def weighed_take_back(self, misread) -> Lifecycle:
        """A view that looked further: a take-back that explains it, not yet surely, or None."""
        return replace(self, misread=misread)

    def explained(self) -> tuple[Lifecycle, list[Say]]:
        """A view the beliefs explain: no wrong board waits; a standing alarm is over."""
        life = replace(self, suspect=None, first_wrong=None, alarm=None)
        says = [Say(Kind.RESTORED, {}, N_("the board shows a legal position again"))] if self.alarm else []
        return life, says

    def decided(self, again: str, settled: str) -> tuple[Lifecycle, list[Say]]:
        """The views settled the board: nothing waits; a standing doubt is cleared, in
        words (`again` when it named no reading: the board is as it was)."""
        life = replace(self, unsure=None)
        return life._clear_doubt(again if self.doubt is not None and not self.doubt["candidates"] else settled)

    def undecided(self, view: BoardView, data: dict | None) -> Lifecycle:
        """An undecided board, said after DOUBT_S unless decided: the clock runs from the
        first view that left it so (the watcher reads a still board again and again)."""
        if self.unsure is None or self.unsure.data != data:
            return replace(self, unsure=Pending(view, data))
        return self

    def unclear(self, view: BoardView, data: dict | None) -> Lifecycle:
        """A board no history explains that is unclear (a hand over it), or only a
        take-back explains: no alarm waits, a doubt does."""
        return replace(self, suspect=None).undecided(view, data)

    def wrong(self, view: BoardView, alarm: dict, confirm_s: float, went_on: str,
              kept: dict | None = None) -> tuple[Lifecycle, list[Say]]:
        """A clear board no legal history explains (`alarm`, in words): an alarm once the
        clear views have stayed unexplained `confirm_s` since the first of them (at once
        without a camera clock); when play went on from that first wrong board (its
        wrong change still there, more changed since) it is the one reported, the illegal
        move. The same wrong board, or play going on from it, is reported once
        (`went_on`: that report's reason). `kept`: the cells of the wrong boards before
        (the alarm standing, the first wrong board) this view does not show otherwise: a
        pawn that left b7 stands behind the one now on b6, and b7 reads empty no more,
        yet nobody put it back."""
        seen = {**(kept or {}), **alarm["seen"]}
        if self.alarm and (self.alarm["reason"] == alarm["reason"] or self.alarm.get("went_on")):
            return self, []
        if self.alarm and self.alarm["seen"].items() < seen.items():
            # the wrong change reported still stands and more changed since: play went on from it
            alarm = {**alarm, "went_on": True, "reason": went_on}
        if confirm_s <= 0:
            return self._raise(alarm)
        first = self.first_wrong if self.first_wrong is not None else Pending(view, alarm)
        if self.alarm is None and first.data["seen"].items() <= seen.items():
            alarm = first.data  # play went on from the first wrong board: what to fix is that one
        if self.suspect is None or self.suspect.data != alarm:
            return replace(self, suspect=Pending(view, alarm), first_wrong=first), []
        return replace(self, first_wrong=first), []

    def tick(self, t: float, moved_at: float, confirm_s: float) -> tuple[Lifecycle, list[Say]]:
        """The camera's clock: clear views no history explains for `confirm_s` since the
        first of them, the last wrong board still STILL_S (after its view and after the
        last motion, `moved_at`), become an alarm; a board still undecided after DOUBT_S
        becomes a doubt, said once."""
        # still since the view, and since any motion after it: a hand that passes and
        # leaves the board as it was postpones the alarm (a hand that changes the board
        # brings a new view, which decides afresh); it never cancels it, for the watcher
        # hands on no new view of a board that reads the same
        if (self.suspect is not None and t - max(self.suspect.view.t, moved_at) >= min(STILL_S, confirm_s)
                and t - self.first_wrong.view.t >= confirm_s):
            return replace(self, suspect=None, first_wrong=None)._raise(self.suspect.data)
        if self.unsure is not None and t - max(self.unsure.view.t, moved_at) >= DOUBT_S:
            data, life = self.unsure.data, replace(self, unsure=None)
            if data is None or data["text"] in self.doubts_said:
                return life, []
            return replace(life, doubts_said=self.doubts_said + (data["text"],), doubt=data), [Say(Kind.DOUBT, data)]
        return self, []

    def _raise(self, alarm: dict) -> tuple[Lifecycle, list[Say]]:
        life, says = replace(self, alarm=alarm)._clear_doubt(N_("an alarm replaced the doubt"), fixed=True)
        return life, says + [Say(Kind.ILLEGAL, {"source": "camera", **alarm})]

    def _clear_doubt(self, why: str, fixed: bool = False) -> tuple[Lifecycle, list[Say]]:
        """`why` in words, or with `fixed` a text of the catalogue said in the table's language."""
        if self.doubt is None:
            return self, []
        return replace(self, doubt=None), [Say(Kind.DOUBT_CLEARED, {}, why) if fixed
                                           else Say(Kind.DOUBT_CLEARED, {"text": why})]
