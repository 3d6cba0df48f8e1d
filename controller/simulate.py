"""`referee simulate`: whole games played with random legal choices, for statistics and
for finding rule errors. Each game that supports it has a module in
controller/simulations/ with `run(args) -> dict` (figures printed as JSON or text)."""
from __future__ import annotations

import importlib
import json
import sys


def cmd_simulate(args) -> int:
    try:
        module = importlib.import_module(f"controller.simulations.{args.game}")
    except ModuleNotFoundError:
        print(f"referee simulate: no simulation for {args.game}", file=sys.stderr)
        return 2
    figures = module.run(args)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0
