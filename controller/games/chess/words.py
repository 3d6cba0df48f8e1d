"""How chess is said: each action as it is recorded and shown ("Yoshi moves from g1 to
f3"), and a recorded move as the voice says it at the table ("Yoshi, knight, f3"). Every
text is a catalogue message in the table's language (`_`, the game's translator), and
pieces are named by the Mario cast (controller/games/chess/cast.py)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

import chess

from .actions import AcceptDraw, ClaimDraw, Flag, OfferDraw, Resign
from .cast import KIND, KING, piece_words, seat_of, team_words
from .state import SQUARES, ChessState

if TYPE_CHECKING:
    from .rules import Chess

# a move in SAN, as the journal records it (castling, or piece, from, capture, square, promotion)
SAN = re.compile(r"(?:(?P<castle>O-O(?:-O)?)|(?P<piece>[KQRBN])?[a-h]?[1-8]?(?P<takes>x)?(?P<to>[a-h][1-8])"
                 r"(?:=(?P<promo>[QRBN]))?)(?P<end>[+#])?")


def describe(game: Chess, state: ChessState, action) -> str:
    """What an action does, as it is recorded and said: "Yoshi moves from g1 to f3",
    "Toad moves from a1 to a8 and captures Goomba: Bowser is in check"."""
    _ = game._
    board = state.board
    if isinstance(action, chess.Move):
        piece = board.piece_at(action.from_square)
        who = piece_words(_, piece, action.from_square)
        frm, to = SQUARES[action.from_square], SQUARES[action.to_square]
        if board.is_castling(action):
            text = _("{who} castles kingside", who=who) if board.is_kingside_castling(action) \
                else _("{who} castles queenside", who=who)
        else:
            victim_sq = action.to_square
            if board.is_en_passant(action):
                victim_sq = chess.square(chess.square_file(action.to_square), chess.square_rank(action.from_square))
            victim = board.piece_at(victim_sq)
            if not victim:
                text = _("{who} moves from {frm} to {to}", who=who, frm=frm, to=to)
            elif board.is_en_passant(action):
                text = _("{who} moves from {frm} to {to} and captures {victim} en passant", who=who,
                         frm=frm, to=to, victim=piece_words(_, victim, victim_sq))
            else:
                text = _("{who} moves from {frm} to {to} and captures {victim}", who=who, frm=frm, to=to,
                         victim=piece_words(_, victim, victim_sq))
        if action.promotion:
            new = chess.Piece(action.promotion, piece.color)
            text += ", " + _("promoted to {piece}", piece=piece_words(_, new, action.to_square))
        after = board.copy(stack=False)
        after.push(action)
        if after.is_checkmate():
            text = _("{move}: {king} is checkmated", move=text, king=KING[seat_of(after.turn)])
        elif after.is_check():
            text = _("{move}: {king} is in check", move=text, king=KING[seat_of(after.turn)])
        return text
    if isinstance(action, Resign):
        return _("{who} resigns", who=team_words(_, action.seat))
    if isinstance(action, OfferDraw):
        return _("{who} offers a draw", who=team_words(_, action.seat))
    if isinstance(action, AcceptDraw):
        return _("the players agree a draw") if action.seat is None else \
            _("{who} accepts the draw", who=team_words(_, action.seat))
    if isinstance(action, ClaimDraw):
        return _("{who} claims a draw", who=team_words(_, seat_of(board.turn)))
    if isinstance(action, Flag):
        return game.flag_fall(state, action.seat).reason
    sq = game.last_promotion(state).to_square
    return _("the piece promoted on {square} becomes {piece}", square=SQUARES[sq],
             piece=piece_words(_, chess.Piece(action.piece, board.piece_at(sq).color), sq))


def spoken(_, move: dict) -> str | None:
    """A recorded move as people say it at the table ("Yoshi, knight, takes e5,
    check"), from its SAN and its seat: the Mario name, the piece, the square; None
    when the record is not a move in SAN (the game then says its words)."""
    san, seat = move.get("notation", ""), move.get("seat")
    found = SAN.fullmatch(san)
    if seat not in (0, 1) or found is None:
        return None
    color = chess.WHITE if seat == 0 else chess.BLACK
    end = found["end"] or ""
    tail = [_("checkmate")] if end == "#" else [_("check")] if end == "+" else []
    if found["castle"]:
        who = KING[seat]
        said = _("{who}, castles queenside", who=who) if found["castle"].count("O") == 3 \
            else _("{who}, castles kingside", who=who)
        return ", ".join([said, *tail])
    kind = chess.PIECE_SYMBOLS.index((found["piece"] or "p").lower())
    square = chess.parse_square(found["to"])
    words = [piece_words(_, chess.Piece(kind, color), square), _(KIND[kind])]
    words.append(_("takes {square}", square=found["to"]) if found["takes"] else found["to"])
    if found["promo"]:
        new = chess.Piece(chess.PIECE_SYMBOLS.index(found["promo"].lower()), color)
        words.append(_("becomes {piece}", piece=piece_words(_, new, square)))
    return ", ".join(words + tail)
