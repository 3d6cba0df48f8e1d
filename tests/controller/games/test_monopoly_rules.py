"""The Monopoly game's settings, rulings and setup (controller/games/monopoly/rules.py)."""
import pytest

from controller.games.monopoly.rules import Monopoly
from monopoly_table import JAIL, arrange, new, play, settle


def test_rulings_that_are_settings():
    # a lone winner may be paid as two players
    game, s = new(players=2, bowser=True, cards=False, solo_battle_reward=4)
    s = arrange(game, s, bowser=10 - 3, pos=[10 - 7, JAIL], jail=[-1, 0])
    s = play(game, s, "roll 3 4", "roll 6 1")
    assert list(s.coins) == [34, 30]
    # the other reading of "every player completes their next turn": the mover's own next
    # turn is not waited for
    game, s = new(bowser=True, cards=False, bowser_waits_for_mover=False)
    s = arrange(game, s, bowser=21, pos=[6, 24, 5, 6])
    s = settle(game, play(game, s, "roll 3 1", "partner p2", "roll 6 1"))
    for roll in ("roll 1 2", "roll 2 1", "roll 1 3"):
        s = settle(game, play(game, s, roll))
    assert list(s.wait) == [] and game.prompt(s).seat == 0
    s = play(game, s, "roll 2 1")
    assert s.bowser == 2
    # doubles out of Jail with another turn
    game, s = new(jail_doubles_extra_turn=True)
    s = arrange(game, s, pos=[JAIL, 0, 0, 0], jail=[0, -1, -1, -1], need=None, agenda=[], run=True)
    s = settle(game, play(game, s, "try", "roll 2 2"))
    assert s.turn == 0 and game.prompt(s).kind == "roll"
    names = {r.key: r.value for r in game.rulings()}
    assert names["jail_doubles_extra_turn"] is True and names["solo_battle_reward"] == 2
    with pytest.raises(ValueError, match="solo_battle_reward is 2 or 4"):
        Monopoly(settings={"solo_battle_reward": 3})



def test_setup_and_settings_errors_name_the_problem():
    with pytest.raises(ValueError, match="players must be 2 to 6"):
        Monopoly(settings={"players": 7}).start({})
    with pytest.raises(ValueError, match="decks.question_block"):
        Monopoly().start({"decks": {"question_block": [1, 1], "bowser_fury": list(range(16))}})
