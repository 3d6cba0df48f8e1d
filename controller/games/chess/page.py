"""What the status page shows of a chess game (the snapshot web/static/draw/chess.js
draws): the position as FEN and rows, whose turn, check, the record and what may be
claimed. Nothing in chess is secret, so every viewer gets the same."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cast import seat_of, team_words
from .state import SQUARES, ChessState, first_move

if TYPE_CHECKING:
    from .rules import Chess


def snapshot(game: Chess, state: ChessState) -> dict:
    _ = game._
    board = state.board
    promo = game.last_promotion(state)
    claim = game.claimable(state)
    return {
        "fen": board.fen(),
        "turn": seat_of(board.turn),
        "rows": [row.replace("/", "") for row in board.board_fen().split("/")],
        "check": board.is_check(),
        "last_move": state.moves[-1] if state.moves else None,
        "draw_offer": team_words(_, state.draw_offer) if state.draw_offer is not None else None,
        "promotion_square": SQUARES[promo.to_square] if promo else None,
        "claimable": claim.reason if claim else None,
        "moves": list(state.moves),
        # the number and side of the first move, for the page's record by move number
        "first_move": list(first_move(state.fen)),
    }
