"""The soak bench (bench/soak.py, issue 13) on a few games: one demo rig goes from game to
game as the page's New game starts each, through all five kinds (a Labyrinth from another
game included: its maze is laid out and read from the table), with its figures and no
error. The long run is a bench, not a test."""
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_soak_plays_every_kind_of_game_in_turn_on_one_rig(tmp_path):
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "soak.py"), "--games", "6", "--turns", "2",
                          "--data", str(tmp_path)], capture_output=True, text=True, timeout=400)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "errors logged: 0 (target 0)" in run.stdout
    assert "games the rig could not finish: 0 (target 0)" in run.stdout
    assert "memory growth after the first round (trimmed)" in run.stdout
    with closing(sqlite3.connect(tmp_path / "journal.sqlite")) as db:
        games = db.execute("SELECT game, (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id AND "
                           "e.kind = 'move') FROM games g ORDER BY id").fetchall()
    assert [name for name, _ in games] == ["connect4", "chess", "labyrinth", "smb", "monopoly", "connect4"]
    assert all(moves >= 2 for _, moves in games), games  # each game was played on the table
