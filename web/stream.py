"""Server-Sent Events: every event on the bus, as one JSON message, to each open page.

Each client gets its own queue on the bus. The response generator waits on that queue,
and when nothing happens for a while it sends a comment line: that keeps proxies from
closing an idle stream, and it is how a client that went away is noticed (the write
fails, the server closes the response, and that takes the queue off the bus).

Under waitress each open stream holds one worker thread for as long as it is open. If
the streams took every thread, nothing would be left to serve /api/state or a player's
move, so the number of streams is capped below the thread count; a page beyond the cap
gets a 503 and says it is not live. One address may hold only a share of the streams
(PER_ADDRESS, and never more than half), so one machine holding connections open cannot
take live updates from everyone else. A client that goes away is noticed within POLL_S:
`referee serve` runs waitress with a request look-ahead, which makes waitress watch the
connection and offer `waitress.client_disconnected`; the stream asks it each POLL_S and
ends, and its thread and slot come back at once. (Without it, as under a test client,
the next heartbeat's failed write notices it.)
"""
from __future__ import annotations

import json
import queue
import threading

from flask import Blueprint, Response, current_app, request

from .payload import ApiError, service

stream = Blueprint("stream", __name__)

_CLOSE = object()  # put into a stream's queue to end it (service shutdown)
PER_ADDRESS = 3  # streams one address may hold (a phone and a laptop, and a spare)
POLL_S = 0.5  # how often a waiting stream asks whether its client is still there
QUEUE_LIMIT = 1000  # events waiting for one slow client; past this it is ended


class Streams:
    """The open event streams of one app: how many there may be (in all and per
    address), and ending them all."""

    def __init__(self, limit: int):
        self.limit = limit
        self.per_address = max(1, min(PER_ADDRESS, limit // 2))
        self._open: dict[queue.Queue, tuple] = {}  # queue -> (the client's address, its bus listener)
        self._lock = threading.Condition()

    def open(self, bus, address: str = "", advice: str = "raise [web] threads") -> queue.Queue | str:
        """A new stream's queue, subscribed to the bus; or why not, in words (`advice`:
        what the operator of this page can do about a full house)."""
        with self._lock:
            if len(self._open) >= self.limit:
                return f"too many open pages ({self.limit}); close one, or {advice}"
            if sum(a == address for a, _ in self._open.values()) >= self.per_address:
                return f"too many open pages from {address} ({self.per_address}); close one there"
            q: queue.Queue = queue.Queue(QUEUE_LIMIT)
            self._open[q] = (address, lambda event: _put(q, event))
        bus.subscribe(self._open[q][1])
        return q

    def release(self, bus, q: queue.Queue) -> None:
        with self._lock:
            _, listener = self._open.pop(q, (None, None))
            self._lock.notify_all()
        bus.unsubscribe(listener)

    def count(self) -> int:
        with self._lock:
            return len(self._open)

    def close_all(self, timeout: float = 2.0) -> bool:
        """End every open stream now and wait (up to `timeout`) until the server has
        closed them, so their threads are free before the server stops. True if all
        ended in time."""
        with self._lock:
            for q in self._open:
                _put(q, _CLOSE)
            return self._lock.wait_for(lambda: not self._open, timeout)


def _put(q: queue.Queue, item) -> None:
    """Into a stream's queue; a client that let QUEUE_LIMIT events pile up is ended."""
    try:
        q.put_nowait(item)
    except queue.Full:
        with q.mutex:
            q.queue.clear()
        q.put_nowait(_CLOSE)


def event_stream(q: queue.Queue, heartbeat_s: float, gone=lambda: False):
    """The stream's text. `gone()`: has the client gone away (waitress's check)?"""
    # `retry` tells the browser how soon to reconnect after a dropped connection
    yield "retry: 2000\n: connected\n\n"
    quiet = 0.0
    while not gone():
        try:
            event = q.get(timeout=min(POLL_S, heartbeat_s))
        except queue.Empty:
            quiet += min(POLL_S, heartbeat_s)
            if quiet >= heartbeat_s:
                quiet = 0.0
                yield ": keep-alive\n\n"
            continue
        if event is _CLOSE:
            return
        quiet = 0.0
        yield f"data: {json.dumps(event.to_json(page=True))}\n\n"


@stream.get("/events")
def events():
    return stream_response(service().bus, "raise [web] threads")


def stream_response(bus, advice: str) -> Response:
    """An event stream of `bus` for one page (the status page's, the hall's)."""
    streams: Streams = current_app.extensions["referee_streams"]
    q = streams.open(bus, request.remote_addr or "", advice)
    if isinstance(q, str):
        raise ApiError(503, q)
    gone = request.environ.get("waitress.client_disconnected", lambda: False)
    response = Response(event_stream(q, current_app.config["HEARTBEAT_S"], gone), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    # the server closes the response when the stream ends or its client is gone, even
    # if the stream never started
    response.call_on_close(lambda: streams.release(bus, q))
    return response
