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

import itertools
import logging
import os
import pickle
import random
import time
from dataclasses import dataclass, replace
from pathlib import Path

from .config import CameraSettings, GameSettings
from .evidence import Evidence
from .events import (Command, Corners, Enrol, Enter, Event, Kind, NewGame, RollDie, SetPosition, Settle, Tick, Undo,
                     View)
from .games import load_game
from .i18n import said
from .journal import RecordLost
from .players import checked
from .referee import CONFIRM_S, Referee
from .registry import entry
from .table_start import TableStart

log = logging.getLogger("referee")


FRAME_GAP_S = 1.0  # the table's time runs on past the last frame this long at most


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


def seats_of(game) -> list[str]:
    """The seats of a game about to start (they do not depend on the deal)."""
    return game.seats(game.start(game.new_setup(random.Random(0))))


def make_watcher(board: str, camera: CameraSettings, *, corners=None, options: dict | None = None):
    """The camera's Watcher for `board` (and its sheet `options`), as its registry entry
    builds it. Raises ValueError for bad corners or a board without a reader."""
    return entry(board).watcher(colours=camera.colours, corners=corners, still_s=camera.still_s, options=options)


class Table:
    """A referee and the camera in front of the table (`camera` None: no camera)."""

    def __init__(self, referee: Referee, game: GameSettings, camera: CameraSettings | None = None,
                 catalogue: str | Path = "treasures.npz", corners=None, rng=None, looks: str | Path | None = None):
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
        self._players: tuple | None = None  # the names given with a game read from the table, until it starts
        self._caught: list[Event] | None = None
        self._learned: int | None = None  # the referee's epoch (its sure position) last learned from
        # are the looks the watcher learns next kept on disk? Not those of a position learned
        # again from a clear view: the learning after it keeps them, a write a position at
        # most. One learning only: any after it is kept again
        self._keep_next = True
        self._looks_on_trial = False  # the looks kept before a restart read the table until a view says otherwise
        self.looks = Path(looks) if looks is not None else None  # the camera's looks, kept beside the journal
        self._looks_fault: str | None = None  # the last failure to keep them, said once
        referee.bus.subscribe(self._catch)
        self._frame: tuple[float, float | None] = (0.0, time.monotonic())  # (frame time, when seen; None: replay)
        if camera is not None:
            referee.confirm_s = CONFIRM_S  # a live camera: wrong or unclear boards must stay a moment
            referee.clock.keep_time(self.now)  # the chess clock keeps the camera's time (its views' times)
        if camera is not None and referee.game is not None:
            self._options = referee.game.reader_options(referee.state)
            self.watcher = self._watch(referee.game.name, self._options)
            remembered = self._remembered()
            if remembered is not None:  # the looks it had learned of this game before a restart
                self.watcher.remember(*remembered)
            self._looks_on_trial = remembered is not None  # until the first view shows they fit
            if self._between_sheets():  # resumed while the players swap the board sheets
                self._looks_on_trial = False
                self._learn_what_stays()
            elif remembered is None:
                # nothing kept: learn from the next still view (with the looks kept, the
                # camera reads at once, and learns again from the first view the referee
                # is sure of: a piece moved meanwhile is not learned as where it was)
                self.learn_position()

    def _catch(self, event: Event) -> None:
        if self._caught is not None:
            self._caught.append(event)

    # --- frames ------------------------------------------------------------------------
    def see(self, t: float, frame) -> View | Tick | None:
        """One camera frame through the watcher (the camera's thread): the referee's
        command it calls for, run on the referee's thread: a View when the board has just
        settled differently, a Tick while the referee waits out a wrong or unclear board
        or the chess clock has a warning or a flag due (their clock is the frames'), else
        None."""
        lessons = self.watcher.lessons
        view = self.watcher.feed(t, frame)
        self._frame = (t, time.monotonic())
        if self.watcher.lessons != lessons:
            if self._keep_next:
                self._keep_looks()
            self._keep_next = True
        if view is not None:
            return View(view)
        due = self.referee.clock.due()
        if self.referee.confirming or (due is not None and t >= due):
            return Tick(t, self.watcher.gate.moved_at)
        return None

    def now(self) -> float:
        """The table's time, the camera's: the last frame's time, and the time since it
        was seen (none in a replay, which decides each frame as it is fed), up to
        FRAME_GAP_S: a camera lost stops the chess clock, as the referee cannot see the
        board (its time goes on from where it stopped, vision/camera.py KeptCamera)."""
        t, seen = self._frame
        return t if seen is None else t + min(time.monotonic() - seen, FRAME_GAP_S)

    def feed(self, t: float, frame) -> list[Event]:
        """One frame, seen and decided at once (`referee replay`); the events it caused."""
        step = self.see(t, frame)
        self._frame = (t, None)
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
        lost = self.referee.record_lost
        try:
            with self.referee.kept():  # the journal first: a write that fails changes nothing
                result = handler(command)
                self._follow_board()
        except RecordLost as exc:  # a full disk, a deleted journal: refused in words, play goes on
            # a line for each input a person gave; the camera's views and ticks (a wrong
            # board it cannot record the alarm of, every frame) only the first time
            said = exc.said(self.referee._)  # the table's language; the log's line stays English
            if not isinstance(command, (View, Tick)) or lost != said:
                log.warning("journal: %s; %s refused", exc, type(command).__name__)
            return Result.refused(said)
        return result

    def _view(self, command: View) -> Result:
        view = command.view
        if self.enrolment.active:
            return self._from_table(self._table_view(view))
        if self._looks_on_trial and not self._kept_looks_fit(view):
            return Result()  # read with looks that do not fit: the next views are read with those learned now
        event = self.referee.observe(view)
        if self.watcher is not None and self.referee.beliefs is not None:
            self.watcher.expect(self.referee.beliefs.ahead())
        known = self.referee.known
        if known is not None and self.watcher is not None and (known[0] != self._learned or (
                known[1] == view.t and (self.watcher.learning or self._reads_as_known(view)))):
            # a view showed a position the referee had not yet been sure of (the start, the
            # position after recorded moves, a correction), or one it is sure of where the
            # camera still lacks a look (a hand covered part of the board last time), or one
            # it is sure of that every cell reads as, no hand over the board: the first is
            # often the view the ply was made in, a hand still at rest there, and a hand
            # read as the pieces under it is learned as their look and darkens the light
            # every look is taken in (1...e6 with a fist over e6 left every square a twelfth
            # off, and 3. e3 unseen under a mild shadow): learn from that very picture
            again = known[0] == self._learned and not self.watcher.learning
            self._learned = known[0]
            self.learn_position(at=known[1], skip=known[2], kept=not again)
        return self._said(event)

    def _reads_as_known(self, view) -> bool:
        """Does every cell of `view` read surely as the referee's sure position has it, no
        hand over the board? Only such a view is learned from again: a cell that reads
        otherwise may be a ply the change measure missed (a pawn moved on a small, dim
        board), and learning it as the old position would hide that ply for good. (A game
        with cells no view reads surely, a square hidden behind a piece from a low camera,
        a Labyrinth's spare tile, is never learned from again: as before.)"""
        if view.moving or view.covered:
            return False
        r = self.referee
        read = view.labels(r.min_confidence)
        return all(read.get(c) == lab for c, lab in r.game.board(r.sure).items())

    def _tick(self, command: Tick) -> Result:
        """The camera's clock: a wrong or unclear board that stayed still becomes an alarm
        or a doubt (controller/referee.py); the chess clock says low time or enters a flag
        fall (controller/clock.py)."""
        said = self.referee.tick(command.t, command.moved_at)
        timed = self.referee.clock.tick(self.referee)  # a low-time warning, a flag fall
        return self._said(timed[-1] if timed else said)

    def _settle(self, command: Settle) -> Result:
        """No more frames will come (the end of a recording): the history shown stands."""
        return self._said(self.referee.settle())

    def _stale(self, at: int | None) -> Result | None:
        """A page answer given at a position that has changed since (the camera
        recorded a move meanwhile): refused in words, nothing entered."""
        r = self.referee
        if at is None or at == r.position:
            return None
        _ = r._  # said to the page in the table's language
        if r.history:
            return Result.refused(_("this answer was for an earlier position: the game has moved on ({move} was "
                                    "recorded since); nothing was entered: look at the board again",
                                    move=r.history[-1]))
        return Result.refused(_("this answer was for an earlier position: the game has moved on; nothing was "
                                "entered: look at the board again"))

    def _move(self, command: Enter) -> Result:
        r = self.referee
        stale = self._stale(command.at)
        if stale is not None:
            return stale
        before = r.game.board(r.sure) if r.game is not None else None
        event = r.enter(str(command.text), source=command.source, seat=command.seat)
        if r.game is not None and r.game.board(r.sure) != before:
            self._typed_on_board()
        return self._said(event)

    def _typed_on_board(self) -> None:
        """A typed move changed the board the referee knows. Where the camera's last view
        already shows it (a doubt's candidate tapped: the camera saw the move but could
        not tell which), the camera learns it from that very view, checked against the
        position first; never from the next still view, which may already show the
        players' next move (learned as the typed position, that move was never seen: a
        chess game resumed mid-move stalled so). Else (typed before it is made on the
        table, or a watcher still waiting to learn a position it never saw) from the next
        still view, as a known position is."""
        w, r = self.watcher, self.referee
        view = w.last_view if w is not None else None
        if view is not None and not w.waits_to_learn:
            board = r.game.board(r.sure)
            ev = Evidence(view, board, r.min_confidence, r.game.sure_labels_name_changes, r.game.wrong_cells)
            if ev.explains(board) and not ev.unexplained(board):
                self.learn_position(at=view.t)
                return
        self.learn_position()

    def _roll(self, command: RollDie) -> Result:
        """A press of a roll button: draw the roll the game waits for and enter it as the
        game's input (the Result's `rolled`, for the dice to show)."""
        from .devices.dice import roll

        prompt = self.referee.game.prompt(self.referee.state)
        if prompt.kind != "roll":  # a second press: the last announcement said again (controller/voice.py)
            self.referee.bus.publish(Event(Kind.NOTICE, {"text": self.referee._("no roll is due now")}))
            self.referee.bus.publish(Event(Kind.REPEAT, {"by": "button"}))
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
        # the clock asked for, else the one the same game had (the new-game button), else the configured one
        clock = command.clock if command.clock is not None else (
            r.game.settings.get("clock") if r.game is not None and r.game.name == name else None)
        if clock is not None:
            settings = {k: v for k, v in (settings or {}).items() if k != "clock"} | ({"clock": clock} if clock else {})
        variant = variant or (r.game.variant if r.game is not None and name == r.game.name else None)
        # the new-game button asks for none: the names stay for the same game
        players = command.players if command.players is not None else (r.players if game is None else None)
        try:  # refused now, not when the table has been read
            checked(players, seats_of(load_game(name, variant, settings, r.lang)), self.referee._)
        except ValueError as exc:  # in the table's language (a clock that is no time control too)
            return Result.refused(said(exc, self.referee._))
        self._players = players
        if self.camera is not None and entry(name).starts_from_table and (setup is None or setup.get("from_table")):
            # read from the table; a recorded setup (a replay) gives only the deal
            return self._start_from_table(load_game(name, variant, settings, r.lang), deal=setup)
        self.enrolment.cancel()
        try:
            event = r.new_game(name, variant, settings, setup=setup, players=players)
        except ValueError as exc:  # a setting the rules refuse (a deal the settings cannot make)
            return Result.refused(said(exc, self.referee._))
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
        """Take back the last move. Followed by the camera, the move may still stand on
        the table: the referee asks for it to be put back and learns from the view that
        shows it so (never from a view of the board before that, whose labels are wrong)."""
        stale = self._stale(command.at)
        if stale is not None:
            return stale
        event = self.referee.undo(camera=self.watcher is not None)
        if event is None:
            return Result.refused(self.referee._("nothing to undo"))
        return self._said(event)

    def _set_position(self, command: SetPosition) -> Result:
        """The admin accepts the board as it stands (after an illegal move the players
        played on from): refereeing goes on from the position given, which the camera
        learns from the next still view."""
        r = self.referee
        _ = r._  # said to the page in the table's language
        if r.game is None:
            return Result.refused(_("no game has been started"))
        try:
            event = r.set_position(command.setup)
        except (ValueError, TypeError, KeyError) as exc:  # a position the game cannot start from: say why
            return Result.refused(_("{text}: {note}", text=_("set position"), note=said(exc, _)))
        self.learn_position()
        return self._said(event)

    def _corners(self, command: Corners) -> Result:
        if self.watcher is None:
            return Result.refused(self.referee._("no camera in this service"))
        from vision.locate import CornersError

        try:
            self.watcher.set_corners(command.points)
        except CornersError as exc:  # points that make no board: say why, keep the old ones
            return Result.refused(said(exc, self.referee._))
        return Result()

    @staticmethod
    def _said(event: Event | None) -> Result:
        ok = event is None or event.kind != Kind.ILLEGAL
        return Result(ok=ok, error=None if ok else event.data.get("reason"), event=event)

    # --- learning ----------------------------------------------------------------------
    def learn_position(self, at: float | None = None, skip=(), kept: bool = True) -> None:
        """The board holds the position the referee knows: the readers learn their looks
        from it (from the view read at time `at`, else from the next still view), but for
        the cells in `skip` (read otherwise: a misread look, a piece knocked over); `kept`:
        the looks are then kept on disk for a restart (`_keep_looks`)."""
        r = self.referee
        if self.watcher is None or r.game is None or self.enrolment.active:
            return
        self._keep_next = kept
        self.watcher.learn(r.game.board(r.sure), at=at, skip=skip)

    # --- the looks, kept across a restart ------------------------------------------------
    def _keep_looks(self) -> None:
        """Keep what the camera's reader has learned of this table (the camera's thread,
        after a frame it learned from): a game resumed after a stop or a pulled plug
        reads the table with it, instead of learning the journal's position blindly from
        whatever the first view shows (a token that stood on a space all along, a piece
        moved while the service was down). Pickled: the reader's own objects, written and
        read only by the service, in its data folder as the journal is; a temporary file
        renamed, so a kill never leaves half of it."""
        r = self.referee
        if self.looks is None or r.game_id is None:
            return
        w = self.watcher
        quad = None if w.given or w.quad is None else w.quad.tolist()
        kept = {"game_id": r.game_id, "board": w.board, "reader": w.reader, "quad": quad}
        part = self.looks.with_name(self.looks.name + ".part")
        try:
            part.write_bytes(pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(part, self.looks)
            self._looks_fault = None
        except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
            fault = f"{self.looks}: the camera's looks cannot be kept ({type(exc).__name__}: {exc})"
            if fault != self._looks_fault:
                self._looks_fault = fault
                log.warning("%s; a restart will learn the table again from its first view", fault)

    def _remembered(self):
        """(reader, where its markers were) kept for the open game (`_keep_looks`), or
        None: none kept, kept for another game, or unreadable (said in the log)."""
        r = self.referee
        if self.looks is None or not self.looks.exists():
            return None
        try:
            kept = pickle.loads(self.looks.read_bytes())
            if kept["game_id"] != r.game_id or kept["board"] != r.game.name:
                return None
            return kept["reader"], kept.get("quad")
        except Exception as exc:  # a file from another version, or damaged: learn afresh
            log.warning("%s: the camera's kept looks cannot be read (%s: %s); learning the table "
                        "again from its first view", self.looks, type(exc).__name__, exc)
            return None

    def _kept_looks_fit(self, view) -> bool:
        """The first view of a game resumed with kept looks: do they still read this
        table? They do when the view shows the journal's position, or that position after
        one action the players may have made while the service was down. Else the camera
        was moved or the light changed meanwhile (a board read with such looks shows
        pieces on empty squares, surely): they are dropped and the table is learned again
        from this view as the journal has it, as a game resumed without kept looks is.
        Where they fit but leave a cell no hand is over unsure, this view teaches them the
        journal's position (blended in, as any known position)."""
        self._looks_on_trial = False
        r = self.referee
        board = r.game.board(r.sure)
        ev = Evidence(view, board, r.min_confidence, r.game.sure_labels_name_changes, r.game.wrong_cells)
        after = (r.game.board(r.game.apply(r.sure, a)) for a in r.game.observable_actions(r.sure))
        fit = next((b for b in itertools.chain([board], after) if ev.explains(b)), None)
        self.watcher.tried_remembered(fit is not None)
        if fit is None:
            log.warning("camera: the looks kept before the restart do not fit the table now (%s read otherwise "
                        "than the journal's position); learning the table again from this view",
                        ", ".join(sorted(map(str, ev.unexplained(board)))))
        elif fit is board and ev.unclear(board):
            # they read the table but for a cell they are unsure of (a Labyrinth pawn found
            # nowhere: its colour under this light): that look is learned again from this view
            log.warning("camera: after the restart %s read unsurely; learning it again from this view",
                        ", ".join(sorted(str(c) for c in board if ev.label(c) != board[c])))
        else:
            return True
        self.learn_position(at=view.t)
        return fit is not None

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
            self._learn_what_stays()

    def _between_sheets(self) -> bool:
        """Does a piece the camera reads stand, in the referee's position, on a cell the
        sheet it now reads does not show (a game resumed while Mario waits on a World's
        link space: the players are about to lay out the next World, Mario on its START)?"""
        r, reader = self.referee, self.watcher.reader
        pieces = set(reader.labels) - {"empty"}
        return any(v in pieces and c not in reader.cells for c, v in r.game.board(r.state).items())

    def _learn_what_stays(self) -> None:
        """The players are changing the table: only what no move now due can change
        stands as the referee knows it when the new sheet is first seen still (learned as
        it stands, not as the position before the move that is being made)."""
        r = self.referee
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
        event = self.referee.new_game(game.name, game.variant, game.settings, setup=setup, players=self._players)
        self._options = self.referee.game.reader_options(self.referee.state)
        self.learn_position()  # now from the whole layout
        self._told = None
        return Result(event=event)

