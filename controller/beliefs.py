"""The referee's beliefs: the few likeliest histories since the last sure point.

A camera view rarely settles a ply alone: a white pawn on a white square in a grey
photo changes its squares little, a hand at the edge hides a square, two plies may be
made between two still views. So the referee does not pick one history and defend it;
it keeps the few likeliest (a beam), each a sequence of legal actions since the last
position it is sure of, each scored by every view seen since (controller/evidence.py),
and lets later views settle between them, as an arbiter watching the board would.

    view 1 (d4, unclear)       view 2 (d5, clear)
    [] 0.0 ─┬─ [] ..... -6.1   ─┬─ [d4 d5] .... +14.2  ← leads by 9: both plies are sure
            ├─ [d4] ... -2.0   ─┤  [d4] ........ -3.9
            └─ [d3] ... -5.5   ─┘  [d3 d5] ..... -1.0

Each view extends every line by what may have happened since (nothing, or up to
`Game.max_actions_per_view` legal actions), adds the view's log-likelihood of the board
each extension leaves, and keeps the best WIDTH lines within PRUNE of the best (a view
counts only the cells something moved over since the last one: see controller/evidence.py).
Lines that end on the same board are one line to the camera (the best stands: a Viterbi beam
over boards). A view of the same still board read again (the watcher re-reads) replaces
the previous reading of it instead of counting twice.

Plies need hands: when the watcher counts the hand motions since the last view
(`BoardView.motions`), a line that goes on by more turns than that pays HANDS_COST
for each turn beyond (a quick reply, two plies in one motion, stays possible; seven
plies for three motions does not win on a shadow). Unknown motions cost nothing.

A ply is sure (`sure`) when every line within DECISIVE of the best that the view does
not contradict begins with it (one view can be that decisive: about 400 to 1), or when every line within COMMIT of the
best began with it after the last still view and still does after this one (two
looks, each favouring it). The referee then records it, and the beam is re-rooted past
it (`advance`). The rest of the best line is shown, marked unsure, until a later view
settles it.

When no line explains a view, `search` looks further: deeper from the lines (more
happened than one view shows: quick play, a missed view, a restart) and from the sure
position itself (the camera lost the board for a while), by a beam search guided by
the cells the view shows changed. And `replay` weighs again, from a position a few sure plies
back, every still view seen since: a ply taken wrongly as sure is taken back when the
histories without it explain all those views overwhelmingly better than the histories
with it (controller/referee.py).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from .evidence import Evidence

PLY_COST = 0.5  # the rules' prior: each action in one view costs this much (the shortest history wins a tie)
EXTRA_COST = 3.0  # each action beyond what one view may show (Game.max_actions_per_view): rare
WIDTH = 8  # lines kept
PRUNE = 25.0  # lines further than this below the best are dropped
COMMIT = 2.0  # a ply is sure when every line within this of the best agrees on it, on two still views
DECISIVE = 6.0  # ... or within this on one view (about 400 to 1)
HANDS_COST = 3.0  # each turn beyond the hand motions the watcher counted since the last view
EXPAND_DEEP = 3  # only the best few lines are tried with more than one action per view
SEARCH_WIDTH = 24  # boards kept per depth when searching further


@dataclass(frozen=True)
class Line:
    """One candidate history since the sure point: its actions, the state and board they
    leave, its score over the views since, for each action the time the hand left the
    board in the view that first showed it (for the decision delay), and whether a search
    found it late, in a view long after it was made (`late`: the camera lost the board)."""

    actions: tuple
    state: Any
    board: dict
    score: float = 0.0
    seen: tuple = ()
    late: tuple = ()

    def then(self, game, seq, state, score: float, moved_at: float, late: bool = False) -> "Line":
        return Line(self.actions + tuple(seq), state, game.board(state), score, self.seen + (moved_at,) * len(seq),
                    self.late + (late,) * len(seq))

    def after(self, n: int, score: float | None = None) -> "Line":
        """The line less its first `n` actions (they were recorded)."""
        return Line(self.actions[n:], self.state, self.board, self.score if score is None else score,
                    self.seen[n:], self.late[n:])


class Last(NamedTuple):
    """The last view the lines were weighed on: when its hand left, whether a hand still
    moved over part of the board, the lines before it, the hand motions since the view
    before it (None: not counted)."""

    moved_at: float
    partial: bool
    lines: list
    motions: int | None


def new_motions(motions: int | None, after_partial: bool) -> int | None:
    """The hand motions a view adds to those counted before it: the watcher counts a burst
    a view was read in the middle of (a hand at the edge) for that view and again for the
    next once it ended (vision/watch.py), so after such a view one fewer (None: not
    counted)."""
    return motions if motions is None or not after_partial else max(0, motions - 1)


class Beliefs:
    """The beam of lines over one game since its sure point (see the module docstring)."""

    def __init__(self, game, state):
        self.game = game
        self.reset(state)

    def reset(self, state) -> None:
        """Sure of `state`: one line, nothing since."""
        self._root_board = self.game.board(state)
        self.lines = [Line((), state, self._root_board)]
        self._last: Last | None = None
        self._agreed: dict = {}  # moved_at -> what was settled within COMMIT on that still view (the last two)

    @property
    def best(self) -> Line:
        return self.lines[0]

    # --- a view -----------------------------------------------------------------------
    def weigh(self, ev: Evidence, moved_at: float, motions: int | None = None) -> list[Line]:
        """The lines after a view, best first (not yet adopted: see `adopt`): each line
        goes on by nothing or by what the view may show happened since (`motions`: the
        hand motions the watcher counted since the last view; None: not counted), never
        by a quick reply the view does not show (`quick_reply_seen`: guessed, one pushed
        the position as it stood out of the beam, and its putting back read as two more
        plies nobody made). A line
        goes on also into cells a hand still moves over: such a ply is a rival like any
        (the view shows the square the piece left, the hand where it went), recorded only
        once a view shows its cells (`Following._follow`); left out, the best of the plies
        the hand does not touch could lead decisively (Rd6 for Rd1, d1 under the hand)."""
        found: dict = {}
        before = self.before(moved_at, motions)
        motions = self.motions(moved_at, motions)
        for rank, line in enumerate(before):
            self._keep(found, replace(line, score=line.score + ev.score(line.board)))
            changed = ev.maybe_changed(line.board)
            if not changed or self.game.outcome(line.state) is not None:
                continue
            for depth, frontier in enumerate(self.game.sequences(line.state, changed), 1):
                best = None
                for seq, state in frontier:
                    ext = line.then(self.game, seq, state, 0.0, moved_at)
                    if ev.unseen(line.board, ext.board):
                        continue
                    turns = self.turns(line.state, seq)[0] if motions is not None else None
                    if turns is not None and not self.quick_reply_seen(turns, motions, ev, ext.board):
                        continue
                    ext = replace(ext, score=line.score + ev.score(ext.board) - self.cost(len(seq), turns, motions))
                    self._keep(found, ext)
                    best = ext if best is None or ext.score > best.score else best
                # deeper when no shorter history shows what the view shows changed (a move
                # under a hand at rest, then the reply the view shows) or explains it well
                if rank >= EXPAND_DEEP or (best is not None and not ev.poorly_explained(best.board)):
                    break
        return self._ranked(found)

    def adopt(self, lines: list[Line], moved_at: float, partial: bool = False, motions: int | None = None) -> None:
        """The lines `weigh` (or `search`) gave for the view whose hand left at `moved_at`
        (`partial`: a hand still moved over part of the board; `motions` as for `weigh`)."""
        self._last = Last(moved_at, partial, self.before(moved_at, motions), self.motions(moved_at, motions))
        self.lines = lines

    def before(self, moved_at: float, motions: int | None = None) -> list[Line]:
        """The lines a view is weighed on. A view is one more look at the table when the
        board was disturbed since the last one; it replaces the last view when that one
        read the same still board (no motion since: the watcher read it again) or a board
        a hand still moved over (the readings while a hand comes and goes are not
        independent looks: a shadow next to the hand would count again and again). Then
        the lines before the last view are weighed again. A view read while a new hand
        still moves over part of the board (`motions` counts it) is no re-read, though
        the still part last moved when the last view's did: it replaces nothing, or what
        the last view showed under that hand (the knight still on h7 before f4) would be
        lost."""
        return self._last.lines if self._replaces(moved_at, motions) else self.lines

    def motions(self, moved_at: float, motions: int | None) -> int | None:
        """The hand motions since the view the lines `before` were weighed on: this
        view's, and the last view's too when this one replaces it (None: not counted)."""
        if not self._replaces(moved_at, motions):
            return motions
        last = self._last.motions
        if motions is None or last is None:
            return None
        return last + new_motions(motions, self._last.partial)

    def _replaces(self, moved_at: float, motions: int | None) -> bool:
        return self._last is not None and (self._last.partial or (self._last.moved_at == moved_at and not motions))

    def _keep(self, found: dict, line: Line) -> None:
        key = self._key(line)
        if key not in found or line.score > found[key].score:
            found[key] = line

    def _key(self, line: Line) -> tuple:
        """What the camera can tell of a line: its board, known by what differs from the
        sure position's, and what the game waits for next, from whom (e7-e5 and e7-e6
        then e6-e5 leave one board, but not the same player to move)."""
        root = self._root_board
        board = frozenset([(c, v) for c, v in line.board.items() if root.get(c, _GONE) != v]
                          + [(c, _GONE) for c in root if c not in line.board])
        prompt = self.game.prompt(line.state)
        return board, prompt.kind, prompt.seat

    @staticmethod
    def _ranked(found: dict) -> list[Line]:
        lines = sorted(found.values(), key=lambda line: -line.score)
        top = lines[0].score
        return [line for line in lines[:WIDTH] if line.score >= top - PRUNE]

    def ahead(self) -> list[dict]:
        """The boards the kept histories lead to, and those one action on from the ones
        within COMMIT of the best: what the camera may see next. A move made wholly under
        what the watcher takes for a hand is in no history yet (O-O-O from a low camera at
        the h-file side: the king and rook lean past the board's edge as an arm reaches
        in, and every square it changed lies under them); vision/cover.py, rule 4."""
        boards = [line.board for line in self.lines]
        for line in self.close():
            boards += [self.game.board(self.game.apply(line.state, action))
                       for action in self.game.observable_actions(line.state)]
        return boards

    # --- what is sure ------------------------------------------------------------------
    def close(self, margin: float = COMMIT) -> list[Line]:
        """The lines within `margin` of the best."""
        top = self.best.score
        return [line for line in self.lines if line.score >= top - margin]

    def settled(self, margin: float = COMMIT, ev: Evidence | None = None, decisive: float = DECISIVE) -> int:
        """How many of the best line's actions every line within `margin` of it begins
        with (and, given the view `ev`, every line within `decisive` that explains it:
        a line the view contradicts is no rival)."""
        close = self.close(margin)
        if ev is not None:
            close += [line for line in self.close(decisive) if line not in close and ev.explains(line.board)]
        n = 0
        while n < len(self.best.actions) and all(len(line.actions) > n and line.actions[n] == self.best.actions[n]
                                                  for line in close):
            n += 1
        return n

    def sure(self, ev: Evidence, moved_at: float, still: bool = True) -> int:
        """How many of the best line's actions are sure after the view `ev` whose hand left
        at `moved_at`: those every line within COMMIT of the best begins with, and every
        line within DECISIVE the view does not contradict (one view that decisive); or
        every line within COMMIT after this still view and after the still view before
        it (two looks, each favouring them; a re-read of the same still board is no second
        look). A view a hand still moves over (`still` False) is no look of its own."""
        if still:
            self._agreed.pop(moved_at, None)
            self._agreed[moved_at] = self.best.actions[:self.settled(COMMIT)]
            for old in list(self._agreed)[:-2]:
                del self._agreed[old]
        n = self.settled(COMMIT, ev)
        if still and len(self._agreed) == 2:
            before, now = self._agreed.values()
            both = 0
            while both < min(len(before), len(now)) and before[both] == now[both]:
                both += 1
            n = max(n, both)
        return n

    def advance(self, n: int, state) -> None:
        """The best line's first `n` actions are sure, leaving `state`: re-root past them
        (the lines that do not begin with them go)."""
        head = self.best.actions[:n]
        top = self.best.score
        self._root_board = self.game.board(state)
        self.lines = [line.after(n, line.score - top) for line in self.lines if line.actions[:n] == head]
        self._last = None
        self._agreed = {t: a[n:] for t, a in self._agreed.items() if a[:n] == head}

    def cost(self, n: int, turns: int | None = None, motions: int | None = None, most: int | None = None) -> float:
        """The rules' prior against `n` actions between two views: a little each, much
        more beyond what one view may show (`most`, default `Game.max_actions_per_view`),
        and HANDS_COST for each of their `turns` beyond the hand `motions` counted."""
        most = self.game.max_actions_per_view if most is None else most
        hands = HANDS_COST * max(0, turns - motions) if turns is not None and motions is not None else 0.0
        return PLY_COST * min(n, most) + EXTRA_COST * max(0, n - most) + hands

    def turns(self, state, seq, seat=None, turns: int = 0) -> tuple[int, Any]:
        """How many turns (runs of one seat's actions: one hand each) `seq` takes from
        `state`, counting on from `turns` made before it by `seat`; and whose the last."""
        for action in seq:
            who = self.game.actor(state, action)
            if turns == 0 or who is None or who != seat:
                turns += 1
            seat = who
            state = self.game.apply(state, action)
        return turns, seat

    def hands_allow(self, root, actions, motions: int | None, ev: Evidence | None = None, board=None) -> bool:
        """Could the players have made `actions` from `root` with the hand `motions`
        counted (and one more: a quick reply, given the view `ev`, one it shows on the
        `board` `actions` leave: `quick_reply_seen`; None: not counted)? Each view's weighing
        makes a line pay for turns beyond its hands, but where a real illegal move leaves
        every legal history poor, one with plies nobody made may still lead, or stand
        alone: 15. Nxe7+ taken back for Nd6, ...b6, Nb7, ...Rfe8, or ...Qxe7, b3 found
        "late" (squares hidden from a low side), after 15...b6?? 16. Bg3: four turns for
        two hands."""
        if motions is None:
            return True
        turns = self.turns(root, actions)[0]
        return turns <= motions + 1 and (ev is None or self.quick_reply_seen(turns, motions, ev, board))

    @staticmethod
    def quick_reply_seen(turns: int, motions: int, ev: Evidence, board) -> bool:
        """A quick reply is seen, not guessed: `turns` beyond the hand `motions` counted
        need the `board` they leave to explain the view `ev` unstrained (`Evidence.strain`
        0, as a take-back's history). A bishop put from f1 on h4, where it cannot go, in
        one motion fits Be2 Qh4 on no cell clearly, but e2, h4's colour and d8 badly (a
        strain of 7 to 9): no quick reply, an alarm."""
        return turns <= motions or ev.strain(board) == 0

    # --- looking further ---------------------------------------------------------------
    def search(self, ev: Evidence, starts: list[tuple], depth: int, moved_at: float, keep=None,
               most: int | None = None, late: bool = False) -> list[Line]:
        """Lines from `starts` ((line, actions already owed: negative for plies taken back
        that a line may make again for free[, hand motions since that line's view])) of up
        to `depth` more actions that explain `ev`, best first: a beam search over the legal
        actions from cells the view shows changed against each board on the way,
        SEARCH_WIDTH boards per depth; `most` actions in all are plausible (more cost
        EXTRA_COST each), turns beyond the motions HANDS_COST each; only lines `keep`
        allows, when given; `late`: the actions are marked found late."""
        frontier = [(start[0], start[0].score, start[1], 0, None, start[2] if len(start) > 2 else None)
                    for start in starts]
        found: dict = {}
        for _ in range(depth):
            grown: dict = {}
            for line, base, n, turns, seat, motions in frontier:
                if self.game.outcome(line.state) is not None:
                    continue
                for action in self.game.observable_actions(line.state, ev.maybe_changed(line.board)):
                    ext = line.then(self.game, (action,), self.game.apply(line.state, action), 0.0, moved_at, late)
                    if (ev.hides(line.board, ext.board) or ev.unseen(line.board, ext.board)
                            or (keep is not None and not keep(ext))):
                        continue
                    t, who = self.turns(line.state, (action,), seat, turns) if motions is not None else (None, None)
                    ext = replace(ext, score=base + ev.score(ext.board) - self.cost(max(0, n + 1), t, motions, most))
                    key = self._key(ext)
                    if key not in grown or ext.score > grown[key][0].score:
                        grown[key] = (ext, base, n + 1, t, who, motions)
            frontier = sorted(grown.values(), key=lambda item: -item[0].score)[:SEARCH_WIDTH]
            for line, *_ in frontier:
                if ev.explains(line.board):
                    self._keep(found, line)
            if not frontier:
                break
        return self._ranked(found) if found else []


_GONE = object()  # a cell a board no longer has


@dataclass(frozen=True)
class Still:
    """One still view kept for weighing again: when the hand left before it, whether a
    hand still moved over part of the board (then the next view replaces it, as in
    `Beliefs.before`), and what it showed."""

    moved_at: float
    partial: bool
    ev: Evidence
    motions: int | None = None  # hand motions since the view before (None: not counted)


def replay(game, root, stills: list[Still], keep, depth: int, start: "Beliefs | None" = None,
           explained: bool = False) -> "Beliefs | None":
    """The beliefs from `root` after weighing `stills` in turn (or, from `start`, the
    beliefs after the stills before them), keeping only the lines `keep` allows; a still
    no kept line explains well is searched up to `depth` actions deeper, as the referee does
    (a history taken back must be given the same chances as the one recorded). None
    when no kept line goes on through some still, or (`explained`) when the best line
    does not explain one."""
    beliefs = copy.copy(start) if start is not None else Beliefs(game, root)
    for still in stills:
        ev = still.ev
        found: dict = {}
        for line in beliefs.weigh(ev, still.moved_at, still.motions):
            if keep(line):
                beliefs._keep(found, line)
        best = max(found.values(), key=lambda line: line.score).board if found else None
        if best is None or not ev.explains(best) or ev.poorly_explained(best):
            motions = beliefs.motions(still.moved_at, still.motions)
            starts = [(line, 0, motions) for line in beliefs.before(still.moved_at, still.motions)[:3]]
            for line in beliefs.search(ev, starts, depth, still.moved_at, keep):
                beliefs._keep(found, line)
        if not found or (explained and not ev.explains(max(found.values(), key=lambda line: line.score).board)):
            return None
        beliefs.adopt(Beliefs._ranked(found), still.moved_at, motions=still.motions)  # each still its own look
    return beliefs
