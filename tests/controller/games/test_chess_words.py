"""How chess is said (controller/games/chess/words.py): each action as it is recorded, and
a recorded move as the voice says it, in the table's language."""
import chess

from controller.games import load_game
from controller.games.chess.actions import AcceptDraw, Flag, Resign
from controller.games.chess.words import describe, spoken
from controller.i18n import translator


def test_a_move_is_said_with_what_it_captures_promotes_and_checks():
    game = load_game("chess")
    promoting = game.start({"fen": "k7/3P4/8/8/8/8/8/4K2R w K - 0 1"})
    assert describe(game, promoting, chess.Move.from_uci("d7d8q")) == (
        "Coin moves from d7 to d8, promoted to Luigi: Bowser is in check")
    assert describe(game, promoting, chess.Move.from_uci("e1g1")) == "Mario castles kingside"
    passing = game.start({"fen": "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"})
    assert describe(game, passing, chess.Move.from_uci("e5d6")) == (
        "Coin moves from e5 to d6 and captures Green Shell en passant")


def test_the_page_s_results_are_said_by_side():
    game = load_game("chess")
    state = game.start()
    assert describe(game, state, Resign(1)) == "Bowser's team resigns"
    assert describe(game, state, AcceptDraw(None)) == "the players agree a draw"
    assert describe(game, state, Flag(0)) == "Mario's team's flag fell: Bowser's team wins on time"
    assert describe(load_game("chess", lang="de"), state, Resign(1)) != "Bowser's team resigns"


def test_a_recorded_move_is_spoken_as_players_say_it():
    assert spoken(translator(), {"notation": "exd8=N+", "seat": 0}) == "Coin, pawn, takes d8, becomes Yoshi, check"
    assert spoken(translator("de"), {"notation": "O-O-O#", "seat": 1}) == "Bowser, rochiert lang, schachmatt"
    assert spoken(translator(), {"notation": "resign red", "seat": 0}) is None  # not a move: the game's words
