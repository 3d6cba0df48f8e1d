"""What each input does to a Monopoly turn, by what the turn waited for (`need`: a roll,
a purchase, an auction, a battle, a debt...), and a trade's answer. The engine
(turn.py) hands an input to the answer named by its need (`Monopoly._inputs`) and runs
on from there.
"""
from __future__ import annotations

from ..base import Outcome
from .actions import Bid, Choose, Partner, Roll
from .board import DECK_NAMES, DECK_SIZE, DECKS
from .state import BANK, MState
from .turn import roll_result


class Inputs:
    """The answers to awaited inputs: part of `Monopoly` (rules.py)."""

    def _do_roll(self, s: MState, action: Roll, purpose: str) -> None:
        t = s.turn
        black, red = action.dice
        what, run = roll_result(s.doubles, s.jail[t], black, red)
        if what == "jail":
            s.doubles = 0
            s.landing = self.jail_space
            self._to_jail(s, t, self._("third doubles in a row"))
            return
        if what == "stay":
            s.jail[t] += 1
            s.landing = self.jail_space
            s.news.append(self._("{who} stays in Jail (attempt {n} of 3)", who=s.names[t], n=s.jail[t]))
            return
        steps = []
        if what == "move":
            s.doubles, s.rolled_double = run, run > 0
        else:
            s.jail[t] = -1
            s.rolled_double = what == "out" and self.jail_doubles_again
            s.news.append(self._("{who} leaves Jail with doubles", who=s.names[t]) if what == "out" else
                          self._("{who} leaves Jail", who=s.names[t]))
            if what == "fine":
                steps.append(("pay", t, BANK, self.b.jail_fine, "jail", self._("third failed roll in Jail")))
        if s.bowser is not None:
            steps.append(("bowser_move", black))
        steps.append(("advance", black + red))
        self._then(s, *steps)

    def _do_red(self, s: MState, action: Roll, kind: str) -> None:
        t, n = s.turn, action.dice[-1]  # the red die
        if kind == "piranha_plant":
            self._then(s, ("pay", t, BANK, n, "Piranha Plant", self._("Piranha Plant, red die {n}", n=n)))
        else:
            self._transfer(s, BANK, t, n, "Super Star", self._("Super Star, red die {n}", n=n))

    def _do_start(self, s: MState, action: Choose) -> None:
        if action.word == "continue":
            self._pay_continue(s, s.turn, action.space)
            s.agenda.append(("continue",))

    def _pay_continue(self, s: MState, seat: int, space: int) -> None:
        sp = self.b.spaces[space]
        self._transfer(s, seat, BANK, sp.cont, "continue", self._("Continue for {space}", space=sp.name))
        s.flipped[space] = False

    def _do_jail(self, s: MState, action: Choose) -> None:
        t = s.turn
        if action.word == "pay":
            self._transfer(s, t, BANK, self.b.jail_fine, "jail", self._("leaving Jail"))
            s.jail[t] = -1
        elif action.word == "card":
            card = s.cards[t].pop(0)
            deck = DECKS[card // DECK_SIZE]
            s.decks[deck].append(card % DECK_SIZE)
            s.jail[t] = -1
            s.news.append(self._("{who} uses Get Out of Jail Free; the card goes under the {deck} deck", who=s.names[t],
                                 deck=self._(DECK_NAMES[deck])))

    def _do_buy(self, s: MState, action: Choose, space: int) -> None:
        t, sp = s.turn, self.b.spaces[space]
        if action.word == "buy":
            self._transfer(s, t, BANK, sp.price, "purchase", self._("buying {space}", space=sp.name))
            self._acquire(s, t, space)
        else:
            s.news.append(self._("{space} goes up for auction, from 1 coin", space=sp.name))
            s.need = ("auction", space, 0, None)

    def _acquire(self, s: MState, seat: int, space: int) -> None:
        s.owner[space] = seat
        sp = self.b.spaces[space]
        s.news.append(self._("{who} takes the deed of {space}", who=s.names[seat], space=sp.name))
        if self._has_set(s, seat, space):
            for i in (space, self.b.partner(space)):
                if s.flipped[i]:
                    s.flipped[i] = False
                    s.news.append(self._("{space} turns to Continue for free: the {set} set is complete",
                                         space=self.space_name(i), set=self._(sp.set)))

    def _do_auction(self, s: MState, action, space: int, high: int, bidder: int | None) -> None:
        sp = self.b.spaces[space]
        if isinstance(action, Bid):
            s.news.append(self._("{who} bids {n} for {space}", who=s.names[action.seat], n=action.amount, space=sp.name))
            s.need = ("auction", space, action.amount, action.seat)
        elif bidder is None:
            s.news.append(self._("no bid: the Bank keeps {space}", space=sp.name))
        else:
            self._transfer(s, bidder, BANK, high, "auction", self._("auction of {space}", space=sp.name))
            self._acquire(s, bidder, space)

    def _do_partner(self, s: MState, action: Partner, leader: int, candidates) -> None:
        self._battle(s, leader, action.seat)

    def _do_rolloff(self, s: MState, action: Roll, group, results, purpose, leader, space) -> None:
        results = results + ((group[len(results)], sum(action.dice)),)
        roller = results[-1][0]
        s.news.append(self._("{who} rolls {n}", who=s.names[roller], n=results[-1][1]))
        if len(results) < len(group):
            s.need = ("rolloff", group, results, purpose, leader, space)
            return
        top = max(total for _, total in results)
        best = tuple(p for p, total in results if total == top)
        if len(best) > 1:
            s.news.append(self._("tie between {players}: they roll again", players=", ".join(s.names[p] for p in best)))
            s.need = ("rolloff", best, (), purpose, leader, space)
        elif purpose == "join":
            self._battle(s, leader, best[0])
        else:
            s.news.append(self._("{who} leads the battle", who=s.names[best[0]]))
            self._find_partner(s, best[0], space, "bowser")

    def _do_battle(self, s: MState, action: Roll, leader: int, partner: int | None) -> None:
        total = sum(action.dice)
        if total >= self.b.battle_win_total:
            s.news.append(self._("the battle is won ({n})", n=total))
            if partner is None:
                self._transfer(s, BANK, leader, self.solo_reward, "battle", self._("beating Bowser alone"))
            for p in (leader, partner) if partner is not None else ():
                self._transfer(s, BANK, p, self.b.battle_reward, "battle", self._("beating Bowser"))
            s.bowser = self.go_space
            s.wait = self._active(s) if self.wait_for_mover else self._active(s)[1:]
            s.wait_skip = self.wait_for_mover
            s.news.append(self._("Bowser goes to GO and waits until every player has taken one more turn"))
            s.agenda.append(("place",))
        else:
            s.news.append(self._("the battle is lost ({n})", n=total))
            self._to_jail(s, leader, self._("lost the battle"))

    def _do_raise(self, s: MState, action: Choose, debtor, creditor, amount, cat, text) -> None:
        if action.word == "bankrupt":
            self._bankrupt(s, debtor, creditor)
            return
        sp = self.b.spaces[action.space]
        s.owner[action.space] = None
        self._transfer(s, BANK, debtor, sp.price, "sale", self._("selling {space} to the Bank", space=sp.name))
        s.agenda.append(("pay", debtor, creditor, amount, cat, text))

    def _bankrupt(self, s: MState, seat: int, creditor: int) -> None:
        s.out[seat] = True
        s.news.append(self._("{who} is bankrupt, owing {other}", who=s.names[seat], other=self._who(s, creditor)))
        deeds = self._owned(s, seat)
        self._transfer(s, seat, creditor, s.coins[seat], "bankruptcy", self._("bankruptcy of {who}", who=s.names[seat]))
        if creditor == BANK:
            for d in deeds:
                s.owner[d] = None
            for card in s.cards[seat]:
                s.decks[DECKS[card // DECK_SIZE]].append(card % DECK_SIZE)
        else:
            for d in deeds:
                self._acquire(s, creditor, d)
            s.cards[creditor] += s.cards[seat]
        s.cards[seat] = []
        if seat in s.wait:
            s.wait.remove(seat)
        if seat == s.turn:
            s.agenda[:] = [("end",)]
            s.rolled_double = False
        s.agenda.append(("place",))
        left = self._active(s)
        if len(left) == 1:
            s.outcome = Outcome(left[0], self._("{who} is the last player with coins", who=s.names[left[0]]),
                                s.names[left[0]])
        elif creditor != BANK and self._continuable(s, creditor, deeds):
            s.need = ("claim", creditor, tuple(deeds))

    def _do_claim(self, s: MState, action: Choose, seat: int, deeds) -> None:
        if action.word == "continue":
            self._pay_continue(s, seat, action.space)
            if self._continuable(s, seat, deeds):
                s.need = ("claim", seat, deeds)

    def _answer(self, s: MState, word: str) -> None:
        o, s.offer = s.offer, None
        if word == "decline":
            s.news.append(self._("{who} declines the trade", who=s.names[o.to]))
            return
        s.news.append(self._("{who} accepts the trade", who=s.names[o.to]))
        for frm, to, items in ((o.frm, o.to, o.give), (o.to, o.frm, o.get)):
            if items.coins:
                self._transfer(s, frm, to, items.coins, "trade", self._("trade"))
            for _ in range(items.cards):
                s.cards[to].append(s.cards[frm].pop(0))
            for d in items.deeds:
                self._acquire(s, to, d)
