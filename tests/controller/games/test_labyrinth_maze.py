"""The Labyrinth's maze (controller/games/labyrinth/maze.py): tiles written by their open
sides, turns, cell names, where a pawn can go and what a push does to tiles and pawns."""
import pytest

from controller.games.labyrinth.maze import (ARROWS, E, N, S, W, Tile, cell_index, cell_text, exit_sides,
                                             parse_tile, push_tiles, reachable, rotate, sides_text, tile_kind)
from controller.games.labyrinth.rules import Labyrinth
from support import labyrinth_ring


def test_a_tile_is_written_by_its_open_sides_and_its_treasure():
    tile = parse_tile(" nes:Mario ", "row 1")
    assert tile == Tile(N | E | S, "Mario") and sides_text(tile.sides) == "NES" and tile_kind(tile.sides) == "T"
    assert [tile_kind(parse_tile(t, "x").sides) for t in ("NS", "EW", "ES", "NW")] == ["I", "I", "L", "L"]
    with pytest.raises(ValueError, match="row 3: 'NX' is not a tile"):
        parse_tile("NX", "row 3")
    with pytest.raises(ValueError, match="spare: expected a tile"):
        parse_tile(7, "spare")


def test_four_quarter_turns_bring_a_tile_back():
    for sides in range(16):
        assert rotate(rotate(sides, 1), 3) == sides and rotate(sides, 4) == sides
    assert rotate(N, 1) == E and rotate(N | E, 1) == E | S


def test_cells_are_named_like_chess_squares_from_the_top_left():
    assert [cell_text(i) for i in (0, 6, 42, 48)] == ["a1", "g1", "a7", "g7"]
    assert all(cell_index(cell_text(i)) == i for i in range(49))
    assert cell_index(" D4 ") == 24 and cell_index("h1") is None and cell_index("a8") is None


def test_a_push_shifts_its_line_and_a_pawn_pushed_off_comes_in_on_the_new_tile():
    tiles = tuple(Tile(N | S, f"t{i}") for i in range(49))
    spare = Tile(E | W, "new")
    b1, b2, b7, c3 = map(cell_index, ("b1", "b2", "b7", "c3"))
    after, out, pawns = push_tiles(tiles, spare, "N2", (b7, b2, c3))
    assert after[b1] == spare and after[b2] == tiles[b1] and out == tiles[b7]
    assert pawns == (b1, cell_index("b3"), c3)  # off the bottom onto the tile pushed in; c3 is not on the line
    assert ARROWS["E4"][0] == cell_index("g4") and ARROWS["E4"][-1] == cell_index("a4")


def test_a_pawn_leaves_the_maze_only_through_an_open_side_at_the_edge():
    tiles = [Tile(N | E | S | W)] * 49
    assert exit_sides(tuple(tiles), cell_index("a1")) == N | W
    assert exit_sides(tuple(tiles), cell_index("d4")) == 0
    tiles[cell_index("d7")] = Tile(E | W)
    assert exit_sides(tuple(tiles), cell_index("d7")) == 0


def serpentine_rows():
    """One path through all 49 cells: along row 1 to the right, down, row 2 to the left..."""
    order = [(r, c if r % 2 == 0 else 6 - c) for r in range(7) for c in range(7)]
    sides = {cell: set() for cell in order}
    for (r1, c1), (r2, c2) in zip(order, order[1:]):
        d = {(0, 1): ("E", "W"), (0, -1): ("W", "E"), (1, 0): ("S", "N")}[(r2 - r1, c2 - c1)]
        sides[(r1, c1)].add(d[0])
        sides[(r2, c2)].add(d[1])
    return [[Tile(parse_tile("".join(sorted(sides[(r, c)])), "t").sides) for c in range(7)] for r in range(7)]


def test_reachability_follows_a_path_through_all_49_cells():
    tiles = tuple(t for row in serpentine_rows() for t in row)
    assert reachable(tiles, 0) == set(range(49))
    assert reachable(tiles, 48) == set(range(49))
    # break the path in the middle of row 4: only the first half stays reachable
    broken = list(tiles)
    broken[cell_index("d4")] = Tile(parse_tile("NS", "t").sides)
    half = reachable(tuple(broken), 0)
    assert cell_index("e4") in half and cell_index("d4") not in half and cell_index("a7") not in half


def test_reachability_round_a_closed_loop_stops_and_needs_both_sides_open():
    state = Labyrinth(settings={"players": 2}).start(labyrinth_ring())
    ring = reachable(state.tiles, 0)
    assert len(ring) == 24 and all(divmod(i, 7)[0] in (0, 6) or divmod(i, 7)[1] in (0, 6) for i in ring)
    # b2 is open to the north but b1 (EW) is not open to the south: no passage
    assert cell_index("b2") not in ring
