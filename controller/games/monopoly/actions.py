"""Monopoly's inputs as small values, each with its text notation: `read` one from its
text, `notation()` its canonical text (as python-chess's Move has `from_uci` and `uci`).
The journal holds only this text, so a value here must always say the same.

What the referee waits for, and the notation of each input (`Monopoly.prompt` lists the
options of every choice):

Dice (drawn by the referee's die, journalled as text)
  roll B R        both dice, black first (die "monopoly"): Bowser moves B, the player
                  moves B + R. The same pair settles a battle (leader's die black,
                  partner's red; a lone player rolls both) and each roll-off roll.
                  For Piranha Plant and Super Star only the red die R counts; `roll R`
                  (the red die alone, rolled by hand) is accepted there too.
Start of a turn, when the player owns deeds on the Game Over side
  continue S      pay the Continue cost of the deed on space S (0-39) and turn it over
  done            keep the rest on Game Over and go on
In Jail, at the start of the turn
  pay             pay the 1-coin fine, then roll as usual
  card            use a Get Out of Jail Free card (it goes under its deck), then roll
  try             roll for doubles (third failure: pay the fine and move by that roll)
An unowned location
  buy | auction
An auction (bids in any order, from any player; the referee closes it on the page)
  bid pK N        seat K bids N coins (at least 1, then at least 1 more than the last)
  close           the highest bid buys; no bid: the Bank keeps the deed
A battle
  partner pK      the leader picks seat K as partner
Owing more coins than one has
  sell S          sell the deed on space S to the Bank for its printed price
  bankrupt        (only when even selling everything cannot pay) leave the game
After taking deeds from a bankrupt player
  continue S | done   pay Continue costs at once, or keep them on Game Over
Trades (offered by anyone between turns' rolls; the other side answers)
  offer pA>pB GIVE for GET   GIVE/GET: items joined by '+': Nc (N coins), sS (the deed
                  on space S), card (a Get Out of Jail Free card), or '-' for nothing.
                  e.g. `offer p0>p2 s6+3c for s8`
  accept | decline
Tokens on the table (what the camera checks; `move` prompts)
  put bowser@S pK@S ...   the tokens now stand there (`pK@off`: a bankrupt player's
                  token is gone). With the setting confirm_tokens off, the referee
                  assumes the tokens were moved.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..base import NotationError
from .board import SPACES


class Action:
    """What every input has: its text, and who enters it out of turn (`by`: None for
    the seat the game waits for)."""

    by: int | None = None

    def notation(self) -> str:
        raise NotImplementedError

    @classmethod
    def read(cls, t: str, text: str, _) -> "Action | None":
        """The input that `t` (the text lower-cased, its spaces single) writes, None when
        it is not of this kind; NotationError (in `_`'s words, quoting `text` as typed)
        when it is of this kind but wrong."""
        raise NotImplementedError


@dataclass(frozen=True)
class Roll(Action):
    dice: tuple[int, ...]

    _RE = re.compile(r"^roll\s+([1-6])(?:\s+([1-6]))?$")

    def notation(self) -> str:
        return "roll " + " ".join(map(str, self.dice))

    @classmethod
    def read(cls, t, text, _):
        if m := cls._RE.match(t):
            return cls(tuple(int(x) for x in m.groups() if x))
        return None


@dataclass(frozen=True)
class Choose(Action):
    """A word on its own ('buy'), or with the space it names ('sell 6')."""

    word: str
    space: int | None = None

    _WORDS = ("done", "pay", "card", "try", "buy", "auction", "close", "bankrupt", "accept", "decline")
    _SPACE_WORD = re.compile(r"^(continue|sell)\s+(\d{1,2})$")

    def notation(self) -> str:
        return self.word + (f" {self.space}" if self.space is not None else "")

    @classmethod
    def read(cls, t, text, _):
        if t in cls._WORDS:
            return cls(t)
        if m := cls._SPACE_WORD.match(t):
            space = int(m[2])
            if space >= SPACES:
                raise NotationError(_("{text!r}: space {space} is not on the board (0-39)", text=text.strip(),
                                      space=space))
            return cls(m[1], space)
        return None


@dataclass(frozen=True)
class Bid(Action):
    seat: int
    amount: int

    _RE = re.compile(r"^bid\s+p(\d)\s+(\d{1,3})$")

    @property
    def by(self) -> int:
        """Any player bids, not only the one to move."""
        return self.seat

    def notation(self) -> str:
        return f"bid p{self.seat} {self.amount}"

    @classmethod
    def read(cls, t, text, _):
        if m := cls._RE.match(t):
            return cls(int(m[1]), int(m[2]))
        return None


@dataclass(frozen=True)
class Partner(Action):
    seat: int

    _RE = re.compile(r"^partner\s+p(\d)$")

    def notation(self) -> str:
        return f"partner p{self.seat}"

    @classmethod
    def read(cls, t, text, _):
        if m := cls._RE.match(t):
            return cls(int(m[1]))
        return None


@dataclass(frozen=True)
class Items:
    """One side of a trade."""

    coins: int = 0
    deeds: tuple[int, ...] = ()
    cards: int = 0

    def notation(self) -> str:
        parts = [f"s{d}" for d in self.deeds] + ([f"{self.coins}c"] if self.coins else []) + ["card"] * self.cards
        return "+".join(parts) or "-"

    @classmethod
    def read(cls, part_text: str, whole: str, _) -> "Items":
        if part_text == "-":
            return cls()
        coins, deeds, cards = 0, [], 0
        for part in part_text.split("+"):
            if re.fullmatch(r"\d{1,3}c", part):
                coins += int(part[:-1])
            elif re.fullmatch(r"s\d{1,2}", part) and int(part[1:]) < SPACES:
                deeds.append(int(part[1:]))
            elif part == "card":
                cards += 1
            else:
                raise NotationError(_("{text!r}: {part!r} is not a trade item; expected Nc (coins), sS (deed on "
                                      "space S), card, or '-' for nothing", text=whole.strip(), part=part))
        return cls(coins, tuple(deeds), cards)


@dataclass(frozen=True)
class Offer(Action):
    frm: int
    to: int
    give: Items
    get: Items

    _RE = re.compile(r"^offer\s+p(\d)\s*>\s*p(\d)\s+(\S+)\s+for\s+(\S+)$")

    @property
    def by(self) -> int:
        """Anyone offers a trade, not only the one to move."""
        return self.frm

    def notation(self) -> str:
        return f"offer p{self.frm}>p{self.to} {self.give.notation()} for {self.get.notation()}"

    @classmethod
    def read(cls, t, text, _):
        if m := cls._RE.match(t):
            return cls(int(m[1]), int(m[2]), Items.read(m[3], text, _), Items.read(m[4], text, _))
        return None


@dataclass(frozen=True)
class Put(Action):
    places: tuple[tuple[str, int | None], ...]  # ("bowser" | "pK", space or None = off)

    _RE = re.compile(r"^(bowser|p\d)@(\d{1,2}|off)$")

    def notation(self) -> str:
        return "put " + " ".join(f"{k}@{'off' if v is None else v}" for k, v in self.places)

    @classmethod
    def read(cls, t, text, _):
        if not t.startswith("put "):
            return None
        places = []
        for part in t[4:].split():
            m = cls._RE.match(part)
            if not m or (m[2] != "off" and int(m[2]) >= SPACES):
                raise NotationError(_("{text!r}: {part!r} is not a token placement; expected bowser@S or "
                                      "pK@S (S = 0-39, or off)", text=text.strip(), part=part))
            places.append((m[1], None if m[2] == "off" else int(m[2])))
        return cls(tuple(places))


KINDS = (Roll, Choose, Bid, Partner, Offer, Put)  # in the order `parse` tries them


def parse(text: str, _) -> Action:
    """The input `text` writes; NotationError, in `_`'s words, for text that is none."""
    t = " ".join(text.strip().lower().split())
    for kind in KINDS:
        action = kind.read(t, text, _)
        if action is not None:
            return action
    raise NotationError(_("{text!r} is not a Monopoly move", text=text.strip()), _(
        "expected 'roll B R', 'roll R', continue S, "
        "done, pay, card, try, buy, auction, 'bid pK N', close, 'partner pK', 'sell S', bankrupt, "
        "'offer pA>pB GIVE for GET', accept, decline or 'put bowser@S pK@S'"))
