"""What counts as English in a text that should be French or German (issue 30): a
catalogue message whose translation differs from its English, said in English (its
placeholders as wildcards, so "Luigi drops a chip in column 4" is found), or English
function words and the English names of the pieces and the page (the board files' printed
texts left out: they are kept as printed). One check, used on
every visible text of the pages in Chromium (web/test_browser_languages.py) and on the
demo's terminal, record and voice (rig/test_demo_languages.py)."""
from __future__ import annotations

import json
import re
from functools import cache

from controller.games.monopoly.board import DATA
from controller.i18n import catalog

# words that a French or German sentence never holds, and an English one nearly always;
# and the English words of the pieces and the page, in any text (the characters keep
# their names: "King Boo" is a name)
ENGLISH = re.compile(r"\b(the|and|of|to|is|from|with|your|not|has|may)\b")
ENGLISH_NAMES = re.compile(r"\b(King (Mario|Bowser)|Queen|Rook|Bishop|Knight|Pawn|Treasures?|Players?|Moves?|Board|Camera|Round|"
                           r"Blocker still|Saved|Referee)\b")
MARKS = "\u26A0\u2139\u2691\u25CF\u25CB\u25B6?\u2713 "  # the page's signs before a text
# the board files whose texts are kept as printed in every language (docs/languages.md)
PRINTED_FILES = ("monopoly_board.json", "monopoly_cards.json", "smb_worlds.json")


@cache
def printed() -> tuple[str, ...]:
    """The printed names and texts of the board files (a space, a card, a token: "Go to
    Jail", "Bowser charges ahead 6 spaces"), longest first: not the referee's words."""
    found = set()

    def walk(value):
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str) and len(value) >= 4 and re.search(r"[A-Z]", value):
            found.update((value, value.rstrip(". ")))  # a card's text is said without its full stop

    for name in PRINTED_FILES:
        walk(json.loads((DATA / name).read_text(encoding="utf-8")))
    return tuple(sorted(found, key=len, reverse=True))


@cache
def english_messages(lang: str) -> tuple[re.Pattern, ...]:
    """A pattern of each catalogue message whose translation into `lang` differs from its English."""
    out = []
    for m in catalog(lang):
        if not m.id or not isinstance(m.id, str) or m.string == m.id or len(m.id) < 4:
            continue
        if not re.search(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", m.id)):
            continue  # "{text}: {note}" says no word of its own
        parts = re.split(r"\{[^}]*\}", m.id)
        out.append(re.compile(r".+?".join(re.escape(p) for p in parts)))
    return tuple(out)


def unprinted(text: str) -> str:
    """`text` with the board files' printed texts in it each made "\u2026" (a card's text
    may itself hold ": ", where a line is cut into its parts)."""
    for words in printed():
        text = text.replace(words, "\u2026")
    return text


def english(text: str, lang: str) -> str | None:
    """What is English in `text` (a line, a heading, a sentence said), or None."""
    text = unprinted(text.lstrip(MARKS))
    if any(p.fullmatch(text) for p in english_messages(lang)):
        return f"an English message: {text!r}"
    if len(text.split()) >= 4 and ENGLISH.search(text) or ENGLISH_NAMES.search(text):
        return f"English words: {text!r}"
    return None
