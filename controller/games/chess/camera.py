"""What the camera sees of a chess board, and words for a view no legal move explains.
The camera tells colours, not pieces: each square reads "empty", "p0" (red) or "p1"
(green), and the cells are square names ("e4"). So a promotion is seen as the default
piece, and a view is read as a move attempt (a piece left a square, its colour appeared
on another) to say which rule it breaks (controller/games/chess/illegal.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

import chess

from ..base import IllegalAction
from ..words import semicolon
from .actions import PROMOTION
from .cast import COLOUR, piece_words, seat_of
from .illegal import why
from .state import SQUARES, ChessState

if TYPE_CHECKING:
    from .rules import Chess


def observable_actions(game: Chess, state: ChessState, changed: set | None = None) -> list[chess.Move]:
    """Every legal move, each promotion once (as the default piece): the camera sees
    colours, not which piece a pawn became. With `changed`, only moves from a changed
    square (a move always empties its from-square; so does each ply of a quick reply)."""
    promo = PROMOTION[game.setting("default_promotion")]
    return [m for m in state.board.legal_moves if m.promotion in (None, promo)
            and (changed is None or SQUARES[m.from_square] in changed)]


def explain(game: Chess, state: ChessState, seen: Mapping) -> IllegalAction:
    """Put a stable view that no legal move explains into words.

    The changed squares are read as a move attempt: a piece left a square and its
    colour appeared on another (a capture changes a colour, castling moves two pieces).
    If that attempt is a move of the side to move after a legal first move (a quick
    reply), the reply is judged from the position after it; if it is an illegal move
    the other side answered at once (the view the alarm waits for already shows the
    reply), the illegal move is named and the reply said after it.
    """
    _ = game._
    over = game.outcome(state)
    now = state.cells
    changed = [sq for sq in SQUARES if seen.get(sq, now[sq]) != now[sq]]
    if over and changed:
        return IllegalAction(_("the game is over: {reason}", reason=over.reason), changed)
    attempt = _attempt(game, state.board, now, seen, changed)
    if attempt is not None:
        return attempt
    for move in observable_actions(game, state):
        after = state.after(move)
        moved = [sq for sq in SQUARES if after.cells[sq] != now[sq]]
        if moved and all(seen.get(sq) == after.cells[sq] for sq in moved):
            rest = [sq for sq in SQUARES if seen.get(sq, after.cells[sq]) != after.cells[sq]]
            reply = _attempt(game, after.board, after.cells, seen, rest)
            if reply is not None:
                return IllegalAction(_("after {move}: {reason}", move=state.san(move),
                                       reason=reply.reason), reply.cells)
    played_on = _played_on(game, state.board, now, seen, changed)
    if played_on is not None:
        return played_on
    return _mismatch(_, state.board, now, seen, changed)


def fix(_, state: ChessState, seen: Mapping) -> str:
    """Put each wrongly seen square back: "put Luigi (red) back on d1; clear e3"."""
    now = state.cells
    back, clear = [], []
    for sq in SQUARES:
        if seen.get(sq, now[sq]) == now[sq]:
            continue
        piece = state.board.piece_at(chess.parse_square(sq))
        if piece is None:
            clear.append(sq)
        else:
            back.append(_("put {piece} ({colour}) back on {square}", piece=piece_words(_, piece, chess.parse_square(sq)),
                          colour=_(COLOUR[seat_of(piece.color)]), square=sq))
    parts = back + ([_("clear {squares}", squares=", ".join(clear))] if clear else [])
    return semicolon(_).join(parts) or _("put the board back as it was")


def _attempt(game: Chess, board: chess.Board, now: Mapping, seen: Mapping, changed: list) -> IllegalAction | None:
    """The illegal move that `changed` shows, if it shows one piece's move."""
    _ = game._
    left = [sq for sq in changed if seen[sq] == "empty"]
    arrived = [sq for sq in changed if seen[sq] != "empty"]
    if not left or not arrived:
        return None
    for kind in (chess.KING, None):  # castling first: the king's two-square step
        for frm in left:
            piece = board.piece_at(chess.parse_square(frm))
            if kind and piece.piece_type != kind:
                continue
            for to in arrived:
                if seen[to] != f"p{seat_of(piece.color)}":
                    continue
                move = chess.Move(chess.parse_square(frm), chess.parse_square(to))
                if kind:  # the king's step of two files is an attempt to castle
                    if abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) != 2:
                        continue
                elif len(left) + len(arrived) > 3:
                    continue  # more changed than one move (with a capture en passant) explains
                if piece.piece_type == chess.PAWN and chess.square_rank(move.to_square) in (0, 7):
                    move.promotion = PROMOTION[game.setting("default_promotion")]
                if board.is_legal(move):
                    if kind:
                        rook_to = "f" if chess.square_file(move.to_square) == 6 else "d"
                        return IllegalAction(_("{piece} stepped from {frm} to {to}: castling moves the rook "
                                               "to {square} too", piece=piece_words(_, piece), frm=frm, to=to,
                                               square=rook_to + to[1]), [frm, to])
                    continue
                return why(_, board, move)
    return None


def _played_on(game: Chess, board: chess.Board, now: Mapping, seen: Mapping, changed: list) -> IllegalAction | None:
    """An illegal move of the side to move, then one move of the other side that the
    rules allow from the board it left (15...b6?? ignoring the check, then 16. Bg3):
    the illegal move in words, and the reply after it. None unless both together change
    exactly the squares `changed`."""
    _ = game._
    mover = f"p{seat_of(board.turn)}"
    left = [sq for sq in changed if seen[sq] == "empty" and now[sq] == mover]
    arrived = [sq for sq in changed if seen[sq] == mover]
    for frm in left:
        for to in arrived:
            attempt = chess.Move(chess.parse_square(frm), chess.parse_square(to))
            if board.is_legal(attempt):
                continue  # a legal first move and its reply: judged as a quick reply
            wrong = board.copy(stack=False)
            wrong.set_piece_at(attempt.to_square, wrong.remove_piece_at(attempt.from_square))
            wrong.turn, wrong.ep_square = not board.turn, None
            cells = {**now, frm: "empty", to: mover}
            rest = {sq for sq in changed if cells[sq] != seen[sq]}
            for reply in wrong.pseudo_legal_moves:
                if reply.promotion not in (None, PROMOTION[game.setting("default_promotion")]):
                    continue
                if wrong.is_castling(reply) or wrong.is_en_passant(reply):
                    continue  # rare enough beside an illegal move not to guess at
                frm2, to2 = SQUARES[reply.from_square], SQUARES[reply.to_square]
                if rest == {frm2, to2} and seen[frm2] == "empty" and seen[to2] == cells[frm2]:
                    piece = wrong.piece_at(reply.from_square)
                    return IllegalAction(_("{reason}; then {piece} from {frm} to {to}",
                                           reason=why(_, board, attempt).reason,
                                           piece=piece_words(_, piece, reply.from_square), frm=frm2, to=to2),
                                         changed)
    return None


def _mismatch(_, board: chess.Board, now: Mapping, seen: Mapping, changed: list) -> IllegalAction:
    """Nothing sensible explains the view (a knocked-over piece, a hand left behind)."""
    def what(sq):
        piece = board.piece_at(chess.parse_square(sq))
        if not piece:
            return _("an empty square")
        return f"{piece_words(_, piece, chess.parse_square(sq))} ({_(COLOUR[seat_of(piece.color)])})"

    def looks(label):
        if label == "empty":
            return _("empty")
        return _("a red piece") if label == "p0" else _("a green piece")

    parts = [_("{square} shows {seen} where {piece} should be", square=sq, seen=looks(seen[sq]), piece=what(sq))
             for sq in changed]
    return IllegalAction(_("board does not match: {cells}", cells=semicolon(_).join(parts)), changed)
