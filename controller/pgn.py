"""A chess game from the journal as PGN, the format every chess program reads.

The journal holds each accepted action in the game's notation (SAN moves, "promote n",
"resign red", ...); the referee replays them through the rules (as on a resume) to the
final position and its move list, which python-chess writes out. Red (Mario's team) plays White.
"""
from __future__ import annotations

import time

import chess
import chess.pgn

from .games.chess import TEAM, Chess
from .journal import Journal
from .players import labels
from .referee import Referee

RESULT = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


def export_pgn(journal: Journal, game_id: int, headers: dict | None = None) -> str:
    """The game as PGN; `headers` replace the table's own (the hall names its table and
    round). The game's Export in controller/registry.py."""
    info = next((g for g in journal.games() if g["id"] == game_id), None)
    if info is None:
        raise KeyError(f"no game {game_id} in {journal.path}")
    if info["game"] != Chess.name:
        raise ValueError(f"game {game_id} is {info['game']}, not chess: PGN is for chess games only")
    referee = Referee(journal)
    try:
        referee.load(game_id)
    except Exception as exc:  # a journal edited by hand, or written by a bug
        raise ValueError(f"game {game_id} in {journal.path} does not replay: {exc}") from exc
    game, state = referee.game, referee.state
    record = chess.pgn.Game()
    if state.fen:
        record.setup(state.fen)  # the SetUp and FEN headers
    node = record
    for uci in state.moves:
        node = node.add_variation(chess.Move.from_uci(uci))
    outcome = game.outcome(state)
    record.headers.update({
        "Event": "Mario chess",
        "Site": "Tabletop Referee",
        "Date": time.strftime("%Y.%m.%d", time.localtime(info["started"])),
        "Round": str(game_id),
        "White": labels(list(TEAM), referee.players)[0],  # "Léa (Mario's team)" when named
        "Black": labels(list(TEAM), referee.players)[1],
        "Result": RESULT[outcome.winner] if outcome else "*",
        "Termination": "normal" if outcome else
                       ("abandoned" if info["result"] == "abandoned" else "unterminated"),
        "PlyCount": str(len(state.moves)),
    })
    record.headers.update(headers or {})
    if outcome:
        node.comment = outcome.reason
    return str(record)
