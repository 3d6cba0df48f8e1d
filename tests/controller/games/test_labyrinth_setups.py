"""How a Labyrinth game starts (controller/games/labyrinth/setups.py): a maze drawn at
random or read from the table, the deal, and a setup checked into the first position."""
import random

import pytest

from controller.games.labyrinth.maze import cell_index, parse_tile, tile_kind
from controller.games.labyrinth.rules import Labyrinth
from controller.games.labyrinth.setups import missing_tile
from support import labyrinth_ring


@pytest.mark.parametrize("players,each", [(2, 12), (3, 8), (4, 6)])
def test_new_setup_deals_the_24_cards_evenly_and_is_reproducible(players, each):
    game = Labyrinth(settings={"players": players})
    setup = game.new_setup(random.Random(3))
    assert setup == game.new_setup(random.Random(3))
    assert setup != game.new_setup(random.Random(4))
    cards = [t for c in setup["targets"].values() for t in c]
    assert [len(c) for c in setup["targets"].values()] == [each] * players
    assert len(set(cards)) == players * each
    state = game.start(setup)
    assert state.warnings == ()  # 33 + spare movable tiles of the right kinds, 24 treasures
    assert list(state.pawns) == [cell_index(c) for c in ("a1", "g1", "g7", "a7")[:players]]


def test_setup_with_a_wrong_tile_count_is_played_with_a_warning():
    setup = labyrinth_ring(targets={"red": ["Star"], "yellow": ["Moon"]})
    state = Labyrinth(settings={"players": 2}).start(setup)
    assert any("34 in all" in w for w in state.warnings)
    assert any("3 treasures" in w for w in state.warnings)


@pytest.mark.parametrize("change,message", [
    ({"rows": ["ES"] * 7}, "row 1: expected 7 tiles"),
    ({"spare": "NX"}, "'NX' is not a tile"),
    ({"players": ["red", "pink"]}, "2-4 different colours"),
    ({"targets": {"red": ["Nothing"], "yellow": ["Moon"]}}, "no tile carries Nothing"),
    ({"targets": {"red": ["Star"]}}, "each player's cards"),
    ({"first": 5}, "'first'"),
    ({"targets": {"red": ["Star"], "yellow": []}}, "at least one card"),
    ({"targets": {"red": ["Star", "Moon"], "yellow": ["Moon"]}}, "Moon is dealt more than once"),
])
def test_bad_setup_is_refused_with_a_message_naming_the_place(change, message):
    with pytest.raises(ValueError, match=message):
        Labyrinth(settings={"players": 2}).start({**labyrinth_ring(), **change})


def test_a_maze_read_from_the_table_gets_the_tile_the_box_misses_as_its_spare():
    game = Labyrinth(settings={"players": 3})
    drawn = game.new_setup(random.Random(5))
    spare = parse_tile(drawn["spare"], "spare")
    found = parse_tile(missing_tile(drawn["rows"]), "found")
    assert (tile_kind(found.sides), found.treasure) == (tile_kind(spare.sides), spare.treasure)
    read = game.setup_from_layout(drawn["rows"], random.Random(1))
    assert read["from_table"] and read["rows"] == drawn["rows"] and len(read["targets"]) == 3
    game.start(read)  # a playable setup


def test_a_recorded_deal_is_kept_for_a_maze_read_again():
    """`referee replay` reads the maze from the video and decides with the deal `serve` had."""
    game = Labyrinth(settings={"players": 2})
    drawn = game.new_setup(random.Random(2))
    again = game.setup_from_layout(drawn["rows"], random.Random(99), spare=drawn["spare"],
                                   deal={"targets": drawn["targets"], "rows": ["ignored"]})
    assert again["targets"] == drawn["targets"] and again["rows"] == drawn["rows"]


def test_paper_cards_deal_nothing_and_a_tile_of_no_kind_is_a_warning():
    game = Labyrinth(settings={"players": 2, "cards": "paper"})
    setup = labyrinth_ring()
    del setup["targets"]
    row = setup["rows"][3].split()
    row[3] = "NESW"  # a crossing on d4: no tile of the box
    setup["rows"][3] = " ".join(row)
    state = game.start(setup)
    assert state.targets is None
    assert "tiles that are not straight, corner or T: d4" in state.warnings
    assert "targets" not in game.new_setup(random.Random(1))
    assert state.pawns == (cell_index("a1"), cell_index("g1"))
