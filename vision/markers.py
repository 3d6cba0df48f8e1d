"""The ArUco markers that tell the referee which board is on the table, and where.

Every board type has its own four markers from OpenCV's DICT_4X4_50 (the ids are part of
the game's entry in controller/registry.py), one per corner of the playing area, so the camera knows the game and the board's position even after the
camera or the board is bumped. The four ids of a board are listed bottom-left,
bottom-right, top-right, top-left (as a player sitting at the board sees it; for chess
that is a1, h1, h8, a8).

Where a marker goes: outside the playing area, diagonally off its corner, so that the
marker's INNER corner (the one pointing at the middle of the board) touches the corner of
the playing area. The size does not matter (3 cm works from a metre away); only that
inner corner is used, so print the sheet at any scale. For Connect 4 the playing area is
the rectangle that just encloses the 42 holes: its corners are the outer edges of the
four corner holes.

`referee markers --game G --out FILE.png` writes a printable sheet with the four markers
of that board, each labelled with the corner it goes on.
"""
from __future__ import annotations

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
CORNER_NAMES = ("bottom-left", "bottom-right", "top-right", "top-left")
# Which corner of a marker's own image (0 top-left, 1 top-right, 2 bottom-right,
# 3 bottom-left, the order detectMarkers reports) points at the playing area when the
# marker is stuck on upright, in each corner position BL, BR, TR, TL.
INNER_CORNER = (1, 0, 3, 2)


def dictionary():
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def detector() -> cv2.aruco.ArucoDetector:
    return cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())


def marker_image(marker_id: int, px: int, quiet: int | None = None) -> np.ndarray:
    """One marker as a grey image with a white quiet zone (`quiet` px, default px/6)
    around it, which the detector needs to see the black border."""
    quiet = px // 6 if quiet is None else quiet
    img = cv2.aruco.generateImageMarker(dictionary(), marker_id, px)
    return cv2.copyMakeBorder(img, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)


def detect(grey: np.ndarray, det: cv2.aruco.ArucoDetector | None = None) -> dict[int, np.ndarray]:
    """Marker id -> its four corners (4x2 float32, image pixels) for every marker seen."""
    corners, ids, _ = (det or detector()).detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners)}


def sheet(board: str, ids, px: int = 600) -> np.ndarray:
    """A printable page for `board` (its name, as printed): its four markers `ids` (BL,
    BR, TR, TL) in a 2x2 layout, as they sit around the playing area, each with its id
    and the corner it goes on."""
    ids = tuple(ids)
    cell_w, cell_h = px + 200, px + 260
    page = np.full((2 * cell_h + 160, 2 * cell_w), 255, np.uint8)
    cv2.putText(page, f"{board}: stick each marker diagonally outside its corner of the playing area,",
                (40, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 0, 2, cv2.LINE_AA)
    cv2.putText(page, "its inner corner (arrow) touching that corner. Any size; keep them flat.",
                (40, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.1, 0, 2, cv2.LINE_AA)
    # page layout: top row TL, TR; bottom row BL, BR
    slots = {3: (0, 0), 2: (0, 1), 0: (1, 0), 1: (1, 1)}
    for pos, (row, col) in slots.items():
        img = marker_image(ids[pos], px, quiet=40)
        x0, y0 = col * cell_w + 60, 160 + row * cell_h + 40
        page[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] = img
        inner = np.array([[0, 0], [px, 0], [px, px], [0, px]][INNER_CORNER[pos]]) + (x0 + 40, y0 + 40)
        centre = np.array([x0 + 40 + px // 2, y0 + 40 + px // 2])
        # an arrow outside the marker pointing at its inner corner
        start, tip = inner + (inner - centre) * 0.18, inner + (inner - centre) * 0.03
        cv2.arrowedLine(page, tuple(int(v) for v in start), tuple(int(v) for v in tip), 0, 5,
                        cv2.LINE_AA, tipLength=0.4)
        cv2.putText(page, f"id {ids[pos]}: {CORNER_NAMES[pos]} corner", (x0, y0 + px + 130),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.3, 0, 3, cv2.LINE_AA)
    return page
