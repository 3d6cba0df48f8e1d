"""The maze of Super Mario Labyrinth: its tiles, cells and arrows, and the two things
the maze itself decides: where a pawn can go (`reachable`) and what a push does
(`push_tiles`). Pure geometry on tuples, no rules of turns: the rules, the words and the
camera all ask it, and the referee weighs hundreds of pushes a view, so it is kept small
and fast (bench/labyrinth.py).

Cells. A cell is (row, col), both from 0 at the top left, where "top" is the edge with
the arrows N2, N4, N6; the state numbers it row * 7 + col. Cells are named like chess
squares: column letter a-g from the left, row number 1-7 from the top: a1 is the top-left
corner (red's start), g1 top-right (yellow), g7 bottom-right (green), a7 bottom-left
(blue). Sixteen tiles are printed on the board (every other row and column, counting
from the corners, `FIXED`); the other 33 and one spare tile move.

Tiles are written by their open sides, in the order N E S W, and an optional treasure
after a colon: ``NS`` (straight), ``ES`` (corner), ``NES`` (T), ``NES:Mario``.

Arrows are named by the board edge they stand on and the row or column number they push:
N2 N4 N6 push columns b, d, f downwards from the top edge; S2 S4 S6 push them upwards;
W2 W4 W6 push rows 2, 4, 6 rightwards from the left edge; E2 E4 E6 push them leftwards.
A pawn pushed off the board goes onto the tile just pushed in, on the opposite side.
"""
from __future__ import annotations

import json
import re
from collections import deque
from importlib import resources
from typing import NamedTuple

SIZE = 7
N, E, S, W = 1, 2, 4, 8
SIDE_BITS = (("N", N), ("E", E), ("S", S), ("W", W))
STEP = {N: (-1, 0), E: (0, 1), S: (1, 0), W: (0, -1)}
OPPOSITE_SIDE = {N: S, E: W, S: N, W: E}
COLOURS = ("red", "yellow", "green", "blue")  # the pawns, in the order play goes (clockwise from a1)
CARDS = 24  # the treasure cards in the box
MOVABLE_TILES = 34  # 33 on the board and the spare


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


def exit_sides(tiles: tuple[Tile, ...], cell: int) -> int:
    """The open sides of `cell`'s tile that face off the board: where a pawn may leave
    the maze (the younger players' finish)."""
    r, c = divmod(cell, SIZE)
    edge = (N if r == 0 else 0) | (S if r == SIZE - 1 else 0) | (W if c == 0 else 0) | \
        (E if c == SIZE - 1 else 0)
    return tiles[cell].sides & edge


def _load_tile_set() -> dict:
    """The game's box (data/labyrinth.json): the movable tiles, the 16 printed ones and
    each colour's start corner."""
    with resources.files("controller.games").joinpath("data/labyrinth.json").open(encoding="utf-8") as f:
        return json.load(f)


TILE_SET = _load_tile_set()
STARTS = {colour: cell_index(name) for colour, name in TILE_SET["starts"].items()}
