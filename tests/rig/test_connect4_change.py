"""Connect 4 through the whole camera path (the Table: Watcher -> Referee, learning after
every accepted move) where the hole's label alone misleads: the change of each hole
against the last accepted view (vision/read_holes.py `HoleReader.change`, carried by the
Watcher's views as for chess) weighs in. A glare on the chip just dropped makes its hole
read empty, yet it is the hole that changed: the drop is the likeliest, shown unsure and
recorded once the glare goes. Two holes that change alike (two fingertips resting on the
grid, one over the new chip) are a doubt offering both drops, said once the board has
stood still a few seconds, never an alarm, and the clear view that follows decides."""
import cv2
import numpy as np

from controller.events import NewGame, View
from controller.config import CameraSettings, GameSettings
from controller.demo_rig import render_connect4 as rc
from controller.events import Bus
from controller.games.connect4 import Connect4
from controller.journal import Journal
from controller.referee import Referee
from controller.table import Table
from vision.change import looks_changed

SIZE = (640, 360)
SKIN = (110, 140, 190)  # BGR


class Rig:
    """A rendered grid in front of the camera, refereed from a new classic game."""

    def __init__(self, seed: int):
        self.shot = rc.camera_shot(SIZE, seed=seed)
        self.rng = np.random.default_rng(seed)
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in rc.hole_centres_in_frame(self.shot))
        self.referee = Referee(Journal(":memory:"), Bus())
        self.table = Table(self.referee, GameSettings(name="connect4"), CameraSettings(corners=corners))
        result, self.events = self.table.run(NewGame(game="connect4", variant="classic"))
        assert result.ok, result.error
        self.views, self.t = [], 0.0
        see = self.table.see

        def seen(t, frame):  # what the watcher handed the referee
            step = see(t, frame)
            if isinstance(step, View):
                self.views.append(step.view)
            return step

        self.table.see = seen

    def centre(self, hole) -> tuple[float, float]:
        return tuple(rc.to_frame(self.shot, [rc.hole_centre(*hole)])[0])

    def show(self, labels: dict, over=lambda frame: frame, frames: int = 5) -> list:
        """The grid holding `labels`, still for `frames` frames 0.3 s apart (`over` draws
        on each frame); the events it caused."""
        events = []
        for _ in range(frames):
            frame = over(rc.render(labels, shot=self.shot, rng=self.rng))
            events += self.table.feed(self.t, frame)
            self.t += 0.3
        self.events += events
        return events

    def glare(self, hole, strength: float = 170.0, radius: float = 10.0):
        """A lamp's reflection on one hole (a Gaussian spot, frame pixels)."""
        x, y = self.centre(hole)
        ys, xs = np.mgrid[0:SIZE[1], 0:SIZE[0]]
        spot = strength * np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * radius ** 2))
        return lambda frame: np.clip(frame + spot[..., None], 0, 255).astype(np.uint8)

    def fingertips(self, holes):
        """Fingertips resting on the grid, one over each hole."""
        c = rc.hole_centres_in_frame(self.shot)
        r = int(0.3 * float(np.linalg.norm(c[1] - c[0])) / 6)

        def draw(frame):
            out = frame.copy()
            for hole in holes:
                x, y = self.centre(hole)
                cv2.circle(out, (int(round(x)), int(round(y))), r, SKIN, -1, cv2.LINE_AA)
            return out
        return draw


def kinds(events) -> list:
    return [(e.kind, e.data.get("notation")) for e in events if e.kind in ("move", "illegal", "doubt", "doubt_cleared")]


def test_a_chip_under_glare_that_reads_empty_is_shown_unsure_and_settled_when_the_glare_goes():
    """The glare makes the new chip's hole read empty, yet it is the hole that changed:
    the drop is shown as the likeliest, unsure, with no alarm and no doubt, and recorded
    as soon as a clearer view comes."""
    rig = Rig(21)
    seq = rc.positions_of(Connect4("classic"), ["4", "4", "3"])
    for pos in seq[:3]:
        rig.show(pos)
    assert rig.referee.history == ["4", "4"]
    events = rig.show(seq[3], over=rig.glare((2, 0)))
    view = rig.views[-1]
    label, conf = view.cells[(2, 0)]
    assert label != "p0" or conf < 0.6  # the labels alone: no chip there
    held = view.sight[(2, 0)].change.known
    assert looks_changed(held, "empty") > 3.0  # its change: clearly something came
    snapshot = rig.referee.snapshot()
    assert snapshot["moves"] == ["4", "4", "3"] and snapshot["unsure"] == 1
    assert kinds(events) == [] and rig.referee.history == ["4", "4"]
    events = rig.show(seq[3])  # the glare is gone
    assert kinds(events) == [("move", "3")] and rig.referee.history == ["4", "4", "3"]
    assert [e for e in rig.events if e.kind in ("illegal", "doubt")] == []


def test_two_holes_that_change_alike_are_a_doubt_not_an_alarm_and_a_clear_view_decides():
    rig = Rig(23)
    seq = rc.positions_of(Connect4("classic"), ["4", "4", "3"])
    for pos in seq[:3]:
        rig.show(pos)
    # the chip went into (2, 0); fingertips rest on it and on (4, 0) for a few seconds
    events = rig.show(seq[3], over=rig.fingertips([(2, 0), (4, 0)]), frames=14)
    doubts = [e for e in events if e.kind == "doubt"]
    assert len(doubts) == 1 and {c["notation"] for c in doubts[0].data["candidates"]} == {"3", "5"}
    assert {"column 3, row 1", "column 5, row 1"} <= set(doubts[0].data["cells"])
    assert rig.referee.history == ["4", "4"] and rig.referee.doubt == doubts[0].data
    events = rig.show(seq[3])  # the hand is gone
    assert kinds(events) == [("move", "3"), ("doubt_cleared", None)] and rig.referee.doubt is None
    assert [e for e in rig.events if e.kind == "illegal"] == []
