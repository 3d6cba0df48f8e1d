"""The demo's terminal: a readable account of the game as it is refereed (each move in
words, each alarm with its fix, each doubt and correction, the result) and a summary at
the end. It listens on the bus like the page; its words are the referee's (with the
players' names), its own in controller/texts.py."""
from __future__ import annotations

import sys
import threading

from .events import Event, Kind
from .games import game_class
from .texts import say
from .games.words import count


def title(name) -> str:
    """A game's printed title ("Mario chess"), or its name when this version lacks it."""
    try:
        return game_class(name).title
    except (KeyError, ValueError):  # a game this version lacks: its name still says which
        return str(name)


class Account:
    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.games = self.moves = self.alarms = 0
        self.results: list[str] = []
        self._lock = threading.Lock()  # the referee's thread and the voice's both publish

    def _print(self, line: str) -> None:
        print(line, file=self.out, flush=True)

    def __call__(self, event: Event) -> None:
        d = event.data
        with self._lock:
            if event.kind == Kind.GAME_STARTED:
                names = ", ".join(p for p in d.get("players") or () if p)
                self._print(say("demo.new_game", title=title(d.get("game")), variant=d.get("variant"))
                            + (say("demo.players", names=names) if names else ""))
            elif event.kind == Kind.MOVE:
                self.moves += 1
                self._print(say("demo.move", ply=d.get("ply", self.moves), text=d.get("text") or d.get("notation")))
            elif event.kind == Kind.ILLEGAL and event.camera_alarm:
                self.alarms += 1
                self._print(say("demo.illegal", reason=d.get("reason", "")))
                if d.get("fix"):
                    self._print(say("demo.fix", fix=d["fix"]))
            elif event.kind == Kind.DOUBT:
                self._print(say("demo.doubt", text=d.get("text", "")))
            elif event.kind == Kind.CORRECTED:
                self._print(say("demo.corrected", text=d.get("text", "")))
            elif event.kind == Kind.GAME_OVER:
                self.games += 1
                winner = f"{d['winner_name']} wins: " if d.get("winner_name") else ""
                self.results.append(winner + d.get("reason", ""))
                self._print(say("demo.result", reason=self.results[-1]))

    def summary(self) -> str:
        return say("demo.summary", games=count(self.games, "game"), moves=count(self.moves, "move"),
                   alarms=count(self.alarms, "alarm"))
