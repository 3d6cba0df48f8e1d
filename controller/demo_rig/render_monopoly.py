"""A Monopoly The Super Mario Bros. Movie board as a camera sees it, for the demo and tests.

The board is drawn with the reader's geometry (vision/read_monopoly.space_box: GO in the
bottom-right corner, play running clockwise along the bottom to Jail, up the left side to
Free Parking, along the top to Go to Jail, down the right side), here with the stand-in's
equal corners. A location carries its colour set's band on the edge facing the middle.
The four Monopoly ArUco markers sit diagonally off the board's outer corners
(vision/markers.py).

Tokens are flat discs of a token's colour with a dark rim, Bowser a larger dark disc with
an orange shell; several tokens on one space share it in a 2 x 2 layout. Labels are what
`Monopoly.board` gives: {space: "empty" | "p0" | "bowser+p2" ...}. Vision imports no
game code, so the space kinds and set colours a drawing needs are passed in (the demo
and tests read them from the board file).
"""
from __future__ import annotations

import cv2
import numpy as np

from . import synth
from vision.read_monopoly import CORNER, space_box

CELL = 44  # plane pixels per space
MARKER_PX = 48
QUIET = 8
BORDER = MARKER_PX + 2 * QUIET + 8
SIDE = round(CELL / CORNER)  # the board square: 11 spaces a side
PLANE = SIDE + 2 * BORDER
TABLE = (96, 118, 84)  # BGR, green baize around the board
CENTRE = (226, 236, 240)
SET_COLOURS = {"brown": (40, 70, 120), "light blue": (235, 200, 140), "pink": (170, 90, 220),
               "orange": (30, 140, 245), "red": (40, 40, 210), "yellow": (40, 215, 245),
               "green": (70, 160, 40), "dark blue": (140, 50, 20)}
KIND_COLOURS = {"go": (210, 230, 210), "jail": (150, 190, 235), "free_parking": (200, 215, 235),
                "go_to_jail": (160, 170, 225), "question_block": (120, 210, 245),
                "bowser_fury": (110, 120, 200), "piranha_plant": (150, 200, 150),
                "super_star": (150, 235, 250), "warp_pipe": (110, 190, 110), "location": (225, 232, 236)}
TOKEN_COLOURS = {"p0": (40, 30, 215), "p1": (50, 165, 40), "p2": (190, 120, 245), "p3": (230, 160, 60),
                 "p4": (30, 80, 140), "p5": (60, 220, 170)}
BOWSER = ((40, 45, 55), (20, 120, 240))  # body, shell


def space_rect(index: int) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 of a space in this drawing's plane pixels."""
    x0, y0, x1, y1 = space_box(index, SIDE, CORNER)
    return (int(round(BORDER + x0)), int(round(BORDER + y0)), int(round(BORDER + x1)), int(round(BORDER + y1)))


def _inward(index: int) -> tuple[int, int]:
    """Unit step from a space towards the middle of the board."""
    return [(0, -1), (1, 0), (0, 1), (-1, 0)][index // 10]


def draw_board(kinds: list[str], sets: list[str | None]) -> np.ndarray:
    """The empty board, flat, in plane pixels. `kinds` and `sets` per space index."""
    if len(kinds) != 40 or len(sets) != 40:
        raise ValueError(f"render_monopoly: expected 40 space kinds and sets, got {len(kinds)} and {len(sets)}")
    plane = np.empty((PLANE, PLANE, 3), np.uint8)
    plane[:] = TABLE
    cv2.rectangle(plane, (BORDER, BORDER), (BORDER + SIDE - 1, BORDER + SIDE - 1), CENTRE, -1)
    for i in range(40):
        x0, y0, x1, y1 = space_rect(i)
        cv2.rectangle(plane, (x0, y0), (x1 - 1, y1 - 1), KIND_COLOURS.get(kinds[i], CENTRE), -1)
        if sets[i] in SET_COLOURS and i % 10:
            dx, dy = _inward(i)
            band = CELL // 4
            bx0 = x1 - band if dx > 0 else x0
            by0 = y1 - band if dy > 0 else y0
            bx1 = x0 + band if dx < 0 else x1
            by1 = y0 + band if dy < 0 else y1
            if dx == 0:
                bx0, bx1 = x0, x1
            if dy == 0:
                by0, by1 = y0, y1
            cv2.rectangle(plane, (bx0, by0), (bx1 - 1, by1 - 1), SET_COLOURS[sets[i]], -1)
        cv2.rectangle(plane, (x0, y0), (x1 - 1, y1 - 1), (60, 60, 60), 1)
    synth.place_markers(plane, "monopoly", (BORDER, BORDER, BORDER + SIDE, BORDER + SIDE), MARKER_PX, QUIET)
    return plane


def _spots(tokens: list[str]) -> list[tuple[str, float, float, float]]:
    """(token, x, y, size) of the pieces on a space, in drawing order (x, y fractions of
    the space): one in the middle, up to four in its quarters; beyond four (Bowser on a
    crowded GO, a start with five or six players) the others are put between them,
    smaller, on top, Bowser last: each still in sight, as on a real crowded space."""
    if len(tokens) == 1:
        return [(tokens[0], 0.5, 0.5, 1.0)]
    if len(tokens) <= 4:
        return [(t, x, y, 1.0) for t, (x, y) in zip(sorted(tokens), ((0.3, 0.3), (0.7, 0.7), (0.7, 0.3), (0.3, 0.7)))]
    order = sorted(tokens, key=lambda t: (t == "bowser", t))
    spots = ((0.3, 0.3, 1.0), (0.7, 0.7, 1.0), (0.7, 0.3, 1.0), (0.3, 0.7, 1.0),
             (0.5, 0.5, 0.6), (0.5, 0.12, 0.5), (0.5, 0.88, 0.5))
    return [(t, x, y, size) for t, (x, y, size) in zip(order, spots)]


def draw_tokens(plane: np.ndarray, labels: dict, colours: dict | None = None) -> np.ndarray:
    """The board with the tokens of `labels` on it (a copy); `colours` may replace the
    tokens' BGR colours."""
    colours = {**TOKEN_COLOURS, **(colours or {})}
    out = plane.copy()
    for space, label in labels.items():
        tokens = [t for t in str(label).split("+") if t and t != "empty"]
        x0, y0, _, _ = space_rect(int(space))
        for token, fx, fy, size in _spots(tokens):
            centre = (int(x0 + fx * CELL), int(y0 + fy * CELL))
            if token == "bowser":
                cv2.circle(out, centre, int(CELL * 0.3 * size), BOWSER[0], -1, cv2.LINE_AA)
                cv2.circle(out, centre, int(CELL * 0.17 * size), BOWSER[1], -1, cv2.LINE_AA)
            elif token in colours:
                cv2.circle(out, centre, int(CELL * 0.22 * size), (30, 30, 30), -1, cv2.LINE_AA)
                cv2.circle(out, centre, int(CELL * 0.18 * size), colours[token], -1, cv2.LINE_AA)
            else:
                raise ValueError(f"render_monopoly: unknown token {token!r} on space {space}")
    return out


def render(labels: dict, kinds: list[str], sets: list[str | None], shot: synth.Shot | None = None,
           light: float = 1.0, seed: int = 0, arm_tip=None, colours: dict | None = None) -> np.ndarray:
    """One camera frame of the board with the tokens of `labels`."""
    plane = draw_tokens(draw_board(kinds, sets), labels, colours)
    shot = shot or synth.tilted(margin=0.05, tilt=0.06, size=(1280, 960), seed=seed)
    return synth.photograph(plane, shot, light=light, arm_tip=arm_tip, rng=np.random.default_rng(seed))
