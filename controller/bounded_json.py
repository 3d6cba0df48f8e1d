"""JSON from strangers (a request body, an MQTT message, a setup file), bounded before
the parser sees it.

Python's parser recurses once per nesting level: 30,000 `[` end in RecursionError, which
no caller expects, and a parser fed megabytes holds them all at once. So the size is
checked first, then the depth, counted over the brackets outside strings (a linear scan,
no recursion); only then is the text parsed, with numbers out of a float's range
(1e400, NaN, Infinity) refused instead of read as inf or nan. Everything the referee exchanges is a few
levels deep (a Labyrinth setup, the deepest, is 4), so MAX_DEPTH leaves ample room.
"""
from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 32
_STRINGS = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class JsonError(ValueError):
    """Text that is not JSON within the bounds; the message names `what` and why."""


def too_deep(raw: bytes, max_depth: int = MAX_DEPTH) -> bool:
    """Whether the arrays and objects of `raw` nest more than `max_depth` levels."""
    brackets = _STRINGS.sub(b"", raw).translate(None, _NOT_BRACKETS)
    if brackets.count(b"[") + brackets.count(b"{") <= max_depth:  # the common case: no scan
        return False
    return max(accumulate(1 if b in b"[{" else -1 for b in brackets)) > max_depth


def _finite(text: str) -> float:
    """A JSON number as a float, refused when it is out of range: 1e400 would be inf,
    which json.loads lets through and int() then cannot take."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def loads(raw: bytes | str, what: str, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """`raw` parsed, or JsonError naming `what`: longer than `max_bytes`, nested deeper
    than `max_depth`, or not JSON (with the parser's line and column)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw)
    if len(data) > max_bytes:
        raise JsonError(f"{what} is {len(data):,} bytes; at most {max_bytes:,}")
    if too_deep(data, max_depth):
        raise JsonError(f"{what} nests lists and objects more than {max_depth} levels deep")
    try:
        return json.loads(data, parse_float=_finite, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise JsonError(f"{what} is not valid JSON ({exc.msg}, line {exc.lineno} column {exc.colno})") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise JsonError(f"{what} is not valid JSON ({exc})") from None
