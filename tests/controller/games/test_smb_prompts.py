"""What a Super Mario Bros. game waits for, in words (controller/games/smb/prompts.py)."""
from smb_table import moved_once, new, play


def test_the_roll_says_what_else_may_be_played_first():
    game, s = moved_once()
    p = game.prompt(s)
    assert (p.kind, p.seat, p.die) == ("roll", 0, "smb")
    assert p.text == "Player 1: roll the die; opponents may play a hazard card"
    game, s = new(hands=[["fireball"]], tokens=(("w1-05", "goomba"),))
    assert game.prompt(s).text == "Player 1: roll the die; a Fireball may be played first"


def test_a_token_is_awaited_from_the_seat_that_played_its_card():
    game, s = moved_once()
    p = game.prompt(play(game, s, "card 2 goomba"))
    assert (p.kind, p.seat, p.text) == ("move", 1, "Player 2: put the Goomba token on a red or yellow space")


def test_a_move_names_its_spaces_and_several_are_a_choice():
    game, s = new(mario="w1-32")
    p = game.prompt(play(game, s, "roll yellow"))
    assert (p.kind, p.text) == ("move", "Player 1: move Mario to the next yellow space: link space 34")
    game, s = new(mario="w1-11")
    p = game.prompt(play(game, s, "roll red/yellow"))
    assert p.kind == "choice" and p.options == tuple(f"move {t}" for t in play(game, s, "roll red/yellow").targets)


def test_an_extra_life_is_offered_with_the_coins_counted():
    game, s = new(coins=(5, 0))
    p = game.prompt(play(game, s, "roll stop"))
    assert (p.kind, p.options) == ("choice", ("buy", "pass"))
    assert p.text == "Player 1: buy an extra life for 4 coins (you have 5 coins) and roll again?"
