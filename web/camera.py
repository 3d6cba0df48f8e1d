"""What the camera sees, for everyone at the table: a small picture of the latest frame,
and on a camera alarm the frame that caused it, kept until the board is put right.

The frames are the watcher's own (`watcher.last_frame`); the web layer only keeps a
reference to the one in view when an alarm is raised and draws on a small copy when a
page asks: the board's outline (as located) and a caption of what was read. No frame is
encoded unless a page asks for it, so the referee's thread pays nothing."""
from __future__ import annotations

import threading

WIDTH = 480  # pixels across: enough to see the board, small enough for a phone on Wi-Fi


class CameraShots:
    def __init__(self, service):
        self.service = service
        self._lock = threading.Lock()
        self.alarm: tuple | None = None  # (frame, quad, caption) of the standing camera alarm
        self.last_move: str | None = None
        if getattr(service, "bus", None) is not None:
            service.bus.subscribe(self._on_event)

    def _on_event(self, event) -> None:
        data = event.data or {}
        with self._lock:
            if event.kind == "illegal" and data.get("source") == "camera":
                watcher = self.service.watcher
                frame = getattr(watcher, "last_frame", None)
                if frame is not None:
                    words = data.get("fix") or data.get("reason") or "illegal"
                    who = data.get("who")
                    self.alarm = (frame, getattr(watcher, "quad", None),
                                  "ALARM " + ((who + ": ") if who else "") + words)
            elif event.kind in ("restored", "move", "undo", "game_started"):
                self.alarm = None
                if event.kind == "move":
                    self.last_move = data.get("text") or data.get("notation")
                elif event.kind == "game_started":
                    self.last_move = None

    def jpeg(self, which: str = "live") -> bytes | None:
        """The alarm's frame ("alarm", while one stands) or the latest one, small, drawn over."""
        with self._lock:
            alarm, last = self.alarm, self.last_move
        if which == "alarm" and alarm is not None:
            frame, quad, caption = alarm
            ok = False
        else:
            watcher = self.service.watcher
            frame = getattr(watcher, "last_frame", None)
            if frame is None:
                return None
            quad = getattr(watcher, "quad", None)
            caption = ("read: " + last) if last else "watching the board"
            ok = True
        return _draw(frame, quad, caption, ok)


def _draw(frame, quad, caption: str, ok: bool) -> bytes | None:
    import cv2
    import numpy as np

    h, w = frame.shape[:2]
    scale = min(1.0, WIDTH / float(w))
    small = cv2.resize(frame, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else frame.copy()
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    colour = (60, 170, 60) if ok else (40, 40, 220)  # BGR: green for a read, red for an alarm
    if quad is not None:
        pts = (np.asarray(quad, np.float32).reshape(-1, 2) * scale).astype(np.int32)
        # an alarm's outline is drawn thick and dashed-looking (a second, offset line),
        # so it is told from a normal read by its shape as well as its colour
        cv2.polylines(small, [pts], True, colour, 4 if not ok else 2)
        if not ok:
            cv2.polylines(small, [pts], True, (255, 255, 255), 1)
    bar = 26
    cv2.rectangle(small, (0, small.shape[0] - bar), (small.shape[1], small.shape[0]), (0, 0, 0), -1)
    cv2.putText(small, caption[:70], (6, small.shape[0] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1,
                cv2.LINE_AA)
    ok_enc, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return buf.tobytes() if ok_enc else None
