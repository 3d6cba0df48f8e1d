"""What the status page shows of a Labyrinth game (the snapshot web/static/draw/labyrinth.js
draws): the maze as rows of tile texts, each player's card, and the marks drawn on the
treasure tiles. Made from the state a viewer may see (`seen_by`): a player's own targets
appear only on their own page."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..words import marks, printed
from .maze import SIZE, STARTS, cell_text, tile_text
from .state import LabState

if TYPE_CHECKING:
    from .rules import Labyrinth


def snapshot(game: Labyrinth, state: LabState, viewer: int | None = None) -> dict:
    players = []
    for seat, colour in enumerate(state.colours):
        entry = {"colour": colour, "cell": cell_text(state.pawns[seat]),
                 "start": cell_text(STARTS[colour]), "found": list(state.found[seat]),
                 "cards": game.cards_of(state, seat)}
        if viewer == seat and state.targets is not None:
            entry["targets"] = list(game.wanted(state, seat))
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
        "seat_words": [game._.n("on {cell} \u00B7 found {found} of {n} treasure",
                                "on {cell} \u00B7 found {found} of {n} treasures", p["cards"],
                                cell=p["cell"], found=len(p["found"])) for p in players],
    }
