"""The referee: the only place where observations meet rules.

Inputs are stable board views from vision, moves typed on the page or the CLI, die
rolls and commands (new game, undo). Each becomes events: written to the journal, then
published on the bus. The referee owns the game state and one thread feeds it.

Deciding from a view, ranked by the rules. Every legal action from the position (and,
for games that allow it, every sequence of two: a quick reply) and "nothing happened"
are scored by how well they explain the whole board: per cell a log-likelihood from the
reader's label and confidence and, where vision measured it (vision/change.py), from how
much the cell changed since the last accepted view and how close it is to its own empty
look; each cell weighted by how well it is seen, so a cell under a hand or behind a tall
piece weighs little and never vetoes a move that explains the rest. Each action costs a
little (the rules' prior: the shortest explanation wins a tie). Then:
- the best is a move, clearly ahead of the runner-up, and leaves no well-seen cell
  clearly unexplained: it is accepted;
- the best leaves no cell unexplained but is not clearly ahead: that is doubt, a state;
  the referee says so once (event `doubt`, with the few best candidates) and waits for a
  clearer view or a tap on the page (an ordinary typed move);
- even the best leaves well-seen cells that clearly show something else (both the label
  and the change say so; or, in a game whose labels name what changed
  (`Game.sure_labels_name_changes`, Connect 4), the cell changed as the move says but the
  label surely reads a third thing: a chip of the other colour): the board shows a position no legal move
  reaches, an illegal move put into words by the game, with who should fix it, how, and
  what was seen. On the
  live camera path that board must stay so for `confirm_s` first (a hand held still
  over the board for a moment is not an alarm).
After an alarm or a doubt the referee keeps judging each view against the last legal
position: as soon as the board agrees with it or with a legal move from it, it follows
again. Nothing cascades. Before the camera has seen the start position (`await_start`),
views that fit no legal move are waited out silently (an overlay, hands, a half-set
board); a view is the start when it reads so as well as a cold read can tell: each
square empty or not as the start has it (START_MISFITS may err) and most pieces on the
side the start puts them (`_Evidence.fits_the_start`).
"""
from __future__ import annotations

import math
import random
import secrets
from dataclasses import replace
from typing import Iterable

from vision.view import BoardView

from .events import Bus, Event
from .games import load_game
from .games.base import Game, IllegalAction, NotationError
from .journal import Journal

MIN_CONFIDENCE = 0.6
MARGIN = 1.5  # log-likelihood: the best explanation leads the runner-up by e^1.5 (about 4.5:1)
PLY_COST = 0.5  # the rules' prior: each further action in one view costs this much
SEEN = 0.5  # a cell weighted at least this is seen well enough to show something
CHANGE_LABEL_WEIGHT = 0.5  # where change evidence exists, the learned labels count half
DOUBT_CANDIDATES = 3
CONFIRM_S = 0.5  # the live camera's wrong board must stay this long before an alarm
START_MISFITS = 2  # well-seen cells a board may read otherwise and still be the start (cold reads err)
_GONE = object()  # a cell the board after a sequence no longer has


class Referee:
    def __init__(self, journal: Journal, bus: Bus | None = None, min_confidence: float = MIN_CONFIDENCE):
        self.journal = journal
        self.bus = bus or Bus()
        self.min_confidence = min_confidence
        self.game: Game | None = None
        self.game_id: int | None = None
        self.state = None
        self.history: list[str] = []  # notation of each accepted action
        self.setup: dict = {}
        self.alarm: dict | None = None  # the standing illegal-move report, until put right
        self.doubt: dict | None = None  # the standing "I can't tell what moved", until resolved
        self.confirm_s = 0.0  # how long a wrong board must stay before an alarm (camera: CONFIRM_S)
        self.awaiting_start = False  # the camera has not yet seen the board in the position
        self._suspect: tuple | None = None  # (view, "illegal" or "doubt", data) waiting for confirmation
        self.notes: list[str] = []  # what went wrong while resuming, for the page

    # --- events --------------------------------------------------------------------
    def _emit(self, kind: str, **data) -> Event:
        event = self.journal.append(Event(kind, data, self.game_id))
        self.bus.publish(event)
        return event

    # --- games ---------------------------------------------------------------------
    def new_game(self, name: str, variant: str | None = None, settings: dict | None = None,
                 setup: dict | None = None, rng: random.Random | None = None) -> Event:
        """Start a game. Its random parts (shuffles, deals) are drawn now, from the
        operating system's random source unless `rng` is given, and journalled."""
        game = load_game(name, variant, settings)
        if setup is None:
            setup = game.new_setup(rng or random.Random(secrets.randbits(64)))
        state = game.start(setup)
        if self.game_id is not None and self.game.outcome(self.state) is None:
            self.journal.end_game(self.game_id, "abandoned")
        self.game, self.state, self.setup, self.history, self.alarm = game, state, setup, [], None
        self.doubt, self._suspect = None, None
        event = self.journal.start_game(name, game.variant, Event(
            "game_started", {"game": name, "variant": game.variant, "settings": game.settings, "setup": setup}))
        self.game_id = event.game_id
        event = replace(event, data={**event.data, "setup": game.public_setup(setup)})
        self.bus.publish(event)
        return event

    def resume(self) -> bool:
        """Rebuild the open game from the journal; False when there is none, or when its
        record cannot be replayed (then it is closed as unreadable, kept as it is, and
        `notes` says which game and why)."""
        info = self.journal.open_game()
        if info is None:
            return False
        try:
            self.load(info["id"])
        except Exception as exc:  # a record this version cannot replay must not stop the service
            self.notes.append(f"{self.journal.path}: game {info['id']} ({info['game']}) cannot be "
                              f"resumed: {type(exc).__name__}: {exc}; its record is kept, a new game starts")
            self.journal.end_game(info["id"], "unreadable")
            self.game = self.game_id = self.state = None
            return False
        return True

    def load(self, game_id: int) -> None:
        """Rebuild game `game_id` from its record (resume, PGN export)."""
        self.game_id = game_id
        self._rebuild(self.journal.events(game_id))

    def _rebuild(self, events: Iterable[Event]) -> None:
        moves: list[str] = []
        self.game = None
        for e in events:
            if e.kind == "game_started":
                self.game = load_game(e.data["game"], e.data["variant"], e.data.get("settings"))
                self.setup = e.data.get("setup") or {}
            elif e.kind == "move":
                moves.append(e.data["notation"])
            elif e.kind == "undo" and moves:
                moves.pop()
        if self.game is None:
            raise ValueError("the record has no game_started event")
        state = self.game.start(self.setup)
        for text in moves:
            state = self.game.play(state, self.game.parse(state, text))
        self.state, self.history, self.alarm = state, moves, None
        self.doubt, self._suspect = None, None

    # --- inputs --------------------------------------------------------------------
    def enter(self, text: str, source: str = "entry", seat: int | None = None) -> Event:
        """A move, roll or choice in the game's notation (from the page, CLI or die).
        `seat`: who sent it (a player's phone); None for the admin, the CLI and the die."""
        if self.game is None:
            return self._emit("illegal", input=text, reason="no game has been started", source=source)
        try:
            action = self.game.parse(self.state, text)
            self.game.check(self.state, action)
            actor = self.game.actor(self.state, action)
            names = self.game.seats(self.state)
            if seat is not None and not 0 <= seat < len(names):
                raise IllegalAction(f"seat {seat} is not in this game (seats 0-{len(names) - 1})")
            if seat is not None and actor is not None and actor != seat:
                raise IllegalAction(f"it is {names[actor]}'s turn, not {names[seat]}'s")
            if seat is not None and actor is None:  # no one seat's (an agreement): not from a phone
                raise IllegalAction(self.game.not_one_seats(self.state, action))
        except (NotationError, IllegalAction) as exc:
            return self._emit("illegal", input=text, reason=str(exc), source=source)
        return self._accept([action], source)

    def _accept(self, actions: list, source: str, **extra) -> Event:
        event = None
        for action in actions:
            before = self.state
            notation = self.game.notation(before, action)
            seat = self.game.actor(before, action)
            self.state = self.game.apply(before, action)
            self.history.append(notation)
            event = self._emit("move", notation=notation, text=self.game.describe(before, action),
                               seat=seat, ply=len(self.history), source=source, **extra)
        self.alarm, self._suspect, self.awaiting_start = None, None, False
        self._clear_doubt(f"{source} entered {', '.join(self.history[-len(actions):])}")
        outcome = self.game.outcome(self.state)
        if outcome is not None:
            self._emit("game_over", **outcome.to_json())
            self.journal.end_game(self.game_id, outcome.reason)
        return event

    def undo(self) -> Event | None:
        """Take back the last accepted action (the page's undo, admin only)."""
        if not self.history:
            return None
        was_over = self.game.outcome(self.state) is not None
        last = self.history[-1]
        event = self._emit("undo", notation=last)
        self._rebuild(self.journal.events(self.game_id))
        if was_over:
            self.journal.reopen_game(self.game_id)
        return event

    def await_start(self) -> None:
        """The camera path: views that fit no legal move are waited out, not alarmed,
        until the board has once read as the position (or a legal move from it)."""
        self.awaiting_start = True

    def observe(self, view: BoardView) -> Event | None:
        """Judge a stable view against the position; returns the event it caused."""
        if self.game is None or self.game.outcome(self.state) is not None:
            return None  # after the end the players clear the board: nothing to judge
        board = self.game.board(self.state)
        ev = _Evidence(view, board, self.min_confidence, self.game.sure_labels_name_changes)
        ranked = self._rank(ev, board)
        (best, seq, after), runner = ranked[0], (ranked[1][0] if len(ranked) > 1 else -math.inf)
        clear = best - runner >= MARGIN
        unexplained = ev.unexplained(after)
        partial = bool(view.extra.get("moving"))
        moved = [c for c in after if after[c] != board.get(c)]
        # a move is taken only when each cell it changes, where seen, shows the change
        # itself, and none is under a hand still moving
        hidden = any(c in ev.moving or not ev.shown(c, after) for c in moved)
        if not unexplained and clear and not hidden:
            self._suspect = None
            if seq:
                delay = round(view.t - view.moved_at, 3) if view.t else None
                return self._accept(seq, "camera", decided_after_s=delay)
            self.awaiting_start = False
            if self.alarm is not None:
                self.alarm = None
                return self._emit("restored", text="the board is back in the last legal position")
            return self._clear_doubt("the board is back in the last legal position")
        if self.awaiting_start:
            if not seq and (len(unexplained) <= START_MISFITS or ev.fits_the_start(board)):
                self.awaiting_start = False  # the start, as well as a cold read can tell: follow
            return None
        if partial:
            return None  # a hand still at the edge: wait for a clearer view
        if not unexplained:
            close = [sq for sc, sq, _ in ranked[:DOUBT_CANDIDATES + 1] if sq and best - sc < MARGIN]
            doubt = self._doubt_of(close, board)
            if doubt is None or (self.doubt is not None and self.doubt["candidates"] == doubt["candidates"]):
                self._suspect = None
                return None  # nothing to ask, or asked once already
            return self._confirm(view, "doubt", doubt)
        if ev.unclear():
            self._suspect = None
            return None  # something read unsurely may still be part of a move: wait for a clearer view
        differ = ev.unexplained(board) | unexplained  # what the view clearly shows otherwise
        seen = {**board, **{c: ev.label(c) for c in differ}}
        problem = self.game.explain(self.state, seen)
        names = self.game.seats(self.state)
        seat = self.game.prompt(self.state).seat
        alarm = {"reason": problem.reason, "cells": [self.game.cell_name(c) for c in problem.cells],
                 "who": names[seat] if seat is not None and 0 <= seat < len(names) else None,
                 "fix": self.game.fix(self.state, seen),
                 "seen": {self.game.cell_name(c): ev.label(c) for c in sorted(differ, key=repr)}}
        if self.alarm and self.alarm["reason"] == alarm["reason"]:
            return None  # the same wrong board, already reported
        return self._confirm(view, "illegal", alarm)

    def _confirm(self, view: BoardView, kind: str, data: dict) -> Event | None:
        """An alarm or a doubt from `view`. Without a camera clock (`confirm_s` 0) an
        alarm is raised at once and an unclear view is simply waited on; on the live
        camera path both wait for `tick` to see the board stay so for `confirm_s`."""
        if self.confirm_s <= 0:
            return self._raise(kind, data) if kind == "illegal" else None
        if self._suspect is None or self._suspect[1:] != (kind, data):
            self._suspect = (view, kind, data)
        return None

    @property
    def confirming(self) -> bool:
        """Is a wrong or unclear board waiting for the camera's clock (`tick`)?"""
        return self._suspect is not None

    def tick(self, t: float, moved_at: float) -> Event | None:
        """The live camera's clock: a wrong or unclear board that has stayed still for
        `confirm_s` (after its view and after the last motion, `moved_at`) becomes an
        alarm or a doubt."""
        if self._suspect is None:
            return None
        view, kind, data = self._suspect
        # still for confirm_s since the view, and since any motion after it: a hand that
        # passes and leaves the board as it was postpones the alarm (a hand that changes
        # the board brings a new view, which decides afresh); it never cancels it, for
        # the watcher hands on no new view of a board that reads the same
        if t - max(view.t, moved_at) < self.confirm_s:
            return None
        self._suspect = None
        return self._raise(kind, data)

    def _raise(self, kind: str, data: dict) -> Event:
        if kind == "doubt":
            self.doubt = data
            return self._emit("doubt", **data)
        self.alarm = data
        self._clear_doubt(None)
        return self._emit("illegal", source="camera", **data)

    def _doubt_of(self, close: list, board: dict) -> dict | None:
        """The doubt between the close candidates (action sequences): each offered by its
        first action's notation (a tap enters that; the camera then sees the rest)."""
        candidates, cells = [], []
        for seq in close:
            state, words = self.state, []
            for action in seq:
                words.append(self.game.describe(state, action))
                state = self.game.apply(state, action)
            after = self.game.board(state)
            notation = self.game.notation(self.state, seq[0])
            if all(c["notation"] != notation for c in candidates):
                candidates.append({"notation": notation, "text": ", then ".join(words)})
            cells += [self.game.cell_name(c) for c in after if after[c] != board.get(c)]
        if not candidates:
            return None
        texts = [c["text"] for c in candidates]
        text = ("I can't tell what moved: is it " + ", ".join(texts[:-1]) + (" or " if len(texts) > 1 else "")
                + texts[-1] + "?")
        return {"text": text, "candidates": candidates, "cells": list(dict.fromkeys(cells))}

    def _clear_doubt(self, why: str | None) -> Event | None:
        if self.doubt is None:
            return None
        self.doubt = None
        return self._emit("doubt_cleared", text=why or "an alarm replaced the doubt")

    def _rank(self, ev: "_Evidence", board: dict) -> list[tuple[float, list, dict]]:
        """(score, actions, board after) for "nothing happened" and every legal action
        sequence up to the game's length, best first. Longer sequences are tried only
        while the best so far leaves changed cells unexplained."""
        changed = ev.maybe_changed()
        ranked = [(ev.score(board), [], board)]
        for depth, frontier in enumerate(self.game.sequences(self.state, changed), 1):
            for seq, s in frontier:
                after = self.game.board(s)
                ranked.append((ev.score(after) - PLY_COST * depth, seq, after))
            ranked.sort(key=lambda r: -r[0])
            if not ev.poorly_explained(ranked[0][2]):
                break
        # sequences that end on the same board look alike to the camera: only the best
        # (the shortest) stands, so a longer copy never makes the answer unclear. A board
        # is known by what differs from the position's: a few cells, where the whole board
        # made a burst of small objects per sequence (thousands in a Labyrinth turn) that
        # left Python's allocator holding more memory game after game (bench/soak.py)
        best, seen = [], set()
        for r in ranked:
            after = r[2]
            key = frozenset([(c, p) for c, p in after.items() if board.get(c, _GONE) != p]
                            + [(c, _GONE) for c in board if c not in after])
            if key not in seen:
                seen.add(key)
                best.append(r)
        return best

    # --- what the page and `referee play` show -------------------------------------
    def snapshot(self, viewer: int | None = None) -> dict:
        if self.game is None:
            return {"game": None}
        outcome = self.game.outcome(self.state)
        return {
            "game": self.game.name,
            "title": self.game.title,
            "variant": self.game.variant,
            "game_id": self.game_id,
            "seats": self.game.seats(self.state),
            "prompt": self._prompt_json(),
            "moves": list(self.history),
            "alarm": self.alarm,
            "doubt": self.doubt,
            "outcome": outcome.to_json() if outcome else None,
            "rulings": [{"key": r.key, "value": r.value, "text": r.text} for r in self.game.rulings()],
            "state": self.game.snapshot(self.state, viewer),
        }


    def _prompt_json(self) -> dict:
        """The prompt, with each option in words for the page's buttons ("moves Mario to
        the ground (w1-07)" rather than "move w1-07"); an option the game cannot put
        into words keeps its notation."""
        prompt = self.game.prompt(self.state)
        words = {}
        for option in prompt.options:
            try:
                words[option] = self.game.describe(self.state, self.game.parse(self.state, option))
            except (NotationError, IllegalAction):
                words[option] = option
        return {**prompt.to_json(), "words": words}


class _Evidence:
    """What one view says about each cell, as log-likelihoods of what a candidate board
    puts there (see the module's docstring). Under a candidate a cell is expected to
    look changed when its own label changes, or (at a low camera angle) when a tall
    piece came to or left the square in front of it; a piece standing in front of it
    makes its own reading less trustworthy."""

    def __init__(self, view: BoardView, board: dict, min_confidence: float, labels_name_changes: bool):
        self.read = view.cells
        self.labels_name_changes = labels_name_changes  # the game's Game.sure_labels_name_changes
        self.board = board
        self.min_confidence = min_confidence
        self.change = view.extra.get("change") or {}
        self.moving = set(view.extra.get("moving") or ())
        if self.change and view.extra.get("change_from") != board:
            # measured from another position (not yet taught the one accepted): weights only
            self.change = {c: (None, None, w) for c, (_, _, w) in self.change.items()}
        self.fronts = {c: (f, _hidden_share(lean)) for c, (f, lean) in (view.extra.get("fronts") or {}).items()
                       if _hidden_share(lean) > 0}
        self.behind: dict = {}
        for c, (f, _) in self.fronts.items():
            self.behind.setdefault(f, []).append(c)
        self.k = 3  # a misread is one of about two other looks (empty, the other side), whatever the game
        self.measured = any(p is not None for p, _, _ in self.change.values())
        self.label_weight = CHANGE_LABEL_WEIGHT if self.measured else 1.0
        self._cache: dict = {}
        self.base = sum(self.ll(c, board) for c in board)

    def label(self, cell) -> str:
        return self.read.get(cell, (self.board.get(cell), 0.0))[0]

    def weight(self, cell) -> float:
        return self.change[cell][2] if cell in self.change else 1.0

    def _expect(self, cell, after: dict) -> tuple[str, float, float]:
        """(label, probability the cell looks changed, trust in its own reading) under `after`."""
        label = after.get(cell)
        q, trust = float(label != self.board.get(cell)), 1.0
        if cell in self.fronts:
            front, hidden = self.fronts[cell]
            now, then = after.get(front, "empty") != "empty", self.board.get(front, "empty") != "empty"
            if now != then:
                q = max(q, hidden)
            if now:
                trust = 1.0 - hidden
        return label, q, trust

    def ll(self, cell, after: dict) -> float:
        key = self._expect(cell, after)
        if (cell, key) not in self._cache:
            label, q, trust = key
            ll = 0.0
            if cell in self.read:
                lab, conf = self.read[cell]
                conf = min(max(conf, 0.05), 0.97)
                ll += trust * self.label_weight * math.log(conf if lab == label else (1.0 - conf) / (self.k - 1))
            p_changed, p_empty, _ = self.change.get(cell, (None, None, 1.0))
            if p_changed is not None:
                p = min(max(p_changed, 0.03), 0.97)
                ll += math.log(q * p + (1.0 - q) * (1.0 - p))
                if p_empty is not None:
                    pe = min(max(p_empty, 0.05), 0.95)
                    ll += trust * 0.5 * math.log(pe if label == "empty" else 1.0 - pe)
            self._cache[(cell, key)] = self.weight(cell) * ll
        return self._cache[(cell, key)]

    def affected(self, after: dict) -> set:
        """The cells whose expectation `after` changes: its own changes and the cells
        behind them."""
        moved = {c for c, lab in after.items() if lab != self.board.get(c)}
        return moved | {b for c in moved for b in self.behind.get(c, ())}

    def score(self, after: dict) -> float:
        return self.base + sum(self.ll(c, after) - self.ll(c, self.board) for c in self.affected(after)
                               if c in self.board)

    def contradicts(self, cell, after: dict) -> bool:
        """Does the view clearly show something else on this well-seen cell than `after`
        puts there: the reader surely reads another label and (where measured) the change
        disagrees too? A cell hidden behind a piece shows nothing for sure."""
        label, q, trust = self._expect(cell, after)
        if self.weight(cell) < SEEN or trust < 0.5:
            return False
        lab, conf = self.read.get(cell, (label, 0.0))
        by_label = lab != label and conf >= self.min_confidence
        p_changed = self.change.get(cell, (None,))[0]
        if p_changed is None:
            # where vision measures change, a cell it could not yet measure (a hand covered
            # it when the position was last known) shows nothing for sure
            return by_label and not self.measured
        by_change = p_changed < 0.5 if q >= 0.5 else p_changed > 0.5
        if (self.labels_name_changes and by_label and not by_change and q >= 0.5
                and lab != self.board.get(cell) != label):
            # it changed as `after` says, but surely into something else (a chip of the
            # other colour), and this game's labels are to be believed on that
            return True
        return by_change and (by_label or cell not in self.read)

    def fits_the_start(self, board: dict) -> bool:
        """Does a cold read show the start position as well as a cold read can? Before any
        look is learned on the table, what a reader gets right is whether each square is
        empty (a few may err) and, over all the pieces, which side is which (single
        pieces err, the majority does not); the sides' looks are then learned from the
        start itself."""
        sure = [c for c in board if c in self.read and self.read[c][1] >= self.min_confidence
                and self.weight(c) >= SEEN]
        misfits = [c for c in sure if (self.read[c][0] == "empty") != (board[c] == "empty")]
        pieces = [c for c in sure if board[c] != "empty" and self.read[c][0] != "empty"]
        agree = sum(self.read[c][0] == board[c] for c in pieces)
        return len(misfits) <= START_MISFITS and (not pieces or 2 * agree > len(pieces))

    def unexplained(self, after: dict) -> set:
        return {c for c in after if self.contradicts(c, after)}

    def shown(self, cell, after: dict) -> bool:
        """Does this cell, where seen, favour `after` over the position?"""
        return (cell not in self.read or self.weight(cell) < SEEN
                or self.ll(cell, after) > self.ll(cell, self.board))

    def poorly_explained(self, after: dict) -> bool:
        """Cells that look changed but `after` leaves as they were (worth a longer sequence)."""
        return any(self.weight(c) >= SEEN and self.ll(c, after) < -1.0 for c in after)

    def unclear(self) -> bool:
        """Is any well-seen cell read unsurely as something other than the position
        (and, where measured, changed)? Then the view is not clear enough for an alarm."""
        for c, lab in self.board.items():
            read, conf = self.read.get(c, (lab, 1.0))
            p_changed = self.change.get(c, (None,))[0]
            if (read != lab and conf < self.min_confidence and self.weight(c) >= SEEN
                    and (p_changed is None or p_changed > 0.5)):
                return True
        return False

    def maybe_changed(self) -> set:
        """Cells a move could explain: read otherwise than the position, unsure, or changed."""
        out = set()
        for c, lab in self.board.items():
            read = self.read.get(c)
            if read is not None and (read[0] != lab or read[1] < self.min_confidence):
                out.add(c)
            elif (self.change.get(c, (None,))[0] or 0.0) > 0.3:
                out.add(c)
        return out


def _hidden_share(lean: float) -> float:
    """How much of a cell a tall piece in front of it hides, from its lean (squares)."""
    return min(0.9, max(0.0, (lean - 0.4) / 0.6))
