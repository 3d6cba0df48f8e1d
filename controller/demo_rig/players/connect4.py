"""Connect 4's simulated players (the demo plays the blocker variant, so the blocker
being placed and chips being removed are seen on the table)."""
from __future__ import annotations

from dataclasses import replace

from ..render_connect4 import render_game
from .base import FPS, SIZE, Player


class Connect4Player(Player):
    """They take a win when they see one and block the opponent's; blockers sometimes."""

    variant = "blocker"  # the demo shows the blocker being placed

    def choose(self, state, prompt):
        game = self.game
        acts = game.legal_actions(state)
        drops = [a for a in acts if type(a).__name__ == "Drop"]
        for a in drops:  # a winning move
            if game.outcome(game.apply(state, a)) is not None:
                return a
        other = replace(state, turn=1 - state.turn, may_remove=None)
        for a in drops:  # block the opponent's win
            if not a.remove and game.outcome(game.apply(other, a)) is not None:
                return a
        removals = [a for a in acts if getattr(a, "remove", False)]
        if removals and self.rng.random() < 0.7:
            return self.rng.choice(removals)
        places = [a for a in acts if type(a).__name__ == "PlaceBlocker" and a.row >= 2]
        if places and self.rng.random() < 0.08:
            return self.rng.choice(places)
        return self.rng.choice([a for a in drops if not a.remove] or acts)

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        return render_game(scenes, fps=FPS, size=SIZE, seed=self.seed, colours=self.colours,
                           still_s=still_s, lead_s=lead_s)

    def wrong(self, state, action, after):
        """A chip pushed into a hole with an empty hole below it."""
        board = self.game.board(state)
        holes = [c for c, lab in board.items() if lab == "empty" and c[1] >= 2
                 and board[(c[0], c[1] - 1)] == "empty"]
        if not holes:
            return None
        return {**board, self.rng.choice(holes): f"p{state.turn}"}
