"""The referee: the only place where observations meet rules.

Inputs are stable board views from vision, moves typed on the page or the CLI, die
rolls and commands (new game, undo). Each becomes events: written to the journal, then
published on the bus. The referee owns the game state and one thread feeds it.

Matching a view: the referee asks the game what the board would look like after every
legal action (and, for games that allow it, every sequence of two) and accepts a view
only when exactly one outcome fits every cell the reader is sure of. A view that differs
from the position, is read surely, and fits no legal action is an illegal move, put into
words by the game; the referee then waits until the board is back in the last legal
position or shows a legal move made from it. A view with unsure cells that could still
fit is left for the next view.
"""
from __future__ import annotations

import random
import secrets
from dataclasses import replace
from typing import Iterable

from vision.view import BoardView

from .events import Bus, Event
from .games import load_game
from .games.base import Game, IllegalAction, NotationError
from .journal import Journal

MIN_CONFIDENCE = 0.6


class Referee:
    def __init__(self, journal: Journal, bus: Bus | None = None, min_confidence: float = MIN_CONFIDENCE):
        self.journal = journal
        self.bus = bus or Bus()
        self.min_confidence = min_confidence
        self.game: Game | None = None
        self.game_id: int | None = None
        self.state = None
        self.history: list[str] = []  # notation of each accepted action
        self.setup: dict = {}
        self.alarm: dict | None = None  # the standing illegal-move report, until put right
        self.notes: list[str] = []  # what went wrong while resuming, for the page

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
        if self.game_id is not None and self.game.outcome(self.state) is None:
            self.journal.end_game(self.game_id, "abandoned")
        self.game, self.state, self.setup, self.history, self.alarm = game, state, setup, [], None
        event = self.journal.start_game(name, game.variant, Event(
            "game_started", {"game": name, "variant": game.variant, "settings": game.settings, "setup": setup}))
        self.game_id = event.game_id
        event = replace(event, data={**event.data, "setup": game.public_setup(setup)})
        self.bus.publish(event)
        return event

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
            self.game = self.game_id = self.state = None
            return False
        return True

    def load(self, game_id: int) -> None:
        """Rebuild game `game_id` from its record (resume, PGN export)."""
        self.game_id = game_id
        self._rebuild(self.journal.events(game_id))

    def _rebuild(self, events: Iterable[Event]) -> None:
        moves: list[str] = []
        self.game = None
        for e in events:
            if e.kind == "game_started":
                self.game = load_game(e.data["game"], e.data["variant"], e.data.get("settings"))
                self.setup = e.data.get("setup") or {}
            elif e.kind == "move":
                moves.append(e.data["notation"])
            elif e.kind == "undo" and moves:
                moves.pop()
        if self.game is None:
            raise ValueError("the record has no game_started event")
        state = self.game.start(self.setup)
        for text in moves:
            state = self.game.play(state, self.game.parse(state, text))
        self.state, self.history, self.alarm = state, moves, None

    # --- inputs --------------------------------------------------------------------
    def enter(self, text: str, source: str = "entry", seat: int | None = None) -> Event:
        """A move, roll or choice in the game's notation (from the page, CLI or die).
        `seat`: who sent it (a player's phone); None for the admin, the CLI and the die."""
        if self.game is None:
            return self._emit("illegal", input=text, reason="no game has been started", source=source)
        try:
            action = self.game.parse(self.state, text)
            self.game.check(self.state, action)
            actor = self.game.actor(self.state, action)
            names = self.game.seats(self.state)
            if seat is not None and not 0 <= seat < len(names):
                raise IllegalAction(f"seat {seat} is not in this game (seats 0-{len(names) - 1})")
            if seat is not None and actor is not None and actor != seat:
                raise IllegalAction(f"it is {names[actor]}'s turn, not {names[seat]}'s")
        except (NotationError, IllegalAction) as exc:
            return self._emit("illegal", input=text, reason=str(exc), source=source)
        return self._accept([action], source)

    def _accept(self, actions: list, source: str, **extra) -> Event:
        event = None
        for action in actions:
            before = self.state
            notation = self.game.notation(before, action)
            seat = self.game.actor(before, action)
            self.state = self.game.apply(before, action)
            self.history.append(notation)
            event = self._emit("move", notation=notation, text=self.game.describe(before, action),
                               seat=seat, ply=len(self.history), source=source, **extra)
        self.alarm = None
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self._emit("game_over", **outcome.to_json())
            self.journal.end_game(self.game_id, outcome.reason)
        return event

    def undo(self) -> Event | None:
        """Take back the last accepted action (the page's undo, admin only)."""
        if not self.history:
            return None
        was_over = self.game.outcome(self.state) is not None
        last = self.history[-1]
        event = self._emit("undo", notation=last)
        self._rebuild(self.journal.events(self.game_id))
        if was_over:
            self.journal.reopen_game(self.game_id)
        return event

    def observe(self, view: BoardView) -> Event | None:
        """Match a stable view against the position; returns the event it caused."""
        if self.game is None or self.game.outcome(self.state) is not None:
            return None  # after the end the players clear the board: nothing to judge
        sure = view.labels(self.min_confidence)
        unsure = {c for c in view.cells if c not in sure}
        board = self.game.board(self.state)
        if self._fits(board, sure):
            if self.alarm is not None and not (unsure & set(board)):
                self.alarm = None
                return self._emit("restored", text="the board is back in the last legal position")
            return None
        seen = view.labels()
        changed = {c for c in board if seen.get(c, board[c]) != board[c]}
        found = self._candidates(sure, changed | (unsure & board.keys()))
        boards = {tuple(sorted(b.items(), key=repr)) for _, b in found}
        if len(boards) == 1:
            actions, after = found[0]
            moved = {c for c in after if after[c] != board.get(c)}
            if any(seen.get(c) != after[c] for c in moved & unsure):
                return None  # the move's own cells are not yet read as the move leaves them
            delay = round(view.t - view.moved_at, 3) if view.t else None
            return self._accept(actions, "camera", decided_after_s=delay)
        if found:
            return None  # ambiguous: wait for a clearer view
        if any(seen.get(c) != board[c] for c in unsure & board.keys()):
            return None  # something unsure may still be the move: wait for a clearer view
        problem = self.game.explain(self.state, {**board, **sure})
        if self.alarm and self.alarm["reason"] == problem.reason:
            return None  # the same wrong board, already reported
        self.alarm = {"reason": problem.reason, "cells": [self.game.cell_name(c) for c in problem.cells]}
        return self._emit("illegal", source="camera", **self.alarm)

    @staticmethod
    def _fits(board: dict, sure: dict) -> bool:
        return all(board.get(c, lab) == lab for c, lab in sure.items())

    def _candidates(self, sure: dict, changed: set) -> list[tuple[list, dict]]:
        """Action sequences (shortest first) whose resulting board fits the view.
        `changed`: the cells that differ from the position or are unsure (the game may
        use it to skip actions that cannot explain the view)."""
        for depth in range(1, self.game.max_actions_per_view + 1):
            found = []
            frontier = [([], self.state)]
            for _ in range(depth):
                frontier = [(seq + [a], self.game.apply(s, a)) for seq, s in frontier
                            if self.game.outcome(s) is None
                            for a in self.game.observable_actions(s, changed)]
            for seq, s in frontier:
                after = self.game.board(s)
                if self._fits(after, sure):
                    found.append((seq, after))
            if found:
                return found
        return []

    # --- what the page and `referee play` show -------------------------------------
    def snapshot(self, viewer: int | None = None) -> dict:
        if self.game is None:
            return {"game": None}
        outcome = self.game.outcome(self.state)
        return {
            "game": self.game.name,
            "title": self.game.title,
            "variant": self.game.variant,
            "game_id": self.game_id,
            "seats": self.game.seats(self.state),
            "prompt": self.game.prompt(self.state).to_json(),
            "moves": list(self.history),
            "alarm": self.alarm,
            "outcome": outcome.to_json() if outcome else None,
            "rulings": [{"key": r.key, "value": r.value, "text": r.text} for r in self.game.rulings()],
            "state": self.game.snapshot(self.state, viewer),
        }
