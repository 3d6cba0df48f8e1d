"""What the camera sees of a Labyrinth table, and words for a view the rules cannot
explain. The labels match vision/read_tiles.py: each cell (row, col) as
``tile:<open sides>``, the spare tile as ``spare:I``/``spare:L``/``spare:T`` (its
orientation beside the board means nothing), and each pawn as the key ``pawn:<colour>``
with the name of its cell as label, so pawns sharing a cell are read and matched
independently.

Ending a turn changes nothing the camera sees: the next player's push is how it learns
the turn ended, so that push is among what it looks for while the pawn may still move.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from ..base import IllegalAction
from ..words import either, joined
from .actions import MovePawn, Push, Stay
from .maze import (ARROWS, COLOURS, SIZE, TILE_SET, Tile, cell_index, cell_text, parse_tile, push_tiles, reachable,
                   rotate, sides_text, tile_kind)
from .state import LabState
from .words import PAWN_WORDS, cell_name, label_words, who

if TYPE_CHECKING:
    from .rules import Labyrinth

# board()'s keys and texts, made once: the referee builds a board for every push and move
# it weighs (hundreds a view), and fresh small objects by the thousand left Python's
# allocator holding more memory game after game (bench/soak.py)
_CELLS = tuple(divmod(i, SIZE) for i in range(SIZE * SIZE))
_TILE_TEXT = tuple("tile:" + sides_text(sides) for sides in range(16))
_SPARE_TEXT = tuple("spare:" + tile_kind(sides) for sides in range(16))


def board(state: LabState) -> dict:
    """Each cell's label as the camera should read it in `state`."""
    cells = {cell: _TILE_TEXT[t.sides] for cell, t in zip(_CELLS, state.tiles)}
    cells["spare"] = _SPARE_TEXT[state.spare.sides]
    for colour, p in zip(state.colours, state.pawns):
        cells["pawn:" + colour] = cell_text(p)
    return cells


def printed_board(players: int) -> dict:
    """What the camera sees before the maze is known: the 16 tiles printed on the
    board and each pawn on its start corner, for a reader to learn colours from."""
    cells = {divmod(cell_index(k), SIZE): "tile:" + sides_text(parse_tile(v, k).sides)
             for k, v in TILE_SET["fixed"].items()}
    for colour in COLOURS[:players]:
        cells["pawn:" + colour] = TILE_SET["starts"][colour]
    return cells


def observable_actions(game: Labyrinth, state: LabState, changed: set | None = None) -> list:
    """Pushes and pawn moves change what the camera sees; ending the turn does not,
    so while the pawn may still move the next player's pushes are listed instead:
    seeing one is how the camera learns that the turn ended. A find and leaving the
    maze are entered on the page."""
    if state.outcome:
        return []
    if state.phase == "push":
        return pushes_seen(state, changed)
    here = state.pawns[state.turn]
    return ([MovePawn(c) for c in sorted(reachable(state.tiles, here) - {here})]
            + pushes_seen(game.end_turn(state), changed))


def pushes_seen(state: LabState, changed: set | None) -> list:
    """The pushes that could explain the changed cells. A push changes only its own
    line, so when every changed tile lies on one line only that line's arrows are
    tried: the referee's two-deep search then does not try every pair of pushes
    (which no view shows: the still board between two players' pushes is seen)."""
    pushes = Push.every(state)
    if changed is None:
        return pushes
    tiles = {c[0] * SIZE + c[1] for c in changed if isinstance(c, tuple)}
    if not tiles:
        return []
    lines = {a for a, line in ARROWS.items() if tiles <= set(line)}
    return [p for p in pushes if p.arrow in lines] if lines else pushes


def explain(game: Labyrinth, state: LabState, seen: Mapping) -> IllegalAction:
    """Put a view no legal action explains into words: first the maze (which push
    the tiles show), then the pawns."""
    _ = game._
    now = board(state)
    tiles_changed = [c for c in now if isinstance(c, tuple) and seen.get(c, now[c]) != now[c]]
    ejected: tuple[str, ...] = ()
    if tiles_changed:
        if state.phase == "move" and state.outcome is None:
            state = game.apply(state, Stay())  # a push now is the next player's
        push = push_seen(state, seen)
        if push is None:
            return IllegalAction(_("the maze changed in a way no push explains: {cells}",
                                   cells=", ".join(cell_name(_, c) for c in tiles_changed)), tiles_changed)
        try:
            game.check(state, push)
        except IllegalAction as exc:
            return IllegalAction(exc.reason, tiles_changed)
        out_cell = ARROWS[push.arrow][-1]
        ejected = tuple(c for c, p in zip(state.colours, state.pawns) if p == out_cell)
        state = game.apply(state, push)
        now = board(state)
    moved = [k for k in now if isinstance(k, str) and k.startswith("pawn:") and seen.get(k, now[k]) != now[k]]
    if not moved:
        bad = [k for k in now if seen.get(k, now[k]) != now[k]]
        return IllegalAction(_("the board does not match: {cells}", cells=joined(
            _("{cell} is {seen}, not {was}", cell=cell_name(_, k), seen=label_words(_, seen[k]),
              was=label_words(_, now[k])) for k in bad)), bad)
    mover = who(_, state, state.turn)
    colour = moved[0][5:]
    seat = state.colours.index(colour)
    target = cell_index(seen[moved[0]]) if isinstance(seen[moved[0]], str) else None
    if state.outcome:
        return IllegalAction(_("the game is over: {reason}", reason=state.outcome.reason), moved)
    pawn = _(PAWN_WORDS[colour])
    if colour in ejected:
        return IllegalAction(_("{pawn} was pushed off the board: it goes onto the tile just pushed in, "
                               "at {cell}", pawn=pawn, cell=cell_text(state.pawns[seat])), moved)
    if seat != state.turn:
        return IllegalAction(_("it is {who}'s turn: {pawn} may not move now", who=mover, pawn=pawn), moved)
    if state.phase == "push":
        return IllegalAction(_("{who} must first change the maze: push the spare tile in at "
                               "one of the 12 arrows, then move the pawn", who=mover), moved)
    if target is None:
        return IllegalAction(_("{pawn} left the board", pawn=pawn), moved)
    return IllegalAction(_("{who} cannot reach {to} from {frm}: the path there is not connected", who=mover,
                           to=cell_text(target), frm=cell_text(state.pawns[seat])), moved)


def push_seen(state: LabState, seen: Mapping) -> Push | None:
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


def fix(_, state: LabState, seen: Mapping) -> str:
    """Each pawn back on its square, each tile as it lay ('put the red pawn back on b3');
    a maze pushed wrongly is put back as a whole."""
    want = board(state)
    wrong = [k for k, label in want.items() if seen.get(k, label) != label]
    tiles = [k for k in wrong if isinstance(k, tuple)]
    steps = [_("put {pawn} back on {cell}", pawn=_(PAWN_WORDS[k[5:]]), cell=want[k])
             for k in wrong if str(k).startswith("pawn:")]
    if len(tiles) > 2:
        steps.append(_("put the maze back as it was (the tiles on {cells} differ)",
                       cells=either((cell_name(_, k) for k in tiles), _("and"))))
    else:
        steps += [_("turn the tile on {cell} back to {tile}", cell=cell_name(_, k),
                    tile=label_words(_, want[k])) for k in tiles]
    if "spare" in wrong:
        steps.append(_("the spare tile is {tile}", tile=label_words(_, want['spare'])))
    return joined(steps, _) or _("put the board back as it was")
