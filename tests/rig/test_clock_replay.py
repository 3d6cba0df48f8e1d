"""Real footage on the clock: the scholar's mate filmed by a webcam (tests/rig/
test_chess_video.py), replayed with `--clock`: each move carries the times the hands
left the pieces, and a control too short for the players ends the game by a flag fall."""
import json
import subprocess
import sys
from pathlib import Path

from shared_data import SHARED_DATA

ROOT = Path(__file__).resolve().parents[2]
VIDEO = Path(SHARED_DATA) / "chess-video"


def replay(clock: str, *more) -> subprocess.CompletedProcess:
    label = json.loads((VIDEO / "labels.json").read_text())["scholarsmate.avi"]
    corners = " ".join(f"{x},{y}" for x, y in label["corners_a1_h1_h8_a8"])
    run = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(VIDEO / "scholarsmate.avi"),
                          "--game", "chess", "--corners", corners, "--clock", clock, *more],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert run.returncode == 0, run.stderr
    return run


def test_each_move_carries_the_time_left_when_the_hand_left():
    events = [json.loads(line) for line in replay("5+0", "--json").stdout.splitlines()]
    moves = [e for e in events if e["type"] == "move"]
    assert [m["notation"] for m in moves] == ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]
    assert moves[0]["clocks"] == [300.0, 300.0]  # nobody's clock before White's first move
    for before, move in zip(moves, moves[1:]):
        mover = move["seat"]
        assert move["clock"] == move["clocks"][mover] < before["clocks"][mover]  # the mover's clock ran
        assert move["clocks"][1 - mover] == before["clocks"][1 - mover]  # the other's stood
    # the whole game took seconds: the clocks say so, the decisions' delays cost nothing
    assert 290 < moves[-1]["clocks"][0] < 300 and 290 < moves[-1]["clocks"][1] < 300
    text = replay("5+0").stdout
    assert "7. Qxf7#" in text and "[clock red 4:5" in text


def test_a_control_too_short_for_the_players_ends_in_a_flag_fall():
    events = [json.loads(line) for line in replay("0:03+0", "--json").stdout.splitlines()]
    moves = [e["notation"] for e in events if e["type"] == "move"]
    assert moves[-1] == "flag red" and "Qxf7#" not in moves
    over = [e for e in events if e["type"] == "game_over"]
    assert len(over) == 1 and over[0]["reason"] == "Mario's team's flag fell: Bowser's team wins on time"
    warnings = [e for e in events if e["type"] == "clock"]
    assert [w["seat"] for w in warnings] == [1, 0] and all("left on the clock" in w["text"] for w in warnings)
