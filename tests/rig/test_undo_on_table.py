"""An undo while the move is still on the table (issue 28 #6): the referee asks, in the
game's words, for the board to be put back, records nothing and learns nothing from the
views that still show the move, and follows the camera again once the board is put back:
the next move made on the table is recorded from the camera. Each game the camera
follows, through the whole camera path (the Table: Watcher -> Referee) on the demo's
rendered table (controller/demo_rig), with its seeded players."""
from __future__ import annotations

import pytest

from controller.events import Undo
from rendered_table import RenderedTable


# the games the camera follows; each seed lets its first moves show on the rendered table
GAMES = [("connect4", 2), ("chess", 3), ("smb", 4), ("monopoly", 5), ("labyrinth", 3)]


@pytest.mark.parametrize("name, seed", GAMES)
def test_an_undo_asks_for_the_move_to_be_taken_off_the_table_and_play_goes_on(name, seed):
    table = RenderedTable(name, seed)
    table.move_on_table()
    before, action = table.move_on_table()
    moved = table.player.scene(table.game.apply(before, action))
    n = len(table.referee.history)

    result, events = table.table.run(Undo())
    assert result.ok
    undo = events[0]
    assert undo.kind == "undo" and undo.data["put_back"]  # in the game's words
    asked = table.referee.snapshot()["doubt"]["text"]
    assert undo.data["put_back"] in asked and table.game.notation(before, action) in asked
    # the move still stands on the table: nothing is recorded, nothing alarms
    later = table.still(3.0)
    assert len(table.referee.history) == n - 1
    assert [e.kind for e in later if e.kind in ("move", "illegal", "doubt")] == []
    assert table.referee.snapshot()["doubt"]["text"] == asked

    # put back: the request is over, and the camera follows the next move
    back = table.film([moved, table.player.scene(before)])
    assert "doubt_cleared" in [e.kind for e in back]
    assert table.referee.snapshot()["doubt"] is None and table.referee.alarm is None
    table.move_on_table()
    assert all(e.kind != "illegal" for e in table.events)
