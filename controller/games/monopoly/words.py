"""Monopoly in words: the spaces' and tokens' names, what an action and everything it set
off say (every coin with its reason), and what a player's card on the page says. Every
text goes through the game's translator (`self._`), its msgid as written here.
"""
from __future__ import annotations

from ...i18n import N_
from ..words import either, joined
from .actions import Bid, Items, Offer, Partner, Put, Roll
from .state import BANK, MState

# a choice in words ({who} does it; {space} when it names one)
CHOICE_WORDS = {"continue": N_("{who} pays to Continue {space}"), "done": N_("{who} is done"),
                "pay": N_("{who} pays to leave Jail"), "card": N_("{who} uses a Get Out of Jail Free card"),
                "try": N_("{who} tries for doubles"), "buy": N_("{who} buys {space}"),
                "auction": N_("{who} puts the deed up for auction"), "close": N_("{who} closes the auction"),
                "sell": N_("{who} sells {space}"), "bankrupt": N_("{who} declares bankruptcy"),
                "accept": N_("{who} accepts"), "decline": N_("{who} declines")}
# the sets' colours as the board file names them, said in the table's language
SET_WORDS = (N_("brown"), N_("light blue"), N_("pink"), N_("orange"), N_("red"), N_("yellow"), N_("green"),
             N_("dark blue"))


class Words:
    """Names and sentences: part of `Monopoly` (rules.py)."""

    def space_name(self, space: int | None) -> str:
        return self._("off the board") if space is None else self.b.spaces[space].name

    def cell_name(self, cell) -> str:
        return self.space_name(cell)

    def _who(self, s: MState, seat: int) -> str:
        return self._("the Bank") if seat == BANK else s.names[seat]

    def _token_name(self, s: MState, token: str) -> str:
        return "Bowser" if token == "bowser" else s.names[int(token[1:])]

    def label_words(self, state: MState, label: str) -> str:
        """'bowser+p1' -> "Bowser and Luigi's Flashlight"."""
        tokens = [t for t in str(label).split("+") if t != "empty"]
        return either([self._token_name(state, t) for t in tokens], self._("and")) if tokens else self._("nothing")

    def describe(self, state: MState, action) -> str:
        """The action and everything it set off, in words (every coin with its reason)."""
        s = state
        seat = self.prompt(s).seat
        who = s.names[seat] if seat is not None else self._("the Bank")
        if isinstance(action, Roll):
            what = self._("{who} rolls {black} (black) and {red} (red)", who=who, black=action.dice[0],
                          red=action.dice[1]) if len(action.dice) == 2 else \
                self._("{who} rolls {red} (red)", who=who, red=action.dice[0])
        elif isinstance(action, Bid):
            what = self._("{who} bids {n}", who=s.names[action.seat], n=action.amount)
        elif isinstance(action, Partner):
            what = self._("{who} picks {other} as partner", who=who, other=s.names[action.seat])
        elif isinstance(action, Offer):
            what = self._offer_text(s, action)
        elif isinstance(action, Put):
            what = f"{who} " + either([self._put_words(s, seat, k, v) for k, v in action.places], self._("and"))
        else:  # a plain "buy" or "auction" is for the deed of the space the player stands on
            space = action.space if action.space is not None else \
                s.pos[seat] if action.word in ("buy", "auction") and seat is not None else None
            what = self._(CHOICE_WORDS[action.word], who=who,
                          space=self.space_name(space) if space is not None else "").rstrip()
        news = self.apply(s, action).news
        return self._("{text}: {note}", text=what, note=joined(news, self._)) if news else what

    def _seat_words(self, s: MState, p: int) -> str:
        """What the page writes on a player's card: coins, where the token stands (or is
        to go), Jail and cards."""
        if s.out[p]:
            return self._("out of the game")
        parts = [self._.n("{n} coin", "{n} coins", s.coins[p])]
        token = f"p{p}"
        if s.need and s.need[0] == "place" and s.table.get(token) != s.pos[p]:
            parts.append(self._("to move to {space}", space=self.space_name(s.pos[p])))
        else:
            parts.append(self._("on {space} (in Jail)", space=self.space_name(s.pos[p])) if s.jail[p] >= 0 else
                         self._("on {space}", space=self.space_name(s.pos[p])))
        if s.cards[p]:
            parts.append(self._.n("{n} Get Out of Jail Free card", "{n} Get Out of Jail Free cards", len(s.cards[p])))
        return " \u00B7 ".join(parts)

    def _put_words(self, s: MState, seat: int | None, token: str, space: int | None) -> str:
        """One token put down by `seat`: 'moves to Toad Town' for their own, else 'puts
        Bowser on GO'."""
        if space is None:
            return self._("takes {token} off the board", token=self._token_name(s, token))
        if token == f"p{seat}":
            return self._("moves to {space}", space=self.space_name(space))
        return self._("puts {token} on {space}", token=self._token_name(s, token), space=self.space_name(space))

    def _offer_text(self, s: MState, o: Offer) -> str:
        def words(i: Items) -> str:
            parts = [self.space_name(d) for d in i.deeds] + \
                ([self._.n("{n} coin", "{n} coins", i.coins)] if i.coins else []) \
                + [self._("a Get Out of Jail Free card")] * i.cards
            return ", ".join(parts) or self._("nothing")
        return self._("{who} offers {other} {give} for {get}", who=s.names[o.frm], other=s.names[o.to],
                      give=words(o.give), get=words(o.get))
