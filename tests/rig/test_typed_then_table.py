"""A move typed on the page (a doubt's candidate tapped, a move entered by the admin)
changes the position the referee knows without the camera: the camera must learn that
position only from a view the referee is sure shows it, never blindly from the next
still view, which may already show the players' next move (issue 28's resume probe:
chess resumed mid-move, the players tapped the move the camera could not tell, moved
on at once, and the camera learned the tapped position from a picture of the next one:
no move was seen again). On the demo's rendered table, the whole camera path."""
from __future__ import annotations

import pytest

from rendered_table import RenderedTable

GAMES = [("chess", 3), ("connect4", 2)]


def feed(table, frames) -> list:
    """`frames` (time from now, picture) through the whole camera path; the events."""
    events = []
    for dt, frame in frames:
        events += table.table.feed(table.t + dt, frame)
        table.last = frame
    table.t += dt + 0.1
    return events


@pytest.mark.parametrize("name, seed", GAMES)
def test_a_tapped_move_followed_at_once_by_the_next_is_learned_from_the_view_that_showed_it(name, seed):
    table = RenderedTable(name, seed)
    table.move_on_table()
    state, tapped = table.next_move()
    after = table.game.apply(state, tapped)
    n = len(table.referee.history)
    # the move is made on the table and the camera reads it, but records nothing (here:
    # the referee is not shown it; in the probe it could not tell which move it was)
    watcher, film = table.table.watcher, table.player.film
    for dt, frame in film([table.player.scene(state), table.player.scene(after)], table.player.hint(state, tapped),
                          still_s=1.5):
        watcher.feed(table.t + dt, frame)
        table.last = frame
    table.t += dt + 0.1
    assert watcher.last_view is not None and len(table.referee.history) == n
    table.type(table.game.notation(state, tapped))  # the players tap it on the page
    _, reply = table.next_move()
    # and the next player's hand is over the board by the camera's next frame (the
    # film's first three frames: the hand reaching in from the table's edge)
    reach = list(film([table.player.scene(after), table.player.scene(table.game.apply(after, reply))],
                      table.player.hint(after, reply), still_s=1.5))[3:]
    events = feed(table, reach) + table.still(2.0)
    assert table.referee.history[n + 1:] + table.referee.unsure == [table.game.notation(after, reply)], \
        table.referee.snapshot()["alarm"]
    assert all(e.kind != "illegal" for e in events)
    table.move_on_table()  # the camera goes on
    assert table.referee.history[n + 1] == table.game.notation(after, reply)


@pytest.mark.parametrize("name, seed", GAMES)
def test_a_typed_move_the_players_then_make_on_the_table_is_followed(name, seed):
    """Typed first, made on the table after a still moment: the still views of the board
    before it are not learned as the typed position, and play goes on from the camera."""
    table = RenderedTable(name, seed)
    table.move_on_table()
    state, typed = table.next_move()
    table.type(table.game.notation(state, typed))
    events = table.still(2.0)
    after = table.game.apply(state, typed)
    events += table.film([table.player.scene(state), table.player.scene(after)], table.player.hint(state, typed))
    events += table.still(2.0)
    table.move_on_table()
    assert all(e.kind != "illegal" for e in events + table.events)
