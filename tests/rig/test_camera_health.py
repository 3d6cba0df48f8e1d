"""Issue 13 #1: camera health is true. A source that ends or keeps failing is "camera
lost" on /api/status and the busy LED, it is reopened with backoff, and a camera that
comes back is refereed again. Real folders of images, a real Service with gpiozero's
MockFactory pins, the page's API through Flask's test client."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from support import offline_config
from controller.service import Service
from vision.camera import CameraError, Camera, KeptCamera, open_camera
from controller.demo_rig.render_connect4 import empty_grid, render
from web import create_app
from waiting import wait


def write_frames(folder, labels, n=16):
    """`n` frames of the grid (each with its own sensor noise: a real camera never gives
    the same frame twice) into `folder`, replacing what was there."""
    folder.mkdir(exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    shot = render(labels).astype(np.int16)
    rng = np.random.default_rng(1)
    for i in range(n):
        noisy = np.clip(shot + rng.integers(-2, 3, shot.shape), 0, 255).astype(np.uint8)
        cv2.imwrite(str(folder / f"{i:04d}.png"), noisy)


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_a_folder_that_ends_is_lost_then_reopened_with_backoff_and_time_goes_on(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((48, 64, 3), 50 + i, np.uint8))
    clock = Clock()
    tries = []

    def opener():
        tries.append(clock.t)
        return open_camera(str(tmp_path), fps=10)

    cam = KeptCamera(opener, first_wait=1.0, longest_wait=4.0, clock=clock)
    times = [cam.read()[0] for _ in range(3)]
    assert cam.read() is None and cam.state == "camera lost" and "the source ended" in cam.problem
    assert cam.read() is None  # not yet: it waits first_wait before opening again
    clock.t += 1.0
    assert cam.read() is None and cam.state == "camera lost"  # the same folder: played out (issue 28)
    cv2.imwrite(str(tmp_path / "3.png"), np.full((48, 64, 3), 53, np.uint8))  # refilled
    clock.t += 2.0
    got = cam.read()
    assert got is not None and cam.state == "ok" and cam.reopened == 1
    assert got[0] > times[-1]  # the folder's clock starts at 0 again; the camera's goes on
    # the source goes away: each failed try waits twice as long, up to longest_wait
    for p in tmp_path.glob("*.png"):
        p.unlink()
    for _ in range(60):  # its files cannot be read (50 in a row), or it ends
        if cam.read() is None and cam.state == "camera lost":
            break
    assert cam.state == "camera lost"
    lost_at, tries[:] = clock.t, []
    for _ in range(40):
        clock.t += 0.5
        assert cam.read() is None
    assert np.diff([lost_at] + tries).tolist()[:5] == [1.0, 2.0, 4.0, 4.0, 4.0], tries
    assert "holds no images" in cam.problem and "trying again" in cam.problem
    cv2.imwrite(str(tmp_path / "back.png"), np.full((48, 64, 3), 90, np.uint8))
    clock.t += 4.0
    assert cam.read() is not None and cam.state == "ok"
    cam.close()


def test_fifty_unreadable_frames_in_a_row_lose_the_camera_and_it_is_opened_again():
    class Broken(Camera):
        name = "device 0"

        def __init__(self, fail):
            self.fail = fail

        def read(self):
            if self.fail:
                raise CameraError("camera device 0 stopped giving frames")
            return 0.0, np.zeros((4, 4, 3), np.uint8)

    opened = []
    clock = Clock()
    cam = KeptCamera(lambda: opened.append(1) or Broken(fail=len(opened) == 1), clock=clock)
    for _ in range(49):
        assert cam.read() is None
    assert cam.state == "ok" and cam.failures == 49  # a few bad frames are not a lost camera
    assert cam.read() is None and cam.state == "camera lost"
    assert "stopped giving frames (50 frames in a row)" in cam.problem
    clock.t += 1.0
    assert cam.read() is not None and cam.state == "ok" and len(opened) == 2


@pytest.mark.timeout(60)
def test_the_service_says_camera_lost_lights_busy_and_referees_again_when_it_is_back(tmp_path, mock_pins):
    frames = tmp_path / "frames"
    write_frames(frames, empty_grid())
    config = offline_config(tmp_path, frames, variant="classic")
    service = Service(config)
    notices = []
    service.bus.subscribe(lambda e: e.kind == "notice" and notices.append(e.data["text"]))
    client = create_app(service).test_client()
    busy = mock_pins.pin(config.gpio.led_busy)
    service.start()
    try:
        seen, lit = set(), set()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not {"ok", "camera lost"} <= seen:
            seen.add(client.get("/api/status").get_json()["camera"])
            if "camera lost" in seen:
                lit.add(busy.state)
            time.sleep(0.02)
        assert {"ok", "camera lost"} <= seen  # the 16 frames were read, then the folder ended
        assert any("camera lost" in n and "the source ended" in n for n in notices)
        assert 1 in lit  # the busy LED said so too
        # the camera comes back showing a chip dropped in column 4: refereeing goes on
        write_frames(frames, {**empty_grid(), (3, 0): "p0"})
        wait(lambda: service.snapshot()["moves"] == ["4"], timeout=20)
        assert service.snapshot()["moves"] == ["4"]
        assert any("is back" in n for n in notices) and service.camera.reopened >= 1
    finally:
        service.stop()


@pytest.mark.timeout(60)
def test_one_unreadable_frame_is_skipped_and_refereeing_goes_on(tmp_path):
    """A bad frame is not a lost camera: the next frames are read and the move they show
    is recorded (before, the camera thread took the bad frame for the end of the source
    and stopped for good, and a folder retried the same file forever)."""
    frames = tmp_path / "frames"
    write_frames(frames, empty_grid())
    (frames / "0016.png").write_bytes(b"not a picture")
    later = tmp_path / "later"
    write_frames(later, {**empty_grid(), (3, 0): "p0"})
    for i, path in enumerate(sorted(later.glob("*.png"))):
        path.rename(frames / f"{17 + i:04d}.png")
    config = offline_config(tmp_path, frames, variant="classic")
    service = Service(config, devices=False)
    service.start()
    try:
        wait(lambda: service.snapshot()["moves"] == ["4"], timeout=20)
        assert service.snapshot()["moves"] == ["4"]
    finally:
        service.stop()
