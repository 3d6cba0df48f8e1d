"""A chess board as a camera sees it: the demo's table and the tests' material.

The board lies flat (drawn in plane pixels with the chess board's four ArUco markers
stuck diagonally off its corners, vision/markers.py) and is photographed through a
pinhole camera above the first player's side, looking down at an angle. Pieces are
solids of revolution of different heights (a pawn is short, a king tall), drawn far to
near, so a piece hides the squares behind it the way a real one does; a sleeve and hand
reach in from the camera's side while a piece moves, and the light drifts from move to
move. Three styles: "mario" (red and green pieces on a white and blue board, as the Mario
set), "wood" (cream and dark brown pieces on maple and walnut) and "walnut" (the hard
case of a real wooden set: grained squares, light pieces the colour of the light squares
and dark pieces the colour of the dark ones, so a piece stands out from its square only
by its shape and shading).

Labels are {square: "empty" | "p0" | "p1"} (p0 the first player's pieces); `kinds`
optionally gives each occupied square its piece letter ("k", "q", ...) for its height.
A renderer is a tool, not the judge: the reader is also checked on real photographs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

import cv2
import numpy as np

from . import synth

SQ = 48  # plane pixels per square
BORDER = 84  # wood around the squares, wide enough for the markers
MARKER_PX = 56
PLANE = 8 * SQ + 2 * BORDER

# (z, r) profiles in squares: the silhouette of each piece kind
PROFILES = {
    "p": ((0, .30), (.12, .26), (.30, .15), (.42, .17), (.55, .08)),
    "n": ((0, .33), (.12, .28), (.45, .20), (.70, .22), (.78, .12)),
    "b": ((0, .32), (.12, .27), (.55, .15), (.75, .16), (.88, .05)),
    "r": ((0, .34), (.12, .29), (.50, .23), (.62, .27), (.68, .26)),
    "q": ((0, .35), (.12, .30), (.70, .16), (.92, .22), (1.02, .10)),
    "k": ((0, .35), (.12, .30), (.75, .16), (.95, .22), (1.15, .06)),
}


@dataclass(frozen=True)
class Style:
    light_square: tuple
    dark_square: tuple
    pieces: tuple  # BGR of p0, p1
    frame: tuple
    grain: float = 0.0  # how strongly the squares show wood grain (0: flat colour)


STYLES = {
    "mario": Style((232, 236, 238), (196, 128, 52), ((40, 40, 205), (45, 160, 55)), (60, 60, 60)),
    "wood": Style((140, 190, 222), (50, 78, 118), ((170, 215, 238), (28, 40, 62)), (40, 70, 100)),
    "walnut": Style((128, 172, 206), (48, 74, 108), ((136, 180, 212), (44, 68, 100)), (40, 62, 90), grain=0.12),
}


def _grain(rng: np.random.Generator, across: bool) -> np.ndarray:
    """A square's wood grain: brightness factors (SQ x SQ) of wavy stripes along the
    square (or across it: squares are glued with their grain turned)."""
    yy, xx = np.mgrid[0:SQ, 0:SQ].astype(np.float32)
    along, over = (yy, xx) if across else (xx, yy)
    phase = rng.uniform(0, 2 * np.pi, 3)
    wave = over + 2.5 * np.sin(along / SQ * 2 * np.pi * rng.uniform(0.5, 1.5) + phase[0])
    stripes = np.sin(wave / SQ * 2 * np.pi * rng.uniform(5, 9) + phase[1])
    return stripes + 0.5 * np.sin(wave / SQ * 2 * np.pi * rng.uniform(13, 19) + phase[2])


def draw_plane(style: Style) -> np.ndarray:
    """The empty board seen from straight above, rank 8 at the top, with its markers."""
    plane = np.empty((PLANE, PLANE, 3), np.uint8)
    plane[:] = style.frame
    plane[:BORDER] = plane[-BORDER:] = plane[:, :BORDER] = plane[:, -BORDER:] = (235, 235, 235)
    rng = np.random.default_rng(7)  # the same board every time
    for r in range(8):
        for c in range(8):
            colour = np.array(style.light_square if (r + c) % 2 == 0 else style.dark_square, np.float32)
            y, x = BORDER + r * SQ, BORDER + c * SQ
            shade = 1.0 + style.grain * _grain(rng, across=bool((r + c) % 2))[..., None] if style.grain else 1.0
            plane[y:y + SQ, x:x + SQ] = np.clip(colour * shade, 0, 255).astype(np.uint8)
    lo, hi = BORDER, BORDER + 8 * SQ
    synth.place_markers(plane, "chess", (lo, lo, hi, hi), MARKER_PX, quiet=8)  # inner corners on a1, h1, h8, a8
    return plane


class Camera:
    """A pinhole camera over the first player's side. World units are squares: x from
    the a-file edge, y from the rank-1 edge, z up. The pose: `height` above the table,
    `back` behind the board's near edge, `side` along it, and `bearing` (degrees,
    counter-clockwise seen from above) turns that place around the board's middle: 90
    puts the camera on the h-file side, looking across the files, so a tall piece on d8
    stands in front of c8. `Camera.side_on()` is such a low, side-on camera."""

    def __init__(self, size=(960, 720), height: float = 14.0, back: float = 3.0, side: float = 0.0,
                 seed: int | None = None, bearing: float = 0.0):
        rng = np.random.default_rng(seed)
        jitter = rng.uniform(-0.4, 0.4, 3) if seed is not None else np.zeros(3)
        self.size = size
        a = np.radians(bearing)
        dx, dy = side + jitter[0], -back - 4.0 + jitter[1]  # from the board's middle, bearing 0
        eye = np.array([4.0 + dx * np.cos(a) - dy * np.sin(a), 4.0 + dx * np.sin(a) + dy * np.cos(a),
                        height + jitter[2]])
        target = np.array([4.0, 4.2, 0.0])
        fwd = (target - eye) / np.linalg.norm(target - eye)
        right = np.cross(fwd, [0, 0, 1.0])
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        self.R = np.stack([right, down, fwd])
        self.eye = eye
        w, h = size
        b = BORDER / SQ  # the markers, on the border, must be in view too
        corners = np.array([[-b, -b, 0], [8 + b, -b, 0], [8 + b, 8 + b, 0], [-b, 8 + b, 0]], float)
        cam = (corners - eye) @ self.R.T
        spread = np.abs(cam[:, :2] / cam[:, 2:]).max(axis=0)
        self.f = 0.97 * min(w / 2 / spread[0], h / 2 / spread[1])

    @classmethod
    def side_on(cls, seed: int | None = None, size=(960, 720)) -> "Camera":
        """Low, from the h-file side: tall pieces hide much of the squares behind them."""
        return cls(size=size, height=7.0, back=4.0, bearing=90.0, seed=seed)

    @classmethod
    def above(cls, seed: int | None = None, size=(960, 720)) -> "Camera":
        """Straight above the board's middle, as a camera on a stand over the table."""
        return cls(size=size, height=16.0, back=-4.0, seed=seed)

    def project(self, pts) -> np.ndarray:
        cam = (np.asarray(pts, float) - self.eye) @ self.R.T
        w, h = self.size
        return np.stack([self.f * cam[:, 0] / cam[:, 2] + w / 2, self.f * cam[:, 1] / cam[:, 2] + h / 2], axis=1)

    def shot(self) -> synth.Shot:
        """Where the plane's corners (top-left, top-right, bottom-right, bottom-left)
        land in the frame."""
        b = BORDER / SQ
        pts = self.project([[-b, 8 + b, 0], [8 + b, 8 + b, 0], [8 + b, -b, 0], [-b, -b, 0]])
        return synth.Shot(tuple(map(tuple, pts)), self.size)

    def distance(self, x: float, y: float) -> float:
        return float(np.linalg.norm(self.eye - [x, y, 0]))


def square_xy(square: str) -> tuple[float, float]:
    return "abcdefgh".index(square[0]) + 0.5, int(square[1]) - 0.5


def _draw_piece(frame, cam: Camera, x: float, y: float, kind: str, colour, lying: bool = False,
                tall: float = 1.0) -> None:
    profile = [(z * tall, r) for z, r in PROFILES[kind]]
    angles = np.linspace(0, 2 * np.pi, 20, endpoint=False)
    rings = []
    for z, r in profile:
        if lying:  # knocked over: on its side, fallen towards rank 8, its base on the square
            ring = np.stack([x + r * np.cos(angles), y - 0.2 + np.full_like(angles, z),
                             profile[0][1] + r * np.sin(angles)], axis=1)
        else:
            ring = np.stack([x + r * np.cos(angles), y + r * np.sin(angles), np.full_like(angles, z)], axis=1)
        rings.append(cam.project(ring))
    base = np.array(colour, float)
    hull = cv2.convexHull(np.concatenate(rings).astype(np.float32)).astype(np.int32)
    cv2.fillConvexPoly(frame, hull, tuple(base * 0.72), cv2.LINE_AA)
    # a lit side and the top: a solid, not a flat disk
    lit = cv2.convexHull(np.concatenate([ring[len(ring) // 2:] for ring in rings]).astype(np.float32)).astype(np.int32)
    cv2.fillConvexPoly(frame, lit, tuple(np.minimum(base * 1.0, 255)), cv2.LINE_AA)
    cv2.fillConvexPoly(frame, cv2.convexHull(rings[-1].astype(np.float32)).astype(np.int32),
                       tuple(np.minimum(base * 1.25 + 10, 255)), cv2.LINE_AA)
    cv2.polylines(frame, [hull], True, tuple(base * 0.45), 1, cv2.LINE_AA)


def render(labels: dict, *, style: str = "mario", kinds: dict | None = None, camera: Camera | None = None,
           arm_tip=None, light: float = 1.0, tint=(1.0, 1.0, 1.0), noise: float = 3.0,
           fallen: Sequence[str] = (), rng: np.random.Generator | None = None, tall: float = 1.0,
           off: dict | None = None) -> np.ndarray:
    """One camera frame of the board holding `labels`. `fallen` squares hold a piece
    lying on its side instead of standing; `arm_tip` (frame pixels) puts a hand there;
    `tint` scales the blue, green and red of the light (a warmer or cooler lamp); `tall`
    scales the pieces' height (sets differ: a club's tournament set stands taller);
    `off` {square: (dx, dy) in squares}: a piece set down off its square's centre."""
    st = STYLES[style]
    cam = camera or Camera()
    kinds = kinds or {}
    placed = [(sq, lab) for sq, lab in labels.items() if lab in ("p0", "p1")]
    placed.sort(key=lambda item: -cam.distance(*square_xy(item[0])))  # far to near

    def pieces(frame):
        for sq, lab in placed:
            x, y = np.add(square_xy(sq), (off or {}).get(sq, (0.0, 0.0)))
            _draw_piece(frame, cam, x, y, kinds.get(sq, "p"), st.pieces[int(lab[1])], sq in fallen, tall)

    frame = synth.photograph(_PLANES[style], cam.shot(), light=light, noise=0.0, blur=0.7,
                             overlay=pieces, rng=rng)
    if tuple(tint) != (1.0, 1.0, 1.0):
        frame = np.clip(frame * np.float32(tint), 0, 255).astype(np.uint8)
    if arm_tip is not None:
        synth.draw_arm(frame, arm_tip, "bottom", light)
    if noise:
        rng = rng or np.random.default_rng(0)
        frame = np.clip(frame + rng.normal(0, noise, frame.shape), 0, 255).astype(np.uint8)
    return frame


_PLANES = {name: draw_plane(st) for name, st in STYLES.items()}


def corners_in_frame(cam: Camera) -> np.ndarray:
    """The playing area's corners a1, h1, h8, a8 in the frame (what --corners takes)."""
    return cam.project([[0, 0, 0], [8, 0, 0], [8, 8, 0], [0, 8, 0]])


@dataclass(frozen=True)
class Position:
    """What stands on the board at one moment: labels, piece letters for heights, the
    squares whose piece has been knocked over, and where pieces stand off their squares'
    centres."""

    labels: dict
    kinds: dict
    fallen: tuple = ()
    off: dict = field(default_factory=dict)  # square -> (dx, dy): a piece set down off its square's centre

    @classmethod
    def from_placement(cls, placement: dict) -> "Position":
        """{square: piece letter} as in FEN (upper case: the first mover's) -> Position."""
        labels = {f"{f}{r}": "empty" for f in "abcdefgh" for r in range(1, 9)}
        labels.update({sq: "p0" if p.isupper() else "p1" for sq, p in placement.items()})
        return cls(labels, {sq: p.lower() for sq, p in placement.items()})


def render_game(positions: Sequence[Position], *, style: str = "mario", fps: float = 10.0,
                camera: Camera | None = None, seed: int = 0, still_s: float = 0.5,
                lead_s: float = 0.8, quick: Sequence[int] = (), tall: float = 1.0) -> Iterator[tuple[float, np.ndarray]]:
    """Frames of a game: `positions[0]` still for `lead_s`; then for each next position
    a hand reaching in over the squares that change, the change, the hand leaving, and
    the board still for `still_s` (not for the positions whose index is in `quick`: a
    reply made at once, before the board settled). The light's level and colour drift
    from move to move; each frame gets its own sensor noise. `tall` as for `render`."""
    rng = np.random.default_rng(seed)
    cam = camera or Camera()
    w, h = cam.size
    bank = rng.normal(0.0, 3.0, (h + 32, w + 32, 3)).astype(np.int16)
    n = 0

    def emit(img):
        nonlocal n
        dy, dx = rng.integers(0, 32, 2)
        out = np.clip(img.astype(np.int16) + bank[dy:dy + h, dx:dx + w], 0, 255).astype(np.uint8)
        n += 1
        return (n - 1) / fps, out

    def with_hand(img, f):
        out = img.copy()
        entry = np.array([tip[0], h + 60.0])
        synth.draw_arm(out, tuple(entry + (tip - entry) * f), "bottom", light)
        return out

    light, tint = 1.0, np.ones(3)
    first = positions[0]
    still = render(first.labels, style=style, kinds=first.kinds, camera=cam, light=light, noise=0, fallen=first.fallen,
                   tall=tall, off=first.off)
    for _ in range(int(lead_s * fps)):
        yield emit(still)
    for i in range(1, len(positions)):
        prev, nxt = positions[i - 1], positions[i]
        changed = [sq for sq in nxt.labels if nxt.labels[sq] != prev.labels.get(sq)]
        x, y = np.mean([square_xy(sq) for sq in changed], axis=0) if changed else (4.0, 4.0)
        tip = cam.project([[x, y, 0.6]])[0]
        yield emit(with_hand(still, 0.5))
        yield emit(with_hand(still, 1.0))
        light = float(np.clip(light + rng.uniform(-0.1, 0.1), 0.75, 1.15))
        tint = np.clip(tint + rng.uniform(-0.03, 0.03, 3), 0.88, 1.12)  # the light's colour wanders too
        still = render(nxt.labels, style=style, kinds=nxt.kinds, camera=cam, light=light, tint=tuple(tint),
                       noise=0, fallen=nxt.fallen, tall=tall, off=nxt.off)
        yield emit(with_hand(still, 1.0))
        yield emit(with_hand(still, 0.5))
        if i in quick:
            continue
        for _ in range(int(still_s * fps)):
            yield emit(still)
