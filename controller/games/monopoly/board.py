"""Monopoly The Super Mario Bros. Movie: the board and the two card decks, as data.

The rule text has neither the printed spaces nor the card texts (shared/RULINGS.md
section 5), so both live in JSON files (controller/games/data) and are checked here before a
game starts: a wrong file is refused with a message naming the file and the entry.

THE BUNDLED VALUES ARE A STAND-IN (the files say so in their "stand_in" key): space
order, names, prices, rents, Continue costs and card texts must be checked against the
printed board and cards. Point `load_board` at corrected files to play the real set.

Board file (`data/monopoly_board.json`):
- `spaces`: exactly 40 entries in clockwise order from GO (index 0). Each has a unique
  `name` and a `kind`: go, location, question_block, bowser_fury, piranha_plant,
  super_star, warp_pipe, jail, free_parking, go_to_jail. GO must be space 0; jail,
  free_parking and go_to_jail appear once each. A location also has `set` (its colour),
  `price`, `rent` and `continue` (the cost to turn its deed from Game Over to Continue),
  all whole coins >= 1. There are 16 locations in 8 sets of exactly two, and 4 Warp Pipes.
- `coins`: the box's coins ({"ones": 55, "fives": 40}, 255 in value); `start_coins`:
  each player's start ({"ones": 5, "fives": 5}); `go_salary`, `jail_fine`,
  `bowser_pass_fee`, `battle_reward`, `battle_win_total`; `tokens`: the six token names
  (they are the players' names); `bowser_start`: Bowser's first space (Free Parking).

Card file (`data/monopoly_cards.json`): `decks` holds `question_block` and `bowser_fury`,
16 cards each: `{"text": ..., "effect": ..., <parameter>}`. The effect vocabulary:

  collect amount        the drawer takes `amount` coins from the Bank
  pay amount            the drawer pays `amount` coins to the Bank
  collect_each amount   every other player pays the drawer `amount`
  pay_each amount       the drawer pays every other player `amount`
  pay_per_deed amount   the drawer pays the Bank `amount` per deed owned
  advance_to space      move clockwise to `space` (GO pays if passed), then its action
  advance_next kind     move clockwise to the next space of `kind`, then its action
  move steps            move `steps` spaces (negative: backwards, no GO), then its action
  go_to_jail            straight to Jail, no GO coins
  jail_card             keep the card: Get Out of Jail Free (back under its deck when used)
  bowser_advance steps  Bowser moves `steps` spaces clockwise (passing fees, flips, battles)
  bowser_to space       Bowser is put on `space` (no passing fees; flip and battle there)
  continue_all          every Game Over deed of the drawer turns to Continue for free
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ...i18n import N_

DATA = Path(__file__).parents[1] / "data"  # controller/games/data, beside the other games' files
BOARD_FILE = DATA / "monopoly_board.json"
CARDS_FILE = DATA / "monopoly_cards.json"

KINDS = ("go", "location", "question_block", "bowser_fury", "piranha_plant", "super_star",
         "warp_pipe", "jail", "free_parking", "go_to_jail")
DECKS = ("question_block", "bowser_fury")
DECK_NAMES = {"question_block": N_("Question Block"), "bowser_fury": N_("Bowser's Fury")}  # said through a translator
# effect -> its one parameter (None: no parameter) and that parameter's check
EFFECTS = {
    "collect": "amount", "pay": "amount", "collect_each": "amount", "pay_each": "amount",
    "pay_per_deed": "amount", "advance_to": "space", "advance_next": "kind", "move": "steps",
    "go_to_jail": None, "jail_card": None, "bowser_advance": "steps", "bowser_to": "space",
    "continue_all": None,
}
SPACES, LOCATIONS, SETS, PIPES, DECK_SIZE = 40, 16, 8, 4, 16


class BoardDataError(ValueError):
    """A board or card file that cannot be played; the message names file and entry."""


@dataclass(frozen=True)
class Space:
    index: int
    name: str
    kind: str
    set: str | None = None
    price: int = 0
    rent: int = 0
    cont: int = 0  # the Continue cost


@dataclass(frozen=True)
class Card:
    deck: str
    index: int
    text: str
    effect: str
    param: int | str | None = None


@dataclass(frozen=True)
class Board:
    spaces: tuple[Space, ...]
    cards: dict  # deck -> tuple[Card, ...]
    tokens: tuple[str, ...]
    total_coins: int
    start_coins: int
    go_salary: int
    jail_fine: int
    bowser_pass_fee: int
    battle_reward: int
    battle_win_total: int
    bowser_start: int
    stand_in: str

    @property
    def locations(self) -> tuple[int, ...]:
        return tuple(s.index for s in self.spaces if s.kind == "location")

    def partner(self, space: int) -> int:
        """The other location of the same colour set."""
        colour = self.spaces[space].set
        return next(s.index for s in self.spaces if s.set == colour and s.index != space)

    def first(self, kind: str) -> int:
        return next(s.index for s in self.spaces if s.kind == kind)

    def walk(self, start: int, steps: int) -> tuple[int, bool]:
        """Where `steps` spaces (backwards if negative) take a token, and whether it
        passed or landed on GO going forwards."""
        dest = (start + steps) % SPACES
        return dest, steps > 0 and start + steps >= SPACES

    def next_of(self, kind: str, start: int) -> int:
        """The next space of `kind` strictly after `start`, clockwise."""
        for k in range(1, SPACES + 1):
            if self.spaces[(start + k) % SPACES].kind == kind:
                return (start + k) % SPACES
        raise BoardDataError(f"the board has no space of kind {kind!r}")


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise BoardDataError(f"{where}: {what}")


def _int(value, where: str, low: int = 1) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool) and value >= low, where,
          f"expected a whole number >= {low}, got {value!r}")
    return value


def _read(path: Path) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as exc:
        raise BoardDataError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    except ValueError as exc:
        raise BoardDataError(f"{path}: not valid JSON ({exc})") from exc
    _need(isinstance(data, dict), str(path), "expected a JSON object")
    return data


def parse_board(data: dict, cards: dict, board_name: str = "board", cards_name: str = "cards") -> Board:
    """Check both files' contents and build the Board; every error names the entry."""
    raw = data.get("spaces")
    _need(isinstance(raw, list) and len(raw) == SPACES, f"{board_name}: spaces",
          f"expected a list of {SPACES} spaces, got {len(raw) if isinstance(raw, list) else raw!r}")
    spaces, names = [], set()
    for i, entry in enumerate(raw):
        where = f"{board_name}: space {i}"
        _need(isinstance(entry, dict), where, "expected an object")
        name, kind = entry.get("name"), entry.get("kind")
        _need(isinstance(name, str) and name.strip() != "", where, "needs a name")
        where = f"{board_name}: space {i} ({name})"
        _need(name not in names, where, "the name is used twice; spaces must be told apart")
        names.add(name)
        _need(kind in KINDS, where, f"unknown kind {kind!r}; expected one of {', '.join(KINDS)}")
        if kind == "location":
            _need(isinstance(entry.get("set"), str), where, "a location needs a colour 'set'")
            spaces.append(Space(i, name, kind, entry["set"], _int(entry.get("price"), where + " price"),
                                _int(entry.get("rent"), where + " rent"),
                                _int(entry.get("continue"), where + " continue")))
        else:
            spaces.append(Space(i, name, kind))
    kinds = [s.kind for s in spaces]
    _need(kinds[0] == "go", f"{board_name}: space 0", "must be GO")
    for kind in ("go", "jail", "free_parking", "go_to_jail"):
        _need(kinds.count(kind) == 1, f"{board_name}: spaces", f"expected one {kind} space, found {kinds.count(kind)}")
    _need(kinds.count("location") == LOCATIONS, f"{board_name}: spaces",
          f"expected {LOCATIONS} locations, found {kinds.count('location')}")
    _need(kinds.count("warp_pipe") == PIPES, f"{board_name}: spaces",
          f"expected {PIPES} Warp Pipes, found {kinds.count('warp_pipe')}")
    colours: dict[str, list[str]] = {}
    for s in spaces:
        if s.set:
            colours.setdefault(s.set, []).append(s.name)
    _need(len(colours) == SETS, f"{board_name}: spaces", f"expected {SETS} colour sets, found {len(colours)}")
    for colour, members in colours.items():
        _need(len(members) == 2, f"{board_name}: set {colour!r}",
              f"a colour set has exactly two locations, this one has {', '.join(members)}")
    coins, start = data.get("coins", {}), data.get("start_coins", {})
    _need(isinstance(coins, dict) and isinstance(start, dict), board_name, "coins and start_coins are objects")
    total = _int(coins.get("ones"), f"{board_name}: coins.ones", 0) + 5 * _int(coins.get("fives"), f"{board_name}: coins.fives", 0)
    each = _int(start.get("ones"), f"{board_name}: start_coins.ones", 0) + 5 * _int(start.get("fives"), f"{board_name}: start_coins.fives", 0)
    tokens = data.get("tokens")
    _need(isinstance(tokens, list) and len(tokens) == 6 and all(isinstance(t, str) and t for t in tokens)
          and len(set(tokens)) == 6, f"{board_name}: tokens", "expected six different token names")
    _need(each * 6 <= total, f"{board_name}: start_coins", f"six players at {each} coins need more than the box's {total}")
    bowser_start = _int(data.get("bowser_start"), f"{board_name}: bowser_start", 0)
    _need(bowser_start < SPACES, f"{board_name}: bowser_start", "must be a space index 0-39")
    decks = {}
    raw_decks = cards.get("decks")
    _need(isinstance(raw_decks, dict), f"{cards_name}: decks", "expected an object with both decks")
    for deck in DECKS:
        entries = raw_decks.get(deck)
        _need(isinstance(entries, list) and len(entries) == DECK_SIZE, f"{cards_name}: {deck}",
              f"expected {DECK_SIZE} cards, got {len(entries) if isinstance(entries, list) else entries!r}")
        deck_cards = []
        for i, entry in enumerate(entries):
            where = f"{cards_name}: {deck} card {i}"
            _need(isinstance(entry, dict) and isinstance(entry.get("text"), str), where, "needs a text")
            effect = entry.get("effect")
            _need(effect in EFFECTS, where, f"unknown effect {effect!r}; expected one of {', '.join(EFFECTS)}")
            key = EFFECTS[effect]
            param = entry.get(key) if key else None
            if key == "amount":
                _int(param, f"{where} amount")
            elif key == "space":
                _need(isinstance(param, int) and 0 <= param < SPACES, where, f"space must be 0-39, got {param!r}")
            elif key == "steps":
                _need(isinstance(param, int) and param != 0 and abs(param) < SPACES, where,
                      f"steps must be a non-zero whole number between -39 and 39, got {param!r}")
            elif key == "kind":
                _need(param in kinds, where, f"no space of kind {param!r} on the board")
            deck_cards.append(Card(deck, i, entry["text"], effect, param))
        decks[deck] = tuple(deck_cards)
    return Board(tuple(spaces), decks, tuple(tokens), total, each,
                 _int(data.get("go_salary"), f"{board_name}: go_salary", 0),
                 _int(data.get("jail_fine"), f"{board_name}: jail_fine", 0),
                 _int(data.get("bowser_pass_fee"), f"{board_name}: bowser_pass_fee", 0),
                 _int(data.get("battle_reward"), f"{board_name}: battle_reward", 0),
                 _int(data.get("battle_win_total"), f"{board_name}: battle_win_total", 2),
                 bowser_start, str(data.get("stand_in", "")) + " " + str(cards.get("stand_in", "")))


@lru_cache(maxsize=8)
def load_board(board_file: str | Path = BOARD_FILE, cards_file: str | Path = CARDS_FILE) -> Board:
    return parse_board(_read(Path(board_file)), _read(Path(cards_file)), str(board_file), str(cards_file))
