"""The Super Mario Bros. inputs and their notation (controller/games/smb/actions.py): every
verb reads its text and writes it back the same, as the journal needs; text that is no
input is refused with what was expected."""
import pytest

from controller.games.base import NotationError
from controller.games.smb.actions import Buy, Card, Fireball, Move, Pass, Roll, Token, parse
from controller.games.smb.rules import SuperMarioBros
from smb_table import moved_once, new


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


@pytest.mark.parametrize("text,action", [
    ("roll red/yellow", Roll("red/yellow")), ("roll stop", Roll("stop")), ("move w1-04", Move("w1-04")),
    ("buy", Buy()), ("pass", Pass()), ("card 2 bullet_bill", Card(1, "bullet_bill")),
    ("token w1-09", Token("w1-09")), ("fireball w1-09", Fireball("w1-09")),
])
def test_each_verb_reads_its_text_and_writes_it_back(text, action):
    game, s = new(players=3)
    assert parse(text, game._, game.worlds, 3) == action and action.notation() == text
    assert parse("card 2 bullet bill", game._, game.worlds, 3) == Card(1, "bullet_bill")  # as printed


def test_only_a_hazard_card_names_a_seat_out_of_turn():
    assert Card(2, "goomba").by == 2
    assert [a.by for a in (Roll("red"), Move("w1-01"), Buy(), Pass(), Token("w1-05"), Fireball("w1-05"))] == [None] * 6
    assert Buy() != Pass() and Move("w1-05") != Token("w1-05")  # same fields, other inputs


def test_refusals_say_what_is_wrong_in_the_tables_language():
    game, s = new()
    with pytest.raises(NotationError, match="seats are 1-2"):
        parse("card 3 goomba", game._, game.worlds, 2)
    with pytest.raises(NotationError, match="'pass' takes nothing after it"):
        parse("pass w1-01", game._, game.worlds, 2)
    with pytest.raises(NotationError, match="'w9-99' is not a space") as err:
        parse("token w9-99", game._, game.worlds, 2)
    assert err.value.usage == ""
    with pytest.raises(NotationError, match="is not a Super Mario Bros. move") as err:
        parse("jump", game._, game.worlds, 2)
    assert "'fireball <space>'" in err.value.usage
    fr = SuperMarioBros(lang="fr")
    with pytest.raises(NotationError) as err:
        parse("jump", fr._, fr.worlds, 2)
    assert "is not" not in str(err.value) and "'jump'" in str(err.value)
