"""Monopoly in words (controller/games/monopoly/words.py): an action says everything it set
off, every coin with its reason, in the table's language; names are the printed ones."""
from controller.games.monopoly.rules import Monopoly
from monopoly_table import LOC, arrange, new, play


def test_a_roll_says_what_it_set_off():
    game, s = new(confirm_tokens=True, bowser=True)
    assert game.describe(s, game.parse(s, "roll 3 4")) == \
        "Mario's Cap rolls 3 (black) and 4 (red): Bowser moves 3 to Kong Arena"


def test_a_purchase_names_the_coins_and_why():
    game, s = new()
    a = LOC[4]
    s = play(game, arrange(game, s, pos=[a - 7, 0, 0, 0]), "roll 3 4")
    space = game.b.spaces[a]
    text = game.describe(s, game.parse(s, "buy"))
    assert text == (
        f"Mario's Cap buys {space.name}: Mario's Cap pays the Bank {space.price} coins (buying {space.name}); "
        f"Mario's Cap takes the deed of {space.name}")


def test_bids_offers_and_token_labels_in_words():
    game, s = new()
    assert game.describe(s, game.parse(s, "offer p0>p1 s6+2c for card")).startswith(
        f"Mario's Cap offers Luigi's Flashlight {game.space_name(6)}, 2 coins for a Get Out of Jail Free card")
    assert game.label_words(s, "bowser+p1") == "Bowser and Luigi's Flashlight"
    assert game.label_words(s, "empty") == "nothing" and game.cell_name(None) == "off the board"


def test_a_players_card_and_the_words_in_french():
    game, s = new()
    assert game.snapshot(s)["seat_words"][0] == "30 coins \u00B7 on GO"
    fr = Monopoly(settings={"confirm_tokens": False, "bowser": False}, lang="fr")
    t = fr.start({})
    assert fr.describe(t, fr.parse(t, "roll 3 4")) != game.describe(s, game.parse(s, "roll 3 4"))
    assert "30" in fr.snapshot(t)["seat_words"][0] and "coins" not in fr.snapshot(t)["seat_words"][0]
