"""What crosses the broker, checked field by field before anything uses it.

A broker is shared: whatever a table sends, anyone allowed to publish could have sent
instead, or broken. So the hall reads each event and state, and a table each resend
request, through these functions: size and nesting first (controller/bounded_json.py),
then every field it uses for its type and range (a `seq` of 1e400 is no sequence number;
a `game_id` that is a list is no game). A message that fails raises BadMessage naming
the field, and is dropped whole: nothing of it reaches the hall's journal or the page.
Fields nobody reads (a move's words, a state's board) are passed on as the table sent
them; the page draws them as text.
"""
from __future__ import annotations

import math
import re

from ..bounded_json import JsonError, loads
from ..events import Kind

MAX_EVENT_BYTES = 64 * 1024  # one event as a table publishes it (a Labyrinth start is ~3 KB)
MAX_STATE_BYTES = 256 * 1024  # a table's retained snapshot (a Monopoly game's is ~20 KB)
MAX_RESEND_BYTES = 256
MAX_SEQ = 2 ** 53  # a journal's sequence numbers count events: JSON keeps them exact below this
MAX_TEXT = 4096  # characters of a text field the hall stores on its own (a result, a game's name)
KIND = re.compile(r"[a-z][a-z0-9_]{0,31}")  # an event kind ("move", "game_started")
JOURNAL = re.compile(r"[0-9A-Za-z_-]{0,32}")  # a journal file's id (12 hex digits today)


class BadMessage(ValueError):
    """A message that is not what the topic carries; the text says which field and why."""


def _object(payload: bytes, what: str, max_bytes: int) -> dict:
    try:
        data = loads(payload, what, max_bytes)
    except JsonError as exc:
        raise BadMessage(str(exc)) from None
    if not isinstance(data, dict):
        raise BadMessage(f"{what} is not a JSON object")
    return data


def _whole(data: dict, key: str, low: int, high: int = MAX_SEQ, optional: bool = False) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadMessage(f"field {key!r} is {_show(value)}; expected a whole number from {low} to {high}")
    return value


def _text(data: dict, key: str, pattern: re.Pattern | None = None, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or len(value) > MAX_TEXT or (pattern and not pattern.fullmatch(value)):
        expected = f"text matching {pattern.pattern}" if pattern else f"text of at most {MAX_TEXT} characters"
        raise BadMessage(f"field {key!r} is {_show(value)}; expected {expected}")
    return value


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def event(payload: bytes) -> dict:
    """An event from `referee/T/events`: kind, seq, prev, journal, game_id and t checked
    (the store orders, dedupes and files events by them), and what the store keeps of a
    start or an end (the game, its variant, the result)."""
    data = _object(payload, "the event", MAX_EVENT_BYTES)
    _text(data, "type", KIND)
    seq = _whole(data, "seq", 1)
    data.setdefault("prev", 0)
    _whole(data, "prev", 0, seq - 1)
    data.setdefault("journal", "")
    _text(data, "journal", JOURNAL)
    _whole(data, "game_id", 1, optional=True)
    t = data.get("t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not (math.isfinite(t) and 0 <= t < 1e11):
        raise BadMessage(f"field 't' is {_show(t)}; expected a time in seconds since 1970")
    if data["type"] == Kind.GAME_STARTED:
        _text(data, "game")
        _text(data, "variant", optional=True)
        for key in ("settings", "setup"):
            if not isinstance(data.get(key) or {}, dict):
                raise BadMessage(f"field {key!r} of a game_started event is {_show(data[key])}; expected an object")
    elif data["type"] == Kind.GAME_OVER:
        _text(data, "reason", optional=True)
    return data


def state(payload: bytes) -> dict:
    """A table's retained snapshot from `referee/T/state`: what the store and the page
    look up by (journal, seq, game_id) checked, the rest passed on."""
    data = _object(payload, "the state", MAX_STATE_BYTES)
    data.setdefault("journal", "")
    _text(data, "journal", JOURNAL)
    data["seq"] = data.get("seq") or 0
    _whole(data, "seq", 0)
    _whole(data, "game_id", 1, optional=True)
    for key in ("game", "title", "variant"):
        _text(data, key, optional=True)
    for key, kind in (("moves", list), ("record", list), ("seats", list), ("prompt", dict), ("outcome", dict)):
        if data.get(key) is not None and not isinstance(data[key], kind):
            raise BadMessage(f"field {key!r} is {_show(data[key])}; expected {'a list' if kind is list else 'an object'}")
    return data


def online(payload: bytes) -> str:
    """A table's `referee/T/online`: "online" or "offline" (its last will)."""
    if payload not in (b"online", b"offline"):
        raise BadMessage(f"the online flag is {_show(payload[:40])}; expected online or offline")
    return payload.decode()


def resend(payload: bytes, journal: str) -> int | None:
    """The seq after which the hall asks for this table's events again
    (`referee/T/resend`); None when it asks for another journal of the table (one it no
    longer keeps); BadMessage for a request that is not one."""
    data = _object(payload, "the resend request", MAX_RESEND_BYTES)
    after = _whole(data, "after", 0)
    asked = data.get("journal", journal)
    _text(data, "journal", JOURNAL, optional=True)
    return after if asked == journal else None
