"""A game refereed from the demo's rendered frames (controller/demo_rig), moved on by its
seeded players, through the whole camera path (the Table: Watcher -> Referee): for the
tests of an undo with the move still on the table and of a resume."""
from __future__ import annotations

import random

from controller.config import CameraSettings, GameSettings
from controller.demo_rig.players.base import FPS, Noise
from controller.devices import dice
from controller.events import Enter, NewGame
from controller.games import load_game
from controller.journal import Journal
from controller.referee import Referee
from controller.registry import entry
from controller.table import Table


class RenderedTable:
    """A game refereed from the demo's rendered frames, moved on by its players."""

    def __init__(self, name: str, seed: int, looks=None):
        self.rng = random.Random(seed)
        self.referee = Referee(Journal(":memory:"))
        self.table = Table(self.referee, GameSettings(name=name), CameraSettings(), looks=looks)
        self.over = lambda frame: frame  # what else the camera sees (a hand, a shadow)
        variant = entry(name).player_class().variant
        setup = load_game(name, variant).new_setup(random.Random(seed))
        result, self.events = self.table.run(NewGame(game=name, variant=variant, setup=setup))
        assert result.ok, result.error
        self.game = self.referee.game
        self.player = entry(name).player_class()(self.game, self.rng, seed)
        self.noise = Noise(seed)
        self.t, self.last = 0.0, None
        self.film([self.player.scene(self.referee.state)], lead_s=2.0, still_s=0.0)

    def film(self, scenes, hint=None, still_s=1.5, lead_s=0.0) -> list:
        events, end = [], 0.0
        for dt, frame in self.player.film(scenes, hint, still_s=still_s, lead_s=lead_s):
            frame = self.over(frame)
            events += self.table.feed(self.t + dt, frame)
            end, self.last = dt, frame
        self.t += end + 1.0 / FPS
        return events + self.still(1.0)

    def still(self, seconds: float) -> list:
        events = []
        for _ in range(int(seconds * FPS)):
            events += self.table.feed(self.t, self.noise(self.last))
            self.t += 1.0 / FPS
        return events

    def type(self, text: str, source="page"):
        result, events = self.table.run(Enter(text, source=source))
        assert result.ok, (text, result.error)
        return events

    def next_move(self):
        """Play typed inputs and rolls until a move on the table is due: (before, action)."""
        for _ in range(50):
            state = self.referee.state
            prompt = self.game.prompt(state)
            if prompt.kind == "roll":
                card = self.player.before_roll(state)
                self.type(card) if card else self.type(dice.roll(prompt.die, self.rng).notation, "die")
                continue
            choice = self.player.choose(state, prompt)
            if isinstance(choice, str):
                self.type(choice)
                continue
            after = self.game.apply(state, choice)
            if self.game.board(after) == self.game.board(state):
                self.type(self.game.notation(state, choice))
                continue
            return state, choice
        raise AssertionError("no move on the table came")

    def move_on_table(self):
        """The next move, made on the table; it must be recorded from the camera."""
        state, action = self.next_move()
        n = len(self.referee.history)
        self.film([self.player.scene(state), self.player.scene(self.game.apply(state, action))],
                  self.player.hint(state, action))
        assert len(self.referee.history) > n, (self.game.notation(state, action), self.referee.snapshot()["alarm"])
        assert self.referee.history[n] == self.game.notation(state, action)
        return state, action
