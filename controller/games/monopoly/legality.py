"""Whether a Monopoly input may be entered now, and in words why not: the input must be
the kind the turn waits for (a roll, a choice among the options, the tokens where the
rules put them), a bid must top the last, a trade must be the two players' to make.
"""
from __future__ import annotations

from ..base import IllegalAction
from .actions import Bid, Choose, Items, Offer, Put, Roll
from .state import MState

CALM = ("start", "jail", "roll")  # needs between which a trade may be offered


class Legality:
    """`check` and its parts: part of `Monopoly` (rules.py)."""

    def check(self, state: MState, action) -> None:
        s = state
        if s.outcome is not None:
            raise IllegalAction(self._("the game is over: {reason}", reason=s.outcome.reason))
        kind = s.need[0]
        if s.offer is not None:
            if not (isinstance(action, Choose) and action.word in ("accept", "decline")):
                raise IllegalAction(self._("{who} must first accept or decline the trade offer", who=s.names[s.offer.to]))
            return
        if isinstance(action, Offer):
            return self._check_offer(s, action)
        if kind == "place":
            if not isinstance(action, Put):
                raise IllegalAction(self._("waiting for the tokens: {prompt}", prompt=self.prompt(s).text))
            return self._check_put(s, action)
        rolling = kind in ("roll", "battle", "rolloff", "red")
        if isinstance(action, Roll) != rolling:
            p = self.prompt(s)
            raise IllegalAction(self._("not the time for {move!r}: {prompt}", move=self.notation(s, action), prompt=p.text))
        if rolling:
            if len(action.dice) != 2 and kind != "red":
                raise IllegalAction(self._("this roll needs both dice: 'roll B R', black first"))
            return
        if isinstance(action, Bid) and kind == "auction":
            high = s.need[2]
            if action.seat >= len(s.names) or s.out[action.seat]:
                raise IllegalAction(self._("p{seat} is not in the game", seat=action.seat))
            if action.amount <= high:
                raise IllegalAction(self._.n("a bid must be at least {n} coin", "a bid must be at least {n} coins",
                                             high + 1))
            if action.amount > s.coins[action.seat]:
                raise IllegalAction(self._.n("{who} has only {n} coin", "{who} has only {n} coins",
                                             s.coins[action.seat], who=s.names[action.seat]))
            return
        text = self.notation(s, action)
        if text not in self.options(s):
            raise IllegalAction(self._("{move!r} is not open now; {prompt}: {options}", move=text,
                                       prompt=self.prompt(s).text, options=", ".join(self.options(s))))

    def _check_offer(self, s: MState, o: Offer) -> None:
        if s.need[0] not in CALM:
            raise IllegalAction(self._("trades are offered between rolls, not during {prompt}", prompt=self.prompt(s).text))
        n = len(s.names)
        if o.frm >= n or o.to >= n or o.frm == o.to or s.out[o.frm] or s.out[o.to]:
            raise IllegalAction(self._("a trade is between two different players still in the game"))
        for seat, items in ((o.frm, o.give), (o.to, o.get)):
            if items.coins > s.coins[seat]:
                raise IllegalAction(self._.n("{who} has only {n} coin", "{who} has only {n} coins", s.coins[seat],
                                             who=s.names[seat]))
            if items.cards > len(s.cards[seat]):
                raise IllegalAction(self._.n("{who} has {n} Get Out of Jail Free card",
                                             "{who} has {n} Get Out of Jail Free cards", len(s.cards[seat]),
                                             who=s.names[seat]))
            for d in items.deeds:
                if s.owner[d] != seat:
                    raise IllegalAction(self._("{who} does not own {space}", who=s.names[seat], space=self.space_name(d)),
                                        [d])
        if o.give == Items() and o.get == Items():
            raise IllegalAction(self._("an empty trade"))

    def _check_put(self, s: MState, action: Put) -> None:
        expected = self._expected(s)
        for token, space in action.places:
            if token not in expected:
                raise IllegalAction(self._("there is no token {token} in this game", token=token))
            if expected[token] != space:
                raise IllegalAction(self._("{token} should be on {want}, not on {got}", token=self._token_name(s, token),
                                           want=self.space_name(expected[token]), got=self.space_name(space)),
                                    [c for c in (space,) if c is not None])
