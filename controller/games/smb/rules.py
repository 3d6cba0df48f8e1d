"""Super Mario Bros. board game (Milton Bradley / Nintendo, 1988), refereed.

Rules: shared/rules/super-mario-bros-board-game.txt; readings: shared/RULINGS.md section 4.
The four World boards and the 36-card mix are data (board.py; the bundled Worlds are a
stand-in, see there). All players move the one Mario piece; seat 0 is the youngest
player and play goes clockwise (seat 1 is to seat 0's left).

The game is one `Game` made of one module per facet, so each can be read alone:
actions.py (the inputs and their notation), state.py, legality.py (`check`, the legal
inputs), prompts.py, words.py, page.py (the snapshot) and camera.py. This module holds
what ties them: the settings and rulings, the setup, and what each input does.

Coins (mushroom 4, coins inside 2, coin on top 1) and the card under a question block
are collected automatically on landing. The shuffle order of the deck is in the setup
(``{"players": n, "deck": [36 kinds] | null, "seed": s}``; a null deck is a physical
deck the referee cannot see: hands are then counts only, and a card's identity is
checked against the 36-card mix when it is played). A reshuffle of the discards is a
permutation derived from the setup's seed and the reshuffle's number, so the game stays
a pure function of its journal.
"""
from __future__ import annotations

import hashlib
from typing import Mapping

from ...i18n import N_
from ..base import Game, Outcome, Ruling
from ..shape import OneOf
from ..words import semicolon
from . import actions
from .actions import ROLL_COLOURS, Buy, Card, Move, Pass, Roll, Token
from .board import FEATURE_NAMES, Worlds, bundled_worlds, load_worlds
from .camera import Camera
from .legality import Legality
from .page import Page
from .prompts import Prompts
from .state import EXTRA_LIFE, UNKNOWN, SMBState, evolve
from .words import NO_SPACE, Words

COIN_PAY = (("mushroom", 4), ("coins_inside", 2), ("coin_on_top", 1))
LOSE_LIFE = ("water", "fire_bar", "king_bowser")
HAND_SIZE = 3


class SuperMarioBros(Camera, Page, Prompts, Words, Legality, Game):
    """The game as the referee and the registry know it: its settings and rulings, its
    setup, what each input does, and the facets (mixins, one module each) that make the rest."""

    name = "smb"
    title = N_("Super Mario Bros. board game (1988)")
    die = "smb"
    max_actions_per_view = 2  # a link space and the next World's START in one view
    SETTINGS = {"players": 2, "bowser_red": "ends_turn", "board": None}
    SETTINGS_SHAPE = {"players": int, "bowser_red": OneOf(("ends_turn", "rolls_again")),
                      "board": str}  # a board file (board.py)
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

    # --- notation (actions.py) -----------------------------------------------------
    def parse(self, state: SMBState, text: str):
        return actions.parse(text, self._, self.worlds, state.players)

    def notation(self, state: SMBState, action) -> str:
        return action.notation()

    def actor(self, state, action) -> int | None:
        """A hazard card is played by the opponent who holds it, out of turn."""
        return action.by if action.by is not None else self.prompt(state).seat

    def is_roll(self, action) -> bool:
        return isinstance(action, Roll)

    # --- applying --------------------------------------------------------------------
    def apply(self, state: SMBState, action) -> SMBState:
        after = self._apply(state, action)
        gone = {s for s, _ in state.tokens} - {s for s, _ in after.tokens}
        return evolve(after, returned=tuple(sorted(gone)))

    def _apply(self, state: SMBState, action) -> SMBState:
        if isinstance(action, Roll):
            return self._roll(state, action.face)
        if isinstance(action, Move):
            return self._move(state, action.space)
        if isinstance(action, Buy):
            coins = _set(state.coins, state.turn, state.coins[state.turn] - EXTRA_LIFE)
            return evolve(state, coins=coins, phase="roll", note=self._("extra life bought: roll again"))
        if isinstance(action, Pass):
            return self._next_turn(state, "")
        if isinstance(action, Card):
            hand = _without(state.hands[action.seat], action.kind)
            return evolve(state, hands=_set(state.hands, action.seat, hand),
                           discard=state.discard + (action.kind,), played=state.played + (action.seat,),
                           pending=(action.seat, action.kind), phase="token", note="")
        if isinstance(action, Token):
            tokens = tuple(sorted(state.tokens + ((action.space, state.pending[1]),)))
            return evolve(state, tokens=tokens, pending=None, phase="roll", note="")
        hand = _without(state.hands[state.turn], "fireball")
        return evolve(state, hands=_set(state.hands, state.turn, hand), discard=state.discard + ("fireball",),
                       tokens=tuple(t for t in state.tokens if t[0] != action.space), fireball_used=True,
                       note=self._("the Fireball removes the token on {space}", space=action.space))

    def _roll(self, state: SMBState, face: str) -> SMBState:
        rolled = dict(rolls=state.rolls + 1, roll=face, played=(), fireball_used=False, note="")
        if state.bowser:
            if face in ("yellow", "red/yellow"):
                princess = self.worlds.worlds[4].with_feature("princess")[0]
                return evolve(state, phase="move", targets=(princess,), **rolled)
            if face == "red" and self.settings["bowser_red"] == "rolls_again":
                return evolve(state, **{**rolled, "note": self._("red cannot move Mario past King Bowser: roll again")})
            return self._turn_over(evolve(state, **rolled), self._("no yellow: the turn is over"))
        if face == "stop":
            return self._turn_over(evolve(state, **rolled), self._("the turn is over"))
        world = self.worlds.worlds[state.world]
        targets = sorted({st.target for c in ROLL_COLOURS[face] for st in world.ahead(state.mario, c)})
        if not targets:
            return evolve(state, **{**rolled, "note": self._(NO_SPACE[face])})
        return evolve(state, phase="move", targets=tuple(targets), **rolled)

    def _move(self, state: SMBState, space_id: str) -> SMBState:
        if state.phase == "link":
            # the old board is set aside: its tokens go back to the pile (ruling)
            return evolve(state, world=state.world + 1, mario=space_id, tokens=(), phase="roll",
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
        state = evolve(state, mario=space_id, tokens=tokens, targets=(), moved=True, phase="roll")
        who = state.names[state.turn]
        if sp.has("princess"):
            return evolve(state, phase="over", note=semicolon(self._).join(notes + [self._("Mario saves the Princess")]),
                           outcome=Outcome(state.turn, self._("{who} moves Mario onto the Princess space", who=who),
                                           who))
        if sp.has("link"):
            return evolve(state, phase="link", targets=(self.worlds.worlds[state.world + 1].start,),
                           note=semicolon(self._).join(notes + [self._("a link to World {n}", n=state.world + 1)]))
        if state.token_at(space_id):
            state = evolve(state, tokens=tuple(t for t in state.tokens if t[0] != space_id))
            return self._lose_life(state, notes + [self._("landed on a hazard token: it goes back to the "
                                                          "pile; no coins or cards here")])
        for feature in LOSE_LIFE:
            if sp.has(feature):
                if feature == "king_bowser":
                    state = evolve(state, bowser=True)
                    notes.append(self._("King Bowser! From now on each player in turn rolls: yellow or "
                                        "red/yellow saves the Princess"))
                return self._lose_life(state, notes + [self._("landed on {space} ({feature})", space=sp.name(self._),
                                                              feature=self._(FEATURE_NAMES[feature]))])
        gain = sum(pay for feature, pay in COIN_PAY if sp.has(feature))
        if gain:
            state = evolve(state, coins=_set(state.coins, state.turn, state.coins[state.turn] + gain))
            notes.append(self._.n("{who} collects {n} coin", "{who} collects {n} coins", gain, who=who))
        if sp.has("question_block"):
            state, drew = self._draw(state, state.turn)
            notes.append(self._("{who} draws a card", who=who) if drew else self._("no card left to draw"))
        return evolve(state, note=semicolon(self._).join(notes))

    def _lose_life(self, state: SMBState, notes: list[str]) -> SMBState:
        lost = _set(state.lives_lost, state.turn, state.lives_lost[state.turn] + 1)
        return self._turn_over(evolve(state, lives_lost=lost), semicolon(self._).join(notes + [self._("a life is lost")]))

    def _turn_over(self, state: SMBState, note: str) -> SMBState:
        """After a STOP or a lost life: an extra life may extend the turn."""
        if state.coins[state.turn] >= EXTRA_LIFE:
            return evolve(state, phase="extra", targets=(), note=note)
        return self._next_turn(state, note)

    def _next_turn(self, state: SMBState, note: str) -> SMBState:
        return evolve(state, turn=(state.turn + 1) % state.players, phase="roll", moved=False,
                       played=(), fireball_used=False, targets=(), turns=state.turns + 1, note=note)

    def _draw(self, state: SMBState, seat: int) -> tuple[SMBState, bool]:
        """Top card of the drawpile to `seat`; an empty drawpile is the shuffled discards."""
        if not state.pile:
            if not state.discard:
                return state, False
            state = evolve(state, pile=self._reshuffled(state), discard=(), reshuffles=state.reshuffles + 1)
        card, pile = state.pile[0], state.pile[1:]
        hands = _set(state.hands, seat, state.hands[seat] + (card,))
        return evolve(state, pile=pile, hands=hands), True

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


def _set(values: tuple, i: int, value) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _without(hand: tuple[str, ...], kind: str) -> tuple[str, ...]:
    """The hand less one `kind` card (or one unseen card)."""
    i = hand.index(kind) if kind in hand else hand.index(UNKNOWN)
    return hand[:i] + hand[i + 1:]
