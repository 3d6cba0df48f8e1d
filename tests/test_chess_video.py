"""Real footage: a scholar's mate filmed by a webcam (hands over the board, a GUI overlay
on the first frames, e4 and e5 within 1.6 s), replayed through `referee replay` with its
labelled corners, is followed ply by ply, with no alarm and no doubt."""
import json
import subprocess
import sys
from pathlib import Path

import chess

from shared_data import SHARED_DATA

ROOT = Path(__file__).resolve().parents[1]
VIDEO = Path(SHARED_DATA) / "chess-video"


def test_scholars_mate_on_a_real_webcam_is_followed_to_the_mate():
    label = json.loads((VIDEO / "labels.json").read_text())["scholarsmate.avi"]
    corners = " ".join(f"{x},{y}" for x, y in label["corners_a1_h1_h8_a8"])
    run = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(VIDEO / "scholarsmate.avi"),
                          "--game", "chess", "--corners", corners, "--json"],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines()]
    moves = [e for e in events if e["type"] == "move"]
    board, expected = chess.Board(), []
    for uci in label["moves"]:
        move = chess.Move.from_uci(uci)
        expected.append(board.san(move))
        board.push(move)
    assert [e["notation"] for e in moves] == expected
    assert [e for e in events if e["type"] in ("illegal", "doubt")] == []
    assert all(e["decided_after_s"] <= 0.5 for e in moves)
    over = [e for e in events if e["type"] == "game_over"]
    assert len(over) == 1 and "checkmated" in over[0]["reason"]
