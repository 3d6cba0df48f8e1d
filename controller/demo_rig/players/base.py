"""What every game's simulated player does unless its own module says otherwise, and the
simulated camera the players are filmed by (frame rate, frame size, sensor noise): the
demo's feed and its camera settings take them from here, so a film and the camera that
shows it cannot disagree."""
from __future__ import annotations

import random

import numpy as np

FPS = 15.0  # the simulated camera: frames per second and frame size
SIZE = (960, 540)


class Noise:
    """Fresh sensor noise on a held frame (a camera never gives two identical frames; the
    watcher calls a feed of identical frames frozen). One bank per frame size, sliced."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.banks: dict = {}

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        if (h, w) not in self.banks:
            self.banks[(h, w)] = self.rng.normal(0.0, 2.0, (h + 16, w + 16, 3)).astype(np.int16)
        dy, dx = self.rng.integers(0, 16, 2)
        return np.clip(frame.astype(np.int16) + self.banks[(h, w)][dy:dy + h, dx:dx + w], 0, 255).astype(np.uint8)


class Player:
    """One game's simulated players and its renderer. A "scene" is whatever that
    renderer draws from (labels, a chess Position, a Labyrinth snapshot). Every `state`
    handed to them is the players' own position (demo_rig/own_game.py), never the page's:
    they choose and film from the game they play, as people at a table do.

    - `scene(state)`: the table in that state;
    - `film(scenes, hint, still_s, lead_s)`: (seconds, frame) pairs: `scenes[0]` still
      for `lead_s`, then if there is a second scene the hands changing the table into
      it, then that scene still for `still_s`; `hint(state, action)` tells the renderer
      what the hands do when the scenes alone do not (which arrow a Labyrinth push uses);
    - `choose(state, prompt)`: an action, or text to type on the page;
    - `wrong(state, action, after)`: a scene with the piece put somewhere the rules do not
      allow (the deliberate mistake), or None;
    - `shows(state, action)`: whether this table can show the action (False stops the game);
    - `before_roll(state)`: text typed on the page when a roll is due, before the press;
    - `picture_names(state, cells)`: what the admin names the pictures the referee asks
      about on the enrolment page (Labyrinth's treasures).
    `variant`: the variant the demo plays (None: the game's first).
    """

    variant: str | None = None

    def __init__(self, game, rng: random.Random, seed: int, colours=None):
        self.game, self.rng, self.seed, self.colours = game, rng, seed, colours

    def scene(self, state):
        return self.game.board(state)

    def hint(self, state, action):
        return None

    def shows(self, state, action) -> bool:
        return True

    def wrong(self, state, action, after):
        return None

    def before_roll(self, state) -> str | None:
        """Something typed on the page before the roll (a card played), or None."""
        return None

    def picture_names(self, state, cells) -> dict:
        raise NotImplementedError(f"{self.game.name} has no pictures to name")

    def choose(self, state, prompt):
        """A random option of a choice, else a random legal action."""
        if prompt.options:
            return self.game.parse(state, self.rng.choice(prompt.options))
        return self.rng.choice(self.game.legal_actions(state))
