"""How the Labyrinth is said: tiles, arrows, seats, pawns and each action, in the table's
language (`_`, the game's translator; every text is a catalogue message, so the words
stay English only where a catalogue lacks them). What is said of a move is recorded with
it and read aloud, so it names only what the players could see: a secret card is not
named before the turn ends on it."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import N_, translator
from ..words import either, printed, semicolon
from .actions import DeclareFound, Leave, MovePawn, Push
from .maze import ARROWS, SIDE_BITS, SIZE, Tile, cell_text, rotate, sides_text, tile_kind
from .state import LabState

if TYPE_CHECKING:
    from .rules import Labyrinth

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


def who(_, state: LabState, seat: int) -> str:
    """A seat by its colour ('Red'): the players sit at their pawn's colour."""
    return _(SEAT_WORDS[state.colours[seat]])


def cell_name(_, cell) -> str:
    """A camera cell: a tile's cell as 'b3', the spare, a pawn by its colour."""
    if isinstance(cell, tuple):
        return cell_text(cell[0] * SIZE + cell[1])
    if cell == "spare":
        return _("the spare tile")
    if isinstance(cell, str) and cell.startswith("pawn:"):
        return _(PAWN_WORDS[cell[5:]])
    return str(cell)


def label_words(_, label: str) -> str:
    """'tile:ES' -> 'a corner open at the right and the bottom'; a pawn's cell 'b3' -> 'on b3'."""
    kind, _sep, sides = str(label).partition(":")
    if kind == "tile":
        sides = sum(bit for name, bit in SIDE_BITS if name in sides)
        return _("{tile} open at {sides}", tile=tile_words(Tile(sides), _),
                 sides=either([_(SIDE_WORDS[n]) for n, b in SIDE_BITS if sides & b], _("and")))
    if kind == "spare":
        return _(TILE_WORDS[sides]) if sides in TILE_WORDS else _("a tile")
    return _("on {cell}", cell=label)


def describe(game: Labyrinth, state: LabState, action) -> str:
    """What an action does, as it is recorded and said: 'Red pushes the spare tile (a
    corner) in at the top of column b; the tile on b7 (a straight) comes out'."""
    _ = game._
    if isinstance(action, DeclareFound):
        if state.phase == "move":
            state = game.end_turn(state)
        seat = state.last_mover
        treasure = state.tiles[state.pawns[seat]].treasure
        return _("{who} has found {treasure}", who=who(_, state, seat), treasure=printed(treasure))
    if isinstance(action, Push) and state.phase == "move":
        # the next player's push ends this turn: said after the pusher's name, whose action it is
        after = game.end_turn(state)
        pusher = who(_, after, after.turn)
        push = describe(game, after, action).removeprefix(pusher + " ")
        return _("{who}, after {end}, {push}", who=pusher, end=turn_end_words(game, state, past=True), push=push)
    mover = who(_, state, state.turn)
    if isinstance(action, Push):
        tile = Tile(rotate(state.spare.sides, action.turns), state.spare.treasure)
        line = ARROWS[action.arrow]
        text = _("{who} pushes the spare tile ({tile}) in at {arrow}; the tile on {cell} ({out}) comes out",
                 who=mover, tile=tile_words(tile, _), arrow=arrow_words(action.arrow, _),
                 cell=cell_text(line[-1]), out=tile_words(state.tiles[line[-1]], _))
        bumped = [who(_, state, s) for s, p in enumerate(state.pawns) if p == line[-1]]
        if bumped:
            text += semicolon(_) + _.n("{pawns} goes over to {cell}", "{pawns} go over to {cell}", len(bumped),
                               pawns=either(bumped, _("and")), cell=cell_text(line[0]))
        return text
    if isinstance(action, Leave):
        return _("{who} leaves the maze at {cell}", who=mover, cell=cell_text(action.cell))
    if isinstance(action, MovePawn):
        # no word of a target under it: the card is secret until the turn ends there
        return _("{who} moves from {frm} to {to}", who=mover, frm=cell_text(state.pawns[state.turn]),
                 to=cell_text(action.cell))
    return turn_end_words(game, state)


def turn_end_words(game: Labyrinth, state: LabState, past: bool = False) -> str:
    """How the turn in the "move" phase ends: where the pawn stays, and a find
    ("Red stays on b3", or after a push "Red stayed on b3")."""
    _ = game._
    seat = state.turn
    here = cell_text(state.pawns[seat])
    stays = state.pawns[seat] == state.turn_start
    verb = (N_("{who} stayed on {cell}") if stays else N_("{who} ended the turn on {cell}")) if past else \
        (N_("{who} stays on {cell}") if stays else N_("{who} ends the turn on {cell}"))
    text = _(verb, who=who(_, state, seat), cell=here)
    after = game.end_turn(state)
    new = after.found[seat][len(state.found[seat]):]
    if new:
        left = game.cards_of(state, seat) - len(after.found[seat])
        found = N_("{text} and found {treasure} ({left} left)") if past else \
            N_("{text} and finds {treasure} ({left} left)")
        text = _(found, text=text, treasure=printed(new[0]), left=left)
    return text
