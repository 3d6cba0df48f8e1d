"""The Watcher's gate: no view while an arm moves or rests over the grid, a view once
the grid has been still for still_s; black, frozen and marker-less feeds are reported in
its status and never crash it; a bumped camera is found again."""
import numpy as np

from controller.demo_rig import render_connect4 as rc
from controller.registry import entry

SIZE = (640, 360)
FPS = 30.0
ONE_CHIP = {**rc.empty_grid(), (3, 0): "p0"}


class Feed:
    def __init__(self, seed=1, shot=None):
        self.shot = shot or rc.camera_shot(SIZE, seed=seed)
        self.rng = np.random.default_rng(seed)
        self.watcher = entry("connect4").watcher(still_s=0.25)
        self.t = 0.0
        self.log = []  # (t, view or None, status)

    def frame(self, labels, arm_tip=None):
        return rc.render(labels, shot=self.shot, arm_tip=arm_tip, rng=self.rng)

    def show(self, img):
        view = self.watcher.feed(self.t, img)
        self.log.append((self.t, view, self.watcher.status))
        self.t += 1 / FPS
        return view

    def hold(self, labels, seconds):
        return [v for _ in range(int(seconds * FPS)) if (v := self.show(self.frame(labels)))]

    def start(self):
        self.watcher.learn(rc.empty_grid())
        views = self.hold(rc.empty_grid(), 0.5)
        assert len(views) == 1 and all(lab == "empty" for lab, _ in views[0].cells.values())


def column_top(shot, col):
    x, y = rc.hole_centre(col, 5)
    return rc.to_frame(shot, [(x, y - 0.9 * rc.PITCH)])[0]


def test_no_view_while_the_arm_is_over_the_grid_and_one_after_it_left():
    feed = Feed()
    feed.start()
    top = column_top(feed.shot, 3)
    grid_top = rc.to_frame(feed.shot, [rc.hole_centre(3, 5)])[0][1] - 0.5 * rc.PITCH
    far = np.array([top[0], -60.0])
    reach = [far + (top - far) * (k + 1) / 12 for k in range(12)]
    rest = [top] * 30  # resting on the grid for a second while the chip goes in
    leave = [top + (far - top) * (k + 1) / 12 for k in range(12)]
    for k, tip in enumerate(reach + rest):
        labels = ONE_CHIP if k >= 20 else rc.empty_grid()
        assert feed.show(feed.frame(labels, arm_tip=tip)) is None
    assert {status for _, _, status in feed.log[-25:]} == {"hand over the board"}
    over = [tip for tip in leave if tip[1] + 45 > grid_top]  # the hand still covers holes
    for i, tip in enumerate(leave):
        view = feed.show(feed.frame(ONE_CHIP, arm_tip=tip))
        # a view only once the hand has been off the holes for still_s (8 frames)
        assert view is None or all(tp[1] + 45 <= grid_top for tp in leave[max(0, i - 7):i + 1])
    views = [v for _, v, _ in feed.log[-len(leave):] if v] + feed.hold(ONE_CHIP, 1.0)
    assert len(views) == 1 and over
    assert views[0].cells[(3, 0)][0] == "p0" and views[0].cells[(3, 0)][1] >= 0.6
    assert 0.25 <= views[0].t - views[0].moved_at <= 0.35


def test_black_frames_are_reported_and_the_watcher_goes_on():
    feed = Feed(seed=2)
    feed.start()
    black = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    assert all(feed.show(black) is None for _ in range(10))
    assert feed.watcher.status == "too dark"
    views = feed.hold(ONE_CHIP, 0.6)
    assert feed.watcher.status == "ok"
    assert len(views) == 1 and views[0].cells[(3, 0)][0] == "p0"


def test_frozen_feed_is_reported_without_crashing():
    feed = Feed(seed=3)
    feed.start()
    same = feed.frame(ONE_CHIP)
    views = [v for _ in range(int(1.5 * FPS)) if (v := feed.show(same))]
    assert feed.watcher.status == "frozen"
    assert len(views) == 1 and views[0].cells[(3, 0)][0] == "p0"  # read once, not again and again


def test_no_markers_in_view_is_the_status():
    feed = Feed(seed=4)
    blank = np.full((SIZE[1], SIZE[0], 3), 120, np.uint8) + np.random.default_rng(0).integers(0, 9, (SIZE[1], SIZE[0], 3), dtype=np.uint8)
    assert feed.show(blank) is None
    assert feed.watcher.status == "no markers in view"


def test_a_bumped_camera_finds_the_board_again():
    feed = Feed(seed=5)
    feed.start()
    feed.hold(ONE_CHIP, 0.6)
    feed.shot = rc.camera_shot(SIZE, seed=6)  # the camera was knocked
    two = {**ONE_CHIP, (3, 1): "p1"}
    views = feed.hold(two, 1.0)
    assert len(views) == 1
    assert {c: lab for c, (lab, p) in views[0].cells.items() if p >= 0.6} == two
