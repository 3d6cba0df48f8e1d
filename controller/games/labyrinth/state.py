"""A Labyrinth position as one immutable value: the maze, the pawns, the cards and where
the turn stands. Immutable because the referee keeps every position it weighs (a push
and a move per view, hundreds of them) and goes back to earlier ones on a take-back.

A turn is a push (`phase` "push"), then the pawn may move as often as the player likes
(`phase` "move") until the turn ends (controller/games/labyrinth/rules.py says when)."""
from __future__ import annotations

from dataclasses import dataclass

from ..base import Outcome
from .maze import Tile

UNSEEN = "?"  # a card face down: another seat's secret target (`seen_by`)


@dataclass(frozen=True)
class LabState:
    tiles: tuple[Tile, ...]
    spare: Tile
    colours: tuple[str, ...]
    pawns: tuple[int, ...]
    targets: tuple[tuple[str, ...], ...] | None  # None in the paper-cards mode
    found: tuple[tuple[str, ...], ...]
    turn: int = 0
    phase: str = "push"  # "push", then "move" (the pawn may move) until the turn ends
    turn_start: int | None = None  # where the push left the pawn, in the "move" phase
    banned: str | None = None  # the arrow the spare may not go in at this turn
    last_push: str | None = None
    last_mover: int | None = None  # who may still declare a find (paper cards)
    declared: bool = False
    outcome: Outcome | None = None
    warnings: tuple[str, ...] = ()
