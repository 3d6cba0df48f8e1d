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
| no history kept explains a clear, uncovered view (the camera lost the board) | searches on from the lines kept, else from the sure position, as deep as the hand motions (or the time) since allow (`_found_again`); the plies found are said once when recorded (`recovered`) |
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

import copy
import random
import secrets
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Iterable, NamedTuple

from vision.view import SURE, BoardView

from . import recovery
from .beliefs import Beliefs, Line, Still, replay
from .clock import Clock
from .evidence import MISFIT, SEEN, Evidence
from .events import Bus, Event, Kind
from .games import load_game
from .i18n import translator
from .games.base import Game, IllegalAction, NotationError
from .games.words import capital
from .journal import Journal, RecordLost
from .players import checked, labels, named_data
from .record import Ply, Record, changes, fold

MIN_CONFIDENCE = SURE
DOUBT_CANDIDATES = 3
CONFIRM_S = 0.5  # the live camera's boards must stay unexplained (clear, uncovered) this long before an alarm
STILL_S = 0.5  # ... and the wrong board still this long: a hand passing postpones the alarm
DOUBT_S = 3.0  # an undecided board must stand still this long before the referee says so
SWITCH = 1.0  # the history shown gives way to another only when that one leads by this much
BACK = 3  # recorded camera plies a clear view may take back
RETRACT = 3.0  # the prior against taking a recorded ply back (log-likelihood, per ply)
FURTHER = 4.0  # a history found further than one view's actions must explain the view this much better
OVERWHELM = 6.0  # a recorded ply is taken back only for histories that explain the views since this much better
MAX_STILLS = 24  # still views kept for weighing again
STEADY_S = 1.0  # a still board that says a recorded ply was misread for this long is believed
DEEPER = 2  # a view no history explains is searched this many actions deeper
REFUSED_KEPT = 3  # lines a phone typed that were refused, journalled per seat and position (the rest are told only)
PLY_S = 1.0  # a ply takes a hand at least this long: the most plies since the sure position, unless counted
LOST_DEPTH = 10  # the deepest search from the sure position when the camera lost the board


class Since(NamedTuple):
    """When the hand left before the sure position stood (None: not yet seen), and the
    hand motions the watcher counted since (None: not counted)."""

    at: float | None
    motions: int | None


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


def _saved(value):
    """A field of the referee as it stands, for `kept` to put back: its own copy where the
    referee changes it in place (the record's plies, the clock's readings)."""
    if isinstance(value, Record):
        return replace(value, plies=list(value.plies))
    if isinstance(value, Clock):
        return value.saved()
    return copy.copy(value) if isinstance(value, (list, dict, set, Beliefs)) else value


class Referee:
    def __init__(self, journal: Journal, bus: Bus | None = None, min_confidence: float = MIN_CONFIDENCE,
                 lang: str = "en"):
        self.journal = journal
        self.lang = lang  # the table's language: the words of every event it records (docs/languages.md)
        self._ = translator(lang)
        self.bus = bus or Bus()
        self.min_confidence = min_confidence
        self.game: Game | None = None
        self.game_id: int | None = None
        self.sure = None  # the position the referee is sure of: the journal's
        self.record = Record()  # the plies that stand (controller/record.py), from each event written
        self.beliefs: Beliefs | None = None  # the histories since `sure`
        self.shown: Line | None = None  # the history the page shows (its actions are unsure)
        self.setup: dict = {}
        self.players: list[str] = []  # the players' names by seat ("" for none; controller/players.py)
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
        self._wrong: tuple | None = None  # (since when no history explains the clear views, the first wrong board's data)
        self._unsure: tuple | None = None  # (view, doubt data) of an undecided board, until said
        self._said: list = []  # each doubt said since the sure position last changed
        self._odd: dict = {}  # cell -> since when the view shows it otherwise than the best history
        self._since = Since(None, 0)  # the sure position stood from then, and the hand motions since
        self._lost_at: float | None = None  # the still view a search from the sure position was tried on
        self._recovered: list[str] = []  # plies found late recorded so far, said once the last is
        self.notes: list[str] = []  # what went wrong while resuming, for the page
        self.clock = Clock()  # the chess clock, pressed by the moves journalled (controller/clock.py)
        self._told: list[Event] | None = None  # events written in the open transaction, told at its commit
        self.record_lost: str | None = None  # why the record cannot be kept now, until a write succeeds
        self.position: int | None = None  # the number of the last event that changed the position shown
        self._refused: dict = {}  # seat -> (position, refused lines of that seat journalled there)
        self.put_back: dict | None = None  # after an undo, the board still on the table, until put back

    @property
    def state(self):
        """The position the page shows: the sure one, then the unsure plies of the history shown."""
        return self.shown.state if self.shown is not None else self.sure

    @property
    def history(self) -> list[str]:
        """The notation of each recorded action."""
        return self.record.notations

    @property
    def unsure(self) -> list[str]:
        """The unsure plies shown after the recorded ones, in notation."""
        return self._words(self.shown.actions) if self.shown is not None else []

    # --- events --------------------------------------------------------------------
    def _emit(self, kind: str, at: float | None = None, **data) -> Event:
        """Journal, then publish, an event; `at`: when the hand left for a move (the
        clock's time; None: now); its words name the players (controller/players.py)."""
        data = self.clock.stamp(self, kind, data, at)
        if self.players:
            data = named_data(data, self.game.seats(self.sure), self.players, self._)
        event = self.journal.append(Event(kind, data, self.game_id))
        self.record.take(event)
        if changes(event.kind):
            self.position = event.seq
        self._tell(event)
        return event

    def _refuse(self, text: str, refusal: Exception | str, source: str, seat: int | None) -> Event:
        """An input refused. A line a phone typed is journalled REFUSED_KEPT times per
        seat and position at most; later ones are told (the phone's answer, the buzzer)
        but not written: a stranger with a player link cannot grow the record at the
        pace the page allows (2 a second, all evening), only by play."""
        reason = self._refusal(refusal) if isinstance(refusal, Exception) else {"reason": refusal}
        data = {"input": text, "source": source, **reason}
        if seat is None:
            return self._emit("illegal", **data)
        at, kept = self._refused.get(seat, (None, 0))
        kept = kept if at == self.position else 0
        if kept >= REFUSED_KEPT:
            event = Event(Kind.ILLEGAL, {**data, "journalled": False}, self.game_id)
            self._tell(event)
            return event
        self._refused[seat] = (self.position, kept + 1)
        return self._emit("illegal", **data)

    def _tell(self, event: Event) -> None:
        """Publish a written event: at once, or at the commit of the transaction open."""
        if self._told is not None:
            self._told.append(event)
        else:
            self.bus.publish(event)

    @contextmanager
    def kept(self):
        """The journal first: what is decided inside is written in one transaction and
        told when it commits. If any of it cannot be written (RecordLost), or anything
        inside fails, nothing is written, nothing is told and the referee's memory is
        as before; RecordLost goes on to the caller, which refuses the input in words.
        The page and the buzzer hear (a `record` event) when the record cannot be kept,
        and when it is kept again."""
        if self._told is not None:  # inside one already
            yield
            return
        saved = {k: _saved(v) for k, v in vars(self).items() if k not in ("journal", "bus")}
        self._told, commits = [], self.journal.commits
        try:
            with self.journal.transaction():
                yield
        except BaseException as exc:
            vars(self).update(saved)  # (and _told is None again)
            self._say_notices()
            if isinstance(exc, RecordLost):
                self._record_lost(exc)
            raise
        told, self._told = self._told, None
        self._say_notices()
        if self.record_lost is not None and self.journal.commits > commits:
            self.record_lost = None
            self.bus.publish(Event(Kind.RECORD, {"kept": True, "text": self._("the record is kept again")}))
        for event in told:
            self.bus.publish(event)

    def check_record(self) -> None:
        """Between inputs: is the journal's file still there? (A deleted one is written
        again at once and said; one that cannot be is said, once, as a write would.)"""
        try:
            self.journal.check()
        except RecordLost as exc:
            self._record_lost(exc)
        finally:
            self._say_notices()

    def _record_lost(self, exc: RecordLost) -> None:
        """The record cannot be kept: said once (the page, the buzzer) until it is again."""
        if exc.said(self._) != self.record_lost:
            self.record_lost = exc.said(self._)
            self.bus.publish(Event(Kind.RECORD, {"kept": False, "text": self.record_lost}))

    def _say_notices(self) -> None:
        """What happened to the journal's file (deleted, written again), to the page."""
        while self.journal.notices:
            kept, message, params = self.journal.notices.pop(0)
            self.bus.publish(Event(Kind.RECORD, {"kept": kept, "text": self._(message, **params)}))

    # --- games ---------------------------------------------------------------------
    def new_game(self, name: str, variant: str | None = None, settings: dict | None = None,
                 setup: dict | None = None, rng: random.Random | None = None, players=None) -> Event:
        """Start a game. Its random parts (shuffles, deals) are drawn now, from the
        operating system's random source unless `rng` is given, and journalled, with the
        players' names (`players`, one per seat, checked: ValueError in words)."""
        game = load_game(name, variant, settings, self.lang)
        if setup is None:
            setup = game.new_setup(rng or random.Random(secrets.randbits(64)))
        state = game.start(setup)
        players = checked(players, game.seats(state), self._)
        names = {"players": players} if players else {}
        with self.journal.transaction():  # written first: a write that fails changes nothing
            if self.game_id is not None and self.game.outcome(self.sure) is None:
                self.journal.end_game(self.game_id, "abandoned")
            event = self.journal.start_game(name, game.variant, Event(
                Kind.GAME_STARTED, {"game": name, "variant": game.variant, "settings": game.settings,
                                    "setup": setup, **names}))
        self.game, self.setup, self.alarm, self.players = game, setup, None, players
        self._sure_of(state)
        self.game_id, self.position = event.game_id, event.seq
        self.record = fold([event])
        self.clock.begin(game, [], state)
        event = replace(event, data={**event.data, "setup": game.public_setup(setup)})
        self._tell(event)
        return event

    def _sure_of(self, state) -> None:
        """Sure of `state` from now on, with nothing unsure after it (a new game, a record
        rebuilt, a take-back)."""
        self.sure = state
        self.beliefs = Beliefs(self.game, state)
        self.shown, self._past, self._said, self._odd = None, [], [], {}
        self._since, self._lost_at = Since(None, 0), None
        self._stills, self._replays, self._challenges = [], {}, {}
        self.doubt, self._suspect, self._unsure, self._wrong = None, None, None, None
        self.put_back = None
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
        events = list(events)
        record = fold(events)
        self.position = max((e.seq for e in events if changes(e.kind)), default=None)
        if record.game is None:
            raise ValueError("the record has no game_started event")
        self.game = load_game(record.game, record.variant, record.settings, self.lang)
        self.setup, self.players = record.setup, record.players
        self.record, self.alarm = record, None
        state = self._replayed_moves(record.notations[record.base:])
        self._sure_of(state)
        self.clock.begin(self.game, events, state)

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
        self.setup, self.alarm = setup, None  # the record's base: the plies before it stand
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
            return self._refuse(text, "no game has been started", source, seat)
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
        return self._refuse(text, refusal, source, seat)

    def _refusal(self, refusal: Exception) -> dict:
        """A refusal in the game's words: text that is not the game's notation is answered
        with what the game waits for ("'xyz' is not a Labyrinth move. Red: push the spare
        tile in at an arrow"), its grammar kept as `usage` for the command line."""
        usage = getattr(refusal, "usage", "")
        if not usage:
            return {"reason": str(refusal)}
        waits = self.game.prompt(self.state).text
        return {"reason": f"{refusal}. {capital(waits)}" if waits else str(refusal), "usage": usage}

    def _legal(self, state, text: str, seat: int | None):
        action = self.game.parse(state, text if seat is None else self.game.said_by(state, text, seat))
        if seat is not None and self.game.is_roll(action):  # a player does not choose their own roll
            raise IllegalAction(self._("{text!r} is a roll: rolls come from the die (its button or the die module) "
                                       "or, with ordinary dice, from the referee's controls (admin), not a player's "
                                       "phone", text=text))
        # whose it is, before the rules: a seat's phone must not learn from the rules'
        # answer what another seat holds ("Luigi holds no Goomba card")
        actor = self.game.actor(state, action)
        names = self.game.seats(state)
        if seat is not None and not 0 <= seat < len(names):
            raise IllegalAction(self._("seat {seat} is not in this game (seats 0-{last})", seat=seat,
                                       last=len(names) - 1))
        if seat is not None and actor is not None and actor != seat:
            raise IllegalAction(self._("it is {who}'s turn, not {other}'s", who=names[actor], other=names[seat]))
        if seat is not None and actor is None:  # no one seat's (an agreement): not from a phone
            raise IllegalAction(self.game.not_one_seats(state, action))
        self.game.check(state, action)
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
            hand = seen[i] if i < len(seen) else at  # None for a typed move: now
            if source == "camera":
                self._past = (self._past + [Recorded(before, action, hand)])[-BACK:]
            else:
                self._past, self._stills = [], []
            self._replays, self._challenges = {}, {}
            delay = {} if at is None or i >= len(seen) else {"decided_after_s": round(at - seen[i], 3)}
            event = self._emit("move", at=hand, notation=notation, text=self.game.describe(before, action),
                               seat=seat, ply=len(self.record.plies) + 1, source=source, **delay, **extra)
        best = self.beliefs.best
        if tuple(best.actions[:len(actions)]) == tuple(actions):
            self.beliefs.advance(len(actions), self.sure)
        else:
            self.beliefs.reset(self.sure)
        # the sure position stood from when the hand left before the view that showed its last ply
        motions = self._since.motions
        self._since = Since(seen[len(actions) - 1] if len(seen) >= len(actions) else at,
                            None if motions is None else max(0, motions - len(actions)))
        # plies a search found late: said once, when the last of them is recorded
        self._recovered += [self.history[start + i] for i, found in enumerate(late) if found]
        if self._recovered and not any(self.beliefs.best.late):
            recovered, self._recovered = self._recovered, []
            event = self._emit("recovered", notation=recovered, source="camera",
                               text=f"the camera lost the board for a while: {', '.join(recovered)} "
                                    f"recovered late from the board as it stands")
        self.shown = self._rebased(self.shown, actions)
        self.alarm, self._suspect, self._wrong, self.awaiting_start = None, None, None, False
        self.epoch += 1
        self._said = []
        if source != "camera":
            self._clear_doubt(self._("{source} entered {moves}", source=source,
                                     moves=', '.join(self.history[-len(actions):])))
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

    def undo(self, camera: bool = False) -> Event | None:
        """Take back the last recorded action (the page's undo, admin only); nothing from
        before the position the admin last set. With a `camera` following the table, a
        move the players made there is still on it: the referee asks for the board to be
        put back, in the game's words ("take Luigi's chip out of column 6"; the undo
        event's `put_back`, standing as the doubt), and follows the camera again once it
        shows the position before that move (views until then record nothing and teach
        the camera nothing)."""
        if len(self.history) <= self.record.base:
            return None  # nothing since the position last set
        was_over = self.game.outcome(self.sure) is not None
        last = self.history[-1]
        on_table = self.put_back["board"] if self.put_back else self.game.board(self.sure)
        before = self._replayed_moves(self.history[self.record.base:-1]) if camera else None
        board = self.game.board(before) if before is not None else on_table
        fix = self.game.fix(before, on_table) if board != on_table else None
        event = self._emit("undo", notation=last, **({"put_back": fix} if fix else {}))
        self._rebuild(self.journal.events(self.game_id))
        if was_over:
            self.journal.reopen_game(self.game_id)
        if fix:
            text = f"{last} was taken back: {fix}"
            self.put_back = {"board": on_table, "text": text}
            self.doubt = {"text": text, "candidates": [],
                          "cells": [self.game.cell_name(c) for c in board if on_table.get(c) != board[c]]}
        return event

    def _replayed_moves(self, moves: list[str]):
        """The position after `moves` (notation) from the game's start."""
        state = self.game.start(self.setup)
        for text in moves:
            state = self.game.play(state, self.game.parse(state, text))
        return state

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
        if self.put_back is not None:
            return self._put_back(view, ev, board)
        motions = view.extra.get("motions")
        self._keep_still(Still(view.moved_at, bool(ev.moving), ev, motions))
        since = self._since
        self._since = Since(view.moved_at if since.at is None else since.at,
                            None if motions is None or since.motions is None else since.motions + motions)
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

    def _put_back(self, view: BoardView, ev: Evidence, board: dict) -> Event | None:
        """After an undo, a view is only asked whether the board was put back: once it
        shows the position clearly, the request is over (the camera learns from that
        view, `known`) and the camera is followed again."""
        if view.extra.get("moving") or ev.unclear(board) or not ev.explains(board) or ev.unexplained(board):
            return None
        self.put_back, self.doubt = None, None
        self.beliefs = Beliefs(self.game, self.sure)
        self.known = (self.epoch, view.t, frozenset())
        return self._emit("doubt_cleared", text="the board is put back")

    def _follow(self, view: BoardView, ev: Evidence) -> Event | None:
        """The beliefs explain the view: record what is settled, show the rest. A cell
        the view shows otherwise than the best history, newly since the hand left (a
        hand resting on the board, a piece held over a square), makes the view too
        unclear to settle anything; one that read so before the last motion began is a
        misread look the referee lives with (a nudged piece in a shadow)."""
        events = []
        self._suspect, self._wrong = None, None
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
        return {"text": self._("something on the board no move explains: {reason}", reason=reason), "candidates": [],
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
        return self._emit("corrected", text=self._("corrected: {text}", text=text), retracted=retracted,
                          source="camera")

    def _corrected_text(self, state, old_actions, new_actions) -> str:
        """"<what the board shows now>, not <what was believed>", from the first ply
        that differs."""
        k = 0
        while k < min(len(old_actions), len(new_actions)) and old_actions[k] == new_actions[k]:
            k += 1
        state = self.game.seen_by(state, None)
        for action in old_actions[:k]:
            state = self.game.apply(state, action)
        was = self._describe(state, old_actions[k:])
        now = self._describe(state, new_actions[k:])
        return self._("{now}, not {was}", now=now or self._("nothing moved"), was=was or self._("nothing"))

    def _describe(self, state, actions) -> str:
        """Moves not made yet (a doubt's readings, a correction's), in words anyone may
        hear: from the state as anyone sees it (`seen_by`)."""
        state = self.game.seen_by(state, None)
        words = []
        for action in actions:
            words.append(self.game.describe(state, action))
            state = self.game.apply(state, action)
        return self._(", then ").join(words)

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
            found = self._found_again(view, ev)
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

    def _found_again(self, view: BoardView, ev: Evidence) -> list[Line]:
        """The camera lost the board (a bumped camera, a stretch of video lost, a hand
        over it while play went on): the legal histories on from the lines kept (else
        from the sure position) that explain the view, as long as the hand motions
        counted since allow (one more: a quick reply), or else the time the camera saw
        no still board allows (a ply a PLY_S at most), up to
        LOST_DEPTH plies (controller/recovery.py). Tried once per still view (a re-read
        of it finds nothing new)."""
        if self._lost_at == view.moved_at:
            return []
        self._lost_at = view.moved_at
        t, motions = self._since.at, self._since.motions
        # the time the camera saw no still board since the last one (or the sure position)
        seen = [still.moved_at for still in self._stills if still.moved_at < view.moved_at] + [t]
        blind = view.moved_at - max((s for s in seen if s is not None), default=view.moved_at)
        plies = 1 + int(max(0.0, blind) / PLY_S)
        most = min(LOST_DEPTH, motions + 1 if motions is not None else plies)
        if most <= self.game.max_actions_per_view + DEEPER and motions is None:
            return []  # no deeper than the lines were searched already
        # on from the lines kept first (what the views before showed stands), else from the sure position
        starts = [(line, None if motions is None else max(0, motions - len(line.actions)))
                  for line in self.beliefs.before(view.moved_at)[:3] if len(line.actions) < most]
        starts.append((Line((), self.sure, self.game.board(self.sure)), motions))
        # the walk where no motions are counted (with them it still finds histories of
        # unseen plies for a wrong board: not yet trusted), else the beam guided by the view
        found = [] if motions is not None else recovery.found_again(
            self.beliefs, ev, starts, most, view.moved_at, deeper_than=self.game.max_actions_per_view + DEEPER)[0]
        if found:
            return found
        # the walk's boards spent (a view with many unclear cells): the beam guided by the view
        for start, left in starts:
            found = self.beliefs.search(ev, [(start, len(start.actions), left)], most, view.moved_at, most=most,
                                        late=True)
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
        return {"text": self._("I may have misread a move: {text}? The next moves will tell", text=text),
                "candidates": [], "cells": []}

    def _take_back(self, k: int, found: list[Line], view: BoardView, ev: Evidence) -> list:
        """The last `k` recorded camera plies were wrong: take them back (a `corrected`
        event, which the journal keeps beside them) and follow the histories `found`."""
        before = self._past[-k].before
        recorded = [p.action for p in self._past[-k:]]
        retracted = self.history[-k:]
        was_over = self.game.outcome(self.sure) is not None
        best = max(found, key=lambda line: line.score)
        # the `corrected` event takes the retracted plies off the record (controller/record.py)
        event = self._corrected(recorded, list(best.actions), retracted=retracted, state=before)
        if was_over:
            self.journal.reopen_game(self.game_id)
        past, stills = self._past[:-k], self._stills
        self._sure_of(before)
        self._past, self._stills = past, stills
        self.beliefs.adopt(found, view.moved_at)
        return [event, self._follow(view, ev)]

    # --- the camera's clock ------------------------------------------------------------
    def _confirm(self, view: BoardView, kind: str, data: dict) -> Event | None:
        """An alarm from `view`. Without a camera clock (`confirm_s` 0) it is raised at
        once; on the live camera path it waits for `tick` to see the clear views stay
        unexplained for `confirm_s` (a lost board is searched for meanwhile, on each
        still view), whatever changed since the first of them: when play went on from
        that first wrong board, it is the one the alarm is about (the illegal move)."""
        if self.confirm_s <= 0:
            return self._raise(data)
        since, first = self._wrong if self._wrong is not None else (view.t, data)
        if self.alarm is None and first["seen"].items() <= data["seen"].items():
            data = first  # play went on from the first wrong board: what to fix is that one
        self._wrong = (since, first)
        if self._suspect is None or self._suspect[1:] != (kind, data):
            self._suspect = (view, kind, data)
        return None

    @property
    def confirming(self) -> bool:
        """Is a wrong or undecided board waiting for the camera's clock (`tick`)?"""
        return self._suspect is not None or self._unsure is not None

    def tick(self, t: float, moved_at: float) -> Event | None:
        """The live camera's clock: clear views no history explains for `confirm_s`,
        the last of them still for STILL_S (after its view and after the last motion,
        `moved_at`), become an alarm; a board still undecided after DOUBT_S becomes a
        doubt, said once."""
        # still since the view, and since any motion after it: a hand that passes and
        # leaves the board as it was postpones the alarm (a hand that changes the board
        # brings a new view, which decides afresh); it never cancels it, for the watcher
        # hands on no new view of a board that reads the same
        if self._suspect is not None:
            view, kind, data = self._suspect
            if t - max(view.t, moved_at) >= min(STILL_S, self.confirm_s) and t - self._wrong[0] >= self.confirm_s:
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
                return [self._clear_doubt(self._("the board shows the position again"))]
            return [self._clear_doubt(self._("settled: {moves}",
                                             moves=", ".join(self.history[-3:]) or self._("nothing moved")))]
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
        ask = ", ".join(texts[:-1]) + (" " + self._("or") + " " if len(texts) > 1 else "") + texts[-1]
        text = (self._("the board changed in a way I can't read: is it {ask}?", ask=ask) if unexplained
                else self._("I can't tell yet what moved: is it {ask}? The next moves will tell", ask=ask))
        return {"text": text, "candidates": candidates[:DOUBT_CANDIDATES], "cells": list(dict.fromkeys(cells))}

    def _clear_doubt(self, why: str | None) -> Event | None:
        if self.doubt is None:
            return None
        self.doubt = None
        return self._emit("doubt_cleared", text=why or "an alarm replaced the doubt")

    # --- what the page and `referee play` show -------------------------------------
    def snapshot(self, viewer: int | None = None) -> dict:
        """The game as `viewer` (a seat, or None: anyone) may see it: made from the
        game's `seen_by`, so no other seat's secret is in it, nor in its words."""
        if self.game is None:
            return {"game": None}
        outcome = self.game.outcome(self.sure)
        unsure = self.unsure
        seats = self.game.seats(self.state)
        seen = self.game.seen_by(self.state, viewer)

        def words(data):  # the players' names in the referee's words
            return named_data(data, seats, self.players, self._)

        prompt = self._prompt_json(seen)
        if self.players:
            prompt = {**words(prompt), "words": {k: words({"text": v})["text"] for k, v in prompt["words"].items()}}
        return {
            "game": self.game.name,
            "title": self.game.title,
            "variant": self.game.variant,
            "variant_title": self.game._(self.game.variant),  # the variant's name in the table's language
            "game_id": self.game_id,
            "position": self.position,  # a page answer names it: a stale one is refused (Enter.at)
            "seats": labels(seats, self.players, self._),  # "Léa (Mario's team)", or the seat's own words
            "players": list(self.players),
            "prompt": prompt,
            "moves": list(self.history) + unsure,
            "unsure": len(unsure),
            "record": self._record_json(labels(seats, self.players, self._)),
            "alarm": words(self.alarm),
            "doubt": words(self.doubt),
            "outcome": words(outcome.to_json()) if outcome else None,
            "rulings": [{"key": r.key, "value": r.value, "text": r.text} for r in self.game.rulings()],
            "clock": self.clock.snapshot(self._),  # None: a game without a clock
            "state": self.game.snapshot(seen, viewer),
        }

    def _record_json(self, seats: list) -> list[dict]:
        """The plies that stand, then the unsure ones shown after them: each with its
        notation, its words and its seat (the page never matches words to moves itself)."""
        out, state = self.record.to_json(seats), self.game.seen_by(self.sure, None)  # words anyone may hear
        for action in self.shown.actions if self.shown is not None else ():
            ply = Ply(self.game.notation(state, action), self.game.describe(state, action), self.game.actor(state, action))
            out.append(ply.to_json(seats, unsure=True))
            state = self.game.apply(state, action)
        return out

    def _prompt_json(self, seen) -> dict:
        """The prompt as seen (`seen_by`), with each option in words for the page's
        buttons ("moves Mario to the ground (w1-07)" rather than "move w1-07"); an option
        the game cannot put into words keeps its notation. Options are moves not made yet:
        their words never name a secret (Labyrinth's "end" named the target it would find)."""
        prompt = self.game.prompt(seen)
        words, actors = {}, {}
        for option in dict.fromkeys(prompt.options + prompt.claims + prompt.anytime):
            try:
                action = self.game.parse(seen, option)
                words[option] = self.game.describe(seen, action)
                actors[option] = self.game.actor(seen, action)
            except (NotationError, IllegalAction):
                words[option] = option
        # `actors`: whose each option is (a phone shows a player only their own)
        return {**prompt.to_json(), "words": words, "actors": actors}

