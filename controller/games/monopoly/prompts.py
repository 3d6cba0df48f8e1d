"""What a Monopoly game waits for, in words for the page and the voice, and which choices
are open (in notation): the page's buttons come from these alone.
"""
from __future__ import annotations

from ..base import Prompt
from ..words import either
from .state import MState

PAIR_DIE = "monopoly"  # the black and the red die (controller/games/data/dice.json)


class Prompts:
    """The prompt and its options: part of `Monopoly` (rules.py)."""

    def options(self, s: MState) -> tuple[str, ...]:
        """The choices open now, in notation (bids: the lowest bid of each bidder)."""
        if s.outcome is not None:
            return ()
        if s.offer is not None:
            return ("accept", "decline")
        need, t = s.need, s.turn
        kind = need[0]
        if kind == "start":
            return tuple(f"continue {i}" for i in self._continuable(s, t, self._owned(s, t))) + ("done",)
        if kind == "claim":
            return tuple(f"continue {i}" for i in self._continuable(s, need[1], need[2])) + ("done",)
        if kind == "jail":
            return (("pay",) if s.coins[t] >= self.b.jail_fine else ()) + (("card",) if s.cards[t] else ()) + ("try",)
        if kind == "buy":
            return (("buy",) if s.coins[t] >= self.b.spaces[need[1]].price else ()) + ("auction",)
        if kind == "auction":
            low = need[2] + 1
            return tuple(f"bid p{p} {low}" for p in self._active(s) if s.coins[p] >= low) + ("close",)
        if kind == "partner":
            return tuple(f"partner p{p}" for p in need[2])
        if kind == "raise":
            debtor, amount = need[1], need[3]
            owned = self._owned(s, debtor)
            sale = min(s.bank, sum(self.b.spaces[i].price for i in owned))
            return tuple(f"sell {i}" for i in owned) + (("bankrupt",) if s.coins[debtor] + sale < amount else ())
        return ()

    def prompt(self, state: MState) -> Prompt:
        s = state
        if s.outcome is not None:
            return Prompt("move", None, self._("Game over: {reason}", reason=s.outcome.reason))
        _ = self._
        if s.offer is not None:
            o = s.offer
            return Prompt("choice", o.to, _("{offer}; {who}: accept or decline?", offer=self._offer_text(s, o),
                                            who=s.names[o.to]), options=self.options(s))
        need, t = s.need, s.turn
        kind, name = need[0], s.names[t]
        if kind == "place":
            moves = [_("your token on {space}", space=self.space_name(v)) if k == f"p{t}" else
                     _("{token} on {space}", token=self._token_name(s, k), space=self.space_name(v))
                     for k, v in self._expected(s).items() if s.table.get(k) != v]
            return Prompt("move", t, _("{who}: put {tokens}", who=name, tokens=either(moves, _("and"))))
        if kind == "roll":
            return Prompt("roll", t, _("{who}: roll for doubles to leave Jail", who=name) if need[1] == "jail" else
                          _("{who}: roll both dice (black moves Bowser first)", who=name), die=PAIR_DIE)
        if kind == "red":
            return Prompt("roll", t, _("{who}: roll the red die and pay that many coins", who=name)
                          if need[1] == "piranha_plant" else
                          _("{who}: roll the red die and collect that many coins", who=name), die=PAIR_DIE)
        if kind == "battle":
            leader, partner = need[1], need[2]
            who = _("{who} (black) and {other} (red)", who=s.names[leader], other=s.names[partner]) \
                if partner is not None else _("{who} alone (both dice)", who=s.names[leader])
            return Prompt("roll", leader, _("Battle with Bowser: {who} roll; {n} or more wins", who=who,
                                            n=self.b.battle_win_total), die=PAIR_DIE)
        if kind == "rolloff":
            roller = need[1][len(need[2])]
            return Prompt("roll", roller, _("{who}: roll to lead the battle", who=s.names[roller]) if need[3] == "lead"
                          else _("{who}: roll to join the battle", who=s.names[roller]), die=PAIR_DIE)
        texts = {
            "start": lambda: _("{who}: pay to Continue deeds on the Game Over side, or done", who=name),
            "jail": lambda: _("{who} is in Jail: pay {n}, use a card, or try for doubles", who=name,
                              n=self.b.jail_fine),
            "buy": lambda: _.n("{who}: buy {space} for {n} coin, or auction it",
                               "{who}: buy {space} for {n} coins, or auction it", self.b.spaces[need[1]].price,
                               who=name, space=self.space_name(need[1])),
            "auction": lambda: _.n("Auction of {space}: {n} coin by {who}", "Auction of {space}: {n} coins by {who}",
                                   need[2], space=self.space_name(need[1]), who=s.names[need[3]])
            if need[3] is not None else _("Auction of {space}: no bid yet", space=self.space_name(need[1])),
            "partner": lambda: _("{who}: pick a partner for the battle", who=s.names[need[1]]),
            "raise": lambda: (_.n("{who} owes {n} coin ({why}): sell deeds to the Bank or go bankrupt",
                                  "{who} owes {n} coins ({why}): sell deeds to the Bank or go bankrupt", need[3],
                                  who=s.names[need[1]], why=need[5]) if "bankrupt" in self.options(s) else
                              _.n("{who} owes {n} coin ({why}): sell deeds to the Bank",
                                  "{who} owes {n} coins ({why}): sell deeds to the Bank", need[3],
                                  who=s.names[need[1]], why=need[5])),
            "claim": lambda: _("{who}: pay to Continue the deeds just taken over, or done", who=s.names[need[1]]),
        }
        seat = None if kind == "auction" else need[1] if kind in ("partner", "raise", "claim") else t
        return Prompt("choice", seat, texts[kind](), options=self.options(s))
