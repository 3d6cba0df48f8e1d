"""`referee export`: a game's record from the journal, as JSON (every game) or in a format
of its own kind (PGN for chess: the registry entry's exports)."""
from __future__ import annotations

import json
import sys

from .journal import JournalError, open_journal
from .registry import ENTRIES


def cmd_export(args) -> int:
    try:
        journal, notes = open_journal(args.data, create=False)
    except JournalError as exc:
        print(f"referee export: {exc}", file=sys.stderr)
        return 1
    for note in notes:
        print(f"referee export: {note}", file=sys.stderr)
    games = journal.games()
    if not games:
        print(f"referee export: {journal.path} holds no games", file=sys.stderr)
        return 1
    game_id = args.game_id if args.game_id is not None else games[-1]["id"]
    try:
        if args.format == "json":
            text = json.dumps(journal.export(game_id), indent=1)
        else:
            info = next((g for g in games if g["id"] == game_id), None)
            if info is None:
                raise KeyError(f"no game {game_id} in {journal.path}")
            export = ENTRIES[info["game"]].export(args.format) if info["game"] in ENTRIES else None
            if export is None:
                raise ValueError(f"game {game_id} is {info['game']}: it is not written as {args.format.upper()}")
            text = export.write(journal, game_id)
    except (KeyError, ValueError) as exc:
        print(f"referee export: {exc}", file=sys.stderr)
        return 1
    if args.out == "-":
        print(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0
