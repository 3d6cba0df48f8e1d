"""`referee demo`: the whole referee on a simulated rig, for any of the five games.

The rig is the real service (journal, referee, bus, devices on gpiozero's MockFactory,
the die module's firmware behind a pseudo-terminal, the page under waitress); only the
table in front of the camera is simulated here: players who take turns, the rendered
frames the camera would see of them (an arm reaching in, a piece put down), one
deliberate mistake per game so the alarm can be seen, and a press of the new-game button
when a game is over.

The players look at what a person at the table sees: the position and the prompt on the
status page (the referee's state). What they do reaches the referee the way a person's
actions would: pieces moved on the table only through the camera frames, roll presses
through the die module's button (the simulated firmware, over real pyserial), choices
and things nobody can see (buy or pass, a pawn that stays) typed on the page
(`Service.submit`), a Labyrinth maze laid out by them and read by the referee from the
table (the demo names its treasure pictures on the enrolment view, as the admin would).
One `DemoTable` drives every game; a small per-game `Player` knows how that game's
players choose and how its renderer draws the table.
"""
from __future__ import annotations

import logging
import random
import secrets
import sys
import tempfile
import threading
import time
from typing import Iterator

import numpy as np

from .config import Config, ConfigError, load
from .demo_players import FPS, PLAYERS, SIZE, Noise, Player
from .service import Service, serve

log = logging.getLogger("referee.demo")

WAIT_S = 8.0  # longest wall-clock wait for the referee to answer a press, a move or a new game


# --- the table ---------------------------------------------------------------------------
class DemoTable:
    """Simulated players at the table, seen through a simulated camera: `frames()` is the
    synthetic camera's feed. The players follow the referee's state as a person follows
    the page; `attach` gives them the service (its referee, die module and page)."""

    def __init__(self, seed: int | None = None, games: int = 0, turns: int = 0, realtime: bool = True,
                 press_new_game=None, colours=None):
        self.rng = random.Random(seed)
        self.seed = seed or 0
        self.games, self.turns = games, turns
        self.realtime = realtime
        self.press_new_game = press_new_game
        self.colours = colours
        self.finished = threading.Event()
        self.service: Service | None = None
        self.noise = Noise(self.seed)
        self.clock = 0.0
        self.last_frame: np.ndarray | None = None
        self.player: Player | None = None
        self.shown = 0  # turns shown on the table, all games
        self.failed = False
        self.refused = 0  # page inputs refused in a row

    def attach(self, service: Service) -> None:
        self.service = service

    # --- time -----------------------------------------------------------------------------
    def _play(self, frames) -> Iterator[tuple[float, np.ndarray]]:
        """A film on the table's clock (in real time unless --fast)."""
        if self.realtime:
            self.clock = max(self.clock, time.monotonic() - self._start)
        last = None
        for dt, frame in frames:
            last = dt
            t = self.clock + dt
            if self.realtime:
                time.sleep(max(0.0, self._start + t - time.monotonic()))
            self.last_frame = frame
            yield t, frame
        if last is not None:
            self.clock += last + 1.0 / FPS

    def _tick(self) -> tuple[float, np.ndarray]:
        t = self.clock
        self.clock += 1.0 / FPS
        if self.realtime:
            time.sleep(max(0.0, self._start + t - time.monotonic()))
        else:
            time.sleep(0.002)  # let the referee's thread run
        return t, self.noise(self.last_frame)

    def _still(self, seconds: float):
        for _ in range(int(seconds * FPS)):
            yield self._tick()

    def _wait(self, done, what: str, timeout_s: float = WAIT_S):
        """The table as it is while the players wait for the referee (or the die)."""
        deadline = time.monotonic() + timeout_s
        while not done():
            if time.monotonic() > deadline:
                log.warning("demo: waited %.0f s for %s", timeout_s, what)
                return False
            yield self._tick()
        return True

    # --- the hands ------------------------------------------------------------------------
    def _roll(self, referee):
        """Press the die module's button (the firmware simulator's pin) and wait for the
        roll to be drawn and journalled; the service's own roll path without a module."""
        n = len(referee.history)
        die = self.service.die
        if die is not None and die.simulator is not None:
            yield from self._wait(lambda: self.service.link_state == "up", "the die module's link")
        if die is not None and die.simulator is not None and self.service.link_state == "up":
            die.simulator.press()
        else:
            self.service.submit("roll", wait=False)
        yield from self._wait(lambda: len(referee.history) > n or referee.game.outcome(referee.state),
                              "the roll")

    def _type(self, text: str, seat):
        """A choice or something the camera cannot see, typed on the page. The players
        choose among the legal inputs, so a refusal is a fault; a few in a row stop the
        demo rather than let it try for ever."""
        result = self.service.submit("move", text=text, source="page")
        if result["ok"]:
            self.refused = 0
            return
        log.warning("demo: the page refused %r from seat %s: %s", text, seat, result["error"])
        self.refused += 1
        if self.refused >= 5:
            raise RuntimeError(f"the page refused {self.refused} inputs in a row, the last {text!r}: "
                               f"{result['error']}")
        yield self._tick()

    def _unlike(self, referee, after) -> str:
        """Where the camera's last reading differs from the table (for a fault report)."""
        view = getattr(self.service.watcher, "last_view", None)
        if view is None:
            return "none"
        want = referee.game.board(after)
        return ", ".join(f"{referee.game.cell_name(c)} read {lab} ({conf:.2f}), is {want.get(c)}"
                         for c, (lab, conf) in view.cells.items()
                         if lab != want.get(c) or conf < referee.min_confidence) or "as the table"

    # --- the feed ---------------------------------------------------------------------------
    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        """The camera's feed; a fault at the table ends the demo (with the trace in the log)
        rather than leaving the service waiting for frames that never come."""
        try:
            yield from self._frames()
        except Exception:
            log.exception("demo: the simulated table failed")
            self.failed = True
            self.finished.set()

    def _frames(self) -> Iterator[tuple[float, np.ndarray]]:
        self._start = time.monotonic()
        referee = self.service.referee
        player = self._player(referee.game)
        if self.service.enrolment.active:  # a game that starts from the layout on the table
            laid = player.game.start(player.game.new_setup(self.rng))
            yield from self._play(player.film([player.scene(laid)], lead_s=2.0, still_s=0.0))
            yield from self._started(referee, player, laid, referee.game_id)
        else:
            yield from self._play(player.film([player.scene(referee.state)], lead_s=2.0, still_s=0.0))
        played = 0
        while True:
            player, game_id = self._player(referee.game), referee.game_id
            scene = yield from self._game(referee, player, player.scene(referee.state))
            if scene is None:  # --turns reached
                break
            played += 1
            yield from self._still(5.0)  # the result stays on the page a while
            if (self.games and played >= self.games) or not self.press_new_game:
                break
            # the players set up the next game, then press the new-game button
            laid = player.game.start(player.game.new_setup(self.rng))
            yield from self._play(player.film([scene, player.scene(laid)], still_s=1.0))
            self.press_new_game()
            yield from self._started(referee, player, laid, game_id)
        self.finished.set()
        while True:  # the camera keeps looking until the service stops
            yield self._tick()

    def _player(self, game) -> Player:
        if self.player is None or self.player.game is not game:
            self.player = PLAYERS[game.name](game, self.rng, self.seed, self.colours)
        return self.player

    def _started(self, referee, player, laid, game_id):
        """Wait for the new game, which must start from what the players laid out; name
        the treasure pictures on the enrolment page (as its admin) when the referee asks."""
        enrolment = self.service.enrolment

        def naming():
            return enrolment.active and enrolment.public()["state"] == "naming"

        yield from self._wait(lambda: referee.game_id != game_id or naming(), "the new game")
        if referee.game_id == game_id and naming():
            names = player.picture_names(laid, list(enrolment.public()["pictures"]))
            result = self.service.submit("enrol", names=names)
            if not result["ok"]:
                raise RuntimeError(f"the enrolment page refused the names {names}: {result['error']}")
            yield from self._wait(lambda: referee.game_id != game_id, "the new game")
        if referee.game_id == game_id:
            raise RuntimeError(f"no new game started: {enrolment.message}")
        if referee.game.board(referee.state) != player.game.board(laid):
            raise RuntimeError("the new game does not start from what the players laid out on the table")

    def _game(self, referee, player, scene):
        """One game, until it ends, the table cannot show it, or --turns; returns the last
        scene (None after --turns)."""
        game = referee.game
        mistake_at = self.rng.randrange(2, 7)
        if self.turns:  # a short run still shows the alarm
            mistake_at = min(mistake_at, max(1, self.turns - 3))
        turns, mistaken = 0, False
        while game.outcome(referee.state) is None:
            if self.turns and self.shown >= self.turns:
                return None
            state = referee.state
            prompt = game.prompt(state)
            if prompt.kind == "roll":
                if (card := player.before_roll(state)) is not None:
                    yield from self._type(card, None)
                    continue
                yield from self._roll(referee)
                yield from self._still(0.8)  # everyone looks at the die
                continue
            choice = player.choose(state, prompt)
            if isinstance(choice, str):
                yield from self._type(choice, prompt.seat)
                continue
            after = game.apply(state, choice)
            if game.board(after) == game.board(state):
                yield from self._type(game.notation(state, choice), prompt.seat)
                continue
            if not player.shows(state, choice):
                log.info("demo: %s: the table cannot show this (%s); the players start again",
                         game.name, game.notation(state, choice))
                return scene
            if turns >= mistake_at and not mistaken and (wrong := player.wrong(state, choice, after)) is not None:
                mistaken = True
                log.info("demo: a deliberate mistake before %s", game.notation(state, choice))
                yield from self._play(player.film([scene, wrong], still_s=1.5))
                yield from self._wait(lambda: referee.alarm is not None, "the alarm")
                yield from self._still(1.0)
                yield from self._play(player.film([wrong, scene], still_s=1.0))
                yield from self._wait(lambda: referee.alarm is None, "the alarm to clear")
            n = len(referee.history)
            new = player.scene(after)
            yield from self._play(player.film([scene, new], player.hint(state, choice),
                                              still_s=self.rng.uniform(1.0, 2.5)))
            seen = yield from self._wait(lambda: len(referee.history) > n or referee.alarm is not None,
                                         f"the referee to see {game.notation(state, choice)}")
            if not seen or referee.alarm is not None:
                raise RuntimeError(f"the referee did not record {game.notation(state, choice)} from the "
                                   f"camera ({referee.alarm['reason'] if referee.alarm else 'no alarm'}; "
                                   f"camera: {self.service.status()['camera']}; last view: "
                                   f"{self._unlike(referee, after)})")
            scene = new
            turns += 1
            self.shown += 1
        return scene


def demo_config(args) -> Config:
    config = Config(path="(demo)")
    config.game.name = getattr(args, "game", None) or "connect4"
    config.game.variant = args.variant or ("blocker" if config.game.name == "connect4" else "")
    config.camera.source = "synthetic"
    config.camera.width, config.camera.height = SIZE
    config.camera.fps = FPS
    config.gpio.factory = "mock"
    config.die_module.port = "sim"
    config.data.folder = args.data or tempfile.mkdtemp(prefix="referee-demo-")
    config.web.host, config.web.port = args.host, args.port
    config.web.admin_token = secrets.token_urlsafe(8)
    if getattr(args, "config", None):  # a demo table in a hall: the file's [hall] only
        config.hall = load(args.config).hall
    return config


def run_demo(args) -> int:
    try:
        config = demo_config(args)
    except ConfigError as exc:
        print(f"referee demo: {exc}", file=sys.stderr)
        return 2
    turns = getattr(args, "turns", 0) or 0
    table = DemoTable(seed=args.seed, games=args.games, turns=turns, realtime=not args.fast,
                      press_new_game=lambda: press_button(config.gpio.new_game_button),
                      colours=config.camera.colours)
    try:
        service = Service(config, frames=table.frames())
    except Exception as exc:  # a game or a camera reader that is not available: say which
        print(f"referee demo: cannot start {config.game.name}: {exc}", file=sys.stderr)
        return 2
    table.attach(service)
    print(f"demo: {config.game.name}, journal in {config.data.folder}", flush=True)
    serve(service, config.web.host, config.web.port, config.web.threads,
          until=table.finished)  # set after --games / --turns, or when the table cannot go on
    return 1 if table.failed else 0


def press_button(pin: int) -> None:
    """A player presses the new-game button: its mock pin goes low, then high again."""
    from gpiozero import Device

    mock = Device.pin_factory.pin(pin)
    mock.drive_low()
    time.sleep(0.1)
    mock.drive_high()
