"""The Super Mario Bros. game behind the referee: `referee play`, a game resumed from
its journal after a kill, and whole simulated games without a rule error."""
import json
import random
import subprocess
import sys
from argparse import Namespace

import pytest

from controller.journal import Journal
from controller.referee import Referee
from controller.simulations import smb as sim


def test_referee_play_json_moves_illegal_state():
    moves = "roll red\nmove w1-01\nroll yellow\nmove w1-03  # red, wrong\nmove w1-02\nroll stop\n"
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "smb", "--json",
                           "--seed", "4"], input=moves, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in proc.stdout.splitlines()]
    assert [l["notation"] for l in lines if l["type"] == "move"] == \
        ["roll red", "move w1-01", "roll yellow", "move w1-02", "roll stop"]
    bad = next(l for l in lines if l["type"] == "illegal")
    assert "a yellow roll goes to the next yellow space: space 2" in bad["reason"]
    state = [l for l in lines if l["type"] == "state"][-1]
    assert state["state"]["mario"] == "w1-02" and state["prompt"]["seat"] == 1
    assert state["prompt"]["die"] == "smb" and state["state"]["cards"] == {"Player 1": 3, "Player 2": 3}
    assert any(r["key"] == "bowser_red" for r in state["rulings"])


def test_a_game_resumes_from_its_journal_after_a_kill(tmp_path):
    path = tmp_path / "journal.sqlite"
    referee = Referee(Journal(path))
    referee.new_game("smb", settings={"players": 3}, rng=random.Random(5))
    rng = random.Random(9)
    for _ in range(60):  # random legal play, the way a table would
        acts = referee.game.legal_actions(referee.state)
        referee.enter(referee.game.notation(referee.state, rng.choice(acts)))
    before = referee.snapshot(viewer=1)
    referee.journal.close()  # the process dies here

    again = Referee(Journal(path))
    assert again.resume()
    assert again.snapshot(viewer=1) == before
    assert again.state == referee.state


def test_one_thousand_games_without_a_rule_error():
    figures = sim.run(Namespace(games=1000, seed=1, cards="on", turns=None, json=False))
    assert figures["rule_errors"] == 0, figures["errors"]
    assert figures["finished"] == 1000
    assert sum(figures["wins_by_seat"].values()) == 1000
    assert figures["cards_played"]["mean"] > 1 and figures["extra_lives_bought"]["mean"] > 0
    assert 0 < figures["bowser_phase_share"] < 1 and figures["jumped_bowser_share"] > 0


def test_the_simulator_finds_a_broken_rule(monkeypatch):
    """The audit is a real check: a rule that leaks a card is reported, not missed."""
    from controller.games.smb.rules import SuperMarioBros
    real = SuperMarioBros._draw

    def leaky(self, state, seat):
        state, drew = real(self, state, seat)
        return state.__class__(**{**state.__dict__, "pile": state.pile[1:]}), drew
    monkeypatch.setattr(SuperMarioBros, "_draw", leaky)
    figures = sim.simulate(20, seed=3)
    assert figures["rule_errors"] > 0 and "36-card mix" in figures["errors"][0]


def test_simulate_command_prints_json():
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "simulate", "--game", "smb", "--games", "20",
                           "--seed", "2", "--cards", "off", "--json"], capture_output=True, text=True, timeout=60)
    figures = json.loads(proc.stdout)
    assert figures["games"] == 20 and figures["rule_errors"] == 0 and figures["cards_played"]["max"] == 0


@pytest.mark.slow
def test_ten_thousand_games_without_a_rule_error():
    figures = sim.simulate(10000, seed=10)
    assert figures["rule_errors"] == 0, figures["errors"]
    assert figures["finished"] == 10000


def test_every_face_of_the_referees_die_is_a_roll_the_game_takes():
    from collections import Counter

    from controller.devices import dice
    from controller.games.smb.rules import SuperMarioBros
    game = SuperMarioBros()
    state = game.start({"players": 2, "deck": None})
    faces = dice.die_set("smb").dice[0].faces
    assert Counter(f.label for f in faces) == {"red": 2, "yellow": 2, "red/yellow": 1, "stop": 1}
    for face in faces:
        game.check(state, game.parse(state, f"roll {face.label}"))
