"""Following the camera: the half of the `Referee` (controller/referee.py) that weighs views.

`Following` is the referee's camera path, kept in its own module so each reads in one
sitting: a part of `Referee`, it works on the referee's fields (`sure`, `beliefs`,
`shown`, `life`, `takeback`, `known`, `_odd`, `_since`, `_partial`, `_lost_at`: see
`Referee.__init__`) and records, says and words through the referee (`_record`, `_go`,
`_emit`, `wording`).

For each still view (`observe`) it weighs the histories the beliefs keep
(controller/beliefs.py) and, by what explains the view:

| the views | what the referee does |
|---|---|
| every history within COMMIT of the best, and every one within DECISIVE the view does not contradict, begins with its first plies; or those within COMMIT did on the last still view too | records those plies (`move`, source "camera", with `decided_after_s`), never one under a hand (`moving`, `covered`) |
| the best leads, but not by that much | shows its plies as unsure and waits for the next views; a tap on the page is a shortcut, never needed |
| a later view fits another history better than the one shown | shows that one and says so once (`corrected`, "corrected: ..., not ...") |
| still undecided after the board has stood still DOUBT_S | says so once (`doubt`, with the few likeliest readings), and goes on weighing |
| no history explains a clear view, but one from a few recorded plies back does | takes those plies back and records the history that does (`corrected`, with `retracted`: controller/takeback.py) |
| no history kept explains a clear, uncovered view (the camera lost the board) | searches on from the lines kept, else from the sure position, as deep as the hand motions (or the time) since allow (`_found_again`); the plies found are said once when recorded (`recovered`) |
| after a stretch found late, no history explains a clear view (the pieces found were others of the same colours) | looks again from the position before the stretch for pieces that make every move seen since; found, corrects the record once (`corrected`, with `retracted`: `_look_again`); not found, the alarm says the pieces found late may have been others |
| no history explains a clear view that stays so for `confirm_s` | `illegal`, in the game's words: who should fix it, how, what was seen; no take-back reaches past it |
| play goes on from a board the alarm is about | the alarm is updated once ("play went on after an illegal move; the record stands at 15. Nxe7+"); the admin may accept the board as it stands (`Referee.set_position`) |

Every view is judged against every history kept, so after an alarm or a doubt the
referee follows again as soon as any legal history explains the board; what it says
goes through its lifecycle (controller/lifecycle.py), once per situation. Before the
camera has seen the start (`await_start`), views that fit no history are waited out
silently; a view is the start when each cell reads empty or not as the start has it (a
few may err): the sides are learned from the start itself.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, NamedTuple

from vision.view import BoardView

from . import recovery
from .beliefs import DECISIVE, Beliefs, Line, Still, new_motions
from .events import Event, Kind
from .evidence import CLEAR, STRAIN, Evidence

SWITCH = 1.0  # the history shown gives way to another only when that one leads by this much
FURTHER = 4.0  # a history found further than one view's actions must explain the view this much better
DEEPER = 2  # a view no history explains is searched this many actions deeper
PLY_S = 1.0  # a ply takes a hand at least this long: the most plies since the sure position, unless counted
LOST_DEPTH = 10  # the deepest search from the sure position when the camera lost the board


def plies_allowed(motions: int | None, seconds: float | None) -> int:
    """The most plies players could have made: the hand motions counted and one more (a
    quick reply), or, not counted, a ply a PLY_S over `seconds` (None: no bound but
    LOST_DEPTH); never more than LOST_DEPTH."""
    if motions is not None:
        return min(LOST_DEPTH, motions + 1)
    return LOST_DEPTH if seconds is None else min(LOST_DEPTH, 1 + int(max(0.0, seconds) / PLY_S))


class Since(NamedTuple):
    """When the hand left before the sure position stood (None: not yet seen), and the
    hand motions the watcher counted since, per view as (when its hand left, motions)
    (None: not counted)."""

    at: float | None
    counted: tuple | None = ()

    @property
    def motions(self) -> int | None:
        return None if self.counted is None else sum(n for _, n in self.counted)

    def then(self, moved_at: float, motions: int | None) -> Since:
        """One more view, its hand gone at `moved_at`, with `motions` new motions."""
        counted = None if motions is None or self.counted is None else self.counted + ((moved_at, motions),)
        return Since(moved_at if self.at is None else self.at, counted)

    def after(self, at: float) -> Since:
        """A sure position that stood from when the hand left at `at` (the view that showed
        its last ply): the motions of the views after it are what it has left; the ones
        before made the plies, or nothing (the players setting up)."""
        return Since(at, None if self.counted is None else tuple(c for c in self.counted if c[0] > at))

    def spent(self, plies: int, at: float | None) -> Since:
        """A sure position `plies` on, entered where no view showed when (typed): each ply
        spent a motion, the oldest first."""
        if self.counted is None:
            return Since(at, None)
        left, out = plies, []
        for moved_at, n in self.counted:
            used = min(n, left)
            left -= used
            if n > used:
                out.append((moved_at, n - used))
        return Since(at, tuple(out))


class Found(NamedTuple):
    """A stretch the camera did not see, found late (`_look_further`, `_found_again`): the
    sure position it was searched from (`anchor`), how many plies were recorded then
    (`at`), when the hand left before the still view it was found on (`moved_at`), the
    most plies a history found again may have (`most`: as many as the hand motions, or
    the time, since `anchor` allow, as `_found_again`), how many plies recorded since
    reach the last one found late (`late`: the stretch as recorded), and whether a later
    view has had it looked at again (`tried`: once)."""

    anchor: Any
    at: int
    moved_at: float
    most: int
    late: int = 0
    tried: bool = False


class Known(NamedTuple):
    """A view of the sure position the camera may learn from (controller/table.py): the
    sure position's `epoch`, the view's time, and the cells it read otherwise."""

    epoch: int
    t: float
    odd: frozenset


class Following:
    """The referee's camera path (a part of `Referee`; see the module docstring)."""

    def observe(self, view: BoardView) -> Event | None:
        """Weigh a stable view; returns the last event it caused."""
        if self.game is None or self.game.outcome(self.sure) is not None:
            return None  # after the end the players clear the board: nothing to judge
        board = self.game.board(self.sure)
        ev = Evidence(view, board, self.min_confidence, self.game.sure_labels_name_changes, self.game.wrong_cells)
        if self.life.put_back is not None:
            return self._put_back(view, ev, board)
        motions = view.motions
        self.takeback.keep(Still(view.moved_at, bool(ev.moving), ev, motions))
        since = self._since
        # each burst once, or every ply recorded would leave one motion more for the sure
        # position to spend on plies nobody made
        self._since = since.then(view.moved_at, new_motions(motions, self._partial))
        self._partial = bool(view.moving)
        lines = self.beliefs.weigh(ev, view.moved_at, motions)
        awaiting = self.life.awaiting_start
        if awaiting and ev.fits_the_start(board) and not (lines[0].actions and ev.explains(lines[0].board)):
            self.life = self.life.started()  # the start, as well as a cold read can tell: follow
            self.known = Known(self.epoch, view.t, frozenset())
            return None
        # (a legal move from the start that explains the view better: the players did not
        # wait for the camera; it is followed as any move)
        if not ev.explains(lines[0].board) or self._strained(ev, lines[0].board):
            return None if awaiting else self._unexplained(view, ev, lines)
        if self.life.alarm is not None and (view.moving or view.covered):
            return None  # an alarm is raised on a clear board, and put right by one (not what a hand hides)
        if (ev.poorly_explained(lines[0].board) or self.life.misread is not None) and not awaiting:
            # explained, but for cells another label fits better, or just after a view
            # that only a take-back explained: a history further off may fit them all
            # (more plies than one view shows, a ply taken wrongly as sure)
            events = self._look_further(view, ev, lines)
            if events is not None:
                return self._last_of(events)
        self.life = self.life.started()
        self.beliefs.adopt(lines, view.moved_at, partial=bool(ev.moving), motions=motions)
        return self._follow(view, ev)

    def tick(self, t: float, moved_at: float) -> Event | None:
        """The live camera's clock (controller/lifecycle.py `tick`): a wrong board that
        stayed becomes an alarm, an undecided one a doubt, each said once."""
        suspect = self.life.suspect
        return self._go_wrong(self.life.tick(t, moved_at, self.confirm_s), suspect and suspect.view, t)

    def _strained(self, ev: Evidence, board: dict) -> bool:
        """While an alarm stands, is `board` too strained to put it right, as a board with
        a misread cell is (`Evidence.explains`: strain STRAIN or more)? A legal history
        the view contradicts nowhere outright, each of its cells only a little better
        read otherwise, yet strained by them all (eight plies after 15...b6??, Nh4 Bxh4
        Bg3 Bh5 for 15. Nxe7+, e7 and h4 read otherwise, strain 43), is no board put
        right."""
        return self.life.alarm is not None and ev.strain(board) >= STRAIN

    def _go_wrong(self, step, view: BoardView | None, at: float) -> Event | None:
        """A wrong board's next step (the lifecycle's `wrong` or `tick`). When it raises
        the alarm, the unsure plies shown that the views before it settle are recorded
        first (`_shown_before_the_wrong`): the alarm is said against the position the
        page shows, so that is the record it stands on."""
        moves = None
        if view is not None and self.life.alarm is None and any(say.kind is Kind.ILLEGAL for say in step[1]):
            n = self._shown_before_the_wrong(view)
            if n:
                moves = self._record(self.shown.actions[:n], self.shown.seen[:n], "camera", at=at)
        return self._last_of([moves, self._go(step)])

    def _shown_before_the_wrong(self, view: BoardView) -> int:
        """How many of the unsure plies shown the views weighed before the wrong board
        settle, as one decisive view would (every history kept within DECISIVE of the
        best begins with them), where the wrong board's `view` shows their cells as they
        left them. Those views were not clear enough to settle them when seen: a cell
        read otherwise than every history, newly (`_follow`). The wrong board says what
        it was: the illegal move beginning (15. Nxe7+ seen on one still view, then b7
        empty as 15...b6?? was made: a lead of 10.8 left unsettled)."""
        if self.shown is None or self.beliefs.best.actions[:len(self.shown.actions)] != self.shown.actions:
            return 0
        board = self.game.board(self.sure)
        ev = Evidence(view, board, self.min_confidence, self.game.sure_labels_name_changes, self.game.wrong_cells)
        n = min(len(self.shown.actions), self.beliefs.settled(DECISIVE))
        states = self._states(self.shown.actions[:n])
        while n:
            after = self.game.board(states[n])
            if not ev.unexplained(after) & {c for c in after if after[c] != board.get(c)}:
                return n
            n -= 1
        return 0

    def _put_back(self, view: BoardView, ev: Evidence, board: dict) -> Event | None:
        """After an undo, a view is only asked whether the board was put back: once it
        shows the position clearly, the request is over (the camera learns from that
        view, `known`) and the camera is followed again."""
        if view.moving or ev.unclear(board) or not ev.explains(board) or ev.unexplained(board):
            return None
        self.beliefs = Beliefs(self.game, self.sure)
        self.known = Known(self.epoch, view.t, frozenset())
        return self._go(self.life.put_back_seen())

    def _follow(self, view: BoardView, ev: Evidence) -> Event | None:
        """The beliefs explain the view: record what is settled, show the rest. A cell
        the view shows otherwise than the best history, newly since the hand left (a
        hand resting on the board, a piece held over a square), makes the view too
        unclear to settle anything; one that read so before the last motion began is a
        misread look the referee lives with (a nudged piece in a shadow)."""
        events = []
        best = self.beliefs.best
        self._odd = {c: self._odd.get(c, view.t) for c in ev.unexplained(best.board)}
        clear = all(since < view.moved_at for since in self._odd.values())
        moving = set(view.moving)
        # a view a hand still moves over is no look of its own: only a decisive lead
        # settles a ply then (its still arm may lie over more)
        settled = self.beliefs.sure(ev, view.moved_at, still=not moving) if clear else 0
        hidden = moving | view.covered
        if hidden:  # a ply whose cells are under a hand (moving or at rest) waits for a clearer view
            for n in range(settled):
                after = self._states(best.actions[:n + 1])[-1]
                before = self.game.board(self._states(best.actions[:n])[-1])
                if any(c in hidden for c, v in self.game.board(after).items() if before.get(c) != v):
                    settled = n
                    break
        if settled:
            events.append(self._record(best.actions[:settled], best.seen[:settled], "camera", at=view.t,
                                       late=best.late[:settled]))
        events.append(self._go(self.life.explained()))  # (a ply recorded has put an alarm right already)
        if clear and not self.beliefs.best.actions and len(self.beliefs.close()) == 1:
            # sure of the board: the camera learns from it, but for the cells it reads otherwise
            self.known = Known(self.epoch, view.t, frozenset(self._odd))
        elif clear and not (moving or view.covered):
            # the next ply made before the last settled: what every close history agrees on
            self.known = Known(self.epoch, view.t, frozenset(self._odd) | self._unsettled(view))
        if not moving:  # what a hand still over the board leaves unsure is not shown yet
            if clear:
                events += self._show()
                events += self._weigh_doubt(view)
            else:  # a cell seen otherwise than any history has it: said once if it stays so
                self.life = self.life.undecided(view, self.wording.oddity(self.state, ev, self._odd))
        return self._last_of(events)

    def _unsettled(self, view: BoardView) -> frozenset:
        """The cells a still, clear view cannot teach the sure position from while the
        histories are not all one (a ply made since, not yet settled): those a close
        history has otherwise, and those whose looks and change both favour another
        label by CLEAR, however little of them is seen (`Evidence.contradicts` asks the
        same of well-seen cells only; a knight put where it cannot go, behind the pawns,
        that no history explains, was learned as the empty square it should be and
        hidden for good). The rest is learned at once: change measured from a position
        many plies old (a low side camera, where the histories seldom become one) read
        every later ply against pieces long gone, and lost the game."""
        sure = self.game.board(self.sure)
        out = {c for line in self.beliefs.close() for c in set(line.board) | set(sure)
               if line.board.get(c) != sure.get(c)}
        for c, sight in view.sight.items():
            said = (sight.looks, sight.change.known if sight.change else None)
            if all(s and max(s.values()) - s.get(sure.get(c), -math.inf) >= CLEAR for s in said):
                out.add(c)
        return frozenset(out)

    def _show(self) -> list[Event]:
        """Show the best history, unless the one shown is still close to it; say once
        when unsure plies shown are revised."""
        best, old = self.beliefs.best, self.shown
        keep = None
        if old is not None:
            for line in self.beliefs.lines:
                if line.actions[:len(old.actions)] == old.actions and (keep is None or line.score > keep.score):
                    keep = line
        chosen = keep if keep is not None and best.score - keep.score < SWITCH else best
        self.shown = chosen if chosen.actions else None
        if old is None or chosen.actions[:len(old.actions)] == old.actions:
            return []
        return [self._corrected(old.actions, chosen.actions, retracted=[])]

    def _weigh_doubt(self, view: BoardView) -> list[Event]:
        """After a view the beliefs explain: undecided (unsure plies shown, or close
        histories that differ), the doubt waits for the clock; decided, a standing doubt
        is settled."""
        close = self.beliefs.close()
        if self.shown is None and len(close) == 1:
            return [self._go(self.life.decided(
                self._("the board shows the position again"),
                self._("settled: {moves}", moves=", ".join(self.history[-3:]) or self._("nothing moved"))))]
        self.life = self.life.undecided(view, self.wording.doubt(self.sure, close))
        return []

    def _corrected(self, old_actions, new_actions, retracted: list[str], state=None) -> Event:
        """Say once that the history shown was revised: from the first ply that differs."""
        text = self.wording.correction(self.sure if state is None else state, old_actions, new_actions)
        return self._emit("corrected", text=self._("corrected: {text}", text=text), retracted=retracted,
                          source="camera")

    def _unexplained(self, view: BoardView, ev: Evidence, lines: list[Line]) -> Event | None:
        """No history kept explains the view: look deeper, then further back; else it is
        a wrong board (an alarm once it stays) or an unclear one (waited on)."""
        events = self._look_further(view, ev, lines, lost=True)
        if events is not None:
            return self._last_of(events)
        if view.moving or view.covered or ev.unclear(lines[0].board):
            self.life = self.life.unclear(view, self.wording.doubt(self.sure, lines, unexplained=True))
            return None
        misread = self.life.misread
        if misread is not None:  # a ply recorded may have been misread: later views will tell
            recent = self.takeback.recent[-misread.k:]
            self.life = self.life.unclear(view, self.wording.misread(recent[0].before, [p.action for p in recent],
                                                                     misread.lines))
            return None
        alarm = self.wording.wrong_board(self.state, ev)  # against the position the page shows
        lost = self._found
        if lost is not None and lost.tried and lost.late:
            # looked at again, and no history from before the stretch found late explains
            # the views since: the players may have played legally with other pieces
            alarm = {**alarm, "reason": self._(
                "{reason} (or the pieces found late after the camera lost the board, {moves}, were others: the "
                "colours cannot tell; the admin may set the position as it stands)",
                reason=alarm["reason"], moves=", ".join(self.history[lost.at:lost.at + lost.late]))}
        went_on = ("play went on after an illegal move; the record stands at "
                   f"{self.wording.record_at(self.sure, self.history)}")
        return self._go_wrong(self.life.wrong(view, alarm, self.confirm_s, went_on, self._wrong_kept(ev)), view,
                              view.t)

    def _wrong_kept(self, ev: Evidence) -> dict:
        """What the wrong boards before (the first one, the alarm standing) showed on cells
        this view does not show otherwise (a cell now hidden or read unsurely): by cell
        name, as an alarm's `seen`."""
        before = {**(self.life.first_wrong.data["seen"] if self.life.first_wrong else {}),
                  **(self.life.alarm["seen"] if self.life.alarm else {})}
        board = self.game.board(self.state)
        cells = {self.game.cell_name(c): c for c in board}
        after = {**board, **{cells[n]: v for n, v in before.items() if n in cells}}
        return {n: v for n, v in before.items() if n in cells and not ev.contradicts(cells[n], after)}

    @staticmethod
    def _last_of(events: list) -> Event | None:
        events = [e for e in events if e is not None]
        return events[-1] if events else None

    def _look_further(self, view: BoardView, ev: Evidence, lines: list[Line], lost: bool = False) -> list | None:
        """A history that explains the view from a recorded camera ply or a few back (a
        wrong ply taken as sure: taken back, in words, as its own event), when the
        histories without it explain every still view since overwhelmingly better than
        those with it; or else one found deeper than one view's actions from the lines
        kept (quick play, a missed view, a restart); or, `lost` (no line kept explains the
        view), one from the sure position as long as the time and hands since allow
        (`_found_again`). None when there is none (and the lifecycle's `misread` says
        whether a take-back explains the view, not yet surely)."""
        self.life = self.life.weighed_take_back(None)
        if view.moving or view.covered or ev.unclear(lines[0].board):
            return None  # looking further needs a clear, uncovered view
        depth = self.game.max_actions_per_view + DEEPER
        retraction = self.takeback.best(self.game, view, ev, depth)
        if retraction is not None and retraction.sure:
            return self._take_back(retraction.k, retraction.lines, view, ev)
        before = self.beliefs.before(view.moved_at, view.motions)
        motions = self.beliefs.motions(view.moved_at, view.motions)
        if motions is not None:  # no deeper than the hands counted allow, and a quick reply
            depth = min(depth, motions + 1)
        found = self.beliefs.search(ev, [(line, 0, motions) for line in before[:3]], depth, view.moved_at, late=lost)
        if found and found[0].score >= lines[0].score + FURTHER and not lost:
            self.beliefs.adopt(found, view.moved_at, motions=view.motions)
            self.life = self.life.started()
            return [self._follow(view, ev)]
        taking_back = retraction is not None and retraction.likely
        if lost and not taking_back and (not found or ev.unexplained(found[0].board)
                                         or ev.poorly_explained(found[0].board)):
            # the beam's best leaves cells as the view does not show them (a history too
            # short for what moved in a stretch the camera did not see): further back,
            # first before a stretch found late from the colours alone
            events = self._look_again(view, ev)
            if events is not None:
                return events
            found = self._found_again(view, ev) or found
        if lost:  # nothing kept explains the view: only a history the players could have made, as seen
            found = [line for line in found
                     if self.beliefs.hands_allow(self.sure, line.actions, self._since.motions, ev, line.board)
                     and self._fits_the_stills(line, view)]
        if lost and found and not taking_back:  # found afresh: the lines kept explain nothing
            # what a later view may yet show was made by other pieces (`_look_again`)
            t = self._since.at
            most = plies_allowed(self._since.motions, None if t is None else view.moved_at - t)
            self._found = Found(self.sure, len(self.history), view.moved_at,
                                min(LOST_DEPTH, max([most] + [len(line.actions) for line in found])))
            self.beliefs.reset(self.sure)
            # a re-read of this still board weighs them again (without this reading)
            self.beliefs.lines = [replace(line, score=line.score - ev.score(line.board)) for line in found]
            self.beliefs.adopt(found, view.moved_at, motions=view.motions)
            self.life = self.life.started()
            return [self._follow(view, ev)]
        if taking_back:  # the views since favour it: a doubt, not an alarm, for now
            self.life = self.life.weighed_take_back(retraction)
        return None

    def _fits_the_stills(self, line: Line, view: BoardView) -> bool:
        """Does `line` explain, in order, every still view seen since the sure position
        (each by one of its histories so far, never an earlier one than the view before)?
        A history found for the board as it stands is weighed on that board alone; the
        camera may have lost the board meanwhile, but the views it did see must fit too
        (16. Bg3 seen made while 15...Bg4 still stood is no "...Bh5, then Bg3")."""
        boards = [self.game.board(state) for state in self._states(line.actions)]
        at, p = self._since.at, 0
        for still in self.takeback.stills:
            if still.partial or (at is not None and still.moved_at <= at) or still.moved_at >= view.moved_at:
                continue
            while p < len(boards) and not still.ev.explains(boards[p]):
                p += 1
            if p == len(boards):
                return False
        return True

    def _found_again(self, view: BoardView, ev: Evidence) -> list[Line]:
        """The camera lost the board (a bumped camera, a stretch of video lost, a hand
        over it while play went on): the legal histories on from the lines kept (else
        from the sure position) that explain the view, as long as the hand motions
        counted since allow (one more: a quick reply), or else the time the camera saw
        no still board allows (a ply a PLY_S at most), up to LOST_DEPTH plies
        (controller/recovery.py). Tried once per still view (a re-read of it finds
        nothing new)."""
        if self._lost_at == view.moved_at:
            return []
        self._lost_at = view.moved_at
        t, motions = self._since.at, self._since.motions
        # the time the camera saw no still board since the last one (or the sure position)
        seen = [still.moved_at for still in self.takeback.stills if still.moved_at < view.moved_at] + [t]
        most = plies_allowed(motions, view.moved_at - max((s for s in seen if s is not None), default=view.moved_at))
        if most <= self.game.max_actions_per_view + DEEPER and motions is None:
            return []  # no deeper than the lines were searched already
        # on from the lines kept first (what the views before showed stands), else from the sure position
        starts = [(line, None if motions is None else max(0, motions - len(line.actions)))
                  for line in self.beliefs.before(view.moved_at, view.motions)[:3] if len(line.actions) < most]
        starts.append((Line((), self.sure, self.game.board(self.sure)), motions))
        # the walk (where motions are counted too: what it finds must fit them and every
        # still seen since, `_look_further`), else the beam guided by the view
        found = recovery.found_again(
            self.beliefs, ev, starts, most, view.moved_at, self.sure,
            deeper_than=self.game.max_actions_per_view + DEEPER)[0]
        # the walk's boards spent (a view with many unclear cells): the beam guided by the view
        for start, left in starts:
            if found:
                break
            found = self.beliefs.search(ev, [(start, len(start.actions), left)], most, view.moved_at, most=most,
                                        late=True)
        return found

    def _look_again(self, view: BoardView, ev: Evidence) -> list | None:
        """A clear view no history kept explains, after a stretch found late: the pieces
        recorded there may not be the ones played (the camera tells whose a piece is, not
        which: O-O a6 Kh1 a5 d3 h6 unseen, found as Kf1 h6 d3 a5, then Re1 recorded as
        Ke1, and Re3 is no move of that king). Looked at again from the sure position the
        stretch was searched from, by which piece stands where, each history kept only if
        it goes on legally through every still view since (controller/recovery.py
        `look_again`): one that does replaces what was recorded since, said once in a
        `corrected` event in notation, as the stretch was said when found ("corrected:
        d3, h6, O-O, a6, Kh1, a5, not Kf1, h6, d3, a5"), the journal keeping the plies it
        retracts beside it. None (an illegal move after a stretch found right, or the true
        pieces beyond the walk's boards) leaves the record as it stands and the view to
        the alarm, which then says the pieces found late may have been others
        (`_unexplained`). Once per stretch, on a clear view, never past an alarm."""
        lost = self._found
        if lost is None or lost.tried or not lost.late or self.life.alarm is not None:
            return None
        depth = self.game.max_actions_per_view + DEEPER
        earlier = [still.moved_at for still in self.takeback.stills if still.moved_at < view.moved_at]
        if earlier and 1 + (view.moved_at - earlier[-1]) / PLY_S > depth:
            return None  # the camera lost the board again since the last still: found again first
        self._found = lost._replace(tried=True)
        stills = [still for still in self.takeback.stills if still.moved_at >= lost.moved_at]
        if not stills or stills[0].moved_at != lost.moved_at:
            return None  # the views since are no longer all kept (a typed move, a take-back)
        state, touched = lost.anchor, set()
        for i, notation in enumerate(self.history[lost.at:]):  # the cells the plies after the stretch changed
            before, state = self.game.board(state), self.game.apply(state, self.game.parse(state, notation))
            if i >= lost.late:
                touched |= {c for c, v in self.game.board(state).items() if before.get(c) != v}
        lines = recovery.look_again(self.game, lost.anchor, stills, self.game.board(self.sure), touched, lost.most,
                                    depth)[0]
        if not lines:
            return None
        best, state, now = lines[0], lost.anchor, []
        for action, late in zip(best.actions, best.late):
            if not late:
                break
            now.append(self.game.notation(state, action))
            state = self.game.apply(state, action)
        # in notation, as the stretch was said when found (`recovered`): a stretch in words is a paragraph
        text = self._("{now}, not {was}", now=", ".join(now), was=", ".join(self.history[lost.at:lost.at + lost.late]))
        event = self._emit("corrected", text=self._("corrected: {text}", text=text), retracted=self.history[lost.at:],
                           source="camera")
        if self.game.outcome(self.sure) is not None:
            self.journal.reopen_game(self.game_id)
        stills = self.takeback.stills
        self._sure_of(lost.anchor, alarm_too=False)
        self.takeback.stills = stills
        self._recovered = []  # the plies found late are said by the correction, not again
        lines = [replace(line, late=(False,) * len(line.late)) for line in lines]
        # a re-read of this still board weighs them again (without this reading)
        self.beliefs.lines = [replace(line, score=line.score - ev.score(line.board)) for line in lines]
        self.beliefs.adopt(lines, view.moved_at, motions=view.motions)
        self.life = self.life.started()
        return [event, self._follow(view, ev)]

    def _take_back(self, k: int, found: list[Line], view: BoardView, ev: Evidence) -> list:
        """The last `k` recorded camera plies were wrong: take them back (a `corrected`
        event, which the journal keeps beside them) and follow the histories `found`."""
        recent = self.takeback.recent[-k:]
        before = recent[0].before
        retracted = self.history[-k:]
        was_over = self.game.outcome(self.sure) is not None
        best = max(found, key=lambda line: line.score)
        # the `corrected` event takes the retracted plies off the record (controller/record.py)
        event = self._corrected([p.action for p in recent], list(best.actions), retracted=retracted, state=before)
        if was_over:
            self.journal.reopen_game(self.game_id)
        takeback = self.takeback.without(k)
        self._sure_of(before, alarm_too=False)
        self.takeback = takeback
        self.beliefs.adopt(found, view.moved_at)
        return [event, self._follow(view, ev)]
