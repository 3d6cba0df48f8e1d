"""Labyrinth speed: reachability and a push (target: under 1 ms each), beside naive
baselines, and what a camera view costs (matching, reading, naming pictures).

    .venv/bin/python bench/labyrinth.py

Figures are medians over many runs on one core (OpenCV set to one thread), on mazes
from seeded shuffles. The baselines are the first thing one might write:
- reachability: sweep all 49 cells again and again, adding every open neighbour of a
  reached cell, until a sweep adds nothing (instead of a breadth-first search);
- a push: deep-copy the whole state as nested lists and dicts, shift the line, then
  move the pawns (instead of rebuilding one tuple).
"""
import copy
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402

from controller.games.labyrinth.actions import MovePawn, Push  # noqa: E402
from controller.games.labyrinth.maze import ARROWS, NEIGHBOURS, SIZE, Tile, push_tiles, reachable  # noqa: E402
from controller.games.labyrinth.rules import Labyrinth  # noqa: E402
from controller.journal import Journal  # noqa: E402
from controller.referee import Referee  # noqa: E402
from controller.registry import entry  # noqa: E402
from vision import locate  # noqa: E402
from controller.demo_rig import render_labyrinth as R  # noqa: E402
from vision.read_tiles import TileReader  # noqa: E402
from vision.treasures import Catalogue, find_pictures  # noqa: E402
from vision.view import BoardView  # noqa: E402


def timed(fn, runs: int) -> float:
    """Median wall time of one call, in microseconds."""
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out) * 1e6


def naive_reachable(tiles, start):
    seen = {start}
    changed = True
    while changed:
        changed = False
        for i in range(SIZE * SIZE):
            if i not in seen:
                continue
            for bit, j, back in NEIGHBOURS[i]:
                if tiles[i].sides & bit and tiles[j].sides & back and j not in seen:
                    seen.add(j)
                    changed = True
    return seen


def naive_push(state: dict, arrow: str) -> dict:
    new = copy.deepcopy(state)
    line = ARROWS[arrow]
    grid = new["grid"]
    cells = [divmod(i, SIZE) for i in line]
    out = grid[cells[-1][0]][cells[-1][1]]
    for k in range(SIZE - 1, 0, -1):
        r, c = cells[k]
        pr, pc = cells[k - 1]
        grid[r][c] = copy.deepcopy(grid[pr][pc])
    grid[cells[0][0]][cells[0][1]] = new["spare"]
    new["spare"] = out
    for pawn in new["pawns"]:
        if (pawn["row"], pawn["col"]) in cells:
            k = cells.index((pawn["row"], pawn["col"]))
            pawn["row"], pawn["col"] = cells[(k + 1) % SIZE]
    return new


def main() -> None:
    cv2.setNumThreads(1)
    game = Labyrinth()
    states = [game.start(game.new_setup(random.Random(seed))) for seed in range(20)]
    # long passages: let each maze be pushed about for a while first
    rng = random.Random(1)
    for k, s in enumerate(states):
        for _ in range(30):
            s = game.apply(s, rng.choice(game.legal_actions(s)))
        states[k] = s
    print("Labyrinth speed (median, one core)")
    print(f"{'':36}{'this code':>12}{'baseline':>12}")

    fast = statistics.median(timed(lambda s=s: reachable(s.tiles, s.pawns[0]), 200) for s in states)
    slow = statistics.median(timed(lambda s=s: naive_reachable(s.tiles, s.pawns[0]), 200) for s in states)
    sizes = [len(reachable(s.tiles, s.pawns[0])) for s in states]
    print(f"{'reachability, played mazes':36}{fast:>10.1f}us{slow:>10.1f}us   "
          f"(reached {min(sizes)}-{max(sizes)} cells)")
    open_maze = (Tile(0xF),) * (SIZE * SIZE)  # every side open: all 49 cells, every link
    fast = timed(lambda: reachable(open_maze, 0), 500)
    slow = timed(lambda: naive_reachable(open_maze, 0), 500)
    print(f"{'reachability, all 49 cells open':36}{fast:>10.1f}us{slow:>10.1f}us")

    s = states[0]
    nested = {"grid": [[{"sides": t.sides, "treasure": t.treasure} for t in s.tiles[r * SIZE:(r + 1) * SIZE]]
                       for r in range(SIZE)],
              "spare": {"sides": s.spare.sides, "treasure": s.spare.treasure},
              "pawns": [{"row": p // SIZE, "col": p % SIZE} for p in s.pawns]}
    fast = timed(lambda: push_tiles(s.tiles, s.spare, "N4", s.pawns), 2000)
    slow = timed(lambda: naive_push(nested, "N4"), 2000)
    print(f"{'a push (tiles, spare, pawns)':36}{fast:>10.1f}us{slow:>10.1f}us")
    whole = timed(lambda: game.apply(s, Push("N4", 1)), 2000)
    print(f"{'a push through Game.apply':36}{whole:>10.1f}us")

    # the camera side: matching one view (a push and a pawn move in it: two actions deep)
    ref = Referee(Journal(":memory:"))
    for seed in range(100):  # a deal where red can walk somewhere after a push at W4
        ref.new_game("labyrinth", setup=game.new_setup(random.Random(seed)))
        after = game.apply(ref.state, Push("W4", 0))
        moves = [a for a in game.legal_actions(after) if isinstance(a, MovePawn)]
        if moves:
            break
    after = game.apply(after, moves[-1])
    view = BoardView({k: (v, 1.0) for k, v in game.board(after).items()})
    t = time.perf_counter()
    ref.observe(view)
    match_us = (time.perf_counter() - t) * 1e6
    print(f"{'matching a view (push + move)':36}{match_us:>10.0f}us   -> {', '.join(ref.history)}")

    reader = TileReader()
    shot = R.camera_shot(seed=1)
    frame = R.render(game.snapshot(states[0]), shot=shot)
    pts = locate.find_markers(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), entry("labyrinth").markers)
    warp = locate.plane_homography(pts, reader.anchors)
    plane = cv2.warpPerspective(frame, warp, reader.plane_size)
    reader.learn(plane, game.board(states[0]))
    warp_us = timed(lambda: cv2.warpPerspective(frame, warp, reader.plane_size), 50)
    read_us = timed(lambda: reader.read(plane), 50)
    print(f"{'warp 1280x720 -> 280x280 plane':36}{warp_us:>10.0f}us")
    print(f"{'read 49 tiles + 4 pawns':36}{read_us:>10.0f}us")
    pictures = find_pictures(plane, reader)
    cat = Catalogue()
    truth = {divmod(i, SIZE): t.treasure for i, t in enumerate(states[0].tiles) if t.treasure}
    for cell, pic in pictures.items():
        cat.enrol(pic, truth[cell])
    one = next(iter(pictures.values()))
    name_us = timed(lambda: cat.recognise(one), 20)
    print(f"{'name one picture (catalogue of %d)' % len(cat):36}{name_us:>10.0f}us")


if __name__ == "__main__":
    main()
