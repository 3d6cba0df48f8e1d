"""What vision hands the referee (vision/view.py): a frozen BoardView, typed per view and
per cell (what readers declare of themselves: tests/vision/test_reader.py)."""
import dataclasses

import chess
import pytest

from controller.demo_rig.render_chess import Camera, Position, corners_in_frame, render
from controller.registry import entry
from vision.change import looks_changed
from vision.view import BoardView, CellSight, Change, Front, Read

CAMERA = Camera(seed=3)


def position(board: chess.Board) -> Position:
    return Position.from_placement({chess.square_name(sq): p.symbol() for sq, p in board.piece_map().items()})


def test_a_view_is_typed_and_frozen():
    """Plain (label, confidence) pairs are reads; a cell without a sight is seen whole
    with nothing more measured; the cells a hand covers or moves over are gathered."""
    view = BoardView({"a1": ("p0", 0.9), "a2": ("empty", 0.4)}, t=2.0, moved_at=1.7, motions=1,
                     sight={"a2": CellSight(covered=True), "a3": CellSight(moving=True)})
    assert view.cells["a1"] == Read("p0", 0.9) and view.cells["a1"].label == "p0"
    assert view.cells["a2"].confidence == 0.4
    assert view.sight_of("a1") == CellSight() and view.sight_of("a1").change is None
    assert view.covered == {"a2"} and view.moving == {"a3"} and view.motions == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.motions = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.sight["a2"].covered = False


def test_a_chess_view_carries_each_squares_change_and_what_stands_in_front():
    """The watcher's view of 1. e4, change measured from the start it learned: e2 and e4
    look changed, every other square as it was; each square carries its looks, how well
    it is seen and the square in front of it (towards the camera), all typed."""
    board = chess.Board()
    start = position(board)
    board.push_san("e4")
    after = position(board)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners_in_frame(CAMERA))
    watcher = entry("chess").watcher(corners=corners)
    watcher.learn(start.labels)
    watcher.read_frame(render(start.labels, kinds=start.kinds, camera=CAMERA))
    view = watcher.read_frame(render(after.labels, kinds=after.kinds, camera=CAMERA), t=1.0)
    assert view.change_from == start.labels
    changed = {c for c, sight in view.sight.items() if looks_changed(sight.change.known, start.labels[c]) > 0}
    assert changed == {"e2", "e4"}
    assert all(isinstance(s.change, Change) and s.looks and 0.0 < s.weight <= 1.0 for s in view.sight.values())
    fronts = [s.front for s in view.sight.values() if s.front is not None]
    assert fronts and all(isinstance(f, Front) and f.cell in view.cells and 0.0 < f.share < 1.0 for f in fronts)
    assert view.covered == set() and view.moving == set() and view.motions is None  # read_frame counts none
