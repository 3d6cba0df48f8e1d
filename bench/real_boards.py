"""The camera path on real material nobody on the project made (shared/data), beside a
baseline: the code of another git revision (by default main before issue 11), measured
the same way in the same run.

    .venv/bin/python bench/real_boards.py [--baseline REV | --no-baseline]

Every labelled photo is read cold (nothing learned), as `referee read` reads it, through
vision.watch.Watcher and read_frame with the labelled corners:
- chess-photos/ (59 phone photos), chess/ (13 webcam stills) and chess-rectified/ (13
  rectified greyscale photos of a plastic set): each square's occupancy and colour (white
  = the first player); the phone photos also in two halves, the odd-numbered (first,
  third, ... in name order) and the even-numbered, without the wrong labels;
- the phone and webcam photos again with each corner clicked a fifth of a square off in
  a direction of its own (tests/camera_slips.py, seeded; vision/locate.py fits them to the
  board's lines);
- connect4-photos/ (7 photos), with the colours a user writes in referee.toml:
  `[camera] colours = ["#e86a2c", "#3a9a4a"]` (orange first, green second), loaded
  through the config loader.
The real video chess-video/scholarsmate.avi, the chess-rectified sequence as a folder of
frames with each photo held 2 s and 0.5 s (as held-out games are run), and the same
sequence with real hands (cut out of the video, tests/real_hands.py) resting still 2 s
over the squares each ply changed (issue 27; made once by this tree's tests, replayed by
both), the same with a player's shadow over half of each photo from 1...d5 on (90% of the
light, its edge a square wide) and with a head's round one there (59% of the light), and
the video with its corners clicked a third of a square off, with the camera knocked aside
after 2...Nc6 and with a player's shadow over White's half then (80% of the light), are
replayed with the real command, `referee replay SOURCE --game chess --corners ...
--json`, nobody tapping, and their moves are compared
with the labelled ones in order.

Per set it prints: cells right (label right, whatever the confidence) and unsure
(confidence under 0.6), boards whole (every cell right); per sequence plies right in
order, false alarms (no sequence holds an illegal move: every `illegal` event is false),
doubts, corrections, late recoveries (plies the referee said it found late, after
losing the board), the decision delay after the hand left (median, worst), and
milliseconds of CPU per read or per frame (one core: cv2.setNumThreads(1); the video's
figure is the replay command's CPU time over its frames, start-up included). The
baseline's code is exported with `git archive` into a temporary folder (no worktree, no
checkout) and run by this same script with that folder first on the path. The issue's
figures and targets are printed beside both, labelled as such.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("REFEREE_SHARED_DATA", ROOT.parent / "shared" / "data"))
BASELINE = "850bf1f"  # main before issue 11
C4_CONFIG = '[camera]\ncolours = ["#e86a2c", "#3a9a4a"]\n'
SURE = 0.6
FIFTH, THIRD = "corners clicked a fifth of a square off", "corners clicked a third of a square off"
KNOCKED = "the camera knocked after 2...Nc6 (42 px, nine tenths of a square, and a degree and a half)"
SHADOW = "a player's shadow over White's half after 2...Nc6 (80% of the light, its edge a square wide)"
HANDS_SHADOW = "chess-rectified, real hands and a player's shadow from 1...d5 (90% of the light over half)"
HANDS_ROUND = "chess-rectified, real hands and a head's round shadow from 1...d5 (59% of the light, 5 squares across)"
TARGET = {  # issue 11's "done when", and issue 20's
    "chess-photos": "at least 99% of squares",
    "chess-photos, right labels": "at least 99% of squares, either half within a point of it (issue 20)",
    "chess-rectified": "at least 99% of squares (issue 20)",
    "connect4-photos": "at least 99.5% of holes",
    "scholarsmate": "7 of 7 plies in order, no alarm",
    "chess-rectified held 2 s": "5 of 5 plies in order, no alarm, no doubt (issue 20)",
    "chess-rectified held 0.5 s": "5 of 5 plies in order, no alarm, no doubt (issue 20)",
    "chess-rectified, real hands resting 2 s": "5 of 5 plies in order, no alarm, no doubt (issue 27)",
    f"chess-photos, {FIFTH}": "as with the labelled corners",
    f"scholarsmate, {THIRD}": "7 of 7 plies in order, no alarm",
    f"scholarsmate, {KNOCKED}": "7 of 7 plies in order, no alarm",
    f"scholarsmate, {SHADOW}": "7 of 7 plies in order, no alarm (vision/shade.py)",
    HANDS_SHADOW: "5 of 5 plies in order, no alarm, no doubt (vision/shade.py)",
    HANDS_ROUND: "5 of 5 plies in order, no alarm, no doubt (vision/shade.py)",
}
HANDS = "REAL_BOARDS_HANDS"  # the folder of the hands sequence's frames (made by the parent)
CLICKED = "REAL_BOARDS_CLICKED"  # corners clicked off, the video knocked (made by the parent, tests/camera_slips.py)
# labels found wrong by eye (README, "The chess reader"), never edited: the set is also
# scored without them
WRONG_LABELS = {"IMG_4706.jpg": "corners turned by one (the corner labelled a1 is a8)",
                "IMG_4703_2.jpg": "corners not on the board"}
ISSUE = {  # what the issues report for main before them
    "chess-photos": ("11", "87% squares, 0 boards whole"),
    "chess-rectified": ("20", "87.9% squares, 0/13 boards whole"),
    "connect4-photos": ("11", "86% holes"),
    "scholarsmate": ("11", "0 of 7 plies, a stream of alarms"),
    "chess-rectified held 2 s": ("20", "d4 d5, a doubt nobody answers, a second, then an alarm"),
}


# --- measuring (runs inside the code under test) ---------------------------------------
def _corners(points) -> str:
    return " ".join(f"{x},{y}" for x, y in points)


def _chess_expected(fen: str) -> dict:
    import chess

    board = chess.Board(fen)
    return {chess.square_name(sq): "empty" if board.piece_at(sq) is None else
            "p0" if board.piece_at(sq).color == chess.WHITE else "p1" for sq in chess.SQUARES}


def _c4_expected(grid: list[str]) -> dict:
    sym = {".": "empty", "R": "p0", "G": "p1"}
    return {(c, 5 - r): sym[ch] for r, line in enumerate(grid) for c, ch in enumerate(line)}


def _read_set(board: str, items, colours=None) -> dict:
    """items: (image path, corners, expected {cell: label}); read each cold."""
    import cv2

    from controller.registry import entry

    def watcher_of(corners):
        if hasattr(entry(board), "watcher"):
            return entry(board).watcher(corners=corners, colours=colours)
        from vision.watch import Watcher  # a baseline before issue 22: vision's own table

        return Watcher(board, corners=corners, colours=colours)

    cells = right = unsure = whole = 0
    ms, worst = [], []
    for path, corners, want in items:
        image = cv2.imread(str(path))
        watcher = watcher_of(_corners(corners))
        t0 = time.process_time()
        view = watcher.read_frame(image)
        ms.append((time.process_time() - t0) * 1000)
        wrong = sum(view.cells[c][0] != want[c] for c in want)
        cells += len(want)
        right += len(want) - wrong
        unsure += sum(view.cells[c][1] < SURE for c in want)
        whole += wrong == 0
        worst.append((wrong, path.name))
    ms.sort()
    return {"boards": len(items), "cells": cells, "right": right, "unsure": unsure, "whole": whole,
            "ms_median": ms[len(ms) // 2], "worst": sorted(worst, reverse=True)[:3]}


def _replay(source: Path, corners, ucis: list[str], frames: int) -> dict:
    """`referee replay SOURCE --game chess --corners ... --json`, its moves against `ucis`
    in order: plies right, false alarms (every `illegal`: the games are legal), doubts,
    corrections, the decision delay (median and worst) and the command's CPU a frame."""
    import chess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(source),
                          "--game", "chess", "--corners", _corners(corners), "--json"],
                         capture_output=True, text=True, cwd=os.getcwd(), timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        return {"error": run.stderr.strip().splitlines()[-1:] or [f"exit {run.returncode}"]}
    events = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    board, names = chess.Board(), []
    for uci in ucis:  # each labelled ply as UCI and as SAN
        move = chess.Move.from_uci(uci)
        names.append({uci, board.san(move)})
        board.push(move)
    moves = [e for e in events if e["type"] == "move"]
    seen = [e.get("notation") for e in moves]
    in_order = 0
    for got, want in zip(seen, names):
        if got not in want:
            break
        in_order += 1
    delays = sorted(e["decided_after_s"] for e in moves if e.get("decided_after_s") is not None)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"plies": len(names), "in_order": in_order, "moves_seen": seen,
            "alarms": sum(e["type"] == "illegal" for e in events),
            "doubts": sum(e["type"] == "doubt" for e in events),
            "corrections": sum(e["type"] == "corrected" for e in events),
            "late": sum(len(e.get("notation") or ()) for e in events if e["type"] == "recovered"),
            "delay": [delays[len(delays) // 2], delays[-1]] if delays else None,
            "frames": frames, "ms_frame": cpu * 1000 / max(frames, 1)}


def _replay_video(name: str) -> dict:
    label = json.loads((DATA / "chess-video" / "labels.json").read_text())[name]
    path = DATA / "chess-video" / name
    return _replay(path, label["corners_a1_h1_h8_a8"], label["moves"], int(cv2_frame_count(path)))


def _replay_held(hold: float) -> dict:
    """The chess-rectified sequence as a folder of frames, each photo held `hold`
    seconds at 30 frames a second (the replay's default rate), as held-out games are run."""
    labels = json.loads((DATA / "chess-rectified" / "labels.json").read_text())
    sequence = labels["sequence"]
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        for name in sequence["sequence"]:
            for _ in range(round(hold * 30)):
                os.symlink(DATA / "chess-rectified" / name, Path(tmp) / f"frame{n:05d}.png")
                n += 1
        corners = labels["photos"][sequence["sequence"][0]]["corners_a1_h1_h8_a8"]
        return _replay(Path(tmp), corners, sequence["moves"], n)


def cv2_frame_count(path: Path) -> float:
    import cv2

    cap = cv2.VideoCapture(str(path))
    try:
        return cap.get(cv2.CAP_PROP_FRAME_COUNT)
    finally:
        cap.release()


def measure() -> dict:
    """Every set, with the code first on sys.path (this tree or the baseline's)."""
    import cv2

    from controller.config import load

    cv2.setNumThreads(1)
    out = {}
    labels = json.loads((DATA / "chess-photos" / "labels.json").read_text())
    photos = [(DATA / "chess-photos" / n, v["corners_a1_h1_h8_a8"], _chess_expected(v["fen"]))
              for n, v in sorted(labels.items())]
    out["chess-photos"] = _read_set("chess", photos)
    out["chess-photos, right labels"] = _read_set("chess", [p for p in photos if p[0].name not in WRONG_LABELS])
    for half, first in (("odd", 0), ("even", 1)):
        out[f"chess-photos, {half} half"] = _read_set("chess", [p for p in photos[first::2] if p[0].name not in WRONG_LABELS])
    labels = json.loads((DATA / "chess" / "labels.json").read_text())
    webcam = [(DATA / "chess" / n, v["corners_a1_h1_h8_a8"], _chess_expected(v["fen"]))
              for n, v in sorted(labels.items())]
    out["chess"] = _read_set("chess", webcam)
    labels = json.loads((DATA / "chess-rectified" / "labels.json").read_text())["photos"]
    out["chess-rectified"] = _read_set("chess", [(DATA / "chess-rectified" / n, v["corners_a1_h1_h8_a8"],
                                                  _chess_expected(v["fen"])) for n, v in sorted(labels.items())])
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp) / "referee.toml"
        config.write_text(C4_CONFIG)
        colours = load(config).camera.colours
    labels = json.loads((DATA / "connect4-photos" / "labels.json").read_text())
    out["connect4-photos"] = _read_set("connect4", [(DATA / "connect4-photos" / n, v["corners"], _c4_expected(v["grid"]))
                                                    for n, v in sorted(labels.items())], colours)
    out["scholarsmate"] = _replay_video("scholarsmate.avi")
    for hold in (2.0, 0.5):
        out[f"chess-rectified held {hold:g} s"] = _replay_held(hold)
    clicked = json.loads(os.environ[CLICKED])
    out[f"chess-photos, {FIFTH}"] = _read_set("chess", [(path, clicked["chess-photos"][path.name], want)
                                                       for path, _, want in photos if path.name not in WRONG_LABELS])
    out[f"chess, {FIFTH}"] = _read_set("chess", [(path, clicked["chess"][path.name], want) for path, _, want in webcam])
    label = json.loads((DATA / "chess-video" / "labels.json").read_text())["scholarsmate.avi"]
    video = DATA / "chess-video" / "scholarsmate.avi"
    frames = int(cv2_frame_count(video))
    out[f"scholarsmate, {THIRD}"] = _replay(video, clicked["scholarsmate"], label["moves"], frames)
    for key, name in (("knocked", KNOCKED), ("shadow", SHADOW)):
        out[f"scholarsmate, {name}"] = _replay(Path(clicked[key]), label["corners_a1_h1_h8_a8"], label["moves"], frames)
    for name, hands in json.loads(os.environ[HANDS]).items():
        out[name] = _replay(Path(hands["folder"]), hands["corners"], hands["moves"], hands["frames"])
    return out


def hand_frames(into: Path) -> dict:
    """The chess-rectified sequence with real hands at rest (tests/real_hands.py), and the
    same with a player's shadow falling from 1...d5 on, straight and round
    (tests/camera_slips.py), each as a folder of frames at 30 a second: each distinct
    picture written once, held by links."""
    import cv2

    sys.path.insert(0, str(ROOT / "tests"))
    import real_hands
    from camera_slips import round_shadow, shadowed

    def from_d5(shadow):  # the photos from 1...d5 on under `shadow`
        return lambda photo, k: photo if k < 2 else shadow(photo)

    out = {}
    for name, change in (("chess-rectified, real hands resting 2 s", None),
                         (HANDS_SHADOW, from_d5(lambda photo: shadowed(photo, "left", 0.5, 0.9))),
                         (HANDS_ROUND, from_d5(lambda photo: round_shadow(photo, (0.42, 0.63), 0.29, 0.59)))):
        folder = into / f"hands{len(out)}"
        folder.mkdir()
        shots, corners, moves = real_hands.rectified_with_hands(change)
        n = 0
        for k, (frame, seconds) in enumerate(shots):
            cv2.imwrite(str(folder / f"shot{k:03d}.png"), frame)
            for _ in range(round(seconds * 30)):
                os.symlink(folder / f"shot{k:03d}.png", folder / f"frame{n:05d}.png")
                n += 1
        out[name] = {"folder": str(folder), "corners": corners.tolist(), "moves": moves, "frames": n}
    return out


def clicked_corners(into: Path) -> dict:
    """Every phone and webcam photo's corners each clicked a fifth of a square off, the
    video's a third, and the video knocked aside or shadowed after 2...Nc6, written into
    `into` (tests/camera_slips.py, seeded): the same for this tree and the baseline."""
    import numpy as np

    sys.path.insert(0, str(ROOT / "tests"))
    from camera_slips import clicked_off, knocked_from, rewritten, shadowed

    rng, out = np.random.default_rng(5), {}
    for name in ("chess-photos", "chess"):
        labels = json.loads((DATA / name / "labels.json").read_text())
        out[name] = {n: clicked_off(v["corners_a1_h1_h8_a8"], 0.2, rng).round(1).tolist()
                     for n, v in sorted(labels.items())}
    label = json.loads((DATA / "chess-video" / "labels.json").read_text())["scholarsmate.avi"]
    out["scholarsmate"] = clicked_off(label["corners_a1_h1_h8_a8"], 1 / 3, rng).round(1).tolist()
    out["knocked"] = str(rewritten(DATA / "chess-video" / "scholarsmate.avi", into / "knocked.avi",
                                   knocked_from(150, -40, 12, 1.5)))
    out["shadow"] = str(rewritten(DATA / "chess-video" / "scholarsmate.avi", into / "shadow.avi",
                                  lambda frame, k: frame if k < 150 else shadowed(frame, "bottom", 0.5, 0.8)))
    return out


# --- running and printing -----------------------------------------------------------------
def run_measure(code: Path, hands: dict, clicked: dict) -> dict:
    """This script's measure() in a fresh interpreter, with `code` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code), "REFEREE_SHARED_DATA": str(DATA), HANDS: json.dumps(hands),
           CLICKED: json.dumps(clicked)}
    run = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure"], cwd=code, env=env,
                         capture_output=True, text=True, timeout=900)
    if run.returncode != 0:
        raise SystemExit(f"real_boards: measuring {code} failed:\n{run.stderr[-2000:]}")
    return json.loads(run.stdout.splitlines()[-1])


def export(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def cells_text(m: dict, unit: str) -> str:
    return (f"{100 * m['right'] / m['cells']:5.1f}% {unit} ({m['cells'] - m['right']} wrong, "
            f"{m['unsure']} unsure), {m['whole']}/{m['boards']} whole, {m['ms_median']:.0f} ms/read")


def video_text(m: dict) -> str:
    if "error" in m:
        return f"failed: {m['error']}"
    delay = "" if not m.get("delay") else f", decided {m['delay'][0]:.2f} s (worst {m['delay'][1]:.2f} s)"
    return (f"{m['in_order']} of {m['plies']} plies in order, {m['alarms']} false alarms, "
            f"{m['doubts']} doubts, {m.get('corrections', 0)} corrections, {m.get('late', 0)} late recoveries"
            f"{delay}, {m['ms_frame']:.1f} ms/frame")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", default=BASELINE, help="git revision measured beside this tree (default %(default)s)")
    p.add_argument("--no-baseline", action="store_true")
    p.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)  # the child's job
    args = p.parse_args()
    if args.measure:
        sys.path[0] = os.getcwd()  # the code under test, not bench/ (whose vision.py would shadow it)
        print(json.dumps(measure()))
        return 0
    import cv2

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
          f"{platform.python_version()}, OpenCV {cv2.__version__}, one thread per read")
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as frames:
        hands, clicked = hand_frames(Path(frames)), clicked_corners(Path(frames))
        runs = {"this tree": run_measure(ROOT, hands, clicked)}
        if not args.no_baseline:
            with tempfile.TemporaryDirectory() as tmp:
                runs[f"baseline {args.baseline}"] = run_measure(export(args.baseline, Path(tmp)), hands, clicked)
    units = {"chess-photos": "squares", "chess-photos, right labels": "squares", "chess-photos, odd half": "squares",
             "chess-photos, even half": "squares", "chess": "squares", "chess-rectified": "squares",
             "connect4-photos": "holes", f"chess-photos, {FIFTH}": "squares", f"chess, {FIFTH}": "squares"}
    sequences = ("scholarsmate", "chess-rectified held 2 s", "chess-rectified held 0.5 s",
                 "chess-rectified, real hands resting 2 s", HANDS_SHADOW, HANDS_ROUND, f"scholarsmate, {THIRD}",
                 f"scholarsmate, {KNOCKED}", f"scholarsmate, {SHADOW}")
    for name in (*units, *sequences):
        print(f"\n{name}")
        for who, m in runs.items():
            text = video_text(m[name]) if name in sequences else cells_text(m[name], units[name])
            print(f"  {who:<18} {text}")
        if name in ISSUE:
            print(f"  {f'issue {ISSUE[name][0]} says':<18} {ISSUE[name][1]}")
        if name in TARGET:
            print(f"  {'target':<18} {TARGET[name]}")
        if name == "chess-photos, right labels":
            print("  " + "; ".join(f"left out: {n} ({why})" for n, why in WRONG_LABELS.items()))
    ours = runs["this tree"]
    print("\nworst boards (this tree): " + "; ".join(
        f"{n}: " + ", ".join(f"{w} {f}" for w, f in ours[n]["worst"] if w) for n in units
        if n in ("chess-photos", "chess", "chess-rectified", "connect4-photos") and ours[n]["worst"][0][0]))
    print(f"moves seen in the video (this tree): {' '.join(ours['scholarsmate'].get('moves_seen', []))}")
    print(f"bench time {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
