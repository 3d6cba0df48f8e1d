"""`referee hall round N` and `referee hall export`: the hall's journal without the page
(`referee hall` itself, the page, starts in web/hall.py: the controller never imports web)."""
from __future__ import annotations

from pathlib import Path

from ..cli import failed, words
from ..i18n import N_
from .store import HallStore


def _store(args, must_exist: bool) -> HallStore | None:
    path = Path(args.data) / "hall.sqlite"
    if must_exist and not path.exists():
        _ = words(args)
        failed(args, _("{path}: no hall journal here (run `referee hall --broker HOST --data {data}` first)",
                       path=path, data=args.data))
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    return HallStore(path)


def mark_round(args) -> int:
    if args.number is None or args.number < 1:
        return failed(args, words(args)(N_("round N: give the round's number (1 or more)")))
    store = _store(args, must_exist=False)
    store.mark_round(args.number)
    store.close()
    _ = words(args)
    print(_("round {n} starts now: games started from now on belong to it", n=args.number))
    return 0


def export(args) -> int:
    from .export import write_round

    store = _store(args, must_exist=True)
    if store is None:
        return 1
    try:
        files, problems = write_round(store, args.round, args.out)
    except KeyError as exc:
        return failed(args, exc.args[0], "export", status=1)
    finally:
        store.close()
    for problem in problems:
        failed(args, problem, "export")
    print("\n".join(files))
    return 0
