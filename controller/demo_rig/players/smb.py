"""Super Mario Bros.'s simulated players: rolls with the die module, Mario moved on the
World board in play, hazard cards played on the page, and the boards swapped at a link
space."""
from __future__ import annotations

import numpy as np

from controller.games.smb.actions import Card
from controller.games.smb.board import world_data

from .. import synth
from ..render_track import render_smb_frame, render_smb_world, with_markers
from .base import FPS
from .track import TrackPlayer

CARD_CHANCE = 0.3  # how often an opponent plays a hazard card before a roll


class SmbPlayer(TrackPlayer):
    """Super Mario Bros.: the player rolls with the die module, puts Mario on the space
    the roll gives (choosing between a ground space and a pipe top at random), and buys an
    extra life or passes on the page; opponents sometimes play a hazard card on the page
    and put its token on a space. On a link space the players swap the boards: the next
    World's board goes down with Mario on its START."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        self.shot = synth.tilted(margin=0.06, seed=seed)
        self.boards: dict[int, tuple] = {}  # World -> (board data, frame homography, border)
        self.world_of = {s: n for n, w in game.worlds.worlds.items() for s in w.spaces}

    def _board(self, world: int) -> tuple:
        if world not in self.boards:
            data = world_data(world, self.game.settings["board"] or None)
            plane = render_smb_world(data)
            board = with_markers(plane, data["markers"])
            self.boards[world] = (data, self.shot.homography(board.shape), (board.shape[1] - plane.shape[1]) // 2)
        return self.boards[world]

    def scene(self, state):
        """The World board on the table and what stands on it."""
        data = self._board(state.world)[0]
        board = self.game.board(state)
        return {s["id"]: board[s["id"]] for s in data["spaces"]}

    def cells(self):
        """World 1's spaces but START: the reader never sees START empty (Mario stands on
        it when the game starts), so a token put there wrongly would go unseen."""
        return [s["id"] for s in self._board(1)[0]["spaces"] if "start" not in s.get("features", ())]

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        """A move within a World as every track game's; the board swap at a link space:
        an arm over the board, then the next World's board with Mario on its START."""
        if len(scenes) < 2 or self._world(scenes[0]) == self._world(scenes[1]):
            yield from super().film(scenes, hint, still_s, lead_s)
            return
        before, after = scenes
        k = 0
        middle = np.array(self.where(next(iter(before))))
        frames = ([self.photo(before)] * int(lead_s * FPS) + [self.photo(before, tuple(middle))] * 3
                  + [self.photo(after, tuple(middle))] * 3 + [self.photo(after)] * max(1, int(still_s * FPS)))
        for frame in frames:
            yield k / FPS, self.noise(frame)
            k += 1

    def _world(self, labels) -> int:
        return self.world_of[next(iter(labels))]

    def photo(self, labels, arm_tip=None):
        data = self._board(self._world(labels))[0]
        return render_smb_frame(data, labels, shot=self.shot, seed=self.seed, arm_tip=arm_tip)

    def where(self, cell):
        data, H, border = self._board(self.world_of[cell])
        x, y = next(s["at"] for s in data["spaces"] if s["id"] == cell)
        p = H @ np.array([x + border, y + border, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    def before_roll(self, state):
        """Now and then an opponent plays a hazard card on the page (the token then goes
        on the table)."""
        cards = [a for a in self.game.legal_actions(state) if isinstance(a, Card)]
        if cards and self.rng.random() < CARD_CHANCE:
            return self.game.notation(state, self.rng.choice(cards))
        return None
