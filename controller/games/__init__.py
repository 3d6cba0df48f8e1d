"""The games the referee knows, loaded by name only when a game of that kind starts."""
from __future__ import annotations

import importlib

from .base import Game

# name -> "module:Class"; each module holds one game's pure rules.
GAMES = {
    "connect4": "controller.games.connect4:Connect4",
    "chess": "controller.games.chess:Chess",
    "labyrinth": "controller.games.labyrinth:Labyrinth",
    "smb": "controller.games.smb:SuperMarioBros",
    "monopoly": "controller.games.monopoly:Monopoly",
}


def game_class(name: str) -> type[Game]:
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(GAMES)}")
    module, cls = GAMES[name].split(":")
    try:
        return getattr(importlib.import_module(module), cls)
    except ModuleNotFoundError as exc:
        raise ValueError(f"the game {name!r} is not available in this version") from exc


def load_game(name: str, variant: str | None = None, settings: dict | None = None) -> Game:
    return game_class(name)(variant, settings)
