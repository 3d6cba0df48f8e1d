"""Chess's simulated players: a master game from shared/data/pgn replayed at the table,
so the demo shows real openings, captures, castling and a decided ending."""
from __future__ import annotations

import logging
from pathlib import Path

import chess
import chess.pgn

from ..render_chess import Camera, Position, render_game
from .base import FPS, Player

log = logging.getLogger("referee.demo")

PGN_DIR = Path(__file__).resolve().parents[4] / "shared" / "data" / "pgn"


class ChessPlayer(Player):
    """They replay a master game from shared/data/pgn (chosen by the seed), the loser
    resigning on the page where the game was decided; without those files, random legal
    moves."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        self.camera = Camera(seed=seed)
        self.moves, self.result = self._master_game()

    def _master_game(self):
        files = sorted(PGN_DIR.glob("*.pgn")) if PGN_DIR.is_dir() else []
        if not files:
            return [], "*"
        path = self.rng.choice(files)
        with open(path, encoding="utf-8") as f:
            record = chess.pgn.read_game(f)
        if record is None:
            log.warning("demo: %s holds no game; the players move at random", path)
            return [], "*"
        log.info("demo: the players replay %s", path.name)
        return list(record.mainline_moves()), record.headers.get("Result", "*")

    def scene(self, state):
        kinds = {chess.square_name(s): p.symbol().lower() for s, p in state.board.piece_map().items()}
        return Position(self.game.board(state), kinds)

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        return render_game(scenes, fps=FPS, camera=self.camera, seed=self.seed, still_s=still_s, lead_s=lead_s)

    def choose(self, state, prompt):
        ply = len(state.moves)
        legal = self.game.legal_actions(state)
        if ply < len(self.moves) and self.moves[ply] in legal:
            return self.moves[ply]
        if self.moves and ply >= len(self.moves):
            if self.result == "1-0":
                return "resign black"
            if self.result == "0-1":
                return "resign white"
            if self.result == "1/2-1/2":
                return "draw agreed"
        return self.rng.choice(legal)

    def wrong(self, state, action, after):
        """The moving piece put down on an empty square it cannot reach."""
        reach = {m.to_square for m in state.board.legal_moves if m.from_square == action.from_square}
        empty = [s for s in chess.SQUARES if state.board.piece_at(s) is None and s not in reach
                 and chess.square_distance(s, action.from_square) <= 3]
        if not empty:
            return None
        labels = dict(self.game.board(state))
        kinds = dict(self.scene(state).kinds)
        src, dst = chess.square_name(action.from_square), chess.square_name(self.rng.choice(empty))
        labels[dst], labels[src] = labels[src], "empty"
        kinds[dst] = kinds.pop(src)
        return Position(labels, kinds)
