"""Camera sources behind one small interface: `read()` gives (t seconds, BGR frame).

- "picamera2": the Raspberry Pi's CSI camera (picamera2 comes from apt on the Pi and is
  imported only here, only when asked for, because it cannot be installed elsewhere);
- "0", "1", ...: a V4L2 device (USB webcam) through cv2.VideoCapture;
- a video file or URL: cv2.VideoCapture; t is frame index / the file's frame rate, so a
  replay runs on the recording's clock, not the wall clock;
- a folder of images: sorted by name, t is index / fps;
- "synthetic": frames the caller supplies as (t, frame) pairs (the demo rig renders
  them).

Opening a source that is not there raises CameraError with a message naming it. Black
or frozen frames are not errors here: the Watcher reports them in its status ("too dark",
"frozen"). A source that ends or keeps failing is: `KeptCamera` says "camera lost" and
opens it again, waiting longer after each failed try, so a camera that comes back (a
cable pushed home, a capture folder refilled) is refereed again without a restart.
"""
from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable, Iterable, Iterator

import cv2
import numpy as np

from .images import IMAGE_TYPES, ImageError, read_image



class CameraError(RuntimeError):
    """A camera source that cannot be opened or read; the message names it."""


class Camera:
    name = "camera"
    frame_count: int | None = None  # known for files and folders (for progress bars)
    # the source's None from `read` is its end (the demo's frames), not a bad frame or a
    # lost camera to wait out (a real source the service keeps open)
    ends: bool = False

    def read(self) -> tuple[float, np.ndarray] | None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def contents(self):
        """What a recording holds (its files, their sizes and times), to tell one
        refilled or rewritten from the same played again; None for a live source."""
        return None

    def __iter__(self) -> Iterator[tuple[float, np.ndarray]]:
        while (item := self.read()) is not None:
            yield item

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class CaptureCamera(Camera):
    """cv2.VideoCapture on a device index, a file or a URL."""

    def __init__(self, source: str, width: int, height: int, fps: float):
        self.name = source
        self.live = source.isdigit()
        self.cap = cv2.VideoCapture(int(source) if self.live else source)
        if not self.cap.isOpened():
            raise CameraError(self._why_not(source))
        if self.live:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            self.cap.set(cv2.CAP_PROP_FPS, fps)
            self.t0 = time.monotonic()
        else:
            self.fps = self.cap.get(cv2.CAP_PROP_FPS) or fps
            n = int(self.cap.get(cv2.CAP_PROP_FRAME_COUNT))
            self.frame_count = n if n > 0 else None
        self.index = 0

    def _why_not(self, source: str) -> str:
        """Why the source did not open, for what it is (a missing file is open_camera's
        to say: never "no such file" for one that is there)."""
        if self.live:
            return f"camera device {source} cannot be opened (is a camera plugged in?)"
        if "://" in source:
            return f"video stream {source!r} cannot be opened (is the address right, and the stream up?)"
        size = Path(source).stat().st_size
        if size == 0:
            return f"video {source!r} cannot be opened: the file is empty (0 bytes)"
        return (f"video {source!r} cannot be opened: OpenCV decodes no video or picture in it ({size:,} "
                "bytes; a video file or a folder of pictures is expected)")

    def read(self):
        ok, frame = self.cap.read()
        if not ok:
            if self.live:
                raise CameraError(f"camera device {self.name} stopped giving frames")
            return None
        t = time.monotonic() - self.t0 if self.live else self.index / self.fps
        self.index += 1
        return t, frame

    def close(self):
        self.cap.release()

    def contents(self):
        if self.live or "://" in self.name:
            return None
        try:
            st = os.stat(self.name)
        except OSError:
            return None
        return st.st_size, st.st_mtime_ns


class FolderCamera(Camera):
    def __init__(self, folder: Path, fps: float):
        self.name = str(folder)
        self.files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_TYPES)
        if not self.files:
            raise CameraError(f"folder {self.name!r} holds no images "
                              f"({', '.join(sorted(IMAGE_TYPES))})")
        self.frame_count = len(self.files)
        self.fps, self.index = fps, 0

    def contents(self):
        out = []
        for p in self.files:
            try:
                st = p.stat()
            except OSError:
                return None  # a picture gone: not the folder played out
            out.append((p.name, st.st_size, st.st_mtime_ns))
        return tuple(out)

    def read(self):
        if self.index >= len(self.files):
            return None
        path, t = self.files[self.index], self.index / self.fps
        self.index += 1  # a file that cannot be read is skipped, not read again forever
        try:
            return t, read_image(path)  # its size checked before it is decoded
        except ImageError as exc:
            raise CameraError(f"image {exc}") from None


class SyntheticCamera(Camera):
    name = "synthetic"
    ends = True

    def __init__(self, frames: Iterable[tuple[float, np.ndarray]]):
        self.frames = iter(frames)

    def read(self):
        return next(self.frames, None)


class PiCamera(Camera):
    name = "picamera2"

    def __init__(self, width: int, height: int, fps: float):
        try:
            from picamera2 import Picamera2  # apt's python3-picamera2, only on a Pi
        except ImportError as exc:
            raise CameraError(f"camera 'picamera2' is not available here ({exc}); on a Raspberry "
                              "Pi install python3-picamera2 with apt and make the venv with "
                              "--system-site-packages (see hardware.md)") from None
        try:
            self.cam = Picamera2()
            config = self.cam.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"},
                controls={"FrameRate": fps})
            self.cam.configure(config)
            self.cam.start()
        except Exception as exc:  # libcamera raises its own types
            raise CameraError(f"camera 'picamera2' cannot be started: {exc}") from exc
        self.t0 = time.monotonic()

    def read(self):
        # libcamera's "RGB888" is laid out B, G, R in memory: OpenCV's order
        frame = self.cam.capture_array("main")
        return time.monotonic() - self.t0, frame

    def close(self):
        self.cam.stop()
        self.cam.close()


class KeptCamera(Camera):
    """A source kept open for a season. `read()` never raises: it gives (t, frame), or
    None when no frame came (then `state` says "camera lost" once `failures` reads in a
    row failed or the source ended, and `problem` says why). A lost source is closed and
    opened again by `opener()`, after `first_wait` s, then twice as long after each
    failed try up to `longest_wait`; a source that opens but gives no frame before it is
    lost again counts as a failed try too (it was reopened every second for good, issue
    21), and the first frame brings the wait back to `first_wait`. A recording that ended
    (a file or folder played out) is back only when it changes (`contents`): the same
    one opened again is closed unread, and said nothing of (else a folder of one
    picture is lost and back every second for good, two log lines and two page notices
    each). Time goes on across a reopening (a file or folder starts its own clock
    from 0 again), so the watcher's stillness clock never runs back.
    """

    def __init__(self, opener: Callable[[], Camera], *, failures: int = 50, first_wait: float = 1.0,
                 longest_wait: float = 30.0, clock=time.monotonic):
        self.opener, self.failures_allowed = opener, failures
        self.first_wait, self.longest_wait, self.clock = first_wait, longest_wait, clock
        self.camera: Camera | None = opener()  # the first open fails loudly: CameraError
        self.name = self.camera.name
        self.state, self.problem = "ok", None
        self.failures, self.reopened = 0, 0
        self._wait, self._retry_at = first_wait, 0.0
        self._gave = False  # whether the source gave a frame since it was (re)opened
        self._offset, self._last_t = 0.0, None
        self._ended = None  # what the recording that ended held (Camera.contents)

    def read(self):
        if self.camera is None and not self._reopen():
            return None
        try:
            got = self.camera.read()
        except Exception as exc:  # CameraError, or whatever a driver raises
            self.failures += 1
            self.problem = f"camera {self.name}: {type(exc).__name__}: {exc}"
            if self.failures >= self.failures_allowed:
                self._lose(f"{self.problem} ({self.failures} frames in a row)")
            return None
        if got is None:
            self._ended = self.camera.contents()
            self._lose(f"camera {self.name}: the source ended (read again when it changes)")
            return None
        t, frame = got
        if self._last_t is not None and t + self._offset <= self._last_t:
            self._offset = self._last_t + 1e-3 - t  # a reopened source starts its clock again
        self._last_t = t + self._offset
        self.failures, self.state, self.problem = 0, "ok", None
        self._wait, self._gave = self.first_wait, True
        return self._last_t, frame

    def _lose(self, why: str) -> None:
        self.state, self.problem = "camera lost", why
        self._close_source()
        self._retry_at = self.clock() + self._wait
        if not self._gave:
            self._wait = min(self._wait * 2, self.longest_wait)

    def _reopen(self) -> bool:
        if self.clock() < self._retry_at:
            return False
        try:
            self.camera = self.opener()
        except Exception as exc:  # still not there: wait longer before the next try
            self.problem = f"{exc}; trying again in {self._wait * 2:.0f} s" if self._wait < self.longest_wait \
                else f"{exc}; trying again every {self.longest_wait:.0f} s"
            self._wait = min(self._wait * 2, self.longest_wait)
            self._retry_at = self.clock() + self._wait
            return False
        if self._ended is not None and self.camera.contents() == self._ended:
            self._close_source()  # the same recording again: it is not back (a failed try)
            self._retry_at = self.clock() + self._wait
            self._wait = min(self._wait * 2, self.longest_wait)
            return False
        self._ended = None
        self.reopened += 1
        self.failures, self._gave = 0, False
        return True

    def _close_source(self) -> None:
        camera, self.camera = self.camera, None
        if camera is not None:
            try:
                camera.close()
            except Exception:  # closing a source that already failed may fail too
                pass

    def close(self) -> None:
        self._close_source()


def open_camera(source: str, *, width: int = 1280, height: int = 720, fps: float = 30.0,
                frames: Iterable[tuple[float, np.ndarray]] | None = None) -> Camera:
    """Open a camera source by name (see the module docstring)."""
    source = str(source)
    if source == "synthetic":
        if frames is None:
            raise CameraError("camera 'synthetic' needs the frames to show (the demo rig renders them)")
        return SyntheticCamera(frames)
    if source == "picamera2":
        return PiCamera(width, height, fps)
    if source.isdigit():
        return CaptureCamera(source, width, height, fps)
    if "://" not in source:
        path = Path(source)
        if not path.exists():
            raise CameraError(f"camera source {source!r}: no such file or folder")
        if path.is_dir():
            return FolderCamera(path, fps)
    return CaptureCamera(source, width, height, fps)
