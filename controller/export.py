"""`referee export`: a game's record from the journal, as JSON (every game) or in a format
of its own kind (PGN for chess: the registry entry's exports)."""
from __future__ import annotations

import json

from .journal import JournalError, open_journal
from .registry import ENTRIES


def cmd_export(args) -> int:
    """Its failures are said in `--lang`'s words (controller/cli.py `failed`)."""
    from .cli import failed, words

    _ = words(args)
    try:
        journal, notes = open_journal(args.data, create=False)
    except JournalError as exc:
        return failed(args, exc, status=1)
    for note in notes:
        failed(args, note)
    games = journal.games()
    if not games:
        return failed(args, _("{path} holds no games", path=journal.path), status=1)
    game_id = args.game_id if args.game_id is not None else games[-1]["id"]
    try:
        if args.format == "json":
            text = json.dumps(journal.export(game_id), indent=1)
        else:
            info = next((g for g in games if g["id"] == game_id), None)
            if info is None:
                return failed(args, _("no game {id} in {path}", id=game_id, path=journal.path), status=1)
            export = ENTRIES[info["game"]].export(args.format) if info["game"] in ENTRIES else None
            if export is None:
                return failed(args, _("game {id} is {game}: it is not written as {format}", id=game_id,
                                      game=info["game"], format=args.format.upper()), status=1)
            text = export.write(journal, game_id)
    except (KeyError, ValueError) as exc:
        return failed(args, exc.args[0] if isinstance(exc, KeyError) and exc.args else exc, status=1)
    if args.out == "-":
        print(text)
    else:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    return 0
