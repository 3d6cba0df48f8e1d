"""The words this part of the referee says that no game says: the voice's
announcements, the players' names, the demo's account of a game and the command line's
failures. Kept in one table, in English, so a catalogue (gettext, issue 30 item 1) can
translate them by key in one place; `say(key, **values)` fills one in.

A game's own words (its moves, prompts, alarms) come from the game's module, not here.
"""
from __future__ import annotations

TEXTS = {
    # the voice (controller/voice.py)
    "voice.alarm": "{reason}. {fix}",
    "voice.result": "Game over: {reason}",
    "voice.missing": "espeak-ng is not installed: the referee does not speak (apt install espeak-ng)",
    "voice.no_player": "no sound player (aplay, paplay or play) was found: the referee's words are "
                       "written as WAV files in {folder} only",
    "voice.failed": "the voice failed ({error}); the referee goes on without it",
    # chess said as people say it (controller/games/chess.py spoken)
    "chess.castles": "{who}, castles {side}",
    "chess.kingside": "kingside",
    "chess.queenside": "queenside",
    "chess.takes": "takes",
    "chess.check": "check",
    "chess.checkmate": "checkmate",
    "chess.promotes": "becomes {piece}",
    # players' names (controller/players.py)
    "players.named": "{name} ({seat})",
    "players.too_many": "{count} names for {seats} seats; expected at most one name per seat",
    "players.bad_name": "player name {name!r}: expected 1-{most} printable characters",
    # the demo's account on the terminal (controller/demo_rig/account.py)
    "demo.started": "demo: {title}, journal in {folder}{kept}; it runs until Ctrl-C",
    "demo.temporary": " (a temporary folder, deleted at the end; --data FOLDER keeps it)",
    "demo.kept": "demo: the game is kept in {folder} (referee export --data {folder})",
    "demo.dropped": "demo: the game was in a temporary folder, now deleted; --data FOLDER keeps it",
    "demo.new_game": "new game: {title} ({variant})",
    "demo.players": ", players {names}",
    "demo.move": "{ply:>4}. {text}",
    "demo.illegal": "      alarm: {reason}",
    "demo.fix": "      fix: {fix}",
    "demo.doubt": "      doubt: {text}",
    "demo.corrected": "      {text}",
    "demo.result": "result: {reason}",
    "demo.summary": "summary: {games} played, {moves} recorded, {alarms} raised",
    "demo.failed": "referee demo: the demo stopped: {error}",
    # the command line's failures (controller/cli.py)
    "cli.failed": "referee {command}: {error} (run with REFEREE_DEBUG=1 for the details)",
}


def say(key: str, **values) -> str:
    """The text `key` with its blanks filled in."""
    return TEXTS[key].format(**values)
