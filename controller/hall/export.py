"""`referee hall export --round N`: a round's games from the hall's journal, one PGN file
with every chess game and one JSON file with every game of the other kinds.

Each chess game is rebuilt the way `referee export` does it: its events go into a
journal in memory and controller/pgn.py replays them through the rules, so the hall
writes the same PGN a table would; only the headers say which table and round.
"""
from __future__ import annotations

import io
import json

import chess.pgn

from ..events import Event
from ..journal import Journal
from ..pgn import export_pgn
from .store import HallStore


def game_pgn(store: HallStore, info: dict, round_number: int | None) -> str:
    events = store.events(info["table"], info["game_id"], info["journal"])
    journal = Journal(":memory:")
    try:
        first = _event(events[0])
        started = journal.start_game(info["game"], info["variant"], first)
        for e in events[1:]:
            journal.append(Event(e["type"], _event(e).data, started.game_id, None, e["t"]))
        if info["result"] is not None:
            journal.end_game(started.game_id, info["result"])
        text = export_pgn(journal, started.game_id)
    finally:
        journal.close()
    record = chess.pgn.read_game(io.StringIO(text))
    record.headers["Site"] = f"Tabletop Referee, table {info['table']}"
    record.headers["Round"] = str(round_number) if round_number is not None else "-"
    record.headers["Board"] = info["table"]
    return str(record)


def _event(e: dict) -> Event:
    data = {k: v for k, v in e.items() if k not in ("type", "game_id", "seq", "prev", "t", "journal")}
    return Event(e["type"], data, e.get("game_id"), e.get("seq"), e["t"])


def export_round(store: HallStore, round_number: int | None) -> tuple[str, list, list[str]]:
    """(PGN text of the chess games, JSON-able list of the other games, problems)."""
    pgns, others, problems = [], [], []
    disputed = store.conflicted_games()
    for info in store.games(round_number):
        if (info["table"], info["journal"], info["game_id"]) in disputed:
            problems.append(f"table {info['table']} game {info['game_id']}: another publisher sent events "
                            "with this game's sequence numbers; the first of each is exported (the hall "
                            "page lists both)")
        if info["game"] == "chess":
            try:
                pgns.append(game_pgn(store, info, round_number))
            except (ValueError, KeyError, IndexError) as exc:  # a record this version cannot replay
                problems.append(f"table {info['table']} game {info['game_id']}: not written as PGN: {exc}")
        else:
            others.append({**info, "events": store.events(info["table"], info["game_id"], info["journal"])})
    return "\n\n".join(pgns) + ("\n" if pgns else ""), others, problems


def write_round(store: HallStore, round_number: int | None, out_dir) -> tuple[list[str], list[str]]:
    """Write round-N.pgn and round-N.json into `out_dir`; (files written, problems)."""
    from pathlib import Path

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = f"round-{round_number}" if round_number is not None else "all-games"
    pgn, others, problems = export_round(store, round_number)
    (out / f"{name}.pgn").write_text(pgn, encoding="utf-8")
    (out / f"{name}.json").write_text(json.dumps(others, indent=1), encoding="utf-8")
    return [str(out / f"{name}.pgn"), str(out / f"{name}.json")], problems
