"""What a board reader declares (vision/reader.py) and what the watcher makes of it:
each game's reader declares whether its cells are the plane's squares, whether it
measures change itself, and whether it still has to learn; the watcher measures exactly
what is declared (a reader that `measures_change` is asked for it, and its views carry
the change of the cell a piece came to); a grid reader is outlined by its grid alone."""
import random

import numpy as np
import pytest

from controller.registry import ENTRIES
from vision.change import looks_changed
from vision.reader import Reader
from vision.watch import Watcher

COLS, ROWS, SIDE = 4, 3, 40  # a small board of 4 x 3 cells, 40 pixels each


class Lamps(Reader):
    """A board of cells each lit (a piece, "p0") or dark ("empty"), that measures each
    cell's change itself as its mean difference in units of a piece coming or going."""

    plane_size = (COLS * SIDE, ROWS * SIDE)
    cells = [(c, r) for r in range(ROWS) for c in range(COLS)]
    labels = ("empty", "p0")
    grid = (COLS, ROWS)
    measures_change = True

    def __init__(self, measures: bool = True):
        self.measures_change = measures
        self.asked = 0  # how often `change` was asked
        self.learned = 0

    def _patch(self, plane, cell):
        c, r = cell
        return plane[r * SIDE:(r + 1) * SIDE, c * SIDE:(c + 1) * SIDE].astype(float)

    def read(self, plane):
        return {cell: ("p0" if self._patch(plane, cell).mean() > 100 else "empty", 0.9) for cell in self.cells}

    def learn(self, plane, expected):
        self.learned += 1

    @property
    def unlearned(self):
        return self.learned == 0

    def change(self, plane, reference):
        self.asked += 1
        return {cell: float(np.abs(self._patch(plane, cell) - self._patch(reference, cell)).mean() / 150.0)
                for cell in self.cells}

    def grid_place(self, cell):
        return cell


def frame(lit=(), seed: int = 0) -> np.ndarray:
    """The board seen straight from above, the cells in `lit` holding a piece, with a
    little sensor noise."""
    rng = np.random.default_rng(seed)
    out = np.full((ROWS * SIDE, COLS * SIDE, 3), 40.0) + rng.normal(0, 2.0, (ROWS * SIDE, COLS * SIDE, 3))
    for c, r in lit:
        out[r * SIDE + 6:(r + 1) * SIDE - 6, c * SIDE + 6:(c + 1) * SIDE - 6] = 200.0
    return np.clip(out, 0, 255).astype(np.uint8)


def watched(reader) -> Watcher:
    w, h = reader.plane_size
    return Watcher("lamps", reader, (0, 1, 2, 3), corners=f"0,{h} {w},{h} {w},0 0,0")


def test_a_reader_that_measures_change_is_asked_and_its_views_carry_it():
    reader = Lamps()
    watcher = watched(reader)
    start = {cell: "p0" if cell == (0, 0) else "empty" for cell in reader.cells}
    assert watcher.learning  # nothing learned yet: every sure view is learned from
    watcher.learn(start)
    watcher.read_frame(frame([(0, 0)]), t=0.0)
    assert not watcher.learning and reader.learned == 1
    view = watcher.read_frame(frame([(0, 0), (2, 1)], seed=1), t=1.0)
    assert reader.asked >= 1 and view.change_from == start
    score = {cell: looks_changed(view.sight_of(cell).change.known, start[cell]) for cell in reader.cells}
    assert max(score, key=score.get) == (2, 1) and score[(2, 1)] > 0
    assert all(x < 0 for cell, x in score.items() if cell != (2, 1)), score
    assert all(view.sight_of(cell).weight == 1.0 for cell in reader.cells)  # no squares: every cell seen whole


def test_a_reader_that_declares_neither_gives_labels_only():
    reader = Lamps(measures=False)
    watcher = watched(reader)
    watcher.learn({cell: "empty" for cell in reader.cells})
    watcher.read_frame(frame(), t=0.0)
    view = watcher.read_frame(frame([(1, 1)]), t=1.0)
    assert view.cells[(1, 1)].label == "p0"
    assert reader.asked == 0 and view.change_from is None
    assert all(view.sight_of(cell).change is None for cell in reader.cells)


def test_a_grid_reader_is_outlined_by_its_grid():
    """(column, row from the top) places a cell; its outline runs BL, BR, TR, TL in the
    plane, so what the camera saw there can be boxed on the frame."""
    reader = Lamps()
    assert reader.cell_outline((1, 2)).tolist() == [[40, 120], [80, 120], [80, 80], [40, 80]]

    class Pawned(Lamps):
        def grid_place(self, cell):
            return None if cell == "pawn" else cell

    assert Pawned().cell_outline("pawn").tolist() == [[0, 120], [160, 120], [160, 0], [0, 0]]


def test_a_reader_declares_nothing_it_does_not_measure():
    """The defaults: no squares, no change of its own, nothing left to learn, every cell
    seen whole, no looks to weigh."""
    class Plain(Reader):
        plane_size, cells = (10, 10), ["a"]

    plain = Plain()
    assert not plain.squares and not plain.measures_change and not plain.lines_move
    assert not plain.unlearned and plain.visible({"a": ("empty", 1.0)}) is None and plain.weigh(None) is None


@pytest.mark.parametrize("name", list(ENTRIES))
def test_each_reader_declares_what_vision_measures_of_it(name):
    """`squares`: 64 cells on the plane's 8x8 squares, each with its sampling disk;
    `measures_change`: the reader's own `change`; neither: labels (and looks) only. The
    watcher measures what is declared, and only that."""
    e = ENTRIES[name]
    game = e.rules_class()(None, None)
    state = game.start(game.new_setup(random.Random(1)))
    reader = e.make_reader(None, **game.reader_options(state))
    watcher = e.watcher(reader=reader, corners="0,100 100,100 100,0 0,0")
    assert not (reader.squares and reader.measures_change)
    if reader.squares:
        q = reader.plane_size[0] // 8
        assert len(reader.cells) == 64 and reader.plane_size == (8 * q, 8 * q) and reader.disks.shape == (8, 8, q, q)
    if reader.measures_change:
        assert type(reader).change is not Reader.change
    assert watcher.change.supported == (reader.squares or reader.measures_change)
    assert isinstance(reader.unlearned, bool)
