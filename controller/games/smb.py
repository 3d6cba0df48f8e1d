"""Super Mario Bros. board game (Milton Bradley / Nintendo, 1988), refereed.

Rules: shared/rules/super-mario-bros-board-game.txt; readings: shared/RULINGS.md section 4.
The four World boards and the 36-card mix are data (controller/games/smb_board.py; the
bundled Worlds are a stand-in, see there). All players move the one Mario piece; seat 0
is the youngest player and play goes clockwise (seat 1 is to seat 0's left).

Text notation (seats 1-4 as on the page, spaces by their id, e.g. ``w1-04``):
- ``roll red`` | ``roll yellow`` | ``roll red/yellow`` | ``roll stop``  a die roll (the
  referee's die draws it; the die definition is "smb");
- ``move w1-04``  Mario put on a space: after a roll (one of the nearest spaces of the
  rolled colour), on the next World's START after a link space (the board swap), and
  onto the Princess after a winning roll in the King Bowser phase;
- ``buy`` | ``pass``  after a STOP or a lost life: trade 4 coins for an extra life and
  roll again, or end the turn;
- ``card 2 goomba``  seat 2 announces a hazard card (after the player has rolled and
  moved at least once; one card per player per roll); the card goes to the discards;
- ``token w1-09``  the announced hazard's token is put on a space;
- ``fireball w1-09``  the player to roll plays a Fireball and takes the token off w1-09.

Coins (mushroom 4, coins inside 2, coin on top 1) and the card under a question block
are collected automatically on landing. The shuffle order of the deck is in the setup
(``{"players": n, "deck": [36 kinds] | null, "seed": s}``; a null deck is a physical
deck the referee cannot see: hands are then counts only, and a card's identity is
checked against the 36-card mix when it is played). A reshuffle of the discards is a
permutation derived from the setup's seed and the reshuffle's number, so the game stays
a pure function of its journal.

What the camera sees on each space: "mario", "hazard" or "empty" (every space of the
four Worlds; only the board under the camera is read).
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from ..i18n import N_
from .base import Game, IllegalAction, NotationError, Outcome, Prompt, Ruling
from .shape import OneOf
from .smb_board import FEATURE_NAMES, Worlds, bundled_worlds, load_worlds, world_data
from .words import either, printed

FACES = ("red", "yellow", "red/yellow", "stop")
ROLL_COLOURS = {"red": ("red",), "yellow": ("yellow",), "red/yellow": ("red", "yellow"), "stop": ()}
EXTRA_LIFE = 4
COIN_PAY = (("mushroom", 4), ("coins_inside", 2), ("coin_on_top", 1))
LOSE_LIFE = ("water", "fire_bar", "king_bowser")
HAND_SIZE = 3
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
UNKNOWN = "?"  # a card the referee cannot see (physical deck)


# --- actions -----------------------------------------------------------------------
@dataclass(frozen=True)
class Roll:
    face: str


@dataclass(frozen=True)
class Move:
    space: str


@dataclass(frozen=True)
class Buy:
    pass


@dataclass(frozen=True)
class Pass:
    pass


@dataclass(frozen=True)
class Card:
    seat: int
    kind: str


@dataclass(frozen=True)
class Token:
    space: str


@dataclass(frozen=True)
class Fireball:
    space: str


@dataclass(frozen=True)
class SMBState:
    names: tuple[str, ...]
    coins: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    mario: str
    seed: int = 0
    known_deck: bool = True
    turn: int = 0
    world: int = 1
    # "roll", "move" (after a colour roll), "link" (the board swap), "token" (an announced
    # hazard waits for its token), "extra" (buy an extra life?) or "over"
    phase: str = "roll"
    roll: str | None = None
    targets: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    tokens: tuple[tuple[str, str], ...] = ()  # (space, hazard kind), sorted
    moved: bool = False  # the player has rolled and moved at least once this turn
    played: tuple[int, ...] = ()  # seats that played a card since the last roll
    fireball_used: bool = False
    pending: tuple[int, str] | None = None  # (seat, hazard kind) waiting for its token
    bowser: bool = False  # the King Bowser end phase
    reshuffles: int = 0
    lives_lost: tuple[int, ...] = ()
    turns: int = 1
    rolls: int = 0
    note: str = ""
    returned: tuple[str, ...] = ()  # spaces whose tokens the last action sent back to the pile
    outcome: Outcome | None = None

    @property
    def players(self) -> int:
        return len(self.names)

    def token_at(self, space: str) -> str | None:
        return next((k for s, k in self.tokens if s == space), None)


class SuperMarioBros(Game):
    name = "smb"
    title = N_("Super Mario Bros. board game (1988)")
    die = "smb"
    max_actions_per_view = 2  # a link space and the next World's START in one view
    SETTINGS = {"players": 2, "bowser_red": "ends_turn", "board": None}
    SETTINGS_SHAPE = {"players": int, "bowser_red": OneOf(("ends_turn", "rolls_again")),
                      "board": str}  # a board file (smb_board.py)
    SETUP = {"players": int, "names": [str], "deck": [str], "seed": int}

    def __init__(self, variant=None, settings=None, lang="en"):
        super().__init__(variant, settings, lang)
        self.settings = {**self.SETTINGS, **self.settings}
        board = self.settings["board"]
        self.worlds: Worlds = load_worlds(board) if board else bundled_worlds()

    # --- setup ---------------------------------------------------------------------
    def new_setup(self, rng) -> dict:
        deck = self.worlds.deck()
        rng.shuffle(deck)
        return {"players": self.settings["players"], "deck": deck, "seed": rng.getrandbits(48)}

    def start(self, setup: Mapping | None = None) -> SMBState:
        setup = self.checked_setup(setup)
        n = setup.get("players", self.settings["players"])
        if not isinstance(n, int) or not 2 <= n <= 4:
            raise ValueError(f"smb setup: players must be 2 to 4, not {n!r}")
        names = setup.get("names") or [self._("Player {n}", n=i + 1) for i in range(n)]
        if len(names) != n:
            raise ValueError(f"smb setup: {len(names)} names for {n} players")
        deck = setup.get("deck")
        known = deck is not None
        if known and sorted(deck) != sorted(self.worlds.deck()):
            mix = ", ".join(f"{kind} x{info['count']}" for kind, info in self.worlds.cards.items())
            raise ValueError(f"smb setup: \"deck\" must hold the 36 cards of the mix ({mix})")
        deck = list(deck) if known else [UNKNOWN] * len(self.worlds.deck())
        hands = tuple(tuple(deck[i + j * n] for j in range(HAND_SIZE)) for i in range(n))
        return SMBState(names=tuple(names), coins=(0,) * n, hands=hands,
                        pile=tuple(deck[HAND_SIZE * n:]), mario=self.worlds.worlds[1].start,
                        seed=int(setup.get("seed", 0)), known_deck=known, lives_lost=(0,) * n)

    def seats(self, state: SMBState) -> list[str]:
        return list(state.names)

    def rulings(self) -> list[Ruling]:
        red = self.settings["bowser_red"]
        _ = self._
        return [
            Ruling("die", "2 red, 2 yellow, 1 red/yellow, 1 STOP",
                   _("The die has six faces: two red, two yellow, one red/yellow, one STOP.")),
            Ruling("next_space", "nearest", _("The next red (yellow) space is every nearest one ahead "
                                              "with none of that colour between; where there are several, "
                                              "the player chooses.")),
            Ruling("passed_tokens", "any_branch", _("A hazard token on any space between Mario and "
                                                    "where he lands is passed over and goes back to the pile.")),
            Ruling("lives", "not_counted", _("Losing a life ends the turn and Mario stays; lives are "
                                             "not counted down. 4 coins buy an extra life after a STOP or a lost "
                                             "life, as often as the coins allow.")),
            Ruling("hazard_timing", "after_first_move", _("Each opponent may play one card per roll, "
                                                          "once the player has rolled and moved; a hazard token "
                                                          "needs a matching token left in the pile.")),
            Ruling("old_world_tokens", "returned", _("Hazard tokens left on a finished World go back "
                                                     "to the pile when Mario moves to the next World.")),
            Ruling("coins", "unlimited", _("The coin pile never runs out (\"no limit to the number "
                                           "of coins you can have\").")),
            Ruling("bowser_red", red, _("In the King Bowser phase a red roll cannot move Mario: the turn ends "
                                        "as after a STOP (coins may extend it).") if red == "ends_turn" else
                   _("In the King Bowser phase a red roll cannot move Mario: the player rolls again.")),
        ]

    # --- notation ------------------------------------------------------------------
    _RE = re.compile(r"^(roll|move|card|token|fireball|buy|pass)(?:\s+(.*))?$")

    def parse(self, state: SMBState, text: str):
        t = " ".join(text.strip().lower().split())
        m = self._RE.match(t)
        if not m:
            raise NotationError(self._("{text!r} is not a Super Mario Bros. move", text=text.strip()),
                                self._("expected 'roll red|yellow|red/yellow|stop', 'move <space>', 'buy', 'pass', "
                                       "'card <seat> <hazard>', 'token <space>' or 'fireball <space>'"))
        verb, arg = m[1], (m[2] or "")
        if verb in ("buy", "pass"):
            if arg:
                raise NotationError(self._("'{verb}' takes nothing after it", verb=verb))
            return Buy() if verb == "buy" else Pass()
        if verb == "roll":
            if arg not in FACES:
                raise NotationError(self._("{face!r} is not a face of the die: red, yellow, red/yellow or stop",
                                           face=arg) if arg else
                                    self._("a roll says the face the die shows: red, yellow, red/yellow or stop"))
            return Roll(arg)
        if verb == "card":
            parts = arg.split()
            if len(parts) < 2 or not parts[0].isdigit():
                raise NotationError(self._("a card is played as 'card <seat> <hazard>', e.g. 'card 2 goomba'"))
            seat, kind = int(parts[0]) - 1, "_".join(parts[1:])  # 'card 2 bullet bill' as printed
            if not 0 <= seat < state.players:
                raise NotationError(self._("seat {seat} does not exist: seats are 1-{last}", seat=parts[0],
                                           last=state.players))
            if kind == "fireball":
                raise NotationError(self._("a Fireball is played as 'fireball <space>' by the player to roll"))
            if kind not in self.worlds.hazards:
                raise NotationError(self._("{kind!r} is not a hazard card: {kinds}", kind=kind,
                                           kinds=', '.join(self.worlds.hazards)))
            return Card(seat, kind)
        if self.worlds.world_of(arg) is None:
            raise NotationError(self._("{space!r} is not a space on the World boards", space=arg))
        return {"move": Move, "token": Token, "fireball": Fireball}[verb](arg)

    def notation(self, state: SMBState, action) -> str:
        if isinstance(action, Roll):
            return f"roll {action.face}"
        if isinstance(action, Card):
            return f"card {action.seat + 1} {action.kind}"
        if isinstance(action, (Buy, Pass)):
            return "buy" if isinstance(action, Buy) else "pass"
        verb = {Move: "move", Token: "token", Fireball: "fireball"}[type(action)]
        return f"{verb} {action.space}"

    def reader_options(self, state) -> dict:
        """The camera reads the World board in play (its plain board data). On a link
        space the players swap the boards and put Mario on the next World's START: the
        camera then looks for the next World's board, where that move is seen."""
        world = state.world + 1 if state.phase == "link" else state.world
        return {"world": world_data(world, self.settings["board"] or None)}

    def sheet(self, number: int) -> tuple[str, dict]:
        """World `number`'s board (a BoardError names a World the board file lacks)."""
        return self._("World {n}", n=number), {"world": world_data(number, self.settings["board"] or None)}

    def layout(self) -> dict:
        """The World boards: spaces, where they lie, how the path runs (draw/smb.js)."""
        return {"worlds": {str(n): _world_layout(w, self._) for n, w in self.worlds.worlds.items()}}

    def actor(self, state, action) -> int | None:
        """A hazard card is played by the opponent who holds it, out of turn."""
        return action.seat if isinstance(action, Card) else self.prompt(state).seat

    def is_roll(self, action) -> bool:
        return isinstance(action, Roll)

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

    # --- what is waited for ----------------------------------------------------------
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
            text += "; " + self._("a Fireball may be played first")
        if any(self._card_kinds(state, s) for s in range(state.players)):
            text += "; " + self._("opponents may play a hazard card")
        return Prompt("roll", state.turn, text, die=self.die)

    # --- checking --------------------------------------------------------------------
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

    # --- wording a wrong move -------------------------------------------------------
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

    # --- applying --------------------------------------------------------------------
    def apply(self, state: SMBState, action) -> SMBState:
        after = self._apply(state, action)
        gone = {s for s, _ in state.tokens} - {s for s, _ in after.tokens}
        return _evolve(after, returned=tuple(sorted(gone)))

    def _apply(self, state: SMBState, action) -> SMBState:
        if isinstance(action, Roll):
            return self._roll(state, action.face)
        if isinstance(action, Move):
            return self._move(state, action.space)
        if isinstance(action, Buy):
            coins = _set(state.coins, state.turn, state.coins[state.turn] - EXTRA_LIFE)
            return _evolve(state, coins=coins, phase="roll", note=self._("extra life bought: roll again"))
        if isinstance(action, Pass):
            return self._next_turn(state, "")
        if isinstance(action, Card):
            hand = _without(state.hands[action.seat], action.kind)
            return _evolve(state, hands=_set(state.hands, action.seat, hand),
                           discard=state.discard + (action.kind,), played=state.played + (action.seat,),
                           pending=(action.seat, action.kind), phase="token", note="")
        if isinstance(action, Token):
            tokens = tuple(sorted(state.tokens + ((action.space, state.pending[1]),)))
            return _evolve(state, tokens=tokens, pending=None, phase="roll", note="")
        hand = _without(state.hands[state.turn], "fireball")
        return _evolve(state, hands=_set(state.hands, state.turn, hand), discard=state.discard + ("fireball",),
                       tokens=tuple(t for t in state.tokens if t[0] != action.space), fireball_used=True,
                       note=self._("the Fireball removes the token on {space}", space=action.space))

    def _roll(self, state: SMBState, face: str) -> SMBState:
        rolled = dict(rolls=state.rolls + 1, roll=face, played=(), fireball_used=False, note="")
        if state.bowser:
            if face in ("yellow", "red/yellow"):
                princess = self.worlds.worlds[4].with_feature("princess")[0]
                return _evolve(state, phase="move", targets=(princess,), **rolled)
            if face == "red" and self.settings["bowser_red"] == "rolls_again":
                return _evolve(state, **{**rolled, "note": self._("red cannot move Mario past King Bowser: roll again")})
            return self._turn_over(_evolve(state, **rolled), self._("no yellow: the turn is over"))
        if face == "stop":
            return self._turn_over(_evolve(state, **rolled), self._("the turn is over"))
        world = self.worlds.worlds[state.world]
        targets = sorted({st.target for c in ROLL_COLOURS[face] for st in world.ahead(state.mario, c)})
        if not targets:
            return _evolve(state, **{**rolled, "note": self._(NO_SPACE[face])})
        return _evolve(state, phase="move", targets=tuple(targets), **rolled)

    def _move(self, state: SMBState, space_id: str) -> SMBState:
        if state.phase == "link":
            # the old board is set aside: its tokens go back to the pile (ruling)
            return _evolve(state, world=state.world + 1, mario=space_id, tokens=(), phase="roll",
                           targets=(), note=self._("World {n}: continue the turn", n=state.world + 1))
        sp = self._space(space_id)
        world = self.worlds.worlds[state.world]
        passed = set()
        if not state.bowser:
            for c in ROLL_COLOURS[state.roll]:
                passed |= {s for st in world.ahead(state.mario, c) if st.target == space_id for s in st.passed}
        jumped = [s for s, _ in state.tokens if s in passed]
        tokens = tuple(t for t in state.tokens if t[0] not in passed)
        notes = [self._("jumped over the hazard token on {spaces}: it goes back to the pile",
                        spaces=self._spaces(jumped))] if jumped else []
        state = _evolve(state, mario=space_id, tokens=tokens, targets=(), moved=True, phase="roll")
        who = state.names[state.turn]
        if sp.has("princess"):
            return _evolve(state, phase="over", note="; ".join(notes + [self._("Mario saves the Princess")]),
                           outcome=Outcome(state.turn, self._("{who} moves Mario onto the Princess space", who=who),
                                           who))
        if sp.has("link"):
            return _evolve(state, phase="link", targets=(self.worlds.worlds[state.world + 1].start,),
                           note="; ".join(notes + [self._("a link to World {n}", n=state.world + 1)]))
        if state.token_at(space_id):
            state = _evolve(state, tokens=tuple(t for t in state.tokens if t[0] != space_id))
            return self._lose_life(state, notes + [self._("landed on a hazard token: it goes back to the "
                                                          "pile; no coins or cards here")])
        for feature in LOSE_LIFE:
            if sp.has(feature):
                if feature == "king_bowser":
                    state = _evolve(state, bowser=True)
                    notes.append(self._("King Bowser! From now on each player in turn rolls: yellow or "
                                        "red/yellow saves the Princess"))
                return self._lose_life(state, notes + [self._("landed on {space} ({feature})", space=sp.name(self._),
                                                              feature=self._(FEATURE_NAMES[feature]))])
        gain = sum(pay for feature, pay in COIN_PAY if sp.has(feature))
        if gain:
            state = _evolve(state, coins=_set(state.coins, state.turn, state.coins[state.turn] + gain))
            notes.append(self._.n("{who} collects {n} coin", "{who} collects {n} coins", gain, who=who))
        if sp.has("question_block"):
            state, drew = self._draw(state, state.turn)
            notes.append(self._("{who} draws a card", who=who) if drew else self._("no card left to draw"))
        return _evolve(state, note="; ".join(notes))

    def _lose_life(self, state: SMBState, notes: list[str]) -> SMBState:
        lost = _set(state.lives_lost, state.turn, state.lives_lost[state.turn] + 1)
        return self._turn_over(_evolve(state, lives_lost=lost), "; ".join(notes + [self._("a life is lost")]))

    def _turn_over(self, state: SMBState, note: str) -> SMBState:
        """After a STOP or a lost life: an extra life may extend the turn."""
        if state.coins[state.turn] >= EXTRA_LIFE:
            return _evolve(state, phase="extra", targets=(), note=note)
        return self._next_turn(state, note)

    def _next_turn(self, state: SMBState, note: str) -> SMBState:
        return _evolve(state, turn=(state.turn + 1) % state.players, phase="roll", moved=False,
                       played=(), fireball_used=False, targets=(), turns=state.turns + 1, note=note)

    def _draw(self, state: SMBState, seat: int) -> tuple[SMBState, bool]:
        """Top card of the drawpile to `seat`; an empty drawpile is the shuffled discards."""
        if not state.pile:
            if not state.discard:
                return state, False
            state = _evolve(state, pile=self._reshuffled(state), discard=(), reshuffles=state.reshuffles + 1)
        card, pile = state.pile[0], state.pile[1:]
        hands = _set(state.hands, seat, state.hands[seat] + (card,))
        return _evolve(state, pile=pile, hands=hands), True

    def _reshuffled(self, state: SMBState) -> tuple[str, ...]:
        """The discards in the order the setup's seed gives this reshuffle: pure and
        replayable, and unknowable to the players as a shuffle is."""
        if not state.known_deck:
            return (UNKNOWN,) * len(state.discard)

        def key(i: int) -> bytes:
            return hashlib.blake2b(f"{state.seed}:{state.reshuffles}:{i}".encode(), digest_size=8).digest()
        order = sorted(range(len(state.discard)), key=key)
        return tuple(state.discard[i] for i in order)

    def outcome(self, state: SMBState) -> Outcome | None:
        return state.outcome

    # --- all legal actions (the simulator and the camera use them) ------------------
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

    def observable_actions(self, state: SMBState, changed: set | None = None) -> Iterable:
        if state.outcome or state.phase not in ("move", "link", "token"):
            return []
        return self.legal_actions(state)

    # --- the page and the camera ----------------------------------------------------
    def seen_by(self, state: SMBState, viewer: int | None) -> SMBState:
        """Another seat's hand and the draw pile are face down (UNKNOWN), as a physical
        deck is to the referee: nothing worded from this state tells who holds what."""
        hands = tuple(h if seat == viewer else (UNKNOWN,) * len(h) for seat, h in enumerate(state.hands))
        return _evolve(state, hands=hands, pile=(UNKNOWN,) * len(state.pile))

    def snapshot(self, state: SMBState, viewer: int | None = None) -> dict:
        mario = self._space(state.mario)
        return {
            "world": state.world,
            "mario": state.mario,
            "mario_space": mario.name(self._),
            "turn": state.turn,
            "phase": state.phase,
            "roll": state.roll,
            "targets": list(state.targets),
            "bowser_phase": state.bowser,
            "coins": {state.names[i]: c for i, c in enumerate(state.coins)},
            "cards": {state.names[i]: len(h) for i, h in enumerate(state.hands)},
            "hand": [printed(k) if k != UNKNOWN else self._("a card the referee has not seen") for k in state.hands[viewer]]
            if viewer is not None else None,
            "drawpile": len(state.pile),
            "discards": list(state.discard),
            "hazard_tokens": [{"space": s, "kind": k, "name": printed(k), "space_name": self._space(s).name(self._)}
                              for s, k in state.tokens],
            "lives_lost": {state.names[i]: n for i, n in enumerate(state.lives_lost)},
            "turns": state.turns,
            "rolls": state.rolls,
            "note": state.note,
            # what the page writes on each player's card (never the cards themselves)
            "seat_words": [" \u00B7 ".join((self._.n("{n} coin", "{n} coins", state.coins[i]),
                                            self._.n("{n} card in hand", "{n} cards in hand", len(state.hands[i])),
                                            self._.n("{n} life lost", "{n} lives lost", state.lives_lost[i])))
                           for i in range(state.players)],
            "board": self.settings["board"] or "stand-in (controller/games/data/smb_worlds.json)",
        }

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


def _evolve(state: SMBState, **changes) -> SMBState:
    """A copy of `state` with `changes`: what dataclasses.replace does, without running
    __init__ over some 25 fields again; the simulator makes a few hundred per game and
    replace was half of its time."""
    new = object.__new__(SMBState)
    new.__dict__.update(state.__dict__, **changes)
    return new


def _set(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _without(hand: tuple[str, ...], kind: str) -> tuple[str, ...]:
    """The hand less one `kind` card (or one unseen card)."""
    i = hand.index(kind) if kind in hand else hand.index(UNKNOWN)
    return hand[:i] + hand[i + 1:]


def _world_layout(w, _) -> dict:
    """A World for the page's drawing, its spaces named as the game (`_`) names them."""
    return {"size": list(w.size), "start": w.start,
            "spaces": [{"id": s.id, "colour": s.colour, "level": s.level, "at": list(s.at),
                        "features": sorted(s.features), "next": list(s.next), "name": s.name(_),
                        "label": s.label}
                       for s in w.spaces.values()],
            "blocks": list(w.blocks.values()) if isinstance(w.blocks, dict) else list(w.blocks),
            "decor": list(w.decor)}
