"""`referee simulate --game monopoly`: the landing-frequency check against the exact
Markov chain, and whole random games in which no coin is ever made or lost."""
import argparse
import json
import random
import subprocess
import sys

import numpy as np
import pytest

from controller.games.monopoly.rules import Monopoly
from controller.games.monopoly.board import load_board
from controller.simulations import monopoly as sim

B = load_board()


def test_the_exact_chain_is_a_distribution_with_the_rules_zeroes():
    share, var = sim.exact_landing(B)
    P = sim.transition_matrix(B)
    assert np.allclose(P.sum(axis=1), 1)
    assert share.sum() == pytest.approx(1) and (var > 1e-9).sum() == 39
    assert share[B.first("go_to_jail")] == pytest.approx(0, abs=1e-12)  # no roll ends there
    assert share[B.first("jail")] > 2 * np.median(share)


def test_one_million_rolls_land_within_three_standard_errors_of_the_exact_chain():
    args = argparse.Namespace(games=1, seed=11, bowser="off", cards="off", turns=1_000_000, json=True)
    figures = sim.run(args)
    worst = max(figures["spaces"], key=lambda x: abs(x["z"]))
    assert figures["within_3_standard_errors"], worst
    assert figures["rolls"] == 1_000_000


def test_the_check_would_catch_a_chain_that_forgets_the_warp_pipes():
    rolls = 200_000
    counts = sim.landing_run(B, rolls, seed=3)
    wrong, var = sim.exact_landing(B, warp_pipes=False)
    z = (counts / rolls - wrong) / np.sqrt(var / rolls)
    assert np.max(np.abs(z)) > 6  # far outside the 3 standard errors allowed


@pytest.mark.parametrize("bowser,cards", [(True, True), (True, False), (False, True)])
def test_random_whole_games_keep_every_coin(bowser, cards):
    figures = sim.play_games(games=15, seed=5, bowser=bowser, cards=cards, turns=400)
    assert figures["coin_invariant_violations"] == 0
    assert figures["finished"] + figures["unfinished"] == 15 and figures["actions"] > 1000
    assert sum(figures["landing_frequency"].values()) == pytest.approx(1, abs=1e-3)


def test_random_games_with_tokens_confirmed_through_the_camera_actions():
    """The same games, but each token move goes through observable_actions as the
    camera would report it; the state never shows more coins than the box holds."""
    rng = random.Random(9)
    game = Monopoly(settings={"players": 3})
    for _ in range(3):
        s = game.start(game.new_setup(rng))
        for _ in range(1500):
            if game.outcome(s):
                break
            if game.prompt(s).kind == "move":
                moves = game.observable_actions(s)
                action = moves[-1]
                assert game.board(game.apply(s, action)) != game.board(s)
            else:
                action = sim.random_action(game, s, rng)
            s = game.play(s, action)
            assert game.coins_ok(s), game.notation(s, action)
            snap = game.snapshot(s)
            assert snap["coins_total"] == 255


def test_the_simulate_command_prints_figures_as_json():
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "simulate", "--game", "monopoly",
                           "--games", "4", "--seed", "2", "--turns", "300", "--json"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["games"] == 4 and figures["turn_cap"] == 300 and figures["coin_invariant_violations"] == 0
    assert figures["turns_max"] <= 300 and len(figures["landing_frequency"]) == 40
    again = subprocess.run(proc.args, capture_output=True, text=True, timeout=60)
    assert json.loads(again.stdout)["actions"] == figures["actions"]  # the seed decides everything
