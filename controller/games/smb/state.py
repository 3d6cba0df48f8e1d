"""The Super Mario Bros. state: one moment of a game as a frozen value, and `evolve`, the
one way the rules make the next (a few hundred per simulated game, so it is cheap).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..base import Outcome

UNKNOWN = "?"  # a card the referee cannot see (physical deck)
EXTRA_LIFE = 4  # coins an extra life costs


@dataclass(frozen=True)
class SMBState:
    names: tuple[str, ...]
    coins: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    mario: str
    seed: int = 0
    known_deck: bool = True
    turn: int = 0
    world: int = 1
    # "roll", "move" (after a colour roll), "link" (the board swap), "token" (an announced
    # hazard waits for its token), "extra" (buy an extra life?) or "over"
    phase: str = "roll"
    roll: str | None = None
    targets: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    tokens: tuple[tuple[str, str], ...] = ()  # (space, hazard kind), sorted
    moved: bool = False  # the player has rolled and moved at least once this turn
    played: tuple[int, ...] = ()  # seats that played a card since the last roll
    fireball_used: bool = False
    pending: tuple[int, str] | None = None  # (seat, hazard kind) waiting for its token
    bowser: bool = False  # the King Bowser end phase
    reshuffles: int = 0
    lives_lost: tuple[int, ...] = ()
    turns: int = 1
    rolls: int = 0
    note: str = ""
    returned: tuple[str, ...] = ()  # spaces whose tokens the last action sent back to the pile
    outcome: Outcome | None = None

    @property
    def players(self) -> int:
        return len(self.names)

    def token_at(self, space: str) -> str | None:
        return next((k for s, k in self.tokens if s == space), None)


def evolve(state: SMBState, **changes) -> SMBState:
    """A copy of `state` with `changes`: what dataclasses.replace does, without running
    __init__ over some 25 fields again; the simulator makes a few hundred per game and
    replace was half of its time."""
    new = object.__new__(SMBState)
    new.__dict__.update(state.__dict__, **changes)
    return new
