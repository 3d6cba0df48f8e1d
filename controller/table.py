"""The Table: the one path from camera frames to decisions.

It owns the Referee, the camera's Watcher (built here and nowhere else) and the start of
a game from the layout on the table (controller/table_start.py), and it does everything
that joins what the camera sees to what the rules know:

- the look of the board is learned from every position the referee knows: a game's
  start, a game resumed from the journal, a game started from a position, and the
  position after each accepted move (`learn_position`), so a resumed game is refereed
  from the camera at once, whatever is on the board;
- it follows the board sheet in play (a Super Mario Bros. link space to the next World);
- it starts a game whose layout lies on the table (Super Mario Labyrinth);
- it sets the corners clicked on the page.

`referee serve` drives it from the service's threads (`see` on the camera thread,
`command` on the referee thread); `referee replay` from a loop over a recording's frames
(`feed` = `see` + the View command), so a replay decides what `serve` would have. A
command is a typed value (controller/events.py) dispatched on its type.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from .config import CameraSettings, GameSettings
from .events import (Command, Corners, Enrol, Enter, Event, Kind, NewGame, RollDie, SetPosition, Settle, Tick, Undo,
                     View)
from .games import load_game
from .referee import CONFIRM_S, Referee
from .registry import entry
from .table_start import TableStart


@dataclass(frozen=True)
class Result:
    """What a command did: `ok`, else `error` in words; the `event` it caused, if any;
    `waiting`: what a game that starts from the table waits for; `rolled`: the roll a
    roll button drew (controller/devices/dice.py), for the dice to show."""

    ok: bool = True
    error: str | None = None
    event: Event | None = None
    waiting: str | None = None
    rolled: object | None = None

    @classmethod
    def refused(cls, error: str) -> "Result":
        return cls(ok=False, error=error)

    def to_json(self) -> dict:
        out = {"ok": self.ok, "error": self.error, "event": self.event.to_json() if self.event else None}
        if self.waiting is not None:
            out["waiting"] = self.waiting
        return out


def make_watcher(board: str, camera: CameraSettings, *, corners=None, options: dict | None = None):
    """The camera's Watcher for `board` (and its sheet `options`), as its registry entry
    builds it. Raises ValueError for bad corners or a board without a reader."""
    return entry(board).watcher(colours=camera.colours, corners=corners, still_s=camera.still_s, options=options)


class Table:
    """A referee and the camera in front of the table (`camera` None: no camera)."""

    def __init__(self, referee: Referee, game: GameSettings, camera: CameraSettings | None = None,
                 catalogue: str | Path = "treasures.npz", corners=None, rng=None):
        self.referee = referee
        self.game_settings = game
        self.camera = camera
        self.corners = corners if corners is not None else (camera.corners if camera else None)
        # a Labyrinth game waits here while its maze is read from the table (and its
        # treasure pictures are named: the page's enrolment view reads `public()`)
        self.enrolment = TableStart(catalogue, rng)
        self.watcher = None
        self._options: dict | None = None  # the board sheet the watcher reads
        self._told: str | None = None  # the table start's last notice on the bus
        self._caught: list[Event] | None = None
        self._learned: int | None = None  # the referee's epoch (its sure position) last learned from
        referee.bus.subscribe(self._catch)
        if camera is not None:
            referee.confirm_s = CONFIRM_S  # a live camera: wrong or unclear boards must stay a moment
        if camera is not None and referee.game is not None:
            self._options = referee.game.reader_options(referee.state)
            self.watcher = self._watch(referee.game.name, self._options)
            self.learn_position()

    def _catch(self, event: Event) -> None:
        if self._caught is not None:
            self._caught.append(event)

    # --- frames ------------------------------------------------------------------------
    def see(self, t: float, frame) -> View | Tick | None:
        """One camera frame through the watcher (the camera's thread): the referee's
        command it calls for, run on the referee's thread: a View when the board has just
        settled differently, a Tick while the referee waits out a wrong or unclear board
        (its clock is the frames'), else None."""
        view = self.watcher.feed(t, frame)
        if view is not None:
            return View(view)
        if self.referee.confirming:
            return Tick(t, self.watcher.gate.moved_at)
        return None

    def feed(self, t: float, frame) -> list[Event]:
        """One frame, seen and decided at once (`referee replay`); the events it caused."""
        step = self.see(t, frame)
        return self.run(step)[1] if step is not None else []

    def run(self, command: Command) -> tuple[Result, list[Event]]:
        """`command`, with the events it published."""
        self._caught = []
        try:
            result = self.command(command)
        finally:
            caught, self._caught = self._caught, None
        return result, caught

    # --- commands (the referee's thread) ----------------------------------------------
    def command(self, command: Command) -> Result:
        handler = {View: self._view, Tick: self._tick, Enter: self._move, RollDie: self._roll, NewGame: self._new_game,
                   Enrol: self._enrol, Undo: self._undo, SetPosition: self._set_position, Corners: self._corners,
                   Settle: self._settle}.get(type(command))
        if handler is None:
            return Result.refused(f"unknown command {command!r}")
        result = handler(command)
        self._follow_board()
        return result

    def _view(self, command: View) -> Result:
        view = command.view
        if self.enrolment.active:
            return self._from_table(self._table_view(view))
        event = self.referee.observe(view)
        known = self.referee.known
        if known is not None and self.watcher is not None and (
                known[0] != self._learned or (self.watcher.learning and known[1] == view.t)):
            # a view showed a position the referee had not yet been sure of (the start, the
            # position after recorded moves, a correction), or one it is sure of where the
            # camera still lacks a look (a hand covered part of the board last time): learn
            # from that very picture
            self._learned = known[0]
            self.learn_position(at=known[1], skip=known[2])
        return self._said(event)

    def _tick(self, command: Tick) -> Result:
        """The camera's clock: a wrong or unclear board that stayed still becomes an alarm
        or a doubt (controller/referee.py)."""
        return self._said(self.referee.tick(command.t, command.moved_at))

    def _settle(self, command: Settle) -> Result:
        """No more frames will come (the end of a recording): the history shown stands."""
        return self._said(self.referee.settle())

    def _move(self, command: Enter) -> Result:
        r = self.referee
        before = r.game.board(r.sure) if r.game is not None else None
        event = r.enter(str(command.text), source=command.source, seat=command.seat)
        if r.game is not None and r.game.board(r.sure) != before:
            self.learn_position()  # a typed move the players then make on the table too
        return self._said(event)

    def _roll(self, command: RollDie) -> Result:
        """A press of a roll button: draw the roll the game waits for and enter it as the
        game's input (the Result's `rolled`, for the dice to show)."""
        from .devices.dice import roll

        prompt = self.referee.game.prompt(self.referee.state)
        if prompt.kind != "roll":
            self.referee.bus.publish(Event(Kind.NOTICE, {"text": "no roll is due now"}))
            return Result()
        drawn = roll(prompt.die)
        return replace(self._move(Enter(drawn.notation, source="die")), rolled=drawn)

    def _new_game(self, command: NewGame) -> Result:
        """A new game; with `setup`, dealt as given (a recorded game replayed), else drawn
        here, or read from the table for a game laid out at random by the players."""
        # the configured rulings hold for the configured game; the variant stays unless
        # another is asked for (the new-game button asks for none)
        r = self.referee
        game, variant, setup = command.game, command.variant, command.setup
        name = game or r.game.name
        settings = self.game_settings.rulings if name == self.game_settings.name else None
        variant = variant or (r.game.variant if r.game is not None and name == r.game.name else None)
        if self.camera is not None and entry(name).starts_from_table and (setup is None or setup.get("from_table")):
            # read from the table; a recorded setup (a replay) gives only the deal
            return self._start_from_table(load_game(name, variant, settings), deal=setup)
        self.enrolment.cancel()
        event = r.new_game(name, variant, settings, setup=setup)
        self._options = r.game.reader_options(r.state)
        if self.camera is not None:
            old, self.watcher = self.watcher, self._watch(name, self._options, self.watcher)
            r.await_start()  # overlays, hands, a half-set board before the start are waited out
            if self.watcher is not old:  # it knows nothing of this board: the next still view is the start
                self.learn_position()
            else:
                self.watcher.new_game()
            # else it reads this board already, and the referee says when the camera sees
            # the start (`known`): the watcher learns from that view, and players who move
            # at once are not taken for the start
        return self._said(event)

    def _enrol(self, command: Enrol) -> Result:
        try:
            return self._from_table(self.enrolment.enrol(command.names))
        except ValueError as exc:  # names that do not fit what waits (checked by the page too)
            return Result.refused(str(exc))

    def _undo(self, command: Undo) -> Result:
        r = self.referee
        before = r.game.board(r.sure)
        event = r.undo()
        if event is None:
            return Result.refused("nothing to undo")
        if r.game.board(r.sure) != before:
            self.learn_position()
        return self._said(event)

    def _set_position(self, command: SetPosition) -> Result:
        """The admin accepts the board as it stands (after an illegal move the players
        played on from): refereeing goes on from the position given, which the camera
        learns from the next still view."""
        r = self.referee
        if r.game is None:
            return Result.refused("no game has been started")
        try:
            event = r.set_position(command.setup)
        except (ValueError, TypeError, KeyError) as exc:  # a position the game cannot start from: say why
            return Result.refused(f"set position: {exc}")
        self.learn_position()
        return self._said(event)

    def _corners(self, command: Corners) -> Result:
        if self.watcher is None:
            return Result.refused("no camera in this service")
        from vision.locate import CornersError

        try:
            self.watcher.set_corners(command.points)
        except CornersError as exc:  # points that make no board: say why, keep the old ones
            return Result.refused(str(exc))
        return Result()

    @staticmethod
    def _said(event: Event | None) -> Result:
        ok = event is None or event.kind != Kind.ILLEGAL
        return Result(ok=ok, error=None if ok else event.data.get("reason"), event=event)

    # --- learning ----------------------------------------------------------------------
    def learn_position(self, at: float | None = None, skip=()) -> None:
        """The board holds the position the referee knows: the readers learn their looks
        from it (from the view read at time `at`, else from the next still view), but for
        the cells in `skip` (read otherwise: a misread look, a piece knocked over)."""
        r = self.referee
        if self.watcher is None or r.game is None or self.enrolment.active:
            return
        self.watcher.learn(r.game.board(r.sure), at=at, skip=skip)

    # --- the watcher and the board sheet ------------------------------------------------
    def _watch(self, board: str, options: dict | None, current=None):
        """A watcher for `board`'s sheet `options`, or `current` when it reads that already."""
        if current is not None and current.board == board and current.reader_options == (options or None):
            return current
        corners = self.corners if board == self.game_settings.name else None
        return make_watcher(board, self.camera, corners=corners, options=options)

    def _follow_board(self) -> None:
        """A game that moves to another board sheet (a Super Mario Bros. link space to
        the next World) gets a watcher for that sheet, which learns it as it stands."""
        r = self.referee
        if self.watcher is None or self.enrolment.active or r.game is None:
            return
        options = r.game.reader_options(r.state)
        if options != self._options:
            self._options = options
            old, self.watcher = self.watcher, self._watch(r.game.name, options, self.watcher)
            self.watcher.reader.adopt(old.reader)
            # the players are changing the table: only what no move now due can change
            # stands as the referee knows it when the new sheet is first seen still
            board = r.game.board(r.state)
            due = {c for a in r.game.observable_actions(r.state)
                   for c, v in r.game.board(r.game.apply(r.state, a)).items() if board.get(c) != v}
            self.watcher.learn({c: v for c, v in board.items() if c not in due})

    # --- a game that starts from the layout on the table (controller/table_start.py) -----
    def _start_from_table(self, game, deal: dict | None = None) -> Result:
        """The open game goes on until the maze on the table is read (views go to the
        table start meanwhile); the reader first learns from the printed tiles. With
        `deal` (a recorded setup), the maze read is dealt as recorded."""
        try:
            expected = self.enrolment.begin(game, deal)
        except ValueError as exc:  # a damaged catalogue file: say which
            return Result.refused(str(exc))
        self.watcher = self._watch(game.name, None, self.watcher)
        self.watcher.learn(expected)
        return self._from_table(None)

    def _table_view(self, view) -> tuple | None:
        w = self.watcher
        plane = w.last_plane
        if view.source != self.enrolment.game.name or plane is None:
            return None
        return self.enrolment.take(plane, w.reader, w.last_frame, w.H, learn=w.learn)

    def _from_table(self, started: tuple | None) -> Result:
        """Start the game once the table gave (game, setup); else say where it stands."""
        if started is None:
            if self.enrolment.message != self._told:
                self._told = self.enrolment.message
                self.referee.bus.publish(Event(Kind.NOTICE, {"text": self.enrolment.message}))
            return Result(waiting=self.enrolment.message)
        game, setup = started
        event = self.referee.new_game(game.name, game.variant, game.settings, setup=setup)
        self._options = self.referee.game.reader_options(self.referee.state)
        self.learn_position()  # now from the whole layout
        self._told = None
        return Result(event=event)

