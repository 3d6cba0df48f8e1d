"""`referee simulate`: whole games played with random legal choices, for statistics and
for finding rule errors. A game that has one names its simulation in its registry entry
(controller/registry.py: `run(args) -> dict`, in controller/simulations/); the figures
are printed as JSON or text. `--game` offers only those games."""
from __future__ import annotations

import json

from .registry import entry


def cmd_simulate(args) -> int:
    """The figures' names are the simulation's own keys (a program reads them), its
    failure a sentence in `--lang`'s words."""
    from .cli import failed

    try:
        figures = entry(args.game).simulate(args)
    except ValueError as exc:  # a game without one (argparse offers only those that have one)
        return failed(args, exc)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
