"""The per-frame vision path on 1280x720 frames of a rendered game, one core, beside a
naive baseline that finds the markers at full resolution on every frame.

    .venv/bin/python bench/vision.py [--game connect4|chess] [--moves N] [--size 1280x720]

Connect 4 plays the solver test set's first game; chess the first moves of Kasparov v
Deep Blue 1997 game 2 (shared/data/pgn), rendered with 3-D pieces. bench/chess_moves.py adds
the time to recognise a chess move from a stable view.

Both paths see the same frames, in one run: the Watcher (vision/watch.py: a small warp
of the playing area for motion, markers searched only when the view may have moved, the
full read only once the grid is still) and the baseline (grey conversion, marker
detection on the whole frame, warp, read, every frame). Rendering is not timed. The last
line is `frame_ms_median=<x> baseline_ms_median=<y>`.
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import locate, markers  # noqa: E402
from controller.demo_rig import render_connect4 as rc  # noqa: E402
from controller.registry import entry  # noqa: E402

# a legal classic game (columns 1-7), the first moves of the solver test set's first line
MOVES = "5554224333234511764415115"


def positions(moves: str) -> list[dict]:
    """Chips stacked column by column, players alternating (no rules needed here)."""
    grid = rc.empty_grid()
    out = [dict(grid)]
    for ply, m in enumerate(moves):
        col = int(m) - 1
        row = next(r for r in range(rc.ROWS) if grid[(col, r)] == "empty")
        grid[(col, row)] = f"p{ply % 2}"
        out.append(dict(grid))
    return out


PGN = Path(__file__).resolve().parents[2] / "shared" / "data" / "pgn" / "kasparov-deep-blue-1997-game2.pgn"


def chess_frames(moves: int, size, seed: int):
    """The start position and the first `moves` plies of a master game, as frames."""
    import chess.pgn

    from controller.demo_rig import render_chess

    game = chess.pgn.read_game(PGN.open())
    board = game.board()

    def position(b):
        return render_chess.Position.from_placement(
            {chess.square_name(sq): p.symbol() for sq, p in b.piece_map().items()})

    out = [position(board)]
    for move in list(game.mainline_moves())[:moves]:
        board.push(move)
        out.append(position(board))
    return out[0].labels, render_chess.render_game(out, camera=render_chess.Camera(size=size, seed=seed), fps=30.0)


def connect4_frames(moves: int, size, seed: int):
    """The empty grid and the first `moves` chips of MOVES, as frames."""
    return rc.empty_grid(), rc.render_game(positions(MOVES[:moves]), size=size, seed=seed)


SCENES = {"connect4": connect4_frames, "chess": chess_frames}  # the rendered games this bench times


def baseline(frame: np.ndarray, det, reader, ids) -> dict | None:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    pts = locate.inner_corners(markers.detect(grey, det), ids)
    if pts is None:
        return None
    w, h = reader.plane_size
    H = locate.plane_homography(pts, [[0, h], [w, h], [w, 0], [0, 0]])
    return reader.read(cv2.warpPerspective(frame, H, (w, h)))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", choices=list(SCENES), default="connect4")
    p.add_argument("--moves", type=int, default=14, help="moves of the rendered game (14 gives ~700 frames)")
    p.add_argument("--size", default="1280x720")
    args = p.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    cv2.setNumThreads(1)
    start, frames = SCENES[args.game](args.moves, size, seed=1)
    watcher = entry(args.game).watcher()
    watcher.learn(start)
    det, reader = markers.detector(), entry(args.game).make_reader()
    ours, base, views = [], [], 0
    for t, frame in frames:
        a = time.perf_counter()
        views += watcher.feed(t, frame) is not None
        b = time.perf_counter()
        baseline(frame, det, reader, entry(args.game).markers)
        c = time.perf_counter()
        ours.append((b - a) * 1000)
        base.append((c - b) * 1000)
    ours_ms, base_ms = np.array(ours), np.array(base)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, cv2.setNumThreads(1)")
    print(f"{args.game}: {len(ours)} frames at {size[0]}x{size[1]}, {args.moves} moves, {views} views read")
    for name, ms in (("watcher ", ours_ms), ("baseline", base_ms)):
        print(f"{name}: median {np.median(ms):6.2f} ms  p90 {np.percentile(ms, 90):6.2f} ms  "
              f"max {ms.max():6.2f} ms  mean {ms.mean():6.2f} ms")
    print(f"frame_ms_median={np.median(ours_ms):.2f} baseline_ms_median={np.median(base_ms):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
