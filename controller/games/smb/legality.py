"""Whether a Super Mario Bros. input may be entered now, and in words why not (the rule
text's "Playing your cards" and "Moving Mario"), and every legal input, for the
simulation and the camera.
"""
from __future__ import annotations

from ..base import IllegalAction
from ..words import printed
from .actions import FACES, Buy, Card, Fireball, Move, Pass, Roll, Token
from .state import EXTRA_LIFE, UNKNOWN, SMBState


class Legality:
    """`check`, its parts and `legal_actions`: part of `SuperMarioBros` (rules.py)."""

    def check(self, state: SMBState, action) -> None:
        if state.outcome:
            raise IllegalAction(self._("the game is over: {reason}", reason=state.outcome.reason))
        who = state.names[state.turn]
        if isinstance(action, Roll):
            if state.phase != "roll":
                raise IllegalAction(self._("no roll now: {prompt}", prompt=self.prompt(state).text))
            return
        if isinstance(action, Move):
            if state.phase not in ("move", "link"):
                raise IllegalAction(self._no_move_now(state), [action.space])
            if action.space not in state.targets:
                raise IllegalAction(self._wrong_destination(state, action.space), [action.space])
            return
        if isinstance(action, (Buy, Pass)):
            if state.phase != "extra":
                raise IllegalAction(self._("an extra life is bought only after a STOP or a lost life"))
            if isinstance(action, Buy) and state.coins[state.turn] < EXTRA_LIFE:
                raise IllegalAction(self._.n("{who} has {n} coin; an extra life costs {cost}",
                                             "{who} has {n} coins; an extra life costs {cost}",
                                             state.coins[state.turn], who=who, cost=EXTRA_LIFE))
            return
        if isinstance(action, Card):
            self._check_card(state, action)
            return
        if isinstance(action, Token):
            if state.phase != "token":
                raise IllegalAction(self._("a hazard token is put on the path only after its card is played"),
                                    [action.space])
            why = self._token_problem(state, action.space)
            if why:
                raise IllegalAction(why, [action.space])
            return
        self._check_fireball(state, action)

    def _check_card(self, state: SMBState, action: Card) -> None:
        name = state.names[action.seat]
        if state.phase != "roll" or state.bowser:
            raise IllegalAction(self._("hazard cards are played between rolls, not now"))
        if action.seat == state.turn:
            raise IllegalAction(self._("{who} cannot play a hazard card on their own turn: hazards are played "
                                       "on an opponent", who=name))
        if not state.moved:
            raise IllegalAction(self._("wait until {who} has rolled the die and moved at least once",
                                       who=state.names[state.turn]))
        if action.seat in state.played:
            raise IllegalAction(self._("{who} has already played a card on this roll: one card per player per roll",
                                       who=name))
        if not self._holds(state, action.seat, action.kind):
            raise IllegalAction(self._("{who} holds no {card} card", who=name, card=printed(action.kind)))
        only = self.worlds.hazards[action.kind].get("world")
        if only and only != state.world:
            raise IllegalAction(self._("the {card} card is played only on the World {only} board, and Mario is on "
                                       "World {world}", card=printed(action.kind), only=only, world=state.world))
        if self._tokens_left(state, action.kind) == 0:
            raise IllegalAction(self._("all {token} tokens are already on the path", token=printed(action.kind)))
        if not self._token_spaces(state):
            raise IllegalAction(self._("no path space on World {world} can take a hazard token now",
                                       world=state.world))

    def _check_fireball(self, state: SMBState, action: Fireball) -> None:
        who = state.names[state.turn]
        if state.phase != "roll":
            raise IllegalAction(self._("a Fireball is played before rolling the die"))
        if state.fireball_used:
            raise IllegalAction(self._("only one Fireball per die roll"))
        if not self._holds(state, state.turn, "fireball"):
            raise IllegalAction(self._("{who} holds no Fireball card", who=who))
        if self._space(action.space).has("king_bowser"):
            raise IllegalAction(self._("Fireballs have no effect on the King Bowser space"), [action.space])
        if state.token_at(action.space) is None:
            raise IllegalAction(self._("there is no hazard token on {space}",
                                       space=self._space(action.space).name(self._)), [action.space])

    def _holds(self, state: SMBState, seat: int, kind: str) -> bool:
        hand = state.hands[seat]
        if kind in hand:
            return True
        if UNKNOWN not in hand:
            return False
        seen = state.discard.count(kind) + sum(h.count(kind) for h in state.hands)
        return seen < self.worlds.cards[kind]["count"]

    def _tokens_left(self, state: SMBState, kind: str) -> int:
        return self.worlds.hazards[kind]["tokens"] - sum(1 for _, k in state.tokens if k == kind)

    def _token_problem(self, state: SMBState, space_id: str) -> str | None:
        """Why a hazard token may not go on this space (rule text, 'Playing your cards')."""
        sp = self._space(space_id)
        name = sp.name(self._)
        if sp.world != state.world:
            return self._("{space} is on World {n}; the token goes on the World {world} board", space=name,
                          n=sp.world, world=state.world)
        if space_id == state.mario:
            return self._("a hazard token cannot go on the space Mario is on")
        if state.token_at(space_id):
            return self._("{space} already has a hazard token", space=name)
        if sp.has("link") or sp.has("start"):
            return self._("a hazard token cannot go on a link space or a start space")
        if sp.has("princess") or sp.has("king_bowser"):
            return self._("a hazard token cannot go on the Princess space or the King Bowser space")
        if not sp.is_path:
            return self._("{space} is not a path space", space=name)
        return None

    def _token_spaces(self, state: SMBState) -> list[str]:
        taken = {s for s, _ in state.tokens} | {state.mario}
        return [s for s in self.worlds.token_spaces[state.world] if s not in taken]

    def _card_kinds(self, state: SMBState, seat: int) -> list[str]:
        """The hazard cards `seat` may play now."""
        if state.phase != "roll" or state.bowser or seat == state.turn or not state.moved \
                or seat in state.played:
            return []
        out = []
        for kind, info in self.worlds.hazards.items():
            if info.get("world") in (None, state.world) and self._holds(state, seat, kind) \
                    and self._tokens_left(state, kind) > 0:
                out.append(kind)
        return out if out and len(self.worlds.token_spaces[state.world]) > len(state.tokens) + 1 else []

    def _fireball_spaces(self, state: SMBState) -> list[str]:
        if state.phase != "roll" or state.fireball_used or not self._holds(state, state.turn, "fireball"):
            return []
        return [s for s, _ in state.tokens]

    def legal_actions(self, state: SMBState) -> list:
        if state.outcome:
            return []
        if state.phase in ("move", "link"):
            return [Move(t) for t in state.targets]
        if state.phase == "token":
            return [Token(s) for s in self._token_spaces(state)]
        if state.phase == "extra":
            return [Buy(), Pass()] if state.coins[state.turn] >= EXTRA_LIFE else [Pass()]
        acts: list = [Roll(f) for f in FACES]
        acts += [Fireball(s) for s in self._fireball_spaces(state)]
        acts += [Card(seat, kind) for seat in range(state.players) for kind in self._card_kinds(state, seat)]
        return acts
