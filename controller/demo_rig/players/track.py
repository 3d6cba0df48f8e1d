"""What the players of roll-and-move games on a track of spaces (Super Mario Bros.,
Monopoly) share: how their hands are filmed moving pieces from space to space, and the
mistake of a piece put on a nearby space the rules do not allow. Each game's module says
how its board is drawn and where a space is."""
from __future__ import annotations

import numpy as np

from .base import FPS, Noise, Player


class TrackPlayer(Player):
    """Roll-and-move games on a track of spaces (Super Mario Bros., Monopoly): a scene is
    {space: label}; an arm reaches to each space that changes, in turn, and the label
    changes while the hand is there. Subclasses say how a frame is drawn (`photo`) and
    where a space is in the frame (`where`)."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        self.noise = Noise(seed)

    def photo(self, labels: dict, arm_tip=None) -> np.ndarray:
        raise NotImplementedError

    def where(self, cell) -> tuple[float, float]:
        raise NotImplementedError

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        k = 0

        def emit(frame):
            nonlocal k
            k += 1
            return (k - 1) / FPS, self.noise(frame)

        still = self.photo(scenes[0])
        for _ in range(int(lead_s * FPS)):
            yield emit(still)
        if len(scenes) > 1:
            now, after = dict(scenes[0]), scenes[1]
            rest = np.array([still.shape[1] * 0.5, still.shape[0] + 80.0])  # off the bottom edge
            tip = rest
            for cell in sorted((c for c in after if after[c] != now.get(c)),
                               key=lambda c: after[c] != "empty"):  # pick up before putting down
                there = np.array(self.where(cell))
                for f in (0.35, 0.7, 1.0):
                    yield emit(self.photo(now, tuple(tip + (there - tip) * f)))
                now[cell] = after[cell]
                yield emit(self.photo(now, tuple(there)))
                tip = there
            for f in (0.35, 0.7):
                yield emit(self.photo(now, tuple(tip + (rest - tip) * f)))
            still = self.photo(now)
        for _ in range(int(still_s * FPS)):
            yield emit(still)

    def wrong(self, state, action, after):
        """The piece that moves put on another free space near where it should go (labels
        may hold several pieces joined by "+", as Monopoly's do); never back where it stood,
        for that board is the one the table already shows: no mistake to see."""
        before, right = self.scene(state), self.scene(after)
        arriving = {c: _pieces(right[c]) - _pieces(before.get(c, "empty")) for c in right}
        landed = [c for c, pieces in arriving.items() if pieces]
        if not landed:
            return None
        target = self.rng.choice(landed)
        cells = list(self.cells())
        if target not in cells:
            return None
        k = cells.index(target)
        near = [c for c in cells[max(0, k - 3):k + 4] if c != target and right.get(c) == "empty"
                and not arriving[target] & _pieces(before.get(c, "empty")) and not self._allowed(state, c)]
        if not near:
            return None
        return {**right, target: _label(_pieces(right[target]) - arriving[target]),
                self.rng.choice(near): _label(arriving[target])}

    def cells(self) -> list:
        """The spaces in the order of play (a wrong space is picked near the right one)."""
        raise NotImplementedError

    def _allowed(self, state, cell) -> bool:
        """Would the rules accept a piece on `cell` (then it is no mistake)? After any
        sequence of placements the referee matches in one view (Monopoly: Bowser, the
        token, then a card's move: a token put straight on Jail is its card's move)."""
        return any(self.game.board(s).get(cell) not in (None, "empty")
                   for frontier in self.game.sequences(state) for _, s in frontier)


def _pieces(label: str) -> set[str]:
    return set(str(label).split("+")) - {"empty"}


def _label(pieces: set[str]) -> str:
    return "+".join(sorted(pieces)) or "empty"
