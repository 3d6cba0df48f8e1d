"""The Super Mario Bros. state value (controller/games/smb/state.py)."""
from dataclasses import FrozenInstanceError, fields

import pytest

from controller.games.smb.state import evolve
from smb_table import new


def test_evolve_is_a_new_state_with_the_changes_and_the_original_stays():
    game, s = new(tokens=(("w1-05", "goomba"),))
    after = evolve(s, mario="w1-04", coins=(3, 0))
    assert (after.mario, after.coins, s.mario, s.coins) == ("w1-04", (3, 0), "w1-00", (0, 0))
    assert all(getattr(after, f.name) == getattr(s, f.name) for f in fields(s) if f.name not in ("mario", "coins"))
    assert after.token_at("w1-05") == "goomba" and after.token_at("w1-04") is None and after.players == 2
    with pytest.raises(FrozenInstanceError):
        after.mario = "w1-01"
