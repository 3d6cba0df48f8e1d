"""Monopoly The Super Mario Bros. Movie: the referee is the Bank (shared/RULINGS.md section 5).

The board and both card decks are data (monopoly_board.py; the bundled values are a
STAND-IN to be checked against the printed board). Seats are numbered from 0 in playing
order (the page seats the starting player first); each player is named after their token.

What the referee waits for, and the notation of each input (`Game.prompt` lists the
options of every choice):

Dice (drawn by the referee's die, journalled as text)
  roll B R        both dice, black first (die "monopoly"): Bowser moves B, the player
                  moves B + R. The same pair settles a battle (leader's die black,
                  partner's red; a lone player rolls both) and each roll-off roll.
                  For Piranha Plant and Super Star only the red die R counts; `roll R`
                  (the red die alone, rolled by hand) is accepted there too.
Start of a turn, when the player owns deeds on the Game Over side
  continue S      pay the Continue cost of the deed on space S (0-39) and turn it over
  done            keep the rest on Game Over and go on
In Jail, at the start of the turn
  pay             pay the 1-coin fine, then roll as usual
  card            use a Get Out of Jail Free card (it goes under its deck), then roll
  try             roll for doubles (third failure: pay the fine and move by that roll)
An unowned location
  buy | auction
An auction (bids in any order, from any player; the referee closes it on the page)
  bid pK N        seat K bids N coins (at least 1, then at least 1 more than the last)
  close           the highest bid buys; no bid: the Bank keeps the deed
A battle
  partner pK      the leader picks seat K as partner
Owing more coins than one has
  sell S          sell the deed on space S to the Bank for its printed price
  bankrupt        (only when even selling everything cannot pay) leave the game
After taking deeds from a bankrupt player
  continue S | done   pay Continue costs at once, or keep them on Game Over
Trades (offered by anyone between turns' rolls; the other side answers)
  offer pA>pB GIVE for GET   GIVE/GET: items joined by '+': Nc (N coins), sS (the deed
                  on space S), card (a Get Out of Jail Free card), or '-' for nothing.
                  e.g. `offer p0>p2 s6+3c for s8`
  accept | decline
Tokens on the table (what the camera checks; `move` prompts)
  put bowser@S pK@S ...   the tokens now stand there (`pK@off`: a bankrupt player's
                  token is gone). With the setting confirm_tokens off, the referee
                  assumes the tokens were moved.

Coins: the Bank holds what the players do not, so Bank + players == the box's total
(255) after every action; every transfer is a ledger entry with its reason. When the
Bank runs short it pays what it has and says so; no coin is ever made up.

How a turn runs: a turn is a stack of small steps in the state (Bowser's move, the
fees he collects, his landing, the player's move, the space's action, a payment...).
The engine runs steps until one needs an input (a roll, a choice, a token to be seen on
its space), records what it waits for, and goes on from there when the input comes. So
any step can stop for a player anywhere in a turn (a debt in the middle of a card's
effect, a battle before the move), the state stays plain data that a journal rebuilds,
and the simulation drives exactly the same code.

Pure and deterministic: dice and both decks' order (drawn by `new_setup`) arrive as
inputs, so a journal replays to the same state. `roll_result` and `Board.walk` are the
movement rules shared with the landing-frequency simulation.
"""
from __future__ import annotations

import re
from types import MappingProxyType
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..i18n import N_
from .base import Game, IllegalAction, NotationError, Outcome, Prompt, Ruling
from .shape import Each, OneOf
from .words import either, joined
from .monopoly_board import DECK_NAMES, DECK_SIZE, DECKS, SPACES, Board, load_board

BANK = -1
PAIR_DIE = "monopoly"
FACE_DOWN = -1  # a deck's card as anyone watching knows it (`seen_by`): not which one
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
CALM = ("start", "jail", "roll")  # needs between which a trade may be offered


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


# --- actions -------------------------------------------------------------------------
@dataclass(frozen=True)
class Roll:
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Choose:
    word: str
    space: int | None = None


@dataclass(frozen=True)
class Bid:
    seat: int
    amount: int


@dataclass(frozen=True)
class Partner:
    seat: int


@dataclass(frozen=True)
class Items:
    coins: int = 0
    deeds: tuple[int, ...] = ()
    cards: int = 0


@dataclass(frozen=True)
class Offer:
    frm: int
    to: int
    give: Items
    get: Items


@dataclass(frozen=True)
class Put:
    places: tuple[tuple[str, int | None], ...]  # ("bowser" | "pK", space or None = off)


_FIELDS = ("names", "pos", "coins", "jail", "out", "cards", "owner", "flipped", "bowser", "wait", "wait_skip",
           "decks", "turn", "doubles", "rolled_double", "agenda", "need", "table", "bank", "ledger", "news",
           "offer", "outcome", "turns", "landing")
_LISTS = ("pos", "coins", "jail", "out", "owner", "flipped", "wait", "agenda", "ledger", "news")  # per seat, space, ...
_NESTED = ("cards",)  # a list per seat
_MAPS = ("decks", "table")  # by deck (each a list) and by token


class MState:
    """One moment of a game, frozen like every game's state: its lists are tuples, its
    maps read-only, and it cannot be changed. The rules work on a `Draft` of it
    (`apply` = draft, advance, freeze), as the simulations do on theirs."""

    __slots__ = _FIELDS

    def __setattr__(self, name, value):
        raise AttributeError(f"a Monopoly state is frozen ({name!r}): apply an action for the next one")

    def draft(self) -> "Draft":
        """A working copy the rules may change."""
        d = Draft()
        for name in _FIELDS:
            value = getattr(self, name)
            if name in _LISTS:
                value = list(value)
            elif name in _NESTED:
                value = [list(v) for v in value]
            elif name in _MAPS:
                value = {k: list(v) if isinstance(v, tuple) else v for k, v in value.items()}
            setattr(d, name, value)
        return d


class Draft:
    """A state being worked out by the rules (`Monopoly.advance`): the same fields as
    MState, changed in place, then `freeze`d. Never handed out as a game's state."""

    __slots__ = _FIELDS

    def freeze(self) -> MState:
        s = MState.__new__(MState)
        for name in _FIELDS:
            value = getattr(self, name)
            if name in _LISTS:
                value = tuple(value)
            elif name in _NESTED:
                value = tuple(tuple(v) for v in value)
            elif name in _MAPS:
                value = MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in value.items()})
            object.__setattr__(s, name, value)
        return s


def _on(value) -> bool:
    return value not in (False, "off", "no", 0, "false")


class Monopoly(Game):
    name = "monopoly"
    title = N_("Monopoly The Super Mario Bros. Movie")
    die = PAIR_DIE
    # Bowser and the mover's token often move between two stable views, and a card can
    # send the token on at once: up to three placements may explain one view.
    max_actions_per_view = 3

    # settings (docs/games/monopoly.md): on/off ones as true/false or the words; unknown ones refused
    _SWITCH = OneOf((True, False, "on", "off", "yes", "no", "true", "false", 1, 0))
    SETTINGS_SHAPE = {"players": int, "bowser": _SWITCH, "cards": _SWITCH,
                      "confirm_tokens": _SWITCH, "bowser_waits_for_mover": _SWITCH,
                      "jail_doubles_extra_turn": _SWITCH, "solo_battle_reward": int,
                      "strict_rent_claims": _SWITCH, "board_file": str, "cards_file": str}
    SETUP = {"players": int, "decks": Each([int])}

    def __init__(self, variant=None, settings=None, lang="en"):
        super().__init__(variant, settings, lang)
        files = {k: self.settings[k] for k in ("board_file", "cards_file") if k in self.settings}
        self.b: Board = load_board(**files)
        self.use_bowser = _on(self.settings.get("bowser", True))
        self.use_cards = _on(self.settings.get("cards", True))
        self.confirm = _on(self.settings.get("confirm_tokens", True))
        self.players = self.settings.get("players", 4)
        # readings of unclear rules (RULINGS.md section 5), the ruling as the default
        self.wait_for_mover = _on(self.settings.get("bowser_waits_for_mover", True))
        self.solo_reward = self.settings.get("solo_battle_reward", 2)
        self.jail_doubles_again = _on(self.settings.get("jail_doubles_extra_turn", False))
        if self.solo_reward not in (2, 4):
            raise ValueError(f"monopoly: solo_battle_reward is 2 or 4 coins, got {self.solo_reward!r}")
        if _on(self.settings.get("strict_rent_claims", False)):
            raise ValueError("monopoly: the setting strict_rent_claims is not supported yet; "
                             "rent is collected automatically (RULINGS.md section 5)")
        self.jail_space = self.b.first("jail")
        self.go_space = self.b.first("go")
        # the engine's tables: what answers each input the game waits for (`need`), and
        # each scheduled step of a turn (`agenda`), by the name the state holds
        self._inputs = {"roll": self._do_roll, "red": self._do_red, "start": self._do_start, "jail": self._do_jail,
                        "buy": self._do_buy, "auction": self._do_auction, "partner": self._do_partner,
                        "rolloff": self._do_rolloff, "battle": self._do_battle, "raise": self._do_raise,
                        "claim": self._do_claim}
        self._steps = {"turn": self._step_turn, "continue": self._step_continue, "jailchoice": self._step_jailchoice,
                       "roll": self._step_roll, "end": self._step_end, "place": self._step_place,
                       "pay": self._step_pay, "collect": self._step_collect, "bowser_move": self._step_bowser_move,
                       "bowser_put": self._step_bowser_put, "bowser_land": self._step_bowser_land,
                       "advance": self._step_advance, "goto": self._step_goto, "arrive": self._step_arrive,
                       "space": self._step_space, "card": self._step_card}

    # --- setup -----------------------------------------------------------------------
    def new_setup(self, rng) -> dict:
        return {"decks": {d: rng.sample(range(DECK_SIZE), DECK_SIZE) for d in DECKS}}

    def start(self, setup: Mapping | None = None) -> MState:
        setup = self.checked_setup(setup)
        players = setup.get("players", self.players)
        if not isinstance(players, int) or not 2 <= players <= 6:
            raise ValueError(f"monopoly: players must be 2 to 6, got {players!r}")
        decks = setup.get("decks") or {d: list(range(DECK_SIZE)) for d in DECKS}
        for d in DECKS:
            order = decks.get(d) if isinstance(decks, dict) else None
            if not isinstance(order, list) or sorted(order) != list(range(DECK_SIZE)):
                raise ValueError(f"monopoly setup: decks.{d} must list the card numbers "
                                 f"0-{DECK_SIZE - 1} once each, got {order!r}")
        s = Draft()
        s.names = self.b.tokens[:players]
        s.pos = [self.go_space] * players
        s.coins = [self.b.start_coins] * players
        s.bank = self.b.total_coins - self.b.start_coins * players
        s.jail = [-1] * players
        s.out = [False] * players
        s.cards = [[] for _ in range(players)]
        s.owner = [None] * SPACES
        s.flipped = [False] * SPACES
        s.bowser = self.b.bowser_start if self.use_bowser else None
        s.wait, s.wait_skip = [], False
        s.decks = {d: list(decks[d]) for d in DECKS}
        s.turn, s.doubles, s.rolled_double = 0, 0, False
        s.agenda, s.need, s.offer, s.outcome = [], None, None, None
        s.ledger, s.news, s.turns, s.landing = [], [], 0, None
        s.table = self._expected(s)
        self._run(s)
        return s.freeze()

    def seats(self, state: MState) -> list[str]:
        return list(state.names)

    def rulings(self) -> list[Ruling]:
        _ = self._
        return [
            Ruling("bowser", self.use_bowser, _("Bowser moves by the black die before each move (setting).")),
            Ruling("cards", self.use_cards, _("Question Block and Bowser's Fury cards are drawn (setting).")),
            Ruling("confirm_tokens", self.confirm, _("The referee waits to see each token on its space (setting).")),
            Ruling("strict_rent_claims", False, _("Rent is collected automatically for the owner.")),
            Ruling("battle_before_move", True, _("Bowser battles before the player's own move or space action.")),
            Ruling("flip_before_battle", True, _("Bowser landing on a location flips it before any battle there.")),
            Ruling("lost_battle_ends_turn", True, _("A lost battle sends the leader to Jail and ends their turn.")),
            Ruling("bowser_waits_for_mover", self.wait_for_mover,
                   _("After Bowser loses a battle he waits on GO until every player, the one whose turn it was "
                     "included, has taken one more turn; a waiting Bowser ignores Bowser cards (setting).")
                   if self.wait_for_mover else
                   _("After Bowser loses a battle he waits on GO until every player, but the one whose turn it was, "
                     "has taken one more turn; a waiting Bowser ignores Bowser cards (setting).")),
            Ruling("several_players_roll_off", True, _("If Bowser lands on several players, they roll; the highest "
                                                       "leads and picks the partner from that space; ties roll again.")),
            Ruling("solo_battle_reward", self.solo_reward, _("A player with no possible partner rolls both dice; "
                                                             "a win pays {n} coins (setting).", n=self.solo_reward)),
            Ruling("free_parking_safe", True, _("No battle on Free Parking, whoever moves there.")),
            Ruling("warp_pipe_quiet", True, _("A Warp Pipe moves the token to the next one and nothing happens there.")),
            Ruling("triple_doubles_no_bowser", True, _("Third doubles: straight to Jail; Bowser does not move.")),
            Ruling("jail_roll_bowser", True, _("A failed roll for doubles in Jail does not move Bowser; a roll that "
                                               "moves the token out does.")),
            Ruling("jail_doubles_extra_turn", self.jail_doubles_again,
                   _("Doubles that free a player from Jail earn extra turn (setting).") if self.jail_doubles_again
                   else _("Doubles that free a player from Jail earn no extra turn (setting).")),
            Ruling("auction", 1, _("Auctions start at 1 coin and go up by at least 1; no bid: the Bank keeps it.")),
            Ruling("bowser_wins_all_16", True, _("Bowser wins when all 16 deeds are on the Game Over side at once.")),
        ]

    # --- small helpers -----------------------------------------------------------------
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

    # --- inputs, by what was needed ------------------------------------------------------
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

    # --- what is awaited -------------------------------------------------------------------
    def outcome(self, state: MState) -> Outcome | None:
        return state.outcome

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

    # --- notation ----------------------------------------------------------------------------
    _ROLL = re.compile(r"^roll\s+([1-6])(?:\s+([1-6]))?$")
    _SPACE_WORD = re.compile(r"^(continue|sell)\s+(\d{1,2})$")
    _BID = re.compile(r"^bid\s+p(\d)\s+(\d{1,3})$")
    _PARTNER = re.compile(r"^partner\s+p(\d)$")
    _OFFER = re.compile(r"^offer\s+p(\d)\s*>\s*p(\d)\s+(\S+)\s+for\s+(\S+)$")
    _PUT = re.compile(r"^(bowser|p\d)@(\d{1,2}|off)$")
    _WORDS = ("done", "pay", "card", "try", "buy", "auction", "close", "bankrupt", "accept", "decline")

    def parse(self, state: MState, text: str):
        t = " ".join(text.strip().lower().split())
        if m := self._ROLL.match(t):
            return Roll(tuple(int(x) for x in m.groups() if x))
        if t in self._WORDS:
            return Choose(t)
        if m := self._SPACE_WORD.match(t):
            space = int(m[2])
            if space >= SPACES:
                raise NotationError(self._("{text!r}: space {space} is not on the board (0-39)", text=text.strip(),
                                           space=space))
            return Choose(m[1], space)
        if m := self._BID.match(t):
            return Bid(int(m[1]), int(m[2]))
        if m := self._PARTNER.match(t):
            return Partner(int(m[1]))
        if m := self._OFFER.match(t):
            return Offer(int(m[1]), int(m[2]), self._items(m[3], text, self._), self._items(m[4], text, self._))
        if t.startswith("put "):
            places = []
            for part in t[4:].split():
                m = self._PUT.match(part)
                if not m or (m[2] != "off" and int(m[2]) >= SPACES):
                    raise NotationError(self._("{text!r}: {part!r} is not a token placement; expected bowser@S or "
                                               "pK@S (S = 0-39, or off)", text=text.strip(), part=part))
                places.append((m[1], None if m[2] == "off" else int(m[2])))
            return Put(tuple(places))
        raise NotationError(self._("{text!r} is not a Monopoly move", text=text.strip()), self._(
            "expected 'roll B R', 'roll R', continue S, "
            "done, pay, card, try, buy, auction, 'bid pK N', close, 'partner pK', 'sell S', bankrupt, "
            "'offer pA>pB GIVE for GET', accept, decline or 'put bowser@S pK@S'"))

    @staticmethod
    def _items(text: str, whole: str, _) -> Items:
        if text == "-":
            return Items()
        coins, deeds, cards = 0, [], 0
        for part in text.split("+"):
            if re.fullmatch(r"\d{1,3}c", part):
                coins += int(part[:-1])
            elif re.fullmatch(r"s\d{1,2}", part) and int(part[1:]) < SPACES:
                deeds.append(int(part[1:]))
            elif part == "card":
                cards += 1
            else:
                raise NotationError(_("{text!r}: {part!r} is not a trade item; expected Nc (coins), sS (deed on "
                                      "space S), card, or '-' for nothing", text=whole.strip(), part=part))
        return Items(coins, tuple(deeds), cards)

    def notation(self, state: MState, action) -> str:
        if isinstance(action, Roll):
            return "roll " + " ".join(map(str, action.dice))
        if isinstance(action, Choose):
            return action.word + (f" {action.space}" if action.space is not None else "")
        if isinstance(action, Bid):
            return f"bid p{action.seat} {action.amount}"
        if isinstance(action, Partner):
            return f"partner p{action.seat}"
        if isinstance(action, Offer):
            def items(i: Items) -> str:
                parts = [f"s{d}" for d in i.deeds] + ([f"{i.coins}c"] if i.coins else []) + ["card"] * i.cards
                return "+".join(parts) or "-"
            return f"offer p{action.frm}>p{action.to} {items(action.give)} for {items(action.get)}"
        return "put " + " ".join(f"{k}@{'off' if v is None else v}" for k, v in action.places)

    def actor(self, state, action) -> int | None:
        """Auction bids and trade offers come from any player, not only the one to move."""
        if isinstance(action, Bid):
            return action.seat
        if isinstance(action, Offer):
            return action.frm
        return self.prompt(state).seat

    def not_one_seats(self, state: MState, action) -> str:
        """Closing an auction ends every player's chance to bid: the Bank's, not a bidder's."""
        return self._("the auction is closed by the Bank, not by a player: the referee closes it (admin) "
                      "once no one bids more")

    def is_roll(self, action) -> bool:
        return isinstance(action, Roll)

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
        else:
            what = self._(CHOICE_WORDS[action.word], who=who,
                          space=self.space_name(action.space) if action.space is not None else "").rstrip()
        news = self.apply(s, action).news
        return self._("{text}: {note}", text=what, note=joined(news)) if news else what

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

    # --- legality ------------------------------------------------------------------------------
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

    # --- the page -----------------------------------------------------------------------------
    def seen_by(self, state: MState, viewer: int | None) -> MState:
        """Both decks face down, to every viewer: their order is the shuffle's (the
        journal's secret setup), so a move not made yet (a doubt's reading, a ply
        shown unsure) is worded "draws a Bowser's Fury card", never which card it is."""
        d = state.draft()
        d.decks = {deck: [FACE_DOWN] * len(cards) for deck, cards in d.decks.items()}
        return d.freeze()

    def snapshot(self, state: MState, viewer: int | None = None) -> dict:
        s = state
        players = []
        for p, name in enumerate(s.names):
            received: dict[str, int] = {}
            paid: dict[str, int] = {}
            for _, frm, to, amount, cat, _ in s.ledger:
                if to == p:
                    received[cat] = received.get(cat, 0) + amount
                if frm == p:
                    paid[cat] = paid.get(cat, 0) + amount
            players.append({
                "seat": p, "name": name, "space": None if s.out[p] else s.pos[p],
                "space_name": None if s.out[p] else self.space_name(s.pos[p]),
                "coins": s.coins[p], "in_jail": s.jail[p] >= 0, "jail_attempts": max(s.jail[p], 0),
                "bankrupt": s.out[p], "jail_cards": len(s.cards[p]),
                "deeds": [{"space": i, "name": self.space_name(i), "set": self.b.spaces[i].set,
                           "side": "Game Over" if s.flipped[i] else "Continue",
                           "whole_set": self._has_set(s, p, i)} for i in self._owned(s, p)],
                "balance_sheet": {"received": received, "paid": paid,
                                  "start": self.b.start_coins, "now": s.coins[p]},
            })
        return {
            "turn": s.turn, "turns_played": s.turns, "doubles_in_a_row": s.doubles,
            "players": players,
            "bank": s.bank, "coins_total": s.bank + sum(s.coins), "box_total": self.b.total_coins,
            "bowser": None if s.bowser is None else {
                "space": s.bowser, "space_name": self.space_name(s.bowser),
                "waiting_for": [s.names[p] for p in s.wait]},
            "deeds": [{"space": i, "name": self.space_name(i), "set": self.b.spaces[i].set,
                       "price": self.b.spaces[i].price, "rent": self.b.spaces[i].rent,
                       "continue": self.b.spaces[i].cont,
                       "owner": None if s.owner[i] is None else s.names[s.owner[i]],
                       "side": "Game Over" if s.flipped[i] else "Continue"} for i in self.b.locations],
            "decks": {d: len(s.decks[d]) for d in DECKS},
            "offer": None if s.offer is None else self._offer_text(s, s.offer),
            "news": list(s.news),
            # where the tokens stand on the table now, and where the prompt asks to put
            # them: the page draws the first and rings the second, so it never shows a
            # token where the players have yet to put it
            "on_table": {k: v for k, v in s.table.items() if v is not None},
            "to_put": [{"token": k, "name": self._token_name(s, k), "space": v, "space_name": self.space_name(v)}
                       for k, v in self._expected(s).items()
                       if s.need and s.need[0] == "place" and s.outcome is None and s.table.get(k) != v],
            "ledger": [{"turn": n, "from": self._who(s, f), "to": self._who(s, to), "coins": a,
                        "reason": cat, "text": why} for n, f, to, a, cat, why in s.ledger[-30:]],
            "stand_in": self.b.stand_in,
            "seat_words": [self._seat_words(s, p) for p in range(len(s.names))],
            "bank_words": self._.n("Bank: {n} coin", "Bank: {n} coins", s.bank),
        }

    # --- the camera ---------------------------------------------------------------------------
    def layout(self) -> dict:
        """The ring's 40 spaces as the board file prints them (draw/monopoly.js)."""
        return {"spaces": [{"index": s.index, "name": s.name, "kind": s.kind, "set": s.set, "price": s.price}
                           for s in self.b.spaces]}

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
        return joined(steps) or self._("put the board back as it was")

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
            return IllegalAction("; ".join(problems), cells)
        for token, want in expected.items():  # a token that is nowhere to be seen
            if want is not None and not any(token in str(label).split("+") for label in seen.values()):
                problems.append(self._("{token} should be on {want}, but the camera does not see it there",
                                       token=self._token_name(s, token), want=self.space_name(want)))
                cells.append(want)
        if problems:
            return IllegalAction("; ".join(problems), cells)
        return super().explain(state, seen)
