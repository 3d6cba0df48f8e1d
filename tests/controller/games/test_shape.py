"""The shape of a game's setup and settings (controller/games/shape.py), checked before
the game reads them: a value of the declared shape passes, anything else is one
ValueError naming where, the key within, what was there and what was expected, so a
`--setup` file or a `--setting` with a typo says what to fix instead of a traceback.
Each game's own declared shapes through its loader: the games' tests."""
import re

import pytest

from controller.games.shape import Each, OneOf, check, describe

SETUP = {"players": int, "decks": Each([int]), "fen": str, "time": float, "mode": OneOf(("on", "off", True)),
         "rows": [str], "at": (int, str)}


@pytest.mark.parametrize("value", [
    {}, {"players": 3}, {"decks": {"chance": [3, 1, 2], "bowser": []}}, {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"},
    {"time": 2}, {"time": 2.5}, {"mode": "off"}, {"mode": True}, {"rows": ["ab", "cd"]}, {"at": 4}, {"at": "d4"},
    {"players": None, "fen": None},  # null counts as absent
])
def test_a_value_of_the_declared_shape_passes(value):
    check(value, SETUP, "monopoly setup")


@pytest.mark.parametrize("value, words", [
    ([1, 2], "monopoly setup is a list [1, 2]; expected an object"),
    ("fen", "monopoly setup is text 'fen'; expected an object"),
    ({"colour": "red"}, "monopoly setup has no key 'colour'; expected one of players, decks, fen, time, mode, rows, at"),
    ({"players": True}, "monopoly setup 'players' is true/false True; expected a whole number"),  # a bool is no number
    ({"players": 2.0}, "monopoly setup 'players' is a number 2.0; expected a whole number"),
    ({"players": "3"}, "monopoly setup 'players' is text '3'; expected a whole number"),
    ({"time": False}, "monopoly setup 'time' is true/false False; expected a number"),
    ({"fen": 5}, "monopoly setup 'fen' is a whole number 5; expected text"),
    ({"fen": ["x" * 40]}, "monopoly setup 'fen' is a list; expected text"),  # a long value is not shown
    ({"decks": {"chance": [1, "two"]}}, "monopoly setup 'decks' 'chance' item 2 is text 'two'; expected a whole number"),
    ({"decks": {"chance": 3}}, "monopoly setup 'decks' 'chance' is a whole number 3; expected a list of a whole number"),
    ({"decks": [1]}, "monopoly setup 'decks' is a list [1]; expected an object"),
    ({"mode": "yes"}, "monopoly setup 'mode' is text 'yes'; expected one of 'on', 'off', true"),
    ({"mode": 1}, "monopoly setup 'mode' is a whole number 1; expected one of 'on', 'off', true"),  # 1 == True, not it
    ({"rows": "abc"}, "monopoly setup 'rows' is text 'abc'; expected a list of text"),
    ({"at": 4.5}, "monopoly setup 'at' is a number 4.5; expected a whole number or text"),
])
def test_anything_else_is_named_with_where_what_and_what_was_expected(value, words):
    with pytest.raises(ValueError, match=f"^{re.escape(words)}$"):
        check(value, SETUP, "monopoly setup")


def test_settings_name_their_keys_as_settings():
    shape = {"players": int, "bowser": OneOf(("on", "off"))}
    with pytest.raises(ValueError, match=r"^monopoly has no setting 'bowsr'; expected one of players, bowser$"):
        check({"bowsr": "on"}, shape, "monopoly", "setting")
    with pytest.raises(ValueError, match=r"^monopoly setting 'bowser' is text 'maybe'; expected one of 'on', 'off'$"):
        check({"bowser": "maybe"}, shape, "monopoly", "setting")
    with pytest.raises(ValueError, match=r"^chess has no setting 'clock'; it takes none$"):
        check({"clock": "3+2"}, {}, "chess", "setting")


def test_a_value_is_described_by_its_kind_and_shown_when_short():
    assert str(describe(None)) == "null" and str(describe(False)) == "true/false False"
    assert str(describe({"a": 1})) == "an object {'a': 1}" and str(describe("x" * 40)) == "text"
    assert str(describe((1, 2))) == "tuple (1, 2)"


def test_a_setup_s_shape_error_is_worded_in_the_listener_s_language():
    """Issue 30: quoted inside a translated sentence (a --setup file, the page's position),
    the place, the value's kind and what was expected are in the same language."""
    from controller.games import load_game
    from controller.i18n import said, translator

    with pytest.raises(ValueError) as caught:
        load_game("chess").checked_setup({"fen": 5})
    assert str(caught.value) == "chess setup 'fen' is a whole number 5; expected text"
    assert said(caught.value, translator("fr")) == "position de départ chess 'fen' vaut un nombre entier 5 ; attendu du texte"
    with pytest.raises(ValueError) as caught:
        check({"players": [1, "x"]}, {"players": [int]}, "smb", "setting")
    assert said(caught.value, translator("de")) == "smb-Einstellung 'players' Eintrag 2 ist Text 'x'; erwartet eine ganze Zahl"
