"""Small helpers every game's describer uses, so the page, the hall, the alarms and the
journal all say things the same way: data names in the words printed on the pieces
("KoopaTroopa" is "Koopa Troopa", "bullet_bill" is "Bullet Bill"), lists and sentences
joined without doubled stops. A number that agrees with its noun ("1 coin", "2 coins")
is the game's translator's (`self._.n`, controller/i18n.py): each language has its plural."""
from __future__ import annotations

import re


def printed(name: str) -> str:
    """A data name as it is printed: 'KoopaTroopa' -> 'Koopa Troopa', 'bullet_bill' ->
    'Bullet Bill', 'BowserJr' -> 'Bowser Jr.'; a name with spaces stays as it is."""
    text = str(name).strip()
    if " " in text:
        return text
    if "_" in text or text.islower():
        text = " ".join(w.capitalize() for w in text.split("_") if w)
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text)
    return re.sub(r"\bJr$", "Jr.", text)


def joined(parts, _=None) -> str:
    """Clauses joined by '; ' (in the language of the translator `_`: French puts a space
    before it), each without its own full stop ('Advance to GO.' does not become
    'Advance to GO.;')."""
    return semicolon(_).join(p.rstrip(". ") for p in parts if p and p.strip())


def semicolon(_=None) -> str:
    """What goes between two clauses in the language of the translator `_` ('; ', and
    ' ; ' in French, whose typography puts a space before ; : ? !); English without one."""
    return _("; ") if _ is not None else "; "


def either(items, word: str) -> str:
    """'a', 'a or b', 'a, b or c' (`word`: the game's `self._("or")` or `self._("and")`)."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def capital(text: str) -> str:
    """The first letter upper case, the rest as it is ('game over' -> 'Game over')."""
    return text[:1].upper() + text[1:]


def marks(names) -> dict[str, str]:
    """A short mark for each name, no two alike, to draw where a name does not fit (a
    Labyrinth treasure on its tile): the initials ('KT' for Koopa Troopa, 'M' for Mario),
    else the first letter and another of the name ('Bo' for Boo beside 'B' for Bowser)."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for name in sorted(set(names)):
        words = printed(name).replace(".", "").split() or ["?"]
        letters = "".join(words)
        tries = ["".join(w[0] for w in words)[:2].upper()]
        tries += [letters[0].upper() + c.lower() for c in letters[1:] if c.isalnum()]
        mark = next((t for t in tries if t not in taken), f"{letters[0].upper()}{len(taken)}")
        out[name] = mark
        taken.add(mark)
    return out
