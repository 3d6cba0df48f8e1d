"""Recognising a chess move from a stable view, on one core: the square reader plus the
referee's match against the legal moves, beside the per-frame path and a naive match.

    .venv/bin/python bench/chess_moves.py [--plies N] [--style mario|wood]

The positions are a real master game (shared/data/pgn), rendered (not timed), warped by
the Watcher's homography from the board's markers. For every ply: `read` is
SquareReader.read on the warped board, `match` is Referee.observe on the view (one ply
since the last view), `quick` the same for a view two plies on (a quick reply), and
`naive` a straightforward match: for each legal move, copy the python-chess board with
its move stack, push the move, list the 64 squares, compare. `frame` is Watcher.feed on
a still frame (what every frame costs while nothing moves). The last line is
`recognise_ms_median=<read+match> frame_ms_median=<x> naive_match_ms_median=<y>`.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import chess  # noqa: E402
import chess.pgn  # noqa: E402
import cv2  # noqa: E402

from controller.journal import Journal  # noqa: E402
from controller.referee import Referee  # noqa: E402
from controller.demo_rig.render_chess import Camera, Position, render  # noqa: E402
from vision.view import BoardView  # noqa: E402
from controller.registry import entry  # noqa: E402

PGN = Path(__file__).resolve().parents[2] / "shared" / "data" / "pgn" / "kasparov-deep-blue-1997-game2.pgn"


def position(board: chess.Board) -> Position:
    return Position.from_placement({chess.square_name(sq): p.symbol() for sq, p in board.piece_map().items()})


def naive_match(board: chess.Board, seen: dict) -> list[chess.Move]:
    found = []
    for move in board.legal_moves:
        after = board.copy()
        after.push(move)
        labels = {}
        for sq in chess.SQUARES:
            piece = after.piece_at(sq)
            labels[chess.square_name(sq)] = "empty" if piece is None else "p0" if piece.color else "p1"
        if all(labels[c] == lab for c, lab in seen.items()):
            found.append(move)
    return found


def ms(f) -> tuple[float, object]:
    t = time.perf_counter()
    out = f()
    return (time.perf_counter() - t) * 1000, out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--plies", type=int, default=89)
    p.add_argument("--style", default="mario", choices=["mario", "wood"])
    args = p.parse_args()
    cv2.setNumThreads(1)

    game = chess.pgn.read_game(PGN.open())
    moves = list(game.mainline_moves())[:args.plies]
    board = chess.Board()
    camera = Camera(seed=3)
    watcher = entry("chess").watcher()
    start = position(board)
    first = render(start.labels, style=args.style, kinds=start.kinds, camera=camera)
    watcher.read_frame(first)  # finds the markers
    watcher.learn(start.labels)
    watcher.read_frame(first)  # learns the start position
    size = tuple(watcher.reader.plane_size)

    def plane_of(b: chess.Board):
        pos = position(b)
        frame = render(pos.labels, style=args.style, kinds=pos.kinds, camera=camera)
        return cv2.warpPerspective(frame, watcher.H, size, flags=cv2.INTER_LINEAR), frame

    planes, frames = [], []
    for move in moves:
        board.push(move)
        plane, frame = plane_of(board)
        planes.append(plane)
        frames.append(frame)

    referee = Referee(Journal(":memory:"))
    referee.new_game("chess")
    quick_ref = Referee(Journal(":memory:"))
    quick_ref.new_game("chess")
    read_ms, match_ms, quick_ms, naive_ms = [], [], [], []
    shadow = chess.Board()
    for i, (move, plane) in enumerate(zip(moves, planes)):
        t_read, cells = ms(lambda: watcher.reader.read(plane))
        view = BoardView(cells)
        t_naive, _ = ms(lambda: naive_match(shadow, view.labels(0.6)))
        t_match, event = ms(lambda: referee.observe(view))
        if event is None or event.kind != "move":
            print(f"ply {i + 1}: not recognised ({event and event.data})", file=sys.stderr)
            return 1
        read_ms.append(t_read)
        match_ms.append(t_match)
        naive_ms.append(t_naive)
        shadow.push(move)
        if i % 2 == 1:  # every second view holds two plies: a quick reply
            t_quick, event = ms(lambda: quick_ref.observe(view))
            if event is None or len(quick_ref.history) != i + 1:
                print(f"ply {i + 1}: quick reply not recognised", file=sys.stderr)
                return 1
            quick_ms.append(t_quick)

    frame_ms = []
    still = frames[-1]
    for k in range(60):
        t_frame, _ = ms(lambda: watcher.feed(100.0 + k * 0.1, still))
        frame_ms.append(t_frame)

    med = statistics.median
    recognise = [r + m for r, m in zip(read_ms, match_ms)]
    print(f"machine: {platform.machine()}, Python {platform.python_version()}, one OpenCV thread")
    print(f"{len(moves)} plies of {PGN.name}, {args.style} style, {size[0]}x{size[1]} plane, "
          f"{camera.size[0]}x{camera.size[1]} frames")
    print(f"read  (SquareReader.read)           median {med(read_ms):6.2f} ms   max {max(read_ms):6.2f}")
    print(f"match (Referee.observe, one ply)    median {med(match_ms):6.2f} ms   max {max(match_ms):6.2f}")
    print(f"match, quick reply (two plies)      median {med(quick_ms):6.2f} ms   max {max(quick_ms):6.2f}")
    print(f"naive match (board copies)          median {med(naive_ms):6.2f} ms   max {max(naive_ms):6.2f}")
    print(f"recognise a move (read + match)     median {med(recognise):6.2f} ms   max {max(recognise):6.2f}")
    print(f"per frame (Watcher.feed, still)     median {med(frame_ms):6.2f} ms")
    print(f"recognise_ms_median={med(recognise):.2f} frame_ms_median={med(frame_ms):.2f} "
          f"naive_match_ms_median={med(naive_ms):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
