"""Finding the board again after the camera lost it: the legal histories, several plies
long, from the position the referee is sure of to the board a clear view shows now.

A bumped camera, a stretch of video lost, a hand over the board while play went on:
the camera sees the board again 3 to 8 plies later. A beam over the boards on the way
(controller/beliefs.py `Beliefs.search`) loses such a history when its middle steps fit
the view worse than others (Ba4 then Bxc6: the bishop passes a4 and leaves it; Nf3 then
Ng5: f3 is empty before and after). So the referee walks the legal plies themselves, as
far as the time and the hand motions since the sure position allow, and keeps every
board on the way that could still reach the view in the plies left:

    sure position ── depth 1 ── depth 2 ── ... ── depth n: boards the view does not contradict
                     (only plies from cells the view shows otherwise than the board on the
                      way; a board that needs more plies than are left is not walked on)

- the target: the cells the view shows clearly (every label but one contradicted, as
  `Evidence.contradicts` says; a cell under a hand or unclear sets no target);
- plies still needed, at least: each target cell that should hold a seat's piece (its
  label placed only by that seat's actions, learned from the actions the walk applies)
  and does not yet needs one action of that seat, and so does each target cell that
  should be empty and still holds a piece only its seat's actions take away (a bishop
  that went to b5 must leave it again), less one (an action may place or empty two:
  castling), and a cell may be misread (`Game.wrong_cells` less one); in a game whose
  turns alternate between two seats (learned the same way), each seat has only its half
  of the plies left;
- depth: the fewest plies that explain the view, and as many more as the game has seats
  (the same board with another seat to move: 5...Be7 6.Bxc6 and 4.Ba4 ... 6.Bxc6 leave
  one board, a ply apart; the next view, whose side moves, tells them apart), up to the
  plies allowed;
- a board reached twice in the same number of plies (two independent plies in either
  order) is walked once: nothing the camera saw tells the orders apart;
- at most NODES boards a view (bench/recovery.py measures the work); the deeper
  histories with another seat to move get as much work again as the first took (and
  PARITY_NODES), no more.

The lines found are scored as any (`Beliefs.cost`: the rules' prior, the hand motions)
and weighed by later views as any; the referee records them when sure and says once
which plies were recovered late (controller/referee.py `_found_again`).

The camera tells whose a piece is, not which, so a stretch found late is held less surely
than plies seen one by one: when a later clear view is explained by no history from it,
`look_again` walks again from the position before it, boards told apart by which piece
stands where, keeping only the histories whose pieces go on legally through every still
view since (controller/following.py `_look_again` corrects the record with the first).
"""
from __future__ import annotations

from .beliefs import Beliefs, Line, Still, replay
from .evidence import SEEN, Evidence

NODES = 12000  # boards walked per view at most (two thirds of them on the first pass)
PARITY_NODES = 500  # ... beyond twice the first histories' for those with another seat to move


class Walk:
    """One search over one view: the target the view sets, what the walk learned of the
    game (who places which label, how many at once, whether turns alternate), the boards
    walked. `misread`: cells a board may show otherwise than the target and still
    explain the view (none on the first pass: `found_again`)."""

    def __init__(self, beliefs: Beliefs, ev: Evidence, target: dict, twice: bool, budget: int, sure, accept=None):
        self.beliefs, self.game, self.ev = beliefs, beliefs.game, ev
        self.target = target
        # given, a history the view does not contradict must also pass it (`look_again`),
        # and boards the camera takes for one are walked apart (`Game.position`)
        self.accept = accept
        self.twice = twice  # one action of each seat's may place two of its labels (castling), seen or not
        self.owner: dict = {}  # label -> the one seat whose actions place it (None: more than one)
        self.most: dict = {}  # seat -> the most of its labels one of its actions placed
        self.emptier: dict = {}  # label -> the one seat whose actions empty a cell of it (None: more than one)
        self.most_emptied: dict = {}  # seat -> the most cells one of its actions emptied
        self.two = len(self.game.seats(sure)) == 2
        self.alternates = self.two  # two seats, and every action seen was by the other seat than the one before it
        self.budget = budget
        self.nodes = 0
        self._start: dict = {}  # the board the walk starts from (boards on the way are known by how they differ)

    # --- what the view still asks of a board --------------------------------------------
    def needed(self, board: dict, changes: dict, miss: dict, left: int, next_seat) -> bool:
        """Can the board `changes` leaves of `board` still reach one the view does not
        contradict in `left` actions, `next_seat` acting first (None: not known)? `miss`:
        the target's cells that board does not show as the target has them."""
        missing: dict = {}  # seat -> target cells that want one of its labels placed
        leaving: dict = {}  # seat -> target cells that want one of its labels taken away
        owner, emptier = self.owner, self.emptier
        for c, want in miss.items():
            if want == "empty":
                seat = emptier.get(changes.get(c, board[c]))
                if seat is not None:
                    leaving[seat] = leaving.get(seat, 0) + 1
            else:  # (no action places "empty": `learn`)
                seat = owner.get(want)
                if seat is not None:
                    missing[seat] = missing.get(seat, 0) + 1
        # each action places one of its seat's labels and empties one cell of them, but one
        # may place or empty as many as an action of that seat was seen to, or (second
        # pass) two: castling
        need = {}
        for counts, most in ((missing, self.most), (leaving, self.most_emptied)):
            for s, n in counts.items():
                need[s] = max(need.get(s, 0), n - max(2 if self.twice else 1, most.get(s, 1)) + 1)
        if sum(need.values()) > left:
            return False
        if self.alternates and next_seat is not None:
            for seat, n in need.items():
                if n > ((left + 1) // 2 if seat == next_seat else left // 2):
                    return False
        return True

    def learn(self, seat, before: dict, changes: dict) -> None:
        """Which labels an action of `seat` placed and which it emptied (its `changes` to
        `before`), for the bound in `needed`."""
        placed = emptied = 0
        for c, lab in changes.items():
            if lab == "empty":
                emptied += 1
                lab, learned = before[c], self.emptier
            else:
                placed += 1
                learned = self.owner
            if learned.setdefault(lab, seat) != seat:
                learned[lab] = None
        if placed > self.most.get(seat, 1):
            self.most[seat] = placed
        if emptied > self.most_emptied.get(seat, 1):
            self.most_emptied[seat] = emptied

    # --- walking ------------------------------------------------------------------------
    def walk(self, start: Line, plies: int) -> list[tuple]:
        """Every (actions, state, board) of exactly `plies` legal actions from `start`
        that the view does not contradict (one per board and number of actions)."""
        found: list = []
        seat = self.game.prompt(start.state).seat
        miss = {c: want for c, want in self.target.items() if start.board.get(c) != want}
        self._start = start.board
        self._walk(start.state, start.board, (), plies, None, seat, {}, found, set(), frozenset([frozenset()]),
                   miss, {})
        return found

    def _walk(self, state, board, actions, left, last, next_seat, passing, found, seen, path, miss, moved) -> None:
        """`passing`: seat -> the cells its last action filled and left without touching
        any cell the view shows otherwise (a piece on its way: its next action must go on
        from them, and not back); `path`: the boards on the way (each known by `moved`,
        its cells that differ from the start's), none of which a history stands on twice
        (a knight out and back is no history guessed from a view); `miss`: the target's
        cells `board` does not show yet. Both are kept from board to board by the cells
        an action changes, not the whole board's (the walk's work is per action tried: a
        child's state is built only when the view still asks for it, its board only when
        it is walked)."""
        if self.nodes >= self.budget:
            return
        self.nodes += 1
        if left == 0:
            if not miss and self.ev.explains(board) and (self.accept is None or self.accept(actions, state)):
                found.append((actions, state, board))
            return
        if self.game.outcome(state) is not None:
            return
        maybe = self.ev.maybe_changed(board)
        children, seat = [], None
        for action in self.game.observable_actions(state):
            changes = self.game.changes(state, board, action)
            if seat is None:  # a move's actor: the same for every move from one position
                seat = self.game.actor(state, action)
                if last is not None and seat == last:
                    self.alternates = False
            self.learn(seat, board, changes)
            on_its_way = passing.get(seat)
            if on_its_way is not None and (on_its_way[0].isdisjoint(changes)
                                           or any(changes[c] != "empty" for c in on_its_way[1] if c in changes)):
                continue  # the piece on its way goes on first, and not back where it came from
            child_miss = self._still_missing(miss, changes)
            if on_its_way is None and maybe.isdisjoint(changes) and left > 1:
                # an action that touches no cell the view shows otherwise: a piece on its way
                # (the bishop leaves f1, which castling fills again, for b5, then a4)
                went = frozenset(c for c, lab in changes.items() if lab != "empty")
                children.append((len(child_miss) + 1, action, changes,
                                 {**passing, seat: (went, frozenset(changes.keys() - went))}, child_miss))
                continue
            rest = {k: v for k, v in passing.items() if k != seat} if on_its_way is not None else passing
            children.append((len(child_miss), action, changes, rest, child_miss))
        following = 1 - seat if self.alternates and seat in (0, 1) else None
        children.sort(key=lambda child: child[0])  # the boards nearest the view first
        for _, action, changes, rest, child_miss in children:
            if not self.needed(board, changes, child_miss, left - 1, following):
                continue
            child_moved = dict(moved)
            for c, lab in changes.items():
                if lab == self._start.get(c):
                    child_moved.pop(c, None)
                else:
                    child_moved[c] = lab
            cells = frozenset(child_moved.items())
            after_state = self.game.apply(state, action)
            key = (cells if self.accept is None else self.game.position(after_state), left - 1,
                   frozenset(rest.items()))
            if key in seen or cells in path:
                continue  # the same board in as many plies (two independent plies in either order)
            after = self.game.board(after_state)
            if self.ev.hides(board, after):
                continue
            seen.add(key)
            self._walk(after_state, after, actions + (action,), left - 1, seat, following, rest, found, seen,
                       path | {cells}, child_miss, child_moved)

    def _still_missing(self, miss: dict, changes: dict) -> dict:
        """The target's cells a board does not show, from those its parent did not
        (`miss`) and the action's `changes` to it."""
        out = dict(miss)
        for c, lab in changes.items():
            want = self.target.get(c)
            if want is None:
                continue
            if lab == want:
                out.pop(c, None)
            else:
                out[c] = want
        return out


def _target(ev: Evidence, board: dict) -> dict:
    """The cells the view shows clearly: each well-seen cell where every label but one
    is contradicted, with that one."""
    labels = set(board.values()) | {lab for lab, _ in ev.read.values()} | {"empty"}
    target = {}
    for c in board:
        if ev.weight(c) < SEEN:
            continue
        fits = [lab for lab in labels if not ev.contradicts(c, {**board, c: lab})]
        if len(fits) == 1:
            target[c] = fits[0]
    return target


def found_again(beliefs: Beliefs, ev: Evidence, starts: list[tuple], most: int, moved_at: float, sure,
                nodes: int = NODES, deeper_than: int = 0, accept=None, target: dict | None = None
                ) -> tuple[list[Line], int]:
    """From the sure position `sure`: the lines from `starts` ((line, hand motions since
    it, None: not counted)), each of
    up to `most` actions in all since the sure position, that explain the clear view
    `ev`, marked found late, best first; and how many boards were walked. From the first
    start that gives any, only histories longer than `deeper_than` (the beam searched those); first with every clearly seen cell as the view shows it, then
    (nothing found) allowing the cells a view may misread (`Game.wrong_cells` less one);
    `accept`: each history must also pass it (see `Walk`); `target`: the cells the view
    shows clearly, when more is known of them than the view alone tells."""
    game = beliefs.game
    target = _target(ev, game.board(sure)) if target is None else target
    walked = 0
    for twice in (False, True):
        for start, motions in starts:
            walk = Walk(beliefs, ev, target, twice, max(0, (nodes if twice else nodes * 2 // 3) - walked), sure,
                        accept)
            lines: dict = {}
            first = None
            seats = len(game.seats(start.state))
            for plies in range(max(1, deeper_than + 1 - len(start.actions)), most - len(start.actions) + 1):
                if first is not None and plies >= first + seats:
                    break
                if first is not None:  # another seat to move: worth as much work again as the first took, no more
                    walk.budget = min(walk.budget, 2 * walk.nodes + PARITY_NODES)
                for actions, state, board in walk.walk(start, plies):
                    turns = beliefs.turns(start.state, actions)[0] if motions is not None else None
                    beliefs._keep(lines, start.then(game, actions, state, start.score + ev.score(board)
                                                    - beliefs.cost(plies, turns, motions, most), moved_at, late=True))
                    first = plies if first is None else first
                if walk.nodes >= walk.budget:
                    break
            walked += walk.nodes
            if lines:
                return Beliefs._ranked(lines), walked
    return [], walked


def look_again(game, anchor, stills: list[Still], board: dict, touched: set, most: int, depth: int,
               nodes: int = NODES) -> tuple[list[Line], int]:
    """A stretch found late from colours alone (on the first of `stills`, from the sure
    position `anchor`), which a later clear view then showed was made by other pieces (the
    camera tells whose a piece is, not which: Kf1 leaves the colours O-O ... Kh1 leaves,
    and the rook's next move is then no move of the king recorded there): from
    `anchor` again, the histories of up to `most` actions to a board the first still does
    not contradict, walked apart by which piece stands where (`Game.position`), each kept
    only if it goes on legally through every still view since (`beliefs.replay`, searched
    `depth` actions deeper where a still needs it, every still explained). The later
    views tell the walk more than the first alone: a cell it did not show clearly that no
    ply recorded since changed (`touched`, on the recorded `board` now) stood then as the
    later stills show it clearly. The lines from `anchor` through them all, best first
    (the stretch's actions marked late), and the boards walked."""
    beliefs = Beliefs(game, anchor)
    target = _target(stills[0].ev, game.board(anchor))
    later: dict = {}
    for still in stills[1:]:
        for c, label in _target(still.ev, board).items():
            if c not in target and c not in touched:
                later[c] = label if later.get(c, label) == label else None  # stills that disagree tell nothing
    target.update({c: label for c, label in later.items() if label is not None})
    after: dict = {}  # a stretch's actions -> the beliefs from its end through the stills since

    def goes_on(actions, state) -> bool:
        if actions not in after:
            after[actions] = replay(game, state, stills, lambda line: True, depth, explained=True)
        return after[actions] is not None

    start = Line((), anchor, game.board(anchor))
    found, walked = found_again(beliefs, stills[0].ev, [(start, None)], most, stills[0].moved_at, anchor, nodes,
                                accept=goes_on, target=target)
    lines: dict = {}
    for stretch in found:
        for later_line in after[stretch.actions].lines:
            beliefs._keep(lines, Line(stretch.actions + later_line.actions, later_line.state, later_line.board,
                                      stretch.score + later_line.score, stretch.seen + later_line.seen,
                                      (True,) * len(stretch.actions) + (False,) * len(later_line.actions)))
    return (Beliefs._ranked(lines) if lines else []), walked
