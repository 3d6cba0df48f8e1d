"""What a Monopoly game waits for and the choices open (controller/games/monopoly/prompts.py):
the page's buttons and the voice's words come from these alone."""
from monopoly_table import LOC, arrange, new, owner, play


def test_a_turn_starts_with_the_pair_of_dice_then_asks_for_the_tokens():
    game, s = new(confirm_tokens=True, bowser=True)
    p = game.prompt(s)
    assert (p.kind, p.seat, p.die) == ("roll", 0, "monopoly") and "black moves Bowser first" in p.text
    p = game.prompt(play(game, s, "roll 3 4"))
    assert (p.kind, p.seat, p.text) == ("move", 0, "Mario's Cap: put Bowser on Kong Arena")


def test_a_trade_offer_waits_for_the_other_side_only():
    game, s = new()
    s = play(game, s, "offer p0>p2 5c for -")
    p = game.prompt(s)
    assert (p.kind, p.seat, p.options) == ("choice", 2, ("accept", "decline")) and "accept or decline?" in p.text


def test_the_buy_choice_names_the_price_and_drops_what_the_player_cannot_afford():
    game, s = new()
    a = LOC[4]
    s = play(game, arrange(game, s, pos=[a - 7, 0, 0, 0]), "roll 3 4")
    p = game.prompt(s)
    assert p.options == ("buy", "auction") and f"for {game.b.spaces[a].price} coins" in p.text


def test_a_debt_offers_bankruptcy_only_when_selling_cannot_pay():
    game, s = new()
    a, rent_space = LOC[0], LOC[6]
    s = arrange(game, s, pos=[rent_space - 7, 0, 0, 0], coins=[0, 30, 30, 30], bank=s.bank + 30,
                owner=owner(s, p0=[a], p1=[rent_space]))
    p = game.prompt(play(game, s, "roll 3 4"))
    assert p.seat == 0 and p.options == (f"sell {a}",) and p.text.endswith("sell deeds to the Bank")


def test_after_the_game_nothing_is_awaited():
    game, s = new(players=2)
    s = arrange(game, s, pos=[LOC[7] - 7, 0], coins=[0, 30], bank=s.bank + 30, owner=owner(s, p1=[LOC[7]]))
    s = play(game, s, "roll 3 4", "bankrupt")
    p = game.prompt(s)
    assert (p.kind, p.seat, p.options) == ("move", None, ()) and p.text.startswith("Game over: ")
    assert game.options(s) == ()
