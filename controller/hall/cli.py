"""`referee hall round N` and `referee hall export`: the hall's journal without the page
(`referee hall` itself, the page, starts in web/hall.py: the controller never imports web)."""
from __future__ import annotations

import sys
from pathlib import Path

from .store import HallStore


def _store(args, must_exist: bool) -> HallStore | None:
    path = Path(args.data) / "hall.sqlite"
    if must_exist and not path.exists():
        print(f"referee hall: {path}: no hall journal here (run `referee hall --broker HOST "
              f"--data {args.data}` first)", file=sys.stderr)
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    return HallStore(path)


def mark_round(args) -> int:
    if args.number is None or args.number < 1:
        print("referee hall round N: give the round's number (1 or more)", file=sys.stderr)
        return 2
    store = _store(args, must_exist=False)
    store.mark_round(args.number)
    store.close()
    print(f"round {args.number} starts now: games started from now on belong to it")
    return 0


def export(args) -> int:
    from .export import write_round

    store = _store(args, must_exist=True)
    if store is None:
        return 1
    try:
        files, problems = write_round(store, args.round, args.out)
    except KeyError as exc:
        print(f"referee hall export: {exc.args[0]}", file=sys.stderr)
        return 1
    finally:
        store.close()
    for problem in problems:
        print(f"referee hall export: {problem}", file=sys.stderr)
    print("\n".join(files))
    return 0
