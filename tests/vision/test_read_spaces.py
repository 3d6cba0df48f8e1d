"""The Super Mario Bros. board under the camera: rendered World boards, photographed in
perspective, read space by space and handed to the referee, which accepts the right
space and words a wrong one."""
import random

import cv2
import numpy as np
import pytest

from controller.journal import Journal
from controller.referee import Referee
from controller.games.smb.board import world_data
from vision.read_spaces import SmbSpaceReader, SpaceReader
from controller.demo_rig.render_track import TrackSpace, render_smb_world, render_track
from controller.demo_rig.synth import photograph, tilted
from vision.view import BoardView

SCALE = 0.5  # reader plane pixels per board mm; the board is rendered at 1 px per mm


def camera(plane, light=1.0, seed=0, arm_tip=None):
    """The plane as a tilted camera sees it, warped back to the reader's plane (as the
    watcher does with the board's markers or given corners)."""
    shot = tilted(seed=seed)
    frame = photograph(plane, shot, light=light, rng=np.random.default_rng(seed), arm_tip=arm_tip)
    h, w = plane.shape[:2]
    back = np.diag([SCALE, SCALE, 1.0]) @ np.linalg.inv(shot.homography(plane.shape))
    return cv2.warpPerspective(frame, back, (round(w * SCALE), round(h * SCALE)))


class Table:
    """A referee, the World boards and one reader per World, as on a real table."""

    def __init__(self, players=3, hands=None):
        self.referee = Referee(Journal(":memory:"))
        setup = None
        if hands:
            from support import deck_with
            setup = {"players": players, "deck": deck_with(hands, players=players), "seed": 1}
        self.referee.new_game("smb", settings={"players": players}, setup=setup, rng=random.Random(1))
        self.readers = {}
        self.seed = 0

    @property
    def world(self):
        return self.referee.state.world

    def labels(self, world, changes=()):
        board = self.referee.game.board(self.referee.state)
        ids = [s["id"] for s in world_data(world)["spaces"]]
        labels = {i: board[i] for i in ids}
        for cell, label in changes:
            if label == "mario":
                labels = {c: ("empty" if l == "mario" else l) for c, l in labels.items()}
            labels[cell] = label
        return labels

    def learn(self, world, changes=()):
        reader = self.readers[world] = SmbSpaceReader(world_data(world), scale=SCALE)
        labels = self.labels(world, changes)
        reader.learn(camera(render_smb_world(world_data(world), labels), seed=99), labels)

    def look(self, changes=(), world=None, light=1.0):
        """Render the table with `changes` made by hand, read it, give it to the referee."""
        world = world or self.world
        self.seed += 1
        plane = camera(render_smb_world(world_data(world), self.labels(world, changes)), light, self.seed)
        return self.referee.observe(BoardView(self.readers[world].read(plane), t=2.0, moved_at=1.5))

    def enter(self, *texts):
        for text in texts:
            event = self.referee.enter(text)
            assert event.kind == "move", event.data


@pytest.fixture
def table():
    t = Table()
    t.learn(1)
    return t


def test_a_wrong_colour_is_flagged_in_words_and_the_right_space_accepted(table):
    table.enter("roll yellow")
    event = table.look([("w1-01", "mario")])
    assert event.kind == "illegal" and event.data["source"] == "camera"
    assert event.data["reason"] == "a yellow roll goes to the next yellow space: space 2, not space 1 (that space is red)"
    assert table.look([("w1-01", "mario")]) is None  # the same wrong board is not repeated
    event = table.look([("w1-02", "mario")], light=0.8)
    assert event.kind == "move" and event.data["notation"] == "move w1-02"


def test_the_pipe_top_not_the_ground(table):
    table.enter("roll red", "move w1-01", "roll yellow", "move w1-02", "roll red", "move w1-03",
                "roll yellow", "move w1-06", "roll yellow", "move w1-10", "roll yellow", "move w1-11",
                "roll yellow")
    event = table.look([("w1-13", "mario")])
    assert event.data["reason"].startswith("a yellow roll goes to the next yellow space: space 12 on the pipe top")
    assert "not space 13 (that space is red)" in event.data["reason"]
    assert table.look([("w1-12", "mario")]).data["notation"] == "move w1-12"


def test_moving_before_the_roll_is_flagged(table):
    event = table.look([("w1-01", "mario")])
    assert "roll the die first" in event.data["reason"]


def test_a_choice_is_made_by_putting_mario_on_one_of_the_spaces(table):
    table.enter("roll red", "move w1-01", "roll yellow", "move w1-02", "roll red", "move w1-03", "roll red")
    assert table.referee.game.prompt(table.referee.state).kind == "choice"
    assert table.look([("w1-05", "mario")]).data["notation"] == "move w1-05"


def test_hazard_tokens_placed_checked_passed_over_and_returned():
    t = Table(hands=[[], ["goomba", "koopa", "piranha"], ["goomba"]])
    t.learn(1)
    t.enter("roll red", "move w1-01", "card 2 goomba")
    event = t.look([("w1-33", "hazard")])
    assert event.kind == "illegal" and event.data["reason"] == "a hazard token cannot go on a link space or a start space"
    assert t.look([("w1-02", "hazard")]).data["notation"] == "token w1-02"
    event = t.look([("w1-04", "hazard")])
    assert "play its card on the page first" in event.data["reason"]
    # Mario jumps the token on w1-02 with a red roll to w1-03: the token must go back
    t.enter("roll red")
    event = t.look([("w1-03", "mario")])
    assert event.data["reason"] == "Mario passed over the hazard token on space 2: return it to the pile"
    assert t.look([("w1-03", "mario"), ("w1-02", "empty")]).data["notation"] == "move w1-03"


def walk_to(table, space):
    """Enter rolls and moves that take Mario along World 1 to `space` (ids follow the path)."""
    game = table.referee.game
    while table.referee.state.mario != space:
        state = table.referee.state
        options = {face: [t for t in game.apply(state, game.parse(state, f"roll {face}")).targets if t <= space]
                   for face in ("red", "yellow")}
        face = max(options, key=lambda f: max(options[f], default=""))
        table.enter(f"roll {face}", f"move {max(options[face])}")


def test_a_link_space_and_the_next_world_board():
    t = Table()
    t.learn(1)
    walk_to(t, "w1-32")
    t.enter("roll yellow")
    assert t.look([("w1-34", "mario")]).data["notation"] == "move w1-34"
    t.learn(2, [("w2-00", "mario")])  # the World 2 board goes under the camera
    event = t.look([("w2-00", "mario")], world=2)
    assert event.data["notation"] == "move w2-00" and t.referee.state.world == 2
    assert t.referee.state.turn == 0  # the same turn goes on
    t.enter("roll red")
    assert "not space 1" in t.look([("w2-01", "mario")], world=2).data["reason"]


def test_reader_reads_every_space_of_every_world_under_light_and_noise():
    for world in (1, 2, 3, 4):
        data = world_data(world)
        ids = [s["id"] for s in data["spaces"]]
        reader = SmbSpaceReader(world_data(world), scale=SCALE)
        start = {i: "empty" for i in ids}
        start[ids[0]] = "mario"
        reader.learn(camera(render_smb_world(data, start), seed=50), start)
        rng = np.random.default_rng(world)
        for trial, light in enumerate((0.75, 1.0, 1.2)):
            labels = {i: "empty" for i in ids}
            picks = rng.choice(ids[1:], 4, replace=False)
            labels[picks[0]] = "mario"
            for p in picks[1:]:
                labels[p] = "hazard"
            seen = reader.read(camera(render_smb_world(data, labels), light, seed=trial))
            wrong = {c: seen[c] for c in ids if seen[c][0] != labels[c] or seen[c][1] < 0.6}
            assert not wrong, (world, light, wrong)


def test_an_arm_over_the_board_makes_spaces_unsure_not_wrong(table):
    """A hand over spaces (if the watcher ever let one through) reads as unsure or as
    'hazard', never as Mario somewhere else."""
    data = world_data(1)
    labels = table.labels(1)
    plane = camera(render_smb_world(data, labels), seed=3, arm_tip=(640, 380))
    seen = table.readers[1].read(plane)
    assert [c for c, (lab, p) in seen.items() if lab == "mario" and p >= 0.6] == ["w1-00"]


def test_space_reader_is_generic_for_other_tracks():
    """Forty spaces round a square, four player tokens learned from where they stand."""
    pts = {}
    for i in range(40):
        side, k = divmod(i, 10)
        x, y = [(380 - 36 * k, 380), (20, 380 - 36 * k), (20 + 36 * k, 20), (380, 20 + 36 * k)][side]
        pts[i] = (x, y)
    colours = [(200, 200, 200) if i % 5 else (80, 180, 80) for i in range(40)]
    spaces = [TrackSpace(i, pts[i], colours[i]) for i in range(40)]
    reader = SpaceReader(pts, (400, 400), 14, pieces=("p0", "p1", "p2", "p3"))
    start = {i: "empty" for i in range(40)}
    start.update({5: "p0", 12: "p1", 25: "p2", 33: "p3"})
    reader.learn(render_track((400, 400), spaces, 14, start), start)
    moved = {i: "empty" for i in range(40)}
    moved.update({0: "p0", 10: "p2", 21: "p1", 39: "p3"})
    seen = reader.read(render_track((400, 400), spaces, 14, moved))
    assert {c: lab for c, (lab, p) in seen.items() if lab != "empty" and p >= 0.6} == {0: "p0", 10: "p2", 21: "p1", 39: "p3"}
    with pytest.raises(ValueError, match="plane is 300x300"):
        reader.read(np.zeros((300, 300, 3), np.uint8))


def test_overlay_draws_each_traced_space_on_the_picture():
    from controller.demo_rig.render_track import overlay_spaces
    data = world_data(1)
    plane = render_smb_world(data, {}, scale=SCALE, radius=16 * SCALE)
    reader = SmbSpaceReader(world_data(1), scale=SCALE)
    points = dict(zip(reader.cells, [(s["at"][0] * SCALE, s["at"][1] * SCALE) for s in data["spaces"]]))
    out = overlay_spaces(plane, points, reader.radius, {"w1-05": ("hazard", 0.9)})
    x, y = points["w1-05"]
    ring = out[int(y), int(x + reader.radius)]  # on the circle drawn round w1-05
    assert tuple(ring) == (0, 0, 255) and out.shape == plane.shape
    assert (out[5:10, 5:10] == plane[5:10, 5:10]).all()  # far from any space: untouched


def test_through_the_watcher_with_the_world_markers():
    """The whole camera path: a frame with World 1's markers, the watcher's warp, the
    reader, the referee."""
    from controller.demo_rig.render_track import render_smb_frame
    from controller.demo_rig.synth import tilted
    from controller.registry import entry
    t = Table()
    data = world_data(1)
    shot = tilted(margin=0.06, seed=4)
    watcher = entry("smb").watcher(reader=SmbSpaceReader(world_data(1)))
    watcher.learn(t.labels(1))
    assert t.referee.observe(watcher.read_frame(render_smb_frame(data, t.labels(1), shot=shot, seed=1))) is None
    t.enter("roll red")
    frame = render_smb_frame(data, t.labels(1, [("w1-02", "mario")]), shot=shot, seed=2, light=0.85)
    event = t.referee.observe(watcher.read_frame(frame))
    assert event.data["reason"] == "a red roll goes to the next red space: space 1, not space 2 (that space is yellow)"
    frame = render_smb_frame(data, t.labels(1, [("w1-01", "mario")]), shot=shot, seed=3)
    assert t.referee.observe(watcher.read_frame(frame)).data["notation"] == "move w1-01"



def test_the_watcher_looks_for_the_markers_of_the_world_in_play():
    """A link space swaps the boards: the game names the World (reader_options), and the
    watcher built for it reads that World's spaces and looks for its own markers."""
    import random

    from controller.games.smb.rules import SuperMarioBros
    from controller.registry import entry

    game = SuperMarioBros()
    state = game.start(game.new_setup(random.Random(1)))
    assert game.reader_options(state) == {"world": world_data(1)}
    for world in (1, 2, 3, 4):
        watcher = entry("smb").watcher(options={"world": world_data(world)})
        assert watcher.marker_ids == tuple(world_data(world)["markers"])
        assert set(watcher.reader.cells) == {s["id"] for s in world_data(world)["spaces"]}
    assert len({entry("smb").watcher(options={"world": world_data(w)}).marker_ids for w in (1, 2, 3, 4)}) == 4
