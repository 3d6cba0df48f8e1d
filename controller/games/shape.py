"""The shape of a game's setup and settings, checked before the game reads them.

Setups and settings come from outside the rules: a `--setup` file, `--setting KEY=VALUE`,
`[game] rulings` in referee.toml, a recorded game. A game reading `setup.get("fen")`
from a list, or splitting the number 5 as a FEN, raised AttributeError or TypeError with
a traceback. So each game declares the shape it reads (`Game.SETUP`,
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

from ..i18n import N_, Phrase, Wrong


@dataclass(frozen=True)
class Each:
    shape: Any


@dataclass(frozen=True)
class OneOf:
    values: tuple


# the kinds of value, as a message names them
_NAMES = {bool: N_("true or false"), int: N_("a whole number"), float: N_("a number"), str: N_("text"),
          list: N_("a list"), dict: N_("an object")}


def _kind(t) -> Phrase | str:
    return Phrase(_NAMES[t]) if t in _NAMES else t.__name__


def describe(value) -> Phrase | str:
    """A value in a message: its kind, and the value itself when it is short."""
    if value is None:
        return "null"
    kind = Phrase(N_("true/false")) if isinstance(value, bool) else _kind(type(value))
    shown = repr(value)
    return Phrase("{kind} {shown}", kind=kind, shown=shown) if len(shown) <= 30 else kind


def _expected(shape) -> Phrase | str:
    if isinstance(shape, tuple):
        words = _kind(shape[0])
        for t in shape[1:]:
            words = Phrase(N_("{one} or {other}"), one=words, other=_kind(t))
        return words
    if isinstance(shape, type):
        return _kind(shape)
    if isinstance(shape, list):
        return Phrase(N_("a list of {kind}"), kind=_expected(shape[0]))
    if isinstance(shape, (dict, Each)):
        return Phrase(_NAMES[dict])
    return Phrase(N_("one of {values}"),
                  values=", ".join(str(v).lower() if isinstance(v, bool) else repr(v) for v in shape.values))


def _fits(value, shape) -> bool:
    types = shape if isinstance(shape, tuple) else (shape,)
    if isinstance(value, bool) and bool not in types:
        return False
    return isinstance(value, tuple(float if t is float else t for t in types)) or (
        float in types and isinstance(value, int) and not isinstance(value, bool))


def check(value, shape, where, noun: str = "key") -> None:
    """A ValueError (`i18n.Wrong`, worded in the listener's language) naming `where` (a
    text or a `Phrase`, and the key within) when `value` is not of `shape`; `noun` ("key"
    or "setting") names an object's keys in the message ("monopoly has no setting 'x'")."""
    if isinstance(shape, OneOf):
        if not any(value == v and type(value) is type(v) for v in shape.values):
            raise _wrong(where, value, shape)
    elif isinstance(shape, (type, tuple)):
        if not _fits(value, shape):
            raise _wrong(where, value, shape)
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise _wrong(where, value, shape)
        for i, item in enumerate(value):
            check(item, shape[0], Phrase(N_("{where} item {n}"), where=where, n=i + 1))
    else:
        if not isinstance(value, dict):
            raise _wrong(where, value, shape)
        inner = where if noun == "key" else Phrase(N_("{game} setting"), game=where)
        for key, item in value.items():
            if isinstance(shape, Each):
                check(item, shape.shape, Phrase("{where} {key!r}", where=inner, key=key))
            elif key not in shape:
                known = (Phrase(N_("expected one of {keys}"), keys=", ".join(shape)) if shape
                         else Phrase(N_("it takes none")))
                raise Wrong(N_("{where} has no key {key!r}; {known}") if noun == "key" else
                            N_("{where} has no setting {key!r}; {known}"), where=where, key=key, known=known)
            elif item is not None:
                check(item, shape[key], Phrase("{where} {key!r}", where=inner, key=key))


def _wrong(where, value, shape) -> Wrong:
    return Wrong(N_("{where} is {value}; expected {expected}"), where=where, value=describe(value),
                 expected=_expected(shape))
