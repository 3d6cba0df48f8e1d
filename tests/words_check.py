"""What counts as the machinery showing through in words a player reads (issue 23): the
rules' and the camera's internal codes, numbers that disagree with their nouns, and
typography that glues words together. One list, used on the games' own words
(test_words.py) and on every visible text of the pages in Chromium
(test_web_words_browser.py)."""
from __future__ import annotations

import re

NOUNS = ("coin", "card", "space", "token", "treasure", "deed")  # not verbs: "Player 1 moves"
PLURAL = {"life": "lives"}

FAULTS = [
    (re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"), "a snake_case name"),
    (re.compile(r"\b(?:p\d|bowser)(?:\+(?:p\d|bowser))+\b|\bp\d\b"), "a token code like p1+p2"),
    (re.compile(r"\bw\d-\d\d\b"), "a space code like w2-04"),
    (re.compile(r"\([NESW]{1,4}(?::[^)]*)?\)|\b[NESW]{1,4}:[A-Z]"), "a tile code like (EW)"),
    (re.compile(r"\b(?:tile|spare|pawn):\w+"), "a camera label"),
    (re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b"), "a name written together (KoopaTroopa)"),
    (re.compile(r"\bshould show\b"), "a camera label as the fix"),
    (re.compile(r"\b1 (?:%s)\b" % "|".join([n + "s" for n in NOUNS] + list(PLURAL.values()))),
     "a plural after 1"),
    (re.compile(r"(?<![\d-])(?:0|[2-9]|\d{2,}) (?:%s)\b(?!['-])" % "|".join(NOUNS + tuple(PLURAL))),
     "a singular after a number other than 1"),
    (re.compile("\u25B6\\S"), "'\u25B6' glued to the next word"),
]


def faults(text: str) -> list[str]:
    """Each fault in `text`, as 'what: the words'."""
    out = []
    for pattern, what in FAULTS:
        for m in pattern.finditer(text):
            out.append(f"{what}: {m.group(0)!r} in {text!r}")
    return out
