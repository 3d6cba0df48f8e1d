"""How a Labyrinth game starts: a maze drawn at random or read from the table, the deal of
the secret targets, and a setup checked into the first position. Kept apart from the
rules because it is the only part that reads the box (data/labyrinth.json) and a random
generator: the rules never draw anything, the referee journals the setup it drew.

Setup (the JSON journalled at the start, and the file for ``referee play --setup``):
``{"players": ["red", "yellow", ...], "first": 0, "rows": [7 strings of 7 tiles],
"spare": "NS", "targets": {"red": ["Mario", ...], ...}}``; ``targets`` is left out in
the paper-cards mode. `new_setup` shuffles the 34 movable tiles of data/labyrinth.json,
turns each a random way, and deals the 24 targets evenly. For a maze laid out on the
table, the camera reads it (`printed_board`, controller/games/labyrinth/camera.py, is
what a reader can learn colours from before that) and `setup_from_layout` deals for it.
"""
from __future__ import annotations

from typing import Mapping

from .maze import (CARDS, COLOURS, FIXED, MOVABLE_TILES, SIZE, STARTS, TILE_SET, Tile, cell_index, cell_text,
                   parse_tile, rotate, tile_kind, tile_text)
from .state import LabState


def new_setup(settings: Mapping, rng) -> dict:
    """A random maze (shuffled, randomly turned movable tiles) and the deal."""
    tiles = [parse_tile(t, "data/labyrinth.json") for t in TILE_SET["movable"]]
    rng.shuffle(tiles)
    tiles = [Tile(rotate(t.sides, rng.randrange(4)), t.treasure) for t in tiles]
    fixed = {cell_index(k): parse_tile(v, f"data/labyrinth.json fixed {k}")
             for k, v in TILE_SET["fixed"].items()}
    movable = iter(tiles)
    board = [fixed[i] if i in FIXED else next(movable) for i in range(SIZE * SIZE)]
    rows = [" ".join(tile_text(t) for t in board[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]
    return with_deal(settings, rows, tile_text(next(movable)), rng)


def setup_from_layout(settings: Mapping, rows: list[str], rng, spare: str | None = None,
                      deal: Mapping | None = None) -> dict:
    """A setup for a maze read from the table (sides from the tile reader, pictures
    named by the treasure catalogue), with the targets dealt from `rng`, or kept from
    `deal` (a recorded setup: `referee replay` decides with the deal `serve` had).
    Without `spare`, the spare is the tile the set of data/labyrinth.json is missing.
    Marked `from_table`, so a restart before the first move resumes it, where a maze
    drawn by `new_setup` to hold the place is read from the table again
    (controller/service.py)."""
    if spare is None:
        spare = missing_tile(rows)
    setup = with_deal(settings, rows, spare, rng)
    setup.update({k: v for k, v in (deal or {}).items() if k not in ("rows", "spare")})
    return {**setup, "from_table": True}


def missing_tile(rows: list[str]) -> str:
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


def with_deal(settings: Mapping, rows: list[str], spare: str, rng) -> dict:
    """The setup of a maze with the players of `settings`, red first, and (the referee
    dealing) the treasures of the maze shuffled from `rng` and shared evenly."""
    colours = list(COLOURS[:settings["players"]])
    setup = {"players": colours, "first": 0, "rows": rows, "spare": spare}
    if settings["cards"] == "referee":
        tiles = [parse_tile(t, "layout") for row in rows for t in row.split()] + [parse_tile(spare, "spare")]
        treasures = sorted(t.treasure for t in tiles if t.treasure)
        rng.shuffle(treasures)
        each = len(treasures) // len(colours)
        setup["targets"] = {c: treasures[k * each:(k + 1) * each] for k, c in enumerate(colours)}
    return setup


def first_state(settings: Mapping, setup: Mapping) -> LabState:
    """The position a checked setup starts from; ValueError naming what in the setup is
    wrong, and warnings (kept in the state, shown on the page) for a maze that is not
    the box's but can be played."""
    if "rows" not in setup:
        raise ValueError("labyrinth setup needs 'rows' (7 strings of 7 tiles such as 'ES NS ESW:Mario "
                         "...'), 'spare' and 'players'; start with --seed for a random one")
    colours = tuple(setup.get("players") or COLOURS[:settings["players"]])
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
    if settings["cards"] == "referee":
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
