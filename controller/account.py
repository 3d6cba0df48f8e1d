"""The demo's terminal: a readable account of the game as it is refereed (each move in
words, each alarm with its fix, each doubt and correction, the result) and a summary at
the end. It listens on the bus like the page; its words are the referee's (with the
players' names), its own the catalogue's (controller/i18n.py), in the table's language."""
from __future__ import annotations

import sys
import threading

from .events import Event, Kind
from .games import game_class
from .i18n import translator

INDENT = " " * 6  # an alarm's, a fix's, a doubt's line, under the move's


def title(name, _) -> str:
    """A game's printed title ("Mario chess") in the language of `_`, or its name when
    this version lacks it."""
    try:
        return _(game_class(name).title)
    except (KeyError, ValueError):  # a game this version lacks: its name still says which
        return str(name)


class Account:
    def __init__(self, out=None, lang: str = "en"):
        self.out = out or sys.stdout
        self._ = translator(lang)
        self.games = self.moves = self.alarms = 0
        self.results: list[str] = []
        self._lock = threading.Lock()  # the referee's thread and the voice's both publish

    def _print(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def __call__(self, event: Event) -> None:
        d, _ = event.data, self._
        with self._lock:
            if event.kind == Kind.GAME_STARTED:
                names = ", ".join(p for p in d.get("players") or () if p)
                game = _("new game: {title} ({variant})", title=title(d.get("game"), _), variant=_(d.get("variant") or ""))
                self._print(_("{game}, players {names}", game=game, names=names) if names else game)
            elif event.kind == Kind.MOVE:
                self.moves += 1
                self._print(f"{d.get('ply', self.moves):>4}. {d.get('text') or d.get('notation')}")
            elif event.kind == Kind.ILLEGAL and event.camera_alarm:
                self.alarms += 1
                self._print(INDENT + _("alarm: {reason}", reason=d.get("reason", "")))
                if d.get("fix"):
                    self._print(INDENT + _("fix: {fix}", fix=d["fix"]))
            elif event.kind == Kind.DOUBT:
                self._print(INDENT + _("doubt: {text}", text=d.get("text", "")))
            elif event.kind == Kind.CORRECTED:
                self._print(INDENT + d.get("text", ""))
            elif event.kind == Kind.GAME_OVER:
                self.games += 1
                reason = d.get("reason", "")
                self.results.append(_("{who} wins: {reason}", who=d["winner_name"], reason=reason)
                                    if d.get("winner_name") else reason)
                self._print(_("result: {reason}", reason=self.results[-1]))

    def summary(self) -> str:
        _ = self._
        return _("summary: {games}, {moves}, {alarms}",
                 games=_.n("{n} game played", "{n} games played", self.games),
                 moves=_.n("{n} move recorded", "{n} moves recorded", self.moves),
                 alarms=_.n("{n} alarm raised", "{n} alarms raised", self.alarms))
