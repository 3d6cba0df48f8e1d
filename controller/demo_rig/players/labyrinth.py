"""Labyrinth's simulated players: they lay the maze out themselves (the referee reads the
start from the table), push the spare tile in and walk their pawns."""
from __future__ import annotations

from controller.games.labyrinth.actions import MovePawn, Push
from controller.games.labyrinth.maze import cell_index, cell_text, reachable

from ..render_labyrinth import camera_shot, render_game
from .base import FPS, SIZE, Player


class LabyrinthPlayer(Player):
    """They push the spare in at a random arrow and turn, then walk to a random square
    they can reach (a pawn that cannot go anywhere stays: "stay" on the page)."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        self.shot = camera_shot(size=SIZE, seed=seed)

    def scene(self, state):
        return self.game.snapshot(state)

    def picture_names(self, state, cells):
        """The treasure on each tile the referee shows (the players laid the maze out)."""
        return {cell: state.tiles[cell_index(cell)].treasure for cell in cells}

    def hint(self, state, action):
        if isinstance(action, Push):
            return ("push", action.arrow)
        if isinstance(action, MovePawn):
            return ("move", state.colours[state.turn], cell_text(action.cell))
        return None

    def choose(self, state, prompt):
        acts = self.game.legal_actions(state)
        pushes = [a for a in acts if isinstance(a, Push)]
        if pushes:
            return self.rng.choice(pushes)
        moves = [a for a in acts if isinstance(a, MovePawn)]
        if moves and state.pawns[state.turn] == state.turn_start:
            return self.rng.choice(moves)
        # the turn ends with the next player's push, as at a real table
        return self.rng.choice([a for a in self.game.observable_actions(state) if isinstance(a, Push)])

    def wrong(self, state, action, after):
        """The pawn put down on a square its path does not reach."""
        if not isinstance(action, MovePawn):
            return None
        far = sorted(set(range(len(state.tiles))) - reachable(state.tiles, state.pawns[state.turn]))
        if not far:
            return None
        snap = self.game.snapshot(state)
        players = [dict(p) for p in snap["players"]]
        players[state.turn]["cell"] = cell_text(self.rng.choice(far))
        return {**snap, "players": players}

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        if len(scenes) > 1 and scenes[0]["rows"] != scenes[1]["rows"] and hint is None:
            # a new maze laid out for the next game: the film cuts to it
            return render_game([(scenes[1], scenes[1], None)], shot=self.shot, fps=FPS,
                               lead_s=lead_s + still_s, seed=self.seed)
        if hint is None and len(scenes) > 1:  # a pawn carried (the mistake and its correction)
            hint = next((("move", a["colour"], b["cell"]) for a, b in
                         zip(scenes[0]["players"], scenes[1]["players"]) if a["cell"] != b["cell"]), None)
        steps = [(scenes[0], scenes[-1], hint if len(scenes) > 1 else None)]
        return render_game(steps, shot=self.shot, fps=FPS, still_s=still_s, lead_s=lead_s, seed=self.seed)
