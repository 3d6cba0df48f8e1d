"""Monopoly's state value (controller/games/monopoly/state.py): a state the referee keeps
can never change under it; the rules change a draft and freeze it into the next."""
import pytest

from monopoly_table import new


def test_a_state_is_frozen_and_its_lists_and_maps_are_read_only():
    game, s = new()
    with pytest.raises(AttributeError, match="frozen"):
        s.turn = 2
    with pytest.raises(TypeError):
        s.coins[0] = 99
    with pytest.raises(TypeError):
        s.decks["question_block"] = ()
    with pytest.raises(TypeError):
        s.cards[0] += (1,)  # a tuple per seat: the seat's tuple itself cannot grow in place
    assert isinstance(s.coins, tuple) and isinstance(s.cards[0], tuple)


def test_a_draft_changes_in_place_and_freezes_into_a_new_state():
    game, s = new()
    d = s.draft()
    d.coins[0] -= 5
    d.cards[1].append(3)
    d.decks["bowser_fury"].pop(0)
    after = d.freeze()
    assert after.coins[0] == s.coins[0] - 5 and after.cards[1] == (3,) and len(after.decks["bowser_fury"]) == 15
    assert s.coins[0] == 30 and s.cards[1] == () and len(s.decks["bowser_fury"]) == 16  # the original is as it was
    again = s.draft().freeze()
    assert all(getattr(again, f) == getattr(s, f) for f in type(s).__slots__)
