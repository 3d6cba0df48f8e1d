"""Super Mario Bros. in words (controller/games/smb/words.py)."""
from smb_table import illegal, moved_once, new, play


def test_wrong_destination_is_worded():
    game, s = new(mario="w1-11")
    s = play(game, s, "roll yellow")
    why = illegal(game, s, "move w1-13")
    assert why.startswith("a yellow roll goes to the next yellow space: space 12 on the pipe top")
    assert "not space 13 (that space is red)" in why
    assert "not the nearest" in illegal(game, s, "move w1-19")
    assert "roll the die first" in illegal(game, play(game, s, "move w1-12"), "move w1-15")


def test_an_action_says_what_it_brought():
    game, s = new(mario="w1-32")
    assert game.describe(s, game.parse(s, "roll stop")) == "Player 1 rolls STOP: the turn is over"
    s = play(game, s, "roll yellow")
    assert game.describe(s, game.parse(s, "move w1-34")) == "Player 1 moves Mario to link space 34: a link to World 2"
    game, s = moved_once()
    assert game.describe(s, game.parse(s, "card 2 goomba")) == "Player 2 plays a Goomba card"
    s = play(game, s, "card 2 goomba")
    assert game.describe(s, game.parse(s, "token w1-05")) == "Player 2 puts the Goomba token on space 5"


def test_what_the_camera_sees_in_words():
    game, s = new()
    assert [game.label_words(s, k) for k in ("mario", "hazard", "empty")] == ["Mario", "the hazard token", "nothing"]
    assert game.cell_name("w1-00") == "START"
