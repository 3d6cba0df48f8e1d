"""The Connect 4 reader on real photos nobody here made (shared/data/connect4-photos: a
classic blue grid, orange and green chips, dim light, the room showing through empty
holes), read cold with the colours a user writes in referee.toml, as `referee read`
reads them: nothing learned, only what each photo offers."""
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.config import load
from vision.read_holes import PITCH, ROWS
from controller.registry import entry
from vision.watch import Watcher
from shared_data import SHARED_DATA

ROOT = Path(__file__).resolve().parents[2]
DATA = SHARED_DATA / "connect4-photos"
LABELS = json.loads((DATA / "labels.json").read_text())
SURE = 0.6  # the referee's default confidence
CONFIG = '[camera]\ncolours = ["#e86a2c", "#3a9a4a"]\n'  # orange first, green second
DIM = "z2pro_print2_1.2M_IMG_20171027_175559.jpg"  # chips brown and olive, the wall showing through


def expected(name: str) -> dict:
    sym = {".": "empty", "R": "p0", "G": "p1"}
    return {(c, ROWS - 1 - r): sym[ch] for r, line in enumerate(LABELS[name]["grid"]) for c, ch in enumerate(line)}


def corners(name: str) -> str:
    return " ".join(f"{x},{y}" for x, y in LABELS[name]["corners"])


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("c4") / "referee.toml"
    path.write_text(CONFIG)
    return path


def watcher(name: str, config: Path) -> Watcher:
    return entry("connect4").watcher(corners=corners(name), colours=load(config).camera.colours)


def test_the_labelled_photos_read_cold_at_least_995_percent_of_holes_right_and_sure(config):
    assert len(LABELS) == 7
    holes, bad = 0, {}
    for name in sorted(LABELS):
        view = watcher(name, config).read_frame(cv2.imread(str(DATA / name)))
        want = expected(name)
        holes += len(want)
        bad.update({(name, c): view.cells[c] for c in want
                    if view.cells[c][0] != want[c] or view.cells[c][1] < SURE})
    assert 1 - len(bad) / holes >= 0.995, bad


def test_referee_read_json_on_a_dim_real_photo_gives_the_grid(config):
    run = subprocess.run([sys.executable, "-m", "controller.cli", "read", str(DATA / DIM), "--game", "connect4",
                          "--corners", corners(DIM), "--config", str(config), "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    cells = {tuple(c["cell"]): (c["label"], c["confidence"]) for c in json.loads(run.stdout)["cells"]}
    want = expected(DIM)
    assert {c: cells[c] for c in want if cells[c][0] != want[c] or cells[c][1] < SURE} == {}


def test_glare_over_a_chip_under_a_stack_is_unsure_not_a_sure_empty(config):
    """A white blot over the bottom chip of the column of five: what shows there looks
    like the wall behind an empty hole, but four chips cannot hang over a hole, so the
    hole is reported unsure (the referee waits) rather than empty."""
    w = watcher(DIM, config)
    image = cv2.imread(str(DATA / DIM))
    plane_to_frame = np.linalg.inv(w.H)
    centre, right = cv2.perspectiveTransform(np.float32([[[3.5 * PITCH, (ROWS - 0.5) * PITCH],
                                                          [4.5 * PITCH, (ROWS - 0.5) * PITCH]]]), plane_to_frame)[0]
    cv2.circle(image, (int(centre[0]), int(centre[1])), int(0.4 * np.hypot(*(right - centre))), (250, 250, 250), -1)
    label, confidence = w.read_frame(image).cells[(3, 0)]
    assert label == "p1" or confidence < SURE, (label, confidence)


def test_learning_one_photo_then_reading_the_next_of_the_same_camera(config):
    """The robot's camera saw the same position twice, the room behind darker the second
    time: what is learned from the first (as the Table teaches it after a known
    position) still reads the second right."""
    first, second = "nao_blue_1.2M_image_a1.jpg", "nao_blue_1.2M_image_a2.jpg"
    teacher = watcher(first, config)
    teacher.learn(expected(first))
    teacher.read_frame(cv2.imread(str(DATA / first)))
    w = entry("connect4").watcher(corners=corners(second), reader=teacher.reader)
    view = w.read_frame(cv2.imread(str(DATA / second)))
    want = expected(second)
    assert {c: view.cells[c] for c in want if view.cells[c][0] != want[c] or view.cells[c][1] < SURE} == {}


def _duller(image):
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] *= 0.6
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


@pytest.mark.parametrize("camera, alter", [
    ("duller colours (60% saturation)", _duller),
    ("darker mid-tones (gamma 1.6)", lambda im: (255 * (im / 255.0) ** 1.6).astype(np.uint8)),
    ("brighter mid-tones (gamma 0.6)", lambda im: (255 * (im / 255.0) ** 0.6).astype(np.uint8)),
    ("half the exposure", lambda im: (im * 0.5).astype(np.uint8)),
])
def test_another_camera_s_rendering_of_the_same_photos_reads_as_well(config, camera, alter):
    """What another camera would make of the same scenes: the chips' look is found in
    each photo, not fixed, so at least 99.5% of the holes stay right and none is wrong
    surely (an unsure hole makes the referee wait; a sure wrong one would be an alarm)."""
    holes, wrong = 0, []
    for name in sorted(LABELS):
        view = watcher(name, config).read_frame(alter(cv2.imread(str(DATA / name))))
        want = expected(name)
        holes += len(want)
        wrong += [(name, c, view.cells[c]) for c in want if view.cells[c][0] != want[c]]
    assert 1 - len(wrong) / holes >= 0.995, (camera, wrong)
    assert [w for w in wrong if w[2][1] >= SURE] == [], camera


def test_dim_light_with_sensor_noise_at_60_px_a_hole_reads_without_a_sure_wrong_hole(config):
    """Issue 27's held-out conditions on these photos: holes of more than 60 px brought
    to 60, 60% of the light, sensor noise. At least 99.5% of the holes stay right and
    none is wrong surely (which would be a false alarm). (At half the light, in some
    noise draws, the empty grid before a beige wall reads as orange chips surely: a
    known limit, docs/following.md.)"""
    rng = np.random.default_rng(5)
    holes, wrong = 0, []
    for name in sorted(LABELS):
        image, points = cv2.imread(str(DATA / name)), np.float32(LABELS[name]["corners"])
        pitch = (np.linalg.norm(points[1] - points[0]) + np.linalg.norm(points[2] - points[3])) / 2 / 6
        if pitch > 60:
            image = cv2.resize(image, None, fx=60 / pitch, fy=60 / pitch, interpolation=cv2.INTER_AREA)
            points = points * (60 / pitch)
        image = np.clip(image * 0.6 + rng.normal(0, 2.5, image.shape), 0, 255).astype(np.uint8)
        w = entry("connect4").watcher(corners=" ".join(f"{x:.1f},{y:.1f}" for x, y in points),
                                      colours=load(config).camera.colours)
        view = w.read_frame(image)
        want = expected(name)
        holes += len(want)
        wrong += [(name, c, view.cells[c]) for c in want if view.cells[c][0] != want[c]]
    assert 1 - len(wrong) / holes >= 0.995, wrong
    assert [w for w in wrong if w[2][1] >= SURE] == []


def test_a_colour_cast_does_not_make_one_player_s_chips_of_the_wall(config):
    """A camera with a warm cast (red x1.2, blue x0.8) tints the grey room behind the
    empty holes towards the orange chips. The rules allow the two players' chips to differ
    by two at most (a chip a turn, a turn now and then on a blocker): no reading breaks
    that, and the holes it had to change are unsure, so the referee would wait."""
    holes = right = surely_wrong = 0
    for name in sorted(LABELS):
        image = np.clip(cv2.imread(str(DATA / name)) * np.float32([0.8, 1.0, 1.2]), 0, 255).astype(np.uint8)
        view = watcher(name, config).read_frame(image)
        labels = [label for label, _ in view.cells.values()]
        assert abs(labels.count("p0") - labels.count("p1")) <= 2, name
        want = expected(name)
        holes += len(want)
        right += sum(view.cells[c][0] == want[c] for c in want)
        surely_wrong += sum(view.cells[c][0] != want[c] and view.cells[c][1] >= SURE for c in want)
    assert right / holes >= 0.97  # 92.2% before the chip-count prior, 97.3% with it
    assert surely_wrong <= 2  # 12 before
