"""Events and the bus.

Everything the referee decides is an Event: a kind, a JSON-serialisable payload, and
where it belongs (game id, sequence number in the journal). The journal writes an event
first; only then does the bus hand it to the page (SSE), the devices (buzzer, LEDs) and
anyone else listening.

Kinds the referee writes: game_started, move (a roll or a choice is a move too),
illegal, restored, game_over, undo; of these game_started, move and undo rebuild a game.
The devices and the service publish link and notice events (not journalled).
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any]
    game_id: int | None = None
    seq: int | None = None
    t: float = field(default_factory=time.time)

    def to_json(self) -> dict:
        return {"type": self.kind, **self.data, "game_id": self.game_id, "seq": self.seq, "t": self.t}


log = logging.getLogger("referee")


class Bus:
    """Fan-out of events to subscribers. A subscriber is a callable or a Queue; a slow
    or failing subscriber never stops the others or the referee."""

    def __init__(self) -> None:
        self._subs: list[Callable[[Event], None] | queue.Queue] = []
        self._lock = threading.Lock()
        self.errors: deque[str] = deque(maxlen=50)  # the latest listener faults, also logged

    def subscribe(self, sub):
        with self._lock:
            self._subs.append(sub)
        return sub

    def unsubscribe(self, sub) -> None:
        with self._lock:
            if sub in self._subs:
                self._subs.remove(sub)

    def publish(self, event: Event) -> None:
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            try:
                if isinstance(sub, queue.Queue):
                    sub.put_nowait(event)
                else:
                    sub(event)
            except Exception as exc:  # a listener's fault must not stop refereeing
                self.errors.append(f"{getattr(sub, '__name__', sub)!s}: {exc}")
                log.exception("bus: a listener failed on %s", event.kind)
