"""Monopoly's state: one moment of a game (`MState`, frozen) and the working copy the
rules change in place (`Draft`). Two classes over one list of fields, because a game
state must be a value (the referee keeps and compares them) while a turn's engine and
the simulations make hundreds of small changes to one.

Coins: the Bank (`bank`, seat BANK in the ledger) holds what the players do not, so
bank + players == the box's total after every action.
"""
from __future__ import annotations

from types import MappingProxyType

BANK = -1  # the Bank's seat in the ledger and in a payment
FACE_DOWN = -1  # a deck's card as anyone watching knows it (`Page.seen_by`): not which one

_FIELDS = ("names", "pos", "coins", "jail", "out", "cards", "owner", "flipped", "bowser", "wait", "wait_skip",
           "decks", "turn", "doubles", "rolled_double", "agenda", "need", "table", "bank", "ledger", "news",
           "offer", "outcome", "turns", "landing")
_LISTS = ("pos", "coins", "jail", "out", "owner", "flipped", "wait", "agenda", "ledger", "news")  # per seat, space, ...
_NESTED = ("cards",)  # a list per seat
_MAPS = ("decks", "table")  # by deck (each a list) and by token


class MState:
    """One moment of a game, frozen like every game's state: its lists are tuples, its
    maps read-only, and it cannot be changed. The rules work on a `Draft` of it
    (`apply` = draft, advance, freeze), as the simulations do on theirs."""

    __slots__ = _FIELDS

    def __setattr__(self, name, value):
        raise AttributeError(f"a Monopoly state is frozen ({name!r}): apply an action for the next one")

    def draft(self) -> "Draft":
        """A working copy the rules may change."""
        d = Draft()
        for name in _FIELDS:
            value = getattr(self, name)
            if name in _LISTS:
                value = list(value)
            elif name in _NESTED:
                value = [list(v) for v in value]
            elif name in _MAPS:
                value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
            setattr(d, name, value)
        return d


class Draft:
    """A state being worked out by the rules (`Monopoly.advance`): the same fields as
    MState, changed in place, then `freeze`d. Never handed out as a game's state."""

    __slots__ = _FIELDS

    def freeze(self) -> MState:
        s = MState.__new__(MState)
        for name in _FIELDS:
            value = getattr(self, name)
            if name in _LISTS:
                value = tuple(value)
            elif name in _NESTED:
                value = tuple(tuple(v) for v in value)
            elif name in _MAPS:
                value = MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in value.items()})
            object.__setattr__(s, name, value)
        return s

