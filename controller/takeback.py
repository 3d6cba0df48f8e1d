"""Taking back camera plies recorded wrongly: the referee's second look at what it recorded.

A ply the camera recorded as sure may still be wrong (f7-f5 read as h7-h6 in a grey
photo): the views that follow then fit the histories that keep it worse and worse. So
the referee keeps the last BACK camera plies it recorded (`Recorded`) and the still
views seen since about the oldest of them (`Still`, controller/beliefs.py), and on a view
its beliefs do not explain well it asks `TakeBack.best`: weighed again from the position
before the last k of those plies, once keeping them and once without them
(`beliefs.replay`), do the histories without them explain every still since better?

The answer is a `Retraction`: how many plies back, the histories that take them back,
by how much they lead (less RETRACT a ply, the prior against taking a recorded ply back),
and whether the board kept saying so (`steady`). The referee takes the plies back (a
`corrected` event; the journal keeps the wrong ply beside it) only for a steady lead of
OVERWHELM; a lesser one that explains the view is a doubt, not an alarm
(controller/lifecycle.py's `misread`).

The weighings are kept between views (`_weighed`, over every still but the last, which
the watcher may read again), so a take-back costs a replay only of the newest still.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, NamedTuple

from vision.view import BoardView

from .beliefs import Beliefs, Still, new_motions, replay
from .evidence import MISFIT, Evidence

BACK = 3  # recorded camera plies a clear view may take back
RETRACT = 3.0  # the prior against taking a recorded ply back (log-likelihood, per ply)
OVERWHELM = 6.0  # a recorded ply is taken back only for histories that explain the views since this much better
MAX_STILLS = 24  # still views kept for weighing again
STEADY_S = 1.0  # a still board that says a recorded ply was misread for this long is believed


class Recorded(NamedTuple):
    """A camera ply recorded lately, which a clear view may still take back."""

    before: Any  # the state it was played from
    action: Any
    hand_left: float | None  # when the hand left before the view that first showed it


class Retraction(NamedTuple):
    """The histories that take back the last `k` recorded camera plies (`lines`), by how
    much they explain the still views since better than those that keep them (`lead`,
    less RETRACT a ply), and whether the board kept saying so (`steady`)."""

    k: int
    lines: list
    lead: float
    steady: bool

    @property
    def sure(self) -> bool:
        """Taken back now: a steady, overwhelming lead."""
        return self.steady and self.lead >= OVERWHELM

    @property
    def likely(self) -> bool:
        """The views since favour it, without the prior: a doubt, not an alarm, for now."""
        return self.lead + RETRACT * self.k > 0


class TakeBack:
    """The last camera plies recorded (`recent`) and the still views since (`stills`), with
    the weighings that ask whether some of those plies were misread."""

    def __init__(self, recent: list[Recorded] | None = None, stills: list[Still] | None = None):
        self.recent: list[Recorded] = recent or []
        self.stills: list[Still] = stills or []
        self._weighed: dict = {}  # (plies back, keeps them, stills) -> the beliefs replayed over those stills
        self._first_said: dict = {}  # (plies back, still) -> the first view that said they were misread

    def copy(self) -> "TakeBack":
        """Its own copy (the referee's `kept` puts it back when a write fails)."""
        out = TakeBack(list(self.recent), list(self.stills))
        out._weighed, out._first_said = dict(self._weighed), dict(self._first_said)
        return out

    def without(self, k: int) -> "TakeBack":
        """After the last `k` plies were taken back: the plies before them and the same
        stills, weighed afresh from the new sure position."""
        return TakeBack(self.recent[:-k], self.stills)

    def recorded(self, before, action, hand_left: float | None, camera: bool) -> None:
        """A ply recorded from `before`: a camera ply may be taken back later; a typed one
        was seen by the players, so nothing before it is."""
        if camera:
            self.recent = (self.recent + [Recorded(before, action, hand_left)])[-BACK:]
        else:
            self.recent, self.stills = [], []
        self._weighed, self._first_said = {}, {}

    def forget(self) -> None:
        """An alarm was raised: what the views before it settled stays (no take-back
        invents a legal path to a board the players reached illegally)."""
        self.recent = []

    def keep(self, still: Still) -> None:
        """Keep a still view for weighing again (a re-read of the same still board, or
        one a hand still moved over, replaces the last; a view read while a new hand
        moves at the edge is no re-read, though its still part last moved when the last
        view's did, as in `Beliefs.before`), back to about the oldest camera ply that may
        be taken back."""
        last = self.stills[-1] if self.stills else None
        if last is not None and (last.partial or (last.moved_at == still.moved_at and not still.motions)):
            # the hand motions the replaced view counted are not lost with it
            motions = None if last.motions is None or still.motions is None else (
                last.motions + new_motions(still.motions, last.partial))
            self.stills[-1] = replace(still, motions=motions)
        else:
            self.stills.append(still)
        del self.stills[:-MAX_STILLS]

    def best(self, game, view: BoardView, ev: Evidence, depth: int) -> Retraction | None:
        """The take-back of the last k recorded camera plies (k up to BACK) whose
        histories explain every still view since those plies were first seen best
        against the histories that keep them, when its best history explains the view
        unstrained (no cell, half-seen ones too, better read otherwise) and fits the hand
        motions since: after a real illegal move every history explains the views badly,
        and one that rewrites settled plies may do so less badly without being what the
        board shows (15. Nxe7+ taken back for Ng3, ...b6, Bxc7 after 15...b6??); else
        None. It is steady when each of the last two stills favoured it by MISFIT
        at least, or the lead was overwhelming after the still before and this one does
        not object, or this still has said so for STEADY_S: a board says a ply was
        misread when it keeps saying so, not in one glimpse (a hand, a shadow)."""
        best = None
        for k in range(1, len(self.recent) + 1):
            before, _, hand_left = self.recent[-k]
            recorded = tuple(p.action for p in self.recent[-k:])
            stills = [still for still in self.stills if hand_left is None or still.moved_at >= hand_left]
            # a view a hand still moved over stands until the next: the referee may have
            # recorded from it (its arm read as a piece), but it is not a look of its own
            stills = [still for i, still in enumerate(stills) if not still.partial or i == len(stills) - 1]
            if not stills:
                continue
            sides = [(True, lambda line: tuple(line.actions[:k]) == recorded[:len(line.actions)]),
                     (False, lambda line: tuple(line.actions[:k]) != recorded)]
            leads, other = [], None
            for n in range(max(0, len(stills) - 2), len(stills) + 1):
                kept, other = (self._replayed(game, k, stills[:n], before, depth, keeps, keep, n < len(stills))
                               for keeps, keep in sides)
                if kept is None or other is None:
                    break
                leads.append(other.best.score - kept.best.score)
            else:
                if not ev.explains(other.best.board) or ev.strain(other.best.board) > 0:
                    continue
                counted = [still.motions for still in stills]
                if not other.hands_allow(before, other.best.actions, None if None in counted else sum(counted)):
                    continue
                lead = leads[-1] - RETRACT * k
                # the board kept saying so: two stills in a row each favoured the take-back,
                # or it was overwhelming after the last still and this one does not object
                steady = len(leads) == 3 and (min(leads[2] - leads[1], leads[1] - leads[0]) >= MISFIT or (
                    leads[1] - RETRACT * k >= OVERWHELM and leads[2] - leads[1] >= -MISFIT))
                if lead >= OVERWHELM:  # since when this still says so
                    since = self._first_said.setdefault((k, stills[-1].moved_at), view.t)
                    steady = steady or view.t - since >= STEADY_S
                if best is None or lead > best.lead:
                    best = Retraction(k, other.lines, lead, steady)
        return best

    def _replayed(self, game, k: int, stills: list[Still], root, depth: int, keeps: bool, keep, stable: bool):
        """The beliefs from `root` over `stills`, the lines `keep` allows (`keeps`: those
        with the recorded plies), or None; weighed one still at a time on the beliefs
        over the stills before it, which are kept (a `stable` list: not the last still,
        which the watcher may read again)."""
        if not stills:
            return Beliefs(game, root)
        key = (k, keeps, tuple(still.moved_at for still in stills))
        if stable and key in self._weighed:
            return self._weighed[key]
        start = self._replayed(game, k, stills[:-1], root, depth, keeps, keep, True)
        out = None if start is None else replay(game, root, stills[-1:], keep, depth, start)
        if stable:
            self._weighed[key] = out
        return out
