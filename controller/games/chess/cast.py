"""The Mario cast of the chess set: which character each piece is, and each side's
name. Every message of the game names pieces this way ("Yoshi", "Bowser Jr."), in the
table's language (`_`, the game's translator: the names are catalogue messages too).

Seat 0 is Mario's team (red pieces), which moves first and so plays White everywhere
(FEN, PGN); seat 1 is Bowser's team (green pieces)."""
from __future__ import annotations

import chess

from ...i18n import N_

# the printed names, said in the table's language (self._): each is a catalogue message
TEAM = (N_("Mario's team"), N_("Bowser's team"))
KING = ("Mario", "Bowser")
COLOUR = (N_("red"), N_("green"))
# the pieces as chess players name them, said after the Mario name ("Yoshi, knight, e5")
KIND = {chess.PAWN: N_("pawn"), chess.KNIGHT: N_("knight"), chess.BISHOP: N_("bishop"),
        chess.ROOK: N_("rook"), chess.QUEEN: N_("queen"), chess.KING: N_("king")}


def seat_of(color: bool) -> int:
    """Red (seat 0) plays White."""
    return 0 if color == chess.WHITE else 1


def piece_name(piece: chess.Piece, square: int | None = None) -> str:
    """The Mario name of a piece. Red's bishops are Peach (the dark-squared one, from c1)
    and Daisy (light squares, from f1); a bishop never changes square colour."""
    seat = seat_of(piece.color)
    t = piece.piece_type
    if t == chess.BISHOP and seat == 0:
        dark = square is None or bool(chess.BB_DARK_SQUARES & chess.BB_SQUARES[square])
        return "Peach" if dark else "Daisy"
    return {chess.KING: KING, chess.QUEEN: ("Luigi", "Bowser Jr."), chess.BISHOP: ("", "Magikoopa"),
            chess.KNIGHT: ("Yoshi", "Birdo"), chess.ROOK: ("Toad", "Goomba"),
            chess.PAWN: (N_("Coin"), N_("Green Shell"))}[t][seat]


def pronoun(name: str) -> str:
    return "her" if name in ("Peach", "Daisy", "Birdo") else "it" if name in ("Coin", "Green Shell") else "him"


def piece_words(_, piece: chess.Piece, square: int | None = None) -> str:
    """A piece's Mario name in the table's language."""
    return _(piece_name(piece, square))


def team_words(_, seat: int) -> str:
    """A side's name in the table's language ("Mario's team")."""
    return _(TEAM[seat])
