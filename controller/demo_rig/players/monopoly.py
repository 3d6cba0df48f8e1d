"""Monopoly's simulated players: rolls with the die module, Bowser and the tokens moved
where the referee says, every decision made on the page as the simulator makes it."""
from __future__ import annotations

import numpy as np

from controller.simulations.monopoly import random_action

from .. import render_monopoly, synth
from .track import TrackPlayer


class MonopolyPlayer(TrackPlayer):
    """Monopoly: the player rolls with the die module, moves Bowser and the token where
    the referee says (the page's prompt), and makes every decision on the page at random
    (buying more often than not, as the simulator does)."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        spaces = game.b.spaces
        self.kinds, self.sets = [s.kind for s in spaces], [s.set for s in spaces]
        self.shot = synth.tilted(margin=0.05, tilt=0.06, size=(960, 720), seed=seed)
        self.H = self.shot.homography((render_monopoly.PLANE, render_monopoly.PLANE))

    def cells(self):
        return list(range(40))

    def photo(self, labels, arm_tip=None):
        return render_monopoly.render(labels, self.kinds, self.sets, shot=self.shot, seed=self.seed, arm_tip=arm_tip)

    def where(self, cell):
        x0, y0, x1, y1 = render_monopoly.space_rect(int(cell))
        p = self.H @ np.array([(x0 + x1) / 2, (y0 + y1) / 2, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    def choose(self, state, prompt):
        return random_action(self.game, state, self.rng)
