"""A chess position as an immutable value (`ChessState`, made by the thousand as the
referee weighs moves, so each is built lazily), and what the position alone decides:
what makes two positions the same for repetition, and the ends that need no claim."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

import chess

from ...i18n import N_
from ..base import Outcome
from .cast import KING, TEAM, seat_of

SQUARES = tuple(chess.SQUARE_NAMES)  # the camera's cells, by python-chess's square number


@dataclass(frozen=True)
class ChessState:
    """An immutable position: `moves` (UCI, from the start) is the record, plus what the
    page entered (a result, a standing draw offer).

    The referee builds a state for every legal move, and for every reply to each, each
    time a view is matched, but needs only what the camera would see of most of them.
    So a state made by a move keeps (parent state, move) and builds its python-chess
    board (without a move stack: copying a stack costs O(plies)) only when asked; its
    squares come straight from the parent's squares and the move. `keys`, the positions
    since the last capture or pawn move, are all that repetition needs."""

    moves: tuple[str, ...] = ()
    ended: Outcome | None = None  # by resignation, agreement or claim
    fen: str | None = None  # where the game started, if not the start position
    draw_offer: int | None = None  # seat whose offer stands
    made_by: tuple | None = field(default=None, compare=False, repr=False)  # (parent, move)

    @cached_property
    def board(self) -> chess.Board:
        if self.made_by is None:
            return chess.Board(self.fen or chess.STARTING_FEN)  # every other state is made by a move
        parent, move = self.made_by
        board = parent.board.copy(stack=False)
        board.push(move)
        return board

    @cached_property
    def keys(self) -> tuple:
        key = position_key(self.board)
        if self.made_by is None:
            return (key,)
        parent, move = self.made_by
        return (key,) if parent.board.is_zeroing(move) else parent.keys + (key,)

    @cached_property
    def cells(self) -> dict[str, str]:
        if self.made_by is None or "board" in self.__dict__:
            white, black = self.board.occupied_co[chess.WHITE], self.board.occupied_co[chess.BLACK]
            return {name: "p0" if white >> i & 1 else "p1" if black >> i & 1 else "empty"
                    for i, name in enumerate(SQUARES)}
        parent, move = self.made_by
        return {**parent.cells, **parent.changes(move)}

    def changes(self, move: chess.Move) -> dict[str, str]:
        """The squares `move` changes from this position, with what the camera sees on
        them after it: all that tells the cells after it from these. A search trying
        every move asks for these alone (controller/recovery.py), not for a state and
        64 cells a move."""
        before = self.board
        bit = chess.BB_SQUARES[move.from_square]
        mover = "p0" if before.occupied_co[chess.WHITE] & bit else "p1"
        changes = {SQUARES[move.from_square]: "empty", SQUARES[move.to_square]: mover}
        if before.kings & bit and before.is_castling(move):
            rank = chess.square_rank(move.from_square)
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            changes[SQUARES[chess.square(7 if kingside else 0, rank)]] = "empty"
            changes[SQUARES[chess.square(5 if kingside else 3, rank)]] = mover
        elif before.pawns & bit and before.is_en_passant(move):
            changes[SQUARES[chess.square(chess.square_file(move.to_square),
                                         chess.square_rank(move.from_square))]] = "empty"
        return changes

    @cached_property
    def automatic_end(self) -> tuple | None:
        return _automatic_end(self)

    @property
    def repetitions(self) -> int:
        return self.keys.count(self.keys[-1])

    def san(self, move: chess.Move) -> str:
        """`move` in SAN, written on a copy of the board: python-chess writes it by playing
        the move and taking it back, and a state's board is shared by every thread that
        holds the state (the demo's camera and the referee named moves of one position at
        once, and one read the other's move half made: "san() expects move to be legal")."""
        return self.board.copy(stack=False).san(move)

    def after(self, move: chess.Move) -> ChessState:
        """The state after a move. An offer stands until the other side moves."""
        mover = seat_of(self.board.turn)
        offer = self.draw_offer if self.draw_offer == mover else None
        return ChessState(moves=self.moves + (move.uci(),), draw_offer=offer, fen=self.fen,
                          made_by=(self, move))


def position_key(board: chess.Board) -> tuple:
    """What makes two positions the same for repetition (FIDE 9.2): pieces, side to move,
    castling rights and a capturable en passant square."""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.turn, board.clean_castling_rights(),
            board.ep_square if board.has_legal_en_passant() else None)


@lru_cache(maxsize=64)
def first_move(fen: str | None) -> tuple:
    """[move number, "white" | "black"] of the first move from `fen` (the start: [1, "white"])."""
    start = chess.Board(fen or chess.STARTING_FEN)
    return start.fullmove_number, "white" if start.turn else "black"


def _automatic_end(state: ChessState) -> tuple | None:
    """(winner seat or None, message, its parameters) of a game that ended by itself; the
    state holds no language: Chess.outcome says it in the table's."""
    board = state.board
    if board.is_checkmate():
        loser = seat_of(board.turn)
        return 1 - loser, N_("{king} is checkmated"), {"king": KING[loser]}
    if board.is_stalemate():
        return None, N_("draw: stalemate, {team} has no legal move"), {"team": TEAM[seat_of(board.turn)]}
    if board.is_insufficient_material():
        return None, N_("draw: dead position, neither side has the material to checkmate"), {}
    if state.repetitions >= 5:
        return None, N_("draw: the same position occurred five times"), {}
    if board.halfmove_clock >= 150:
        return None, N_("draw: 75 moves by each side without a capture or a pawn move"), {}
    return None
