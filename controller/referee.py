"""The referee: the only place where observations meet rules.

Inputs are stable board views from vision, moves typed on the page or the CLI, die
rolls and commands (new game, undo). Each becomes events: written to the journal, then
published on the bus. The referee owns the game state and one thread feeds it.

Following the camera. The referee keeps the few likeliest histories since the last
position it is sure of (controller/beliefs.py), each scored by every view seen since
(controller/evidence.py), and lets the views settle between them:

| the views | what the referee does |
|---|---|
| every history within COMMIT of the best, and every one within DECISIVE the view does not contradict, begins with its first plies; or those within COMMIT did on the last still view too | records those plies (`move`, source "camera", with `decided_after_s`), never one under a hand (`moving`, `covered`) |
| the best leads, but not by that much | shows its plies as unsure (`snapshot()["unsure"]`) and waits for the next views; a tap on the page is a shortcut, never needed |
| a later view fits another history better than the one shown | shows that one and says so once (`corrected`, "corrected: ..., not ...") |
| still undecided after the board has stood still DOUBT_S | says so once (`doubt`, with the few likeliest readings), and goes on weighing |
| no history explains a clear view, but one from a few recorded plies back does | takes those plies back and records the history that does (`corrected`, with `retracted`: the journal keeps both) |
| no history kept explains a clear, uncovered view (the camera lost the board) | searches on from the lines kept, else from the sure position, as deep as the hand motions (or the time) since allow (`_lost`); the plies found are said once when recorded (`recovered`) |
| no history explains a clear view that stays so for `confirm_s` | `illegal`, in the game's words: who should fix it, how, what was seen; no take-back reaches past it |
| play goes on from a board the alarm is about | the alarm is updated once ("play went on after an illegal move; the record stands at 15. Nxe7+"); the admin may accept the board as it stands (`set_position`, `position_set`) |

Every view is judged against every history kept, so after an alarm or a doubt the
referee follows again as soon as any legal history explains the board; the same wrong
board is reported once, a doubt once per situation. Nothing cascades. Before the camera
has seen the start (`await_start`), views that fit no history are waited out silently
(an overlay, hands, a half-set board); a view is the start when each cell reads empty or
not as the start has it (a few may err): the sides are learned from the start itself.

Any input that is not a view (a move typed on the page, a die roll, a choice) is taken
on the history the page shows, or failing that the best one it is legal on: the plies
before it are recorded first, for the players acted on them.
"""
from __future__ import annotations

import random
import secrets
from dataclasses import replace
from typing import Any, Iterable, NamedTuple

from vision.view import BoardView

from .beliefs import Beliefs, Line, Still, replay
from .evidence import MISFIT, SEEN, Evidence
from .events import Bus, Event
from .games import load_game
from .games.base import Game, IllegalAction, NotationError
from .journal import Journal

MIN_CONFIDENCE = 0.6
DOUBT_CANDIDATES = 3
CONFIRM_S = 0.5  # the live camera's wrong board must stay this long before an alarm
DOUBT_S = 3.0  # an undecided board must stand still this long before the referee says so
SWITCH = 1.0  # the history shown gives way to another only when that one leads by this much
BACK = 3  # recorded camera plies a clear view may take back
RETRACT = 3.0  # the prior against taking a recorded ply back (log-likelihood, per ply)
FURTHER = 4.0  # a history found further than one view's actions must explain the view this much better
OVERWHELM = 6.0  # a recorded ply is taken back only for histories that explain the views since this much better
MAX_STILLS = 24  # still views kept for weighing again
STEADY_S = 1.0  # a still board that says a recorded ply was misread for this long is believed
DEEPER = 2  # a view no history explains is searched this many actions deeper
PLY_S = 1.0  # a ply takes a hand at least this long: the most plies since the sure position, unless counted
LOST_DEPTH = 10  # the deepest search from the sure position when the camera lost the board


class Recorded(NamedTuple):
    """A camera ply recorded lately, which a clear view may still take back."""

    before: Any  # the state it was played from
    action: Any
    seen: float | None  # when the hand left before the view that first showed it


class Challenge(NamedTuple):
    """The histories that take back the last `k` recorded camera plies (`lines`), by how
    much they explain the still views since better than those that keep them (`lead`,
    less RETRACT a ply), and whether the board kept saying so (`steady`)."""

    k: int
    lines: list
    lead: float
    steady: bool


class Referee:
    def __init__(self, journal: Journal, bus: Bus | None = None, min_confidence: float = MIN_CONFIDENCE):
        self.journal = journal
        self.bus = bus or Bus()
        self.min_confidence = min_confidence
        self.game: Game | None = None
        self.game_id: int | None = None
        self.sure = None  # the position the referee is sure of: the journal's
        self.history: list[str] = []  # notation of each recorded action
        self.beliefs: Beliefs | None = None  # the histories since `sure`
        self.shown: Line | None = None  # the history the page shows (its actions are unsure)
        self.setup: dict = {}
        self.alarm: dict | None = None  # the standing illegal-move report, until put right
        self.doubt: dict | None = None  # the standing "I can't tell yet", until settled
        self.confirm_s = 0.0  # how long a wrong board must stay before an alarm (camera: CONFIRM_S)
        self.awaiting_start = False  # the camera has not yet seen the board in the position
        self.known: tuple | None = None  # (epoch, view time, cells read otherwise): a view of the sure position
        self.epoch = 0  # counts changes of the sure position (the camera learns from each)
        self._past: list[Recorded] = []  # the last camera plies recorded
        self._stills: list[Still] = []  # the still views since (about) the oldest of them
        self._replays: dict = {}  # the beliefs with and without recorded plies, over all stills but the last
        self._challenges: dict = {}  # (plies back, still) -> the first view that said they were misread
        self._challenged: Challenge | None = None  # a take-back that explains the view, not yet surely
        self._suspect: tuple | None = None  # (view, "illegal", data) waiting for confirmation
        self._unsure: tuple | None = None  # (view, doubt data) of an undecided board, until said
        self._said: list = []  # each doubt said since the sure position last changed
        self._odd: dict = {}  # cell -> since when the view shows it otherwise than the best history
        self._since: list = [None, 0]  # [when the hand left before the sure position stood, motions since]
        self._lost_at: float | None = None  # the still view a search from the sure position was tried on
        self._set_at = 0  # recorded plies before the position the admin last set (they stay as they are)
        self._recovered: list[str] = []  # plies found late recorded so far, said once the last is
        self.notes: list[str] = []  # what went wrong while resuming, for the page

    @property
    def state(self):
        """The position the page shows: the sure one, then the unsure plies of the history shown."""
        return self.shown.state if self.shown is not None else self.sure

    @property
    def unsure(self) -> list[str]:
        """The unsure plies shown after the recorded ones, in notation."""
        return self._words(self.shown.actions) if self.shown is not None else []

    # --- events --------------------------------------------------------------------
    def _emit(self, kind: str, **data) -> Event:
        event = self.journal.append(Event(kind, data, self.game_id))
        self.bus.publish(event)
        return event

    # --- games ---------------------------------------------------------------------
    def new_game(self, name: str, variant: str | None = None, settings: dict | None = None,
                 setup: dict | None = None, rng: random.Random | None = None) -> Event:
        """Start a game. Its random parts (shuffles, deals) are drawn now, from the
        operating system's random source unless `rng` is given, and journalled."""
        game = load_game(name, variant, settings)
        if setup is None:
            setup = game.new_setup(rng or random.Random(secrets.randbits(64)))
        state = game.start(setup)
        if self.game_id is not None and self.game.outcome(self.sure) is None:
            self.journal.end_game(self.game_id, "abandoned")
        self.game, self.setup, self.history, self.alarm = game, setup, [], None
        self._sure_of(state)
        event = self.journal.start_game(name, game.variant, Event(
            "game_started", {"game": name, "variant": game.variant, "settings": game.settings, "setup": setup}))
        self.game_id = event.game_id
        event = replace(event, data={**event.data, "setup": game.public_setup(setup)})
        self.bus.publish(event)
        return event

    def _sure_of(self, state) -> None:
        """Sure of `state` from now on, with nothing unsure after it (a new game, a record
        rebuilt, a take-back)."""
        self.sure = state
        self.beliefs = Beliefs(self.game, state)
        self.shown, self._past, self._said, self._odd = None, [], [], {}
        self._since, self._lost_at = [None, 0], None
        self._stills, self._replays, self._challenges = [], {}, {}
        self.doubt, self._suspect, self._unsure = None, None, None
        self.epoch += 1

    def resume(self) -> bool:
        """Rebuild the open game from the journal; False when there is none, or when its
        record cannot be replayed (then it is closed as unreadable, kept as it is, and
        `notes` says which game and why)."""
        info = self.journal.open_game()
        if info is None:
            return False
        try:
            self.load(info["id"])
        except Exception as exc:  # a record this version cannot replay must not stop the service
            self.notes.append(f"{self.journal.path}: game {info['id']} ({info['game']}) cannot be "
                              f"resumed: {type(exc).__name__}: {exc}; its record is kept, a new game starts")
            self.journal.end_game(info["id"], "unreadable")
            self.game = self.game_id = self.sure = self.beliefs = self.shown = None
            return False
        return True

    def load(self, game_id: int) -> None:
        """Rebuild game `game_id` from its record (resume, PGN export)."""
        self.game_id = game_id
        self._rebuild(self.journal.events(game_id))

    def _rebuild(self, events: Iterable[Event]) -> None:
        """The game from its record: the start (or the position the admin last set, after
        the moves before it), then the moves since, less those taken back."""
        moves: list[str] = []
        base = 0  # moves before the position last set: they stand as recorded
        self.game = None
        for e in events:
            if e.kind == "game_started":
                self.game = load_game(e.data["game"], e.data["variant"], e.data.get("settings"))
                self.setup, base = e.data.get("setup") or {}, 0
            elif e.kind == "position_set":
                self.setup, base = e.data["setup"], len(moves)
            elif e.kind == "move":
                moves.append(e.data["notation"])
            elif e.kind == "undo" and len(moves) > base:
                moves.pop()
            elif e.kind == "corrected":
                del moves[max(base, len(moves) - len(e.data.get("retracted") or ())):]
        if self.game is None:
            raise ValueError("the record has no game_started event")
        state = self.game.start(self.setup)
        for text in moves[base:]:
            state = self.game.play(state, self.game.parse(state, text))
        self.history, self.alarm = moves, None
        self._sure_of(state)
        self._set_at = base

    def set_position(self, setup: dict) -> Event:
        """The admin accepts the board as it stands (after an illegal move the players
        played on from): `setup` is the position in the game's own terms (chess: {"fen":
        ...}). Journalled as its own event (`position_set`); the moves before it stay
        as recorded, refereeing goes on from it and a restart rebuilds it. ValueError
        for a position the game cannot start from."""
        if self.game is None:
            raise ValueError("no game has been started")
        state = self.game.start(setup)
        was_over = self.game.outcome(self.sure) is not None
        event = self._emit("position_set", setup=setup, ply=len(self.history),
                           text=f"the admin set the position; refereeing goes on from it "
                                f"(the record before it stands at {self._record_at()})")
        if was_over:
            self.journal.reopen_game(self.game_id)
        self.setup, self.alarm, self._set_at = setup, None, len(self.history)
        self._sure_of(state)
        return event

    def _record_at(self) -> str:
        """The last recorded move, numbered as players count them ("16. Qxg6+", "16... Bb7"
        in a two-player game), or "the start"."""
        n = len(self.history)
        if not n:
            return "the start"
        if len(self.game.seats(self.sure)) == 2:
            return f"{(n + 1) // 2}{'.' if n % 2 else '...'} {self.history[-1]}"
        return f"move {n}, {self.history[-1]}"

    # --- inputs --------------------------------------------------------------------
    def enter(self, text: str, source: str = "entry", seat: int | None = None) -> Event:
        """A move, roll or choice in the game's notation (from the page, CLI or die).
        `seat`: who sent it (a player's phone); None for the admin, the CLI and the die.
        It is taken on the history shown (or the best one it is legal on): the unsure
        plies before it are recorded first."""
        if self.game is None:
            return self._emit("illegal", input=text, reason="no game has been started", source=source)
        refusal = None
        for line in self._lines_shown_first():
            states = self._states(line.actions)
            for k in range(len(states) - 1, -1, -1):
                try:
                    action = self._legal(states[k], text, seat)
                except (NotationError, IllegalAction) as exc:
                    refusal = refusal or exc
                    continue
                self._record(line.actions[:k], line.seen[:k], "camera", at=None)
                return self._record([action], (), source)
        return self._emit("illegal", input=text, reason=str(refusal), source=source)

    def _legal(self, state, text: str, seat: int | None):
        action = self.game.parse(state, text)
        self.game.check(state, action)
        actor = self.game.actor(state, action)
        names = self.game.seats(state)
        if seat is not None and not 0 <= seat < len(names):
            raise IllegalAction(f"seat {seat} is not in this game (seats 0-{len(names) - 1})")
        if seat is not None and actor is not None and actor != seat:
            raise IllegalAction(f"it is {names[actor]}'s turn, not {names[seat]}'s")
        if seat is not None and actor is None:  # no one seat's (an agreement): not from a phone
            raise IllegalAction(self.game.not_one_seats(state, action))
        return action

    def _lines_shown_first(self) -> list[Line]:
        shown = self.shown or self.beliefs.best
        return [shown] + [line for line in self.beliefs.lines if line.actions != shown.actions]

    def _states(self, actions) -> list:
        """The sure state and the state after each of `actions`."""
        states = [self.sure]
        for action in actions:
            states.append(self.game.apply(states[-1], action))
        return states

    def _words(self, actions) -> list[str]:
        words, state = [], self.sure
        for action in actions:
            words.append(self.game.notation(state, action))
            state = self.game.apply(state, action)
        return words

    def _record(self, actions, seen, source: str, at: float | None = None, late=(), **extra) -> Event | None:
        """Record `actions` from the sure position (journal first), re-root the histories
        past them; `seen`: when the hand left for each (camera plies, decided at `at`);
        `late`: which a search found long after they were made (said once, in words,
        as a `recovered` event after them)."""
        event = None
        if not actions:
            return None
        start = len(self.history)
        for i, action in enumerate(actions):
            before = self.sure
            notation = self.game.notation(before, action)
            seat = self.game.actor(before, action)
            self.sure = self.game.apply(before, action)
            self.history.append(notation)
            if source == "camera":
                self._past = (self._past + [Recorded(before, action, seen[i] if i < len(seen) else at)])[-BACK:]
            else:
                self._past, self._stills = [], []
            self._replays, self._challenges = {}, {}
            delay = {} if at is None or i >= len(seen) else {"decided_after_s": round(at - seen[i], 3)}
            event = self._emit("move", notation=notation, text=self.game.describe(before, action),
                               seat=seat, ply=len(self.history), source=source, **delay, **extra)
        best = self.beliefs.best
        if tuple(best.actions[:len(actions)]) == tuple(actions):
            self.beliefs.advance(len(actions), self.sure)
        else:
            self.beliefs.reset(self.sure)
        # the sure position stood from when the hand left before the view that showed its last ply
        motions = self._since[1]
        self._since = [seen[len(actions) - 1] if len(seen) >= len(actions) else at,
                       None if motions is None else max(0, motions - len(actions))]
        # plies a search found late: said once, when the last of them is recorded
        self._recovered += [self.history[start + i] for i, found in enumerate(late) if found]
        if self._recovered and not any(self.beliefs.best.late):
            recovered, self._recovered = self._recovered, []
            event = self._emit("recovered", notation=recovered, source="camera",
                               text=f"the camera lost the board for a while: {', '.join(recovered)} "
                                    f"recovered late from the board as it stands")
        self.shown = self._rebased(self.shown, actions)
        self.alarm, self._suspect, self.awaiting_start = None, None, False
        self.epoch += 1
        self._said = []
        if source != "camera":
            self._clear_doubt(f"{source} entered {', '.join(self.history[-len(actions):])}")
        outcome = self.game.outcome(self.sure)
        if outcome is not None:
            self._emit("game_over", **outcome.to_json())
            self.journal.end_game(self.game_id, outcome.reason)
        return event

    def _rebased(self, line: Line | None, done) -> Line | None:
        """The history shown, after `done` were recorded: what is left of it, if it began
        with them."""
        if line is None or tuple(line.actions[:len(done)]) != tuple(done):
            return None
        return line.after(len(done)) if len(line.actions) > len(done) else None

    def undo(self) -> Event | None:
        """Take back the last recorded action (the page's undo, admin only)."""
        if len(self.history) <= self._set_at:
            return None  # nothing since the position last set
        was_over = self.game.outcome(self.sure) is not None
        last = self.history[-1]
        event = self._emit("undo", notation=last)
        self._rebuild(self.journal.events(self.game_id))
        if was_over:
            self.journal.reopen_game(self.game_id)
        return event

    def await_start(self) -> None:
        """The camera path: views that fit no legal history are waited out, not alarmed,
        until the board has once read as the position (or a legal move from it)."""
        self.awaiting_start = True

    def settle(self) -> Event | None:
        """No more views will come (the end of a recording): the history shown stands."""
        if self.shown is None or self.game is None:
            return None
        shown = self.shown
        self.beliefs.lines = [shown]
        return self._record(shown.actions, shown.seen, "camera", late=shown.late, settled="the recording ended")

    # --- views ---------------------------------------------------------------------
    def observe(self, view: BoardView) -> Event | None:
        """Weigh a stable view; returns the last event it caused."""
        if self.game is None or self.game.outcome(self.sure) is not None:
            return None  # after the end the players clear the board: nothing to judge
        board = self.game.board(self.sure)
        ev = Evidence(view, board, self.min_confidence, self.game.sure_labels_name_changes, self.game.wrong_cells)
        motions = view.extra.get("motions")
        self._keep_still(Still(view.moved_at, bool(ev.moving), ev, motions))
        if self._since[0] is None:
            self._since[0] = view.moved_at
        self._since[1] = None if motions is None or self._since[1] is None else self._since[1] + motions
        lines = self.beliefs.weigh(ev, view.moved_at, motions)
        if self.awaiting_start and ev.fits_the_start(board) and not (lines[0].actions and ev.explains(lines[0].board)):
            self.awaiting_start = False  # the start, as well as a cold read can tell: follow
            self.known = (self.epoch, view.t, frozenset())
            return None
        # (a legal move from the start that explains the view better: the players did not
        # wait for the camera; it is followed as any move)
        if not ev.explains(lines[0].board):
            if self.awaiting_start:
                return None
            return self._unexplained(view, ev, lines)
        if (ev.poorly_explained(lines[0].board) or self._challenged is not None) and not self.awaiting_start:
            # explained, but for cells another label fits better, or just after a view
            # that only a take-back explained: a history further off may fit them all
            # (more plies than one view shows, a ply taken wrongly as sure)
            events = self._look_further(view, ev, lines)
            if events is not None:
                return self._last_of(events)
        self.awaiting_start = False
        self.beliefs.adopt(lines, view.moved_at, partial=bool(ev.moving), motions=motions)
        return self._follow(view, ev)

    def _follow(self, view: BoardView, ev: Evidence) -> Event | None:
        """The beliefs explain the view: record what is settled, show the rest. A cell
        the view shows otherwise than the best history, newly since the hand left (a
        hand resting on the board, a piece held over a square), makes the view too
        unclear to settle anything; one that read so before the last motion began is a
        misread look the referee lives with (a nudged piece in a shadow)."""
        events = []
        if self._suspect is not None:
            self._suspect = None
        best = self.beliefs.best
        self._odd = {c: self._odd.get(c, view.t) for c in ev.unexplained(best.board)}
        clear = all(since < view.moved_at for since in self._odd.values())
        moving = set(view.extra.get("moving") or ())
        # a view a hand still moves over is no look of its own: only a decisive lead
        # settles a ply then (its still arm may lie over more)
        settled = self.beliefs.sure(ev, view.moved_at, still=not moving) if clear else 0
        hidden = moving | set(view.extra.get("covered") or ())
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
        if self.alarm is not None:
            self.alarm = None
            if not events:
                events.append(self._emit("restored", text="the board shows a legal position again"))
        if clear and not self.beliefs.best.actions and len(self.beliefs.close()) == 1:
            # sure of the board: the camera learns from it, but for the cells it reads otherwise
            self.known = (self.epoch, view.t, frozenset(self._odd))
        if not moving:  # what a hand still over the board leaves unsure is not shown yet
            if clear:
                events += self._show()
                events += self._weigh_doubt(view)
            else:  # a cell seen otherwise than any history has it: said once if it stays so
                self._wait_unsure(view, self._oddity(ev))
        events = [e for e in events if e is not None]
        return events[-1] if events else None

    def _oddity(self, ev: Evidence) -> dict:
        """What a board explained but for a cell or so (fewer than make a wrong board: a
        piece knocked over, a nudged piece misread) shows, in the game's words."""
        board = self.game.board(self.state)
        seen = {**board, **{c: ev.label(c) for c in self._odd}}
        reason = self.game.explain(self.state, seen).reason
        return {"text": f"something on the board no move explains: {reason}", "candidates": [],
                "cells": [self.game.cell_name(c) for c in sorted(self._odd, key=repr)]}

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

    def _corrected(self, old_actions, new_actions, retracted: list[str], state=None) -> Event:
        """Say once that the history shown was revised: from the first ply that differs."""
        text = self._corrected_text(self.sure if state is None else state, old_actions, new_actions)
        return self._emit("corrected", text=f"corrected: {text}", retracted=retracted, source="camera")

    def _corrected_text(self, state, old_actions, new_actions) -> str:
        """"<what the board shows now>, not <what was believed>", from the first ply
        that differs."""
        k = 0
        while k < min(len(old_actions), len(new_actions)) and old_actions[k] == new_actions[k]:
            k += 1
        for action in old_actions[:k]:
            state = self.game.apply(state, action)
        was = self._describe(state, old_actions[k:])
        now = self._describe(state, new_actions[k:])
        return f"{now or 'nothing moved'}, not {was or 'nothing'}"

    def _describe(self, state, actions) -> str:
        words = []
        for action in actions:
            words.append(self.game.describe(state, action))
            state = self.game.apply(state, action)
        return ", then ".join(words)

    def _unexplained(self, view: BoardView, ev: Evidence, lines: list[Line]) -> Event | None:
        """No history kept explains the view: look deeper, then further back; else it is
        a wrong board (an alarm once it stays) or an unclear one (waited on)."""
        events = self._look_further(view, ev, lines, lost=True)
        if events is not None:
            return self._last_of(events)
        best = lines[0]
        if view.extra.get("moving") or view.extra.get("covered") or ev.unclear(best.board):
            self._suspect = None
            self._wait_unsure(view, self._doubt_of(lines, unexplained=True))
            return None
        if self._challenged is not None:  # a ply recorded may have been misread: later views will tell
            self._suspect = None
            self._wait_unsure(view, self._misread_doubt(self._challenged.k, self._challenged.lines))
            return None
        # the wrong board, put in words against the position the page shows
        state = self.state
        board = self.game.board(state)
        differ = ev.unexplained(board) | {c for c in board if ev.weight(c) >= SEEN and ev.misfit(c, board) > MISFIT}
        seen = {**board, **{c: ev.label(c) for c in differ}}
        problem = self.game.explain(state, seen)
        names = self.game.seats(state)
        seat = self.game.prompt(state).seat
        alarm = {"reason": problem.reason, "cells": [self.game.cell_name(c) for c in problem.cells],
                 "who": names[seat] if seat is not None and 0 <= seat < len(names) else None,
                 "fix": self.game.fix(state, seen),
                 "seen": {self.game.cell_name(c): ev.label(c) for c in sorted(differ, key=repr)}}
        if self.alarm and (self.alarm["reason"] == alarm["reason"] or self.alarm.get("went_on")):
            return None  # the same wrong board, or play going on from it, already reported
        if self.alarm and self.alarm["seen"].items() < alarm["seen"].items():
            # the wrong change reported still stands and more changed since: play went on from it
            alarm = {**alarm, "went_on": True, "reason": f"play went on after an illegal move; the record "
                                                         f"stands at {self._record_at()}"}
        return self._confirm(view, "illegal", alarm)

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
        (`_lost`). None when there is none (and `_challenged` says whether a take-back
        explains the view, not yet surely)."""
        self._challenged = None
        if view.extra.get("moving") or view.extra.get("covered") or ev.unclear(lines[0].board):
            return None  # looking further needs a clear, uncovered view
        challenge = self._challenger(view, ev)
        if challenge is not None and challenge.steady and challenge.lead >= OVERWHELM:
            return self._take_back(challenge.k, challenge.lines, view, ev)
        depth = self.game.max_actions_per_view + DEEPER
        before = self.beliefs.before(view.moved_at)
        motions = self.beliefs.motions(view.moved_at, view.extra.get("motions"))
        if motions is not None:  # no deeper than the hands counted allow, and a quick reply
            depth = min(depth, motions + 1)
        found = self.beliefs.search(ev, [(line, 0, motions) for line in before[:3]], depth, view.moved_at, late=lost)
        if found and found[0].score >= lines[0].score + FURTHER and not lost:
            self.beliefs.adopt(found, view.moved_at, motions=view.extra.get("motions"))
            self.awaiting_start = False
            return [self._follow(view, ev)]
        taking_back = challenge is not None and challenge.lead + RETRACT * challenge.k > 0
        if lost and not found and not taking_back:
            found = self._lost(view, ev)
        if lost and found and not taking_back:  # found afresh: the lines kept explain nothing
            self.beliefs.reset(self.sure)
            # a re-read of this still board weighs them again (without this reading)
            self.beliefs.lines = [replace(line, score=line.score - ev.score(line.board)) for line in found]
            self.beliefs.adopt(found, view.moved_at, motions=view.extra.get("motions"))
            self.awaiting_start = False
            return [self._follow(view, ev)]
        if challenge is not None and challenge.lead + RETRACT * challenge.k > 0:
            self._challenged = challenge  # the views since favour it: a doubt, not an alarm, for now
        return None

    def _lost(self, view: BoardView, ev: Evidence) -> list[Line]:
        """The camera lost the board (a bumped camera, a stretch of video lost, a hand
        over it while play went on): the histories on from the lines kept (else from the
        sure position), as long as
        the hand motions counted since allow (one more: a quick reply), or else as the
        time since allows (a ply a PLY_S at most), up to LOST_DEPTH plies, that explain
        the view, each guided by the cells the view shows changed against its board.
        Tried once per still view (a re-read of it finds nothing new)."""
        if self._lost_at == view.moved_at:
            return []
        self._lost_at = view.moved_at
        t, motions = self._since
        plies = motions + 1 if motions is not None else 1 + int(max(0.0, view.moved_at - (t or view.moved_at)) / PLY_S)
        most = min(LOST_DEPTH, plies)
        if most <= self.game.max_actions_per_view + DEEPER and motions is None:
            return []  # no deeper than the lines were searched already
        # on from the lines kept first (what the views before showed stands), else from the sure position
        for lines in (self.beliefs.before(view.moved_at)[:3], [Line((), self.sure, self.game.board(self.sure))]):
            starts = [(line, len(line.actions), None if motions is None else max(0, motions - len(line.actions)))
                      for line in lines if len(line.actions) < most]
            found = self.beliefs.search(ev, starts, most, view.moved_at, most=most, late=True)
            if found:
                return found
        return []

    def _keep_still(self, still: Still) -> None:
        """Keep a still view for weighing again (a re-read of the same still board, or
        one a hand still moved over, replaces the last), back to about the oldest
        camera ply that may be taken back."""
        last = self._stills[-1] if self._stills else None
        if last is not None and (last.moved_at == still.moved_at or last.partial):
            self._stills[-1] = still
        else:
            self._stills.append(still)
        del self._stills[:-MAX_STILLS]

    def _challenger(self, view: BoardView, ev: Evidence) -> Challenge | None:
        """The take-back of the last k recorded camera plies (k up to BACK) whose
        histories explain every still view since those plies were first seen best
        against the histories that keep them, when its best history explains the view;
        else None. It is steady when each of the last two stills favoured it by MISFIT
        at least, or the lead was overwhelming after the still before and this one does
        not object, or this still has said so for STEADY_S: a board says a ply was
        misread when it keeps saying so, not in one glimpse (a hand, a shadow)."""
        depth = self.game.max_actions_per_view + DEEPER
        best = None
        for k in range(1, len(self._past) + 1):
            before, _, seen = self._past[-k]
            recorded = tuple(p.action for p in self._past[-k:])
            stills = [still for still in self._stills if seen is None or still.moved_at >= seen]
            # a view a hand still moved over stands until the next: the referee may have
            # recorded from it (its arm read as a piece), but it is not a look of its own
            stills = [still for i, still in enumerate(stills) if not still.partial or i == len(stills) - 1]
            if not stills:
                continue
            sides = [(True, lambda line: tuple(line.actions[:k]) == recorded[:len(line.actions)]),
                     (False, lambda line: tuple(line.actions[:k]) != recorded)]
            leads, other = [], None
            for n in range(max(0, len(stills) - 2), len(stills) + 1):
                kept, other = (self._replayed(k, stills[:n], before, depth, keeps, keep, n < len(stills))
                               for keeps, keep in sides)
                if kept is None or other is None:
                    break
                leads.append(other.best.score - kept.best.score)
            else:
                if not ev.explains(other.best.board):
                    continue
                lead = leads[-1] - RETRACT * k
                # the board kept saying so: two stills in a row each favoured the take-back,
                # or it was overwhelming after the last still and this one does not object
                steady = len(leads) == 3 and (min(leads[2] - leads[1], leads[1] - leads[0]) >= MISFIT or (
                    leads[1] - RETRACT * k >= OVERWHELM and leads[2] - leads[1] >= -MISFIT))
                if lead >= OVERWHELM:  # since when this still says so
                    since = self._challenges.setdefault((k, stills[-1].moved_at), view.t)
                    steady = steady or view.t - since >= STEADY_S
                if best is None or lead > best.lead:
                    best = Challenge(k, other.lines, lead, steady)
        return best

    def _replayed(self, k: int, stills: list[Still], root, depth: int, keeps: bool, keep, stable: bool):
        """The beliefs from `root` over `stills`, the lines `keep` allows (`keeps`: those
        with the recorded plies), or None; weighed one still at a time on the beliefs
        over the stills before it, which are kept (a `stable` list: not the last still,
        which the watcher may read again)."""
        if not stills:
            return Beliefs(self.game, root)
        key = (k, keeps, tuple(still.moved_at for still in stills))
        if stable and key in self._replays:
            return self._replays[key]
        start = self._replayed(k, stills[:-1], root, depth, keeps, keep, True)
        out = None if start is None else replay(self.game, root, stills[-1:], keep, depth, start)
        if stable:
            self._replays[key] = out
        return out

    def _misread_doubt(self, k: int, lines: list[Line]) -> dict:
        """The doubt while a take-back explains the board, not yet surely: in words."""
        recorded = [p.action for p in self._past[-k:]]
        text = self._corrected_text(self._past[-k].before, recorded, list(lines[0].actions))
        return {"text": f"I may have misread a move: {text}? The next moves will tell",
                "candidates": [], "cells": []}

    def _take_back(self, k: int, found: list[Line], view: BoardView, ev: Evidence) -> list:
        """The last `k` recorded camera plies were wrong: take them back (a `corrected`
        event, which the journal keeps beside them) and follow the histories `found`."""
        before = self._past[-k].before
        recorded = [p.action for p in self._past[-k:]]
        retracted = self.history[-k:]
        was_over = self.game.outcome(self.sure) is not None
        best = max(found, key=lambda line: line.score)
        event = self._corrected(recorded, list(best.actions), retracted=retracted, state=before)
        if was_over:
            self.journal.reopen_game(self.game_id)
        del self.history[-k:]
        past, stills = self._past[:-k], self._stills
        self._sure_of(before)
        self._past, self._stills = past, stills
        self.beliefs.adopt(found, view.moved_at)
        return [event, self._follow(view, ev)]

    # --- the camera's clock ------------------------------------------------------------
    def _confirm(self, view: BoardView, kind: str, data: dict) -> Event | None:
        """An alarm from `view`. Without a camera clock (`confirm_s` 0) it is raised at
        once; on the live camera path it waits for `tick` to see the board stay so for
        `confirm_s`."""
        if self.confirm_s <= 0:
            return self._raise(data)
        if self._suspect is None or self._suspect[1:] != (kind, data):
            self._suspect = (view, kind, data)
        return None

    @property
    def confirming(self) -> bool:
        """Is a wrong or undecided board waiting for the camera's clock (`tick`)?"""
        return self._suspect is not None or self._unsure is not None

    def tick(self, t: float, moved_at: float) -> Event | None:
        """The live camera's clock: a wrong board that has stayed still for `confirm_s`
        (after its view and after the last motion, `moved_at`) becomes an alarm; a board
        still undecided after DOUBT_S becomes a doubt, said once."""
        # still since the view, and since any motion after it: a hand that passes and
        # leaves the board as it was postpones the alarm (a hand that changes the board
        # brings a new view, which decides afresh); it never cancels it, for the watcher
        # hands on no new view of a board that reads the same
        if self._suspect is not None:
            view, kind, data = self._suspect
            if t - max(view.t, moved_at) >= self.confirm_s:
                self._suspect = None
                return self._raise(data)
        if self._unsure is not None:
            view, data = self._unsure
            if t - max(view.t, moved_at) >= DOUBT_S:
                self._unsure = None
                if data is not None and data["text"] not in self._said:
                    self._said.append(data["text"])
                    self.doubt = data
                    return self._emit("doubt", **data)
        return None

    def _wait_unsure(self, view: BoardView, data: dict | None) -> None:
        """An undecided board, said after DOUBT_S unless decided: the clock runs from the
        first view that left it so (the watcher reads a still board again and again)."""
        if self._unsure is None or self._unsure[1] != data:
            self._unsure = (view, data)

    def _raise(self, data: dict) -> Event:
        self.alarm = data
        # what the views before settled stays: no take-back invents a legal path to a
        # board the players reached illegally
        self._past = []
        self._clear_doubt(None)
        return self._emit("illegal", source="camera", **data)

    # --- doubt ---------------------------------------------------------------------------
    def _weigh_doubt(self, view: BoardView) -> list[Event]:
        """After a view the beliefs explain: undecided (unsure plies shown, or close
        histories that differ), the doubt waits for the clock; decided, a standing doubt
        is settled."""
        close = self.beliefs.close()
        if self.shown is None and len(close) == 1:
            self._unsure = None
            if self.doubt is not None and not self.doubt["candidates"]:
                return [self._clear_doubt("the board shows the position again")]
            return [self._clear_doubt("settled: " + (", ".join(self.history[-3:]) or "nothing moved"))]
        self._wait_unsure(view, self._doubt_of(close))
        return []

    def _doubt_of(self, lines: list[Line], unexplained: bool = False) -> dict | None:
        """The doubt between the likeliest histories: each offered by its first ply's
        notation (a tap enters that; the camera then sees the rest)."""
        candidates, cells = [], []
        board = self.game.board(self.sure)
        for line in lines[:DOUBT_CANDIDATES + 1]:
            if not line.actions:
                continue
            notation = self.game.notation(self.sure, line.actions[0])
            if all(c["notation"] != notation for c in candidates):
                candidates.append({"notation": notation, "text": self._describe(self.sure, line.actions)})
            cells += [self.game.cell_name(c) for c in line.board if line.board[c] != board.get(c)]
        if not candidates:
            return None
        texts = [c["text"] for c in candidates[:DOUBT_CANDIDATES]]
        ask = ", ".join(texts[:-1]) + (" or " if len(texts) > 1 else "") + texts[-1]
        text = (f"the board changed in a way I can't read: is it {ask}?" if unexplained
                else f"I can't tell yet what moved: is it {ask}? The next moves will tell")
        return {"text": text, "candidates": candidates[:DOUBT_CANDIDATES], "cells": list(dict.fromkeys(cells))}

    def _clear_doubt(self, why: str | None) -> Event | None:
        if self.doubt is None:
            return None
        self.doubt = None
        return self._emit("doubt_cleared", text=why or "an alarm replaced the doubt")

    # --- what the page and `referee play` show -------------------------------------
    def snapshot(self, viewer: int | None = None) -> dict:
        if self.game is None:
            return {"game": None}
        outcome = self.game.outcome(self.sure)
        unsure = self.unsure
        return {
            "game": self.game.name,
            "title": self.game.title,
            "variant": self.game.variant,
            "game_id": self.game_id,
            "seats": self.game.seats(self.state),
            "prompt": self._prompt_json(),
            "moves": list(self.history) + unsure,
            "unsure": len(unsure),
            "alarm": self.alarm,
            "doubt": self.doubt,
            "outcome": outcome.to_json() if outcome else None,
            "rulings": [{"key": r.key, "value": r.value, "text": r.text} for r in self.game.rulings()],
            "state": self.game.snapshot(self.state, viewer),
        }

    def _prompt_json(self) -> dict:
        """The prompt, with each option in words for the page's buttons ("moves Mario to
        the ground (w1-07)" rather than "move w1-07"); an option the game cannot put
        into words keeps its notation."""
        prompt = self.game.prompt(self.state)
        words = {}
        for option in prompt.options:
            try:
                words[option] = self.game.describe(self.state, self.game.parse(self.state, option))
            except (NotationError, IllegalAction):
                words[option] = option
        return {**prompt.to_json(), "words": words}

