"""`make demo` runs `referee demo`: the real service on the simulated rig. Here it plays
one whole game as fast as frames render, behind a real page, and stops."""
import json
import re
import subprocess
import sys
import time
import urllib.request

from support import play_demo, start_demo


def test_demo_plays_a_whole_game_recognised_from_the_camera(tmp_path):
    told = []
    record = play_demo(tmp_path, "--games", "1", "--seed", "5", page_shows="Connect 4", told=told)
    kinds = [e["type"] for e in record["events"]]
    assert kinds[0] == "game_started" and kinds[-1] == "game_over"
    moves = [e for e in record["events"] if e["type"] == "move"]
    assert len(moves) >= 7 and all(m["source"] == "camera" for m in moves)
    assert all(m["decided_after_s"] <= 0.5 for m in moves)
    # the one deliberate mistake per game is flagged and put right; nothing else alarms
    assert kinds.count("illegal") <= 1 and kinds.count("illegal") == kinds.count("restored")
    # the terminal told the game in words: each move, the alarm with its fix, the result, a summary
    words = [e["text"] for e in record["events"] if e["type"] == "move"]
    assert [line.split(". ", 1)[1] for line in told if re.match(r" +\d+\. ", line)] == words
    over = next(e for e in record["events"] if e["type"] == "game_over")
    assert f"result: {over['winner_name']} wins: {over['reason']}" in told
    alarms = kinds.count("illegal")
    assert sum(line.strip().startswith("fix: ") for line in told) == alarms
    assert (f"summary: 1 game played, {len(words)} move{'s' * (len(words) != 1)} recorded, "
            f"{alarms} alarm{'s' * (alarms != 1)} raised") in told
    assert f"demo: the game is kept in {tmp_path} (referee export --data {tmp_path})" in told


def test_the_demo_survives_new_game_on_the_page_and_leaves_no_folder(tmp_path):
    """Someone presses "New game" (chess) on the page mid-game: the players set up the
    chess start and play it; the temporary data folder the demo made goes when it ends."""
    import os

    env = {**os.environ, "TMPDIR": str(tmp_path)}  # where the demo makes its own folder
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--fast", "--port", "0", "--turns", "8", "--seed", "4"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        folder = url = token = None
        for line in proc.stdout:
            if m := re.search(r"journal in (\S+)", line):
                folder = m[1]
            if m := re.search(r"status page: (http://\S+)/  \(admin token: (\S+)\)", line):
                url, token = m[1], m[2]
                break
        assert folder and url, proc.stderr.read()
        state = lambda: json.loads(urllib.request.urlopen(url + "/api/state", timeout=10).read())  # noqa: E731
        deadline = time.monotonic() + 60
        while not state()["moves"] and time.monotonic() < deadline:
            time.sleep(0.2)  # the first chip goes in
        request = urllib.request.Request(url + "/api/new-game", data=json.dumps({"game": "chess"}).encode(),
                                         headers={"Authorization": f"Bearer {token}",
                                                  "Content-Type": "application/json"})
        assert json.loads(urllib.request.urlopen(request, timeout=10).read())["ok"]
        while state()["game"] == "chess" and len(state()["moves"]) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        snap = state()
        assert snap["game"] == "chess" and len(snap["moves"]) >= 2  # the chess game is played
        proc.wait(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, proc.stderr.read()[-3000:]
    assert not os.path.exists(folder)


def test_ctrl_c_in_the_middle_of_a_game_stops_the_demo_at_once_and_blames_nobody(tmp_path):
    """Ctrl-C while the players wait for the referee to see their move: the demo ends
    within seconds with its summary, and does not report the referee as having failed to
    record a move (the players left the table; nobody erred), nor does the process abort
    (a camera thread that outlived the service died in OpenCV at exit: "terminate called
    without an active exception")."""
    import signal

    proc, url = start_demo("--game", "chess", "--seed", "3", "--data", str(tmp_path))
    try:
        state = lambda: json.loads(urllib.request.urlopen(url + "/api/state", timeout=10).read())  # noqa: E731
        deadline = time.monotonic() + 60
        while not state()["moves"] and time.monotonic() < deadline:
            time.sleep(0.2)
        assert state()["moves"], "no move was played"
        time.sleep(1.0)  # the players are moving or waiting for the next move to be seen
        proc.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - stopped
    finally:
        proc.kill()
    assert proc.returncode in (0, 130), (proc.returncode, err[-2000:])
    assert "terminate called" not in err and "Traceback" not in err, err[-2000:]
    assert "did not record" not in err and "did not stop" not in err, err[-2000:]
    assert "summary:" in out
    assert took < 8.0, f"the demo took {took:.1f} s to stop"
