"""The real chess-rectified photos (a plastic set in greyscale, five plies from the
start) held still as the held-out games are run, replayed with `referee replay FOLDER`
and nobody tapping (docs/following.md)."""
import json
import os
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from shared_data import SHARED_DATA

ROOT = Path(__file__).resolve().parents[2]
RECTIFIED = Path(SHARED_DATA) / "chess-rectified"


@pytest.mark.parametrize("hold", [2.0, 0.5])
def test_the_rectified_photos_held_still_are_followed_by_replay(tmp_path, hold):
    """The real chess-rectified sequence (a plastic set in greyscale, five plies from
    the start), each photo held `hold` seconds as a folder of frames at 30 a second,
    through `referee replay FOLDER`: every ply in order, no alarm, no doubt."""
    labels = json.loads((RECTIFIED / "labels.json").read_text())
    sequence = labels["sequence"]
    frames = tmp_path / "frames"
    frames.mkdir()
    n = 0
    for name in sequence["sequence"]:
        for _ in range(round(hold * 30)):
            os.symlink(RECTIFIED / name, frames / f"frame{n:05d}.png")
            n += 1
    corners = " ".join(f"{x},{y}" for x, y in labels["photos"][sequence["sequence"][0]]["corners_a1_h1_h8_a8"])
    run = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(frames), "--game", "chess",
                          "--corners", corners, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    events = [json.loads(line) for line in run.stdout.splitlines()]
    board, expected = chess.Board(), []
    for uci in sequence["moves"]:
        expected.append(board.san(chess.Move.from_uci(uci)))
        board.push_uci(uci)
    assert [e["notation"] for e in events if e["type"] == "move"] == expected
    assert [e for e in events if e["type"] in ("illegal", "doubt", "corrected")] == []
