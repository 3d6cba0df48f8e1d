"""`referee demo`: the whole referee on a simulated rig.

The rig is the real service (journal, referee, bus, devices on gpiozero's MockFactory,
the die module's firmware behind a pseudo-terminal, the page under waitress); only the
table in front of the camera is simulated here: two players who take turns, the
rendered frames the camera would see of them (an arm reaching in, a chip falling), one
deliberate mistake per game so the alarm can be seen, and a press of the new-game
button when a game is over.
"""
from __future__ import annotations

import random
import secrets
import tempfile
import threading
import time
from dataclasses import replace
from typing import Iterator

from .config import Config
from .games import load_game
from .service import Service, serve

FPS = 15.0
SIZE = (960, 540)


class DemoTable:
    """Simulated players at a Connect 4 grid, seen through a simulated camera.

    The players know the rules (they choose among legal moves, take a win when they see
    one and block the opponent's) but they do not talk to the referee: the referee learns
    what happened only from the frames, as it would at a real table.
    """

    def __init__(self, variant: str = "blocker", seed: int | None = None, games: int = 0,
                 realtime: bool = True, press_new_game=None, colours=None):
        self.game = load_game("connect4", variant)
        self.rng = random.Random(seed)
        self.seed = seed or 0
        self.games = games
        self.realtime = realtime
        self.press_new_game = press_new_game
        self.colours = colours
        self.finished = threading.Event()

    def choose(self, state):
        acts = self.game.legal_actions(state)
        drops = [a for a in acts if type(a).__name__ == "Drop"]
        for a in drops:  # a winning move
            if self.game.outcome(self.game.apply(state, a)) is not None:
                return a
        other = replace(state, turn=1 - state.turn, may_remove=None)
        for a in drops:  # block the opponent's win
            if not a.remove and self.game.outcome(self.game.apply(other, a)) is not None:
                return a
        removals = [a for a in acts if getattr(a, "remove", False)]
        if removals and self.rng.random() < 0.7:
            return self.rng.choice(removals)
        places = [a for a in acts if type(a).__name__ == "PlaceBlocker" and a.row >= 2]
        if places and self.rng.random() < 0.08:
            return self.rng.choice(places)
        return self.rng.choice([a for a in drops if not a.remove] or acts)

    def frames(self) -> Iterator[tuple[float, object]]:
        from vision.render_connect4 import render_game

        clock = 0.0
        start = time.monotonic()

        def play(positions, still_s=1.5, lead_s=0.0):
            nonlocal clock
            last = 0.0
            for dt, frame in render_game(positions, fps=FPS, size=SIZE, seed=self.seed, colours=self.colours,
                                         still_s=still_s, lead_s=lead_s):
                last = dt
                if self.realtime:
                    time.sleep(max(0.0, start + clock + dt - time.monotonic()))
                yield clock + dt, frame
            clock += last + 1.0 / FPS

        played = 0
        while not self.games or played < self.games:
            state = self.game.start()
            board = self.game.board(state)
            yield from play([board], lead_s=2.0, still_s=0.0)
            mistake_at = self.rng.randrange(4, 10)
            while self.game.outcome(state) is None:
                if sum(1 for col in state.cols for v in col if v) == mistake_at:
                    yield from self._mistake(state, board, play)
                    mistake_at = -1
                nxt = self.game.apply(state, self.choose(state))
                new_board = self.game.board(nxt)
                yield from play([board, new_board], still_s=self.rng.uniform(1.0, 2.5))
                state, board = nxt, new_board
            played += 1
            yield from play([board], still_s=5.0)  # the result stays on the page a while
            empty = self.game.board(self.game.start())
            yield from play([board, empty], still_s=1.0)
            if self.press_new_game and (not self.games or played < self.games):
                self.press_new_game()
        self.finished.set()

    def _mistake(self, state, board, play):
        """A chip pushed into a hole with an empty hole below it; then taken out again."""
        holes = [c for c, lab in board.items() if lab == "empty" and c[1] >= 2
                 and board[(c[0], c[1] - 1)] == "empty"]
        if not holes:
            return
        wrong = dict(board)
        wrong[self.rng.choice(holes)] = f"p{state.turn}"
        yield from play([board, wrong], still_s=3.0)
        yield from play([wrong, board], still_s=1.0)


def demo_config(args) -> Config:
    config = Config(path="(demo)")
    config.game.name = "connect4"
    config.game.variant = args.variant or "blocker"
    config.camera.source = "synthetic"
    config.camera.width, config.camera.height = SIZE
    config.camera.fps = FPS
    config.gpio.factory = "mock"
    config.die_module.port = "sim"
    config.data.folder = args.data or tempfile.mkdtemp(prefix="referee-demo-")
    config.web.host, config.web.port = args.host, args.port
    config.web.admin_token = secrets.token_urlsafe(8)
    return config


def run_demo(args) -> int:
    if args.game not in (None, "connect4"):
        print(f"referee demo: the demo table plays connect4; {args.game} is played with "
              "`referee play` or `referee serve`")
        return 2
    config = demo_config(args)
    table = DemoTable(config.game.variant, seed=args.seed, games=args.games, realtime=not args.fast,
                      press_new_game=lambda: press_button(config.gpio.new_game_button),
                      colours=config.camera.colours)
    service = Service(config, frames=table.frames())
    print(f"demo: journal in {config.data.folder}", flush=True)
    serve(service, config.web.host, config.web.port, config.web.threads,
          until=table.finished if args.games else None)
    return 0


def press_button(pin: int) -> None:
    """A player presses the new-game button: its mock pin goes low, then high again."""
    from gpiozero import Device

    mock = Device.pin_factory.pin(pin)
    mock.drive_low()
    time.sleep(0.1)
    mock.drive_high()
