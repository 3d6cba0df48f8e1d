"""A chess game from the journal as PGN, the format every chess program reads.

The journal holds each accepted action in the game's notation (SAN moves, "promote n",
"resign red", ...); replaying them through the rules gives the final position and its
move list, which python-chess writes out. Red (Mario's team) plays White.
"""
from __future__ import annotations

import time

import chess
import chess.pgn

from .games import load_game
from .games.base import IllegalAction, NotationError
from .games.chess import TEAM
from .journal import Journal

RESULT = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


def export_pgn(journal: Journal, game_id: int) -> str:
    info = next((g for g in journal.games() if g["id"] == game_id), None)
    if info is None:
        raise KeyError(f"no game {game_id} in {journal.path}")
    if info["game"] != "chess":
        raise ValueError(f"game {game_id} is {info['game']}, not chess: PGN is for chess games only")
    game, notations = None, []
    for event in journal.events(game_id):
        if event.kind == "game_started":
            game = load_game("chess", event.data.get("variant"), event.data.get("settings"))
        elif event.kind == "move":
            notations.append(event.data["notation"])
        elif event.kind == "undo" and notations:
            notations.pop()
    if game is None:
        raise ValueError(f"game {game_id} in {journal.path} has no start event")
    state = game.start()
    for ply, text in enumerate(notations, 1):
        try:
            state = game.play(state, game.parse(state, text))
        except (NotationError, IllegalAction) as exc:  # a journal edited by hand, or by a bug
            raise ValueError(f"game {game_id}, action {ply} ({text!r}) does not replay: {exc}") from exc

    record = chess.pgn.Game()
    node = record
    for uci in state.moves:
        node = node.add_variation(chess.Move.from_uci(uci))
    outcome = game.outcome(state)
    record.headers.update({
        "Event": "Mario chess",
        "Site": "Tabletop Referee",
        "Date": time.strftime("%Y.%m.%d", time.localtime(info["started"])),
        "Round": str(game_id),
        "White": TEAM[0],
        "Black": TEAM[1],
        "Result": RESULT[outcome.winner] if outcome else "*",
        "Termination": "normal" if outcome else
                       ("abandoned" if info["result"] == "abandoned" else "unterminated"),
        "PlyCount": str(len(state.moves)),
    })
    if outcome:
        node.comment = outcome.reason
    return str(record)
