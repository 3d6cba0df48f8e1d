"""`referee serve` on a configured rig: moves through the page's API, the plug pulled
(SIGKILL) mid-game, and a restart that resumes the same game."""
import json
import re
import signal
import subprocess
import sys
import urllib.request

import cv2

from controller.events import NewGame, Tick
from vision.camera import SyntheticCamera
from controller.demo_rig.render_connect4 import empty_grid, render
from support import Hang, hang_referee


def start(config):
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "serve", "--config", str(config)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        if m := re.search(r"status page: (http://\S+)/", line):
            return proc, m[1]
    raise AssertionError(proc.stderr.read())


def post(url, path, data, token):
    req = urllib.request.Request(url + path, json.dumps(data).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def get(url, path):
    with urllib.request.urlopen(url + path, timeout=10) as r:
        return json.load(r)


def test_serve_resumes_the_same_game_after_the_plug_is_pulled(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"), render(empty_grid()))
    config = tmp_path / "referee.toml"
    config.write_text(f"""
[game]
name = "connect4"
variant = "blocker"
[camera]
source = "{frames}"
[gpio]
factory = "mock"
[die_module]
port = "off"
[data]
folder = "{tmp_path / 'data'}"
[web]
host = "127.0.0.1"
port = 0
admin_token = "s3cret-s3cret-s3cret"
""")
    proc, url = start(config)
    try:
        for text in ["4", "4", "b3/2", "3"]:
            assert post(url, "/api/move", {"text": text}, "s3cret-s3cret-s3cret")["ok"]
        before = get(url, "/api/state")
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    proc, url = start(config)
    try:
        after = get(url, "/api/state")
        assert after["game_id"] == before["game_id"]
        assert after["moves"] == ["4", "4", "b3/2", "3"] == before["moves"]
        assert after["state"] == before["state"]
        assert post(url, "/api/move", {"text": "5"}, "s3cret-s3cret-s3cret")["ok"]
    finally:
        proc.terminate()
        proc.wait(10)
    assert proc.returncode == 0  # SIGTERM is a clean shutdown


def test_a_new_game_keeps_the_configured_variant_and_rulings(tmp_path):
    from controller.config import Config
    from controller.service import Service

    config = Config(path="(test)")
    config.game.name, config.game.variant = "chess", ""
    config.game.rulings = {"default_promotion": "n"}
    config.data.folder = str(tmp_path)
    service = Service(config, camera=False, devices=False)
    service.start()
    try:
        assert service.submit(NewGame()).ok  # the new-game button: no game, no variant
        assert service.referee.game.settings["default_promotion"] == "n"
        assert service.submit(NewGame(game="connect4", variant="blocker")).ok
        assert service.submit(NewGame(game="connect4")).ok  # the page names the game
        assert service.referee.game.variant == "blocker" and service.referee.game.settings == {}
    finally:
        service.stop()


def test_a_busy_referee_gets_one_tick_of_its_clock_at_a_time(tmp_path, monkeypatch):
    """While a wrong board is waited out every frame is a tick of the referee's clock; a
    referee thread slower than the frames once had them pile up in its inbox, so it fell
    ever further behind the table (seen under load: an alarm raised seconds late, the
    board put right meanwhile still waiting in the queue). One waits at a time."""
    import threading

    import numpy as np

    from controller.config import Config
    from controller.service import Service

    config = Config(path="(test)")
    config.data.folder = str(tmp_path / "data")
    config.camera.source = "synthetic"
    frame = np.zeros((48, 64, 3), np.uint8)
    shown = threading.Event()

    def frames():
        for k in range(2000):
            yield k / 30, frame
        shown.set()
        while True:
            yield 99.0, frame

    service = Service(config, camera=SyntheticCamera(frames()), devices=False)
    monkeypatch.setattr(service.table, "see", lambda t, f: Tick(t, 0.0))
    hung, release = hang_referee(service, monkeypatch)
    service.submit(Hang(), wait=False)
    service.start()
    try:
        assert hung.wait(5) and shown.wait(30)  # 2,000 frames while the referee is busy
        assert service._inbox.qsize() <= 1
    finally:
        release.set()
        service.stop()


def test_a_camera_that_hangs_at_stop_does_not_abort_the_program(tmp_path, monkeypatch, caplog):
    """A camera read that hangs in its driver outlives the service's stop; the service
    says so and names the thread, and the `referee` program then ends with its status
    instead of aborting in OpenCV's C++ at the interpreter's exit (seen: a demo stopped
    with Ctrl-C exited -6, "terminate called without an active exception")."""
    import threading

    import numpy as np

    from controller import service as service_module
    from controller.config import Config
    from controller.service import Service

    config = Config(path="(test)")
    config.data.folder = str(tmp_path / "data")
    config.camera.source = "synthetic"
    release = threading.Event()

    def frames():
        release.wait()  # the driver does not come back
        yield 0.0, np.zeros((48, 64, 3), np.uint8)

    monkeypatch.setattr(service_module, "STOP_S", 0.3)
    service = Service(config, camera=SyntheticCamera(frames()), devices=False)
    service.start()
    service.stop()
    assert "the camera thread did not stop within 0 s" in caplog.text
    release.set()

    # the program's end with a thread still inside OpenCV (as a hung camera thread would be)
    script = ("import threading, numpy, cv2, sys\n"
              "from controller import cli\n"
              "img = numpy.zeros((1500, 1500, 3), numpy.uint8)\n"
              "def spin():\n"
              "    while True: cv2.GaussianBlur(img, (31, 31), 0)\n"
              "for _ in range(2): threading.Thread(target=spin, daemon=True).start()\n"
              "cli.main = lambda: print('done') or 3\n"
              "cli.program()\n")
    for _ in range(3):
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
        assert (run.returncode, run.stdout) == (3, "done\n"), run.stderr[-500:]
        assert "terminate called" not in run.stderr
