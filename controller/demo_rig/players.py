"""The simulated players of `referee demo`, one small class per game.

A player knows how people choose in that game (among the legal moves the referee's
position allows) and how the game's renderer draws the table while they act: frames with
an arm reaching in and a piece put down. `controller/demo.py` (the DemoTable) drives them.
"""
from __future__ import annotations

import logging
import random
from dataclasses import replace
from pathlib import Path

import numpy as np

log = logging.getLogger("referee.demo")

FPS = 15.0  # the simulated camera: frames per second and frame size
SIZE = (960, 540)
PGN_DIR = Path(__file__).resolve().parents[3] / "shared" / "data" / "pgn"
CARD_CHANCE = 0.3  # Super Mario Bros.: how often an opponent plays a hazard card before a roll

class Noise:
    """Fresh sensor noise on a held frame (a camera never gives two identical frames; the
    watcher calls a feed of identical frames frozen). One bank per frame size, sliced."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.banks: dict = {}

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        if (h, w) not in self.banks:
            self.banks[(h, w)] = self.rng.normal(0.0, 2.0, (h + 16, w + 16, 3)).astype(np.int16)
        dy, dx = self.rng.integers(0, 16, 2)
        return np.clip(frame.astype(np.int16) + self.banks[(h, w)][dy:dy + h, dx:dx + w], 0, 255).astype(np.uint8)


# --- the players of each game --------------------------------------------------------
class Player:
    """One game's simulated players and its renderer. A "scene" is whatever that
    renderer draws from (labels, a chess Position, a Labyrinth snapshot).

    - `scene(state)`: the table in that state;
    - `film(scenes, hint, still_s, lead_s)`: (seconds, frame) pairs: `scenes[0]` still
      for `lead_s`, then if there is a second scene the hands changing the table into
      it, then that scene still for `still_s`; `hint(state, action)` tells the renderer
      what the hands do when the scenes alone do not (which arrow a Labyrinth push uses);
    - `choose(state, prompt)`: an action, or text to type on the page;
    - `wrong(state, action, after)`: a scene with the piece put somewhere the rules do not
      allow (the deliberate mistake), or None;
    - `shows(state, action)`: whether this table can show the action (False stops the game);
    - `before_roll(state)`: text typed on the page when a roll is due, before the press;
    - `picture_names(state, cells)`: what the admin names the pictures the referee asks
      about on the enrolment page (Labyrinth's treasures).
    `variant`: the variant the demo plays (None: the game's first).
    """

    variant: str | None = None

    def __init__(self, game, rng: random.Random, seed: int, colours=None):
        self.game, self.rng, self.seed, self.colours = game, rng, seed, colours

    def scene(self, state):
        return self.game.board(state)

    def hint(self, state, action):
        return None

    def shows(self, state, action) -> bool:
        return True

    def wrong(self, state, action, after):
        return None

    def before_roll(self, state) -> str | None:
        """Something typed on the page before the roll (a card played), or None."""
        return None

    def picture_names(self, state, cells) -> dict:
        raise NotImplementedError(f"{self.game.name} has no pictures to name")

    def choose(self, state, prompt):
        """A random option of a choice, else a random legal action."""
        if prompt.options:
            return self.game.parse(state, self.rng.choice(prompt.options))
        return self.rng.choice(self.game.legal_actions(state))


class Connect4Player(Player):
    """They take a win when they see one and block the opponent's; blockers sometimes."""

    variant = "blocker"  # the demo shows the blocker being placed

    def choose(self, state, prompt):
        game = self.game
        acts = game.legal_actions(state)
        drops = [a for a in acts if type(a).__name__ == "Drop"]
        for a in drops:  # a winning move
            if game.outcome(game.apply(state, a)) is not None:
                return a
        other = replace(state, turn=1 - state.turn, may_remove=None)
        for a in drops:  # block the opponent's win
            if not a.remove and game.outcome(game.apply(other, a)) is not None:
                return a
        removals = [a for a in acts if getattr(a, "remove", False)]
        if removals and self.rng.random() < 0.7:
            return self.rng.choice(removals)
        places = [a for a in acts if type(a).__name__ == "PlaceBlocker" and a.row >= 2]
        if places and self.rng.random() < 0.08:
            return self.rng.choice(places)
        return self.rng.choice([a for a in drops if not a.remove] or acts)

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        from .render_connect4 import render_game

        return render_game(scenes, fps=FPS, size=SIZE, seed=self.seed, colours=self.colours,
                           still_s=still_s, lead_s=lead_s)

    def wrong(self, state, action, after):
        """A chip pushed into a hole with an empty hole below it."""
        board = self.game.board(state)
        holes = [c for c, lab in board.items() if lab == "empty" and c[1] >= 2
                 and board[(c[0], c[1] - 1)] == "empty"]
        if not holes:
            return None
        return {**board, self.rng.choice(holes): f"p{state.turn}"}


class ChessPlayer(Player):
    """They replay a master game from shared/data/pgn (chosen by the seed), the loser
    resigning on the page where the game was decided; without those files, random legal
    moves."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        from .render_chess import Camera

        self.camera = Camera(seed=seed)
        self.moves, self.result = self._master_game()

    def _master_game(self):
        import chess.pgn

        files = sorted(PGN_DIR.glob("*.pgn")) if PGN_DIR.is_dir() else []
        if not files:
            return [], "*"
        path = self.rng.choice(files)
        with open(path, encoding="utf-8") as f:
            record = chess.pgn.read_game(f)
        if record is None:
            log.warning("demo: %s holds no game; the players move at random", path)
            return [], "*"
        log.info("demo: the players replay %s", path.name)
        return list(record.mainline_moves()), record.headers.get("Result", "*")

    def scene(self, state):
        import chess
        from .render_chess import Position

        kinds = {chess.square_name(s): p.symbol().lower() for s, p in state.board.piece_map().items()}
        return Position(self.game.board(state), kinds)

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        from .render_chess import render_game

        return render_game(scenes, fps=FPS, camera=self.camera, seed=self.seed, still_s=still_s, lead_s=lead_s)

    def choose(self, state, prompt):
        ply = len(state.moves)
        legal = self.game.legal_actions(state)
        if ply < len(self.moves) and self.moves[ply] in legal:
            return self.moves[ply]
        if self.moves and ply >= len(self.moves):
            if self.result == "1-0":
                return "resign black"
            if self.result == "0-1":
                return "resign white"
            if self.result == "1/2-1/2":
                return "draw agreed"
        return self.rng.choice(legal)

    def wrong(self, state, action, after):
        """The moving piece put down on an empty square it cannot reach."""
        import chess

        reach = {m.to_square for m in state.board.legal_moves if m.from_square == action.from_square}
        empty = [s for s in chess.SQUARES if state.board.piece_at(s) is None and s not in reach
                 and chess.square_distance(s, action.from_square) <= 3]
        if not empty:
            return None
        labels = dict(self.game.board(state))
        kinds = dict(self.scene(state).kinds)
        src, dst = chess.square_name(action.from_square), chess.square_name(self.rng.choice(empty))
        labels[dst], labels[src] = labels[src], "empty"
        kinds[dst] = kinds.pop(src)
        from .render_chess import Position

        return Position(labels, kinds)


class LabyrinthPlayer(Player):
    """They push the spare in at a random arrow and turn, then walk to a random square
    they can reach (a pawn that cannot go anywhere stays: "stay" on the page)."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        from .render_labyrinth import camera_shot

        self.shot = camera_shot(size=SIZE, seed=seed)

    def scene(self, state):
        return self.game.snapshot(state)

    def picture_names(self, state, cells):
        """The treasure on each tile the referee shows (the players laid the maze out)."""
        from ..games.labyrinth.maze import cell_index

        return {cell: state.tiles[cell_index(cell)].treasure for cell in cells}

    def hint(self, state, action):
        from ..games.labyrinth.actions import MovePawn, Push
        from ..games.labyrinth.maze import cell_text

        if isinstance(action, Push):
            return ("push", action.arrow)
        if isinstance(action, MovePawn):
            return ("move", state.colours[state.turn], cell_text(action.cell))
        return None

    def choose(self, state, prompt):
        from ..games.labyrinth.actions import MovePawn, Push

        acts = self.game.legal_actions(state)
        pushes = [a for a in acts if isinstance(a, Push)]
        if pushes:
            return self.rng.choice(pushes)
        moves = [a for a in acts if isinstance(a, MovePawn)]
        if moves and state.pawns[state.turn] == state.turn_start:
            return self.rng.choice(moves)
        # the turn ends with the next player's push, as at a real table
        return self.rng.choice([a for a in self.game.observable_actions(state) if isinstance(a, Push)])

    def wrong(self, state, action, after):
        """The pawn put down on a square its path does not reach."""
        from ..games.labyrinth.actions import MovePawn
        from ..games.labyrinth.maze import cell_text, reachable

        if not isinstance(action, MovePawn):
            return None
        far = sorted(set(range(len(state.tiles))) - reachable(state.tiles, state.pawns[state.turn]))
        if not far:
            return None
        snap = self.game.snapshot(state)
        players = [dict(p) for p in snap["players"]]
        players[state.turn]["cell"] = cell_text(self.rng.choice(far))
        return {**snap, "players": players}

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        from .render_labyrinth import render_game

        if len(scenes) > 1 and scenes[0]["rows"] != scenes[1]["rows"] and hint is None:
            # a new maze laid out for the next game: the film cuts to it
            return render_game([(scenes[1], scenes[1], None)], shot=self.shot, fps=FPS,
                               lead_s=lead_s + still_s, seed=self.seed)
        if hint is None and len(scenes) > 1:  # a pawn carried (the mistake and its correction)
            hint = next((("move", a["colour"], b["cell"]) for a, b in
                         zip(scenes[0]["players"], scenes[1]["players"]) if a["cell"] != b["cell"]), None)
        steps = [(scenes[0], scenes[-1], hint if len(scenes) > 1 else None)]
        return render_game(steps, shot=self.shot, fps=FPS, still_s=still_s, lead_s=lead_s, seed=self.seed)


class TrackPlayer(Player):
    """Roll-and-move games on a track of spaces (Super Mario Bros., Monopoly): a scene is
    {space: label}; an arm reaches to each space that changes, in turn, and the label
    changes while the hand is there. Subclasses say how a frame is drawn (`photo`) and
    where a space is in the frame (`where`)."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        self.noise = Noise(seed)

    def photo(self, labels: dict, arm_tip=None) -> np.ndarray:
        raise NotImplementedError

    def where(self, cell) -> tuple[float, float]:
        raise NotImplementedError

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        k = 0

        def emit(frame):
            nonlocal k
            k += 1
            return (k - 1) / FPS, self.noise(frame)

        still = self.photo(scenes[0])
        for _ in range(int(lead_s * FPS)):
            yield emit(still)
        if len(scenes) > 1:
            now, after = dict(scenes[0]), scenes[1]
            rest = np.array([still.shape[1] * 0.5, still.shape[0] + 80.0])  # off the bottom edge
            tip = rest
            for cell in sorted((c for c in after if after[c] != now.get(c)),
                               key=lambda c: after[c] != "empty"):  # pick up before putting down
                there = np.array(self.where(cell))
                for f in (0.35, 0.7, 1.0):
                    yield emit(self.photo(now, tuple(tip + (there - tip) * f)))
                now[cell] = after[cell]
                yield emit(self.photo(now, tuple(there)))
                tip = there
            for f in (0.35, 0.7):
                yield emit(self.photo(now, tuple(tip + (rest - tip) * f)))
            still = self.photo(now)
        for _ in range(int(still_s * FPS)):
            yield emit(still)

    def wrong(self, state, action, after):
        """The piece that moves put on another free space near where it should go (labels
        may hold several pieces joined by "+", as Monopoly's do); never back where it stood,
        for that board is the one the table already shows: no mistake to see."""
        before, right = self.scene(state), self.scene(after)
        arriving = {c: _pieces(right[c]) - _pieces(before.get(c, "empty")) for c in right}
        landed = [c for c, pieces in arriving.items() if pieces]
        if not landed:
            return None
        target = self.rng.choice(landed)
        cells = list(self.cells())
        if target not in cells:
            return None
        k = cells.index(target)
        near = [c for c in cells[max(0, k - 3):k + 4] if c != target and right.get(c) == "empty"
                and not arriving[target] & _pieces(before.get(c, "empty")) and not self._allowed(state, c)]
        if not near:
            return None
        return {**right, target: _label(_pieces(right[target]) - arriving[target]),
                self.rng.choice(near): _label(arriving[target])}

    def cells(self) -> list:
        """The spaces in the order of play (a wrong space is picked near the right one)."""
        raise NotImplementedError

    def _allowed(self, state, cell) -> bool:
        """Would the rules accept a piece on `cell` (then it is no mistake)? After any
        sequence of placements the referee matches in one view (Monopoly: Bowser, the
        token, then a card's move: a token put straight on Jail is its card's move)."""
        return any(self.game.board(s).get(cell) not in (None, "empty")
                   for frontier in self.game.sequences(state) for _, s in frontier)


class SmbPlayer(TrackPlayer):
    """Super Mario Bros.: the player rolls with the die module, puts Mario on the space
    the roll gives (choosing between a ground space and a pipe top at random), and buys an
    extra life or passes on the page; opponents sometimes play a hazard card on the page
    and put its token on a space. On a link space the players swap the boards: the next
    World's board goes down with Mario on its START."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        from . import synth

        self.shot = synth.tilted(margin=0.06, seed=seed)
        self.boards: dict[int, tuple] = {}  # World -> (board data, frame homography, border)
        self.world_of = {s: n for n, w in game.worlds.worlds.items() for s in w.spaces}

    def _board(self, world: int) -> tuple:
        if world not in self.boards:
            from ..games.smb.board import world_data
            from .render_track import render_smb_world, with_markers

            data = world_data(world, self.game.settings["board"] or None)
            plane = render_smb_world(data)
            board = with_markers(plane, data["markers"])
            self.boards[world] = (data, self.shot.homography(board.shape), (board.shape[1] - plane.shape[1]) // 2)
        return self.boards[world]

    def scene(self, state):
        """The World board on the table and what stands on it."""
        data = self._board(state.world)[0]
        board = self.game.board(state)
        return {s["id"]: board[s["id"]] for s in data["spaces"]}

    def cells(self):
        """World 1's spaces but START: the reader never sees START empty (Mario stands on
        it when the game starts), so a token put there wrongly would go unseen."""
        return [s["id"] for s in self._board(1)[0]["spaces"] if "start" not in s.get("features", ())]

    def film(self, scenes, hint=None, still_s=1.0, lead_s=0.0):
        """A move within a World as every track game's; the board swap at a link space:
        an arm over the board, then the next World's board with Mario on its START."""
        if len(scenes) < 2 or self._world(scenes[0]) == self._world(scenes[1]):
            yield from super().film(scenes, hint, still_s, lead_s)
            return
        before, after = scenes
        k = 0
        middle = np.array(self.where(next(iter(before))))
        frames = ([self.photo(before)] * int(lead_s * FPS) + [self.photo(before, tuple(middle))] * 3
                  + [self.photo(after, tuple(middle))] * 3 + [self.photo(after)] * max(1, int(still_s * FPS)))
        for frame in frames:
            yield k / FPS, self.noise(frame)
            k += 1

    def _world(self, labels) -> int:
        return self.world_of[next(iter(labels))]

    def photo(self, labels, arm_tip=None):
        from .render_track import render_smb_frame

        data = self._board(self._world(labels))[0]
        return render_smb_frame(data, labels, shot=self.shot, seed=self.seed, arm_tip=arm_tip)

    def where(self, cell):
        data, H, border = self._board(self.world_of[cell])
        x, y = next(s["at"] for s in data["spaces"] if s["id"] == cell)
        p = H @ np.array([x + border, y + border, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    def before_roll(self, state):
        """Now and then an opponent plays a hazard card on the page (the token then goes
        on the table)."""
        from ..games.smb.actions import Card

        cards = [a for a in self.game.legal_actions(state) if isinstance(a, Card)]
        if cards and self.rng.random() < CARD_CHANCE:
            return self.game.notation(state, self.rng.choice(cards))
        return None


class MonopolyPlayer(TrackPlayer):
    """Monopoly: the player rolls with the die module, moves Bowser and the token where
    the referee says (the page's prompt), and makes every decision on the page at random
    (buying more often than not, as the simulator does)."""

    def __init__(self, game, rng, seed, colours=None):
        super().__init__(game, rng, seed, colours)
        from . import render_monopoly as rm
        from . import synth

        self.rm = rm
        spaces = game.b.spaces
        self.kinds, self.sets = [s.kind for s in spaces], [s.set for s in spaces]
        self.shot = synth.tilted(margin=0.05, tilt=0.06, size=(960, 720), seed=seed)
        self.H = self.shot.homography((rm.PLANE, rm.PLANE))

    def cells(self):
        return list(range(40))

    def photo(self, labels, arm_tip=None):
        return self.rm.render(labels, self.kinds, self.sets, shot=self.shot, seed=self.seed, arm_tip=arm_tip)

    def where(self, cell):
        x0, y0, x1, y1 = self.rm.space_rect(int(cell))
        p = self.H @ np.array([(x0 + x1) / 2, (y0 + y1) / 2, 1.0])
        return float(p[0] / p[2]), float(p[1] / p[2])

    def choose(self, state, prompt):
        from ..simulations.monopoly import random_action

        return random_action(self.game, state, self.rng)


def _pieces(label: str) -> set[str]:
    return set(str(label).split("+")) - {"empty"}


def _label(pieces: set[str]) -> str:
    return "+".join(sorted(pieces)) or "empty"


