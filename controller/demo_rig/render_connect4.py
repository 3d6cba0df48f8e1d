"""A Connect 4 grid as a camera sees it: the demo's table and the tests' material.

`render` draws one position: a blue frame with 42 holes, chips, blue oval blockers with a
sticker, and the four ArUco markers of the Connect 4 board stuck diagonally off the
corners of the hole area (vision/markers.py says where), seen from the front at an angle
through controller/demo_rig/synth.photograph. `render_game` turns a list of positions into a timed
sequence of frames in which an arm reaches in and really covers the grid while a chip
goes in, the chip falls through the holes, and the light changes from move to move.

Labels are {(col, row): "empty" | "p0" | "p1" | "blocker"}, col 0..6 from the left,
row 0..5 from the bottom. A renderer is a tool, not the judge: readers are also checked
against what cannot be drawn here.
"""
from __future__ import annotations

from typing import Iterator, Sequence

import cv2
import numpy as np

from . import synth

COLS, ROWS = 7, 6
PITCH = 40  # plane pixels between hole centres
BORDER = 92  # frame plastic around the hole area, wide enough for the markers
MARKER_PX = 60
HOLE_R = 0.39 * PITCH
PLANE_W, PLANE_H = COLS * PITCH + 2 * BORDER, ROWS * PITCH + 2 * BORDER
FRAME_BLUE = (165, 80, 22)  # BGR
BLOCKER_BLUE = (205, 125, 45)
WALL = (168, 178, 186)
DEFAULT_COLOURS = ("#d22328", "#1e9e3c")  # Mario red, Luigi green
CLASSIC_COLOURS = ("#d41e1e", "#f2cf1d")  # red and yellow
ORANGE_COLOURS = ("#f07a1a", "#1e9e3c")


def bgr(colour) -> tuple[int, int, int]:
    """'#rrggbb' or a BGR triple -> a BGR triple."""
    if isinstance(colour, str):
        c = colour.lstrip("#")
        return int(c[4:6], 16), int(c[2:4], 16), int(c[0:2], 16)
    return tuple(int(v) for v in colour)


def hole_centre(col: int, row: int) -> tuple[float, float]:
    """Plane pixel of a hole's centre."""
    return BORDER + (col + 0.5) * PITCH, BORDER + (ROWS - row - 0.5) * PITCH


def wall() -> np.ndarray:
    """What shows through empty holes by default: a plain wall with a soft gradient."""
    img = np.empty((PLANE_H, PLANE_W, 3), np.float32)
    img[:] = WALL
    img *= np.linspace(0.9, 1.05, PLANE_W, dtype=np.float32)[None, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def sweater(colour="#1e9e3c", centre=(0.55, 0.35), radius=(0.28, 0.3)) -> np.ndarray:
    """A wall with a knitted sweater of `colour` behind part of the grid (plane
    fractions), so that several empty holes show the colour of a chip."""
    img = wall()
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.ellipse(mask, (int(centre[0] * PLANE_W), int(centre[1] * PLANE_H)),
                (int(radius[0] * PLANE_W), int(radius[1] * PLANE_H)), 0, 0, 360, 255, -1)
    knit = np.empty(img.shape, np.float32)
    knit[:] = bgr(colour)
    rows = np.arange(PLANE_H, dtype=np.float32)[:, None, None]
    knit *= 0.9 + 0.1 * np.sin(rows * 1.3)  # ribbing
    img[mask > 0] = np.clip(knit, 0, 255).astype(np.uint8)[mask > 0]
    return img


def _template() -> tuple[np.ndarray, np.ndarray]:
    """The empty frame with its markers, and the mask of the holes."""
    plane = np.empty((PLANE_H, PLANE_W, 3), np.uint8)
    plane[:] = FRAME_BLUE
    holes = np.zeros((PLANE_H, PLANE_W), np.uint8)
    for c in range(COLS):
        for r in range(ROWS):
            x, y = hole_centre(c, r)
            cv2.circle(holes, (int(round(x * 16)), int(round(y * 16))), int(HOLE_R * 16), 255, -1,
                       cv2.LINE_AA, shift=4)
    # each marker's inner corner at a corner of the hole area
    synth.place_markers(plane, "connect4", (BORDER, BORDER, BORDER + COLS * PITCH, BORDER + ROWS * PITCH),
                        MARKER_PX, quiet=9)
    return plane, holes


_TEMPLATE = _template()


def _draw_piece(plane: np.ndarray, col: int, row: int, label: str, colours, sticker: int) -> None:
    x, y = hole_centre(col, row)
    cx, cy = int(round(x)), int(round(y))
    if label in ("p0", "p1"):
        base = np.array(bgr(colours[int(label[1])]), float)
        cv2.circle(plane, (cx, cy), int(HOLE_R) - 1, tuple(base), -1, cv2.LINE_AA)
        # the moulded rings of a real chip: a slightly darker groove, a lighter rim
        cv2.circle(plane, (cx, cy), int(0.26 * PITCH), tuple(base * 0.85), 2, cv2.LINE_AA)
        cv2.circle(plane, (cx, cy), int(HOLE_R) - 2, tuple(np.minimum(base * 1.1, 255)), 1, cv2.LINE_AA)
    elif label == "blocker":
        cv2.ellipse(plane, (cx, cy), (int(0.36 * PITCH), int(0.32 * PITCH)), 0, 0, 360,
                    BLOCKER_BLUE, -1, cv2.LINE_AA)
        # the Yoshi (green spot) or Toad (red spot) sticker on white
        cv2.circle(plane, (cx, cy), int(0.13 * PITCH), (240, 240, 240), -1, cv2.LINE_AA)
        spot = (40, 170, 40) if sticker == 0 else (40, 40, 200)
        cv2.circle(plane, (cx, cy), int(0.06 * PITCH), spot, -1, cv2.LINE_AA)


def draw_plane(labels: dict, colours=None, behind: np.ndarray | None = None) -> np.ndarray:
    """The grid drawn flat, seen straight from the front, in plane pixels."""
    colours = colours or DEFAULT_COLOURS
    template, holes = _TEMPLATE
    plane = template.copy()
    back = behind if behind is not None else _WALL
    np.copyto(plane, back, where=(holes > 0)[:, :, None])
    blockers = 0
    for (c, r), label in sorted(labels.items()):
        if label != "empty":
            _draw_piece(plane, c, r, label, colours, blockers)
            blockers += label == "blocker"
    return plane


_WALL = wall()


def camera_shot(size=(1280, 720), seed: int | None = None, tilt: float = 0.07, fill: float = 0.86) -> synth.Shot:
    """The camera in front of the grid, a little above it, so the grid's top edge looks
    narrower; `seed` moves and turns it a little."""
    w, h = size
    rng = np.random.default_rng(seed)
    ph = h * fill
    pw = ph * PLANE_W / PLANE_H
    cx, cy = w / 2, h / 2
    dx = rng.uniform(-0.06, 0.06) * w if seed is not None else 0.0
    dy = rng.uniform(-0.02, 0.02) * h if seed is not None else 0.0
    turn = rng.uniform(-0.05, 0.05) if seed is not None else 0.0
    narrow = pw * tilt
    pts = np.array([(-pw / 2 + narrow, -ph / 2), (pw / 2 - narrow, -ph / 2),
                    (pw / 2, ph / 2), (-pw / 2, ph / 2)])
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    pts = pts @ rot.T + (cx + dx, cy + dy)
    return synth.Shot(tuple(map(tuple, pts)), size)


def to_frame(s: synth.Shot, points) -> np.ndarray:
    """Plane pixels -> frame pixels under a shot."""
    H = s.homography((PLANE_H, PLANE_W))
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), H).reshape(-1, 2)


def hole_centres_in_frame(s: synth.Shot) -> np.ndarray:
    """The centres of the corner holes, bottom-left, bottom-right, top-right, top-left:
    what a user gives as --corners for this shot."""
    return to_frame(s, [hole_centre(0, 0), hole_centre(6, 0), hole_centre(6, 5), hole_centre(0, 5)])


def render(labels: dict, *, shot: synth.Shot | None = None, arm_tip=None, light: float = 1.0,
           colours=None, rng: np.random.Generator | None = None, markers: bool = True,
           behind: np.ndarray | None = None, noise: float = 3.0) -> np.ndarray:
    """One camera frame of the grid holding `labels`; `arm_tip` (frame pixels) puts an
    arm reaching down from the top of the frame; `behind` is what shows through empty
    holes (plane-sized BGR, default a wall)."""
    plane = draw_plane(labels, colours, behind)
    if not markers:
        plane = _without_markers(plane)
    s = shot or camera_shot()
    return synth.photograph(plane, s, light=light, noise=noise, arm_tip=arm_tip, arm_from="top",
                            rng=rng or np.random.default_rng(0))


def _without_markers(plane: np.ndarray) -> np.ndarray:
    out = plane.copy()
    inside = np.zeros(out.shape[:2], bool)
    inside[BORDER - 10:BORDER + ROWS * PITCH + 10, BORDER - 10:BORDER + COLS * PITCH + 10] = True
    out[~inside] = FRAME_BLUE
    return out


def positions_of(game, moves) -> list[dict]:
    """What the camera sees at the start and after each move (notation) of a game. The
    caller brings the rules (any object with the Game protocol's start, parse, play and
    board): vision knows none."""
    state = game.start()
    out = [game.board(state)]
    for text in moves:
        state = game.play(state, game.parse(state, text))
        out.append(game.board(state))
    return out


def empty_grid() -> dict:
    return {(c, r): "empty" for c in range(COLS) for r in range(ROWS)}


def _fall(labels: dict) -> dict | None:
    """One step of gravity: every chip over an empty hole drops a row; None when
    nothing moves."""
    out, moved = dict(labels), False
    for c in range(COLS):
        for r in range(1, ROWS):
            if out[(c, r)] in ("p0", "p1") and out[(c, r - 1)] == "empty":
                out[(c, r - 1)], out[(c, r)] = out[(c, r)], "empty"
                moved = True
    return out if moved else None


def _steps(prev: dict, nxt: dict) -> tuple[list[dict], tuple[int, int]]:
    """The positions the camera sees between two positions (a chip falling, a column
    settling), and the hole the hand goes to."""
    changed = [c for c in nxt if nxt[c] != prev.get(c)]
    if not changed:
        return [nxt], (3, ROWS - 1)
    added = [c for c in changed if prev.get(c) == "empty"]
    removed_blockers = [c for c in changed if prev.get(c) == "blocker"]
    if removed_blockers:
        target = removed_blockers[0]
        start = {k: ("empty" if k in removed_blockers else v) for k, v in prev.items()}
        # a top-row chip dropped in the same view lands first
        start.update({k: nxt[k] for k in added if k[1] == ROWS - 1})
    elif len(added) == 1 and nxt[added[0]] in ("p0", "p1"):
        col = added[0][0]
        target = (col, ROWS)  # above the column's slot
        start = dict(prev)
        start[(col, ROWS - 1)] = nxt[added[0]]
        if prev[(col, ROWS - 1)] != "empty":
            return [nxt], target
    else:
        return [nxt], max(changed, key=lambda k: k[1])
    seq = [start]
    while (step := _fall(seq[-1])) is not None:
        seq.append(step)
    return (seq, target) if seq[-1] == nxt else ([nxt], target)


def render_game(positions: Sequence[dict], *, fps: float = 30.0, size=(1280, 720), seed: int = 0,
                colours=None, still_s: float = 0.8, lead_s: float = 1.2,
                lights: Sequence[float] | None = None, behind=None,
                shot: synth.Shot | None = None) -> Iterator[tuple[float, np.ndarray]]:
    """Frames of a whole game: `positions[0]` held still for `lead_s`, then for each
    next position an arm reaching in (from the top, over the column or the hole that
    changes), the change (a chip falling hole by hole), the arm leaving, and the grid
    still for `still_s`. The light changes from move to move (`lights`, or a seeded
    drift). Each frame gets its own sensor noise."""
    rng = np.random.default_rng(seed)
    s = shot or camera_shot(size, seed)
    w, h = size
    bank = rng.normal(0.0, 3.0, (h + 32, w + 32, 3)).astype(np.int16)
    cache: dict = {}

    def base(labels: dict, light: float) -> np.ndarray:
        key = (tuple(sorted(labels.items())), round(light, 3))
        if key not in cache:
            if len(cache) > 64:
                cache.clear()
            cache[key] = render(labels, shot=s, light=light, colours=colours, noise=0.0,
                                behind=behind)
        return cache[key]

    frame_no = 0

    def emit(img: np.ndarray):
        nonlocal frame_no
        dy, dx = rng.integers(0, 32, 2)
        noisy = img.astype(np.int16)
        noisy += bank[dy:dy + h, dx:dx + w]
        out = np.clip(noisy, 0, 255).astype(np.uint8)
        t = frame_no / fps
        frame_no += 1
        return t, out

    light = 1.0
    for _ in range(int(lead_s * fps)):
        yield emit(base(positions[0], light))
    for i in range(1, len(positions)):
        prev, nxt = positions[i - 1], positions[i]
        new_light = lights[i % len(lights)] if lights else float(np.clip(light + rng.uniform(-0.12, 0.12), 0.7, 1.15))
        steps, (tc, tr) = _steps(prev, nxt)
        px, py = hole_centre(tc, min(tr, ROWS - 1))
        if tr >= ROWS:
            py -= 0.9 * PITCH
        tip = to_frame(s, [(px, py)])[0]
        start_tip = np.array([tip[0], -60.0])
        n_in, n_hold, n_out = int(0.4 * fps), max(1, int(0.12 * fps)), int(0.4 * fps)
        for k in range(n_in):
            f = (k + 1) / n_in
            yield emit(_with_arm(base(prev, light), start_tip + (tip - start_tip) * f, light))
        for k in range(n_hold):
            yield emit(_with_arm(base(prev, new_light), tip, new_light))
        light = new_light
        fall_frames = [steps[min(len(steps) - 1, k // max(1, int(fps / 30 * 1.5)))]
                       for k in range(len(steps) * max(1, int(fps / 30 * 1.5)))]
        for k in range(max(n_out, len(fall_frames))):
            labels = fall_frames[min(k, len(fall_frames) - 1)]
            img = base(labels, light)
            if k < n_out:
                f = (k + 1) / n_out
                img = _with_arm(img, tip + (start_tip - tip) * f, light)
            yield emit(img)
        for _ in range(int(still_s * fps)):
            yield emit(base(nxt, light))


def _with_arm(img: np.ndarray, tip, light: float) -> np.ndarray:
    out = img.copy()
    synth.draw_arm(out, (float(tip[0]), float(tip[1])), "top", light)
    return out
