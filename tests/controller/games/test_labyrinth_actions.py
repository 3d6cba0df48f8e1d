"""What a Labyrinth player does (controller/games/labyrinth/actions.py): each action writes
itself in the notation the journal records, and the parser reads it back."""
import random
from dataclasses import replace

import pytest

from controller.games.base import NotationError
from controller.games.labyrinth.actions import DeclareFound, Leave, MovePawn, Push, Stay, parse
from controller.games.labyrinth.maze import ARROWS, Tile, cell_index, parse_tile
from controller.games.labyrinth.rules import Labyrinth
from controller.i18n import translator
from support import labyrinth_ring, played


def test_every_action_a_game_offers_is_written_and_read_back_the_same():
    game = Labyrinth(settings={"players": 3})
    state = game.start(game.new_setup(random.Random(11)))
    rng = random.Random(4)
    seen = set()
    for _ in range(40):
        for action in game.legal_actions(state):
            text = game.notation(state, action)
            assert parse(translator(), state, text) == action, text
            seen.add(type(action))
        state = game.play(state, rng.choice(game.legal_actions(state)))
    assert {Push, MovePawn, Stay} <= seen


def test_each_action_s_notation():
    game = Labyrinth(settings={"players": 2})
    state = played(game, game.start(labyrinth_ring()), "push N2 EW")
    assert Push("W4", 3).notation(state) == "push W4 r270"
    assert MovePawn(cell_index("d1")).notation(state) == "move d1"
    assert Leave(cell_index("a3")).notation(state) == "exit a3"
    assert DeclareFound().notation(state) == "found"
    assert Stay().notation(state) == "stay"  # the pawn is where the push left it
    assert Stay().notation(played(game, state, "move c1")) == "end"


def test_a_colour_in_front_names_the_seat_and_words_are_read_loosely():
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring())
    _ = translator()
    assert parse(_, state, "Yellow:  PUSH  s6 r180") == Push("S6", 2, 1)
    assert parse(_, state, "red end") == Stay(0) and parse(_, state, "stay") == Stay()
    assert parse(_, state, "push E2 NS") == Push("E2", 1)  # the spare (EW) turned a quarter
    with pytest.raises(NotationError, match="blue is not playing"):
        parse(_, state, "blue stay")
    with pytest.raises(NotationError) as english:
        parse(_, state, "jump d4")
    with pytest.raises(NotationError) as french:
        parse(translator("fr"), state, "jump d4")
    assert str(english.value) == "'jump d4' is not a Labyrinth move" and "push N2 r90" in english.value.usage
    assert "'jump d4'" in str(french.value) and str(french.value) != str(english.value)  # the table's language


def test_every_push_is_each_arrow_but_the_banned_one_and_each_distinct_turn():
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring())  # the spare is a straight: two distinct turns
    assert len(Push.every(state)) == 12 * 2
    corner = replace(state, spare=Tile(parse_tile("ES", "t").sides), banned="S2")
    pushes = Push.every(corner)
    assert len(pushes) == 11 * 4 and all(p.arrow != "S2" for p in pushes)
    assert {p.arrow for p in pushes} == set(ARROWS) - {"S2"}


def test_a_spare_cannot_be_turned_into_another_kind():
    game = Labyrinth()
    state = game.start(game.new_setup(random.Random(7)))
    state = replace(state, spare=Tile(parse_tile("NS", "t").sides))
    with pytest.raises(NotationError, match="cannot be turned"):
        game.parse(state, "push N2 NE")
