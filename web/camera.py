"""What the camera sees, for everyone at the table: a small picture of the latest frame,
and on a camera alarm the frame that caused it, kept until the board is put right.

The frames are the watcher's own (`watcher.last_frame`); the web layer only keeps a
reference to the one in view when an alarm is raised and draws on a small copy when a
page asks: the board's outline (as located, thin) and the cells an alarm or a doubt names, boxed where the camera saw them (the reader's cell
outline mapped back through the watcher's homography): an alarm's boxes red and solid, a
doubt's amber and dashed, so they are told apart without colour. The caption (what was
read, or the alarm's words) is text the page lays over the picture (`caption`), never
pixels in it: drawn into a 480 px picture it shrank to 7 px on a phone and was cut off.
No frame is encoded unless a page asks for it, so the referee's thread pays nothing.

The picture is for anyone who can open the page, so it shows the board and a margin
around it (a hand reaching in), not the room: until the board is located there is no
picture (the admin's calibration view, /api/frame.jpg, shows the whole frame)."""
from __future__ import annotations

import threading

from controller.events import Kind

WIDTH = 480  # pixels across: enough to see the board, small enough for a phone on Wi-Fi
MARGIN = 0.1  # around the board, of its larger side: hands at its edge show, the room does not
# (BGR colour, dashed) of each drawing: a read's outline green; an alarm's boxes red and
# solid, a doubt's amber and dashed (told apart by their line as well as their colour)
READ = ((60, 170, 60), False)
ALARM = ((40, 40, 220), False)
DOUBT = ((0, 190, 255), True)


class CameraShots:
    def __init__(self, service):
        self.service = service
        self._lock = threading.Lock()
        self.alarm: tuple | None = None  # (frame, quad, boxes, caption) of the standing camera alarm
        self.doubt: tuple | None = None  # the same for the standing doubt
        self.last_move: str | None = None
        if getattr(service, "bus", None) is not None:
            service.bus.subscribe(self._on_event)

    def _on_event(self, event) -> None:
        data = event.data or {}
        with self._lock:
            if event.camera_alarm:
                who, words = data.get("who"), data.get("fix") or data.get("reason") or "illegal"
                self.alarm = self._marked(data, "ALARM " + ((who + ": ") if who else "") + words)
            elif event.kind == Kind.DOUBT:
                self.doubt = self._marked(data, "DOUBT " + (data.get("text") or "which move?"))
            elif event.kind == Kind.DOUBT_CLEARED:
                self.doubt = None
            elif event.clears_alarm:
                self.alarm = self.doubt = None
                if event.kind == Kind.MOVE:
                    self.last_move = data.get("text") or data.get("notation")
                elif event.kind == Kind.GAME_STARTED:
                    self.last_move = None

    def _marked(self, data: dict, caption: str) -> tuple | None:
        """(frame, quad, boxes, caption) for an event naming cells: the frame in view and
        each named cell's outline in it (names mapped back to the reader's cells by the
        game's own cell_name). None without a frame."""
        watcher = self.service.watcher
        frame = getattr(watcher, "last_frame", None)
        if frame is None:
            return None
        boxes = []
        names = set(data.get("cells") or ())
        game = getattr(getattr(self.service, "referee", None), "game", None)
        if names and game is not None and getattr(watcher, "H", None) is not None:
            boxes = [watcher.cell_outline(c) for c in watcher.reader.cells if game.cell_name(c) in names]
        return frame, getattr(watcher, "quad", None), boxes, caption

    def ready(self) -> bool:
        """Is there a picture to show now (a frame, and the board located in it)? The page
        asks for one only then."""
        watcher = self.service.watcher
        return getattr(watcher, "last_frame", None) is not None and getattr(watcher, "quad", None) is not None

    def missing(self) -> str:
        """Why there is no picture now."""
        watcher = self.service.watcher
        if getattr(watcher, "last_frame", None) is None:
            return "no camera frame yet (is the camera on?)"
        return ("the board is not located in the camera's view yet (the admin's calibration page "
                "shows the whole view)")

    def whole_frame(self) -> bytes | None:
        """The latest camera frame, whole, as JPEG (the admin's calibration view); None
        without one."""
        import cv2

        frame = getattr(self.service.watcher, "last_frame", None)
        if frame is None:
            return None
        ok, buf = cv2.imencode(".jpg", frame)
        return buf.tobytes() if ok else None

    def jpeg(self, which: str = "live") -> bytes | None:
        """The alarm's frame ("alarm", while one stands), the doubt's ("doubt"), or the
        latest one (with a standing doubt's cells boxed), small, drawn over."""
        with self._lock:
            alarm, doubt = self.alarm, self.doubt
        if which == "alarm" and alarm is not None:
            frame, quad, boxes, _ = alarm
            return _draw(frame, quad, ALARM, boxes)
        if which == "doubt" and doubt is not None:
            frame, quad, boxes, _ = doubt
            return _draw(frame, quad, DOUBT, boxes)
        watcher = self.service.watcher
        frame = getattr(watcher, "last_frame", None)
        if frame is None:
            return None
        boxes = doubt[2] if doubt is not None else []
        return _draw(frame, getattr(watcher, "quad", None), DOUBT if boxes else READ, boxes)

    def caption(self, which: str = "live") -> str:
        """The words of the picture `jpeg(which)` draws: the alarm's or the doubt's, or
        what was read last."""
        with self._lock:
            alarm, doubt, last = self.alarm, self.doubt, self.last_move
        if which == "alarm" and alarm is not None:
            return alarm[3]
        if doubt is not None and which in ("doubt", "live"):
            return doubt[3]
        return ("read: " + last) if last else "watching the board"


def view_box(quad, shape) -> tuple[tuple[int, int, int, int], float]:
    """((x0, y0, x1, y1) of the frame that is shown: the board's bounding box and MARGIN
    around it, within the frame; the scale it is shown at)."""
    import numpy as np

    h, w = shape[:2]
    pts = np.asarray(quad, np.float64).reshape(-1, 2)
    (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
    m = MARGIN * max(x1 - x0, y1 - y0)
    box = (max(0, int(x0 - m)), max(0, int(y0 - m)), min(w, int(np.ceil(x1 + m))), min(h, int(np.ceil(y1 + m))))
    return box, min(1.0, WIDTH / float(max(1, box[2] - box[0])))


def _draw(frame, quad, style: tuple, boxes=()) -> bytes | None:
    """The board's part of `frame`, small, drawn over; None while the board is not located."""
    import cv2
    import numpy as np

    if quad is None:
        return None
    colour, dashed = style
    (x0, y0, x1, y1), scale = view_box(quad, frame.shape)
    if x1 - x0 < 2 or y1 - y0 < 2:  # corners outside the frame
        return None
    part = frame[y0:y1, x0:x1]
    size = (max(1, int((x1 - x0) * scale)), max(1, int((y1 - y0) * scale)))
    small = cv2.resize(part, size, interpolation=cv2.INTER_AREA) if scale < 1 else part.copy()
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    origin = np.array([x0, y0], np.float32)
    pts = ((np.asarray(quad, np.float32).reshape(-1, 2) - origin) * scale).astype(np.int32)
    cv2.polylines(small, [pts], True, colour, 1)
    for box in boxes:
        pts = (np.asarray(box, np.float32).reshape(-1, 2) - origin) * scale
        for a, b in zip(pts, np.roll(pts, -1, axis=0)):
            _edge(small, a, b, colour, dashed)
    ok_enc, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return buf.tobytes() if ok_enc else None


def _edge(img, a, b, colour, dashed: bool) -> None:
    """One side of a box: solid, or dashes of 5 px with 4 px gaps."""
    import cv2
    import numpy as np

    if not dashed:
        cv2.line(img, tuple(int(v) for v in a), tuple(int(v) for v in b), colour, 2)
        return
    length = float(np.hypot(*(b - a)))
    for s in np.arange(0.0, length, 9.0):
        p, q = a + (b - a) * s / max(length, 1e-6), a + (b - a) * min(length, s + 5.0) / max(length, 1e-6)
        cv2.line(img, tuple(int(v) for v in p), tuple(int(v) for v in q), colour, 2)
