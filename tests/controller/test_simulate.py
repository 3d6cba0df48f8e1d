"""`referee simulate` (controller/simulate.py): a game's simulation run through its
registry entry, its figures printed as JSON or as `key: value` lines, the same for the
same seed; a game without one is one line and status 2. Which games are offered:
tests/controller/test_registry.py; what each simulation finds:
tests/controller/simulations/ and tests/controller/games/test_smb_play.py."""
import argparse
import ast
import json

from controller.cli import main
from controller.simulate import cmd_simulate


def figures(capsys, *args) -> dict:
    assert main(["simulate", "--game", "smb", "--games", "12", *args]) == 0
    out = capsys.readouterr().out
    if "--json" in args:
        found = json.loads(out)
    else:
        lines = [line.split(": ", 1) for line in out.splitlines()]
        found = {key: (ast.literal_eval(value) if value[:1] in "{[-0123456789TF" else value) for key, value in lines}
    found.pop("seconds")  # the time the games took: the one figure that differs run to run
    return found


def test_the_figures_are_the_same_as_json_and_as_lines_and_for_the_same_seed(capsys):
    as_json = figures(capsys, "--seed", "5", "--json")
    assert as_json["game"] == "smb" and as_json["games"] == 12 and as_json["finished"] == 12
    assert as_json["rule_errors"] == 0 and sum(as_json["wins_by_seat"].values()) == 12
    assert figures(capsys, "--seed", "5") == as_json
    assert figures(capsys, "--seed", "6", "--json") != as_json  # another seed, other games


def test_a_game_without_a_simulation_is_one_line(capsys):
    """argparse offers only the games with one; asked directly, the command says so."""
    assert cmd_simulate(argparse.Namespace(command="simulate", game="chess", json=True)) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == "referee simulate: no simulation for chess\n"
