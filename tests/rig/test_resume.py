"""The plug is pulled in the middle of a game, or the service is stopped and started: on
the same data folder the camera goes on refereeing the same game from where it was, in
every game. Each run is `referee demo` (the real service on the simulated rig) as its own
process: a plain stop at the end of `--turns`, a SIGKILL in the middle of the next run,
then a third run; after each restart the camera must record the next turns, and no
camera alarm may sound (the players make no deliberate mistake here)."""
import os
import signal
import subprocess
import sys
import time

import pytest

from controller.journal import open_journal

# game, seed (small --turns keep each run short)
GAMES = [("smb", 4), ("monopoly", 5), ("chess", 3), ("labyrinth", 3), ("connect4", 2)]


def demo(data, game, seed, turns):
    return subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--fast", "--no-mistake", "--port", "0",
         "--data", str(data), "--game", game, "--seed", str(seed), "--turns", str(turns)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def record(data) -> list:
    """The open game's events, as the journal holds them (another process may write it)."""
    journal, _ = open_journal(data)
    try:
        game = journal.open_game()
        return [] if game is None else journal.events(game["id"])
    finally:
        journal.close()


def camera_moves(events) -> int:
    return sum(e.kind == "move" and e.data.get("source") == "camera" for e in events)


def alarms(events) -> list:
    return [e.data for e in events if e.kind == "illegal" and e.data.get("source") == "camera"]


def run_to_end(data, game, seed, turns, timeout=120):
    proc = demo(data, game, seed, turns)
    try:
        _, err = proc.communicate(timeout=timeout)
    finally:
        proc.kill()
    assert proc.returncode == 0, err[-3000:]


def resume(tmp_path, game, seed):
    data = tmp_path / "data"
    run_to_end(data, game, seed, turns=2)  # ends with a plain stop (SIGTERM to itself)
    first = record(data)
    assert camera_moves(first) >= 2 and alarms(first) == []

    # restarted after the plain stop: the next turns are seen; then the plug is pulled
    proc = demo(data, game, seed + 1, turns=6)
    try:
        deadline = time.monotonic() + 120
        while camera_moves(record(data)) < camera_moves(first) + 1 and proc.poll() is None:
            assert time.monotonic() < deadline, "no move seen after the restart"
            time.sleep(0.2)
        assert proc.poll() is None, proc.stderr.read()[-3000:]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        proc.kill()
        proc.stderr.close()
    second = record(data)
    assert [e.seq for e in second[:len(first)]] == [e.seq for e in first]  # nothing lost
    assert alarms(second) == []

    # restarted after SIGKILL: the camera goes on where the journal stands
    run_to_end(data, game, seed + 2, turns=2)
    third = record(data)
    assert camera_moves(third) >= camera_moves(second) + 2
    assert alarms(third) == []
    return first, second, third


@pytest.mark.parametrize("game, seed", GAMES)
def test_the_camera_goes_on_after_a_stop_and_after_the_plug_is_pulled(tmp_path, game, seed):
    resume(tmp_path, game, seed)
