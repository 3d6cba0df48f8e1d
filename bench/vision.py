"""The per-frame vision path on 1280x720 frames of a rendered Connect 4 game, one core,
beside a naive baseline that finds the markers at full resolution on every frame.

    .venv/bin/python bench/vision.py [--moves N] [--size 1280x720]

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
from vision import render_connect4 as rc  # noqa: E402
from vision.read_holes import HoleReader  # noqa: E402
from vision.watch import Watcher  # noqa: E402

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


def baseline(frame: np.ndarray, det, reader: HoleReader) -> dict | None:
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    pts = locate.inner_corners(markers.detect(grey, det), "connect4")
    if pts is None:
        return None
    w, h = reader.plane_size
    H = locate.plane_homography(pts, [[0, h], [w, h], [w, 0], [0, 0]])
    return reader.read(cv2.warpPerspective(frame, H, (w, h)))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=14, help="moves of the rendered game (14 gives ~700 frames)")
    p.add_argument("--size", default="1280x720")
    args = p.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    cv2.setNumThreads(1)
    watcher = Watcher("connect4")
    watcher.learn(rc.empty_grid())
    det, reader = markers.detector(), HoleReader()
    ours, base, views = [], [], 0
    for t, frame in rc.render_game(positions(MOVES[:args.moves]), size=size, seed=1):
        a = time.perf_counter()
        views += watcher.feed(t, frame) is not None
        b = time.perf_counter()
        baseline(frame, det, reader)
        c = time.perf_counter()
        ours.append((b - a) * 1000)
        base.append((c - b) * 1000)
    ours_ms, base_ms = np.array(ours), np.array(base)
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"OpenCV {cv2.__version__}, cv2.setNumThreads(1)")
    print(f"frames: {len(ours)} at {size[0]}x{size[1]}, {args.moves} moves, {views} views read")
    for name, ms in (("watcher ", ours_ms), ("baseline", base_ms)):
        print(f"{name}: median {np.median(ms):6.2f} ms  p90 {np.percentile(ms, 90):6.2f} ms  "
              f"max {ms.max():6.2f} ms  mean {ms.mean():6.2f} ms")
    print(f"frame_ms_median={np.median(ours_ms):.2f} baseline_ms_median={np.median(base_ms):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
