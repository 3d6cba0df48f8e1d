"""Die definitions, rolls and `referee roll`: the faces each game's die must have, fair
rolls (chi-square on 60,000 seeded rolls per die), and the notation the games parse."""
import json
import random
from collections import Counter

import pytest

from controller.cli import main
from controller.devices import dice

# chi-square critical values at p = 0.001 (tables): a fair die fails 1 time in 1000
CRITICAL_0_001 = {3: 16.266, 5: 20.515, 35: 66.619}


def chi_square(counts: Counter, expected: dict) -> float:
    n = sum(counts.values())
    return sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in expected.items())


def test_smb_die_has_the_faces_the_rulings_give():
    (colour,) = dice.die_set("smb").dice
    assert sorted(f.label for f in colour.faces) == ["red", "red", "red/yellow", "stop", "yellow", "yellow"]


def test_monopoly_is_a_black_and_a_red_six_sided_die_black_first():
    black, red = dice.die_set("monopoly").dice
    assert (black.name, red.name) == ("black", "red")
    assert [f.label for f in black.faces] == [str(n) for n in range(1, 7)] == [f.label for f in red.faces]


def smb_expected():
    return {"roll red": 2 / 6, "roll yellow": 2 / 6, "roll red/yellow": 1 / 6, "roll stop": 1 / 6}


def monopoly_expected():
    return {f"roll {b} {r}": 1 / 36 for b in range(1, 7) for r in range(1, 7)}


def red_expected():
    return {f"roll {r}": 1 / 6 for r in range(1, 7)}


@pytest.mark.parametrize("die,expected,df", [("smb", smb_expected(), 3), ("monopoly", monopoly_expected(), 35),
                                             ("monopoly-red", red_expected(), 5)])
def test_60000_seeded_rolls_pass_chi_square(die, expected, df):
    rng = random.Random(2026)
    counts = Counter(dice.roll(die, rng).notation for _ in range(60_000))
    assert set(counts) == set(expected)
    assert chi_square(counts, expected) < CRITICAL_0_001[df]


class Loaded(random.Random):
    """A die that lands on its first face 5% more often than it should."""

    def choice(self, seq):
        return seq[0] if self.random() < 0.05 else super().choice(seq)


@pytest.mark.parametrize("die,expected,df", [("smb", smb_expected(), 3), ("monopoly", monopoly_expected(), 35)])
def test_the_same_check_catches_a_loaded_die(die, expected, df):
    rng = Loaded(2026)
    counts = Counter(dice.roll(die, rng).notation for _ in range(60_000))
    assert chi_square(counts, expected) > CRITICAL_0_001[df]


def test_unseeded_rolls_come_from_the_operating_system(monkeypatch):
    drawn = []

    class Spy(random.SystemRandom):
        def choice(self, seq):
            drawn.append(seq)
            return super().choice(seq)

    monkeypatch.setattr(dice.random, "SystemRandom", Spy)
    assert dice.roll("monopoly").notation.startswith("roll ")
    assert len(drawn) == 2


def test_notation_round_trips_and_bad_notation_says_what_is_wrong():
    assert dice.parse("monopoly", "roll 3 5").notation == "roll 3 5"
    assert dice.parse("smb", "roll red/yellow").codes == bytes((18,))
    with pytest.raises(ValueError, match="'7' is not a face of the black die"):
        dice.parse("monopoly", "roll 7 1")
    with pytest.raises(ValueError, match="expected 'roll <black> <red>'"):
        dice.parse("monopoly", "roll 3")
    with pytest.raises(ValueError, match="unknown die 'ludo'"):
        dice.roll("ludo")


def test_referee_roll_prints_n_json_rolls_repeatably_with_a_seed(capsys):
    assert main(["roll", "--die", "monopoly", "-n", "5", "--json", "--seed", "7"]) == 0
    first = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert main(["roll", "--die", "monopoly", "-n", "5", "--json", "--seed", "7"]) == 0
    second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first == second and len(first) == 5
    for r in first:
        b, red = r["faces"]
        assert r["notation"] == f"roll {b} {red}" and r["die"] == "monopoly"


def test_referee_roll_rejects_an_unknown_die_and_a_bad_count(capsys):
    assert main(["roll", "--die", "ludo"]) == 2
    assert "unknown die 'ludo'" in capsys.readouterr().err
    assert main(["roll", "--die", "smb", "-n", "0"]) == 2
    assert "-n is 0" in capsys.readouterr().err
