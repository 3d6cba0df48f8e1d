"""`referee export`: a game's record from the journal, as JSON (every game) or PGN (chess)."""
from __future__ import annotations

import json
import sys

from .journal import JournalError, open_journal


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
        if args.format == "pgn":
            from .pgn import export_pgn

            text = export_pgn(journal, game_id)
        else:
            text = json.dumps(journal.export(game_id), indent=1)
    except (KeyError, ValueError) as exc:
        print(f"referee export: {exc}", file=sys.stderr)
        return 1
    if args.out == "-":
        print(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0
