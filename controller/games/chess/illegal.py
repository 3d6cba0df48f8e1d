"""Why a chess move is illegal, in words a family at the table understands: the rule it
breaks, naming the piece by its Mario name and the squares ("Yoshi cannot move from g1
to g3: a knight moves in an L, two squares one way and one to the side"; "Mario is in
check: moving Toad from a1 to a3 does not get him out of it"). python-chess says only
that a move is illegal; a referee that says "illegal" alone is no help to a child who
moved a piece wrongly. Each function takes the table's translator `_` and a
python-chess board, and returns the IllegalAction (its cells: the squares to show).
"""
from __future__ import annotations

import re

import chess

from ...i18n import N_
from ..base import IllegalAction
from .cast import KING, piece_name, piece_words, pronoun, seat_of, team_words
from .state import SQUARES


def why(_, board: chess.Board, move: chess.Move) -> IllegalAction:
    """The rule a move breaks, naming the piece by its Mario name and the squares."""
    frm, to = SQUARES[move.from_square], SQUARES[move.to_square]
    cells = [frm, to]
    piece = board.piece_at(move.from_square)
    if piece is None:
        return IllegalAction(_("there is no piece on {square}", square=frm), cells)
    name = piece_words(_, piece, move.from_square)
    seat = seat_of(piece.color)
    if piece.color != board.turn:
        return IllegalAction(_("it is {team}'s turn: {piece} cannot move now", team=team_words(_, 1 - seat),
                               piece=name), cells)
    cannot = _("{piece} cannot move from {frm} to {to}", piece=name, frm=frm, to=to)
    if move.promotion and (piece.piece_type != chess.PAWN or chess.square_rank(move.to_square) not in (0, 7)):
        return IllegalAction(_("{cannot}: only a pawn reaching the last rank is promoted", cannot=cannot),
                             cells)
    king = KING[seat]
    if piece.piece_type == chess.KING and abs(chess.square_file(move.to_square) - chess.square_file(move.from_square)) == 2 \
            and chess.square_rank(move.to_square) == chess.square_rank(move.from_square):
        return why_castle(_, board, move, king)
    target = board.piece_at(move.to_square)
    if target is not None and target.color == piece.color:
        return IllegalAction(_("{cannot}: {team}'s own {piece} stands there", cannot=cannot,
                               team=team_words(_, seat), piece=piece_words(_, target, move.to_square)), cells)
    if move not in board.pseudo_legal_moves and chess.Move(move.from_square, move.to_square) not in board.pseudo_legal_moves:
        return IllegalAction(_("{text}: {note}", text=cannot, note=geometry(_, board, piece, move)), cells)
    if piece.piece_type == chess.KING:
        return IllegalAction(attacked(_, _("{king} cannot move into check on {square}", king=king, square=to), board,
                                      not piece.color, move.to_square, move.from_square), cells)
    if board.is_check():
        # {pronoun} is English's him/her/it: a translation may leave it out
        return IllegalAction(_("{king} is in check: moving {piece} from {frm} to {to} does not get "
                               "{pronoun} out of it", king=king, piece=name, frm=frm, to=to,
                               pronoun=pronoun(king)), cells)
    if board.is_pinned(piece.color, move.from_square):
        # {pronoun} is English's him/her/it: a translation may leave it out
        return IllegalAction(_("{piece} is pinned: moving {pronoun} would leave {king} in check", piece=name,
                               pronoun=pronoun(piece_name(piece, move.from_square)), king=king), cells)
    return IllegalAction(_("{cannot}: it would leave {king} in check", cannot=cannot, king=king), cells)


def attacked(_, text: str, board: chess.Board, color: bool, square: int, without: int | None = None) -> str:
    """`text` (a move into check) and ': e3 is attacked by Birdo on d5' (`without`: the
    square the king leaves, so a piece it blocked counts), joined in the language's way
    (French: ' : '); `text` alone when nothing attacks."""
    probe = board.copy(stack=False)
    if without is not None:
        probe.remove_piece_at(without)
    found = list(probe.attackers(color, square))
    if not found:
        return text
    sq = found[0]
    return _("{text}: {note}", text=text, note=_("{square} is attacked by {piece} on {on}", square=SQUARES[square],
                                                 piece=piece_words(_, probe.piece_at(sq), sq), on=SQUARES[sq]))


def why_castle(_, board: chess.Board, move: chess.Move, king: str) -> IllegalAction:
    """Why the king's two-square step is no castling: rights lost, a piece between,
    or check on the way."""
    color = board.turn
    kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
    rank = chess.square_rank(move.from_square)
    rook_sq = chess.square(7 if kingside else 0, rank)
    cells = [SQUARES[move.from_square], SQUARES[move.to_square], SQUARES[rook_sq]]
    can = (board.has_kingside_castling_rights if kingside else board.has_queenside_castling_rights)(color)
    if not can:
        rook = piece_words(_, chess.Piece(chess.ROOK, color))
        return IllegalAction(_("{king} cannot castle kingside: {king} or that {rook} has already moved "
                               "(or the rook is gone)", king=king, rook=rook) if kingside else
                             _("{king} cannot castle queenside: {king} or that {rook} has already moved "
                               "(or the rook is gone)", king=king, rook=rook), cells)
    between = chess.SquareSet(chess.between(move.from_square, rook_sq))
    blocking = [sq for sq in between if board.piece_at(sq)]
    if blocking:
        sq = blocking[0]
        words = dict(king=king, piece=piece_words(_, board.piece_at(sq), sq), square=SQUARES[sq])
        return IllegalAction(_("{king} cannot castle kingside: {piece} on {square} is in the way", **words)
                             if kingside else
                             _("{king} cannot castle queenside: {piece} on {square} is in the way", **words),
                             cells)
    if board.is_check():
        return IllegalAction(_("{king} cannot castle out of check", king=king), cells)
    step = 1 if kingside else -1
    through = move.from_square + step
    if board.is_attacked_by(not color, through):
        return IllegalAction(attacked(_, _("{king} cannot castle through check", king=king), board, not color,
                                      through), cells)
    return IllegalAction(attacked(_, _("{king} cannot castle into check", king=king), board, not color,
                                  move.to_square, move.from_square), cells)


def geometry(_, board: chess.Board, piece: chess.Piece, move: chess.Move) -> str:
    """Why a piece cannot get from one square to the other, ignoring checks."""
    df = chess.square_file(move.to_square) - chess.square_file(move.from_square)
    dr = chess.square_rank(move.to_square) - chess.square_rank(move.from_square)
    t = piece.piece_type
    if t == chess.PAWN:
        forward = 1 if piece.color == chess.WHITE else -1
        start = 1 if piece.color == chess.WHITE else 6
        if dr * forward <= 0:
            return _("a pawn only moves forward")
        if df == 0 and dr == forward:
            return _("a pawn cannot capture straight ahead and {square} is taken", square=SQUARES[move.to_square])
        if df == 0 and dr == 2 * forward:
            if chess.square_rank(move.from_square) != start:
                return _("a pawn moves two squares only from its starting square")
            return _("{square} or {other} is taken", square=SQUARES[move.from_square + 8 * forward],
                     other=SQUARES[move.to_square])
        if abs(df) == 1 and dr == forward:
            return _("a pawn moves diagonally only to capture (en passant only right after the "
                     "other pawn's two-square step)")
        return _("a pawn moves one square forward (two from its starting square) or one diagonally to capture")
    between = [sq for sq in chess.SquareSet(chess.between(move.from_square, move.to_square)) if board.piece_at(sq)]
    straight = df == 0 or dr == 0
    diagonal = abs(df) == abs(dr)
    if t == chess.KNIGHT:
        return _("a knight moves in an L, two squares one way and one to the side")
    if t == chess.KING:
        return _("a king moves one square (two only when castling)")
    shape = {chess.BISHOP: (diagonal, N_("a bishop moves only diagonally")),
             chess.ROOK: (straight, N_("a rook moves only along a rank or a file")),
             chess.QUEEN: (straight or diagonal, N_("a queen moves along a rank, a file or a diagonal"))}
    ok, rule = shape[t]
    if not ok:
        return _(rule)
    if between:
        sq = between[0]
        return _("{piece} on {square} is in the way", piece=piece_words(_, board.piece_at(sq), sq),
                 square=SQUARES[sq])
    return _(rule)


def why_san(_, board: chess.Board, t: str) -> IllegalAction:
    """A well-formed SAN that no piece can play: say which piece and why."""
    if t.upper().replace("0", "O").startswith("O-O"):
        side = chess.G1 if t.count("O") + t.count("0") == 2 else chess.C1
        king = board.king(board.turn)
        to = chess.square(chess.square_file(side), chess.square_rank(king) if king is not None else 0)
        return why(_, board, chess.Move(king, to)) if king is not None else \
            IllegalAction(_("{king} is not on the board", king=KING[seat_of(board.turn)]))
    m = re.match(r"^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])", t)
    if not m:
        return IllegalAction(_("{text!r} is not a legal move here", text=t))
    kind = {"N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN,
            "K": chess.KING}.get(m[1], chess.PAWN)
    to = chess.parse_square(m[4])
    mine = [sq for sq in board.pieces(kind, board.turn)
            if (not m[2] or chess.square_file(sq) == "abcdefgh".index(m[2]))
            and (not m[3] or chess.square_rank(sq) == int(m[3]) - 1)]
    if len(mine) == 1:
        return why(_, board, chess.Move(mine[0], to, chess.QUEEN if "=" in t else None))
    name = piece_words(_, chess.Piece(kind, board.turn), to)
    team = team_words(_, seat_of(board.turn))
    if not mine:
        return IllegalAction(_("{team} has no {piece} to move to {square}", team=team, piece=name, square=m[4]))
    return IllegalAction(_("no {piece} of {team} can move to {square}", piece=name, team=team, square=m[4]),
                         [m[4]])
