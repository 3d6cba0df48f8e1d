"""Super Mario Bros. board game: every sentence of the rule text and every ruling of
RULINGS section 4, on the bundled stand-in Worlds (their space ids are quoted here)."""
from dataclasses import replace

import pytest

from controller.games.base import IllegalAction, NotationError
from controller.games.smb.rules import SuperMarioBros
from controller.games.smb.state import UNKNOWN
from support import deck_with


def new(players=2, hands=(), top=(), settings=None, **changes):
    game = SuperMarioBros(settings={"players": players, **(settings or {})})
    state = game.start({"players": players, "deck": deck_with(hands, top, players), "seed": 7})
    return game, replace(state, **changes)


def play(game, state, *texts):
    for text in texts:
        state = game.play(state, game.parse(state, text))
    return state


def illegal(game, state, text) -> str:
    with pytest.raises(IllegalAction) as err:
        game.play(state, game.parse(state, text))
    return err.value.reason


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


def test_wrong_destination_is_worded():
    game, s = new(mario="w1-11")
    s = play(game, s, "roll yellow")
    why = illegal(game, s, "move w1-13")
    assert why.startswith("a yellow roll goes to the next yellow space: space 12 on the pipe top")
    assert "not space 13 (that space is red)" in why
    assert "not the nearest" in illegal(game, s, "move w1-19")
    assert "roll the die first" in illegal(game, play(game, s, "move w1-12"), "move w1-15")


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


def test_snapshot_shows_counts_to_all_and_a_hand_only_to_its_owner():
    game, s = new(hands=[["goomba", "koopa", "fireball"]])
    snap = game.snapshot(s, viewer=None)
    assert snap["cards"] == {"Player 1": 3, "Player 2": 3} and snap["hand"] is None
    assert game.snapshot(s, viewer=0)["hand"] == ["Goomba", "Koopa", "Fireball"]  # as printed


# --- playing hazard cards ----------------------------------------------------------
def moved_once(players=3, **kw):
    """Seat 0 has rolled and moved once (to w1-01); seats 1 and 2 hold hazards."""
    game, s = new(players=players, hands=[["fireball"], ["goomba", "blooper", "koopa"],
                                          ["goomba", "hammer_bro", "piranha"]], **kw)
    s = play(game, s, "roll red")
    return game, play(game, s, f"move {s.targets[0]}")


def test_hazard_cards_wait_until_the_player_has_rolled_and_moved():
    game, s = new(players=3, hands=[[], ["goomba"]])
    assert "rolled the die and moved at least once" in illegal(game, s, "card 2 goomba")
    game, s = moved_once()
    s = play(game, s, "card 2 goomba")
    assert s.phase == "token" and game.prompt(s).seat == 1 and s.discard == ("goomba",)
    s = play(game, s, "token w1-05")
    assert s.tokens == (("w1-05", "goomba"),) and game.board(s)["w1-05"] == "hazard"


def test_one_card_per_player_per_roll_but_several_players_may_play():
    game, s = moved_once()
    s = play(game, s, "card 2 goomba", "token w1-05")
    assert "one card per player per roll" in illegal(game, s, "card 2 koopa")
    s = play(game, s, "card 3 goomba", "token w1-06")
    assert len(s.tokens) == 2
    s = play(game, s, "roll red", "move w1-03")  # passes w1-02 only
    assert play(game, s, "card 2 koopa", "token w1-09").token_at("w1-09") == "koopa"


def test_no_hazard_card_on_ones_own_turn():
    game, s = moved_once()
    s = replace(s, hands=(("goomba",),) + s.hands[1:])
    assert "own turn" in illegal(game, s, "card 1 goomba")


@pytest.mark.parametrize("space,why", [
    ("w1-01", "the space Mario is on"),
    ("w1-00", "a link space or a start space"),
    ("w1-33", "a link space or a start space"),
    ("w1-05", "already has a hazard token"),
    ("w2-03", "on World 2; the token goes on the World 1 board"),
])
def test_hazard_token_placement_restrictions(space, why):
    game, s = moved_once(tokens=(("w1-05", "koopa"),))
    s = play(game, s, "card 2 goomba")
    assert why in illegal(game, s, f"token {space}")


def test_no_token_on_the_princess_or_king_bowser():
    game, s = moved_once(world=4, mario="w4-20")
    s = play(game, s, "card 3 hammer_bro")
    for space in ("w4-24", "w4-25"):
        assert "Princess space or the King Bowser space" in illegal(game, s, f"token {space}")
    assert play(game, s, "token w4-23").token_at("w4-23") == "hammer_bro"


def test_world_only_hazards_only_on_their_world():
    game, s = moved_once()
    assert "only on the World 3 board" in illegal(game, s, "card 2 blooper")
    assert "only on the World 4 board" in illegal(game, s, "card 3 hammer_bro")
    game, s = moved_once(world=3, mario="w3-00")
    assert play(game, s, "card 2 blooper").pending == (1, "blooper")


def test_a_hazard_needs_a_matching_token_left():
    tokens = (("w1-10", "goomba"), ("w1-11", "goomba"), ("w1-12", "goomba"))
    game, s = moved_once(tokens=tokens)
    assert "all Goomba tokens" in illegal(game, s, "card 2 goomba")


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


# --- Fireball ----------------------------------------------------------------------
def test_fireball_before_a_roll_removes_the_chosen_token():
    game, s = new(hands=[["fireball", "fireball"]], tokens=(("w1-05", "goomba"), ("w1-09", "koopa")))
    s = play(game, s, "fireball w1-09")
    assert s.tokens == (("w1-05", "goomba"),) and s.discard == ("fireball",)
    assert "one Fireball per die roll" in illegal(game, s, "fireball w1-05")
    s = play(game, s, "roll red")
    assert "before rolling" in illegal(game, s, "fireball w1-05")
    s = play(game, s, "move w1-01", "fireball w1-05")  # a second one, on the next roll
    assert s.tokens == ()


def test_fireball_needs_a_token_and_the_card_and_not_king_bowser():
    game, s = new(hands=[["fireball"], ["koopa"]], tokens=(("w1-05", "goomba"),))
    assert "no hazard token on" in illegal(game, s, "fireball w1-06")
    assert "no effect on the King Bowser" in illegal(game, replace(s, world=4, mario="w4-20"), "fireball w4-24")
    assert "holds no Fireball" in illegal(game, replace(s, turn=1), "fireball w1-05")


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


def test_no_hazard_cards_in_the_king_bowser_phase():
    game, s = new(world=4, mario="w4-24", bowser=True, moved=True, hands=[[], ["goomba"]])
    assert "between rolls, not now" in illegal(game, s, "card 2 goomba")


# --- notation ----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["roll blue", "move", "move w9-99", "card 9 goomba", "card 2 fireball",
                                  "card 2 bowser", "jump", "buy now"])
def test_bad_notation_says_what_is_expected(text):
    game, s = new()
    with pytest.raises(NotationError):
        game.parse(s, text)


def test_notation_round_trips():
    game, s = moved_once()
    for text in ["roll red/yellow", "card 2 goomba", "fireball w1-05", "pass", "buy"]:
        assert game.notation(s, game.parse(s, text)) == text
    assert game.parse(s, "  ROLL   Red ") == game.parse(s, "roll red")


# --- the camera's words for a board that no action explains -------------------------
def seen(game, s, **labels):
    board = game.board(s)
    board.update({k.replace("_", "-"): v for k, v in labels.items()})
    return game.explain(s, board)


def test_a_token_taken_away_for_no_reason_and_a_missing_mario():
    game, s = new(tokens=(("w1-05", "goomba"),))
    assert "only passing over it or a Fireball" in seen(game, s, w1_05="empty").reason
    assert seen(game, s, w1_00="empty").reason == "Mario is missing from START"


def test_mario_on_his_roll_target_is_not_blamed_for_something_else_on_the_board():
    """Issue 28 #5: Mario put rightly on space 2 after a red roll, while the camera sees
    something on START, was refused "a red roll goes to the next red space: space 2, not
    space 2": the wrong thing is on START, and the words say so."""
    game, s = new()
    s = play(game, s, "roll red")
    target = s.targets[0]
    reason = seen(game, s, w1_00="hazard", **{target.replace("-", "_"): "mario"}).reason
    assert "not space" not in reason and "START" in reason, reason


def test_a_token_the_fireball_or_a_jump_sent_back_must_leave_the_board():
    game, s = new(hands=[["fireball"]], tokens=(("w1-05", "goomba"), ("w1-09", "koopa")))
    s = play(game, s, "fireball w1-09")
    assert seen(game, s, w1_09="hazard").reason == "the hazard token on space 9 went back to the pile: take it off the board"
    s = play(game, replace(s, mario="w1-03"), "roll yellow", "move w1-06")  # typed on the page
    assert s.returned == ("w1-05",)
    assert "space 5 went back to the pile" in seen(game, s, w1_05="hazard").reason
    s = play(game, s, "roll red")
    assert s.returned == ()


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
