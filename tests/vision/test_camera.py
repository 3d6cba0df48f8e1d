"""Camera sources: a folder of images, a video file, frames supplied by the caller, and
clear messages for sources that are not there."""
import cv2
import numpy as np
import pytest

from vision.camera import CameraError, open_camera


def frame(value: int, size=(64, 48)) -> np.ndarray:
    return np.full((size[1], size[0], 3), value, np.uint8)


def test_folder_gives_images_in_name_order_on_its_own_clock(tmp_path):
    for name, value in (("frame_002.png", 30), ("frame_001.png", 20), ("frame_010.png", 40)):
        cv2.imwrite(str(tmp_path / name), frame(value))
    (tmp_path / "notes.txt").write_text("not an image")
    cam = open_camera(str(tmp_path), fps=10)
    got = list(cam)
    assert cam.frame_count == 3
    assert [round(t, 3) for t, _ in got] == [0.0, 0.1, 0.2]
    assert [int(f.mean()) for _, f in got] == [20, 30, 40]
    assert cam.read() is None
    cam.close()


def test_video_file_frames_are_timed_by_the_files_frame_rate(tmp_path):
    path = tmp_path / "clip.mp4"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 24, (64, 48))
    for i in range(12):
        out.write(frame(10 + 15 * i))
    out.release()
    with open_camera(str(path)) as cam:
        got = list(cam)
        assert cam.frame_count == 12
    assert len(got) == 12
    assert got[5][0] == pytest.approx(5 / 24)
    assert got[-1][1].shape == (48, 64, 3)
    brightness = [f.mean() for _, f in got]
    assert brightness == sorted(brightness)  # the frames come in order


def test_synthetic_source_passes_the_callers_frames_through():
    frames = [(0.0, frame(1)), (0.5, frame(2))]
    cam = open_camera("synthetic", frames=iter(frames))
    assert cam.read()[0] == 0.0 and cam.read()[0] == 0.5 and cam.read() is None


@pytest.mark.parametrize("source,words", [
    ("/nowhere/game.mp4", ["/nowhere/game.mp4", "no such file"]),
    ("synthetic", ["synthetic", "frames"]),
    ("picamera2", ["picamera2", "apt"]),  # not installable off a Pi: a message, not a crash
])
def test_sources_that_are_not_there_are_named_in_the_message(source, words):
    with pytest.raises(CameraError) as err:
        open_camera(source)
    assert all(w in str(err.value) for w in words)


def test_empty_folder_and_undecodable_file_are_named(tmp_path):
    with pytest.raises(CameraError, match="holds no images"):
        open_camera(str(tmp_path))
    bad = tmp_path / "broken.mp4"
    bad.write_bytes(b"this is not a video")
    with pytest.raises(CameraError, match="broken.mp4"):
        open_camera(str(bad))
