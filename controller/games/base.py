"""The Game protocol that all five games share.

A game is pure rules: a state value goes in, a new state value comes out. No I/O, no
clock and no randomness: everything random (a die roll, a shuffle, a dealt card) reaches
the game as an input that the referee drew and journalled, so replaying the journal
rebuilds the exact state. The referee is the only caller; it never looks inside a
state, it only asks the game.

Three kinds of input drive a game, and `Game.prompt` says which one it waits for:
- "move": something a player does on the table, seen by the camera or typed in the
  game's text notation (a chip dropped, a piece moved, a pawn put on a space);
- "roll": a die roll, drawn by the referee's die and given in notation too
  ("roll red", "roll 3 5"), so the journal holds only text;
- "choice": a decision made on the status page (buy or auction, which space, a card to
  play), listed in `Prompt.options` in notation form.

Hidden information (secret targets, hands of cards) lives in the state. One method
decides what each viewer may know of it: `seen_by(state, viewer)` is the state with every
other seat's secrets taken out, and everything the referee shows or says to a viewer
(the snapshot, the prompt's words, the words of a move not made yet: a doubt, a
correction) is made from that state, never from the whole one. Only a move that was
made is worded from the whole state: what it showed (a treasure found) is then public.

For the camera, `board` says what each cell should look like ("empty", "p0", "p1", ...)
and `observable_actions` lists the legal actions that change what the camera sees; the
referee matches a stable view against them. `explain` puts a view that no legal action
explains into words.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Hashable, Iterable, Iterator, Mapping

from ..i18n import DEFAULT, N_, Phrase, Wrong, translator
from .shape import check, describe
from .words import joined

Cell = Hashable
State = Any
Action = Any


class NotationError(ValueError):
    """Text that is not an action in the game's notation; the message says why, in the
    game's words; `usage`, the notation's grammar, is for a person typing at the command
    line (the page says instead what the game waits for, controller/referee.py)."""

    def __init__(self, reason: str, usage: str = ""):
        super().__init__(reason)
        self.usage = usage


class IllegalAction(Exception):
    """A well-formed action that the rules forbid; `reason` says so in words."""

    def __init__(self, reason: str, cells: Iterable[Cell] = ()):
        super().__init__(reason)
        self.reason = reason
        self.cells = tuple(cells)


@dataclass(frozen=True)
class Outcome:
    """How a game ended. `winner` is a seat index, or None for a draw or when the game
    itself wins (Monopoly's Bowser); `winner_name` is what the page shows."""

    winner: int | None
    reason: str
    winner_name: str | None = None

    def to_json(self) -> dict:
        return {"winner": self.winner, "winner_name": self.winner_name, "reason": self.reason}


@dataclass(frozen=True)
class Prompt:
    """What the game waits for next, from which seat, and what to tell the players."""

    kind: str  # "move", "roll" or "choice"
    seat: int | None
    text: str = ""
    die: str | None = None  # the die definition to roll, for kind == "roll"
    options: tuple[str, ...] = ()  # allowed choices in notation, for kind == "choice"
    # What the page offers besides the awaited input, in notation: `claims` the seat to
    # play may make (chess: another promotion piece, a draw claimed), `anytime` either
    # player may make out of turn too (a draw offered or accepted, a resignation). The
    # page's buttons come from the prompt alone: no game's rules in JavaScript.
    claims: tuple[str, ...] = ()
    anytime: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"kind": self.kind, "seat": self.seat, "text": self.text, "die": self.die,
                "options": list(self.options), "claims": list(self.claims), "anytime": list(self.anytime)}


@dataclass(frozen=True)
class Ruling:
    """A reading of an unclear rule, shown on the status page (shared/RULINGS.md)."""

    key: str
    value: Any
    text: str


class Game:
    """Base class of every game's rules. Subclasses implement the pure operations."""

    name: ClassVar[str]
    title: ClassVar[str]
    variants: ClassVar[tuple[str, ...]] = (N_("standard"),)  # names, said through self._ on a page
    # How many actions the referee may match against one stable view (chess: a quick
    # reply means two plies between stable views).
    max_actions_per_view: ClassVar[int] = 1
    # When the camera measures that a cell changed as a move says but surely reads another
    # label there than the move puts (and than was there before), is that what the board
    # shows (True: labels a camera tells reliably, Connect 4's chip colours: a chip out of
    # turn is illegal) or a misreading to outweigh by the change (False: learned looks of
    # pieces that a lamp or an overlay can fool, chess)? See controller/referee.py.
    sure_labels_name_changes: ClassVar[bool] = False
    # The shape of what `start` reads of a setup, and of the settings when the game does
    # not check their types itself (None), as controller/games/shape.py reads them.
    # The die the game rolls (controller/games/data/dice.json), or None: the page shows the
    # die module's state only for a game that rolls.
    die: ClassVar[str | None] = None
    # An example of the typed notation, for the page's text box ("" says "a move in the
    # game's notation").
    example: ClassVar[str] = ""
    SETUP: ClassVar[dict] = {}
    SETTINGS_SHAPE: ClassVar[dict | None] = None
    # How many cells the camera must clearly see otherwise than every legal history before
    # the board is wrong (an alarm): 1 where each cell's label is read surely (a chip's
    # hue, a pawn's place), 2 where a single cell's learned look can be fooled (a nudged
    # chess piece in a shadow) and every wrong move shows on two cells anyway (a piece
    # leaves one square for another). See controller/evidence.py.
    wrong_cells: ClassVar[int] = 1

    def __init__(self, variant: str | None = None, settings: Mapping[str, Any] | None = None,
                 lang: str = DEFAULT):
        # the game speaks its table's language (controller/i18n.py): `self._(msgid, **params)`,
        # `self._.n(singular, plural, count)`; its printed name is that language's box's
        self._ = translator(lang)
        self.title = self._(type(self).title)
        variant = variant or self.variants[0]
        if variant not in self.variants:
            raise ValueError(self._("{game} has no variant {variant!r}; expected one of {variants}",
                                    game=self.name, variant=variant, variants=", ".join(self.variants)))
        self.variant = variant
        if not isinstance(settings or {}, Mapping):
            raise Wrong(N_("{game} settings are {value}; expected KEY = VALUE pairs"), game=self.name,
                        value=describe(settings))
        settings = dict(settings or {})
        if self.SETTINGS_SHAPE is not None:  # checked here, and a null is the default
            check(settings, self.SETTINGS_SHAPE, self.name, "setting")
            settings = {k: v for k, v in settings.items() if v is not None}
        self.settings = settings

    # --- setup ---------------------------------------------------------------------
    def new_setup(self, rng) -> dict:
        """The random parts of a new game (shuffles, deals), drawn from `rng` by the
        referee and journalled with the game's start. JSON-serialisable."""
        return {}

    def public_setup(self, setup: Mapping[str, Any]) -> dict:
        """What of a new game's setup every watcher may see: the rest (a deal of secret
        targets, the order of a deck) stays in the journal. By default nothing."""
        return {}

    def start(self, setup: Mapping[str, Any] | None = None) -> State:
        """The state a game starts from, given its setup (`checked_setup` first)."""
        raise NotImplementedError

    def checked_setup(self, setup) -> dict:
        """`setup` once its shape is SETUP's (a ValueError naming the key otherwise; a
        setup file holding `[1, 2]` or `{"fen": 5}` raised TypeError in the rules); {}
        for none."""
        if setup is None:
            return {}
        check(setup, self.SETUP, Phrase(N_("{game} setup"), game=self.name))
        return dict(setup)

    # --- the pure rules ------------------------------------------------------------
    def seats(self, state: State) -> list[str]:
        """The players' names, by seat index."""
        raise NotImplementedError

    def prompt(self, state: State) -> Prompt:
        raise NotImplementedError

    def parse(self, state: State, text: str) -> Action:
        """Text notation -> action; raises NotationError for text that is not one."""
        raise NotImplementedError

    def said_by(self, state: State, text: str, seat: int) -> str:
        """What `text` typed or tapped on `seat`'s phone means, in notation: by default
        the text itself (a chess "resign" from a phone is that side's, whoever is to move)."""
        return text

    def notation(self, state: State, action: Action) -> str:
        """The canonical text of an action played from `state`."""
        raise NotImplementedError

    def actor(self, state: State, action: Action) -> int | None:
        """The seat that performs `action`: by default the seat the game waits for.
        Games where a player may act out of turn (a hazard card, an auction bid, a trade
        offer) name that player. None: no one seat (both players agreeing, the Bank
        closing an auction): a player's phone may not enter it (`not_one_seats` says
        why), only the admin, who hears it from the players, or the table's own inputs."""
        return self.prompt(state).seat

    def not_one_seats(self, state: State, action: Action) -> str:
        """Why a player's phone may not enter `action` (its actor is None), and what to
        do instead, in the game's words."""
        return self._("{move!r} is not one player's to enter: the referee enters it (admin)",
                      move=self.notation(state, action))

    def is_roll(self, action: Action) -> bool:
        """Is `action` a die roll? A roll comes from the die (its button, the die module)
        or the admin's page, never a player's phone (docs/dice.md, "Who rolls")."""
        return False

    def describe(self, state: State, action: Action) -> str:
        """The action in words, for the page ("Mario drops a chip in column 4")."""
        return self.notation(state, action)

    def spoken(self, move: dict) -> str:
        """What the voice says of a recorded move (a `move` event's data): its words, unless
        people say it otherwise (chess: "Yoshi, knight, takes e5, check")."""
        return move.get("text") or move.get("notation", "")

    def check(self, state: State, action: Action) -> None:
        """Raise IllegalAction with the rule broken, in words, or return None."""
        raise NotImplementedError

    def apply(self, state: State, action: Action) -> State:
        """The state after a checked action."""
        raise NotImplementedError

    def outcome(self, state: State) -> Outcome | None:
        raise NotImplementedError

    def seen_by(self, state: State, viewer: int | None) -> State:
        """The state as `viewer` (a seat, or None: anyone watching) may know it: every
        other seat's secrets replaced by cards nobody can read. By default the state: a
        game without secrets."""
        return state

    def snapshot(self, state: State, viewer: int | None = None) -> dict:
        """The state as JSON for the page and `referee play` (the referee hands it
        `seen_by(state, viewer)`). A seat's hidden information is included only for
        `viewer`'s own seat."""
        raise NotImplementedError

    def rulings(self) -> list[Ruling]:
        """The rulings in force (settings with their defaults), for the page."""
        return []

    # --- the camera side -----------------------------------------------------------
    def board(self, state: State) -> dict[Cell, str]:
        """What the camera should see on each cell."""
        raise NotImplementedError

    def changes(self, state: State, board: dict[Cell, str], action: Action) -> dict[Cell, str]:
        """The cells `action` from `state` (whose board is `board`) shows otherwise, with
        their labels after it. A search that tries every action needs no more of most of
        them (controller/recovery.py). By default by comparing whole boards; a game whose
        action says which cells it touches (a chess move's squares) answers without
        building a state or a board."""
        return {c: v for c, v in self.board(self.apply(state, action)).items() if board.get(c) != v}

    def position(self, state: State) -> Hashable:
        """What tells two states apart that the camera may take for one (chess: which
        piece stands where, not only whose), for a search that must keep them apart
        (controller/recovery.py `look_again`). By default the board and whose turn it is:
        a game whose camera sees all that matters."""
        prompt = self.prompt(state)
        return frozenset(self.board(state).items()), prompt.kind, prompt.seat

    def observable_actions(self, state: State, changed: set | None = None) -> Iterable[Action]:
        """Legal actions from `state` that change what the camera sees. `changed`, when
        given, holds every cell that differs from the position in the view being
        matched: a game may leave out actions that could not explain them (speed only;
        returning more is always correct)."""
        return ()

    def sequences(self, state: State, changed: set | None = None) -> Iterator[list[tuple[list, State]]]:
        """What one view may show happened since `state`: for each length from 1 to
        `max_actions_per_view`, every (actions, state after) of observable actions
        (`changed` as for `observable_actions`). Lazy, so a caller content with the
        shorter sequences never builds the longer."""
        frontier: list[tuple[list, State]] = [([], state)]
        for _ in range(self.max_actions_per_view):
            frontier = [(seq + [a], self.apply(s, a)) for seq, s in frontier if self.outcome(s) is None
                        for a in self.observable_actions(s, changed)]
            yield frontier

    def reader_options(self, state: State) -> dict:
        """Which sheet of the board the camera should read now, for the reader (the
        Super Mario Bros. World in play); {} for a game with one board."""
        return {}

    def sheet(self, number: int) -> tuple[str, dict]:
        """(name, `reader_options`) of the printed board sheet `number`, for a game whose
        board comes in several (a Super Mario Bros. World), so `referee markers` prints
        that sheet's markers; ValueError for a game with one board."""
        raise ValueError(f"{self.title} has one board sheet; --world is for a game with several")

    def layout(self) -> dict:
        """What the page's drawing (web/static/draw/<game>.js) needs beside the snapshot to
        draw the printed board (its spaces, where they lie, how a path runs), from the
        game's own board files, so a corrected board file is drawn as it is refereed;
        {} for a game whose snapshot is enough."""
        return {}

    def explain(self, state: State, seen: Mapping[Cell, str]) -> IllegalAction:
        """Why a stable view that differs from `board(state)` matches no legal action."""
        changed = sorted(self.cell_name(c) for c, v in seen.items() if self.board(state).get(c) != v)
        return IllegalAction(self._("board does not match the game: {cells}", cells=", ".join(changed)), seen)

    def cell_name(self, cell: Cell) -> str:
        return str(cell)

    def label_words(self, state: State, label: str) -> str:
        """What a camera label means, in the game's words ("Luigi's chip" for "p1"):
        never the label itself on the page. Games say it in their own words."""
        return self._("nothing") if label == "empty" else str(label)

    def fix(self, state: State, seen: Mapping[Cell, str]) -> str:
        """How to put a wrong board right, in words for the player who should: a piece
        seen on one cell and missing from another goes back ("move Bowser from Toad Town
        back to GO"), a missing one is put back, one too many taken off."""
        board = self.board(state)
        wrong = [c for c in board if seen.get(c, board[c]) != board[c]]
        missing = {c: board[c] for c in wrong if seen[c] == "empty"}
        steps = []
        for c in wrong:
            want, got = board[c], seen[c]
            if got == "empty":
                continue
            home = next((d for d, lab in missing.items() if lab == got), None)
            if home is not None and want == "empty":
                del missing[home]
                steps.append(self._("move {piece} from {cell} back to {home}", piece=self.label_words(state, got),
                                    cell=self.cell_name(c), home=self.cell_name(home)))
            elif want == "empty":
                steps.append(self._("take {piece} off {cell}", piece=self.label_words(state, got),
                                    cell=self.cell_name(c)))
            else:
                steps.append(self._("put {piece} on {cell}, not {other}", piece=self.label_words(state, want),
                                    cell=self.cell_name(c), other=self.label_words(state, got)))
        steps += [self._("put {piece} back on {cell}", piece=self.label_words(state, lab), cell=self.cell_name(c))
                  for c, lab in missing.items()]
        return joined(steps, self._) or self._("put the board back as it was")

    # --- shared helpers ------------------------------------------------------------
    def play(self, state: State, action: Action) -> State:
        """check + apply: the one path every action takes."""
        self.check(state, action)
        return self.apply(state, action)
