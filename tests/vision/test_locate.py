"""Finding the board: its own four ArUco markers, or four corners given by the user;
the printable marker sheet; `referee read` on one picture."""
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import locate, markers
from controller.demo_rig import render_connect4 as rc
from controller.registry import entry

ROOT = Path(__file__).resolve().parents[2]
POSITION = {**rc.empty_grid(), (3, 0): "p0", (3, 1): "p1", (4, 0): "p0", (0, 0): "p1", (6, 0): "p0"}


def hole_area_corners(shot):
    """Where the hole area's corners (BL, BR, TR, TL) are in the frame."""
    left, top = rc.BORDER, rc.BORDER
    right, bottom = left + rc.COLS * rc.PITCH, top + rc.ROWS * rc.PITCH
    return rc.to_frame(shot, [(left, bottom), (right, bottom), (right, top), (left, top)])


@pytest.mark.parametrize("seed", [1, 7])
def test_markers_give_the_corners_of_the_hole_area(seed):
    shot = rc.camera_shot((1280, 720), seed=seed)
    grey = cv2.cvtColor(rc.render(POSITION, shot=shot, rng=np.random.default_rng(seed)), cv2.COLOR_BGR2GRAY)
    found = locate.find_markers(grey, entry("connect4").markers)
    assert found is not None
    assert np.abs(found - hole_area_corners(shot)).max() < 2.0


def test_another_boards_markers_are_not_taken_for_this_one():
    grey = cv2.cvtColor(rc.render(POSITION), cv2.COLOR_BGR2GRAY)
    assert set(markers.detect(grey)) == set(entry("connect4").markers)
    assert locate.find_markers(grey, entry("chess").markers) is None


def test_given_corner_hole_centres_read_a_grid_without_markers():
    shot = rc.camera_shot((1280, 720), seed=3)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in rc.hole_centres_in_frame(shot))
    img = rc.render(POSITION, shot=shot, markers=False)
    assert locate.find_markers(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), entry("connect4").markers) is None
    view = entry("connect4").watcher(corners=corners).read_frame(img)
    assert {c: lab for c, (lab, _) in view.cells.items()} == POSITION


@pytest.mark.parametrize("text", ["1,2 3,4 5,6", "1,2 3,4 5,6 7", "a,b c,d e,f g,h", ""])
def test_bad_corners_say_what_is_expected(text):
    with pytest.raises(locate.CornersError, match="four points"):
        locate.parse_corners(text)


def test_corners_from_config_strings_or_pairs():
    assert locate.parse_corners(["10,200", "300,210", "290,20", "15,10"]).tolist() == [
        [10, 200], [300, 210], [290, 20], [15, 10]]
    assert locate.parse_corners([(10, 200), (300, 210), (290, 20), (15, 10)]).shape == (4, 2)


@pytest.mark.parametrize("points, words", [
    ([[1, 1], [1, 1], [1, 1], [1, 1]], "degenerate"),
    ([[0, 0], [100, 100], [200, 200], [300, 300]], "degenerate"),  # on one line
    ([[0, 0], [1e308, 0], [1e308, 1e308], [0, 1e308]], "out of the frame"),
    ([[0, 0], [-1e308, 0], [5, 5], [0, 9]], "out of the frame"),
    ([[0, 0], [float("nan"), 0], [5, 5], [0, 9]], "out of the frame"),
    ([[10, 400], [600, 400], [10, 10], [600, 10]], "not convex"),  # TR and TL swapped: a bow tie
    ([[10, 400], [600, 400], [600, 10], [1500, 10]], "out of the frame (1280x720)"),
])
def test_corners_that_make_no_board_are_refused_saying_why(points, words):
    """Issue 13: [[1,1]]*4 or +-1e308 were accepted, and the camera then raised false alarms."""
    with pytest.raises(locate.CornersError) as info:
        locate.parse_corners(points, frame_size=(1280, 720))
    assert words in str(info.value) and "corners" in str(info.value)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)


def test_marker_sheet_holds_the_boards_four_markers(tmp_path):
    out = tmp_path / "chess-markers.png"
    run = run_cli("markers", "--game", "chess", "--out", str(out))
    assert run.returncode == 0, run.stderr
    sheet = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert set(markers.detect(sheet)) == set(entry("chess").markers)
    bad = run_cli("markers", "--game", "chess", "--out", str(tmp_path / "no" / "such" / "dir.png"))
    assert bad.returncode == 2 and "dir.png" in bad.stderr
    world = tmp_path / "smb-world-3.png"
    assert run_cli("markers", "--game", "smb", "--world", "3", "--out", str(world)).returncode == 0
    assert set(markers.detect(cv2.imread(str(world), cv2.IMREAD_GRAYSCALE))) == {24, 25, 26, 27}
    nowhere = run_cli("markers", "--game", "smb", "--world", "9", "--out", str(world))
    assert nowhere.returncode == 2 and "no World 9" in nowhere.stderr


def test_referee_read_reports_every_hole_with_a_confidence(tmp_path):
    image = tmp_path / "grid.png"
    cv2.imwrite(str(image), rc.render(POSITION, shot=rc.camera_shot((1280, 720), seed=2)))
    run = run_cli("read", str(image), "--game", "connect4", "--json")
    assert run.returncode == 0, run.stderr
    cells = json.loads(run.stdout)["cells"]
    assert len(cells) == 42
    assert {tuple(c["cell"]): c["label"] for c in cells} == POSITION
    assert all(c["confidence"] >= 0.6 for c in cells)
    text = run_cli("read", str(image), "--game", "connect4")
    assert text.stdout.splitlines()[5] == "O . . X X . X"  # the bottom row, as the grid shows it


def test_referee_read_names_a_missing_image_and_a_picture_without_the_board(tmp_path):
    run = run_cli("read", str(tmp_path / "nothing.png"), "--game", "connect4")
    assert run.returncode == 2 and "nothing.png" in run.stderr
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((360, 640, 3), 128, np.uint8))
    run = run_cli("read", str(blank), "--game", "connect4")
    assert run.returncode == 2 and "blank.png" in run.stderr and "markers" in run.stderr
