"""Super Mario Labyrinth (Ravensburger), read as shared/RULINGS.md section 3 says.

The board is 7x7 tiles. Sixteen are printed on the board (every other row and column,
counting from the corners); the other 33 and one spare tile move. A turn is: push the
spare tile in at one of the 12 arrows (turned any way), which pushes the tile at the far
end out; then move one's pawn along an unbroken passage, or stay. A pawn pushed off the
board goes onto the tile just pushed in, on the opposite side. Each player has secret
targets (treasure pictures); the first to find all of theirs and get back to their own
start corner wins.

When a turn ends. After the push the player may put the pawn down, pick it up again and
put it elsewhere (or back) as often as they like: each move must be to a square the
pawn's passage reaches (the maze does not change within the move, so that is the same set
of squares from wherever the pawn stands now). Only when the turn ends is the pawn's
square final: a target is found, and the game won, then. The turn ends with ``end`` (or
``stay``: the player presses the button or says so on the page) or with the next
player's push, which is all the camera sees; a push written while the pawn may still move
is therefore the next player's, and ends this turn first.

Cells. A cell is (row, col), both from 0 at the top left, where "top" is the edge with
the arrows N2, N4, N6. Cells are named like chess squares: column letter a-g from the
left, row number 1-7 from the top: a1 is the top-left corner (red's start), g1 top-right
(yellow), g7 bottom-right (green), a7 bottom-left (blue). Play goes clockwise in that
order, starting with the seat the setup names first.

Tiles are written by their open sides, in the order N E S W, and an optional treasure
after a colon: ``NS`` (straight), ``ES`` (corner), ``NES`` (T), ``NES:Mario``.

Arrows are named by the board edge they stand on and the row or column number they push:
N2 N4 N6 push columns b, d, f downwards from the top edge; S2 S4 S6 push them upwards;
W2 W4 W6 push rows 2, 4, 6 rightwards from the left edge; E2 E4 E6 push them leftwards.
The tile may not go back in at the arrow opposite the previous push (after N2: not S2).

Text notation (a colour word in front, ``red push N2 r90``, says whose action it is and
is checked; without it the action is the current player's):
- ``push N2 r90``  insert the spare at N2 after turning it 90 degrees clockwise from the
                   way it came out (r0, r90, r180, r270; r0 may be left out);
- ``push N2 NES``  the same, giving the sides the inserted tile has open on the board;
- ``move d4``      move the pawn to d4 along an unbroken passage (again and again if
                   need be; the turn goes on);
- ``end``          end the turn with the pawn where it stands (``stay``, the old word,
                   is the same; the notation says ``stay`` when the pawn has not moved);
- ``found``        paper-cards mode only: the player whose pawn stands on their card's
                   treasure declares it (checked, then counted); said during the turn
                   it ends the turn there, after it it may come until the next push;
- ``exit a3``      younger players' variant with finish "any_side": leave the maze
                   through a3's open outer edge once every target is found.

Setup (the JSON journalled at the start, and the file for ``referee play --setup``):
``{"players": ["red", "yellow", ...], "first": 0, "rows": [7 strings of 7 tiles],
"spare": "NS", "targets": {"red": ["Mario", ...], ...}}``; ``targets`` is left out in
the paper-cards mode. ``new_setup`` shuffles the 34 movable tiles of
data/labyrinth.json, turns each a random way, and deals the 24 targets evenly. For a maze
laid out on the table, the camera reads it (`printed_board` is what a reader can learn
colours from before that) and `setup_from_layout` deals for it.

Settings (rulings, shown on the page): ``players`` 2-4 (default 4); ``cards``
"referee" (the referee deals and spots finds; default) or "paper"; ``targets``
"secret" (only the top card is known and must be found next; default) or "open" (the
younger players' variant: any remaining card may be found); ``finish`` "start" (back
on the start corner; default) or "any_side" (younger variant, by agreement). The
variant "younger" makes ``targets`` default to "open".

What the camera sees (`board`): each cell (row, col) as ``tile:<open sides>``, the spare
tile as ``spare:I``/``spare:L``/``spare:T`` (its orientation beside the board means
nothing), and each pawn as the key ``pawn:<colour>`` with the name of its cell as label,
so pawns sharing a cell are read and matched independently.
"""
from __future__ import annotations

import json
import re
from collections import deque
from dataclasses import dataclass, replace
from importlib import resources
from typing import Iterable, Mapping, NamedTuple

from ..i18n import N_, translator
from .base import Game, IllegalAction, NotationError, Outcome, Prompt, Ruling
from .shape import Each
from .words import either, joined, marks, printed

SIZE = 7
N, E, S, W = 1, 2, 4, 8
SIDE_BITS = (("N", N), ("E", E), ("S", S), ("W", W))
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}
OPPOSITE_SIDE = {N: S, E: W, S: N, W: E}
COLOURS = ("red", "yellow", "green", "blue")
CARDS = 24
MOVABLE_TILES = 34


class Tile(NamedTuple):
    sides: int  # bit mask of open sides
    treasure: str | None = None


def sides_text(sides: int) -> str:
    return "".join(name for name, bit in SIDE_BITS if sides & bit)


def rotate(sides: int, quarter_turns: int) -> int:
    """Turn a tile clockwise: N->E->S->W->N is a rotate-left of the 4-bit mask."""
    q = quarter_turns % 4
    return ((sides << q) | (sides >> (4 - q))) & 0xF


def tile_kind(sides: int) -> str:
    """I (straight), L (corner), T, or the count of open sides for anything else."""
    n = bin(sides).count("1")
    if n == 2:
        return "I" if sides in (N | S, E | W) else "L"
    return "T" if n == 3 else str(n)


# board()'s keys and texts, made once: the referee builds a board for every push and move
# it weighs (hundreds a view), and fresh small objects by the thousand left Python's
# allocator holding more memory game after game (bench/soak.py)
_CELLS = tuple(divmod(i, SIZE) for i in range(SIZE * SIZE))
_TILE_TEXT = tuple("tile:" + sides_text(sides) for sides in range(16))
_SPARE_TEXT = tuple("spare:" + tile_kind(sides) for sides in range(16))


def parse_tile(text: str, where: str) -> Tile:
    """'NES:Mario' -> Tile; `where` names the place in the setup for the message."""
    if not isinstance(text, str):
        raise ValueError(f"{where}: expected a tile like 'NES' or 'NES:Mario', got {text!r}")
    sides_part, _, treasure = text.strip().partition(":")
    letters = sides_part.upper()
    if not letters or any(ch not in "NESW" for ch in letters) or len(set(letters)) != len(letters):
        raise ValueError(f"{where}: {text!r} is not a tile: give its open sides from N, E, S, W "
                         "(e.g. 'NS', 'ES', 'NES'), then ':' and a treasure name if it has one")
    mask = sum(bit for name, bit in SIDE_BITS if name in letters)
    return Tile(mask, treasure.strip() or None)


def tile_text(tile: Tile) -> str:
    return sides_text(tile.sides) + (f":{tile.treasure}" if tile.treasure else "")


# the words of the maze, said through a game's translator (`_`: the table's language)
TILE_WORDS = {"I": N_("a straight"), "L": N_("a corner"), "T": N_("a T-junction")}
SIDE_WORDS = {"N": N_("the top"), "E": N_("the right"), "S": N_("the bottom"), "W": N_("the left")}
EDGE_WORDS = {"N": N_("the top of column {k}"), "S": N_("the bottom of column {k}"), "W": N_("the left end of row {k}"),
              "E": N_("the right end of row {k}")}
SEAT_WORDS = {"red": N_("Red"), "yellow": N_("Yellow"), "green": N_("Green"), "blue": N_("Blue")}
PAWN_WORDS = {"red": N_("the red pawn"), "yellow": N_("the yellow pawn"), "green": N_("the green pawn"),
              "blue": N_("the blue pawn")}


def tile_words(tile: Tile, _=None) -> str:
    """'a corner with Koopa Troopa': a tile as the players see it (`_`: a translator,
    English by default)."""
    _ = _ or translator()
    kind = _(TILE_WORDS[tile_kind(tile.sides)]) if tile_kind(tile.sides) in TILE_WORDS else \
        _("a tile open on {n} sides", n=len(sides_text(tile.sides)))
    return _("{tile} with {treasure}", tile=kind, treasure=printed(tile.treasure)) if tile.treasure else kind


def arrow_words(arrow: str, _=None) -> str:
    """'N2' -> 'the top of column b', 'W4' -> 'the left end of row 4': where the arrow
    stands, by the coordinates drawn around the maze (`_`: a translator, English by default)."""
    _ = _ or translator()
    k = int(arrow[1])
    return _(EDGE_WORDS[arrow[0]], k='abcdefg'[k - 1] if arrow[0] in 'NS' else k)


def cell_text(index: int) -> str:
    return "abcdefg"[index % SIZE] + str(index // SIZE + 1)


_CELL = re.compile(r"^([a-g])([1-7])$")


def cell_index(text: str) -> int | None:
    m = _CELL.match(text.strip().lower())
    return None if m is None else (int(m[2]) - 1) * SIZE + "abcdefg".index(m[1])


FIXED = frozenset(r * SIZE + c for r in range(0, SIZE, 2) for c in range(0, SIZE, 2))


def _arrows() -> dict[str, tuple[int, ...]]:
    """Arrow name -> the cells of its line, from the one the spare goes into to the one
    that comes out."""
    out = {}
    for k in (1, 3, 5):
        column = tuple(r * SIZE + k for r in range(SIZE))
        row = tuple(k * SIZE + c for c in range(SIZE))
        out[f"N{k + 1}"] = column
        out[f"S{k + 1}"] = column[::-1]
        out[f"W{k + 1}"] = row
        out[f"E{k + 1}"] = row[::-1]
    return out


ARROWS = _arrows()
OPPOSITE_ARROW = {a: {"N": "S", "S": "N", "E": "W", "W": "E"}[a[0]] + a[1] for a in ARROWS}


def _neighbours() -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each cell: (side bit, neighbour cell, the neighbour's facing side bit)."""
    table = []
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        links = []
        for bit, (dr, dc) in STEP.items():
            rr, cc = r + dr, c + dc
            if 0 <= rr < SIZE and 0 <= cc < SIZE:
                links.append((bit, rr * SIZE + cc, OPPOSITE_SIDE[bit]))
        table.append(tuple(links))
    return tuple(table)


NEIGHBOURS = _neighbours()


def reachable(tiles: tuple[Tile, ...], start: int) -> set[int]:
    """Cells joined to `start` by unbroken passages: both facing sides open. A plain
    breadth-first search over 49 cells with a precomputed neighbour table."""
    seen = {start}
    todo = deque((start,))
    while todo:
        i = todo.popleft()
        open_here = tiles[i].sides
        for bit, j, back in NEIGHBOURS[i]:
            if open_here & bit and j not in seen and tiles[j].sides & back:
                seen.add(j)
                todo.append(j)
    return seen


def push_tiles(tiles: tuple[Tile, ...], spare: Tile, arrow: str, pawns: tuple[int, ...]):
    """Insert `spare` (already turned) at `arrow`: returns the new tiles, the tile pushed
    out, and the pawns, those on the pushed-out tile going onto the inserted one."""
    line = ARROWS[arrow]
    new = list(tiles)
    for k in range(SIZE - 1, 0, -1):
        new[line[k]] = tiles[line[k - 1]]
    new[line[0]] = spare
    where = {cell: pos for pos, cell in enumerate(line)}
    moved = []
    for p in pawns:
        pos = where.get(p)
        moved.append(p if pos is None else line[(pos + 1) % SIZE])
    return tuple(new), tiles[line[-1]], tuple(moved)


def _load_tile_set() -> dict:
    with resources.files(__package__).joinpath("data/labyrinth.json").open(encoding="utf-8") as f:
        return json.load(f)


TILE_SET = _load_tile_set()
STARTS = {colour: cell_index(name) for colour, name in TILE_SET["starts"].items()}


# --- actions ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Push:
    arrow: str
    turns: int  # quarter turns clockwise from the spare's orientation as it came out
    seat: int | None = None


@dataclass(frozen=True)
class MovePawn:
    cell: int
    seat: int | None = None


@dataclass(frozen=True)
class Stay:
    """End the turn with the pawn where it stands (``end``, ``stay``, the button)."""
    seat: int | None = None


@dataclass(frozen=True)
class DeclareFound:
    seat: int | None = None


@dataclass(frozen=True)
class Leave:
    cell: int
    seat: int | None = None


UNSEEN = "?"  # a card face down: another seat's secret target (`seen_by`)


@dataclass(frozen=True)
class LabState:
    tiles: tuple[Tile, ...]
    spare: Tile
    colours: tuple[str, ...]
    pawns: tuple[int, ...]
    targets: tuple[tuple[str, ...], ...] | None  # None in the paper-cards mode
    found: tuple[tuple[str, ...], ...]
    turn: int = 0
    phase: str = "push"  # "push", then "move" (the pawn may move) until the turn ends
    turn_start: int | None = None  # where the push left the pawn, in the "move" phase
    banned: str | None = None  # the arrow the spare may not go in at this turn
    last_push: str | None = None
    last_mover: int | None = None  # who may still declare a find (paper cards)
    declared: bool = False
    outcome: Outcome | None = None
    warnings: tuple[str, ...] = ()


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

    # --- setup ---------------------------------------------------------------------
    def new_setup(self, rng) -> dict:
        """A random maze (shuffled, randomly turned movable tiles) and the deal."""
        tiles = [parse_tile(t, "data/labyrinth.json") for t in TILE_SET["movable"]]
        rng.shuffle(tiles)
        tiles = [Tile(rotate(t.sides, rng.randrange(4)), t.treasure) for t in tiles]
        fixed = {cell_index(k): parse_tile(v, f"data/labyrinth.json fixed {k}")
                 for k, v in TILE_SET["fixed"].items()}
        movable = iter(tiles)
        board = [fixed[i] if i in FIXED else next(movable) for i in range(SIZE * SIZE)]
        rows = [" ".join(tile_text(t) for t in board[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
        return self._with_deal(rows, tile_text(next(movable)), rng)

    def setup_from_layout(self, rows: list[str], rng, spare: str | None = None,
                          deal: Mapping | None = None) -> dict:
        """A setup for a maze read from the table (sides from the tile reader, pictures
        named by the treasure catalogue), with the targets dealt from `rng`, or kept from
        `deal` (a recorded setup: `referee replay` decides with the deal `serve` had).
        Without `spare`, the spare is the tile the set of data/labyrinth.json is missing.
        Marked `from_table`, so a restart before the first move resumes it, where a maze
        drawn by `new_setup` to hold the place is read from the table again
        (controller/service.py)."""
        if spare is None:
            spare = self._missing_tile(rows)
        setup = self._with_deal(rows, spare, rng)
        setup.update({k: v for k, v in (deal or {}).items() if k not in ("rows", "spare")})
        return {**setup, "from_table": True}

    @staticmethod
    def _missing_tile(rows: list[str]) -> str:
        """The movable tile of the set that is not on the board: matched by kind and
        treasure first, then by kind alone (pictures named differently from the data)."""
        seen = [parse_tile(t, f"row {r + 1}") for r, row in enumerate(rows)
                for c, t in enumerate(row.split()) if r * SIZE + c not in FIXED]
        left = [parse_tile(t, "data/labyrinth.json") for t in TILE_SET["movable"]]
        unmatched = []
        for t in seen:
            same = next((x for x in left if tile_kind(x.sides) == tile_kind(t.sides) and x.treasure == t.treasure), None)
            if same is None:
                unmatched.append(t)
            else:
                left.remove(same)
        for t in unmatched:
            kind = next((x for x in left if tile_kind(x.sides) == tile_kind(t.sides)), None)
            if kind is not None:
                left.remove(kind)
        return tile_text(left[0]) if len(left) == 1 else "NS"

    def _with_deal(self, rows: list[str], spare: str, rng) -> dict:
        colours = list(COLOURS[:self.settings["players"]])
        setup = {"players": colours, "first": 0, "rows": rows, "spare": spare}
        if self.settings["cards"] == "referee":
            tiles = [parse_tile(t, "layout") for row in rows for t in row.split()] + [parse_tile(spare, "spare")]
            treasures = sorted(t.treasure for t in tiles if t.treasure)
            rng.shuffle(treasures)
            each = len(treasures) // len(colours)
            setup["targets"] = {c: treasures[k * each:(k + 1) * each] for k, c in enumerate(colours)}
        return setup

    def public_setup(self, setup) -> dict:
        """The maze is on the table for all to see; the targets are secret."""
        return {k: v for k, v in setup.items() if k != "targets"}

    def printed_board(self) -> dict:
        """What the camera sees before the maze is known: the 16 tiles printed on the
        board and each pawn on its start corner, for a reader to learn colours from."""
        cells = {divmod(cell_index(k), SIZE): "tile:" + sides_text(parse_tile(v, k).sides)
                 for k, v in TILE_SET["fixed"].items()}
        for colour in COLOURS[:self.settings["players"]]:
            cells["pawn:" + colour] = TILE_SET["starts"][colour]
        return cells

    SETUP = {"players": [str], "first": int, "rows": [(str, list)], "spare": str, "targets": Each([str]),
             "from_table": bool}

    def start(self, setup: Mapping | None = None) -> LabState:
        setup = self.checked_setup(setup)
        if "rows" not in setup:
            raise ValueError("labyrinth setup needs 'rows' (7 strings of 7 tiles such as 'ES NS ESW:Mario "
                             "...'), 'spare' and 'players'; start with --seed for a random one")
        colours = tuple(setup.get("players") or COLOURS[:self.settings["players"]])
        if not 2 <= len(colours) <= 4 or any(c not in COLOURS for c in colours) or len(set(colours)) != len(colours):
            raise ValueError(f"setup 'players': expected 2-4 different colours from {', '.join(COLOURS)}, "
                             f"got {list(colours)}")
        rows = setup["rows"]
        if not isinstance(rows, list) or len(rows) != SIZE:
            raise ValueError("setup 'rows': expected a list of 7 rows")
        tiles: list[Tile] = []
        for r, row in enumerate(rows):
            tokens = row.split() if isinstance(row, str) else row
            if not isinstance(tokens, list) or len(tokens) != SIZE:
                raise ValueError(f"setup 'rows' row {r + 1}: expected 7 tiles, got {row!r}")
            tiles += [parse_tile(t, f"setup row {r + 1} ({cell_text(r * SIZE + c)})")
                      for c, t in enumerate(tokens)]
        if "spare" not in setup:
            raise ValueError("setup has no 'spare' tile")
        spare = parse_tile(setup["spare"], "setup 'spare'")
        warnings = []
        odd = [cell_text(i) for i, t in enumerate(tiles) if tile_kind(t.sides) not in "ILT"]
        if odd:
            warnings.append("tiles that are not straight, corner or T: " + ", ".join(odd))
        movable = [t for i, t in enumerate(tiles) if i not in FIXED] + [spare]
        kinds = {k: sum(tile_kind(t.sides) == k for t in movable) for k in "ILT"}
        if len(movable) != MOVABLE_TILES or kinds != {"I": 12, "L": 16, "T": 6}:
            warnings.append(f"the movable tiles are {kinds['I']} straight, {kinds['L']} corners and "
                            f"{kinds['T']} T (with the spare); the game has 12, 16 and 6, 34 in all")
        treasures = [t.treasure for t in tiles + [spare] if t.treasure]
        doubles = sorted({x for x in treasures if treasures.count(x) > 1})
        if doubles:
            raise ValueError("setup: a treasure is on more than one tile: " + ", ".join(doubles))
        if len(treasures) != CARDS:
            warnings.append(f"the maze holds {len(treasures)} treasures; the game has {CARDS}")
        targets = None
        if self.settings["cards"] == "referee":
            given = setup.get("targets")
            if not isinstance(given, Mapping) or set(given) != set(colours):
                raise ValueError("setup 'targets': expected each player's cards in order, as "
                                 f"{{colour: [treasure, ...]}} for {', '.join(colours)}")
            dealt = [x for cards in given.values() for x in cards]
            for colour, cards in given.items():
                missing = [x for x in cards if x not in treasures]
                if missing:
                    raise ValueError(f"setup 'targets' {colour}: no tile carries {', '.join(missing)}")
                if not cards:
                    raise ValueError(f"setup 'targets' {colour}: every player needs at least one card")
                twice = sorted({x for x in cards if dealt.count(x) > 1})
                if twice:
                    raise ValueError(f"setup 'targets' {colour}: {', '.join(twice)} is dealt more than once")
            targets = tuple(tuple(given[c]) for c in colours)
        first = setup.get("first", 0)
        if not isinstance(first, int) or not 0 <= first < len(colours):
            raise ValueError(f"setup 'first': expected a seat number 0-{len(colours) - 1}, got {first!r}")
        return LabState(tiles=tuple(tiles), spare=spare, colours=colours,
                        pawns=tuple(STARTS[c] for c in colours), targets=targets,
                        found=tuple(() for _ in colours), turn=first, warnings=tuple(warnings))

    # --- names and words -----------------------------------------------------------
    def seats(self, state: LabState) -> list[str]:
        return [self._(SEAT_WORDS[c]) for c in state.colours]

    def cell_name(self, cell) -> str:
        if isinstance(cell, tuple):
            return cell_text(cell[0] * SIZE + cell[1])
        if cell == "spare":
            return self._("the spare tile")
        if isinstance(cell, str) and cell.startswith("pawn:"):
            return self._(PAWN_WORDS[cell[5:]])
        return str(cell)

    def label_words(self, state: LabState, label: str) -> str:
        """'tile:ES' -> 'a corner open at the right and the bottom'; a pawn's cell 'b3' -> 'on b3'."""
        kind, _, sides = str(label).partition(":")
        if kind == "tile":
            sides = sum(bit for name, bit in SIDE_BITS if name in sides)
            return self._("{tile} open at {sides}", tile=tile_words(Tile(sides), self._),
                          sides=either([self._(SIDE_WORDS[n]) for n, b in SIDE_BITS if sides & b], self._("and")))
        if kind == "spare":
            return self._(TILE_WORDS[sides]) if sides in TILE_WORDS else self._("a tile")
        return self._("on {cell}", cell=label)

    def fix(self, state: LabState, seen: Mapping) -> str:
        """Each pawn back on its square, each tile as it lay ('put the red pawn back on b3');
        a maze pushed wrongly is put back as a whole."""
        board = self.board(state)
        wrong = [k for k, want in board.items() if seen.get(k, want) != want]
        tiles = [k for k in wrong if isinstance(k, tuple)]
        steps = [self._("put {pawn} back on {cell}", pawn=self._(PAWN_WORDS[k[5:]]), cell=board[k])
                 for k in wrong if str(k).startswith("pawn:")]
        if len(tiles) > 2:
            steps.append(self._("put the maze back as it was (the tiles on {cells} differ)",
                                cells=either(map(self.cell_name, tiles), self._("and"))))
        else:
            steps += [self._("turn the tile on {cell} back to {tile}", cell=self.cell_name(k),
                             tile=self.label_words(state, board[k])) for k in tiles]
        if "spare" in wrong:
            steps.append(self._("the spare tile is {tile}", tile=self.label_words(state, board['spare'])))
        return joined(steps) or self._("put the board back as it was")

    def _who(self, state: LabState, seat: int) -> str:
        return self._(SEAT_WORDS[state.colours[seat]])

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

    # --- notation ------------------------------------------------------------------
    _ACTION = re.compile(r"^(?:(red|yellow|green|blue)\s*:?\s+)?"
                         r"(?:push\s+([nesw][246])(?:\s+(?:r?(0|90|180|270)|([nesw]+)))?"
                         r"|move\s+([a-g][1-7])|exit\s+([a-g][1-7])|(stay|end)|(found))$")

    def parse(self, state: LabState, text: str):
        m = self._ACTION.match(" ".join(text.strip().lower().split()))
        if m is None:
            raise NotationError(self._("{text!r} is not a Labyrinth move", text=text.strip()),
                                self._("expected 'push N2 r90' (arrow N2 N4 N6 E2 E4 E6 S2 S4 S6 W2 W4 W6, turn r0 r90 "
                                       "r180 r270 or the open sides such as NES), 'move d4', 'end' (or 'stay'), "
                                       "'found' or 'exit a3', optionally after a colour ('red push N2')"))
        colour, arrow, degrees, sides, move, leave, stay, found = m.groups()
        seat = None
        if colour:
            if colour not in state.colours:
                raise NotationError(self._("{colour} is not playing in this game (players: {players})",
                                           colour=colour, players=', '.join(state.colours)))
            seat = state.colours.index(colour)
        if arrow:
            arrow = arrow.upper()
            if sides:
                want = parse_tile(sides.upper(), f"{text.strip()!r}").sides
                turns = next((q for q in range(4) if rotate(state.spare.sides, q) == want), None)
                if turns is None:
                    raise NotationError(self._("the spare tile ({tile}) cannot be turned to be open on {sides}",
                                               tile=sides_text(state.spare.sides), sides=sides_text(want)))
                return Push(arrow, turns, seat)
            return Push(arrow, int(degrees or 0) // 90, seat)
        if move:
            return MovePawn(cell_index(move), seat)
        if leave:
            return Leave(cell_index(leave), seat)
        if stay:
            return Stay(seat)
        return DeclareFound(seat)

    def notation(self, state: LabState, action) -> str:
        if isinstance(action, Push):
            return f"push {action.arrow} r{action.turns * 90}"
        if isinstance(action, MovePawn):
            return f"move {cell_text(action.cell)}"
        if isinstance(action, Leave):
            return f"exit {cell_text(action.cell)}"
        if isinstance(action, Stay):
            return "stay" if state.pawns[state.turn] == state.turn_start else "end"
        return "found"

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

    def describe(self, state: LabState, action) -> str:
        if isinstance(action, DeclareFound):
            if state.phase == "move":
                state = self._end_turn(state)
            seat = state.last_mover
            treasure = state.tiles[state.pawns[seat]].treasure
            return self._("{who} has found {treasure}", who=self._who(state, seat), treasure=printed(treasure))
        if isinstance(action, Push) and state.phase == "move":
            # the next player's push ends this turn: said after the pusher's name, whose action it is
            after = self._end_turn(state)
            who = self._who(after, after.turn)
            push = self.describe(after, action).removeprefix(who + " ")
            return self._("{who}, after {end}, {push}", who=who, end=self._turn_end_words(state, past=True), push=push)
        who = self._who(state, state.turn)
        if isinstance(action, Push):
            tile = Tile(rotate(state.spare.sides, action.turns), state.spare.treasure)
            line = ARROWS[action.arrow]
            text = self._("{who} pushes the spare tile ({tile}) in at {arrow}; the tile on {cell} ({out}) comes out",
                          who=who, tile=tile_words(tile, self._), arrow=arrow_words(action.arrow, self._),
                          cell=cell_text(line[-1]), out=tile_words(state.tiles[line[-1]], self._))
            bumped = [self._who(state, s) for s, p in enumerate(state.pawns) if p == line[-1]]
            if bumped:
                text += "; " + self._.n("{pawns} goes over to {cell}", "{pawns} go over to {cell}", len(bumped),
                                        pawns=either(bumped, self._("and")), cell=cell_text(line[0]))
            return text
        if isinstance(action, Leave):
            return self._("{who} leaves the maze at {cell}", who=who, cell=cell_text(action.cell))
        if isinstance(action, MovePawn):
            # no word of a target under it: the card is secret until the turn ends there
            return self._("{who} moves from {frm} to {to}", who=who, frm=cell_text(state.pawns[state.turn]),
                          to=cell_text(action.cell))
        return self._turn_end_words(state)

    def _turn_end_words(self, state: LabState, past: bool = False) -> str:
        """How the turn in the "move" phase ends: where the pawn stays, and a find
        ("Red stays on b3", or after a push "Red stayed on b3")."""
        seat = state.turn
        here = cell_text(state.pawns[seat])
        stays = state.pawns[seat] == state.turn_start
        verb = (N_("{who} stayed on {cell}") if stays else N_("{who} ended the turn on {cell}")) if past else \
            (N_("{who} stays on {cell}") if stays else N_("{who} ends the turn on {cell}"))
        text = self._(verb, who=self._who(state, seat), cell=here)
        after = self._end_turn(state)
        new = after.found[seat][len(state.found[seat]):]
        if new:
            left = self.cards_of(state, seat) - len(after.found[seat])
            found = N_("{text} and found {treasure} ({left} left)") if past else \
                N_("{text} and finds {treasure} ({left} left)")
            text = self._(found, text=text, treasure=printed(new[0]), left=left)
        return text

    # --- rules ---------------------------------------------------------------------
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
            self._check_declaration(self._end_turn(state) if state.phase == "move" else state, action)
            return
        who = self._who(state, state.turn)
        if isinstance(action, Push):
            if action.arrow not in ARROWS:
                raise IllegalAction(self._("there is no arrow {arrow}", arrow=action.arrow))
            if state.phase == "move":
                if action.seat == state.turn:
                    raise IllegalAction(self._("{who} has already changed the maze this turn; now move the "
                                               "pawn or end the turn", who=who))
                state = self._end_turn(state)  # the next player's push ends this turn
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
            if not self._exit_sides(state.tiles, action.cell):
                raise IllegalAction(self._("{cell} has no open side at the edge of the board",
                                           cell=cell_text(action.cell)), [divmod(action.cell, SIZE)])

    @staticmethod
    def _exit_sides(tiles, cell: int) -> int:
        r, c = divmod(cell, SIZE)
        edge = (N if r == 0 else 0) | (S if r == SIZE - 1 else 0) | (W if c == 0 else 0) | \
            (E if c == SIZE - 1 else 0)
        return tiles[cell].sides & edge

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
                state = self._end_turn(state)  # a won game stays won: the push shows the end
            spare = Tile(rotate(state.spare.sides, action.turns), state.spare.treasure)
            tiles, out, pawns = push_tiles(state.tiles, spare, action.arrow, state.pawns)
            return replace(state, tiles=tiles, spare=out, pawns=pawns, phase="move",
                           banned=OPPOSITE_ARROW[action.arrow], last_push=action.arrow,
                           last_mover=None, turn_start=pawns[state.turn])
        if isinstance(action, DeclareFound):
            if state.phase == "move":
                state = self._end_turn(state)
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
        return self._end_turn(state)

    def _end_turn(self, state: LabState) -> LabState:
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
        declaring = self._end_turn(state) if state.phase == "move" else state
        acts: list = []
        if state.phase == "push":
            acts += self._pushes(state)
        else:
            here = state.pawns[state.turn]
            acts += [Stay()] + [MovePawn(c) for c in sorted(reachable(state.tiles, here) - {here})]
            if self.settings["finish"] == "any_side" and len(state.found[state.turn]) >= self.cards_of(state, state.turn):
                acts += [Leave(c) for c in sorted(reachable(state.tiles, here))
                         if self._exit_sides(state.tiles, c)]
        if declaring.last_mover is not None and state.targets is None:
            try:
                self._check_declaration(declaring, DeclareFound())
                acts.append(DeclareFound())
            except IllegalAction:
                pass
        return acts

    @staticmethod
    def _pushes(state: LabState) -> list:
        """The player's pushes: every arrow but the banned one, each distinct turn."""
        turns = {}
        for q in range(4):
            turns.setdefault(rotate(state.spare.sides, q), q)
        return [Push(a, q) for a in ARROWS if a != state.banned for q in sorted(turns.values())]

    def observable_actions(self, state: LabState, changed: set | None = None) -> Iterable:
        """Pushes and pawn moves change what the camera sees; ending the turn does not,
        so while the pawn may still move the next player's pushes are listed instead:
        seeing one is how the camera learns that the turn ended. A find and leaving the
        maze are entered on the page."""
        if state.outcome:
            return []
        if state.phase == "push":
            return self._pushes_seen(state, changed)
        here = state.pawns[state.turn]
        return ([MovePawn(c) for c in sorted(reachable(state.tiles, here) - {here})]
                + self._pushes_seen(self._end_turn(state), changed))

    def _pushes_seen(self, state: LabState, changed: set | None) -> list:
        """The pushes that could explain the changed cells. A push changes only its own
        line, so when every changed tile lies on one line only that line's arrows are
        tried: the referee's two-deep search then does not try every pair of pushes
        (which no view shows: the still board between two players' pushes is seen)."""
        pushes = self._pushes(state)
        if changed is None:
            return pushes
        tiles = {c[0] * SIZE + c[1] for c in changed if isinstance(c, tuple)}
        if not tiles:
            return []
        lines = {a for a, line in ARROWS.items() if tiles <= set(line)}
        return [p for p in pushes if p.arrow in lines] if lines else pushes

    # --- what the page and the camera see ------------------------------------------
    def snapshot(self, state: LabState, viewer: int | None = None) -> dict:
        players = []
        for seat, colour in enumerate(state.colours):
            entry = {"colour": colour, "cell": cell_text(state.pawns[seat]),
                     "start": cell_text(STARTS[colour]), "found": list(state.found[seat]),
                     "cards": self.cards_of(state, seat)}
            if viewer == seat and state.targets is not None:
                entry["targets"] = list(self.wanted(state, seat))
            players.append(entry)
        return {
            "rows": [" ".join(tile_text(t) for t in state.tiles[r * SIZE:(r + 1) * SIZE])
                     for r in range(SIZE)],
            "spare": tile_text(state.spare),
            "players": players,
            "turn": state.turn,
            "phase": state.phase,
            "banned_arrow": state.banned,
            # each treasure as printed, with the mark drawn on its tile (a name does not fit there)
            "treasures": {t: {"name": printed(t), "mark": m} for t, m in marks(
                x.treasure for x in state.tiles + (state.spare,) if x.treasure).items()},
            "warnings": list(state.warnings),
            # what the page writes on each player's card
            "seat_words": [self._.n("on {cell} \u00B7 found {found} of {n} treasure",
                                    "on {cell} \u00B7 found {found} of {n} treasures", p["cards"],
                                    cell=p["cell"], found=len(p["found"])) for p in players],
        }

    def board(self, state: LabState) -> dict:
        cells = {cell: _TILE_TEXT[t.sides] for cell, t in zip(_CELLS, state.tiles)}
        cells["spare"] = _SPARE_TEXT[state.spare.sides]
        for colour, p in zip(state.colours, state.pawns):
            cells["pawn:" + colour] = cell_text(p)
        return cells

    def explain(self, state: LabState, seen: Mapping) -> IllegalAction:
        """Put a view no legal action explains into words: first the maze (which push
        the tiles show), then the pawns."""
        now = self.board(state)
        tiles_changed = [c for c in now if isinstance(c, tuple) and seen.get(c, now[c]) != now[c]]
        ejected: tuple[str, ...] = ()
        if tiles_changed:
            if state.phase == "move" and state.outcome is None:
                state = self.apply(state, Stay())  # a push now is the next player's
            push = self._push_seen(state, seen)
            if push is None:
                return IllegalAction(self._("the maze changed in a way no push explains: {cells}",
                                            cells=", ".join(self.cell_name(c) for c in tiles_changed)), tiles_changed)
            try:
                self.check(state, push)
            except IllegalAction as exc:
                return IllegalAction(exc.reason, tiles_changed)
            out_cell = ARROWS[push.arrow][-1]
            ejected = tuple(c for c, p in zip(state.colours, state.pawns) if p == out_cell)
            state = self.apply(state, push)
            now = self.board(state)
        moved = [k for k in now if isinstance(k, str) and k.startswith("pawn:") and seen.get(k, now[k]) != now[k]]
        if not moved:
            bad = [k for k in now if seen.get(k, now[k]) != now[k]]
            return IllegalAction(self._("the board does not match: {cells}", cells=joined(
                self._("{cell} is {seen}, not {was}", cell=self.cell_name(k), seen=self.label_words(state, seen[k]),
                       was=self.label_words(state, now[k])) for k in bad)), bad)
        who = self._who(state, state.turn)
        colour = moved[0][5:]
        seat = state.colours.index(colour)
        target = cell_index(seen[moved[0]]) if isinstance(seen[moved[0]], str) else None
        if state.outcome:
            return IllegalAction(self._("the game is over: {reason}", reason=state.outcome.reason), moved)
        pawn = self._(PAWN_WORDS[colour])
        if colour in ejected:
            return IllegalAction(self._("{pawn} was pushed off the board: it goes onto the tile just pushed in, "
                                        "at {cell}", pawn=pawn, cell=cell_text(state.pawns[seat])), moved)
        if seat != state.turn:
            return IllegalAction(self._("it is {who}'s turn: {pawn} may not move now", who=who, pawn=pawn), moved)
        if state.phase == "push":
            return IllegalAction(self._("{who} must first change the maze: push the spare tile in at "
                                        "one of the 12 arrows, then move the pawn", who=who), moved)
        if target is None:
            return IllegalAction(self._("{pawn} left the board", pawn=pawn), moved)
        return IllegalAction(self._("{who} cannot reach {to} from {frm}: the path there is not connected", who=who,
                                    to=cell_text(target), frm=cell_text(state.pawns[seat])), moved)

    def _push_seen(self, state: LabState, seen: Mapping) -> Push | None:
        """The push (legal or not) whose tiles fit the view, if exactly one does."""
        fits = []
        for arrow in ARROWS:
            for q in range(4):
                tiles, _, _ = push_tiles(state.tiles, Tile(rotate(state.spare.sides, q)), arrow, state.pawns)
                if all(seen.get(divmod(i, SIZE), "tile:" + sides_text(t.sides)) == "tile:" + sides_text(t.sides)
                       for i, t in enumerate(tiles)):
                    fits.append(Push(arrow, q))
                    break
        return fits[0] if len(fits) == 1 else None
