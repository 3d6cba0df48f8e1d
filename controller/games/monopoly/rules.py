"""Monopoly The Super Mario Bros. Movie: the referee is the Bank (shared/RULINGS.md section 5).

The board and both card decks are data (board.py; the bundled values are a STAND-IN to
be checked against the printed board). Seats are numbered from 0 in playing order (the
page seats the starting player first); each player is named after their token.

The game is one `Game` made of one module per facet, so each can be read alone:
actions.py (the inputs and their notation), state.py, turn.py (the engine and the steps
of a turn), inputs.py (what each awaited input does), prompts.py (what is awaited, the
options), legality.py (`check`), words.py, page.py (the snapshot) and camera.py. This
module holds what ties them: the settings and rulings, the setup, and the game's face
to the referee.

Pure and deterministic: dice and both decks' order (drawn by `new_setup`) arrive as
inputs, so a journal replays to the same state. `roll_result` (turn.py) and `Board.walk`
are the movement rules shared with the landing-frequency simulation.
"""
from __future__ import annotations

from typing import Mapping

from ...i18n import N_
from ..base import Game, Outcome, Ruling
from ..shape import Each, OneOf
from . import actions
from .actions import Roll
from .board import DECK_SIZE, DECKS, SPACES, Board, load_board
from .camera import Camera
from .inputs import Inputs
from .legality import Legality
from .page import Page
from .prompts import PAIR_DIE, Prompts
from .state import Draft, MState
from .turn import Turn
from .words import Words


def _on(value) -> bool:
    return value not in (False, "off", "no", 0, "false")


class Monopoly(Camera, Page, Words, Prompts, Legality, Inputs, Turn, Game):
    """The game as the referee and the registry know it: its settings and rulings, its
    setup, and the facets (mixins, one module each) that together make the rules."""

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

    def outcome(self, state: MState) -> Outcome | None:
        return state.outcome

    # --- notation (actions.py) -----------------------------------------------------------
    def parse(self, state: MState, text: str):
        return actions.parse(text, self._)

    def notation(self, state: MState, action) -> str:
        return action.notation()

    def actor(self, state, action) -> int | None:
        """Auction bids and trade offers come from any player, not only the one to move."""
        return action.by if action.by is not None else self.prompt(state).seat

    def not_one_seats(self, state: MState, action) -> str:
        """Closing an auction ends every player's chance to bid: the Bank's, not a bidder's."""
        return self._("the auction is closed by the Bank, not by a player: the referee closes it (admin) "
                      "once no one bids more")

    def is_roll(self, action) -> bool:
        return isinstance(action, Roll)
