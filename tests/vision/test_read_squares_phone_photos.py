"""The square reader on real phone photos it has never seen start (shared/data/chess-photos:
59 photos of one vinyl set with Staunton pieces, many angles), read cold through the
Watcher from the labelled corners; and what the reader offers the decision code: looks,
how well each square is seen, and learning that blends positions without forgetting."""
import json

import numpy as np
import pytest

from camera_slips import clicked_off
from shared_data import SHARED_DATA
from support import chess_labels
from vision.read_squares import CELLS, SquareReader
from controller.demo_rig.render_chess import Camera, corners_in_frame, render
from controller.registry import entry
import cv2

DATA = f"{SHARED_DATA}/chess-photos/"
LABELS = json.load(open(DATA + "labels.json"))
# labels whose corners disagree with their own FEN (README, chess section): in IMG_4706 the
# corner labelled a1 is a8 (the four are turned by one), in IMG_4703_2 they do not lie on
# the board's corners at all
MISLABELLED = ("IMG_4703_2.jpg", "IMG_4706.jpg")
FLOOR = 0.994  # measured 99.56 % (3632 of 3648) of the 57 others' squares, less 5 squares; the goal is 99 %


@pytest.fixture(scope="module")
def reads():
    out = {}
    for name, label in sorted(LABELS.items()):
        corners = " ".join(f"{x},{y}" for x, y in label["corners_a1_h1_h8_a8"])
        watcher = entry("chess").watcher(corners=corners)
        view = watcher.read_frame(cv2.imread(DATA + name))
        out[name] = (view, chess_labels(label["fen"] + " w - - 0 1"), watcher)
    return out


def dim_at_60_px(image, corners, rng):
    """The photo as a cheaper camera in a dimmer room gives it: scaled so a square is
    about 60 px across, 45% of the light, sensor noise; the corners moved with it."""
    corners = np.float32(corners)
    side = np.mean([np.linalg.norm(corners[i] - corners[(i + 1) % 4]) for i in range(4)]) / 8
    scale = 60.0 / side
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return np.clip(small * 0.45 + rng.normal(0, 2.5, small.shape), 0, 255).astype(np.uint8), corners * scale


@pytest.mark.parametrize("off", [0.0, 0.2])
def test_the_photos_read_cold_in_dim_light_at_60_px_a_square(off):
    """Issue 27's held-out games were filmed in dim light with squares about 60 px: the
    same photos made so (squares of 64 to 80 px brought to 60, 45% of the light, sensor
    noise) still read cold at least 99% of squares right (measured 99.5%, as taken:
    99.6%); also with each corner clicked a fifth of a square off, the fit to the board's
    lines finding them in the dim (99.6%; 91.9% before it)."""
    rng, clicking = np.random.default_rng(5), np.random.default_rng(6)
    right = 0
    for name, label in sorted(LABELS.items()):
        if name in MISLABELLED:
            continue
        image, corners = dim_at_60_px(cv2.imread(DATA + name), label["corners_a1_h1_h8_a8"], rng)
        corners = clicked_off(corners, off, clicking)
        view = entry("chess").watcher(corners=" ".join(f"{x:.1f},{y:.1f}" for x, y in corners)).read_frame(image)
        want = chess_labels(label["fen"] + " w - - 0 1")
        right += sum(view.cells[sq][0] == want[sq] for sq in want)
    assert right / (57 * 64) >= 0.99


def test_the_photos_read_cold_square_by_square(reads):
    assert len(reads) == 59
    right = sum(view.cells[sq][0] == want[sq] for name, (view, want, _) in reads.items()
                if name not in MISLABELLED for sq in want)
    assert right / (57 * 64) >= FLOOR


def test_either_half_of_the_photos_reads_within_a_point_of_the_whole(reads):
    """The cold read was tuned on these photos: the odd-numbered half (the first, third,
    ... in name order) and the even-numbered half, each measured alone, read within one
    point of all the rightly labelled ones, so no half carries the figure."""
    def share(names):
        names = [n for n in names if n not in MISLABELLED]
        right = sum(reads[n][0].cells[sq][0] == reads[n][1][sq] for n in names for sq in reads[n][1])
        return right / (64 * len(names))
    names = sorted(reads)
    whole = share(names)
    assert abs(share(names[0::2]) - whole) <= 0.01 and abs(share(names[1::2]) - whole) <= 0.01


def test_a_logo_printed_on_a_square_is_not_a_piece(reads):
    """This set prints a small checkered logo on h1 in the dark squares' green: in every
    photo where h1 is empty it reads empty (print is thin strokes, a piece a solid body)."""
    empty = [name for name, (_, want, _) in reads.items() if name not in MISLABELLED and want["h1"] == "empty"]
    assert len(empty) >= 20
    assert {name: reads[name][0].cells["h1"] for name in empty if reads[name][0].cells["h1"][0] != "empty"} == {}


def test_unsure_squares_are_the_doubtful_ones(reads):
    """Confidence means something: a square read surely (>= 0.6) is right far more often
    than one read unsurely."""
    sure, unsure = [], []
    for name, (view, want, _) in reads.items():
        if name not in MISLABELLED:
            for sq in want:
                (sure if view.cells[sq][1] >= 0.6 else unsure).append(view.cells[sq][0] == want[sq])
    assert np.mean(sure) >= 0.985 and np.mean(unsure) < 0.9


def test_a_square_behind_a_standing_piece_weighs_less(reads):
    """visible() says how well each square is seen: behind a piece (one rank further
    from the camera, which stands on White's side here) less."""
    behind, free = [], []
    for name, (view, want, watcher) in reads.items():
        if name in MISLABELLED:
            continue
        weight = watcher.reader.visible(view.cells)
        assert len(weight) == 64
        for i, sq in enumerate(CELLS):
            front = f"{sq[0]}{int(sq[1]) - 1}"
            if sq[1] != "1":
                (behind if want[front] != "empty" else free).append(weight[i])
    assert np.mean(behind) < np.mean(free) and min(behind) < 0.5


def test_learning_blends_positions_and_forgets_no_look():
    """Learned from a position with only the first player's pieces, then from one with only
    the second player's, the reader knows both sides' looks and reads a mixed position."""
    cam = Camera()
    corners = " ".join(f"{x},{y}" for x, y in corners_in_frame(cam))
    empty = {sq: "empty" for sq in CELLS}
    first = dict(empty, **{f"{f}{r}": "p0" for f in "abcdefgh" for r in (1, 2)})
    second = dict(empty, **{f"{f}{r}": "p1" for f in "abcdefgh" for r in (7, 8)})
    mixed = dict(empty, a1="p0", c3="p0", e4="p0", h2="p0", d5="p1", f6="p1", b7="p1", g8="p1")
    watcher = entry("chess").watcher(corners=corners)
    rng = np.random.default_rng(11)
    for position in (first, second):
        watcher.learn(position)
        watcher.read_frame(render(position, camera=cam, rng=rng))
    view = watcher.read_frame(render(mixed, camera=cam, rng=rng))
    assert {sq: view.cells[sq] for sq in mixed if view.cells[sq][0] != mixed[sq]} == {}
    assert watcher.reader.stats["n"].min() > 0


def test_print_is_told_from_pieces_by_stroke_width_on_any_two_colours():
    """A drawn board (no photo): a mark of thin strokes in the dark squares' colour on a
    light square reads empty, while solid bodies read as pieces: a dark disk as the second
    player's, a shaded light disk as the first player's; in two square colourings."""
    q = 32
    for light, dark in (((190, 215, 225), (70, 110, 40)), ((200, 220, 235), (60, 90, 150))):
        plane = np.zeros((8 * q, 8 * q, 3), np.uint8)
        for r in range(8):
            for c in range(8):
                plane[r * q:(r + 1) * q, c * q:(c + 1) * q] = light if (r + c) % 2 == 0 else dark
        # h1 (row 7, column 7) is light: a lattice of one-pixel lines, like a printed logo
        for k in range(6, 27, 4):
            cv2.line(plane, (7 * q + 6, 7 * q + k), (7 * q + 26, 7 * q + k), dark, 1)
            cv2.line(plane, (7 * q + k, 7 * q + 6), (7 * q + k, 7 * q + 26), dark, 1)
        cv2.circle(plane, (2 * q + q // 2, 2 * q + q // 2), 10, (25, 25, 25), -1)  # c6, light: a dark piece
        cv2.circle(plane, (4 * q + q // 2, 4 * q + q // 2), 11, (150, 160, 165), -1)  # e4, light: a light piece
        cv2.circle(plane, (4 * q + q // 2, 4 * q + q // 2), 8, (235, 240, 245), -1)
        cv2.circle(plane, (4 * q + q // 2, 4 * q + q // 2), 3, (120, 125, 130), -1)
        cells = SquareReader().read(cv2.GaussianBlur(plane, (0, 0), 0.8))  # a lens's blur
        assert cells["h1"][0] == "empty" and cells["c6"][0] == "p1" and cells["e4"][0] == "p0"
        assert [sq for sq in CELLS if sq not in ("c6", "e4") and cells[sq][0] != "empty"] == []
