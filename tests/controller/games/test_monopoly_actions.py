"""Monopoly's inputs and their notation (controller/games/monopoly/actions.py): every kind
reads its text and writes it back the same, as the journal needs; text that is no input
is refused with what was expected."""
import pytest

from controller.games.base import NotationError
from controller.games.monopoly.actions import Bid, Choose, Items, Offer, Partner, Put, Roll, parse
from controller.i18n import translator
from monopoly_table import new

_ = translator("en")


def test_bad_inputs_are_refused_with_reasons():
    game, s = new()
    for text in ("roll 7 1", "bid 3", "sell 55", "offer p0>p1 3x for -", "put mario@3", "hello"):
        with pytest.raises(NotationError):
            game.parse(s, text)
    for text in ("roll 3 4", "buy", "bid p2 5", "partner p1", "offer p0>p2 s6+3c+card for -", "put bowser@15 p2@off"):
        assert game.notation(s, game.parse(s, text)) == text


@pytest.mark.parametrize("text,action", [
    ("roll 3 5", Roll((3, 5))), ("roll 4", Roll((4,))), ("done", Choose("done")), ("sell 6", Choose("sell", 6)),
    ("continue 39", Choose("continue", 39)), ("bid p2 12", Bid(2, 12)), ("partner p3", Partner(3)),
    ("offer p0>p2 s6+3c for s8", Offer(0, 2, Items(3, (6,)), Items(0, (8,)))),
    ("offer p1>p0 card+card for -", Offer(1, 0, Items(cards=2), Items())),
    ("put bowser@21 p0@off", Put((("bowser", 21), ("p0", None)))),
])
def test_each_kind_reads_its_text_and_writes_it_back(text, action):
    assert parse(text, _) == action and action.notation() == text
    assert parse("  " + text.upper().replace(" ", "   ") + " ", _) == action  # case and spaces as typed


def test_only_bids_and_offers_name_a_seat_out_of_turn():
    assert Bid(3, 5).by == 3 and Offer(2, 0, Items(1), Items()).by == 2
    assert [a.by for a in (Roll((1, 2)), Choose("buy"), Partner(1), Put((("p0", 3),)))] == [None] * 4


def test_refusals_quote_the_text_and_say_what_is_wrong():
    with pytest.raises(NotationError, match="space 40 is not on the board"):
        parse("continue 40", _)
    with pytest.raises(NotationError, match="'3x' is not a trade item"):
        parse("offer p0>p1 3x for -", _)
    with pytest.raises(NotationError, match="'p1@40' is not a token placement"):
        parse("put p1@40", _)
    with pytest.raises(NotationError, match="'hello' is not a Monopoly move") as err:
        parse("hello", _)
    assert "'roll B R'" in err.value.usage
    with pytest.raises(NotationError, match="n'est pas"):  # in the table's language
        parse("hello", translator("fr"))
