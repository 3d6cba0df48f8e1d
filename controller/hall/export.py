"""`referee hall export --round N`: a round's games from the hall's journal, one file per
format a game kind is written in (round-N.pgn: every chess game, as its registry entry
says) and one JSON file with every game of the kinds that have no format of their own.

Each game is rebuilt the way `referee export` does it: its events go into a journal in
memory and the format's writer (controller/pgn.py) replays them through the rules, so the
hall writes what a table would; only the headers say which table and round.
"""
from __future__ import annotations

import json

from ..events import Event
from ..journal import Journal
from ..record import fold
from ..registry import FORMATS, Export, entry
from .store import HallStore


def game_written(store: HallStore, info: dict, round_number: int | None, export: Export) -> str:
    events = store.events(info["table"], info["game_id"], info["journal"])
    journal = Journal(":memory:")
    try:
        first = Event.from_json(events[0])
        started = journal.start_game(info["game"], info["variant"], first)
        for e in events[1:]:
            journal.append(Event(e["type"], Event.from_json(e).data, started.game_id, None, e["t"]))
        if info["result"] is not None:
            journal.end_game(started.game_id, info["result"])
        return export.write(journal, started.game_id, {
            "Site": f"Tabletop Referee, table {info['table']}",
            "Round": str(round_number) if round_number is not None else "-", "Board": info["table"]})
    finally:
        journal.close()


def export_round(store: HallStore, round_number: int | None) -> tuple[dict[str, str], list, list[str]]:
    """({format: text of the games written in it}, for every format but JSON, even with no
    game; a JSON-able list of the games of the kinds with no format of their own; problems)."""
    written: dict[str, list[str]] = {fmt: [] for fmt in FORMATS if fmt != "json"}
    others, problems = [], []
    disputed = store.conflicted_games()
    for info in store.games(round_number):
        if (info["table"], info["journal"], info["game_id"]) in disputed:
            problems.append(f"table {info['table']} game {info['game_id']}: another publisher sent events "
                            "with this game's sequence numbers; the first of each is exported (the hall "
                            "page lists both)")
        kind = entry(info["game"])
        for export in kind.exports:
            try:
                written[export.fmt].append(game_written(store, info, round_number, export))
            except (ValueError, KeyError, IndexError) as exc:  # a record this version cannot replay
                problems.append(f"table {info['table']} game {info['game_id']}: not written as "
                                f"{export.fmt.upper()}: {exc}")
        if not kind.exports:  # as `referee export` writes JSON: every event, and the plies that stand
            events = store.events(info["table"], info["game_id"], info["journal"])
            others.append({**info, "events": events, "record": fold(events).to_json()})
    texts = {fmt: "\n\n".join(games) + ("\n" if games else "") for fmt, games in written.items()}
    return texts, others, problems


def write_round(store: HallStore, round_number: int | None, out_dir) -> tuple[list[str], list[str]]:
    """Write round-N.<format> for each format and round-N.json into `out_dir`; (files
    written, problems)."""
    from pathlib import Path

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = f"round-{round_number}" if round_number is not None else "all-games"
    texts, others, problems = export_round(store, round_number)
    files = []
    for fmt, text in {**texts, "json": json.dumps(others, indent=1)}.items():
        (out / f"{name}.{fmt}").write_text(text, encoding="utf-8")
        files.append(str(out / f"{name}.{fmt}"))
    return files, problems
