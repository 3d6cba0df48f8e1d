"""What a Super Mario Bros. game waits for, in words for the page and the voice, with the
options of a choice (in notation).
"""
from __future__ import annotations

from ..base import Prompt
from ..words import either, printed, semicolon
from .state import EXTRA_LIFE, SMBState
from .words import NEXT_SPACE


class Prompts:
    """`prompt`: part of `SuperMarioBros` (rules.py)."""

    def prompt(self, state: SMBState) -> Prompt:
        who = state.names[state.turn]
        if state.outcome:
            return Prompt("move", None, self._("Game over: {reason}", reason=state.outcome.reason))
        if state.phase == "move":
            colour = self._("the Princess") if state.bowser else self._(NEXT_SPACE[state.roll])
            spaces = either((self._space(t).name(self._) for t in state.targets), self._("or"))
            text = self._("{who}: move Mario to {where}: {spaces}", who=who, where=colour, spaces=spaces)
            if len(state.targets) == 1:
                return Prompt("move", state.turn, text)
            return Prompt("choice", state.turn, text, options=tuple(f"move {t}" for t in state.targets))
        if state.phase == "link":
            return Prompt("move", state.turn, self._("{who}: Mario reached a link space: put the World {n} board "
                                                     "under the camera and Mario on its START", who=who,
                                                     n=state.world + 1))
        if state.phase == "token":
            seat, kind = state.pending
            return Prompt("move", seat, self._("{who}: put the {token} token on a red or yellow space",
                                               who=state.names[seat], token=printed(kind)))
        if state.phase == "extra":
            return Prompt("choice", state.turn, self._.n("{who}: buy an extra life for {cost} coins (you have {n} "
                                                         "coin) and roll again?", "{who}: buy an extra life for "
                                                         "{cost} coins (you have {n} coins) and roll again?",
                                                         state.coins[state.turn], who=who, cost=EXTRA_LIFE),
                          options=("buy", "pass"))
        text = self._("{who}: roll the die (King Bowser phase: yellow or red/yellow wins)", who=who) \
            if state.bowser else self._("{who}: roll the die", who=who)
        if self._fireball_spaces(state):
            text += semicolon(self._) + self._("a Fireball may be played first")
        if any(self._card_kinds(state, s) for s in range(state.players)):
            text += semicolon(self._) + self._("opponents may play a hazard card")
        return Prompt("roll", state.turn, text, die=self.die)
