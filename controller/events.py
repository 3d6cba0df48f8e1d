"""What goes into the referee and what comes out of it, as typed values, and the bus.

Commands go in: each is a small frozen value (`Enter` a move, `NewGame`, `View` a board
the camera saw, ...) that the Table (controller/table.py) dispatches on its type, whoever
sends it: the page, the CLI, the camera thread, a device's button.

Events come out: everything the referee decides is an Event, a `Kind`, a
JSON-serialisable payload, and where it belongs (game id, sequence number in the
journal). The journal writes an event first; only then does the bus hand it to the page
(SSE), the devices (buzzer, LEDs) and anyone else listening. Kinds the referee writes:
game_started, move (a roll or a choice is a move too), illegal, restored, game_over,
undo, doubt, doubt_cleared, corrected, recovered, position_set, clock (a low-time warning,
in words: controller/clock.py); which of them change the game's record (game_started,
move, undo, corrected with the plies it retracts, position_set) is said once, in
controller/record.py. The devices and the service publish link and notice events, the referee `record` when
the journal cannot keep the record (and when it keeps it again), the voice said events
(controller/voice.py), the hall its own (none of these journalled). What an event means to the listeners (does it raise or clear the camera's
alarm?) is asked of the event, here, never worked out by each listener.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable


class Kind(StrEnum):
    """An event's kind. A str: it is written to the journal, JSON and MQTT as its value."""

    GAME_STARTED = "game_started"
    MOVE = "move"
    ILLEGAL = "illegal"
    RESTORED = "restored"
    GAME_OVER = "game_over"
    UNDO = "undo"
    DOUBT = "doubt"
    DOUBT_CLEARED = "doubt_cleared"
    CORRECTED = "corrected"
    RECOVERED = "recovered"  # plies found late, after the camera lost the board for a while
    POSITION_SET = "position_set"  # the admin accepted the board as it stands (rebuilds a game)
    CLOCK = "clock"  # a low-time warning, said once a side (controller/clock.py)
    NOTICE = "notice"  # a message for the page (a camera lost, a roll not due)
    LINK = "link"  # the die module's link came up or went down
    RECORD = "record"  # the journal cannot keep the record ("kept": false), or keeps it again
    REPEAT = "repeat"  # say the last announcement again (the die's button, the page's "Say again")
    SAID = "said"  # the voice said something: its words and its WAV in the data folder's speech/
    HALL_NOTE = "hall_note"
    HALL_LINK = "hall_link"
    HALL_WARNINGS = "hall_warnings"
    HALL_ONLINE = "hall_online"
    HALL_STATE = "hall_state"
    HALL_EVENT = "hall_event"


# the board is as the game says again: a standing camera alarm is over (the devices, the
# page, the hall's store and its page all ask `clears_alarm`)
CLEARS_ALARM = frozenset({Kind.RESTORED, Kind.MOVE, Kind.UNDO, Kind.GAME_STARTED, Kind.POSITION_SET})


def clears_alarm(kind: str) -> bool:
    """Does an event of this kind (a `Kind`, or the plain word another table sent, maybe
    one this version does not know) put a standing camera alarm right?"""
    return kind in CLEARS_ALARM
# the keys of an event's JSON that are not its data (the hall adds "prev" and "journal")
ENVELOPE = ("type", "game_id", "seq", "t", "prev", "journal", "camera_alarm", "clears_alarm")


@dataclass(frozen=True)
class Event:
    kind: Kind
    data: dict[str, Any]
    game_id: int | None = None
    seq: int | None = None
    t: float = field(default_factory=time.time)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))  # ValueError for a kind no one knows

    @property
    def camera_alarm(self) -> bool:
        """An illegal board the camera saw: the alarm stands until the board is put right
        (a mistake typed on the page or the CLI leaves the board as it was)."""
        return self.kind == Kind.ILLEGAL and self.data.get("source") == "camera"

    @property
    def clears_alarm(self) -> bool:
        return clears_alarm(self.kind)

    def to_json(self, page: bool = False) -> dict:
        """The event as JSON (the journal's export, `referee play`, the hall); with `page`,
        also what the page's script asks of it (`camera_alarm`, `clears_alarm`)."""
        out = {"type": self.kind.value, **self.data, "game_id": self.game_id, "seq": self.seq, "t": self.t}
        if page:
            out.update(camera_alarm=self.camera_alarm, clears_alarm=self.clears_alarm)
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Event":
        """The event `to_json` wrote (or a table sent the hall); ValueError for an
        unknown kind, KeyError without one."""
        return cls(data["type"], {k: v for k, v in data.items() if k not in ENVELOPE},
                   data.get("game_id"), data.get("seq"), data.get("t", time.time()))


# --- commands: what the Table is asked to do (controller/table.py dispatches on the type)
@dataclass(frozen=True)
class View:
    """A board the camera saw settle (a vision BoardView)."""

    view: Any


@dataclass(frozen=True)
class Tick:
    """The camera's clock while a wrong or unclear board is waited out."""

    t: float
    moved_at: float | None


@dataclass(frozen=True)
class Settle:
    """No more frames will come (the end of a recording)."""


@dataclass(frozen=True)
class Enter:
    """A move typed in the game's notation (the page, the CLI, a replayed record).
    `at`: the position it answers (the snapshot's `position`), for a tap on the page (a
    doubt's reading, a choice, a space): refused if the position has changed since."""

    text: str
    source: str = "page"
    seat: int | None = None
    at: int | None = None


@dataclass(frozen=True)
class RollDie:
    """A press of a roll button: the referee draws the roll the game waits for."""


@dataclass(frozen=True)
class NewGame:
    game: str | None = None  # None: the game in play (the new-game button)
    variant: str | None = None
    setup: dict | None = None  # a recorded deal (a replay); None: drawn, or read from the table
    clock: str | None = None  # a chess time control ("3+2"; "" none); None: the game's as before
    players: tuple | None = None  # the players' names by seat (controller/players.py); None: the seats' own words


@dataclass(frozen=True)
class Enrol:
    """The names the players gave the treasure pictures of a game read from the table."""

    names: dict


@dataclass(frozen=True)
class Undo:
    at: int | None = None  # the position the page's undo was asked at (as Enter.at)


@dataclass(frozen=True)
class SetPosition:
    """The admin accepts the board as it stands: the position in the game's own terms
    (chess: {"fen": ...}), refereed on from."""

    setup: dict


@dataclass(frozen=True)
class Corners:
    """Four corners clicked on the page's calibration view."""

    points: Any


Command = View | Tick | Settle | Enter | RollDie | NewGame | Enrol | Undo | SetPosition | Corners


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
