"""Server-Sent Events: every event on the bus, as one JSON message, to each open page.

Each client gets its own queue on the bus. The response generator waits on that queue,
and when nothing happens for a while it sends a comment line: that keeps proxies from
closing an idle stream, and it is how a client that went away is noticed (the write
fails, the server closes the response, and that takes the queue off the bus).

Under waitress each open stream holds one worker thread for as long as it is open. If
the streams took every thread, nothing would be left to serve /api/state or a player's
move, so the number of streams is capped below the thread count; a page beyond the cap
gets a 503 and says it is not live.
"""
from __future__ import annotations

import json
import queue
import threading

from flask import Blueprint, Response, current_app

from .payload import ApiError, service

stream = Blueprint("stream", __name__)

_CLOSE = object()  # put into a stream's queue to end it (service shutdown)


class Streams:
    """The open event streams of one app: how many there may be, and ending them all."""

    def __init__(self, limit: int):
        self.limit = limit
        self._open: set[queue.Queue] = set()
        self._lock = threading.Condition()

    def open(self, bus) -> queue.Queue | None:
        with self._lock:
            if len(self._open) >= self.limit:
                return None
            q: queue.Queue = queue.Queue()
            self._open.add(q)
        bus.subscribe(q)
        return q

    def release(self, bus, q: queue.Queue) -> None:
        bus.unsubscribe(q)
        with self._lock:
            self._open.discard(q)
            self._lock.notify_all()

    def count(self) -> int:
        with self._lock:
            return len(self._open)

    def close_all(self, timeout: float = 2.0) -> bool:
        """End every open stream now and wait (up to `timeout`) until the server has
        closed them, so their threads are free before the server stops. True if all
        ended in time."""
        with self._lock:
            for q in self._open:
                q.put(_CLOSE)
            return self._lock.wait_for(lambda: not self._open, timeout)


def event_stream(q: queue.Queue, heartbeat_s: float):
    # `retry` tells the browser how soon to reconnect after a dropped connection
    yield "retry: 2000\n: connected\n\n"
    while True:
        try:
            event = q.get(timeout=heartbeat_s)
        except queue.Empty:
            yield ": keep-alive\n\n"
            continue
        if event is _CLOSE:
            return
        yield f"data: {json.dumps(event.to_json())}\n\n"


@stream.get("/events")
def events():
    return stream_response(service().bus, "raise [web] threads")


def stream_response(bus, advice: str) -> Response:
    """An event stream of `bus` for one page (the status page's, the hall's)."""
    streams: Streams = current_app.extensions["referee_streams"]
    q = streams.open(bus)
    if q is None:
        raise ApiError(503, f"too many open pages ({streams.limit}); close one, or {advice}")
    response = Response(event_stream(q, current_app.config["HEARTBEAT_S"]), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    # the server closes the response when the stream ends or its client is gone, even
    # if the stream never started
    response.call_on_close(lambda: streams.release(bus, q))
    return response
