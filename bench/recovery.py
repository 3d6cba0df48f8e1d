"""Lost and found, beside a baseline: a real game (Nepomniachtchi-Ding 2023, 30 plies)
seen as labelled views (tests/support.py Camera: each position held 2 s, read plainly),
the camera blind for 3, 5 and 8 plies twice, and the Fried Liver (a knight that moves
twice and captures, 6 and 4 plies lost), with the hand motions counted or not; the code
of another git revision (by default c22d268, before the walk's tighter bound) measured
the same way in the same run.

    .venv/bin/python bench/recovery.py [--baseline REV | --no-baseline]

Per sequence: the positions the camera saw that the record reaches, alarms, recoveries
said, and the work of a view: CPU milliseconds in `Referee.observe` (median, worst) and,
for this tree, the boards the walk tried on the views that needed it (controller/recovery.py
`found_again`: most, and its bound NODES). One core.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "c22d268"  # main before stop 34's walk changes (the oldest tree whose tests/support.py has master_game)
FRIED_LIVER = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5", "exd5", "Nxd5", "Nxf7", "Kxf7", "Qf3+", "Ke6"]
SEQUENCES = {  # name: (plies, {ply index: plies lost from it}, motions counted, the Fried Liver)
    **{f"master game, {n} plies lost twice{m}": (30, {4: n, 16: n}, bool(m), False)
       for n in (3, 5, 8) for m in ("", ", motions counted")},
    "Fried Liver, 6 and 4 plies lost, motions counted": (14, {2: 6, 8: 4}, True, True),
}


def measure() -> dict:
    # the labelled views of the measured tree's own test helpers (its Camera speaks its
    # BoardView), so the driving loop is written here, not taken from either tree's tests
    # (its master game and placement are: both trees' tests/support.py have them)
    sys.path[:0] = [str(ROOT / "tests")]
    import chess

    from controller.journal import Journal
    from support import Camera, master_game, placement, referee_on

    try:
        from controller import recovery
    except ImportError:
        recovery = None
    out = {}
    for name, (plies, lost, motions, fried) in SEQUENCES.items():
        sans = FRIED_LIVER if fried else master_game(plies)
        walked: list = []
        if recovery is not None:
            found_again = recovery.found_again

            def counted(*args, **kw):
                lines, nodes = found_again(*args, **kw)
                walked.append(nodes)
                return lines, nodes
            recovery.found_again = counted
        referee, events = referee_on(Journal(":memory:"))
        work = []
        observe = referee.observe

        def timed(view):
            t0 = time.process_time()
            try:
                return observe(view)
            finally:
                work.append((time.process_time() - t0) * 1000)
        referee.observe = timed
        referee.new_game("chess")
        board, camera = chess.Board(), Camera(referee)
        camera.show(board, motions=0 if motions else None)
        i, seen = 0, []
        while i < len(sans):
            n = lost.get(i, 1)
            for san in sans[i:i + n]:
                board.push_san(san)
            camera.lose(2.0 * (n - 1))
            i += n
            seen.append(i)
            camera.show(board, motions=n if motions else None)
        referee.settle()
        if recovery is not None:
            recovery.found_again = found_again
        reached = sum(i <= len(referee.history) and placement(referee.history[:i]) == placement(sans[:i])
                      for i in seen)
        out[name] = {"seen": len(seen), "reached": reached, "right": placement(referee.history) == placement(sans)
                     and len(referee.history) == len(sans),
                     "alarms": sum(e.kind == "illegal" for e in events),
                     "recovered": sum(e.kind == "recovered" for e in events),
                     "ms_median": statistics.median(work), "ms_max": max(work),
                     "nodes": max(walked, default=None), "walks": len(walked)}
    return out


def run_measure(code: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(code)}
    run = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure", str(code)], cwd=code, env=env,
                         capture_output=True, text=True, timeout=3600)
    if run.returncode != 0:
        raise SystemExit(f"recovery: measuring {code} failed:\n{run.stderr[-2000:]}")
    return json.loads(run.stdout.splitlines()[-1])


def text(m: dict) -> str:
    nodes = "" if m["nodes"] is None else f", walk: {m['walks']} views, {m['nodes']} boards at most"
    return (f"{m['reached']:>2}/{m['seen']:<2} positions reached{' ' if m['right'] else '*'} "
            f"alarms {m['alarms']:<2} recovered {m['recovered']:<2} "
            f"observe {m['ms_median']:.1f} ms median, {m['ms_max']:.0f} ms worst{nodes}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", default=BASELINE, help="git revision measured beside this tree (default %(default)s)")
    p.add_argument("--no-baseline", action="store_true")
    p.add_argument("--measure", default=None, help=argparse.SUPPRESS)  # the child's job: the code's folder
    args = p.parse_args()
    if args.measure:
        global ROOT
        ROOT = Path(args.measure)
        sys.path[0] = str(ROOT)  # the code under test, not bench/
        print(json.dumps(measure()))
        return 0
    from real_boards import export  # bench/real_boards.py, beside this script: the baseline's code

    sys.path[0] = str(ROOT)  # this tree's controller, not bench/vision.py
    from controller.recovery import NODES
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
          f"{platform.python_version()}; NODES {NODES}")
    t0 = time.perf_counter()
    runs = {"this tree": run_measure(ROOT)}
    if not args.no_baseline:
        with tempfile.TemporaryDirectory() as tmp:
            runs[f"baseline {args.baseline}"] = run_measure(export(args.baseline, Path(tmp)))
    for name in runs["this tree"]:
        print(f"\n{name}")
        for who, m in runs.items():
            print(f"  {who:<18} {text(m[name])}")
    print("\n* the record at the end is not the game's (plies no view showed may come in another order)")
    print(f"bench time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
