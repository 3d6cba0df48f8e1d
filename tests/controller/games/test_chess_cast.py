"""The Mario cast of the chess set (controller/games/chess/cast.py): each piece's name,
by side and, for red's bishops, by square colour; said in the table's language."""
import chess

from controller.games.chess.cast import piece_name, piece_words, pronoun, seat_of, team_words
from controller.i18n import translator


def test_each_piece_has_its_mario_name_and_red_plays_white():
    names = {(t, c): piece_name(chess.Piece(t, c)) for t in chess.PIECE_TYPES for c in chess.COLORS}
    assert names[(chess.KING, chess.WHITE)] == "Mario" and names[(chess.KING, chess.BLACK)] == "Bowser"
    assert names[(chess.QUEEN, chess.BLACK)] == "Bowser Jr." and names[(chess.KNIGHT, chess.BLACK)] == "Birdo"
    assert names[(chess.PAWN, chess.WHITE)] == "Coin" and names[(chess.ROOK, chess.BLACK)] == "Goomba"
    assert seat_of(chess.WHITE) == 0 and seat_of(chess.BLACK) == 1


def test_red_s_bishops_are_peach_on_dark_squares_and_daisy_on_light_ones():
    bishop = chess.Piece(chess.BISHOP, chess.WHITE)
    assert piece_name(bishop, chess.C1) == "Peach" and piece_name(bishop, chess.F1) == "Daisy"
    assert piece_name(bishop, chess.B5) == "Daisy" and piece_name(bishop) == "Peach"
    assert piece_name(chess.Piece(chess.BISHOP, chess.BLACK), chess.F8) == "Magikoopa"
    assert [pronoun(n) for n in ("Peach", "Coin", "Mario")] == ["her", "it", "him"]


def test_names_are_said_in_the_table_s_language():
    shell = chess.Piece(chess.PAWN, chess.BLACK)
    assert piece_words(translator(), shell) == "Green Shell"
    assert piece_words(translator("fr"), shell) == "Carapace verte"
    assert team_words(translator(), 0) == "Mario's team" and team_words(translator("fr"), 0) != "Mario's team"
