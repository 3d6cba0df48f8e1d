"""Real hands and arms cut out of the scholar's mate video (shared/data/chess-video), to
be pasted still over other boards' views (tests/rig/test_hands_at_rest.py).

Nothing is stored: each cut-out is made at test time. The frame with the hand and a
still frame without it are both warped onto the board's plane with a margin around it
(in squares, so a hand keeps its size against the squares wherever it is pasted); the
pixels that differ between them, the part connected to the margin (an arm reaches in
from outside the board; a piece moved meanwhile elsewhere is left out), are the hand.
"""
from __future__ import annotations

import json
from functools import lru_cache

import cv2
import numpy as np

from shared_data import SHARED_DATA

VIDEO = SHARED_DATA / "chess-video"
Q = 24  # plane pixels per square of a cut-out
MARGIN = 2  # squares of table kept around the board, where the arm comes from
SIDE = (8 + 2 * MARGIN) * Q
# (frame with a hand at rest, a still frame without one, where it reaches in from) in the
# video's board plane (a8 top left, h1 bottom right)
HANDS = {
    "resting": (168, 186),  # a bare forearm and a dark sleeve from rank 1, the hand on c3-d4, at rest
    "reaching": (40, 120),  # a bare forearm from rank 1 over the e-g files, the hand on d3-e4
    "sleeve": (50, 120),  # a dark sleeve and a fist from rank 8 over the a-c files
    "fist": (200, 212),  # a dark sleeve from rank 8, the fist over c6-d7
}


@lru_cache(maxsize=None)
def _frames(indices: tuple) -> dict:
    cap = cv2.VideoCapture(str(VIDEO / "scholarsmate.avi"))
    out, i = {}, 0
    while len(out) < len(indices):
        ok, frame = cap.read()
        if not ok:
            break
        if i in indices:
            out[i] = frame
        i += 1
    cap.release()
    return out


def _to_margin_plane() -> np.ndarray:
    """Frame -> plane-with-margin homography of the video (corners a1, h1, h8, a8)."""
    label = json.loads((VIDEO / "labels.json").read_text())["scholarsmate.avi"]
    a1, h1, h8, a8 = np.float32(label["corners_a1_h1_h8_a8"])
    lo, hi = MARGIN * Q, (MARGIN + 8) * Q
    # plane: a8 top left, h8 top right, h1 bottom right, a1 bottom left
    return cv2.getPerspectiveTransform(np.float32([a1, h1, h8, a8]),
                                       np.float32([[lo, hi], [hi, hi], [hi, lo], [lo, lo]]))


@lru_cache(maxsize=None)
def hand(name: str) -> tuple[np.ndarray, np.ndarray]:
    """(BGR, alpha 0..1) of a real hand on the board plane with its margin (SIDE x SIDE)."""
    with_hand, without = HANDS[name]
    frames = _frames(tuple(sorted((with_hand, without))))
    H = _to_margin_plane()
    a, b = (cv2.warpPerspective(frames[i], H, (SIDE, SIDE)).astype(np.float32) for i in (with_hand, without))
    a *= np.median((b + 1) / (a + 1), axis=(0, 1))  # the camera's exposure followed the arm
    chroma = np.abs(a / (a.sum(axis=2, keepdims=True) + 1) - b / (b.sum(axis=2, keepdims=True) + 1)).sum(axis=2)
    differ = ((np.abs(a - b).sum(axis=2) > 90) | (chroma > 0.12)).astype(np.uint8)
    differ = cv2.morphologyEx(differ, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    differ = cv2.morphologyEx(differ, cv2.MORPH_CLOSE, np.ones((11, 11), np.uint8))
    n, parts, stats, _ = cv2.connectedComponentsWithStats(differ, connectivity=8)
    edge = set(parts[0]) | set(parts[-1]) | set(parts[:, 0]) | set(parts[:, -1])
    keep = [k for k in range(1, n) if k in edge and stats[k, cv2.CC_STAT_AREA] > 2 * Q * Q]
    mask = np.isin(parts, keep).astype(np.uint8)
    # fill the holes a bare arm leaves where its colour matches the light squares
    outside = np.pad(1 - mask, 1, constant_values=1)
    cv2.floodFill(outside, None, (0, 0), 2)
    mask[outside[1:-1, 1:-1] == 1] = 1
    alpha = cv2.GaussianBlur(mask.astype(np.float32), (5, 5), 1.0)
    return np.clip(a, 0, 255).astype(np.uint8), alpha


def _placed(name: str, turn: int, over: str | None):
    """The cut-out turned by `turn` quarter turns (it reaches in from another edge) and,
    with `over`, moved so that its tip (the point of the hand furthest from the edge it
    reaches in from) lies on that square's middle (or on a point (x, y) in squares from
    a8's outer corner, x along rank 8, y down the a-file); the arm still reaches in from
    outside (where it is moved away from its edge, its last row there is drawn on to the
    edge)."""
    bgr, alpha = hand(name)
    if turn:
        bgr, alpha = np.rot90(bgr, turn).copy(), np.rot90(alpha, turn).copy()
    if over is None:
        return bgr, alpha
    ys, xs = np.nonzero(alpha > 0.5)
    sides = {"top": (ys < MARGIN * Q).sum(), "bottom": (ys >= (MARGIN + 8) * Q).sum(),
             "left": (xs < MARGIN * Q).sum(), "right": (xs >= (MARGIN + 8) * Q).sum()}
    side = max(sides, key=sides.get)
    far = {"top": ys, "bottom": -ys, "left": xs, "right": -xs}[side]
    k = int(np.argmax(far))
    tip = np.array([xs[k], ys[k]], float)
    at = (np.array(["abcdefgh".index(over[0]), 8 - int(over[1])], float) + 0.5 if isinstance(over, str)
          else np.array(over, float))
    target = (at + MARGIN) * Q
    shift = target - tip
    M = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
    return (cv2.warpAffine(bgr, M, (SIDE, SIDE), borderMode=cv2.BORDER_REPLICATE),
            cv2.warpAffine(alpha, M, (SIDE, SIDE), borderMode=cv2.BORDER_REPLICATE))


def paste(frame: np.ndarray, corners, name: str, grey: bool = False, turn: int = 0, over: str | None = None,
          light: float = 1.0) -> np.ndarray:
    """`frame` with the hand `name` pasted over the board whose corners (a1, h1, h8, a8,
    frame pixels) are given, placed as `_placed` says; `grey` for a greyscale camera,
    `light` scales its brightness (a dimmer room)."""
    bgr, alpha = _placed(name, turn, over)
    a1, h1, h8, a8 = np.float32(corners)
    lo, hi = MARGIN * Q, (MARGIN + 8) * Q
    H = cv2.getPerspectiveTransform(np.float32([[lo, hi], [hi, hi], [hi, lo], [lo, lo]]),
                                    np.float32([a1, h1, h8, a8]))
    size = frame.shape[1::-1]
    bgr = cv2.warpPerspective(bgr, H, size).astype(np.float32) * light
    alpha = cv2.warpPerspective(alpha, H, size)[..., None]
    if grey:
        bgr = cv2.cvtColor(cv2.cvtColor(np.clip(bgr, 0, 255).astype(np.uint8), cv2.COLOR_BGR2GRAY),
                           cv2.COLOR_GRAY2BGR).astype(np.float32)
    out = frame.astype(np.float32) * (1 - alpha) + bgr * alpha
    return np.clip(out, 0, 255).astype(np.uint8)


def covered_squares(name: str, turn: int = 0, over: str | None = None, share: float = 0.3) -> set:
    """The squares the pasted hand covers at least `share` of (for the tests' asserts)."""
    _, alpha = _placed(name, turn, over)
    inner = alpha[MARGIN * Q:(MARGIN + 8) * Q, MARGIN * Q:(MARGIN + 8) * Q]
    blocks = inner.reshape(8, Q, 8, Q).mean(axis=(1, 3))
    return {f"{'abcdefgh'[c]}{8 - r}" for r in range(8) for c in range(8) if blocks[r, c] >= share}


# after each ply of the chess-rectified sequence (d4 d5 c4 e6 e3), a hand resting over the
# squares it changed: (cut-out, quarter turns, the square its tip lies on)
RECTIFIED_HANDS = [("sleeve", 2, "d3"), ("resting", 2, "d6"), ("resting", 0, "c3"), ("reaching", 2, "e7"),
                   ("resting", 0, "e2")]


def rectified_with_hands(change=None, scale: float = 1.0, light: float = 1.0):
    """The real chess-rectified sequence with real hands at rest, as (frame, seconds held)
    shots: the start clear for 2 s, a sleeve resting over the far corner for 2 s, the
    start clear again; then after every ply a hand resting over the squares it changed
    for 2 s, and the board clear for 2 s. `change(photo, k)` alters the k-th photo of the
    sequence (another camera, a shadow falling), `scale` its size, `light` the hand's
    brightness. Returns (shots, corners a1 h1 h8 a8 in the frame, the plies in UCI)."""
    labels = json.loads((SHARED_DATA / "chess-rectified" / "labels.json").read_text())
    sequence = labels["sequence"]
    corners = np.float32(labels["photos"][sequence["sequence"][0]]["corners_a1_h1_h8_a8"]) * scale
    photos = [cv2.imread(str(SHARED_DATA / "chess-rectified" / name)) for name in sequence["sequence"]]
    photos = [change(p, k) if change else p for k, p in enumerate(photos)]
    shots = [(photos[0], 2.0), (paste(photos[0], corners, "fist", grey=True, over="g7", light=light), 2.0),
             (photos[0], 2.0)]
    for photo, (name, turn, square) in zip(photos[1:], RECTIFIED_HANDS):
        shots += [(paste(photo, corners, name, grey=True, turn=turn, over=square, light=light), 2.0), (photo, 2.0)]
    return shots, corners, sequence["moves"]


# the way each cut-out reaches in unturned: from the rank-1 side (the bottom of its plane)
# or from the rank-8 side (the top)
FROM_TOP = {"sleeve", "fist"}
BEYOND = 0.75  # squares the hand's tip lies past the middle of the cell it rests over
TURN_FROM = {"bottom": 0, "right": 1, "top": 2, "left": 3}  # quarter turns (np.rot90) for a hand from rank 1


def over_cell(watcher, cell, beyond: float = BEYOND) -> tuple[np.ndarray, tuple[float, float], str]:
    """Where a hand lies over `cell` of any game's board the watcher has located: a square
    "hand board" in the frame (corners a1, h1, h8, a8: a chess board's worth of the
    reader's plane, as wide as the plane's shorter side, so a hand keeps its size against
    the board), where its tip goes in its squares (`_placed`'s `over`: `beyond` squares
    past the cell's middle, so the hand itself lies over the cell), and the side of the
    plane the arm reaches in from (the nearest to the cell; the hand board lies along
    it)."""
    w, h = watcher.reader.plane_size
    side = float(min(w, h))
    cx, cy = np.float32(watcher.reader.cell_outline(cell)).mean(axis=0)
    gaps = {"left": cx, "right": w - cx, "top": cy, "bottom": h - cy}
    edge = min(gaps, key=gaps.get)
    x0 = {"left": 0.0, "right": w - side}.get(edge, float(np.clip(cx - side / 2, 0, w - side)))
    y0 = {"top": 0.0, "bottom": h - side}.get(edge, float(np.clip(cy - side / 2, 0, h - side)))
    plane = np.float32([[x0, y0 + side], [x0 + side, y0 + side], [x0 + side, y0], [x0, y0]])
    corners = cv2.perspectiveTransform(plane.reshape(-1, 1, 2), np.linalg.inv(watcher.H)).reshape(-1, 2)
    dx, dy = {"left": (1, 0), "right": (-1, 0), "top": (0, 1), "bottom": (0, -1)}[edge]
    return corners, ((cx - x0) / side * 8 + dx * beyond, (cy - y0) / side * 8 + dy * beyond), edge


def paste_over_cell(frame: np.ndarray, watcher, cell, name: str, light: float = 1.0) -> np.ndarray:
    """`frame` with the hand `name` resting over `cell` of any game's board, its arm
    reaching in from the nearest side of the board (`over_cell`)."""
    corners, at, edge = over_cell(watcher, cell)
    turn = (TURN_FROM[edge] + (2 if name in FROM_TOP else 0)) % 4
    return paste(frame, corners, name, turn=turn, over=at, light=light)


def covered_cells(watcher, cell, name: str, cells, share: float = 0.3) -> set:
    """The cells of `cells` the hand `paste_over_cell` puts over `cell` covers at least
    `share` of (for the tests' asserts)."""
    corners, at, edge = over_cell(watcher, cell)
    turn = (TURN_FROM[edge] + (2 if name in FROM_TOP else 0)) % 4
    _, alpha = _placed(name, turn, at)
    a1, h1, h8, a8 = np.float32(corners)
    lo, hi = MARGIN * Q, (MARGIN + 8) * Q
    to_frame = cv2.getPerspectiveTransform(np.float32([[lo, hi], [hi, hi], [hi, lo], [lo, lo]]),
                                           np.float32([a1, h1, h8, a8]))
    w, h = watcher.reader.plane_size
    on_plane = cv2.warpPerspective(alpha, watcher.H @ to_frame, (int(w), int(h)))
    out = set()
    for c in cells:
        mask = np.zeros(on_plane.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(np.float32(watcher.reader.cell_outline(c))).astype(np.int32), 1)
        if mask.any() and on_plane[mask > 0].mean() >= share:
            out.add(c)
    return out


# a game with hands at rest in many views (issue 27's first held-out category, as near as
# the renderer comes: bench/following.py, tests/rig/test_heldout_wooden.py); the cut-outs
# that rest after a ply, (name, quarter turns) reaching in from the mover's side: White's
# from rank 1, Black's from rank 8
WHITE_HANDS = [("resting", 0), ("reaching", 0), ("sleeve", 2)]
BLACK_HANDS = [("sleeve", 0), ("fist", 0), ("resting", 2)]
SLEEVES = {20: ("fist", "g7"), 50: ("sleeve", "b7")}  # from that position on, for 3: a sleeve from rank 8


def wooden_game_with_hands(positions, sans, camera, fps: float, seed: int, hold: float = 2.0, light: float = 0.5,
                           sleeves: dict = SLEEVES, reach_s: float = 0.0):
    """Frames of a game (render_chess `Position`s, the plies between them in SAN) as a dim
    room's camera gives them: each position rendered once in the "wood" style at `light`
    (drifting a little from move to move) and held `hold` seconds at `fps`, sensor noise
    on every frame; real hands, pasted at the same light, rest still over the board,
    nobody tapping: after every third ply (1, 4, 7, ...) a hand over the square the piece
    went to for the first three quarters of the hold, then the board clear; after every
    sixth ply from the second (2, 8, 14, ...) a hand at the mover's edge of the board, on
    the file the piece went to, for the whole hold; and a sleeve from the far side over a
    far corner for three positions from each of `sleeves`, whatever else happens
    meanwhile. `reach_s`: the hand that rests over a ply's square comes in over the board
    before it for that long and leaves as long (0: it is there with the ply, and gone).
    The board's corners are the camera's (render_chess `corners_in_frame`)."""
    import chess

    from controller.demo_rig import render_chess

    board, to = chess.Board(), []  # the square each ply's piece went to
    for san in sans:
        to.append(chess.square_name(board.push_san(san).to_square))
    corners = render_chess.corners_in_frame(camera)
    rng = np.random.default_rng(seed)
    w, h = camera.size
    bank = rng.normal(0.0, 3.0, (h + 32, w + 32, 3)).astype(np.int16)  # sensor noise, a new crop a frame
    level, before = light, None
    for i, pos in enumerate(positions):
        since = max((k for k in sleeves if k <= i), default=None)
        sleeve = sleeves[since] if since is not None and i - since < 3 else None
        clear = render_chess.render(pos.labels, style="wood", kinds=pos.kinds, camera=camera, light=level, noise=0)
        if sleeve is not None:
            clear = paste(clear, corners, sleeve[0], over=sleeve[1], light=level)
        shots = [(clear, hold)]
        if i:
            k, square = i - 1, to[i - 1]
            name, turn = (WHITE_HANDS if k % 2 == 0 else BLACK_HANDS)[(k // 2) % 3]
            if i % 3 == 1:
                at = np.array(["abcdefgh".index(square[0]), 8 - int(square[1])]) + 0.5
                out = at + (0.0, 10.0 - at[1] if k % 2 == 0 else -2.0 - at[1])  # off the mover's edge
                steps = [(f, 1 / fps) for f in np.linspace(0, 1, round(reach_s * fps) + 2)[1:-1]]  # reach_s long
                shots = ([(paste(before, corners, name, turn=turn, over=tuple(out + f * (at - out)), light=level), s)
                          for f, s in steps]
                         + [(paste(clear, corners, name, turn=turn, over=square, light=level), 0.75 * hold - reach_s)]
                         + [(paste(clear, corners, name, turn=turn, over=tuple(at + f * (out - at)), light=level), s)
                            for f, s in steps]
                         + [(clear, 0.25 * hold - reach_s)])
            elif i % 6 == 2:
                edge = (0.5 + "abcdefgh".index(square[0]), 7.6 if k % 2 == 0 else 0.4)  # its tip over the edge rank
                shots = [(paste(clear, corners, name, turn=turn, over=edge, light=level), hold)]
        for image, seconds in shots:
            for _ in range(round(seconds * fps)):
                dy, dx = rng.integers(0, 32, 2)
                yield np.clip(image.astype(np.int16) + bank[dy:dy + h, dx:dx + w], 0, 255).astype(np.uint8)
        level, before = float(np.clip(level + rng.uniform(-0.04, 0.04), 0.8 * light, 1.15 * light)), clear
