"""The referee's words for what it cannot simply record: a doubt, a correction, a wrong
board, an oddity, a refusal, where the record stands.

All in the table's language (`_`, controller/i18n.py) and in words anyone at the table
may hear: moves not made yet are described from the position as anyone sees it
(`Game.seen_by(state, None)`), so no seat's secret is said.
"""
from __future__ import annotations

from .evidence import MISFIT, SEEN, Evidence
from .games.words import capital

DOUBT_CANDIDATES = 3  # the readings a doubt offers


class Wording:
    """The words of one game's referee (`game`, in the language `_`)."""

    def __init__(self, game, _):
        self.game, self._ = game, _

    def notations(self, state, actions) -> list[str]:
        """`actions` from `state`, in notation."""
        out = []
        for action in actions:
            out.append(self.game.notation(state, action))
            state = self.game.apply(state, action)
        return out

    def describe(self, state, actions) -> str:
        """Moves not made yet (a doubt's readings, a correction's), in words anyone may
        hear: from the state as anyone sees it (`seen_by`)."""
        state = self.game.seen_by(state, None)
        words = []
        for action in actions:
            words.append(self.game.describe(state, action))
            state = self.game.apply(state, action)
        return self._(", then ").join(words)

    def correction(self, state, old_actions, new_actions) -> str:
        """"<what the board shows now>, not <what was believed>", from the first ply
        that differs (both from `state`)."""
        k = 0
        while k < min(len(old_actions), len(new_actions)) and old_actions[k] == new_actions[k]:
            k += 1
        state = self.game.seen_by(state, None)
        for action in old_actions[:k]:
            state = self.game.apply(state, action)
        was = self.describe(state, old_actions[k:])
        now = self.describe(state, new_actions[k:])
        return self._("{now}, not {was}", now=now or self._("nothing moved"), was=was or self._("nothing"))

    def doubt(self, sure, lines, unexplained: bool = False) -> dict | None:
        """The doubt between the likeliest histories from `sure`: each offered by its first
        ply's notation (a tap enters that; the camera then sees the rest)."""
        candidates, cells = [], []
        board = self.game.board(sure)
        for line in lines[:DOUBT_CANDIDATES + 1]:
            if not line.actions:
                continue
            notation = self.game.notation(sure, line.actions[0])
            if all(c["notation"] != notation for c in candidates):
                candidates.append({"notation": notation, "text": self.describe(sure, line.actions)})
            cells += [self.game.cell_name(c) for c in line.board if line.board[c] != board.get(c)]
        if not candidates:
            return None
        texts = [c["text"] for c in candidates[:DOUBT_CANDIDATES]]
        ask = ", ".join(texts[:-1]) + (" " + self._("or") + " " if len(texts) > 1 else "") + texts[-1]
        text = (self._("the board changed in a way I can't read: is it {ask}?", ask=ask) if unexplained
                else self._("I can't tell yet what moved: is it {ask}? The next moves will tell", ask=ask))
        return {"text": text, "candidates": candidates[:DOUBT_CANDIDATES], "cells": list(dict.fromkeys(cells))}

    def misread(self, before, recorded, lines) -> dict:
        """The doubt while a take-back of the plies `recorded` from `before` explains the
        board (the histories `lines`, best first), not yet surely."""
        text = self.correction(before, recorded, list(lines[0].actions))
        return {"text": self._("I may have misread a move: {text}? The next moves will tell", text=text),
                "candidates": [], "cells": []}

    def oddity(self, state, ev: Evidence, odd) -> dict:
        """What a board explained but for a cell or so (`odd`, fewer than make a wrong board:
        a piece knocked over, a nudged piece misread) shows, against `state`."""
        board = self.game.board(state)
        read = {**board, **{c: ev.label(c) for c in odd}}
        reason = self.game.explain(state, read).reason
        return {"text": self._("something on the board no move explains: {reason}", reason=reason), "candidates": [],
                "cells": [self.game.cell_name(c) for c in sorted(odd, key=repr)]}

    def wrong_board(self, state, ev: Evidence) -> dict:
        """A board no legal history explains, put in words against `state` (the position
        the page shows): why, where, whose turn it is to fix it, how, what was read."""
        board = self.game.board(state)
        differ = ev.unexplained(board) | {c for c in board if ev.weight(c) >= SEEN and ev.misfit(c, board) > MISFIT}
        read = {**board, **{c: ev.label(c) for c in differ}}
        problem = self.game.explain(state, read)
        names = self.game.seats(state)
        seat = self.game.prompt(state).seat
        return {"reason": problem.reason, "cells": [self.game.cell_name(c) for c in problem.cells],
                "who": names[seat] if seat is not None and 0 <= seat < len(names) else None,
                "fix": self.game.fix(state, read),
                "seen": {self.game.cell_name(c): ev.label(c) for c in sorted(differ, key=repr)}}

    def record_at(self, sure, history: list[str]) -> str:
        """The last recorded move, numbered as players count them ("16. Qxg6+", "16... Bb7"
        in a two-player game), or "the start"."""
        n = len(history)
        if not n:
            return "the start"
        if len(self.game.seats(sure)) == 2:
            return f"{(n + 1) // 2}{'.' if n % 2 else '...'} {history[-1]}"
        return f"move {n}, {history[-1]}"

    def refusal(self, state, refusal: Exception) -> dict:
        """A refusal in the game's words: text that is not the game's notation is answered
        with what the game waits for at `state` ("'xyz' is not a Labyrinth move. Red: push
        the spare tile in at an arrow"), its grammar kept as `usage` for the command line."""
        usage = getattr(refusal, "usage", "")
        if not usage:
            return {"reason": str(refusal)}
        waits = self.game.prompt(state).text
        return {"reason": f"{refusal}. {capital(waits)}" if waits else str(refusal), "usage": usage}
