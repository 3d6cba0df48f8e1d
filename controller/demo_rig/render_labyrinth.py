"""A Labyrinth board as a camera sees it: the demo's table and the tests' material.

`draw_plane` draws the board flat from above: 49 tiles with light paths between dark
hedges, a stand-in picture (a coloured shape on a white medallion) on every treasure
tile, turned with its tile, flat round pawns (each colour at its own spot in a cell, so
pawns sharing a cell stay visible), the arrows in the frame around the tiles, the spare
tile beside the board and the four ArUco markers of the Labyrinth board (ids 8-11,
vision/markers.py) with their inner corners at the corners of the tile area. `render`
puts that plane into a camera frame through controller/demo_rig/synth.photograph, optionally with an
arm reaching in over a cell.

A position is plain data, the same as the game's snapshot JSON: ``rows`` (7 strings of 7
tiles like ``"ES NS ESW:Mario ..."``), ``spare`` and ``players`` (``[{"colour": "red",
"cell": "a1"}, ...]``); cells are named a-g from the left and 1-7 from the top. A
renderer is a tool, not the judge. `render_game` makes the timed frames of a whole
game: arms reaching in, rows sliding, pawns carried.
"""
from __future__ import annotations

import zlib
from typing import Iterator

import cv2
import numpy as np

from . import synth

SIZE = 7
TILE = 56  # plane pixels per tile
BORDER = 70  # frame around the tile area: the arrows and the markers
SPARE_GAP = 30
PLANE_W = BORDER + SIZE * TILE + BORDER + TILE + SPARE_GAP
PLANE_H = SIZE * TILE + 2 * BORDER
MARKER_PX = 52
PATH_WIDTH = 0.38  # of a tile
WALL = (48, 96, 58)  # BGR: a dark hedge
PATH = (150, 205, 228)  # BGR: a sandy path
FRAME = (170, 150, 120)  # BGR: the board's printed frame
ARROW = (40, 190, 235)
PAWN_COLOURS = {"red": (40, 40, 205), "yellow": (30, 215, 240), "green": (60, 185, 40),
                "blue": (200, 90, 30)}
# each colour's spot in a cell, as a fraction of the tile from its centre
PAWN_SPOT = {"red": (-0.2, -0.2), "yellow": (0.2, -0.2), "green": (0.2, 0.2), "blue": (-0.2, 0.2)}
PAWN_R = 0.14
SYMBOL_COLOURS = ((25, 25, 25), (140, 40, 130), (40, 70, 110), (120, 120, 120))  # BGR, unlike any pawn
SHAPES = ("circle", "triangle", "square", "star", "diamond", "cross")
SIDES = "NESW"
CANONICAL = {2: "NE", 3: "NES"}  # how a treasure's picture stands on its tile when unturned


def tile_origin(row: int, col: int) -> tuple[int, int]:
    """Plane pixel (x, y) of a tile's top-left corner."""
    return BORDER + col * TILE, BORDER + row * TILE


def cell_rc(name: str) -> tuple[int, int]:
    return int(name[1]) - 1, "abcdefg".index(name[0])


def _mask(sides: str) -> int:
    return sum(1 << SIDES.index(s) for s in sides)


def turns_of(sides: str) -> int:
    """Quarter turns clockwise of a tile from its canonical way (NE corner, NES T): the
    angle its picture is drawn at."""
    want = _mask(sides)
    base = _mask(CANONICAL.get(len(sides), sides))
    for q in range(4):
        if ((base << q) | (base >> (4 - q))) & 0xF == want:
            return q
    return 0


def symbol_style(name: str) -> tuple[str, tuple[int, int, int]]:
    """A stand-in picture for a treasure name: a shape and a colour, fixed by the name.
    The 24 default names get 24 different pictures."""
    k = zlib.crc32(name.encode()) if name not in DEFAULT_NAMES else DEFAULT_NAMES.index(name)
    return SHAPES[k % len(SHAPES)], SYMBOL_COLOURS[(k // len(SHAPES)) % len(SYMBOL_COLOURS)]


DEFAULT_NAMES = ("Mario", "Luigi", "Peach", "Daisy", "Yoshi", "Toad", "Bowser", "BowserJr",
                 "DonkeyKong", "DiddyKong", "Wario", "Waluigi", "Rosalina", "Boo", "KingBoo",
                 "Goomba", "KoopaTroopa", "ShyGuy", "Lakitu", "DryBones", "Kamek",
                 "PiranhaPlant", "Birdo", "Toadette")


def draw_symbol(name: str, px: int) -> np.ndarray:
    """The stand-in picture of `name` on its white medallion, upright, px x px."""
    img = np.empty((px, px, 3), np.uint8)
    img[:] = PATH
    c = px / 2
    cv2.circle(img, (int(c), int(c)), int(px * 0.47), (245, 245, 245), -1, cv2.LINE_AA)
    cv2.circle(img, (int(c), int(c)), int(px * 0.47), (60, 60, 60), 1, cv2.LINE_AA)
    shape, colour = symbol_style(name)
    r = px * 0.3
    if shape == "circle":
        cv2.circle(img, (int(c), int(c)), int(r), colour, -1, cv2.LINE_AA)
        return img
    if shape == "cross":
        w = r * 0.4
        for box in (((c - w, c - r), (c + w, c + r)), ((c - r, c - w), (c + r, c + w))):
            cv2.rectangle(img, tuple(int(v) for v in box[0]), tuple(int(v) for v in box[1]), colour, -1)
        return img
    if shape == "star":
        angles = np.arange(10) * np.pi / 5 - np.pi / 2
        radii = np.where(np.arange(10) % 2 == 0, r * 1.1, r * 0.45)
    else:
        n, turn = {"triangle": (3, -np.pi / 2), "square": (4, np.pi / 4), "diamond": (4, 0.0)}[shape]
        angles = np.arange(n) * 2 * np.pi / n + turn
        radii = np.full(n, r * (1.15 if shape == "triangle" else 1.0))
        if shape == "diamond":
            radii = np.array([r * 1.1, r * 0.6, r * 1.1, r * 0.6])
    pts = np.stack([c + radii * np.cos(angles), c + radii * np.sin(angles)], 1)
    cv2.fillPoly(img, [np.int32(np.round(pts * 16))], colour, cv2.LINE_AA, shift=4)
    return img


def _hedge() -> np.ndarray:
    """A tile-sized patch of hedge with a little leafy texture (seeded, the same on
    every tile so that the renderer is deterministic)."""
    rng = np.random.default_rng(5)
    img = np.empty((TILE, TILE, 3), np.float32)
    img[:] = WALL
    img += rng.normal(0, 7, (TILE, TILE, 1))
    return np.clip(img, 0, 255).astype(np.uint8)


_HEDGE = _hedge()


def draw_tile(text: str) -> np.ndarray:
    """One tile, e.g. 'NES:Mario', as TILE x TILE pixels."""
    sides, _, treasure = text.partition(":")
    img = _HEDGE.copy()
    lo, hi = int(TILE * (0.5 - PATH_WIDTH / 2)), int(TILE * (0.5 + PATH_WIDTH / 2))
    img[lo:hi, lo:hi] = PATH
    for s in sides:
        if s == "N":
            img[:hi, lo:hi] = PATH
        elif s == "S":
            img[lo:, lo:hi] = PATH
        elif s == "E":
            img[lo:hi, lo:] = PATH
        elif s == "W":
            img[lo:hi, :hi] = PATH
    if treasure:
        px = int(TILE * 0.5)
        pic = np.rot90(draw_symbol(treasure, px), -turns_of(sides))
        o = (TILE - px) // 2
        img[o:o + px, o:o + px] = pic
    cv2.rectangle(img, (0, 0), (TILE - 1, TILE - 1), (30, 45, 35), 1)  # the gap between tiles
    return img


def _template() -> np.ndarray:
    """The empty board: frame, arrows and markers."""
    plane = np.empty((PLANE_H, PLANE_W, 3), np.uint8)
    plane[:] = FRAME
    left, top = BORDER, BORDER
    right, bottom = BORDER + SIZE * TILE, BORDER + SIZE * TILE
    for k in (1, 3, 5):
        mid = BORDER + int((k + 0.5) * TILE)
        a = 0.22 * TILE
        for tip, base_dir in (((mid, top - 8), (0, -1)), ((mid, bottom + 8), (0, 1)),
                              ((left - 8, mid), (-1, 0)), ((right + 8, mid), (1, 0))):
            bx, by = tip[0] + base_dir[0] * a * 1.6, tip[1] + base_dir[1] * a * 1.6
            px, py = -base_dir[1] * a, base_dir[0] * a
            tri = np.int32([tip, (bx + px, by + py), (bx - px, by - py)])
            cv2.fillPoly(plane, [tri], ARROW, cv2.LINE_AA)
    synth.place_markers(plane, "labyrinth", (left, top, right, bottom), MARKER_PX, quiet=8)
    return plane


_TEMPLATE = _template()
SPARE_AT = (BORDER + SIZE * TILE + BORDER // 2 + SPARE_GAP // 2, BORDER + 3 * TILE)


ARROW_LINES = {f"{side}{k}": (side, k - 1) for side in "NSWE" for k in (2, 4, 6)}


def draw_plane(position: dict, slide: tuple[str, float] | None = None) -> np.ndarray:
    """The board in `position` (snapshot-like JSON) drawn flat from above. `slide`
    (arrow, fraction) draws a push under way: the spare tile has gone in at that arrow
    by `fraction` of a tile, and the line (with its pawns) has moved along with it."""
    plane = _TEMPLATE.copy()
    rows = [row.split() for row in position["rows"]]
    shift = {}
    if slide:
        side, k = ARROW_LINES[slide[0]]
        d = {"N": (1, 0), "S": (-1, 0), "W": (0, 1), "E": (0, -1)}[side]
        step = (int(round(d[0] * slide[1] * TILE)), int(round(d[1] * slide[1] * TILE)))
        line = [(r, k) for r in range(SIZE)] if side in "NS" else [(k, c) for c in range(SIZE)]
        shift = {cell: step for cell in line}
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            dy, dx = shift.get((r, c), (0, 0))
            _paste(plane, draw_tile(text), *tile_origin(r, c), dx, dy)
    if slide:
        entry = line[0] if side in "NW" else line[-1]
        dy, dx = step
        # the spare comes in from outside; the far tile goes out over the frame
        _paste(plane, draw_tile(position["spare"]), *tile_origin(*entry), dx - d[1] * TILE, dy - d[0] * TILE)
    elif position.get("spare"):
        x, y = SPARE_AT
        plane[y:y + TILE, x:x + TILE] = draw_tile(position["spare"])
    for p in position.get("players", ()):
        r, c = cell_rc(p["cell"])
        x, y = tile_origin(r, c)
        dy, dx = shift.get((r, c), (0, 0))
        ox, oy = PAWN_SPOT[p["colour"]]
        centre = (int(x + dx + (0.5 + ox) * TILE), int(y + dy + (0.5 + oy) * TILE))
        colour = np.array(PAWN_COLOURS[p["colour"]], float)
        cv2.circle(plane, centre, int(PAWN_R * TILE), tuple(colour * 0.6), -1, cv2.LINE_AA)
        cv2.circle(plane, centre, int(PAWN_R * TILE) - 2, tuple(colour), -1, cv2.LINE_AA)
        cv2.circle(plane, (centre[0] - 2, centre[1] - 2), 2, tuple(np.minimum(colour + 60, 255)), -1)
    return plane


def _paste(plane: np.ndarray, img: np.ndarray, x: int, y: int, dx: int = 0, dy: int = 0) -> None:
    h, w = img.shape[:2]
    plane[y + dy:y + dy + h, x + dx:x + dx + w] = img


def camera_shot(size=(1280, 720), seed: int | None = None, tilt: float = 0.06, fill: float = 0.9) -> synth.Shot:
    """The camera above the table, looking down at an angle (the far edge narrower);
    `seed` moves and turns it a little."""
    w, h = size
    rng = np.random.default_rng(seed)
    ph = h * fill
    pw = ph * PLANE_W / PLANE_H
    dx = rng.uniform(-0.05, 0.05) * w if seed is not None else 0.0
    dy = rng.uniform(-0.02, 0.02) * h if seed is not None else 0.0
    turn = rng.uniform(-0.04, 0.04) if seed is not None else 0.0
    narrow = pw * tilt
    pts = np.array([(-pw / 2 + narrow, -ph / 2), (pw / 2 - narrow, -ph / 2), (pw / 2, ph / 2), (-pw / 2, ph / 2)])
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    pts = pts @ rot.T + (w / 2 + dx, h / 2 + dy)
    return synth.Shot(tuple(map(tuple, pts)), size)


def to_frame(shot: synth.Shot, points) -> np.ndarray:
    """Plane pixels -> frame pixels under a shot."""
    H = shot.homography((PLANE_H, PLANE_W))
    return cv2.perspectiveTransform(np.float32(points).reshape(-1, 1, 2), H).reshape(-1, 2)


def board_corners_in_frame(shot: synth.Shot) -> np.ndarray:
    """The tile area's corners, bottom-left, bottom-right, top-right, top-left: what a
    user gives as --corners for this shot."""
    left, top, right, bottom = BORDER, BORDER, BORDER + SIZE * TILE, BORDER + SIZE * TILE
    return to_frame(shot, [(left, bottom), (right, bottom), (right, top), (left, top)])


def cell_in_frame(shot: synth.Shot, name: str) -> tuple[float, float]:
    r, c = cell_rc(name)
    x, y = tile_origin(r, c)
    return tuple(to_frame(shot, [(x + TILE / 2, y + TILE / 2)])[0])


def render(position: dict, *, shot: synth.Shot | None = None, arm_over: str | None = None,
           slide: tuple[str, float] | None = None, light: float = 1.0, noise: float = 3.0,
           rng: np.random.Generator | None = None) -> np.ndarray:
    """One camera frame of `position`; `arm_over` (a cell name) puts an arm reaching in
    from the bottom of the frame with the hand over that cell; `slide` (arrow, fraction)
    shows a push under way, with the hand on the spare tile at that arrow."""
    s = shot or camera_shot()
    return synth.photograph(draw_plane(position, slide), s, light=light, noise=noise,
                            arm_tip=_hand(s, arm_over, slide), rng=rng or np.random.default_rng(0))


def _hand(shot: synth.Shot, cell: str | None, slide: tuple[str, float] | None):
    """Where the hand is in the frame: over `cell`, or on the arrow of a push under way."""
    if cell:
        return cell_in_frame(shot, cell)
    if slide:
        return tuple(to_frame(shot, [_arrow_point(slide[0])])[0])
    return None


def _arrow_point(arrow: str) -> tuple[float, float]:
    """Plane pixel just outside the board at an arrow (where a hand pushes)."""
    side, k = ARROW_LINES[arrow]
    mid = BORDER + (k + 0.5) * TILE
    far = BORDER + SIZE * TILE
    return {"N": (mid, BORDER - TILE * 0.3), "S": (mid, far + TILE * 0.3),
            "W": (BORDER - TILE * 0.3, mid), "E": (far + TILE * 0.3, mid)}[side]


class Camera:
    """A fixed camera taking many frames of the board: sensor noise comes from one bank
    drawn once (a fresh slice per frame), which makes a frame four times cheaper than
    drawing new noise for every pixel."""

    def __init__(self, shot: synth.Shot | None = None, seed: int = 0, noise: float = 3.0):
        self.shot = shot or camera_shot()
        self.rng = np.random.default_rng(seed)
        w, h = self.shot.size
        self.bank = self.rng.normal(0.0, noise, (h + 32, w + 32, 3)).astype(np.int16)

    def shoot(self, position: dict, *, arm_over: str | None = None, arm_tip=None,
              slide: tuple[str, float] | None = None, light: float = 1.0, without: str | None = None) -> np.ndarray:
        """One frame; `arm_over` a cell or `arm_tip` frame pixels for the hand (a slide
        puts it on the arrow); `without` leaves one colour's pawn out (in the hand)."""
        if without:
            position = {**position, "players": [p for p in position.get("players", ())
                                                if p["colour"] != without]}
        arm_tip = arm_tip if arm_tip is not None else _hand(self.shot, arm_over, slide)
        clean = synth.photograph(draw_plane(position, slide), self.shot, light=light, noise=0.0,
                                 arm_tip=arm_tip)
        w, h = self.shot.size
        dy, dx = self.rng.integers(0, 32, 2)
        noisy = clean.astype(np.int16) + self.bank[dy:dy + h, dx:dx + w]
        return np.clip(noisy, 0, 255).astype(np.uint8)


def render_game(steps, *, shot: synth.Shot | None = None, fps: float = 10.0, still_s: float = 0.6,
                lead_s: float = 1.0, seed: int = 0) -> Iterator[tuple[float, np.ndarray]]:
    """Timed frames of a game, for the whole camera path (vision/watch.py). `steps` is
    a list of (position before, position after, what the camera sees happen):
    ``("push", arrow)`` an arm reaches to the arrow and slides the line in, tile by tile
    fraction; ``("move", colour, cell)`` an arm picks the pawn up and puts it down on
    `cell`; ``None`` nothing visible (a pawn that stays). Between steps the board is
    still for `still_s`, under a light that drifts a little."""
    cam = Camera(shot, seed)
    s = cam.shot
    rng = np.random.default_rng(seed)
    frame_no = 0
    light = 1.0
    w, h = s.size
    rest = (w * 0.5, h + 80.0)  # the arm's tip off the bottom of the frame

    def shoot(position, tip=None, slide=None, without=None):
        nonlocal frame_no
        frame = cam.shoot(position, arm_tip=tip, slide=slide, light=light, without=without)
        t = frame_no / fps
        frame_no += 1
        return t, frame

    def reach(a, b, n):
        return [tuple(np.array(a) + (np.array(b) - np.array(a)) * (k + 1) / n) for k in range(n)]

    if steps:
        for _ in range(int(lead_s * fps)):
            yield shoot(steps[0][0])
    for before, after, seen in steps:
        if seen is None:
            continue
        if seen[0] == "push":
            at = tuple(to_frame(s, [_arrow_point(seen[1])])[0])
            for tip in reach(rest, at, 3):
                yield shoot(before, tip)
            for fraction in (0.25, 0.5, 0.75):
                yield shoot(before, at, slide=(seen[1], fraction))
            last = at
        else:
            colour, cell = seen[1], seen[2]
            start = next(p["cell"] for p in before["players"] if p["colour"] == colour)
            here, there = cell_in_frame(s, start), cell_in_frame(s, cell)
            for tip in reach(rest, here, 3):
                yield shoot(before, tip)
            for tip in reach(here, there, 3):
                yield shoot(before, tip, without=colour)
            last = there
        light = float(np.clip(light + rng.uniform(-0.1, 0.1), 0.75, 1.1))
        for tip in reach(last, rest, 3):
            yield shoot(after, tip)
        for _ in range(int(still_s * fps)):
            yield shoot(after)
