"""Super Mario Bros. in words: the die's faces, spaces and what the camera sees named as
the game names them, what an action and what it brought say, and why Mario may not go
where he was put. Every text goes through the game's translator (`self._`), its msgid
as written here.
"""
from __future__ import annotations

from ...i18n import N_
from ..words import either, printed
from .actions import ROLL_COLOURS, Buy, Card, Move, Pass, Roll, Token
from .state import SMBState

# the words of the die, said through the game's translator
FACE_WORDS = {"red": N_("red"), "yellow": N_("yellow"), "red/yellow": N_("red/yellow"), "stop": N_("STOP")}
NEXT_SPACE = {"red": N_("the next red space"), "yellow": N_("the next yellow space"),
              "red/yellow": N_("the next red or yellow space")}
NO_SPACE = {"red": N_("no red space ahead: Mario stays; roll again"),
            "yellow": N_("no yellow space ahead: Mario stays; roll again"),
            "red/yellow": N_("no red/yellow space ahead: Mario stays; roll again")}
WRONG_ROLL = {"red": N_("a red roll goes to the next red space: {want}, not {got}"),
              "yellow": N_("a yellow roll goes to the next yellow space: {want}, not {got}"),
              "red/yellow": N_("a red/yellow roll goes to the next red or the next yellow space: {want}, not {got}")}


class Words:
    """Names and sentences: part of `SuperMarioBros` (rules.py)."""

    def describe(self, state: SMBState, action) -> str:
        who = state.names[state.turn]
        if isinstance(action, (Roll, Move)):  # with what the roll or the landing brings
            note = self.apply(state, action).note
            text = self._("{who} rolls {face}", who=who, face=self._(FACE_WORDS[action.face])) \
                if isinstance(action, Roll) else \
                self._("{who} moves Mario to {space}", who=who, space=self._space(action.space).name(self._))
            return self._("{text}: {note}", text=text, note=note) if note else text
        if isinstance(action, Buy):
            return self._("{who} trades 4 coins for an extra life", who=who)
        if isinstance(action, Pass):
            return self._("{who} ends the turn", who=who)
        if isinstance(action, Card):
            return self._("{who} plays a {card} card", who=state.names[action.seat], card=printed(action.kind))
        if isinstance(action, Token):
            seat, kind = state.pending
            return self._("{who} puts the {token} token on {space}", who=state.names[seat], token=printed(kind),
                          space=self._space(action.space).name(self._))
        return self._("{who} plays a Fireball on the token at {space}", who=who,
                      space=self._space(action.space).name(self._))

    def cell_name(self, cell) -> str:
        return self._space(cell).name(self._)

    def _space(self, space_id: str):
        return self.worlds.space(space_id)

    def _spaces(self, ids) -> str:
        return either([self._space(i).name(self._) for i in ids], self._("and"))

    def label_words(self, state: SMBState, label: str) -> str:
        if label == "mario":
            return "Mario"
        return self._("the hazard token") if label == "hazard" else self._("nothing")

    def _no_move_now(self, state: SMBState) -> str:
        if state.phase == "roll":
            return self._("roll the die first: Mario moves only after a roll ({who} to roll)",
                          who=state.names[state.turn])
        if state.phase == "extra":
            return self._("{who} first buys an extra life or passes", who=state.names[state.turn])
        if state.phase == "token":
            return self._("{who} first puts the {token} token on the path", who=state.names[state.pending[0]],
                          token=printed(state.pending[1]))
        return self._("Mario does not move now")

    def _wrong_destination(self, state: SMBState, space_id: str) -> str:
        got = self._space(space_id)
        want = either((self._space(t).name(self._) for t in state.targets), self._("or"))
        if state.phase == "link":
            return self._("Mario goes on to the START space of World {n}: {want}, not {got}", n=state.world + 1,
                          want=want, got=got.name(self._))
        if state.bowser:
            return self._("a winning roll moves Mario onto the Princess: {want}, not {got}", want=want,
                          got=got.name(self._))
        face = state.roll
        text = self._(WRONG_ROLL[face], want=want, got=got.name(self._))
        if got.world != state.world:
            text += " " + self._("(that space is on World {n})", n=got.world)
        elif got.is_path and got.colour in ROLL_COLOURS[face]:
            text += " " + self._("(it is not the nearest one ahead)")
        elif got.is_path:
            text += " " + self._("(that space is {colour})", colour=self._(got.colour))
        return text
