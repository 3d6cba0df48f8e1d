"""What a chess player does besides moving a piece, as small values that write themselves
in the text notation (a move is python-chess's own `Move`), and the parser of that
notation. The notation is what the journal records, so it never depends on the table's
language.

Text notation:
- a move in UCI (``e2e4``, ``e7e8q``; ``e7e8`` promotes to a queen) or SAN (``Nf3``,
  ``exd5``, ``O-O``, ``e8=Q``);
- ``resign`` (the player to move resigns), ``resign red`` / ``resign green``;
- ``offer draw`` (from the player to move; ``offer draw red|green`` names the side), then
  ``accept draw`` from the other side; an offer lapses when the other side moves instead;
  ``draw agreed`` ends the game at once (both players at once: the admin's or the CLI's,
  never one player's phone);
- ``claim draw``: threefold repetition or the 50-move rule, only while claimable;
- ``flag red`` / ``flag green``: that side's time ran out (the referee's clock enters it,
  controller/clock.py; an arbiter may type it for a game on a clock of its own);
- ``promote q|r|b|n``: right after a promotion, before the next move, changes the new
  piece (the camera sees colours only, so a promotion is a queen unless a player picks
  another piece on the page).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import chess

from ..base import IllegalAction, NotationError
from .cast import COLOUR, seat_of
from .illegal import why_san
from .state import ChessState

if TYPE_CHECKING:
    from .rules import Chess

SIDES = {"red": 0, "white": 0, "mario": 0, "green": 1, "black": 1, "bowser": 1}
PROMOTION = {"q": chess.QUEEN, "r": chess.ROOK, "b": chess.BISHOP, "n": chess.KNIGHT,
             "queen": chess.QUEEN, "rook": chess.ROOK, "bishop": chess.BISHOP, "knight": chess.KNIGHT}


@dataclass(frozen=True)
class Resign:
    seat: int

    def notation(self) -> str:
        return f"resign {COLOUR[self.seat]}"


@dataclass(frozen=True)
class OfferDraw:
    seat: int

    def notation(self) -> str:
        return f"offer draw {COLOUR[self.seat]}"


@dataclass(frozen=True)
class AcceptDraw:
    seat: int | None = None  # None: "draw agreed", both at once

    def notation(self) -> str:
        return "draw agreed" if self.seat is None else f"accept draw {COLOUR[self.seat]}"


@dataclass(frozen=True)
class ClaimDraw:
    def notation(self) -> str:
        return "claim draw"


@dataclass(frozen=True)
class Flag:
    seat: int  # whose time ran out

    def notation(self) -> str:
        return f"flag {COLOUR[self.seat]}"


@dataclass(frozen=True)
class Promote:
    piece: int  # chess.QUEEN, ROOK, BISHOP or KNIGHT

    def notation(self) -> str:
        return f"promote {chess.piece_symbol(self.piece)}"


def notation(state: ChessState, action) -> str:
    """A move in SAN (from the position it is made in), anything else as it writes itself."""
    return state.san(action) if isinstance(action, chess.Move) else action.notation()


def said_by(text: str, seat: int) -> str:
    """A bare "resign" or "offer draw" from a phone is that side's: either side may
    resign or offer a draw at any time, not only the side to move."""
    t = " ".join(text.strip().split()).lower()
    return f"{t} {COLOUR[seat]}" if t in ("resign", "offer draw") and 0 <= seat < len(COLOUR) else text


_UCI = re.compile(r"^([a-h][1-8])([a-h][1-8])([qrbnkp]?)$")
_SIDE = r"(?:\s+(red|green|white|black|mario|bowser))?"



def parse(game: Chess, state: ChessState, text: str):
    """The action `text` writes (a python-chess Move, or one of the values above), or
    NotationError saying why not in the table's language; a well-formed move no piece
    can make is an IllegalAction saying why (controller/games/chess/illegal.py)."""
    _ = game._
    t = " ".join(text.strip().split())
    low = t.lower()
    turn = seat_of(state.board.turn)
    if m := re.fullmatch(r"resign" + _SIDE, low):
        return Resign(SIDES[m[1]] if m[1] else turn)
    if m := re.fullmatch(r"offer draw" + _SIDE, low):
        return OfferDraw(SIDES[m[1]] if m[1] else turn)
    if m := re.fullmatch(r"accept draw" + _SIDE, low):
        if m[1]:
            return AcceptDraw(SIDES[m[1]])
        return AcceptDraw(1 - state.draw_offer if state.draw_offer is not None else 1 - turn)
    if low == "draw agreed":
        return AcceptDraw(None)
    if low == "claim draw":
        return ClaimDraw()
    if m := re.fullmatch(r"flag" + _SIDE, low):
        return Flag(SIDES[m[1]] if m[1] else turn)
    if m := re.fullmatch(r"promote\s+(\w+)", low):
        if m[1] not in PROMOTION:
            raise NotationError(_("{text!r}: a pawn is promoted to q (queen), r (rook), b (bishop) "
                                  "or n (knight)", text=t))
        return Promote(PROMOTION[m[1]])
    if m := _UCI.match(low):
        if m[3] in ("k", "p"):
            raise NotationError(_("{text!r}: a pawn is promoted to q, r, b or n, never to a king", text=t)
                                if m[3] == "k" else
                                _("{text!r}: a pawn is promoted to q, r, b or n, never to a pawn", text=t))
        if m[1] == m[2]:  # python-chess raises InvalidMoveError for a null move
            raise NotationError(_("{text!r}: a move goes from one square to another, not to "
                                  "the square it starts on", text=t))
        move = chess.Move.from_uci(low)
        piece = state.board.piece_at(move.from_square)
        if (not move.promotion and piece and piece.piece_type == chess.PAWN
                and chess.square_rank(move.to_square) in (0, 7)):
            move.promotion = PROMOTION[game.setting("default_promotion")]
        return move
    return _parse_san(game, state, t)


def _parse_san(game: Chess, state: ChessState, t: str) -> chess.Move:
    """A move in SAN, by python-chess; a pawn's promotion written without its piece is
    the default piece, as the camera takes it."""
    _ = game._
    board = state.board
    if m := re.fullmatch(r"([a-h](?:x[a-h])?[18])([+#]?)", t):  # a promotion without its piece
        t = f"{m[1]}={game.setting('default_promotion').upper()}{m[2]}"
    try:
        return board.parse_san(t)
    except chess.AmbiguousMoveError:
        raise NotationError(_("{text!r} is ambiguous: more than one piece can make it; add the "
                              "file or rank it starts from (Nbd2) or use UCI (b1d2)", text=t)) from None
    except chess.InvalidMoveError:
        raise NotationError(_("{text!r} is not a chess move", text=t),
                            _("expected UCI (e2e4, e7e8q), SAN (Nf3, O-O), 'resign', 'offer draw', "
                              "'accept draw', 'draw agreed', 'claim draw', 'flag red|green' or "
                              "'promote q|r|b|n'")) from None
    except chess.IllegalMoveError:
        over = game.outcome(state)
        raise (IllegalAction(_("the game is over: {reason}", reason=over.reason)) if over
               else why_san(_, board, t)) from None
