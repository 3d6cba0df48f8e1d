"""Whether a Monopoly input may be entered now (controller/games/monopoly/legality.py):
only what the turn waits for, bids that top the last, trades the two players can make,
tokens where the rules put them; each refusal says why."""
import pytest

from controller.games.base import IllegalAction
from monopoly_table import LOC, arrange, new, owner, play


def refused(game, s, text) -> IllegalAction:
    with pytest.raises(IllegalAction) as err:
        game.check(s, game.parse(s, text))
    return err.value


def test_an_input_out_of_its_time_is_refused():
    game, s = new()
    assert "not the time" in refused(game, s, "buy").reason
    assert "both dice" in refused(game, s, "roll 3").reason
    game.check(s, game.parse(s, "roll 3 4"))  # what the turn waits for passes


def test_trades_are_between_two_players_with_what_they_have():
    game, s = new()
    a = LOC[2]
    s = arrange(game, s, owner=owner(s, p1=[a]))
    assert "two different players" in refused(game, s, "offer p0>p0 1c for -").reason
    assert "an empty trade" == refused(game, s, "offer p0>p1 - for -").reason
    assert "only 30 coins" in refused(game, s, "offer p0>p1 31c for -").reason
    err = refused(game, s, f"offer p0>p1 s{a} for -")
    assert "does not own" in err.reason and err.cells == (a,)
    game.check(s, game.parse(s, f"offer p0>p1 3c for s{a}"))
    s = play(game, arrange(game, s, pos=[LOC[4] - 7, 0, 0, 0]), "roll 3 4")  # a purchase waits
    assert game.prompt(s).options == ("buy", "auction")
    assert "between rolls" in refused(game, s, f"offer p0>p1 3c for s{a}").reason


def test_tokens_must_go_where_the_rules_put_them():
    game, s = new(confirm_tokens=True)
    s = play(game, arrange(game, s, pos=[0, 0, 0, 0]), "roll 3 4")
    assert game.prompt(s).kind == "move"
    err = refused(game, s, "put p0@8")
    assert "should be on" in err.reason and err.cells == (8,)
    assert "no token p7" in refused(game, s, "put p7@7").reason
    assert "waiting for the tokens" in refused(game, s, "buy").reason
    game.check(s, game.parse(s, "put p0@7"))
