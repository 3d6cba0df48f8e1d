"""`make demo` runs `referee demo`: the real service on the simulated rig. Here it plays
one whole game as fast as frames render, behind a real page, and stops."""
import json
import re
import subprocess
import sys
import urllib.request


def test_demo_plays_a_whole_game_recognised_from_the_camera(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--fast", "--games", "1", "--seed", "5",
         "--port", "0", "--data", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        url = None
        for line in proc.stdout:
            if m := re.search(r"status page: (http://\S+)/", line):
                url = m[1]
                break
        assert url, proc.stderr.read()
        page = urllib.request.urlopen(url + "/", timeout=10).read().decode()
        assert "Connect 4" in page
        proc.wait(timeout=150)
    finally:
        proc.kill()
    assert proc.returncode == 0, proc.stderr.read()
    out = subprocess.run([sys.executable, "-m", "controller.cli", "export", "1", "--data", str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    record = json.loads(out)
    kinds = [e["type"] for e in record["events"]]
    assert kinds[0] == "game_started" and kinds[-1] == "game_over"
    moves = [e for e in record["events"] if e["type"] == "move"]
    assert len(moves) >= 7 and all(m["source"] == "camera" for m in moves)
    assert all(m["decided_after_s"] <= 0.5 for m in moves)
    # the one deliberate mistake per game is flagged and put right; nothing else alarms
    assert kinds.count("illegal") <= 1 and kinds.count("illegal") == kinds.count("restored")
