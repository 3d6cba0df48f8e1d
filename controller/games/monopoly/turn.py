"""How a Monopoly turn runs: a stack of small steps in the state (Bowser's move, the
fees he collects, his landing, the player's move, the space's action, a payment...).

The engine runs steps until one needs an input (a roll, a choice, a token to be seen on
its space), records what it waits for (`need`), and goes on from there when the input
comes (controller/games/monopoly/inputs.py answers it). So any step can stop for a
player anywhere in a turn (a debt in the middle of a card's effect, a battle before the
move), the state stays plain data that a journal rebuilds, and the simulation drives
exactly the same code.

Coins: every transfer is a ledger entry with its reason. When the Bank runs short it
pays what it has and says so; no coin is ever made up.
"""
from __future__ import annotations

from typing import Iterable

from ..base import Outcome
from .actions import Offer, Put
from .board import DECK_NAMES, DECK_SIZE, DECKS, SPACES
from .state import BANK, FACE_DOWN, Draft, MState


def roll_result(doubles_run: int, jail_attempts: int, black: int, red: int) -> tuple[str, int]:
    """What one roll of the pair does to a player before anything moves.

    `jail_attempts` is -1 for a free player, else the failed attempts so far (0-2).
    Returns (what, doubles_run):
      "move"  a free player moves black + red; doubles_run > 0 means another turn follows
      "jail"  third doubles in a row: straight to Jail, the turn is skipped
      "out"   doubles in Jail: out, moving by this roll, no extra turn
      "fine"  third failed attempt: pay the fine and move by this roll
      "stay"  another failed attempt: stays in Jail
    """
    doubles = black == red
    if jail_attempts >= 0:
        if doubles:
            return "out", 0
        return ("fine", 0) if jail_attempts >= 2 else ("stay", 0)
    if doubles:
        return ("jail", 0) if doubles_run >= 2 else ("move", doubles_run + 1)
    return "move", 0


class Turn:
    """The engine and the steps of a turn: part of `Monopoly` (rules.py), which holds
    the step table (`_steps`), the board (`b`) and the settings it reads."""

    # --- who and what, in a state --------------------------------------------------------
    def _active(self, s: MState, from_seat: int | None = None) -> list[int]:
        """Seats still in the game, in playing order from `from_seat`."""
        n = len(s.names)
        start = s.turn if from_seat is None else from_seat
        return [(start + k) % n for k in range(n) if not s.out[(start + k) % n]]

    def _eligible(self, s: MState, space: int | None = None) -> list[int]:
        """Players who can battle (not in Jail), on `space` if given, from the mover on."""
        return [p for p in self._active(s) if s.jail[p] < 0 and (space is None or s.pos[p] == space)]

    def _owned(self, s: MState, seat: int) -> list[int]:
        return [i for i in self.b.locations if s.owner[i] == seat]

    def _has_set(self, s: MState, seat: int | None, space: int) -> bool:
        return seat is not None and s.owner[space] == seat and s.owner[self.b.partner(space)] == seat

    def _then(self, s: MState, *steps) -> None:
        """Schedule steps to run next, in the order given."""
        s.agenda.extend(reversed(steps))

    def _expected(self, s: MState) -> dict:
        """Where every token should stand now: the rules' positions."""
        where = {f"p{p}": (None if s.out[p] else s.pos[p]) for p in range(len(s.names))}
        if s.bowser is not None:
            where["bowser"] = s.bowser
        return where

    # --- coins ---------------------------------------------------------------------------
    def _transfer(self, s: MState, frm: int, to: int, amount: int, cat: str, text: str) -> None:
        """Move coins and write the ledger. The Bank pays only what it has."""
        if frm == BANK and s.bank < amount:
            s.news.append(self._.n("the Bank has only {n} coin left: {who} gets {n} of {amount}",
                                   "the Bank has only {n} coins left: {who} gets {n} of {amount}", s.bank,
                                   who=self._who(s, to), amount=amount))
            amount = s.bank
        if amount <= 0:
            return
        if frm == BANK:
            s.bank -= amount
        else:
            s.coins[frm] -= amount
        if to == BANK:
            s.bank += amount
        else:
            s.coins[to] += amount
        s.ledger.append((s.turns, frm, to, amount, cat, text))
        s.news.append(self._.n("{who} pays {other} {n} coin ({why})", "{who} pays {other} {n} coins ({why})", amount,
                               who=self._who(s, frm), other=self._who(s, to), why=text))

    def coins_ok(self, s: MState) -> bool:
        """The box's invariant: no coin created or lost."""
        return s.bank + sum(s.coins) == self.b.total_coins and s.bank >= 0 and min(s.coins) >= 0

    # --- the engine: run scheduled steps until an input is needed ------------------------
    def apply(self, state: MState, action) -> MState:
        s = state.draft()
        self.advance(s, action)
        return s.freeze()

    def advance(self, s: Draft, action) -> None:
        """`action` applied to the draft `s`, in place (the simulations advance their own
        draft through a whole game this way, without freezing each step)."""
        s.news = []
        s.landing = None
        if isinstance(action, Offer):
            s.offer = action
            s.news.append(self._offer_text(s, action))
            return
        if s.offer is not None:
            self._answer(s, action.word)
            return
        if isinstance(action, Put):
            for token, space in action.places:
                s.table[token] = space
            if s.table == self._expected(s):
                s.need = None
        else:
            need, s.need = s.need, None
            self._inputs[need[0]](s, action, *need[1:])
        self._run(s)

    def _run(self, s: MState) -> None:
        while s.need is None and s.outcome is None:
            if not s.agenda:
                s.agenda.append(("turn",))
            step = s.agenda.pop()
            self._steps[step[0]](s, *step[1:])

    # --- steps of a turn -----------------------------------------------------------------
    def _step_turn(self, s: MState) -> None:
        s.rolled_double = False
        self._then(s, ("continue",), ("jailchoice",), ("roll",), ("end",))

    def _step_continue(self, s: MState) -> None:
        if self._continuable(s, s.turn, self._owned(s, s.turn)):
            s.need = ("start",)

    def _continuable(self, s: MState, seat: int, spaces: Iterable[int]) -> list[int]:
        return [i for i in spaces if s.flipped[i] and s.owner[i] == seat and self.b.spaces[i].cont <= s.coins[seat]]

    def _step_jailchoice(self, s: MState) -> None:
        if s.jail[s.turn] >= 0:
            s.need = ("jail",)

    def _step_roll(self, s: MState) -> None:
        s.need = ("roll", "jail" if s.jail[s.turn] >= 0 else "move")

    def _step_end(self, s: MState) -> None:
        t = s.turn
        s.turns += 1
        if s.wait:
            if s.wait_skip:
                s.wait_skip = False
            elif t in s.wait:
                s.wait.remove(t)
                if not s.wait:
                    s.news.append(self._("every player has taken a turn: Bowser moves again"))
        if not s.out[t] and s.rolled_double and s.jail[t] < 0:
            s.news.append(self._("{who} rolled doubles and goes again", who=s.names[t]))
            return
        s.doubles = 0
        s.turn = self._active(s, t + 1)[0] if s.outcome is None else t

    def _step_place(self, s: MState) -> None:
        expected = self._expected(s)
        if not self.confirm:
            s.table = expected
        elif s.table != expected:
            s.need = ("place",)

    def _step_pay(self, s: MState, frm: int, to: int, amount: int, cat: str, text: str) -> None:
        if amount <= 0 or s.out[frm] or (to != BANK and s.out[to]):
            return
        if s.coins[frm] >= amount:
            self._transfer(s, frm, to, amount, cat, text)
        else:
            s.news.append(self._.n("{who} owes {n} coin ({why}) but has {has}", "{who} owes {n} coins ({why}) but has {has}",
                                   amount, who=s.names[frm], why=text, has=s.coins[frm]))
            s.need = ("raise", frm, to, amount, cat, text)

    def _step_collect(self, s: MState, seat: int, amount: int, cat: str, text: str) -> None:
        if not s.out[seat]:
            self._transfer(s, BANK, seat, amount, cat, text)

    def _step_bowser_move(self, s: MState, steps: int) -> None:
        if s.wait:
            s.news.append(self._("Bowser waits on GO"))
            return
        start = s.bowser
        dest = (start + steps) % SPACES
        passed = {(start + k) % SPACES for k in range(1, steps)}
        s.bowser = dest
        s.news.append(self._("Bowser moves {n} to {space}", n=steps, space=self.space_name(dest)))
        fee = self.b.bowser_pass_fee
        pays = [("pay", p, BANK, fee, "Bowser", self._("Bowser passed")) for p in self._eligible(s)
                if s.pos[p] in passed and self.b.spaces[s.pos[p]].kind != "free_parking"]
        self._then(s, ("place",), *pays, ("bowser_land", dest))

    def _step_bowser_put(self, s: MState, space: int) -> None:
        if s.wait:
            s.news.append(self._("Bowser waits on GO: the card has no effect"))
            return
        s.bowser = space
        s.news.append(self._("Bowser is put on {space}", space=self.space_name(space)))
        self._then(s, ("place",), ("bowser_land", space))

    def _step_bowser_land(self, s: MState, space: int) -> None:
        sp = self.b.spaces[space]
        if sp.kind == "location" and not s.flipped[space]:
            owner = s.owner[space]
            if self._has_set(s, owner, space):
                s.news.append(self._("{space} stays on Continue: {who} owns the whole {set} set", space=sp.name,
                                     who=s.names[owner], set=self._(sp.set)))
            else:
                s.flipped[space] = True
                s.news.append(self._("{space} turns to the Game Over side", space=sp.name))
                if all(s.flipped[i] for i in self.b.locations):
                    s.outcome = Outcome(None, self._("Bowser wins: all 16 deeds are on the Game Over side"), "Bowser")
                    return
        if sp.kind == "free_parking":
            return
        here = self._eligible(s, space)
        if len(here) == 1:
            self._find_partner(s, here[0], space, "bowser")
        elif here:
            s.news.append(self._("Bowser lands on {players}: they roll to lead", players=", ".join(s.names[p] for p in here)))
            s.need = ("rolloff", tuple(here), (), "lead", None, space)

    def _find_partner(self, s: MState, leader: int, space: int, how: str) -> None:
        """Who battles beside the leader (RULINGS.md 5): players on the space first."""
        others = [p for p in self._eligible(s, space) if p != leader]
        if how == "player" and len(others) >= 2:
            s.need = ("rolloff", tuple(others), (), "join", leader, space)
            return
        candidates = others or [p for p in self._eligible(s) if p != leader]
        if len(candidates) > 1:
            s.need = ("partner", leader, tuple(candidates))
        else:
            self._battle(s, leader, candidates[0] if candidates else None)

    def _battle(self, s: MState, leader: int, partner: int | None) -> None:
        who = self._("{who} and {other}", who=s.names[leader], other=s.names[partner]) if partner is not None \
            else self._("{who} alone", who=s.names[leader])
        s.news.append(self._("battle with Bowser: {who}", who=who))
        s.need = ("battle", leader, partner)

    def _to_jail(self, s: MState, seat: int, why: str) -> None:
        s.pos[seat] = self.jail_space
        s.jail[seat] = 0
        s.news.append(self._("{who} goes to Jail ({why}), no GO coins", who=s.names[seat], why=why))
        if seat == s.turn:
            s.agenda[:] = [("end",)]
            s.rolled_double = False
        s.agenda.append(("place",))

    def _step_advance(self, s: MState, steps: int) -> None:
        t = s.turn
        dest, passed_go = self.b.walk(s.pos[t], steps)
        s.pos[t] = dest
        s.landing = dest
        s.news.append(self._("{who} moves {n} to {space}", who=s.names[t], n=steps, space=self.space_name(dest)))
        if passed_go:
            self._transfer(s, BANK, t, self.b.go_salary, "GO", self._("passing GO"))
        # a space that sends the token straight on (Warp Pipe, Go to Jail) is not a stop
        # the camera must see, unless Bowser waits there for a battle
        onward = self.b.spaces[dest].kind in ("warp_pipe", "go_to_jail") and s.bowser != dest
        self._then(s, *(() if onward else (("place",),)), ("arrive", dest))

    def _step_goto(self, s: MState, space: int) -> None:
        self._step_advance(s, (space - s.pos[s.turn]) % SPACES or SPACES)

    def _step_arrive(self, s: MState, space: int) -> None:
        self._then(s, ("space", space))
        if s.bowser == space and self.b.spaces[space].kind != "free_parking":
            s.news.append(self._("{who} lands on Bowser", who=s.names[s.turn]))
            self._find_partner(s, s.turn, space, "player")

    def _step_space(self, s: MState, space: int) -> None:
        t, sp = s.turn, self.b.spaces[space]
        if sp.kind == "location":
            owner = s.owner[space]
            if owner is None:
                s.need = ("buy", space)
            elif owner != t and s.flipped[space]:
                s.news.append(self._("no rent: {space} is on the Game Over side", space=sp.name))
            elif owner != t:
                rent = sp.rent * (2 if self._has_set(s, owner, space) else 1)
                why = self._("rent for {space} (whole set: double)", space=sp.name) if rent > sp.rent else \
                    self._("rent for {space}", space=sp.name)
                self._then(s, ("pay", t, owner, rent, "rent", why))
        elif sp.kind in DECKS:
            if self.use_cards:
                self._then(s, ("card", sp.kind))
        elif sp.kind in ("piranha_plant", "super_star"):
            s.need = ("red", sp.kind)
        elif sp.kind == "warp_pipe":
            nxt = self.b.next_of("warp_pipe", space)
            s.pos[t] = nxt
            s.landing = nxt
            s.news.append(self._("{who} warps to {space}", who=s.names[t], space=self.space_name(nxt)))
            if nxt < space:
                self._transfer(s, BANK, t, self.b.go_salary, "GO", self._("passing GO"))
            self._then(s, ("place",))
        elif sp.kind == "go_to_jail":
            self._to_jail(s, t, self._("Go to Jail"))
            s.landing = self.jail_space

    def _step_card(self, s: MState, deck: str) -> None:
        t = s.turn
        index = s.decks[deck].pop(0)
        if index == FACE_DOWN:  # a move not made yet, worded for anyone: which card, and so what follows, unknown
            s.news.append(self._("{who} draws a {deck} card", who=s.names[t], deck=self._(DECK_NAMES[deck])))
            s.decks[deck].append(index)
            return
        card = self.b.cards[deck][index]
        s.news.append(self._("{who} draws {deck}: {card}", who=s.names[t], deck=self._(DECK_NAMES[deck]),
                             card=card.text.rstrip('. ')))
        if card.effect == "jail_card":
            s.cards[t].append(index if deck == DECKS[0] else DECK_SIZE + index)
            return
        s.decks[deck].append(index)
        e, x, why = card.effect, card.param, self._("{deck} card", deck=self._(DECK_NAMES[deck]))
        others = [p for p in self._active(s) if p != t]
        if e == "collect":
            self._then(s, ("collect", t, x, "card", why))
        elif e == "pay":
            self._then(s, ("pay", t, BANK, x, "card", why))
        elif e == "collect_each":
            self._then(s, *[("pay", p, t, x, "card", why) for p in others])
        elif e == "pay_each":
            self._then(s, *[("pay", t, p, x, "card", why) for p in others])
        elif e == "pay_per_deed":
            self._then(s, ("pay", t, BANK, x * len(self._owned(s, t)), "card", why))
        elif e == "advance_to":
            self._then(s, ("goto", x))
        elif e == "advance_next":
            self._then(s, ("goto", self.b.next_of(x, s.pos[t])))
        elif e == "move":
            self._then(s, ("advance", x))
        elif e == "go_to_jail":
            self._to_jail(s, t, self._("card"))
            s.landing = self.jail_space
        elif e in ("bowser_advance", "bowser_to"):
            if s.bowser is None:
                s.news.append(self._("Bowser is not in this game"))
            else:
                self._then(s, ("bowser_move" if e == "bowser_advance" else "bowser_put", x))
        elif e == "continue_all":
            for i in self._owned(s, t):
                if s.flipped[i]:
                    s.flipped[i] = False
                    s.news.append(self._("{space} turns to Continue for free", space=self.space_name(i)))
