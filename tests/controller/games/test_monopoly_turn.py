"""How a Monopoly turn runs (controller/games/monopoly/turn.py): the movement rules, every
kind of space, both decks, Game Over deeds, Bowser and his battles, doubles, and both
endings (RULINGS.md section 5), driven through the same text inputs the referee journals.
Positions and deeds are arranged on a copy of a state, then dice decide; every step
checks that no coin was made or lost."""
import pytest

from controller.games.base import IllegalAction
from controller.games.monopoly.board import DECK_NAMES, DECKS
from controller.games.monopoly.turn import roll_result
from monopoly_table import (FREE_PARKING, GO, GO_TO_JAIL, JAIL, LOC, PIPES, B, arrange, card_index, new, owner, play,
                            settle, spaces)


def test_roll_result_doubles_triples_and_jail():
    assert roll_result(0, -1, 3, 4) == ("move", 0)
    assert roll_result(0, -1, 2, 2) == ("move", 1)
    assert roll_result(2, -1, 5, 5) == ("jail", 0)
    assert roll_result(0, 0, 1, 2) == ("stay", 0)
    assert roll_result(0, 2, 1, 2) == ("fine", 0)
    assert roll_result(0, 1, 6, 6) == ("out", 0)


# --- space types ---------------------------------------------------------------------
def test_go_pays_when_landed_on_and_when_passed():
    game, s = new()
    s = play(game, arrange(game, s, pos=[GO - 7 + 40, 0, 0, 0]), "roll 3 4")
    assert s.pos[0] == GO and s.coins[0] == 32 and s.ledger[-1][4] == "GO"
    target = LOC[0]
    game, s = new()
    s = play(game, arrange(game, s, pos=[(target - 7) % 40, 0, 0, 0]), "roll 3 4")
    assert s.pos[0] == target and s.coins[0] == 32 and game.prompt(s).options == ("buy", "auction")


def test_a_bank_that_runs_short_pays_what_it_has_and_says_so():
    game, s = new()
    s = arrange(game, s, pos=[GO - 7 + 40, 0, 0, 0], coins=[30, 30, 30, 30 + s.bank - 1], bank=1)
    s = play(game, s, "roll 3 4")
    assert s.coins[0] == 31 and s.bank == 0
    assert "the Bank has only 1 coin left: Mario's Cap gets 1 of 2" in s.news


def test_buying_an_unowned_location():
    game, s = new()
    target = LOC[4]
    s = play(game, arrange(game, s, pos=[target - 7, 0, 0, 0]), "roll 3 4")
    p = game.prompt(s)
    assert p.kind == "choice" and p.seat == 0 and p.options == ("buy", "auction")
    bank = s.bank
    s = play(game, s, "buy")
    assert s.owner[target] == 0 and s.coins[0] == 30 - B.spaces[target].price and s.bank == bank + B.spaces[target].price
    assert game.prompt(s).seat == 1  # the turn passed on


def test_a_player_who_cannot_afford_it_may_only_auction():
    game, s = new()
    target = LOC[4]
    s = play(game, arrange(game, s, pos=[target - 7, 0, 0, 0], coins=[1, 30, 30, 30 + 29],
                           bank=s.bank), "roll 3 4")
    assert game.prompt(s).options == ("auction",)
    with pytest.raises(IllegalAction, match="not open now"):
        game.check(s, game.parse(s, "buy"))


@pytest.mark.parametrize("set_owned,flipped,expected", [(False, False, 1), (True, False, 2), (False, True, 0)])
def test_rent_single_whole_set_and_game_over(set_owned, flipped, expected):
    game, s = new()
    target = LOC[4]
    pair = B.partner(target)
    own = owner(s, p1=[target] + ([pair] if set_owned else []))
    flip = [i == target and flipped for i in range(40)]
    s = play(game, arrange(game, s, pos=[target - 7, 0, 0, 0], owner=own, flipped=flip), "roll 3 4")
    rent = expected * B.spaces[target].rent
    assert s.coins[0] == 30 - rent and s.coins[1] == 30 + rent
    if flipped:
        assert "no rent" in " ".join(s.news)
    if rent:
        assert s.ledger[-1][1:5] == (0, 1, rent, "rent")


def test_piranha_plant_and_super_star_use_the_red_die():
    game, s = new()
    plant, star = spaces("piranha_plant")[1], spaces("super_star")[1]
    s = play(game, arrange(game, s, pos=[plant - 7, star - 7, 0, 0]), "roll 3 4")
    p = game.prompt(s)
    assert p.kind == "roll" and p.die == "monopoly" and "red die" in p.text
    s = play(game, s, "roll 2 5")  # only the red die counts
    assert s.coins[0] == 25 and s.ledger[-1][4] == "Piranha Plant"
    s = play(game, s, "roll 3 4", "roll 6")  # the red die alone, rolled by hand
    assert s.coins[1] == 36 and s.ledger[-1][4] == "Super Star"


def test_warp_pipe_moves_on_quietly_and_doubles_still_earn_a_turn():
    game, s = new()
    s = play(game, arrange(game, s, pos=[PIPES[1] - 6, 0, 0, 0]), "roll 3 3")
    assert s.pos[0] == PIPES[2] and game.prompt(s).seat == 0  # doubles: again
    # the last pipe warps to the first, passing GO
    game, s = new()
    s = play(game, arrange(game, s, pos=[PIPES[3] - 7, 0, 0, 0]), "roll 3 4")
    assert s.pos[0] == PIPES[0] and s.coins[0] == 32


def test_just_visiting_and_free_parking_do_nothing():
    game, s = new()
    s = play(game, arrange(game, s, pos=[JAIL - 7, FREE_PARKING - 7, 0, 0]), "roll 3 4", "roll 4 3")
    assert list(s.pos[:2]) == [JAIL, FREE_PARKING] and list(s.coins[:2]) == [30, 30] and s.jail[0] == -1
    assert game.prompt(s).seat == 2


def test_go_to_jail_ends_the_turn_even_after_doubles_and_pays_no_go():
    game, s = new()
    s = play(game, arrange(game, s, pos=[GO_TO_JAIL - 6, 0, 0, 0]), "roll 3 3")
    assert s.pos[0] == JAIL and s.jail[0] == 0 and s.coins[0] == 30
    assert game.prompt(s).seat == 1


# --- both decks ------------------------------------------------------------------------
EFFECTS = sorted({(c.deck, c.effect) for d in DECKS for c in B.cards[d]})


@pytest.mark.parametrize("deck,effect", EFFECTS)
def test_every_card_effect(deck, effect):
    bowser = effect.startswith("bowser")
    game, s = new(first=(deck, effect), bowser=bowser)
    card = B.cards[deck][card_index(deck, effect)]
    here = spaces(deck)[1]
    flip = [i == LOC[0] for i in range(40)]
    s = arrange(game, s, pos=[here - 7, 3, 3, 3], owner=owner(s, p0=[LOC[0], LOC[1]]), flipped=flip)
    bank = s.bank
    s = play(game, s, "roll 3 4")
    x = card.param
    assert f"draws {DECK_NAMES[deck]}" in " ".join(s.news)
    if effect == "collect":
        assert s.coins[0] == 30 + x
    elif effect == "pay":
        assert s.coins[0] == 30 - x and s.bank == bank + x
    elif effect == "collect_each":
        assert list(s.coins) == [30 + 3 * x] + [30 - x] * 3
    elif effect == "pay_each":
        assert list(s.coins) == [30 - 3 * x] + [30 + x] * 3
    elif effect == "pay_per_deed":
        assert s.coins[0] == 30 - 2 * x
    elif effect == "advance_to":
        assert s.pos[0] == x and s.coins[0] == 30 + (2 if x <= here else 0)
    elif effect == "advance_next":
        nxt = B.next_of(x, here)
        assert s.pos[0] == (B.next_of(x, nxt) if x == "warp_pipe" else nxt)
    elif effect == "move":
        there = (here + x) % 40
        assert s.pos[0] == (B.next_of("warp_pipe", there) if there in PIPES else there)
    elif effect == "go_to_jail":
        assert s.pos[0] == JAIL and s.jail[0] == 0
    elif effect == "jail_card":
        assert len(s.cards[0]) == 1 and len(s.decks[deck]) == 15
        s = play(game, arrange(game, s, jail=[0, -1, -1, -1], pos=[JAIL, 3, 3, 3], turn=0, need=("jail",),
                               agenda=[("end",), ("roll",)]), "card")
        assert list(s.cards[0]) == [] and s.decks[deck][-1] == card.index and s.jail[0] == -1
    elif effect == "bowser_advance":
        assert s.bowser == (B.bowser_start + 3 + x) % 40
    elif effect == "bowser_to":
        assert s.bowser == x
    elif effect == "continue_all":
        assert not s.flipped[LOC[0]]
    if effect != "jail_card":
        assert s.decks[deck][-1] == card.index  # back under the deck


def test_cards_off_means_deck_spaces_do_nothing():
    game, s = new(cards=False)
    s = play(game, arrange(game, s, pos=[spaces("bowser_fury")[1] - 7, 0, 0, 0]), "roll 3 4")
    assert s.coins[0] == 30 and len(s.decks["bowser_fury"]) == 16


# --- Game Over deeds ---------------------------------------------------------------------
def test_continue_payment_at_the_start_of_a_turn():
    game, s = new()
    a = LOC[2]
    s = arrange(game, s, owner=owner(s, p0=[a]), flipped=[i == a for i in range(40)], need=None,
                agenda=[], run=True)
    p = game.prompt(s)
    assert p.kind == "choice" and p.options == (f"continue {a}", "done")
    s2 = play(game, s, f"continue {a}")
    assert not s2.flipped[a] and s2.coins[0] == 30 - B.spaces[a].cont and game.prompt(s2).kind == "roll"
    s3 = play(game, s, "done")
    assert s3.flipped[a] and game.prompt(s3).kind == "roll"


def test_completing_a_set_turns_its_game_over_deed_for_free():
    game, s = new()
    a = LOC[2]
    b = B.partner(a)
    s = arrange(game, s, owner=owner(s, p0=[a]), flipped=[i in (a, b) for i in range(40)],
                pos=[b - 7, 0, 0, 0])
    s = play(game, s, "roll 3 4", "buy")
    assert s.owner[b] == 0 and not s.flipped[a] and not s.flipped[b]
    assert s.coins[0] == 30 - B.spaces[b].price  # no Continue cost paid
    assert "turns to Continue for free" in " ".join(s.news)


# --- Bowser -----------------------------------------------------------------------------------
def bowser_game(players=4, **fields):
    game, s = new(players=players, bowser=True, cards=False)
    return game, arrange(game, s, **fields)


def test_bowser_moves_first_and_charges_passed_players_but_not_in_jail():
    game, s = bowser_game(bowser=JAIL - 2, pos=[0, JAIL - 1, JAIL, JAIL], jail=[-1, -1, 0, -1])
    s = play(game, s, "roll 4 1")  # Bowser passes JAIL-1, JAIL, JAIL+1
    assert s.bowser == JAIL + 2
    assert list(s.coins) == [30, 29, 30, 29]  # seat 2 is in Jail, seat 3 only visiting
    assert [e[4] for e in s.ledger] == ["Bowser", "Bowser"]


def test_bowser_does_not_charge_players_on_free_parking():
    game, s = bowser_game(bowser=FREE_PARKING - 2, pos=[0, FREE_PARKING, FREE_PARKING + 1, 0])
    s = play(game, s, "roll 4 1")
    assert list(s.coins) == [30, 30, 29, 30]


def test_bowser_flips_a_location_unless_its_owner_has_the_set():
    a = LOC[3]
    game, s = bowser_game(bowser=a - 3, pos=[0] * 4)
    s = play(game, s, "roll 3 1")
    assert s.flipped[a] and "Game Over side" in " ".join(s.news)
    game, s = bowser_game(bowser=a - 3, pos=[0] * 4, owner=owner(s, p2=[a, B.partner(a)]))
    s = play(game, s, "roll 3 1")
    assert not s.flipped[a] and "owns the whole" in " ".join(s.news)


def test_bowser_lands_on_a_lone_player_who_picks_a_partner_and_wins():
    game, s = bowser_game(bowser=20 + 1, pos=[0, 24, 5, 6])
    s = play(game, s, "roll 3 1")
    p = game.prompt(s)
    assert p.kind == "choice" and p.seat == 1 and p.options == ("partner p0", "partner p2", "partner p3")
    s = play(game, s, "partner p3")
    p = game.prompt(s)
    assert p.kind == "roll" and p.seat == 1 and "Luigi's Flashlight (black) and Toad's Backpack (red)" in p.text
    s = play(game, s, "roll 5 2")
    assert list(s.coins) == [30, 32, 30, 32] and s.bowser == GO and list(s.wait) == [0, 1, 2, 3]
    assert s.pos[0] == 4  # then the mover moved on (4 spaces)


def test_a_lost_battle_sends_the_leader_to_jail_and_bowser_stays():
    game, s = bowser_game(bowser=21, pos=[0, 24, 5, 6])
    s = play(game, s, "roll 3 1", "partner p2", "roll 1 5")
    assert s.pos[1] == JAIL and s.jail[1] == 0 and s.bowser == 24 and s.coins[1] == 30


def test_the_mover_landing_on_bowser_battles_before_the_space_and_a_loss_ends_the_turn():
    a = LOC[4]
    game, s = bowser_game(bowser=a - 3, pos=[a - 6, 0, 0, 0])
    # Bowser moves 3 onto `a` (and flips it); the mover lands there too, with doubles
    s = play(game, s, "roll 3 3")
    assert game.prompt(s).options == ("partner p1", "partner p2", "partner p3")
    s = play(game, s, "partner p1", "roll 1 1")
    assert s.pos[0] == JAIL and s.owner[a] is None and game.prompt(s).seat == 1


def test_a_lone_player_battles_alone_for_two_coins():
    game, s = bowser_game(players=2, bowser=10 - 3, pos=[10 - 7, JAIL], jail=[-1, 0])
    s = play(game, s, "roll 3 4")  # Bowser to 10: the Jail token is not battled; the mover lands on him
    p = game.prompt(s)
    assert p.kind == "roll" and "alone" in p.text
    s = play(game, s, "roll 6 1")
    assert list(s.coins) == [32, 30] and s.bowser == GO


def test_bowser_on_several_players_they_roll_off_ties_roll_again():
    game, s = bowser_game(bowser=20, pos=[0, 24, 24, 24])
    s = play(game, s, "roll 4 1")
    assert game.prompt(s).seat == 1 and "to lead" in game.prompt(s).text
    s = play(game, s, "roll 3 3", "roll 4 2", "roll 1 1")  # seats 1 and 2 tie on 6
    assert [game.prompt(s).seat, "tie" in " ".join(s.news)] == [1, True]
    s = play(game, s, "roll 1 2", "roll 5 5")  # seat 2 leads and picks from the space
    p = game.prompt(s)
    assert p.seat == 2 and p.options == ("partner p1", "partner p3")
    s = play(game, s, "partner p1", "roll 2 2")
    assert s.pos[2] == JAIL and s.pos[1] == 24


def test_mover_lands_on_bowser_and_the_others_there_roll_to_join():
    game, s = bowser_game(bowser=12, pos=[6, 13, 13, 0])
    s = play(game, s, "roll 1 6")  # Bowser 12 -> 13 battles Luigi and Peach first
    s = play(game, s, "roll 2 2", "roll 1 1", "roll 4 3")  # Luigi leads with Peach, wins: Bowser to GO
    assert s.bowser == GO
    game, s = bowser_game(bowser=13, pos=[6, 13, 13, 0], jail=[-1, -1, -1, -1])
    s = arrange(game, s, wait=[0, 1, 2, 3])  # a waiting Bowser does not move
    s = play(game, s, "roll 3 4")  # the mover lands on Bowser's space among two players
    p = game.prompt(s)
    assert p.seat == 1 and "to join" in p.text
    s = play(game, s, "roll 1 1", "roll 3 3", "roll 6 6")
    assert s.coins[0] == 32 and s.coins[2] == 32 and s.coins[1] == 30


def test_bowser_waits_on_go_until_every_player_has_had_one_more_turn():
    game, s = bowser_game(bowser=21, pos=[6, 24, 5, 6])
    s = settle(game, play(game, s, "roll 3 1", "partner p2", "roll 6 1"))  # won in seat 0's turn
    assert s.bowser == GO and game.prompt(s).seat == 1
    # seats 1, 2, 3 and 0 each take a turn: Bowser stays on GO
    for roll in ("roll 1 2", "roll 2 1", "roll 1 3", "roll 2 1"):
        s = settle(game, play(game, s, roll))
        assert s.bowser == GO
    assert list(s.wait) == [] and game.prompt(s).seat == 1
    s = play(game, s, "roll 3 1")
    assert s.bowser == 3



# --- doubles and Jail -----------------------------------------------------------------------
def test_doubles_give_another_turn_and_the_third_doubles_go_to_jail_without_bowser():
    game, s = bowser_game(bowser=1, pos=[JAIL + 1, 0, 0, 0])
    s = settle(game, play(game, s, "roll 1 1"))
    assert game.prompt(s).seat == 0 and s.doubles == 1
    s = settle(game, play(game, s, "roll 2 2"))
    assert game.prompt(s).seat == 0 and s.doubles == 2
    where, bowser = s.pos[0], s.bowser
    s = play(game, s, "roll 3 3")
    assert s.pos[0] == JAIL and s.jail[0] == 0 and s.bowser == bowser and where != JAIL
    assert game.prompt(s).seat == 1


# --- endings --------------------------------------------------------------------------------
def test_the_last_player_with_coins_wins():
    game, s = new(players=2)
    rent_space = LOC[7]
    s = arrange(game, s, pos=[rent_space - 7, 0], coins=[0, 30], bank=s.bank + 30, owner=owner(s, p1=[rent_space]))
    s = play(game, s, "roll 3 4", "bankrupt")
    o = game.outcome(s)
    assert o.winner == 1 and o.winner_name == "Luigi's Flashlight" and "last player" in o.reason
    with pytest.raises(IllegalAction, match="game is over"):
        game.check(s, game.parse(s, "roll 1 2"))


def test_bowser_wins_when_all_sixteen_deeds_are_game_over():
    last = LOC[4]
    game, s = bowser_game(bowser=last - 2, pos=[0] * 4,
                          flipped=[i in B.locations and i != last for i in range(40)])
    s = play(game, s, "roll 2 5")
    o = game.outcome(s)
    assert o.winner is None and o.winner_name == "Bowser" and "all 16" in o.reason
