"""The games the referee knows, loaded by name only when a game of that kind starts.
Each game's parts (rules, reader, markers, renderer, demo player, page drawing) hang off
one entry in controller/registry.py; this package holds the rules."""
from __future__ import annotations

from ..registry import ENTRIES, entry
from .base import Game

GAMES = tuple(ENTRIES)  # the game names, in the order the CLI lists them


def game_class(name: str) -> type[Game]:
    try:
        return entry(name).rules_class()
    except ModuleNotFoundError as exc:
        raise ValueError(f"the game {name!r} is not available in this version") from exc


def load_game(name: str, variant: str | None = None, settings: dict | None = None, lang: str = "en") -> Game:
    """A game of kind `name` that speaks `lang` (controller/i18n.py)."""
    return game_class(name)(variant, settings, lang)
