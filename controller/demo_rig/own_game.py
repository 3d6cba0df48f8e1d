"""The game the demo's players play: their own, not the page's.

People at a real table play the game their own hands made; when the referee records a
ply they did not make, they do not move a piece to match the record, they play on, and
the referee must see from the table that it went wrong and put it right (or raise an
alarm). So the players keep the position their own choices lead to (and, in the dice
games, the rolls the die module gave, which they read off the module as a person does:
the referee's record of the die's event, the module's own truth) and choose and film
every move from it. Comparing the referee's record with it says whether the referee
followed the game, and where it parted from it, in words.
"""
from __future__ import annotations


class OwnGame:
    """The players' position (`state`) and its plies in the game's notation (`plies`),
    from the position the game started from at the table."""

    def __init__(self, game, state, plies=()):
        self.game, self.state, self.plies = game, state, list(plies)
        self.parted = ""  # where the referee's record last parted from this game, as said

    def take(self, action) -> None:
        """The players made `action` (at the table, on the page or with the die)."""
        self.plies.append(self.game.notation(self.state, action))
        self.state = self.game.apply(self.state, action)

    def unlike(self, record: list[str]) -> str:
        """Where the referee's `record` (its plies in notation) parts from the players'
        game, in words; "" where it is the start of it (the players' last plies may not
        be recorded yet)."""
        for k, (played, recorded) in enumerate(zip(self.plies, record)):
            if played != recorded:
                return f"ply {k + 1} recorded as {recorded}, the players played {played}"
        if len(record) > len(self.plies):
            return f"ply {len(self.plies) + 1} recorded as {record[len(self.plies)]}, which the players did not play"
        return ""

    def ends_unlike(self, record: list[str]) -> str:
        """Where the referee's whole `record` differs from the players' game, in words
        ("" where it is the same)."""
        if (said := self.unlike(record)) or len(record) == len(self.plies):
            return said
        return f"the record ends after ply {len(record)}, the players played {len(self.plies)}"
