"""`referee play`: the no-camera contract from ARCHITECTURE.md, run as a real command."""
import json
import subprocess
import sys

import pytest

from support import run_cli as run


def test_play_connect4_json_lines_moves_illegal_state_outcome():
    moves = "# a comment line\n1\n2\n1  # trailing comment\n2\n9\n1\n\n2\n1\n3\n"
    proc = run(["play", "--game", "connect4", "--variant", "classic", "--json"], moves)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in proc.stdout.splitlines()]
    kinds = [l["type"] for l in lines]
    assert kinds[0] == "game_started"
    assert kinds.count("move") == 7 and kinds.count("state") == 7
    illegal = [l for l in lines if l["type"] == "illegal"]
    assert illegal[0]["input"] == "9" and "not a Connect 4 move" in illegal[0]["reason"]
    over = [l for l in lines if l["type"] == "game_over"]
    assert over and over[0]["winner"] == 0
    state = [l for l in lines if l["type"] == "state"][-1]
    assert state["state"]["grid"][5][0] == "p0" and state["outcome"]["winner_name"] == "Mario"
    # after the end every further move is illegal, and the command still exits 0
    assert lines[-1]["type"] == "illegal" and "game is over" in lines[-1]["reason"]


def test_play_blocker_notation():
    proc = run(["play", "--game", "connect4", "--variant", "blocker", "--json"], "b4/3\n4\n1\nb4/1\nb5/1\n")
    lines = [json.loads(l) for l in proc.stdout.splitlines() if '"state"' not in l[:20]]
    # Luigi's blocker goes into the dead hole below Mario's; Mario's second blocker is refused
    assert [l["notation"] for l in lines if l["type"] == "move"] == ["b4/3", "4", "1", "b4/1"]
    assert lines[-1]["type"] == "illegal" and "Mario has already used the blocker" in lines[-1]["reason"]


def test_usage_errors_exit_2():
    assert run(["play", "--game", "connect4", "--variant", "speed"], "").returncode == 2
    assert run(["play"], "").returncode == 2
    assert run(["play", "--game", "nope"], "").returncode == 2


def test_a_null_uci_move_is_an_illegal_entry_not_a_crash():
    """Issue 13: `e2e2` raised chess.InvalidMoveError out of `referee play`."""
    proc = run(["play", "--game", "chess", "--json"], "e2e2\ne2e4\n")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in proc.stdout.splitlines()]
    illegal = [l for l in lines if l["type"] == "illegal"]
    assert illegal[0]["input"] == "e2e2" and "from one square to another" in illegal[0]["reason"]
    assert [l["notation"] for l in lines if l["type"] == "move"] == ["e4"]


def test_a_line_that_is_not_utf8_is_named_and_play_goes_on_under_a_strict_locale():
    """Issue 13: invalid UTF-8 on stdin crashed `referee play` under a strict locale."""
    env = {**__import__("os").environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    proc = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "chess", "--json"],
                          input=b"e2e4\n\xff\xfe e5\ne7e5\n", capture_output=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    assert b"stdin line 2 is not UTF-8 (byte 1); skipped" in proc.stderr
    moves = [json.loads(l)["notation"] for l in proc.stdout.splitlines() if b'"type": "move"' in l]
    assert moves == ["e4", "e5"]


def test_a_fault_nobody_foresaw_is_one_sentence_not_a_traceback(monkeypatch, capsys):
    from controller import cli
    from controller.devices import dice

    def broken(args):
        raise RuntimeError("the referee did not record move w2-00 from the camera")

    monkeypatch.setattr(dice, "cmd_roll", broken)
    monkeypatch.delenv("REFEREE_DEBUG", raising=False)
    assert cli.main(["roll", "--die", "smb"]) == 1
    err = capsys.readouterr().err
    assert err == ("referee roll: the referee did not record move w2-00 from the camera "
                   "(run with REFEREE_DEBUG=1 for the details)\n")
    monkeypatch.setenv("REFEREE_DEBUG", "1")  # a developer asks for the trace
    with pytest.raises(RuntimeError):
        cli.main(["roll", "--die", "smb"])


def test_a_demo_table_that_cannot_go_on_says_why_in_words():
    from controller.demo_rig.feed import DemoTable

    table = DemoTable(seed=1)

    def stuck():
        raise RuntimeError("the referee did not record e4 from the camera (no alarm)")
        yield

    table._frames = stuck
    assert list(table.frames()) == []
    assert table.failed and table.finished.is_set()
    assert table.failure == "the referee did not record e4 from the camera (no alarm)"
