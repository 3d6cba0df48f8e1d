"""The game's record: the plies the journal's events say stand, folded in one place.

The journal is append-only, so a ply taken back stays in it with the event that took it
back beside it: an `undo` (the admin's), a `corrected` whose `retracted` plies the later
views showed were misread. Everyone who shows or replays a game's plies (the referee's
rebuild, the snapshot, /api/moves, the page, `referee play` and `replay`, the hall, the
exports) takes them from here, so they all agree with the game the referee holds.

A kind of event that changes the record is one entry of STEPS: the function that applies
it to the record. Every other kind (an alarm, a doubt, a notice) leaves it as it was.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .events import Event, Kind


@dataclass(frozen=True)
class Ply:
    """One recorded action: its notation (what the rules parse), its words in the game's
    describer ("Green Shell moves from f7 to f5"), the seat that made it (None: no one
    seat's, such as a draw agreed), when it was journalled and who entered it; on a chess
    clock, the mover's time left after it and both sides' (controller/clock.py)."""

    notation: str
    text: str
    seat: int | None = None
    t: float | None = None
    source: str | None = None
    clock: float | None = None
    clocks: tuple | None = None

    def to_json(self, seats: list | tuple = (), unsure: bool = False) -> dict:
        """The ply for the page, the API and the CLI; `name`: its seat's, from `seats`."""
        seat = self.seat
        name = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else None
        return {"notation": self.notation, "text": self.text, "seat": seat, "name": name, "t": self.t,
                "unsure": unsure}


@dataclass
class Record:
    """The game the events started (its rules' name, variant, settings and setup, the
    players' names by seat) and the plies that stand; after a position the admin set
    (`position_set`), `setup` is that position and the first `base` plies are those
    recorded before it (they stand as recorded; the game goes on from the setup)."""

    game: str | None = None
    variant: str | None = None
    settings: dict | None = None
    setup: dict = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    plies: list[Ply] = field(default_factory=list)
    base: int = 0

    def take(self, event: Event) -> None:
        """Apply one event (the fold's step; the referee takes each event it writes)."""
        step = STEPS.get(event.kind)
        if step is not None:
            step(self, event)

    @property
    def notations(self) -> list[str]:
        return [p.notation for p in self.plies]

    def to_json(self, seats: list | tuple = ()) -> list[dict]:
        return [p.to_json(seats) for p in self.plies]


def _started(record: Record, e: Event) -> None:
    record.game, record.variant = e.data.get("game"), e.data.get("variant")
    record.settings, record.setup, record.plies, record.base = e.data.get("settings"), e.data.get("setup") or {}, [], 0
    players = e.data.get("players")
    record.players = [p if isinstance(p, str) else "" for p in players] if isinstance(players, list) else []


def _move(record: Record, e: Event) -> None:
    notation = str(e.data.get("notation") or "?")  # a hand-edited journal: the rules will refuse "?"
    seat = e.data.get("seat")
    record.plies.append(Ply(notation, str(e.data.get("text") or notation),
                            seat if isinstance(seat, int) and not isinstance(seat, bool) else None,
                            e.t, e.data.get("source"), _seconds(e.data.get("clock")), _pair(e.data.get("clocks"))))


def _seconds(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _pair(value) -> tuple | None:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(_seconds(v) is not None for v in value):
        return tuple(float(v) for v in value)
    return None


def _undo(record: Record, e: Event) -> None:
    if len(record.plies) > record.base:
        record.plies.pop()


def _corrected(record: Record, e: Event) -> None:
    """A camera take-back: its `retracted` plies (the last ones recorded) go; a correction
    of plies only shown, never recorded, retracts none."""
    retracted = e.data.get("retracted") or ()
    if isinstance(retracted, list) and retracted:
        del record.plies[max(record.base, len(record.plies) - len(retracted)):]


def _position_set(record: Record, e: Event) -> None:
    """The admin accepted the board as it stands: refereeing goes on from `setup`."""
    if isinstance(e.data.get("setup"), dict):
        record.setup, record.base = e.data["setup"], len(record.plies)


# each kind that changes the record, and how (a new kind: one line here)
STEPS: dict[Kind, Callable[[Record, Event], None]] = {
    Kind.GAME_STARTED: _started,
    Kind.MOVE: _move,
    Kind.UNDO: _undo,
    Kind.CORRECTED: _corrected,
    Kind.POSITION_SET: _position_set,
}


def changes(kind: Any) -> bool:
    """Does an event of this kind change the record (or start it)?"""
    return kind in STEPS


def fold(events: Iterable[Event | dict]) -> Record:
    """The record the events make, in their order. An event as JSON (the hall's, an
    export's) is read with `Event.from_json`; one of a kind this version does not know is
    passed over: it cannot be one of STEPS."""
    record = Record()
    for e in events:
        if isinstance(e, dict):
            try:
                e = Event.from_json(e)
            except (ValueError, KeyError, TypeError):
                continue
        record.take(e)
    return record
