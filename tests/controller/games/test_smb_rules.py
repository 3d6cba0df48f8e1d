"""Super Mario Bros. board game (controller/games/smb/rules.py): every sentence of the rule
text on setting up, moving Mario, coins, cards, lives, King Bowser and who plays a card,
and every ruling of RULINGS section 4, on the bundled stand-in Worlds (their space ids
are quoted here)."""
from dataclasses import replace

import pytest

from controller.games.smb.rules import SuperMarioBros
from controller.games.smb.state import UNKNOWN
from smb_table import illegal, new, play
from support import deck_with


# --- game setup --------------------------------------------------------------------
def test_setup_mario_on_world1_start_three_cards_each_rest_is_drawpile():
    game, s = new(players=3)
    assert s.world == 1 and s.mario == "w1-00"
    assert game.board(s)["w1-00"] == "mario"
    assert [len(h) for h in s.hands] == [3, 3, 3] and len(s.pile) == 36 - 9
    assert s.coins == (0, 0, 0) and s.tokens == ()


def test_setup_rejects_wrong_player_counts_and_decks():
    game = SuperMarioBros()
    with pytest.raises(ValueError, match="players must be 2 to 4"):
        game.start({"players": 5})
    with pytest.raises(ValueError, match="36 cards of the mix"):
        game.start({"players": 2, "deck": ["goomba"] * 36})
    with pytest.raises(ValueError, match="no setting"):
        SuperMarioBros(settings={"colour": 1})


def test_new_setup_is_a_shuffled_mix_from_the_given_rng():
    import random
    game = SuperMarioBros(settings={"players": 4})
    a, b = game.new_setup(random.Random(1)), game.new_setup(random.Random(1))
    assert a == b and a["players"] == 4
    assert sorted(a["deck"]) == sorted(game.worlds.deck()) and a["deck"] != game.worlds.deck()


def test_youngest_first_then_clockwise_and_round_again():
    game, s = new(players=3)
    assert game.prompt(s).seat == 0 and game.prompt(s).kind == "roll" and game.prompt(s).die == "smb"
    s = play(game, s, "roll stop")
    assert s.turn == 1
    s = play(game, s, "roll stop", "roll stop")
    assert s.turn == 0


# --- moving Mario ------------------------------------------------------------------
def test_red_goes_to_the_next_red_space_then_rolls_again():
    game, s = new()
    s = play(game, s, "roll red")
    assert game.prompt(s).kind == "move" and s.targets == ("w1-01",)
    s = play(game, s, "move w1-01")
    assert s.mario == "w1-01" and s.turn == 0 and game.prompt(s).kind == "roll"


def test_yellow_skips_red_spaces_to_the_next_yellow():
    game, s = new()
    s = play(game, s, "roll yellow", "move w1-02")
    assert s.mario == "w1-02" and s.turn == 0


def test_stop_does_not_move_mario_and_ends_the_turn():
    game, s = new()
    s = play(game, s, "roll red", "move w1-01", "roll stop")
    assert s.mario == "w1-01" and s.turn == 1 and game.prompt(s).kind == "roll"


def test_several_nearest_red_spaces_ground_and_pipe_are_a_choice():
    # Figure 3: from w1-03 the red ground w1-05 and the red pipe top w1-04 are both next
    game, s = new(mario="w1-03")
    s = play(game, s, "roll red")
    p = game.prompt(s)
    assert p.kind == "choice" and p.options == ("move w1-04", "move w1-05")
    assert play(game, s, "move w1-04").mario == "w1-04"


def test_red_yellow_roll_offers_the_ground_and_the_pipe_top():
    # from w1-11 the pipe top w1-12 is yellow and the ground w1-13 red
    game, s = new(mario="w1-11")
    s = play(game, s, "roll red/yellow")
    assert {"move w1-12", "move w1-13"} <= set(game.prompt(s).options)
    assert play(game, s, "move w1-12").mario == "w1-12"
    assert play(game, s, "move w1-13").mario == "w1-13"


def test_a_block_cannot_be_walked_through():
    # w1-07 lies under block b1 and w1-08 on top of it: no roll goes from one to the other
    game, s = new(mario="w1-07")
    for face in ("red", "yellow", "red/yellow"):
        assert "w1-08" not in play(game, s, f"roll {face}").targets
    s = play(game, s, "roll yellow")
    assert s.targets == ("w1-10",)


# --- moving to the next World ------------------------------------------------------
def test_a_link_space_moves_mario_to_the_next_world_and_the_turn_goes_on():
    game, s = new(mario="w1-32")
    s = play(game, s, "roll yellow", "move w1-34")
    assert s.phase == "link" and game.prompt(s).kind == "move" and "World 2" in game.prompt(s).text
    assert "START space of World 2" in illegal(game, s, "move w2-03")
    s = play(game, s, "move w2-00")
    assert s.world == 2 and s.mario == "w2-00" and s.turn == 0 and game.prompt(s).kind == "roll"
    s = play(game, s, "roll yellow", "move w2-01")
    assert s.mario == "w2-01"


def test_tokens_left_on_a_finished_world_go_back_to_the_pile():
    game, s = new(mario="w1-32", tokens=(("w1-20", "goomba"),))
    s = play(game, s, "roll red", "move w1-33", "move w2-00")
    assert s.tokens == ()


# --- coins -------------------------------------------------------------------------
@pytest.mark.parametrize("start,roll,space,coins", [
    ("w1-09", "yellow", "w1-10", 4),   # mushroom
    ("w1-15", "yellow", "w1-16", 2),   # coins inside (under a coin block)
    ("w1-02", "red", "w1-03", 1),      # a coin on top
    ("w1-01", "yellow", "w1-02", 0),
])
def test_coins_are_paid_on_landing(start, roll, space, coins):
    game, s = new(mario=start, coins=(5, 0))
    s = play(game, s, f"roll {roll}", f"move {space}")
    assert s.coins == (5 + coins, 0)


def test_there_is_no_limit_to_coins():
    game, s = new(mario="w1-09", coins=(400, 0))
    assert play(game, s, "roll yellow", "move w1-10").coins[0] == 404


# --- cards -------------------------------------------------------------------------
def test_stopping_under_a_question_block_draws_the_top_card():
    game, s = new(mario="w1-06", top=["koopa"])
    s = play(game, s, "roll red", "move w1-07")
    assert s.hands[0][-1] == "koopa" and len(s.hands[0]) == 4 and len(s.pile) == 36 - 6 - 1
    assert "draws a card" in s.note


def test_an_empty_drawpile_is_the_shuffled_discards_and_replays_the_same():
    game, s = new(mario="w1-06")
    s = replace(s, pile=(), discard=("goomba", "koopa", "piranha", "fireball"))
    after = play(game, s, "roll red", "move w1-07")
    assert after.reshuffles == 1 and after.discard == ()
    assert sorted(after.pile + after.hands[0][-1:]) == ["fireball", "goomba", "koopa", "piranha"]
    assert play(game, s, "roll red", "move w1-07") == after  # pure: same input, same order
    other = play(game, replace(s, seed=8), "roll red", "move w1-07")
    assert sorted(other.pile + other.hands[0][-1:]) == sorted(after.pile + after.hands[0][-1:])


def test_no_card_when_drawpile_and_discards_are_empty():
    game, s = new(mario="w1-06", pile=(), discard=())
    s = play(game, s, "roll red", "move w1-07")
    assert len(s.hands[0]) == 3 and "no card left" in s.note


def test_physical_deck_keeps_counts_and_checks_the_mix():
    game = SuperMarioBros()
    s = game.start({"players": 2, "deck": None})
    assert s.hands == ((UNKNOWN,) * 3,) * 2 and len(s.pile) == 30
    s = play(game, replace(s, mario="w1-06", turn=0), "roll red", "move w1-07")
    assert len(s.hands[0]) == 4
    s = play(game, s, "card 2 goomba", "token w1-20")
    assert s.discard == ("goomba",) and len(s.hands[1]) == 2
    s = replace(s, discard=("goomba",) * 5, played=())
    assert "holds no Goomba card" in illegal(game, s, "card 2 goomba")


# --- hazard tokens on the path -------------------------------------------------
def test_landing_on_a_hazard_loses_a_life_returns_the_token_and_pays_nothing():
    # a token on the mushroom space w1-10: no coins there
    game, s = new(mario="w1-09", tokens=(("w1-10", "goomba"),), coins=(1, 0))
    s = play(game, s, "roll yellow", "move w1-10")
    assert s.mario == "w1-10" and s.tokens == () and s.coins == (1, 0)
    assert s.turn == 1 and s.lives_lost == (1, 0) and "a life is lost" in s.note


def test_a_token_under_a_question_block_gives_no_card():
    game, s = new(mario="w1-06", tokens=(("w1-07", "koopa"),))
    s = play(game, s, "roll red", "move w1-07")
    assert len(s.hands[0]) == 3 and s.turn == 1


def test_passing_over_a_token_returns_it_and_the_turn_goes_on():
    game, s = new(mario="w1-03", tokens=(("w1-05", "goomba"), ("w1-20", "koopa")))
    s = play(game, s, "roll yellow", "move w1-06")
    assert s.tokens == (("w1-20", "koopa"),) and s.turn == 0 and "jumped over" in s.note


# --- losing a life and extra lives -------------------------------------------------
@pytest.mark.parametrize("world,start,roll,space", [
    (2, "w2-01", "red", "w2-02"),   # water
    (3, "w3-01", "yellow", "w3-02"),  # water
    (4, "w4-01", "red", "w4-02"),   # fire bar
])
def test_water_and_fire_bars_lose_a_life_and_mario_stays(world, start, roll, space):
    game, s = new(world=world, mario=start)
    s = play(game, s, f"roll {roll}", f"move {space}")
    assert s.mario == space and s.turn == 1 and s.lives_lost == (1, 0)
    s = play(game, s, "roll red")  # the next player starts on that space
    assert s.turn == 1 and all(t > space for t in s.targets)


def test_extra_lives_bought_twice_in_one_turn():
    game, s = new(coins=(9, 0))
    s = play(game, s, "roll stop")
    p = game.prompt(s)
    assert p.kind == "choice" and p.options == ("buy", "pass") and s.turn == 0
    s = play(game, s, "buy", "roll stop", "buy")
    assert s.coins == (1, 0) and s.turn == 0 and game.prompt(s).kind == "roll"
    s = play(game, s, "roll stop")  # 1 coin left: no offer, the turn passes
    assert s.turn == 1


def test_an_extra_life_after_a_lost_life_continues_from_where_mario_landed():
    game, s = new(world=2, mario="w2-01", coins=(4, 0))
    s = play(game, s, "roll red", "move w2-02")
    assert s.phase == "extra" and s.turn == 0
    s = play(game, s, "buy", "roll red", "move w2-03")
    assert s.mario == "w2-03" and s.coins == (0, 0)


def test_pass_ends_the_turn_and_buy_needs_four_coins():
    game, s = new(coins=(4, 0))
    s = play(game, s, "roll stop")
    assert play(game, s, "pass").turn == 1
    assert "costs 4" in illegal(game, replace(s, coins=(3, 0)), "buy")
    assert "only after a STOP" in illegal(game, new()[1], "buy")


# --- King Bowser and the Princess --------------------------------------------------
def test_jumping_over_king_bowser_onto_the_princess_wins():
    game, s = new(world=4, mario="w4-23")
    s = play(game, s, "roll yellow", "move w4-25")
    out = game.outcome(s)
    assert out.winner == 0 and "Princess" in out.reason and game.prompt(s).seat is None
    assert "game is over" in illegal(game, s, "roll red")


def test_king_bowser_phase_with_a_stop_and_a_coin_bought_reroll():
    game, s = new(players=3, world=4, mario="w4-23", coins=(0, 4, 0))
    s = play(game, s, "roll red", "move w4-24")
    assert s.bowser and s.lives_lost == (1, 0, 0) and s.turn == 1
    s = play(game, s, "roll stop")
    assert s.phase == "extra" and s.turn == 1
    s = play(game, s, "buy", "roll yellow")
    assert s.targets == ("w4-25",) and "onto the Princess" in illegal(game, s, "move w4-23")
    s = play(game, s, "move w4-25")
    assert game.outcome(s).winner == 1


def test_king_bowser_phase_red_ends_the_turn_and_red_yellow_wins():
    game, s = new(players=3, world=4, mario="w4-24", bowser=True)
    s = play(game, s, "roll red")
    assert s.turn == 1 and s.mario == "w4-24"
    s = play(game, s, "roll red/yellow", "move w4-25")
    assert game.outcome(s).winner == 1


def test_king_bowser_red_roll_setting_rolls_again():
    game, s = new(world=4, mario="w4-24", bowser=True, settings={"bowser_red": "rolls_again"})
    s = play(game, s, "roll red")
    assert s.turn == 0 and game.prompt(s).kind == "roll"
    assert any(r.key == "bowser_red" and r.value == "rolls_again" for r in game.rulings())


# --- who plays a card ------------------------------------------------------------
def test_an_opponent_plays_a_hazard_card_from_their_own_phone_and_nobody_else_can():
    """Through the referee, as the page sends it: the sender's seat is checked against
    who performs the action (Game.actor), not against whose turn it is."""
    from controller.journal import Journal
    from controller.referee import Referee

    referee = Referee(Journal(":memory:"))
    deck = deck_with([["fireball"], ["goomba", "blooper", "koopa"], ["goomba", "hammer_bro", "piranha"]])
    referee.new_game("smb", settings={"players": 3}, setup={"players": 3, "deck": deck, "seed": 7})
    referee.enter("roll red", source="die")
    target = referee.state.targets[0]
    assert referee.enter(f"move {target}", seat=0).kind == "move"
    refused = referee.enter("card 2 goomba", seat=2)  # seat 3 cannot play seat 2's card
    assert refused.kind == "illegal" and refused.data["reason"] == "it is Player 2's turn, not Player 3's"
    played = referee.enter("card 2 goomba", seat=1)
    assert played.kind == "move" and played.data["seat"] == 1
