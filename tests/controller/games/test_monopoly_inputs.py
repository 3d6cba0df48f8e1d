"""What each awaited Monopoly input does (controller/games/monopoly/inputs.py): Jail's
ways out, auctions, trades, raising coins and bankruptcy."""
import pytest

from controller.games.base import IllegalAction
from monopoly_table import JAIL, LOC, B, arrange, card_index, new, owner, play, settle, spaces


def jailed(coins=30, cards=None, attempts=0):
    game, s = new()
    s = arrange(game, s, pos=[JAIL, 0, 0, 0], jail=[attempts, -1, -1, -1], coins=[coins, 30, 30, 30],
                bank=s.bank + 30 - coins, cards=[cards or [], [], [], []], need=None, agenda=[], run=True)
    return game, s


def test_jail_pay_one_coin_then_roll():
    game, s = jailed()
    assert game.prompt(s).options == ("pay", "try")
    s = play(game, s, "pay", "roll 2 1")
    assert s.coins[0] == 29 and s.pos[0] == JAIL + 3 and s.jail[0] == -1


def test_jail_card_goes_back_under_its_deck():
    i = card_index("question_block", "jail_card")
    game, s = jailed(cards=[i])
    s = arrange(game, s, decks={"question_block": [k for k in range(16) if k != i], "bowser_fury": list(range(16))})
    assert game.prompt(s).options == ("pay", "card", "try")
    s = play(game, s, "card", "roll 1 2")
    assert s.decks["question_block"][-1] == i and list(s.cards[0]) == [] and s.pos[0] == JAIL + 3 and s.coins[0] == 30


def test_jail_rolling_doubles_gets_out_without_an_extra_turn():
    game, s = jailed()
    s = play(game, s, "try", "roll 1 2")
    assert s.pos[0] == JAIL and s.jail[0] == 1 and game.prompt(s).seat == 1
    game, s = jailed(attempts=1)
    s = play(game, s, "try", "roll 2 2")
    assert s.pos[0] == JAIL + 4 and s.jail[0] == -1
    assert settle(game, s).turn == 1  # no extra turn for those doubles


def test_jail_third_failed_roll_pays_and_moves():
    game, s = jailed(attempts=2)
    s = play(game, s, "try", "roll 2 1")
    assert s.coins[0] == 29 and s.pos[0] == JAIL + 3 and s.jail[0] == -1


# --- auctions, trades, bankruptcy ----------------------------------------------------------------
def test_auction_with_several_bidders():
    game, s = new()
    a = LOC[4]
    s = play(game, arrange(game, s, pos=[a - 7, 0, 0, 0], coins=[30, 30, 30, 4], bank=s.bank + 26),
             "roll 3 4", "auction")
    p = game.prompt(s)
    assert p.seat is None and p.options == ("bid p0 1", "bid p1 1", "bid p2 1", "bid p3 1", "close")
    s = play(game, s, "bid p1 1", "bid p3 3", "bid p2 5")
    for bad, why in (("bid p1 5", "at least 6"), ("bid p3 6", "only 4 coins")):
        with pytest.raises(IllegalAction, match=why):
            game.check(s, game.parse(s, bad))
    s = play(game, s, "bid p1 8", "close")
    assert s.owner[a] == 1 and s.coins[1] == 22 and s.ledger[-1][4] == "auction"


def test_auction_with_no_bid_leaves_the_deed_with_the_bank():
    game, s = new()
    a = LOC[4]
    s = play(game, arrange(game, s, pos=[a - 7, 0, 0, 0]), "roll 3 4", "auction", "close")
    assert s.owner[a] is None and list(s.coins) == [30] * 4 and "Bank keeps" in " ".join(s.news)


def test_a_trade_offered_and_accepted_completes_a_set_for_free():
    game, s = new()
    a = LOC[4]
    b = B.partner(a)
    s = arrange(game, s, owner=owner(s, p0=[a], p2=[b]), flipped=[i == a for i in range(40)])
    with pytest.raises(IllegalAction, match="Get Out of Jail Free"):
        game.check(s, game.parse(s, f"offer p0>p2 card for s{b}"))
    s = play(game, s, f"offer p0>p2 5c for s{b}")
    p = game.prompt(s)
    assert p.kind == "choice" and p.seat == 2 and p.options == ("accept", "decline")
    with pytest.raises(IllegalAction, match="accept or decline"):
        game.check(s, game.parse(s, "roll 1 2"))
    declined = play(game, s, "decline")
    assert declined.owner[b] == 2 and game.prompt(declined).kind == "roll"
    s = play(game, s, "accept")
    assert s.owner[b] == 0 and s.coins[0] == 25 and s.coins[2] == 35 and not s.flipped[a]
    assert game.prompt(s).kind == "roll" and game.prompt(s).seat == 0


def test_raising_coins_by_selling_a_deed():
    game, s = new()
    a, rent_space = LOC[0], LOC[6]
    s = arrange(game, s, pos=[rent_space - 7, 0, 0, 0], coins=[0, 30, 30, 30], bank=s.bank + 30,
                owner=owner(s, p0=[a], p1=[rent_space]))
    s = play(game, s, "roll 3 4")
    p = game.prompt(s)
    assert p.seat == 0 and p.options == (f"sell {a}",)  # the sale covers it: no bankruptcy
    s = play(game, s, f"sell {a}")
    assert s.owner[a] is None and s.coins[0] == B.spaces[a].price - B.spaces[rent_space].rent
    assert s.coins[1] == 30 + B.spaces[rent_space].rent


def test_bankruptcy_to_a_player_hands_over_deeds_and_offers_continue():
    game, s = new()
    a, rent_space = LOC[0], LOC[8]
    i = card_index("question_block", "jail_card")
    s = arrange(game, s, pos=[rent_space - 7, 0, 0, 0], coins=[0, 30, 30, 30], bank=s.bank + 30,
                owner=owner(s, p0=[a], p1=[rent_space]), flipped=[k == a for k in range(40)], cards=[[i], [], [], []],
                decks={"question_block": [k for k in range(16) if k != i], "bowser_fury": list(range(16))})
    s = play(game, s, "roll 3 4")
    assert game.prompt(s).options == (f"sell {a}", "bankrupt")
    s = play(game, s, "bankrupt")
    assert s.out[0] and s.owner[a] == 1 and s.coins[1] == 30 and list(s.cards[1]) == [i] and s.flipped[a]
    p = game.prompt(s)
    assert p.seat == 1 and p.options == (f"continue {a}", "done")
    s = play(game, s, f"continue {a}")
    assert not s.flipped[a] and game.prompt(s).seat == 1 and game.prompt(s).kind == "roll"
    assert game._expected(s)["p0"] is None  # the token leaves the board


def test_bankruptcy_to_the_bank_returns_deeds_and_cards():
    game, s = new()
    plant, a = spaces("piranha_plant")[1], LOC[0]
    i = card_index("bowser_fury", "jail_card")
    s = arrange(game, s, pos=[plant - 7, 0, 0, 0], coins=[0, 30, 30, 30], bank=s.bank + 30,
                owner=owner(s, p0=[a]), flipped=[i2 == a for i2 in range(40)], cards=[[16 + i], [], [], []],
                decks={"question_block": list(range(16)), "bowser_fury": [k for k in range(16) if k != i]})
    s = play(game, s, "roll 3 4", "roll 6")
    assert game.prompt(s).options == (f"sell {a}", "bankrupt")
    s = play(game, s, "bankrupt")
    assert s.out[0] and s.owner[a] is None and s.flipped[a] and s.decks["bowser_fury"][-1] == i
    assert game.prompt(s).seat == 1
