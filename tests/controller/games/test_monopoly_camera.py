"""The camera's side of Monopoly (controller/games/monopoly/camera.py): what each space
should show, which placements may explain a view, and in words how to put a wrong board
right."""
from controller.games.monopoly.actions import Put
from monopoly_table import new, play


def rolled():
    """Bowser is to go from Free Parking (20) to Kong Arena (23); every token is on GO (no
    cards: Mario's Cap then stops on Bowser's Fury 1 and the turn passes)."""
    game, s = new(confirm_tokens=True, bowser=True, cards=False)
    return game, play(game, s, "roll 3 4")


def test_each_space_shows_the_tokens_standing_there():
    game, s = rolled()
    board = game.board(s)
    assert len(board) == 40 and board[0] == "p0+p1+p2+p3" and board[20] == "bowser" and board[23] == "empty"


def test_only_placements_the_prompt_asks_for_are_observable():
    game, s = rolled()
    assert list(game.observable_actions(s)) == [Put((("bowser", 23),))]
    s = play(game, s, "put bowser@23")
    assert list(game.observable_actions(s)) == [Put((("p0", 7),))]  # then the player's own token
    s = play(game, game.play(s, Put((("p0", 7),))))
    assert game.prompt(s).kind == "roll" and list(game.observable_actions(s)) == []


def test_a_token_on_the_wrong_space_is_put_right_in_words():
    game, s = rolled()
    seen = {**game.board(s), 0: "p1+p2+p3", 5: "p0"}
    err = game.explain(s, seen)
    assert err.reason == "Mario's Cap should be on GO, not on Warp Pipe 1" and err.cells == (5,)
    assert game.fix(s, {**game.board(s), 0: "p1+p2+p3", 20: "bowser+p0"}) == \
        "move Mario's Cap from Free Parking back to GO"
    assert game.fix(s, {**game.board(s), 20: "empty"}) == "put Bowser back on Free Parking"
    assert game.fix(s, game.board(s)) == "put the board back as it was"


def test_a_token_nowhere_to_be_seen_is_missed():
    game, s = rolled()
    err = game.explain(s, {**game.board(s), 20: "empty"})
    assert "Bowser should be on Kong Arena, but the camera does not see it there" == err.reason
