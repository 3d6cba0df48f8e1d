"""Renders a track board flat, in plane pixels: spaces at given positions, the shapes
around them (pipes, blocks), and what stands on each space (a piece, a token).

Generic: a game gives `TrackSpace`s and `Shape`s and a label per space; the labels'
looks are ITEMS (add one for a new piece). `render_smb_world` is the Super Mario Bros.
World board from its board-file data. controller/demo_rig/synth.py then photographs the plane as a
camera would. A renderer is a tool for tests and the demo, never the judge of a reader.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable, Mapping, Sequence

import cv2
import numpy as np

from vision import markers

from . import synth

SKY = (235, 190, 120)  # BGR


@dataclass(frozen=True)
class TrackSpace:
    cell: Hashable
    at: tuple[float, float]
    colour: tuple[int, int, int]  # BGR
    marks: tuple[str, ...] = ()  # printed pictures on the space (MARKS)


@dataclass(frozen=True)
class Shape:
    rect: tuple[float, float, float, float]  # x0, y0, x1, y1 in plane pixels
    colour: tuple[int, int, int]


def _pt(x, y) -> tuple[int, int]:
    return int(round(x)), int(round(y))


def _mario(img, c, r):
    x, y = c
    cv2.circle(img, _pt(x, y), int(r * 0.85), (170, 60, 30), -1)  # blue overalls
    cv2.ellipse(img, _pt(x, y), (int(r * 0.85), int(r * 0.85)), 0, 180, 360, (30, 30, 215), -1)  # red cap
    cv2.circle(img, _pt(x, y + r * 0.05), int(r * 0.3), (150, 190, 245), -1)  # face


def _hazard(img, c, r):
    x, y = c
    cv2.circle(img, _pt(x, y), int(r * 0.8), (30, 60, 110), -1)  # a Goomba's brown
    for dx in (-0.3, 0.3):
        cv2.circle(img, _pt(x + dx * r, y - 0.15 * r), int(r * 0.18), (250, 250, 250), -1)
        cv2.circle(img, _pt(x + dx * r, y - 0.1 * r), int(r * 0.08), (10, 10, 10), -1)


def _token(colour):
    def draw(img, c, r):
        cv2.circle(img, _pt(*c), int(r * 0.7), colour, -1)
        cv2.circle(img, _pt(*c), int(r * 0.7), (20, 20, 20), 2)
    return draw


ITEMS: dict[str, Callable] = {
    "mario": _mario, "hazard": _hazard,
    "p0": _token((40, 40, 200)), "p1": _token((60, 160, 40)), "p2": _token((200, 120, 40)), "p3": _token((30, 200, 230)),
}


def _mark(img, name, c, r):
    x, y = c
    if name == "mushroom":
        cv2.ellipse(img, _pt(x, y), (int(r * 0.5), int(r * 0.35)), 0, 180, 360, (40, 40, 220), -1)
        cv2.circle(img, _pt(x, y - r * 0.15), int(r * 0.12), (255, 255, 255), -1)
    elif name in ("coin", "coins"):
        for dx in ((0,) if name == "coin" else (-0.3, 0.3)):
            cv2.circle(img, _pt(x + dx * r, y), int(r * 0.25), (20, 180, 250), -1)
            cv2.circle(img, _pt(x + dx * r, y), int(r * 0.25), (20, 110, 160), 1)
    elif name == "question":
        cv2.putText(img, "?", _pt(x - r * 0.25, y + r * 0.3), cv2.FONT_HERSHEY_SIMPLEX, r / 28, (255, 255, 255), 2)
    elif name == "water":
        for dy in (-0.25, 0.2):
            cv2.line(img, _pt(x - r * 0.6, y + dy * r), _pt(x + r * 0.6, y + dy * r), (200, 120, 30), 3)
    elif name == "fire_bar":
        cv2.line(img, _pt(x - r * 0.6, y + r * 0.4), _pt(x + r * 0.6, y - r * 0.4), (0, 110, 255), 4)
    elif name == "star":
        cv2.circle(img, _pt(x, y), int(r * 0.35), (255, 255, 255), 2)


def render_track(size: tuple[int, int], spaces: Sequence[TrackSpace], radius: float,
                 contents: Mapping[Hashable, str | Sequence[str]] | None = None,
                 shapes: Sequence[Shape] = (), background=SKY) -> np.ndarray:
    """The board as seen from straight above, BGR uint8 of `size` (width, height).
    `contents` gives per space a label or several ("empty" draws nothing)."""
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = background
    # a faint brick pattern, so that the board is not flat colour
    for y in range(0, h, 24):
        cv2.line(img, (0, y), (w, y), tuple(int(v * 0.93) for v in background), 1)
    for s in shapes:
        x0, y0, x1, y1 = s.rect
        cv2.rectangle(img, _pt(x0, y0), _pt(x1, y1), s.colour, -1)
        cv2.rectangle(img, _pt(x0, y0), _pt(x1, y1), (20, 20, 20), 1)
    for sp in spaces:
        cv2.circle(img, _pt(*sp.at), int(radius), sp.colour, -1)
        cv2.circle(img, _pt(*sp.at), int(radius), (30, 30, 30), 1)
        for m in sp.marks:
            _mark(img, m, sp.at, radius)
    for sp in spaces:
        what = (contents or {}).get(sp.cell, "empty")
        for label in ([what] if isinstance(what, str) else list(what)):
            if label != "empty":
                ITEMS[label](img, sp.at, radius)
    return img


SPACE_COLOURS = {"red": (40, 40, 200), "yellow": (40, 200, 240), "none": (235, 235, 235)}
SHAPE_COLOURS = {"pipe": (40, 160, 40), "cannon": (40, 40, 40), "question": (30, 150, 230),
                 "coins": (30, 150, 230), "brick": (40, 80, 160)}
FEATURE_MARKS = {"mushroom": "mushroom", "coin_on_top": "coin", "coins_inside": "coins",
                 "question_block": "question", "water": "water", "fire_bar": "fire_bar",
                 "princess": "star", "king_bowser": "fire_bar"}


def render_smb_world(world: Mapping, labels: Mapping[str, str] | None = None, scale: float = 1.0,
                     radius: float = 16.0) -> np.ndarray:
    """A Super Mario Bros. World board (plain board-file data, vision/read_spaces.world_data)
    with `labels` ("mario", "hazard", "empty") on its spaces."""
    w, h = world["size"]
    spaces = [TrackSpace(s["id"], (s["at"][0] * scale, s["at"][1] * scale), SPACE_COLOURS[s["colour"]],
                         tuple(FEATURE_MARKS[f] for f in s.get("features", ()) if f in FEATURE_MARKS))
              for s in world["spaces"]]
    shapes = [Shape(tuple(v * scale for v in d["rect"]), SHAPE_COLOURS.get(d["kind"], (90, 90, 90)))
              for d in list(world.get("decor", ())) + list(world.get("blocks", ()))]
    return render_track((round(w * scale), round(h * scale)), spaces, radius * scale,
                        {k: v for k, v in (labels or {}).items()}, shapes)


def with_markers(plane: np.ndarray, ids: Sequence[int], px: int | None = None) -> np.ndarray:
    """The plane on a white border holding its four markers (ids bottom-left,
    bottom-right, top-right, top-left), each diagonally off its corner with its inner
    corner touching the plane's corner, as vision/markers.py says to stick them."""
    h, w = plane.shape[:2]
    px = px or max(24, min(w, h) // 7)
    quiet = px // 6
    border = px + quiet
    out = np.full((h + 2 * border, w + 2 * border, 3), 255, np.uint8)
    # top-left corner of each marker image (quiet zone included), BL, BR, TR, TL
    spots = [(0, border + h - quiet), (border + w - quiet, border + h - quiet),
             (border + w - quiet, 0), (0, 0)]
    for marker_id, (x, y) in zip(ids, spots):
        img = markers.marker_image(int(marker_id), px, quiet)
        out[y:y + img.shape[0], x:x + img.shape[1]] = img[:, :, None]
    out[border:border + h, border:border + w] = plane  # over the quiet zones' inner tips
    return out


def render_smb_frame(world: Mapping, labels: Mapping[str, str], *, shot: synth.Shot | None = None,
                     light: float = 1.0, seed: int = 0, arm_tip=None) -> np.ndarray:
    """One camera frame of a World board with its markers, holding `labels`."""
    board = with_markers(render_smb_world(world, labels), world["markers"])
    return synth.photograph(board, shot or synth.tilted(margin=0.06, seed=seed), light=light,
                            arm_tip=arm_tip, rng=np.random.default_rng(seed))


def overlay_spaces(plane: np.ndarray, points: Mapping[Hashable, tuple[float, float]], radius: float,
                   labels: Mapping[Hashable, tuple[str, float]] | None = None) -> np.ndarray:
    """The plane (a camera view or a scan of a board) with every space's disc and id drawn
    over it, and what the reader saw there if `labels` is given: how a person checks a
    traced board file against the real board."""
    out = plane.copy()
    for cell, (x, y) in points.items():
        label, conf = (labels or {}).get(cell, ("", 1.0))
        colour = (0, 200, 0) if label in ("", "empty") else (0, 0, 255) if conf >= 0.6 else (0, 200, 255)
        cv2.circle(out, _pt(x, y), int(radius), colour, 1)
        text = str(cell) + (f" {label} {conf:.2f}" if label and label != "empty" else "")
        cv2.putText(out, text, _pt(x - radius, y - radius - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.3, colour, 1)
    return out
