"""A chess game from the journal as PGN, the format every chess program reads.

The journal holds each accepted action in the game's notation (SAN moves, "promote n",
"resign red", ...); the referee replays them through the rules (as on a resume) to the
final position and its move list, which python-chess writes out. Red (Mario's team) plays White.
A game on the clock (controller/clock.py) writes each move's time left as `[%clk h:mm:ss]`,
the comment DGT boards and chess servers write, and its TimeControl header.
"""
from __future__ import annotations

import time

import chess
import chess.pgn

from .games.chess.cast import TEAM
from .games.chess.rules import Chess
from .journal import Journal
from .record import fold
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
    clocks = _clocks(referee)
    for i, uci in enumerate(state.moves):
        node = node.add_variation(chess.Move.from_uci(uci))
        if clocks[i] is not None:
            node.set_clock(int(clocks[i]))  # whole seconds: [%clk h:mm:ss], as DGT boards write
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
    if game.settings.get("clock"):
        record.headers["TimeControl"] = _pgn_time_control(game.settings["clock"])
    record.headers.update(headers or {})
    if outcome:
        node.comment = outcome.reason
    return str(record)


def _clocks(referee: Referee) -> list:
    """Each board move's `clock` (the mover's time left, seconds) from the move events
    that stand (less those undone or taken back), or None for a move without one."""
    record = fold(referee.journal.events(referee.game_id))
    standing = record.plies[record.base:]  # those since the position the admin last set, if any
    game, state, out = referee.game, referee.game.start(referee.setup), []
    for ply in standing:
        action = game.parse(state, ply.notation)
        if isinstance(action, chess.Move):
            out.append(ply.clock)
        state = game.apply(state, action)
    return out


def _pgn_time_control(text: str) -> str:
    """The PGN standard's TimeControl tag: seconds, "moves/seconds", "+increment", ":"
    between periods ("3+2" -> "180+2", "40/90, 30+30" -> "40/5400:1800+30"); "?" for
    a delay or time odds, which the tag cannot say (the Rulings of the page say them)."""
    from .games.time_control import TimeControl

    control = TimeControl.parse(text)
    side = control.sides[0]
    if control.sides[0] != control.sides[1] or any(p.kind not in (None, "increment") for p in side):
        return "?"
    return ":".join((f"{p.moves}/" if p.moves else "") + f"{p.seconds:g}" + (f"+{p.bonus:g}" if p.kind else "")
                    for p in side)
