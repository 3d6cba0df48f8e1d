"""The rules of Super Mario Labyrinth (Ravensburger), read as shared/RULINGS.md section 3
says: whose turn it is, what a player may do, what it changes, and who wins. The maze's
geometry (controller/games/labyrinth/maze.py), the words (words.py), the camera's view
(camera.py), the page (page.py) and the start of a game (setups.py) are facets of their
own; the Labyrinth class is the Game the referee asks, and hands each question to its
facet.

A turn is: push the spare tile in at one of the 12 arrows (turned any way), which pushes
the tile at the far end out; then move one's pawn along an unbroken passage, or stay.
The tile may not go back in at the arrow opposite the previous push (after N2: not S2).
Each player has secret targets (treasure pictures); the first to find all of theirs and
get back to their own start corner wins. Play goes clockwise (red, yellow, green, blue),
starting with the seat the setup names first.

When a turn ends. After the push the player may put the pawn down, pick it up again and
put it elsewhere (or back) as often as they like: each move must be to a square the
pawn's passage reaches (the maze does not change within the move, so that is the same set
of squares from wherever the pawn stands now). Only when the turn ends is the pawn's
square final: a target is found, and the game won, then. The turn ends with ``end`` (or
``stay``: the player presses the button or says so on the page) or with the next
player's push, which is all the camera sees; a push written while the pawn may still move
is therefore the next player's, and ends this turn first.

Settings (rulings, shown on the page): ``players`` 2-4 (default 4); ``cards``
"referee" (the referee deals and spots finds; default) or "paper"; ``targets``
"secret" (only the top card is known and must be found next; default) or "open" (the
younger players' variant: any remaining card may be found); ``finish`` "start" (back
on the start corner; default) or "any_side" (younger variant, by agreement). The
variant "younger" makes ``targets`` default to "open".
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from ...i18n import N_
from ..base import Game, IllegalAction, Outcome, Prompt, Ruling
from ..shape import Each
from ..words import printed
from . import actions, camera, page, setups, words
from .actions import DeclareFound, Leave, MovePawn, Push, Stay
from .maze import ARROWS, CARDS, MOVABLE_TILES, OPPOSITE_ARROW, SIZE, STARTS, Tile, cell_text, exit_sides, \
    push_tiles, reachable, rotate
from .state import UNSEEN, LabState
from .words import SEAT_WORDS, arrow_words


class Labyrinth(Game):
    name = "labyrinth"
    title = N_("Super Mario Labyrinth")
    variants = (N_("standard"), N_("younger"))
    max_actions_per_view = 2  # a push and the pawn's move may be seen in one stable view

    _CHOICES = {"cards": ("referee", "paper"), "targets": ("secret", "open"),
                "finish": ("start", "any_side")}

    def __init__(self, variant=None, settings=None, lang="en"):
        super().__init__(variant, settings, lang)
        defaults = {"players": 4, "cards": "referee",
                    "targets": "open" if self.variant == "younger" else "secret", "finish": "start"}
        unknown = sorted(set(self.settings) - set(defaults))
        if unknown:
            raise ValueError(f"labyrinth has no setting {unknown[0]!r}; expected one of "
                             f"{', '.join(defaults)}")
        merged = {**defaults, **self.settings}
        for key, allowed in self._CHOICES.items():
            if merged[key] not in allowed:
                raise ValueError(f"labyrinth setting {key!r} must be one of {', '.join(allowed)}, "
                                 f"not {merged[key]!r}")
        if not isinstance(merged["players"], int) or not 2 <= merged["players"] <= 4:
            raise ValueError(f"labyrinth setting 'players' must be 2, 3 or 4, not {merged['players']!r}")
        self.settings = merged

    def rulings(self) -> list[Ruling]:
        s = self.settings
        _ = self._
        return [
            Ruling("spare_any_orientation", True, _("The spare tile may be turned to any of its four "
                                                    "orientations before it goes in.")),
            Ruling("cards_per_player", CARDS // s["players"], _("The {cards} cards are shared evenly: {each} each for "
                                                                "{players} players.", cards=CARDS,
                                                                each=CARDS // s["players"], players=s["players"])),
            Ruling("cards", s["cards"], _("The referee deals the secret targets and spots finds itself.")
                   if s["cards"] == "referee" else _("Players keep the paper cards and declare each find "
                                                     "('found'); the referee checks it against the tile under the pawn.")),
            Ruling("targets", s["targets"], _("Only the top card counts; it must be found next.")
                   if s["targets"] == "secret" else _("Younger players' variant: all cards are visible "
                                                      "and any of them may be found next.")),
            Ruling("finish", s["finish"], _("To win, a player with every card found must be back on "
                                            "their start corner.") if s["finish"] == "start" else
                   _("Younger players' variant: with every card found, leaving the maze on any side wins.")),
            Ruling("tile_count", MOVABLE_TILES, _("The referee warns when the setup does not have 34 "
                                                  "movable tiles (33 on the board and the spare).")),
        ]

    # --- the start of a game (setups.py) ------------------------------------------
    SETUP = {"players": [str], "first": int, "rows": [(str, list)], "spare": str, "targets": Each([str]),
             "from_table": bool}

    def new_setup(self, rng) -> dict:
        return setups.new_setup(self.settings, rng)

    def setup_from_layout(self, rows: list[str], rng, spare: str | None = None,
                          deal: Mapping | None = None) -> dict:
        return setups.setup_from_layout(self.settings, rows, rng, spare, deal)

    def public_setup(self, setup) -> dict:
        """The maze is on the table for all to see; the targets are secret."""
        return {k: v for k, v in setup.items() if k != "targets"}

    def start(self, setup: Mapping | None = None) -> LabState:
        return setups.first_state(self.settings, self.checked_setup(setup))

    # --- notation and words (actions.py, words.py) ---------------------------------
    def parse(self, state: LabState, text: str):
        return actions.parse(self._, state, text)

    def notation(self, state: LabState, action) -> str:
        return action.notation(state)

    def describe(self, state: LabState, action) -> str:
        return words.describe(self, state, action)

    def seats(self, state: LabState) -> list[str]:
        return [self._(SEAT_WORDS[c]) for c in state.colours]

    def cell_name(self, cell) -> str:
        return words.cell_name(self._, cell)

    def label_words(self, state: LabState, label: str) -> str:
        return words.label_words(self._, label)

    def _who(self, state: LabState, seat: int) -> str:
        return words.who(self._, state, seat)

    # --- what the camera and the page see (camera.py, page.py) ---------------------
    def board(self, state: LabState) -> dict:
        return camera.board(state)

    def printed_board(self) -> dict:
        return camera.printed_board(self.settings["players"])

    def observable_actions(self, state: LabState, changed: set | None = None) -> list:
        return camera.observable_actions(self, state, changed)

    def explain(self, state: LabState, seen: Mapping) -> IllegalAction:
        return camera.explain(self, state, seen)

    def fix(self, state: LabState, seen: Mapping) -> str:
        return camera.fix(self._, state, seen)

    def snapshot(self, state: LabState, viewer: int | None = None) -> dict:
        return page.snapshot(self, state, viewer)

    # --- the rules -----------------------------------------------------------------
    def cards_of(self, state: LabState, seat: int) -> int:
        """How many cards `seat` must find: those dealt, or with paper cards an even
        share of the 24."""
        return len(state.targets[seat]) if state.targets is not None else CARDS // len(state.colours)

    def wanted(self, state: LabState, seat: int) -> tuple[str, ...]:
        """The treasures `seat` may find next: the top card, or with open targets any
        card not yet found. Empty in the paper-cards mode (the referee does not know)."""
        if state.targets is None:
            return ()
        left = [t for t in state.targets[seat] if t not in state.found[seat]]
        if self.settings["targets"] == "secret":
            return tuple(left[:1])
        return tuple(left)

    def seen_by(self, state: LabState, viewer: int | None) -> LabState:
        """Each other seat's cards not yet found are secret (face down): they read as
        UNSEEN, so nothing worded from this state names one ("finds Rosalina" is said
        when the turn ends there, not while it may). Open targets hide nothing."""
        if state.targets is None or self.settings["targets"] == "open":
            return state
        targets = tuple(cards if seat == viewer else state.found[seat] + (UNSEEN,) * (len(cards) - len(state.found[seat]))
                        for seat, cards in enumerate(state.targets))
        return replace(state, targets=targets)

    def actor(self, state: LabState, action) -> int | None:
        """A push while the pawn may still move is the next player's (it ends this turn);
        a find after the turn is declared by the player who just moved."""
        if state.outcome:
            return None
        if isinstance(action, Push) and state.phase == "move":
            return (state.turn + 1) % len(state.colours)
        if isinstance(action, DeclareFound) and state.phase == "push":
            return state.last_mover
        return state.turn

    def prompt(self, state: LabState) -> Prompt:
        if state.outcome:
            return Prompt("move", None, self._("Game over: {reason}", reason=state.outcome.reason))
        who = self._who(state, state.turn)
        # the page shows the options as buttons: "end" is the button that ends the turn
        found = ("found",) if any(isinstance(a, DeclareFound) for a in self.legal_actions(state)) else ()
        if state.phase == "push":
            text = self._("{who}: push the spare tile in at an arrow (not at {arrow})", who=who,
                          arrow=arrow_words(state.banned, self._)) if state.banned else \
                self._("{who}: push the spare tile in at an arrow", who=who)
            return Prompt("move", state.turn, text, options=found)
        return Prompt("move", state.turn, self._("{who}: move the pawn as often as you like, then end the turn "
                                                 "on the page or let the next player push", who=who),
                      options=("end",) + found)

    def _check_seat(self, state: LabState, seat: int | None, expected: int) -> None:
        if seat is not None and seat != expected:
            raise IllegalAction(self._("it is {who}'s turn, not {other}'s", who=self._who(state, expected),
                                       other=self._who(state, seat)))

    def check(self, state: LabState, action) -> None:
        if state.outcome:
            raise IllegalAction(self._("the game is over: {reason}", reason=state.outcome.reason))
        if isinstance(action, DeclareFound):
            self._check_declaration(self.end_turn(state) if state.phase == "move" else state, action)
            return
        who = self._who(state, state.turn)
        if isinstance(action, Push):
            if action.arrow not in ARROWS:
                raise IllegalAction(self._("there is no arrow {arrow}", arrow=action.arrow))
            if state.phase == "move":
                if action.seat == state.turn:
                    raise IllegalAction(self._("{who} has already changed the maze this turn; now move the "
                                               "pawn or end the turn", who=who))
                state = self.end_turn(state)  # the next player's push ends this turn
            self._check_seat(state, action.seat, state.turn)
            if action.arrow == state.banned:
                raise IllegalAction(self._("the tile may not go back in at {arrow}, where the previous push at "
                                           "{last} just pushed it out", arrow=arrow_words(action.arrow, self._),
                                           last=arrow_words(state.last_push, self._)))
            return
        self._check_seat(state, action.seat, state.turn)
        if state.phase == "push":
            raise IllegalAction(self._("{who} must first change the maze: push the spare tile in at "
                                       "one of the 12 arrows, then move the pawn", who=who))
        here = state.pawns[state.turn]
        if isinstance(action, (MovePawn, Leave)) and action.cell not in reachable(state.tiles, here):
            raise IllegalAction(self._("{who} cannot reach {to} from {frm}: the path there is not connected",
                                       who=who, to=cell_text(action.cell), frm=cell_text(here)),
                                [divmod(action.cell, SIZE)])
        if isinstance(action, Leave):
            if self.settings["finish"] != "any_side":
                raise IllegalAction(self._("leaving the maze wins only in the younger players' variant "
                                           "with the finish 'any_side'"))
            if len(state.found[state.turn]) < self.cards_of(state, state.turn):
                raise IllegalAction(self._("{who} may leave the maze only after finding every card", who=who))
            if not exit_sides(state.tiles, action.cell):
                raise IllegalAction(self._("{cell} has no open side at the edge of the board",
                                           cell=cell_text(action.cell)), [divmod(action.cell, SIZE)])

    def _check_declaration(self, state: LabState, action: DeclareFound) -> None:
        if state.targets is not None:
            raise IllegalAction(self._("the referee deals the targets in this game and spots each find "
                                       "itself; 'found' is for the paper-cards mode"))
        seat = state.last_mover
        if seat is None or state.phase != "push" or state.declared:
            raise IllegalAction(self._("a find is declared by the player who just moved, once, before "
                                       "the next push"))
        self._check_seat(state, action.seat, seat)
        who = self._who(state, seat)
        cell = state.pawns[seat]
        treasure = state.tiles[cell].treasure
        if treasure is None:
            raise IllegalAction(self._("{who}'s pawn is on {cell}, which shows no treasure", who=who,
                                       cell=cell_text(cell)), [divmod(cell, SIZE)])
        for s, got in enumerate(state.found):
            if treasure in got:
                raise IllegalAction(self._("{treasure} has already been found by {who}", treasure=printed(treasure),
                                           who=self._who(state, s)), [divmod(cell, SIZE)])
        if len(state.found[seat]) >= self.cards_of(state, seat):
            raise IllegalAction(self._("{who} has already found all {n} cards", who=who, n=self.cards_of(state, seat)))

    def apply(self, state: LabState, action) -> LabState:
        if isinstance(action, Push):
            if state.phase == "move":
                state = self.end_turn(state)  # a won game stays won: the push shows the end
            spare = Tile(rotate(state.spare.sides, action.turns), state.spare.treasure)
            tiles, out, pawns = push_tiles(state.tiles, spare, action.arrow, state.pawns)
            return replace(state, tiles=tiles, spare=out, pawns=pawns, phase="move",
                           banned=OPPOSITE_ARROW[action.arrow], last_push=action.arrow,
                           last_mover=None, turn_start=pawns[state.turn])
        if isinstance(action, DeclareFound):
            if state.phase == "move":
                state = self.end_turn(state)
            seat = state.last_mover
            found = list(state.found)
            found[seat] += (state.tiles[state.pawns[seat]].treasure,)
            return replace(state, found=tuple(found), declared=True)
        seat = state.turn
        if isinstance(action, Leave):
            who = self._who(state, seat)
            return replace(state, outcome=Outcome(seat, self._("{who} has found every card and left the maze",
                                                               who=who), who))
        if isinstance(action, MovePawn):
            return replace(state, pawns=state.pawns[:seat] + (action.cell,) + state.pawns[seat + 1:])
        return self.end_turn(state)

    def end_turn(self, state: LabState) -> LabState:
        """The pawn's square is final: a target under it is found, the win is decided,
        and the next player's turn begins with a push."""
        seat = state.turn
        pawns, found = state.pawns, state.found
        treasure = state.tiles[pawns[seat]].treasure
        if treasure and treasure in self.wanted(state, seat):
            found = found[:seat] + (found[seat] + (treasure,),) + found[seat + 1:]
        state = replace(state, found=found, phase="push", turn=(seat + 1) % len(state.colours),
                        last_mover=seat, declared=False, turn_start=None)
        if (self.settings["finish"] == "start" and len(found[seat]) >= self.cards_of(state, seat)
                and pawns[seat] == STARTS[state.colours[seat]]):
            who = self._who(state, seat)
            state = replace(state, outcome=Outcome(seat, self._("{who} has found every card and is back on the "
                                                                "start corner", who=who), who))
        return state

    def outcome(self, state: LabState) -> Outcome | None:
        return state.outcome

    def legal_actions(self, state: LabState) -> list:
        """What the player whose turn it is may do, one action per distinct result: turns
        of the spare that give the same open sides (a straight tile turned 180 degrees)
        are listed once. In the "move" phase that is moving the pawn again (not to where
        it stands), ending the turn, and a find or leaving where the rules allow; the
        next player's push, which also ends the turn, is theirs (`observable_actions`)."""
        if state.outcome:
            return []
        declaring = self.end_turn(state) if state.phase == "move" else state
        acts: list = []
        if state.phase == "push":
            acts += Push.every(state)
        else:
            here = state.pawns[state.turn]
            acts += [Stay()] + [MovePawn(c) for c in sorted(reachable(state.tiles, here) - {here})]
            if self.settings["finish"] == "any_side" and len(state.found[state.turn]) >= self.cards_of(state, state.turn):
                acts += [Leave(c) for c in sorted(reachable(state.tiles, here))
                         if exit_sides(state.tiles, c)]
        if declaring.last_mover is not None and state.targets is None:
            try:
                self._check_declaration(declaring, DeclareFound())
                acts.append(DeclareFound())
            except IllegalAction:
                pass
        return acts
