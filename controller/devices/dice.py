"""Die definitions and rolls.

The faces of each game's die live as data in controller/games/data/dice.json, so the
rules modules, the GPIO die, the die module and the page all agree on them. A roll is
drawn here, on the Pi, from the operating system's random source (random.SystemRandom)
unless a seeded generator is given (tests, `referee roll --seed`); the referee journals
its text notation, so a replayed game never rolls again.

Text notation (parsed by the game modules, stored in the journal):
  smb       roll red | roll yellow | roll red/yellow | roll stop
  monopoly  roll B R   (black die first), e.g. roll 3 5
"""
from __future__ import annotations

import json
import random
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..i18n import N_, Wrong

DATA = Path(__file__).resolve().parent.parent / "games" / "data" / "dice.json"


@dataclass(frozen=True)
class Face:
    label: str  # the face in text notation: "red", "3"
    code: int  # the byte a SHOW message carries to the die module
    colour: str = ""  # "#rrggbb", or two joined by "/" for a two-colour face
    pips: int = 0  # pip count on a numbered face, 0 for a colour face


@dataclass(frozen=True)
class Die:
    name: str
    colour: str
    faces: tuple[Face, ...]


@dataclass(frozen=True)
class DieSet:
    """What one game rolls at once: one die (smb) or a pair (monopoly)."""

    name: str
    title: str
    dice: tuple[Die, ...]


@dataclass(frozen=True)
class Roll:
    die: str  # the die set's name, "smb" or "monopoly"
    faces: tuple[Face, ...]  # one per die, in the order of the definition

    @property
    def notation(self) -> str:
        return "roll " + " ".join(f.label for f in self.faces)

    @property
    def codes(self) -> bytes:
        return bytes(f.code for f in self.faces)


@lru_cache(maxsize=None)
def definitions(path: Path = DATA) -> dict[str, DieSet]:
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    out = {}
    for name, spec in raw.items():
        if name.startswith("_"):
            continue
        dice = tuple(Die(d["name"], d.get("colour", ""), tuple(Face(**face) for face in d["faces"]))
                     for d in spec["dice"])
        out[name] = DieSet(name, spec.get("title", name), dice)
    return out


def die_set(name: str) -> DieSet:
    sets = definitions()
    if name not in sets:
        raise Wrong(N_("unknown die {name!r}; expected one of {dice}"), name=name, dice=", ".join(sets))
    return sets[name]


def roll(die_name: str, rng: random.Random | None = None) -> Roll:
    """One roll of every die in the set, each face equally likely."""
    rng = rng or random.SystemRandom()
    dice = die_set(die_name).dice
    return Roll(die_name, tuple(rng.choice(d.faces) for d in dice))


def parse(die_name: str, notation: str) -> Roll:
    """The Roll a notation names ("roll 3 5"); ValueError saying what is wrong."""
    dice = die_set(die_name).dice
    words = notation.split()
    if not words or words[0] != "roll" or len(words) != len(dice) + 1:
        want = " ".join(f"<{d.name}>" for d in dice)
        raise Wrong(N_("{notation!r} is not a {die} roll; expected 'roll {want}'"), notation=notation, die=die_name,
                    want=want)
    faces = []
    for die, word in zip(dice, words[1:]):
        face = next((f for f in die.faces if f.label == word), None)
        if face is None:
            labels = sorted({f.label for f in die.faces})
            raise Wrong(N_("{word!r} is not a face of the {die} die; expected one of {faces}"), word=word, die=die.name,
                        faces=", ".join(labels))
        faces.append(face)
    return Roll(die_name, tuple(faces))


def cmd_roll(args) -> int:
    """`referee roll --die smb|monopoly -n N [--json] [--seed S]`: N rolls, one a line;
    a wrong option said in `--lang`'s words."""
    from ..cli import failed, words

    try:
        die_set(args.die)
    except ValueError as exc:
        return failed(args, exc, "--die")
    if args.n < 1:
        _ = words(args)
        return failed(args, _("-n is {n}; expected a count of at least 1", n=args.n))
    rng = random.Random(args.seed) if args.seed is not None else random.SystemRandom()
    for _ in range(args.n):
        r = roll(args.die, rng)
        if args.json:
            print(json.dumps({"die": r.die, "notation": r.notation, "faces": [f.label for f in r.faces]}))
        else:
            print(r.notation)
    return 0
