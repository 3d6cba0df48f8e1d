"""Players' names: "Léa (Mario's team) to move" instead of "Mario's team to move".

A new game may take a name for each seat (the page's new-game form, `referee play
--players`, the API's `players`); they are journalled with the game's start, so a
restart keeps them. Each game says its seats in its own printed words (a team, a token,
a pawn's colour); the referee puts the name in front of the seat wherever its words
name the seat, in one place (`named`), so the page, the voice, the hall and the exports
all say the same. An unnamed seat stays as the game prints it. The words are the
catalogue's (controller/i18n.py), in the language of the translator `_` each function
takes (the table's: `referee._`).
"""
from __future__ import annotations

import re

from .i18n import translator

MOST = 24  # characters of a name (it is said aloud and drawn beside a token)
# the keys of an event's data, the alarm, the doubt or the outcome that hold words
WORDS = ("text", "reason", "fix", "who", "winner_name")


def checked(names, seats: list[str], _=None) -> list[str]:
    """The names for `seats`, stripped ("" for a seat without one); ValueError in words
    for too many names or a name that cannot be shown or said."""
    if names is None:
        return []
    _ = _ or translator()
    if isinstance(names, str):
        names = names.split(",")
    if not isinstance(names, (list, tuple)):
        raise ValueError(_("player name {name!r}: expected 1-{most} printable characters", name=names, most=MOST))
    out = []
    for name in names:
        if not isinstance(name, str) or len(name.strip()) > MOST or not name.strip().isprintable():
            raise ValueError(_("player name {name!r}: expected 1-{most} printable characters", name=name,
                               most=MOST))
        out.append(name.strip())
    if len(out) > len(seats):
        raise ValueError(_.n("{n} names for {seats} seats; expected at most one name per seat",
                              "{n} names for {seats} seats; expected at most one name per seat", len(out),
                              seats=len(seats)))
    return out if any(out) else []


def labels(seats: list[str], players: list[str], _=None) -> list[str]:
    """Each seat as it is shown: "Léa (Mario's team)", or the seat's own words."""
    _ = _ or translator()
    return [_("{name} ({seat})", name=players[i], seat=seat) if i < len(players) and players[i] else seat
            for i, seat in enumerate(seats)]


def named(text: str, seats: list[str], players: list[str], _=None) -> str:
    """`text` with each seat that has a name shown by its label (whole words only: the
    seat "Mario" is not found in "Mario's team" when another seat is "Mario's team")."""
    pairs = [(s, lab) for s, lab in zip(seats, labels(seats, players, _)) if s != lab]
    if not pairs or not isinstance(text, str):
        return text
    pairs.sort(key=lambda p: -len(p[0]))  # the longest seat words first
    pattern = re.compile("|".join(rf"(?<![\w(]){re.escape(s)}(?![\w)])" for s, _ in pairs))
    label = dict(pairs)
    return pattern.sub(lambda m: label[m.group(0)], text)


def named_data(data, seats: list[str], players: list[str], _=None):
    """An event's (or the alarm's, the doubt's, the outcome's) data with its words named:
    the keys in WORDS, and the words of each doubt's candidate."""
    if not players or not isinstance(data, dict):
        return data
    out = {k: named(v, seats, players, _) if k in WORDS else v for k, v in data.items()}
    if isinstance(data.get("candidates"), list):
        out["candidates"] = [named_data(c, seats, players, _) for c in data["candidates"]]
    return out
