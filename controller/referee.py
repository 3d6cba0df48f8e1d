"""The referee: the only place where observations meet rules.

Inputs are stable board views from vision, moves typed on the page or the CLI, die
rolls and commands (new game, undo). Each becomes events: written to the journal, then
published on the bus. The referee owns the game state and one thread feeds it.

Following the camera (controller/following.py, docs/following.md): the referee keeps
the few likeliest histories since the position it is sure of (controller/beliefs.py),
records the plies the views settle, shows the rest as unsure, takes back camera plies
the views since say were misread (controller/takeback.py), and says a doubt or an alarm
once when the board stays so. What it is doing about the board is one value, `life`
(controller/lifecycle.py: the states and their transitions).

Any input that is not a view (a move typed on the page, a die roll, a choice) is taken
on the history the page shows, or failing that the best one it is legal on: the plies
before it are recorded first, for the players acted on them.

Positions, one name each:
- `sure`: the position the journal records, which the referee is sure of; every history
  the beliefs keep starts from it.
- `state`: the position the page shows: `sure`, then the unsure plies of `shown`.
- `shown`: the history the page shows after `sure` (a `Line`; its actions are unsure).
- `before`: the position a ply was played from (a recorded camera ply's, a take-back's).
A board (`game.board(position)`) is what the camera sees of a position; `hand_left`
(a `Line`'s `seen`) is when the hand left before the view that first showed a ply.
"""
from __future__ import annotations

import copy
import random
import secrets
from contextlib import contextmanager
from dataclasses import replace
from typing import Iterable

from vision.view import SURE

from .beliefs import Beliefs, Line
from .clock import Clock
from .events import Bus, Event, Kind
from .following import Following, Known, Since
from .games import load_game
from .games.base import Game, IllegalAction, NotationError
from .i18n import translator
from .journal import Journal, RecordLost
from .lifecycle import Lifecycle, Say
from .players import checked, named_data
from .record import Record, changes, fold
from .snapshot import snapshot
from .takeback import TakeBack
from .wording import Wording

MIN_CONFIDENCE = SURE
CONFIRM_S = 2.0  # the live camera's clear views must stay unexplained this long before an alarm
REFUSED_KEPT = 3  # lines a phone typed that were refused, journalled per seat and position (the rest are told only)


def _saved(value):
    """A field of the referee as it stands, for `kept` to put back: its own copy where the
    referee changes it in place (the record's plies, the clock's readings, the take-back's)."""
    if isinstance(value, Record):
        return replace(value, plies=list(value.plies))
    if isinstance(value, Clock):
        return value.saved()
    if isinstance(value, TakeBack):
        return value.copy()
    return copy.copy(value) if isinstance(value, (list, dict, set, Beliefs)) else value


class Referee(Following):
    def __init__(self, journal: Journal, bus: Bus | None = None, min_confidence: float = MIN_CONFIDENCE,
                 lang: str = "en"):
        self.journal = journal
        self.lang = lang  # the table's language: the words of every event it records (docs/languages.md)
        self._ = translator(lang)
        self.bus = bus or Bus()
        self.min_confidence = min_confidence
        self.game: Game | None = None
        self.game_id: int | None = None
        self.sure = None  # the position the journal records
        self.record = Record()  # the plies that stand (controller/record.py), from each event written
        self.beliefs: Beliefs | None = None  # the histories since `sure`
        self.shown: Line | None = None  # the history the page shows (its actions are unsure)
        self.setup: dict = {}
        self.players: list[str] = []  # the players' names by seat ("" for none; controller/players.py)
        self.life = Lifecycle()  # what the referee is doing about the board (controller/lifecycle.py)
        self.confirm_s = 0.0  # how long a wrong board must stay before an alarm (camera: CONFIRM_S)
        self.known: Known | None = None  # a view of the sure position, for the camera to learn from
        self.epoch = 0  # counts changes of the sure position (the camera learns from each)
        self.takeback = TakeBack()  # the camera plies recorded lately and the stills since
        self._odd: dict = {}  # cell -> since when the view shows it otherwise than the best history
        self._since = Since(None)  # the sure position stood from then, and the hand motions since
        self._partial = False  # the last view was read while a hand still moved (its burst counted)
        self._lost_at: float | None = None  # the still view a search from the sure position was tried on
        self._recovered: list[str] = []  # plies found late recorded so far, said once the last is
        self._found = None  # the last stretch found late, which a later view may look at again (following.Found)
        self.notes: list[str] = []  # what went wrong while resuming, for the page
        self.clock = Clock()  # the chess clock, pressed by the moves journalled (controller/clock.py)
        self._told: list[Event] | None = None  # events written in the open transaction, told at its commit
        self.record_lost: str | None = None  # why the record cannot be kept now, until a write succeeds
        self.position: int | None = None  # the number of the last event that changed the position shown
        self._refused: dict = {}  # seat -> (position, refused lines of that seat journalled there)

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
        return self.wording.notations(self.sure, self.shown.actions) if self.shown is not None else []

    @property
    def wording(self) -> Wording:
        return Wording(self.game, self._)

    @property
    def alarm(self) -> dict | None:
        """The standing illegal-board report, until put right."""
        return self.life.alarm

    @alarm.setter
    def alarm(self, value: dict | None) -> None:
        self.life = replace(self.life, alarm=value)

    @property
    def doubt(self) -> dict | None:
        """The standing "I can't tell yet" (or the board to put back), until settled."""
        return self.life.doubt

    @doubt.setter
    def doubt(self, value: dict | None) -> None:
        self.life = replace(self.life, doubt=value)

    @property
    def confirming(self) -> bool:
        """Is a wrong or undecided board waiting for the camera's clock (`tick`)?"""
        return self.life.confirming

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

    def _go(self, step: tuple[Lifecycle, list[Say]]) -> Event | None:
        """The lifecycle's next value (controller/lifecycle.py), and the events it calls
        for journalled in order; the last of them. An alarm raised forgets the camera
        plies a take-back might reach: no take-back invents a legal path to a board the
        players reached illegally."""
        self.life, says = step
        event = None
        for say in says:
            if say.kind == Kind.ILLEGAL:
                self.takeback.forget()
            event = self._emit(say.kind, **say.data, **({"text": self._(say.words)} if say.words else {}))
        return event

    def _refuse(self, text: str, refusal: Exception | str, source: str, seat: int | None) -> Event:
        """An input refused. A line a phone typed is journalled REFUSED_KEPT times per
        seat and position at most; later ones are told (the phone's answer, the buzzer)
        but not written: a stranger with a player link cannot grow the record at the
        pace the page allows (2 a second, all evening), only by play."""
        reason = self.wording.refusal(self.state, refusal) if isinstance(refusal, Exception) else {"reason": refusal}
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
        self.game, self.setup, self.players = game, setup, players
        self._sure_of(state)
        self.game_id, self.position = event.game_id, event.seq
        self.record = fold([event])
        self.clock.begin(game, [], state)
        event = replace(event, data={**event.data, "setup": game.public_setup(setup)})
        self._tell(event)
        return event

    def _sure_of(self, state, alarm_too: bool = True) -> None:
        """Sure of `state` from now on, with nothing unsure after it (a new game, a record
        rebuilt or set; a take-back, which leaves a standing alarm, `alarm_too` False)."""
        self.sure = state
        self.beliefs = Beliefs(self.game, state)
        self.shown, self.takeback, self._odd = None, TakeBack(), {}
        self._since, self._lost_at, self._found = Since(None), None, None
        self.life = self.life.anew(alarm_too)
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
        self.record = record
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
                                f"(the record before it stands at {self.wording.record_at(self.sure, self.history)})")
        if was_over:
            self.journal.reopen_game(self.game_id)
        self.setup = setup  # the record's base: the plies before it stand
        self._sure_of(state)
        return event

    # --- inputs --------------------------------------------------------------------
    def enter(self, text: str, source: str = "entry", seat: int | None = None) -> Event:
        """A move, roll or choice in the game's notation (from the page, CLI or die).
        `seat`: who sent it (a player's phone); None for the admin, the CLI and the die.
        It is taken on the history shown (or the best one it is legal on): the unsure
        plies before it are recorded first."""
        if self.game is None:
            return self._refuse(text, self._("no game has been started"), source, seat)
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
        """The sure position and the position after each of `actions`."""
        states = [self.sure]
        for action in actions:
            states.append(self.game.apply(states[-1], action))
        return states

    def _record(self, actions, hand_left, source: str, at: float | None = None, late=(), **extra) -> Event | None:
        """Record `actions` from the sure position (journal first), re-root the histories
        past them; `hand_left`: when the hand left for each (camera plies, decided at
        `at`); `late`: which a search found long after they were made (said once, in
        words, as a `recovered` event after them)."""
        event = None
        if not actions:
            return None
        start = len(self.history)
        for i, action in enumerate(actions):
            before = self.sure
            notation = self.game.notation(before, action)
            seat = self.game.actor(before, action)
            self.sure = self.game.apply(before, action)
            hand = hand_left[i] if i < len(hand_left) else at  # None for a typed move: now
            self.takeback.recorded(before, action, hand, camera=source == "camera")
            delay = {} if at is None or i >= len(hand_left) else {"decided_after_s": round(at - hand_left[i], 3)}
            event = self._emit("move", at=hand, notation=notation, text=self.game.describe(before, action),
                               seat=seat, ply=len(self.record.plies) + 1, source=source, **delay, **extra)
        best = self.beliefs.best
        if tuple(best.actions[:len(actions)]) == tuple(actions):
            self.beliefs.advance(len(actions), self.sure)
        else:
            self.beliefs.reset(self.sure)
        # the sure position stood from when the hand left before the view that showed its last ply
        self._since = (self._since.after(hand_left[len(actions) - 1]) if len(hand_left) >= len(actions)
                       else self._since.spent(len(actions), at))
        # plies a search found late: said once, when the last of them is recorded
        self._recovered += [self.history[start + i] for i, found in enumerate(late) if found]
        if self._found is not None and any(late):  # the stretch reaches the last ply found late
            last = start + max(i for i, found in enumerate(late) if found) + 1
            self._found = self._found._replace(late=last - self._found.at)
        if self._recovered and not any(self.beliefs.best.late):
            recovered, self._recovered = self._recovered, []
            event = self._emit("recovered", notation=recovered, source="camera",
                               text=f"the camera lost the board for a while: {', '.join(recovered)} "
                                    f"recovered late from the board as it stands")
        self.shown = self._rebased(self.shown, actions)
        self.epoch += 1
        typed = None if source == "camera" else self._("{source} entered {moves}", source=source,
                                                       moves=', '.join(self.history[-len(actions):]))
        self._go(self.life.recorded(typed))
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
        on_table = self.life.put_back.board if self.life.put_back else self.game.board(self.sure)
        before = self._replayed_moves(self.history[self.record.base:-1]) if camera else None
        board = self.game.board(before) if before is not None else on_table
        fix = self.game.fix(before, on_table) if board != on_table else None
        event = self._emit("undo", notation=last, **({"put_back": fix} if fix else {}))
        self._rebuild(self.journal.events(self.game_id))
        if was_over:
            self.journal.reopen_game(self.game_id)
        if fix:
            self.life = self.life.ask_put_back(on_table, f"{last} was taken back: {fix}",
                                               [self.game.cell_name(c) for c in board if on_table.get(c) != board[c]])
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
        self.life = self.life.await_start()

    def settle(self) -> Event | None:
        """No more views will come (the end of a recording): the history shown stands."""
        if self.shown is None or self.game is None:
            return None
        shown = self.shown
        self.beliefs.lines = [shown]
        return self._record(shown.actions, shown.seen, "camera", late=shown.late, settled="the recording ended")

    def snapshot(self, viewer: int | None = None) -> dict:
        """The game as `viewer` (a seat, or None: anyone) may see it (controller/snapshot.py)."""
        return snapshot(self, viewer)
