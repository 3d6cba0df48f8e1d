"""Chess through the camera path, as the rig's chess tests run it: python-chess positions
rendered (controller/demo_rig/render_chess.py) and fed frame by frame to a fresh referee's
Table (Watcher -> Referee)."""
import chess

from controller.config import CameraSettings, GameSettings
from controller.demo_rig.render_chess import Camera, Position, corners_in_frame, render_game
from controller.events import Bus, Enter, NewGame, Settle
from controller.journal import Journal
from controller.referee import Referee
from controller.table import Table
from shared_data import SHARED_DATA

PGN = f"{SHARED_DATA}/pgn/"  # real games, as PGN


def position(board: chess.Board) -> Position:
    return Position.from_placement({chess.square_name(sq): p.symbol() for sq, p in board.piece_map().items()})


def positions_of(sans) -> tuple[list[Position], list[str]]:
    board = chess.Board()
    out, played = [position(board)], []
    for san in sans:
        played.append(board.san(board.parse_san(san)))
        board.push_san(san)
        out.append(position(board))
    return out, played


def table_at(camera: Camera, clicked: bool, setup=None) -> tuple[Referee, Table, list]:
    """A fresh referee's Table for chess under `camera` (its corners clicked, or found by
    the markers), the game started; (referee, table, events so far)."""
    referee = Referee(Journal(":memory:"), Bus())
    corners = " ".join(f"{x},{y}" for x, y in corners_in_frame(camera)) if clicked else ""
    table = Table(referee, GameSettings(name="chess"), CameraSettings(corners=corners))
    result, events = table.run(NewGame(game="chess", setup=setup))
    assert result.ok, result.error
    return referee, table, events


def watch(positions, style="mario", quick=(), seed=5, camera_seed=3, entries=None, clicked=False, setup=None,
          still_s=0.5, camera=None, tall=1.0):
    """Run the frames of `positions` through the Table (Watcher -> Referee, learning from
    every position it is sure of, the live camera's clock) of a fresh referee; returns
    the referee and every event. `entries` {position index: text} are typed on the page
    once the page shows that many plies (a promotion choice). `clicked`: the
    Watcher is given the board's corners (a1, h1, h8, a8) instead of finding markers.
    `setup`: the game's setup ({"fen": ...} to start from a position). `still_s`: how
    long each position stays still after the hand leaves. `camera`: where the camera
    stands (by default one at an angle, its seed `camera_seed`); `tall` scales the pieces'
    height."""
    camera = camera or Camera(seed=camera_seed)
    referee, table, events = table_at(camera, clicked, setup)
    entries = dict(entries or {})
    for t, frame in render_game(positions, style=style, camera=camera, seed=seed, quick=quick, still_s=still_s,
                                tall=tall):
        events += table.feed(t, frame)
        ply = len(referee.history) + len(referee.unsure)  # what the page shows, unsure plies too
        if ply in entries:
            events += table.run(Enter(text=entries.pop(ply)))[1]
    events += table.run(Settle())[1]  # the recording ends: the history shown stands, as replay has it
    return referee, events


def assert_in_time(moves) -> None:
    """Each ply recorded within half a second of the hand leaving where one view is
    decisive, else from the next still view (a lead a second look confirms): the median
    within 0.5 s, none later than 2.5 s."""
    delays = sorted(e.data["decided_after_s"] for e in moves if e.data.get("decided_after_s") is not None)
    assert delays[len(delays) // 2] <= 0.5 and delays[-1] <= 2.5, delays


def kinds_of(events, kind):
    return [e for e in events if e.kind == kind]
