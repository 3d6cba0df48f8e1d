"""The Connect 4 reader on rendered positions from a published solver's test set
(shared/data/connect4/Test_L2_R1), under different camera shots, light levels and chip
colour sets, and with a chip-green sweater showing through empty holes.

The watcher learns the empty grid first, as at game start, and then sees each position
built up move by move, as in a game."""

import numpy as np
import pytest

from controller.games.connect4 import Connect4
from controller.demo_rig import render_connect4 as rc
from vision.change import looks_changed
from controller.registry import entry
from shared_data import SHARED_DATA

DATA = SHARED_DATA / "connect4" / "Test_L2_R1"
SIZE = (960, 540)


def solver_lines(start: int, count: int) -> list[str]:
    lines = [ln.split()[0] for ln in DATA.read_text().splitlines() if ln.strip()]
    return lines[start:start + count]


def positions(moves, variant="classic") -> list[dict]:
    return rc.positions_of(Connect4(variant), list(moves))


class Table:
    """A grid in front of a camera, watched from game start; `show` puts a position on
    it and returns the view the watcher reads once it is still."""

    def __init__(self, seed: int, colours=None, light: float = 1.0, behind=None):
        self.shot = rc.camera_shot(SIZE, seed=seed)
        self.colours, self.light, self.behind = colours, light, behind
        self.rng = np.random.default_rng(seed)
        self.watcher = entry("connect4").watcher(colours=list(colours) if colours else None)
        self.t = 0.0
        self.watcher.learn(rc.empty_grid())
        assert self.show(rc.empty_grid()) is not None

    def show(self, labels: dict, *, light=None, behind=None, noise=3.0):
        view = None
        for _ in range(2):  # the change, then the same scene once still
            frame = rc.render(labels, shot=self.shot, colours=self.colours, rng=self.rng,
                              light=light or self.light, behind=behind if behind is not None else self.behind,
                              noise=noise)
            view = self.watcher.feed(self.t, frame) or view
            self.t += 0.3
        return view

    def play(self, moves: str, lights=(1.0,)):
        """Show every position of the move list, the last one with sensor noise."""
        seq = positions(moves)
        for pos in seq[1:-1]:
            self.show(pos, noise=0.0)
        view = self.show(seq[-1], light=self.light * lights[len(seq) % len(lights)])
        return seq[-1], view


def wrong_holes(view, expected: dict) -> list:
    return [(c, expected[c], view.cells[c]) for c in expected
            if view.cells[c][0] != expected[c] or view.cells[c][1] < 0.6]


@pytest.mark.parametrize("seed,colours,light,line", [
    (1, rc.DEFAULT_COLOURS, 0.8, 0),  # Mario red and green, dim
    (2, rc.CLASSIC_COLOURS, 1.1, 1),  # classic red and yellow, bright
    (3, rc.ORANGE_COLOURS, 0.9, 2),  # orange against green
    (4, rc.CLASSIC_COLOURS, 0.75, 3),
])
def test_every_hole_right_under_shots_light_and_colour_sets(seed, colours, light, line):
    moves = solver_lines(line, 1)[0]
    table = Table(seed, colours, light)
    expected, view = table.play(moves, lights=(0.8, 1.0, 1.15))
    assert view is not None
    assert wrong_holes(view, expected) == [], moves


def test_light_changing_during_the_game_keeps_the_reading():
    table = Table(5)
    seq = positions(solver_lines(6, 1)[0][:12])
    for k, pos in enumerate(seq[1:], 1):
        view = table.show(pos, light=(0.7, 1.0, 1.2)[k % 3])
        assert view is not None and wrong_holes(view, pos) == [], k


def test_blockers_are_read_as_blockers():
    table = Table(7)
    seq = positions(["4", "b3/2", "b5/4", "3", "5"], variant="blocker")
    for pos in seq[1:]:
        view = table.show(pos)
        assert wrong_holes(view, pos) == []
    assert sum(label == "blocker" for label, _ in view.cells.values()) == 2


def test_green_sweater_behind_empty_holes_is_not_read_as_chips():
    table = Table(9)
    moves = solver_lines(10, 1)[0][:6]
    expected, view = table.play(moves)
    assert wrong_holes(view, expected) == []
    jumper = rc.sweater(rc.DEFAULT_COLOURS[1])
    view = table.show(expected, behind=jumper)
    sure_chips_in_empty = [c for c, (label, p) in view.cells.items()
                           if expected[c] == "empty" and label != "empty" and p >= 0.6]
    assert sure_chips_in_empty == []
    # the chips really on the grid are still read surely
    assert all(view.cells[c][0] == lab and view.cells[c][1] >= 0.6
               for c, lab in expected.items() if lab != "empty")


def test_a_wall_of_chip_colour_there_from_the_start_reads_as_empty():
    """What an empty hole looked like at game start is what empty means for it."""
    green_wall = rc.sweater("#2f8a4a", centre=(0.5, 0.5), radius=(0.8, 0.8))  # a green wall
    table = Table(11, behind=green_wall)
    expected, view = table.play(solver_lines(12, 1)[0][:8])
    assert wrong_holes(view, expected) == []


def test_learning_after_every_accepted_position_keeps_earlier_looks():
    """The Table teaches the watcher each accepted position: learning is blended in and
    never forgets the empty look of a hole a chip now covers, whatever the light did."""
    table = Table(13)
    seq = positions(solver_lines(14, 1)[0][:6])
    for k, pos in enumerate(seq[1:], 1):
        light = (0.8, 1.0, 1.15)[k % 3]
        view = table.show(pos, light=light)
        assert view is not None and wrong_holes(view, pos) == [], k
        table.watcher.learn(pos)
        table.show(pos, light=light)  # the still view the lesson is taken from
    view = table.show(rc.empty_grid(), light=1.2)  # the grid emptied for a new game
    assert view is not None and wrong_holes(view, rc.empty_grid()) == []


def test_the_hole_a_move_filled_is_the_one_that_changed_against_the_last_view():
    """Between two accepted views a chip lands in one hole; the change in each hole and
    around it, with the light divided out, singles that hole out (a chip makes well over
    the unit of `Reader.change`, the others stay far below it) even when the light
    changed meanwhile; the watcher's view carries it as evidence for the referee."""
    moves = solver_lines(16, 1)[0][:7]
    seq = positions(moves)
    table = Table(17)
    for pos in seq[1:-1]:
        table.show(pos, noise=0.0)
    table.watcher.learn(seq[-2])  # the position the referee accepted: change is measured from it
    table.show(seq[-2], noise=0.0)
    before = table.watcher.last_plane
    view = table.show(seq[-1], light=0.85)
    change = table.watcher.reader.change(table.watcher.last_plane, before)
    (hole,) = [c for c in seq[-1] if seq[-1][c] != seq[-2][c]]
    assert change[hole] > 3.0 and max(v for c, v in change.items() if c != hole) < 0.5
    assert view.change_from == seq[-2]
    # the view's evidence: that hole looks changed, every other as it was
    changed = [c for c, sight in view.sight.items() if looks_changed(sight.change.known, seq[-2][c]) > 0]
    assert changed == [hole]
