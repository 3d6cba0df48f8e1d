"""What a camera does to a board: the shared part of every game's renderer.

A game's renderer draws its board flat, seen from straight above or in front, in
"plane" pixels (where the board's playing area is a known rectangle). `photograph`
then puts that plane into a camera frame in perspective, under a light level, with a
hand and arm over it if asked, sensor noise and blur. Renderers are a tool for the demo
and the tests; they are never the judge of a reader (the real photos in shared/data are).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import markers

from ..registry import entry

SKIN = (120, 160, 215)  # BGR
SLEEVE = (90, 60, 40)


@dataclass(frozen=True)
class Shot:
    """Where the camera sees the plane: the plane's four corners (top-left, top-right,
    bottom-right, bottom-left of the plane image) in the frame, and the frame size."""

    corners: tuple[tuple[float, float], ...]
    size: tuple[int, int] = (1280, 720)  # width, height

    def homography(self, plane_shape) -> np.ndarray:
        h, w = plane_shape[:2]
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        return cv2.getPerspectiveTransform(src, np.float32(self.corners))


def place_markers(plane: np.ndarray, board: str, box: tuple[int, int, int, int], px: int, quiet: int) -> None:
    """Stick `board`'s four markers on `plane` (in place) as a user does (hardware.md):
    diagonally outside the corners of the playing area `box` (left, top, right, bottom),
    each marker's inner corner touching its corner: BL, BR, TR, TL."""
    left, top, right, bottom = box
    for marker_id, (x, y) in zip(entry(board).markers,
                                 [(left - px, bottom), (right, bottom), (right, top - px), (left - px, top - px)]):
        img = markers.marker_image(marker_id, px, quiet)
        plane[y - quiet:y - quiet + img.shape[0], x - quiet:x - quiet + img.shape[1]] = img[:, :, None]


def tilted(size=(1280, 720), margin=0.12, tilt=0.10, seed: int | None = None) -> Shot:
    """A shot of a plane filling the frame less a margin, its far edge narrowed by
    `tilt` (a camera looking down at an angle), jittered a little by `seed`."""
    w, h = size
    rng = np.random.default_rng(seed)
    mx, my = w * margin, h * margin * 0.6
    far = w * tilt
    pts = [(mx + far, my), (w - mx - far, my), (w - mx, h - my), (mx, h - my)]
    if seed is not None:
        pts = [(x + rng.uniform(-8, 8), y + rng.uniform(-8, 8)) for x, y in pts]
    return Shot(tuple(pts), size)


def arm_polygon(tip: tuple[float, float], size: tuple[int, int], width: float = 90.0,
                from_edge: str = "bottom") -> np.ndarray:
    """An arm reaching from a frame edge to `tip` (the fingertips), as a polygon."""
    w, h = size
    tx, ty = tip
    base = {"bottom": (tx * 0.7 + w * 0.15, h + 40), "top": (tx, -40),
            "left": (-40, ty), "right": (w + 40, ty)}[from_edge]
    d = np.array([tx - base[0], ty - base[1]], float)
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9)
    half = width / 2
    pts = [np.array(base) + n * half * 1.3, np.array(tip) + n * half,
           np.array(tip) + d / (np.linalg.norm(d) + 1e-9) * half * 0.8,
           np.array(tip) - n * half, np.array(base) - n * half * 1.3]
    return np.int32(pts)


def draw_arm(frame: np.ndarray, tip: tuple[float, float], from_edge: str = "bottom",
             light: float = 1.0) -> None:
    """Paint a sleeve and hand reaching from a frame edge to `tip`, in place. `light`
    scales its colours, for drawing onto a frame that is already lit."""
    h, w = frame.shape[:2]
    poly = arm_polygon(tip, (w, h), from_edge=from_edge)
    sleeve, skin = (tuple(float(c) * light for c in col) for col in (SLEEVE, SKIN))
    cv2.fillPoly(frame, [poly[[0, 1, 3, 4]]], sleeve)
    cv2.fillPoly(frame, [poly[1:4]], skin)
    cv2.circle(frame, (int(tip[0]), int(tip[1])), 40, skin, -1)


def photograph(plane: np.ndarray, shot: Shot, *, background: tuple[int, int, int] = (70, 80, 90),
               light: float = 1.0, noise: float = 3.0, blur: float = 0.8,
               arm_tip: tuple[float, float] | None = None, overlay=None,
               rng: np.random.Generator | None = None, arm_from: str = "bottom") -> np.ndarray:
    """Render `plane` (BGR uint8) as the camera would see it in `shot`.

    `overlay(frame)` may draw things standing up off the plane (pieces) in frame
    coordinates before the arm, which is drawn last because it is nearest the camera;
    `arm_from` is the frame edge it reaches in from ("bottom", "top", "left", "right").
    """
    rng = rng or np.random.default_rng(0)
    w, h = shot.size
    frame = np.empty((h, w, 3), np.uint8)
    frame[:] = background
    # a faint gradient so the background is not a flat colour
    frame = cv2.add(frame, np.linspace(0, 30, w, dtype=np.uint8)[None, :, None].repeat(h, 0).repeat(3, 2))
    H = shot.homography(plane.shape)
    cv2.warpPerspective(plane, H, (w, h), dst=frame, borderMode=cv2.BORDER_TRANSPARENT,
                        flags=cv2.INTER_LINEAR)
    if overlay is not None:
        overlay(frame)
    if arm_tip is not None:
        draw_arm(frame, arm_tip, arm_from)
    out = frame.astype(np.float32) * light
    if noise:
        out += rng.normal(0.0, noise, out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if blur:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    return out
