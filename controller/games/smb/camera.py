"""The camera's side of Super Mario Bros.: which World board to read, what each space
should show ("mario", "hazard" or "empty"; every space of the four Worlds, only the
board under the camera is read), which inputs may explain a view, and why a view
matches none, in words.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from ..base import IllegalAction
from .actions import Move
from .board import world_data
from .state import SMBState


class Camera:
    """What the camera checks: part of `SuperMarioBros` (rules.py)."""

    def reader_options(self, state) -> dict:
        """The camera reads the World board in play (its plain board data). On a link
        space the players swap the boards and put Mario on the next World's START: the
        camera then looks for the next World's board, where that move is seen."""
        world = state.world + 1 if state.phase == "link" else state.world
        return {"world": world_data(world, self.settings["board"] or None)}

    def sheet(self, number: int) -> tuple[str, dict]:
        """World `number`'s board (a BoardError names a World the board file lacks)."""
        return self._("World {n}", n=number), {"world": world_data(number, self.settings["board"] or None)}

    def observable_actions(self, state: SMBState, changed: set | None = None) -> Iterable:
        if state.outcome or state.phase not in ("move", "link", "token"):
            return []
        return self.legal_actions(state)

    def board(self, state: SMBState) -> dict:
        view = {s: "empty" for w in self.worlds.worlds.values() for s in w.spaces}
        for s, _ in state.tokens:
            view[s] = "hazard"
        view[state.mario] = "mario"
        return view

    def explain(self, state: SMBState, seen: Mapping) -> IllegalAction:
        """A camera view that no legal action explains, in words: Mario's space first,
        then hazard tokens."""
        now = self.board(state)
        changed = [c for c in now if seen.get(c, now[c]) != now[c]]
        marios = [c for c in changed if seen[c] == "mario"]
        new_tokens = [c for c in changed if seen[c] == "hazard" and now[c] == "empty"]
        gone_tokens = [c for c in changed if now[c] == "hazard" and seen[c] == "empty"]
        if state.outcome and changed:
            return IllegalAction(self._("the game is over: {reason}", reason=state.outcome.reason), changed)
        if marios:
            where = marios[0]
            if state.phase in ("move", "link"):
                if state.phase == "move" and where in state.targets:
                    passed = self._apply_move_tokens(state, where)
                    left = [s for s, _ in state.tokens if s not in passed and seen.get(s) == "empty"]
                    stay = [s for s in passed if seen.get(s) == "hazard"]
                    if stay:
                        return IllegalAction(self._("Mario passed over the hazard token on {spaces}: return it to "
                                                    "the pile", spaces=self._spaces(stay)), stay)
                    if left:
                        return IllegalAction(self._("the hazard token on {spaces} was taken away: only a token "
                                                    "Mario passes over goes back", spaces=self._spaces(left)), left)
                    # Mario stands rightly where the roll took him: what is wrong is elsewhere
                    return self.explain(self.apply(state, self.parse(state, f"move {where}")), seen)
                return IllegalAction(self._wrong_destination(state, where), [where])
            return IllegalAction(self._no_move_now(state) + " " + self._("(Mario is seen on {space})",
                                                                         space=self._space(where).name(self._)),
                                 [where])
        if seen.get(state.mario) == "empty" and state.mario in changed:
            return IllegalAction(self._("Mario is missing from {space}", space=self._space(state.mario).name(self._)),
                                 [state.mario])
        back = [c for c in new_tokens if c in state.returned]
        if back:
            return IllegalAction(self._("the hazard token on {spaces} went back to the pile: take it off the board",
                                        spaces=self._spaces(back)), back)
        if new_tokens:
            where = new_tokens[0]
            if state.phase != "token":
                return IllegalAction(self._("a hazard token appeared on {space}: play its card on the page first",
                                            space=self._space(where).name(self._)), new_tokens)
            why = self._token_problem(state, where)
            if why:
                return IllegalAction(why, [where])
            if len(new_tokens) > 1:
                return IllegalAction(self._("one hazard token per card"), new_tokens)
        if gone_tokens:
            return IllegalAction(self._("the hazard token on {spaces} was taken away: only passing over it or a "
                                        "Fireball played on the page removes it", spaces=self._spaces(gone_tokens)),
                                 gone_tokens)
        return super().explain(state, seen)

    def _apply_move_tokens(self, state: SMBState, target: str) -> set[str]:
        """Spaces whose tokens go back when Mario moves to `target` from here."""
        after = self.apply(state, Move(target))
        return {s for s, _ in state.tokens} - {s for s, _ in after.tokens}
