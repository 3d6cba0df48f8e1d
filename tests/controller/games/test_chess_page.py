"""What the status page shows of a chess game (controller/games/chess/page.py)."""
from controller.games import load_game
from controller.games.chess.page import snapshot


def test_the_page_gets_the_position_the_record_and_what_may_be_claimed():
    game = load_game("chess")
    state = game.start({"fen": "4k3/P7/8/8/8/8/8/4K3 w - - 0 40"})
    state = game.play(state, game.parse(state, "a8"))
    state = game.play(state, game.parse(state, "offer draw green"))
    snap = snapshot(game, state)
    assert snap["rows"] == ["Q3k3", "8", "8", "8", "8", "8", "8", "4K3"] and snap["check"] is True
    assert snap["turn"] == 1 and snap["last_move"] == "a7a8q" and snap["moves"] == ["a7a8q"]
    assert snap["promotion_square"] == "a8" and snap["draw_offer"] == "Bowser's team"
    assert snap["first_move"] == [40, "white"] and snap["claimable"] is None
