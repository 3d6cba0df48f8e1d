"""The camera's side of Monopoly: what each of the 40 spaces should show (the tokens on
it), which token placements may explain a view, and how to put a wrong board right or
say why a view matches no placement.
"""
from __future__ import annotations

from typing import Mapping

from ..base import IllegalAction
from ..words import either, joined
from .actions import Put
from .board import SPACES
from .state import MState


class Camera:
    """What the camera checks: part of `Monopoly` (rules.py)."""

    def board(self, state: MState) -> dict[int, str]:
        """Space index -> the tokens standing there ("bowser+p0"), or "empty"."""
        cells = {i: [] for i in range(SPACES)}
        for token, space in state.table.items():
            if space is not None:
                cells[space].append(token)
        return {i: "+".join(sorted(v)) if v else "empty" for i, v in cells.items()}

    def observable_actions(self, state: MState, changed: set | None = None) -> list[Put]:
        s = state
        if s.outcome is not None or s.offer is not None or s.need[0] != "place":
            return []
        pending = [(k, v) for k, v in self._expected(s).items() if s.table.get(k) != v]
        return [Put((p,)) for p in pending] + ([Put(tuple(pending))] if len(pending) > 1 else [])

    def fix(self, state: MState, seen: Mapping) -> str:
        """Each token back where it stood: 'move Bowser from Toad Town back to GO'."""
        steps = []
        for token, home in state.table.items():
            name = self._token_name(state, token)
            away = [c for c, label in seen.items() if c != home and token in str(label).split("+")]
            there = home is None or token in str(seen.get(home, token)).split("+")
            if away and not there:
                steps.append(self._("move {piece} from {cell} back to {home}", piece=name,
                                    cell=either(map(self.space_name, away), self._("or")), home=self.space_name(home)))
            elif away:
                steps.append(self._("take {piece} off {cell}", piece=name,
                                    cell=either(map(self.space_name, away), self._("and"))))
            elif not there:
                steps.append(self._("put {piece} back on {cell}", piece=name, cell=self.space_name(home)))
        return joined(steps, self._) or self._("put the board back as it was")

    def explain(self, state: MState, seen: Mapping) -> IllegalAction:
        """Words for a view no legal placement explains: which token is where it should not be."""
        s = state
        expected = self._expected(s)
        problems, cells = [], []
        for token, want in expected.items():
            spots = [c for c, label in seen.items() if token in str(label).split("+")]
            wrong = [c for c in spots if c not in (want, s.table.get(token))]
            if wrong:
                name = self._token_name(s, token)
                problems.append(self._("{token} should be on {want}, not on {got}", token=name,
                                       want=self.space_name(want),
                                       got=(" " + self._("or") + " ").join(self.space_name(c) for c in wrong)))
                cells += wrong
        if problems:
            return IllegalAction(joined(problems, self._), cells)
        for token, want in expected.items():  # a token that is nowhere to be seen
            if want is not None and not any(token in str(label).split("+") for label in seen.values()):
                problems.append(self._("{token} should be on {want}, but the camera does not see it there",
                                       token=self._token_name(s, token), want=self.space_name(want)))
                cells.append(want)
        if problems:
            return IllegalAction(joined(problems, self._), cells)
        return super().explain(state, seen)
