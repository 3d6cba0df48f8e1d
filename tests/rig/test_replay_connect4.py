"""Rendered games written as real video files and replayed through the whole pipeline
with the real command (`referee replay ... --json`): every move recognised, no false
alarm, each decided within half a second of video time after the last motion over the
grid, and illegal moves reported with their reason."""
import json
import subprocess
import sys
from pathlib import Path

import cv2

from controller.games.connect4 import Connect4
from controller.demo_rig import render_connect4 as rc
from shared_data import SHARED_DATA

ROOT = Path(__file__).resolve().parents[2]
SIZE = (640, 360)
SOLVER_GAME = (SHARED_DATA / "connect4" / "Test_L2_R1").read_text().split()[0]  # 25 moves, no four yet


def write_video(path: Path, positions, fps: float, seed: int, **kw) -> Path:
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, SIZE)
    assert out.isOpened()
    for _, frame in rc.render_game(positions, fps=fps, size=SIZE, seed=seed, **kw):
        out.write(frame)
    out.release()
    return path


def replay(video: Path, *args) -> list[dict]:
    run = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(video), "--game", "connect4",
                          *args, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "100%" in run.stderr  # the progress bar reached the end
    return [json.loads(line) for line in run.stdout.splitlines()]


def moves_of(events):
    return [e for e in events if e["type"] == "move"]


def test_classic_game_of_24_moves_recognised_without_false_alarm(tmp_path):
    moves = list(SOLVER_GAME[:24])
    video = write_video(tmp_path / "classic.mp4", rc.positions_of(Connect4("classic"), moves), 30, seed=3)
    events = replay(video)
    seen = moves_of(events)
    assert [e["notation"] for e in seen] == moves
    assert [e for e in events if e["type"] in ("illegal", "restored")] == []
    assert all(0 < e["decided_after_s"] <= 0.5 for e in seen), [e["decided_after_s"] for e in seen]
    states = [e for e in events if e["type"] == "state"]
    assert len(states) == len(moves) and states[-1]["moves"] == moves


def test_blocker_game_with_placement_and_a_removal_that_settles_a_column(tmp_path):
    moves = ["b4/3", "4", "4", "2", "3", "4", "x", "6", "b2/4", "7", "5", "2"]
    positions = rc.positions_of(Connect4("blocker"), moves)
    # the removal really drops chips: column 4 holds chips in rows 1-3 afterwards
    assert [positions[7][(3, r)] for r in range(4)] == ["p1", "p0", "p1", "empty"]
    video = write_video(tmp_path / "blocker.mp4", positions, 15, seed=4, colours=rc.CLASSIC_COLOURS)
    events = replay(video, "--variant", "blocker", "--config", str(_config(tmp_path, rc.CLASSIC_COLOURS)))
    seen = moves_of(events)
    assert [e["notation"] for e in seen] == moves
    assert [e for e in events if e["type"] == "illegal"] == []
    assert all(e["decided_after_s"] <= 0.5 for e in seen)


def _config(tmp_path: Path, colours) -> Path:
    path = tmp_path / "referee.toml"
    path.write_text("[camera]\ncolours = [%s]\n" % ", ".join(f'"{c}"' for c in colours))
    return path


def test_chip_out_of_turn_and_floating_chip_are_reported_until_put_right(tmp_path):
    game = Connect4("classic")
    legal = rc.positions_of(game, ["4", "4"])
    out_of_turn = {**legal[2], (2, 0): "p1"}  # Luigi again, Mario to move
    after = rc.positions_of(game, ["4", "4", "3"])[3]
    floating = {**after, (5, 2): "p1"}  # Luigi's chip hangs over two empty holes
    sequence = legal + [out_of_turn, legal[2], after, floating, after, rc.positions_of(game, ["4", "4", "3", "6"])[4]]
    # each board held 2.5 s: a wrong one must stay a few seconds before its alarm (CONFIRM_S)
    events = replay(write_video(tmp_path / "illegal.mp4", sequence, 15, seed=5, still_s=2.5))
    kinds = [(e["type"], e.get("notation") or e.get("reason", "")) for e in events
             if e["type"] in ("move", "illegal", "restored")]
    assert kinds[:2] == [("move", "4"), ("move", "4")]
    assert kinds[2][0] == "illegal" and "Mario's turn" in kinds[2][1]
    assert kinds[3][0] == "restored"
    assert kinds[4] == ("move", "3")
    assert kinds[5][0] == "illegal" and "floats" in kinds[5][1] and "column 6, row 3" in kinds[5][1]
    assert kinds[6][0] == "restored"
    assert kinds[7] == ("move", "6")
    assert len(kinds) == 8


def test_replay_of_a_missing_video_says_which(tmp_path):
    run = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "none.mp4"),
                          "--game", "connect4", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 2
    assert "none.mp4" in run.stderr and "no such file" in run.stderr
