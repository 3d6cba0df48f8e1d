"""Whether a Super Mario Bros. input may be entered now (controller/games/smb/legality.py):
hazard cards and their tokens ("Playing your cards"), Fireballs, and every legal input."""
from dataclasses import replace

import pytest

from smb_table import illegal, moved_once, new, play


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


def test_no_hazard_cards_in_the_king_bowser_phase():
    game, s = new(world=4, mario="w4-24", bowser=True, moved=True, hands=[[], ["goomba"]])
    assert "between rolls, not now" in illegal(game, s, "card 2 goomba")


def test_every_legal_input_before_a_roll():
    game, s = moved_once()
    assert [a.notation() for a in game.legal_actions(s)] == [
        "roll red", "roll yellow", "roll red/yellow", "roll stop",
        "card 2 goomba", "card 2 koopa", "card 3 goomba", "card 3 piranha"]
    s = play(game, s, "card 2 goomba")
    assert all(a.notation().startswith("token ") for a in game.legal_actions(s))
    assert "token w1-01" not in [a.notation() for a in game.legal_actions(s)]  # Mario's space
