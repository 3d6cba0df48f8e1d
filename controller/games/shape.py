"""The shape of a game's setup and settings, checked before the game reads them.

Setups and settings come from outside the rules: a `--setup` file, `--setting KEY=VALUE`,
`[game] rulings` in referee.toml, a recorded game. A game reading `setup.get("fen")`
from a list, or splitting the number 5 as a FEN, raised AttributeError or TypeError with
a traceback (issue 21 #7). So each game declares the shape it reads (`Game.SETUP`,
`Game.SETTINGS_SHAPE`) and `check` compares a value with it first, with one message
naming the key and what was expected; the game's own checks (a legal FEN, a deck of the
right cards) then see only values of the right type.

A shape is a type (`int` never takes a bool), a tuple of types, `[shape]` (a list of
those), `{key: shape}` (an object with only these keys, each optional; null counts as
absent), `Each(shape)` (an object whose values all have that shape) or `OneOf(values)`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Each:
    shape: Any


@dataclass(frozen=True)
class OneOf:
    values: tuple


_NAMES = {bool: "true or false", int: "a whole number", float: "a number", str: "text", list: "a list",
          dict: "an object"}


def describe(value) -> str:
    """A value in a message: its kind, and the value itself when it is short."""
    if value is None:
        return "null"
    kind = "true/false" if isinstance(value, bool) else _NAMES.get(type(value), type(value).__name__)
    shown = repr(value)
    return f"{kind} {shown}" if len(shown) <= 30 else kind


def _expected(shape) -> str:
    if isinstance(shape, tuple):
        return " or ".join(_NAMES.get(t, t.__name__) for t in shape)
    if isinstance(shape, type):
        return _NAMES.get(shape, shape.__name__)
    if isinstance(shape, list):
        return f"a list of {_expected(shape[0])}"
    if isinstance(shape, (dict, Each)):
        return "an object"
    return "one of " + ", ".join(str(v).lower() if isinstance(v, bool) else repr(v) for v in shape.values)


def _fits(value, shape) -> bool:
    types = shape if isinstance(shape, tuple) else (shape,)
    if isinstance(value, bool) and bool not in types:
        return False
    return isinstance(value, tuple(float if t is float else t for t in types)) or (
        float in types and isinstance(value, int) and not isinstance(value, bool))


def check(value, shape, where: str, noun: str = "key") -> None:
    """ValueError naming `where` (and the key within) when `value` is not of `shape`;
    `noun` names an object's keys in the message ("monopoly has no setting 'x'")."""
    if isinstance(shape, OneOf):
        if not any(value == v and type(value) is type(v) for v in shape.values):
            raise ValueError(f"{where} is {describe(value)}; expected {_expected(shape)}")
    elif isinstance(shape, (type, tuple)):
        if not _fits(value, shape):
            raise ValueError(f"{where} is {describe(value)}; expected {_expected(shape)}")
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise ValueError(f"{where} is {describe(value)}; expected {_expected(shape)}")
        for i, item in enumerate(value):
            check(item, shape[0], f"{where} item {i + 1}")
    else:
        if not isinstance(value, dict):
            raise ValueError(f"{where} is {describe(value)}; expected {_expected(shape)}")
        inner = where if noun == "key" else f"{where} {noun}"
        for key, item in value.items():
            if isinstance(shape, Each):
                check(item, shape.shape, f"{inner} {key!r}")
            elif key not in shape:
                known = f"expected one of {', '.join(shape)}" if shape else "it takes none"
                raise ValueError(f"{where} has no {noun} {key!r}; {known}")
            elif item is not None:
                check(item, shape[key], f"{inner} {key!r}")
