"""The simulated table in front of the camera: players who take turns, seen through a
synthetic camera. `DemoTable.frames()` is the feed handed to vision/camera.py's
"synthetic" source; the players play their own game (own_game.py), read the page as a
person does (`Service.snapshot`) and act only through what a person has: the table
(frames), the die module's button (the firmware simulator) and the page
(`Service.submit`).
"""
from __future__ import annotations

import logging
import random
import threading
import time
from typing import Iterator

import numpy as np

from ..events import Enrol, Enter, RollDie, Settle
from ..games.base import IllegalAction, NotationError
from ..registry import entry
from .own_game import OwnGame
from .players.base import FPS, Noise, Player

log = logging.getLogger("referee.demo")

WAIT_S = 8.0  # longest wall-clock wait for the referee to answer a press, a move or a new game
TABLE_START_S = 30.0  # the same for a game read from the table (seen: over 8 s on a busy machine)


# --- the table ---------------------------------------------------------------------------
class _Stopped(Exception):
    """The service is stopping (Ctrl-C, the page's server closing): the players leave the
    table at once; nothing went wrong at it."""


class DemoTable:
    """Simulated players at the table, seen through a simulated camera: `frames()` is the
    synthetic camera's feed. The players play their own game and read the page as a
    person does; `attach` gives them the service (its referee, die module and page)."""

    def __init__(self, seed: int | None = None, games: int = 0, turns: int = 0, realtime: bool = True,
                 press_new_game=None, colours=None, mistake: bool = True, turns_each: int = 0,
                 next_game=None):
        self.rng = random.Random(seed)
        self.seed = seed or 0
        self.games, self.turns = games, turns
        self.turns_each = turns_each  # the players stop a game after this many turns (0: play it out)
        self.realtime = realtime
        self.press_new_game = press_new_game
        # someone at the page starts the next game (of any kind) once one is over; False: stop
        self.next_game = next_game
        self.mistake = mistake  # one deliberate mistake per game, so the alarm can be seen
        self.colours = colours
        self.finished = threading.Event()
        self.service = None  # controller.service.Service, once attached
        self.noise = Noise(self.seed)
        self.clock = 0.0
        self.last_frame: np.ndarray | None = None
        self.player: Player | None = None
        self.shown = 0  # turns shown on the table, all games
        self.failed = False
        self.failure = ""  # why the table could not go on, in words
        self.refused = 0  # page inputs refused in a row

    def attach(self, service) -> None:
        self.service = service

    # --- time -----------------------------------------------------------------------------
    def _look(self) -> None:
        """Before each frame: a stopping service ends the feed (its camera thread is
        joined; a feed still waiting for the referee would outlive it)."""
        if self.service.stopping:
            raise _Stopped

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
            self._look()
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
        self._look()
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
    def _roll(self, own):
        """Press the die module's button (the firmware simulator's pin), wait for the roll
        to be drawn and journalled (the service's own roll path without a module), and take
        it into the players' game as everyone at the table learns it: the page's newest ply,
        the referee's record of the die's event (the module's own draw, never a camera's
        guess)."""
        n = len(self._shown())
        module = self.service.die_simulator
        if module is not None:
            yield from self._wait(lambda: self.service.link_state == "up", "the die module's link")
        if module is not None and self.service.link_state == "up":
            module.press()
        else:
            self.service.submit(RollDie(), wait=False)
        yield from self._wait(lambda: len(self._shown()) > n, "the roll")
        moves = self._shown()
        try:
            rolled = own.game.parse(own.state, moves[-1]) if len(moves) > n else None
        except (IllegalAction, NotationError):
            rolled = None
        if rolled is None or not own.game.is_roll(rolled):
            raise RuntimeError(f"the die module's roll is not on the page (it says: "
                               f"{self.service.snapshot()['prompt']['text']}){self._parted(own)}")
        own.take(rolled)

    def _shown(self) -> list[str]:
        """The plies the page shows, in notation (those recorded, then those shown unsure).
        Read as the page reads them, from the service's snapshot under the referee's lock:
        the referee's own lists change under a reader on another thread (an unsure ply put
        into words from a sure position that had just moved on stopped whole demos)."""
        return self.service.snapshot().get("moves", [])

    def _recorded(self) -> list[str]:
        """The plies the page shows as recorded (not those shown unsure)."""
        page = self.service.snapshot()
        moves = page.get("moves", [])
        return moves[:len(moves) - page.get("unsure", 0)]

    @staticmethod
    def _offered(referee, notation: str) -> bool:
        """Does the referee's standing doubt offer `notation` (a button on the page)?"""
        doubt = referee.doubt
        return doubt is not None and any(c["notation"] == notation for c in doubt.get("candidates", ()))

    def _type(self, text: str, seat, own=None):
        """A choice or something the camera cannot see, typed on the page; taken into the
        players' own game (`own`) once the page accepts it. The players choose among the
        legal inputs, so a refusal is a fault (or the referee's record is not their game);
        a few in a row stop the demo rather than let it try for ever."""
        result = self.service.submit(Enter(text, source="page"))
        if result.ok:
            self.refused = 0
            if own is not None:
                own.take(own.game.parse(own.state, text))
            return
        self._look()  # refused because the service is stopping: not the players' fault
        log.warning("demo: the page refused %r from seat %s: %s", text, seat, result.error)
        self.refused += 1
        if self.refused >= 5:
            raise RuntimeError(f"the page refused {self.refused} inputs in a row, the last {text!r}: "
                               f"{result.error}{self._parted(own)}")
        yield self._tick()

    def _parted(self, own) -> str:
        """Where the referee's record parts from the players' game, for a fault report."""
        where = own.unlike(self._recorded()) if own is not None else ""
        return f" (the referee's record is not the players' game: {where})" if where else ""

    def _follow(self, own) -> None:
        """Say once, in words, when the referee's record parts from the players' game (a
        ply recorded that they did not play: they play on from their own game, as people
        at a table would, and nobody taps), and when it is the players' game again."""
        where = own.unlike(self._recorded())
        if where and where != own.parted:
            log.warning("demo: the referee's record is not the players' game: %s; the players play on "
                        "from their own game", where)
        elif own.parted and not where:
            log.info("demo: the referee put its record right: it is the players' game again")
        own.parted = where

    def _ends_alike(self, referee, own, game_id):
        """At the end of the players' game (or of the run, or where they leave it for the
        next game: the soak's), the page's record must be their game (the last ply may
        still be settling): else the demo failed."""
        def alike():
            return referee.game_id != game_id or not own.ends_unlike(self._shown())

        yield from self._wait(alike, "the record to be the players' game")
        if not alike():
            raise RuntimeError("the referee's record ends unlike the players' game: "
                               + own.ends_unlike(self._shown()))

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
        except _Stopped:
            return
        except Exception as exc:  # said as a sentence (run_demo prints it); the trace only at debug
            self.failure = str(exc) or type(exc).__name__
            log.debug("demo: the simulated table failed", exc_info=True)
            self.failed = True
            self.finished.set()

    def _frames(self) -> Iterator[tuple[float, np.ndarray]]:
        self._start = time.monotonic()
        referee = self.service.referee
        player = self._player(referee.game)
        if self.service.enrolment.active:  # a game that starts from the layout on the table
            before = referee.game_id  # read now: a known maze may start while it is filmed
            laid = player.game.start(player.game.new_setup(self.rng))
            yield from self._play(player.film([player.scene(laid)], lead_s=2.0, still_s=0.0))
            yield from self._started(referee, player, laid, before)
        else:
            yield from self._play(player.film([player.scene(referee.state)], lead_s=2.0, still_s=0.0))
        played = 0
        while True:
            player, game_id = self._player(referee.game), referee.game_id
            scene = yield from self._game(referee, player, player.scene(referee.state))
            if scene is None:  # --turns reached
                break
            if referee.game_id != game_id:  # "New game" pressed on the page: set up its start
                yield from self._set_up(referee, game_id)
                continue
            played += 1
            yield from self._still(5.0)  # the result stays on the page a while
            if self.games and played >= self.games:
                break
            if self.next_game is not None:  # the page's New game, then its start on the table
                if not self.next_game():
                    break
                yield from self._set_up(referee, game_id)
                continue
            if not self.press_new_game:
                break
            # the players set up the next game, then press the new-game button
            laid = player.game.start(player.game.new_setup(self.rng))
            yield from self._play(player.film([scene, player.scene(laid)], still_s=1.0))
            self.press_new_game()
            yield from self._started(referee, player, laid, game_id)
        self.finished.set()
        while True:  # the camera keeps looking until the service stops
            yield self._tick()

    def _set_up(self, referee, game_id):
        """The players clear the table and lay out the start of a game someone else began
        (the page's New game); a game read from the table gets its layout first."""
        enrolment = self.service.enrolment
        player = self._player(enrolment.game if enrolment.active else referee.game)  # the game to lay out
        if enrolment.active:
            laid = player.game.start(player.game.new_setup(self.rng))
            yield from self._play(player.film([player.scene(laid)], lead_s=1.0, still_s=0.0))
            yield from self._started(referee, player, laid, game_id)
        else:
            yield from self._play(player.film([player.scene(referee.state)], lead_s=1.0, still_s=0.0))

    def _player(self, game) -> Player:
        if self.player is None or self.player.game is not game:
            self.player = entry(game.name).player_class()(game, self.rng, self.seed, self.colours)
        return self.player

    def _started(self, referee, player, laid, game_id):
        """Wait for the new game, which must start from what the players laid out; name
        the treasure pictures on the enrolment page (as its admin) when the referee asks."""
        enrolment = self.service.enrolment

        def naming():
            return enrolment.active and enrolment.public()["state"] == "naming"

        # reading a maze (every tile against the catalogue) takes longer than a move
        yield from self._wait(lambda: referee.game_id != game_id or naming(), "the new game", TABLE_START_S)
        if referee.game_id == game_id and naming():
            names = player.picture_names(laid, list(enrolment.public()["pictures"]))
            result = self.service.submit(Enrol(names))
            if not result.ok:
                raise RuntimeError(f"the enrolment page refused the names {names}: {result.error}")
            yield from self._wait(lambda: referee.game_id != game_id, "the new game", TABLE_START_S)
        if referee.game_id == game_id:
            raise RuntimeError(f"no new game started: {enrolment.message}")
        if referee.game.board(referee.state) != player.game.board(laid):
            raise RuntimeError("the new game does not start from what the players laid out on the table")

    def _game(self, referee, player, scene):
        """One game, until it ends, the table cannot show it, `turns_each` turns, or --turns;
        returns the last scene (None after --turns). The players play their own game
        (controller/demo_rig/own_game.py), begun from the position the game starts from at
        the table: they choose and film every move from it, never from the page's."""
        game, game_id = referee.game, referee.game_id
        own = OwnGame(game, referee.state, self._shown())
        mistake_at = self.rng.randrange(2, 7)
        if self.turns or self.turns_each:  # a short run still shows the alarm
            mistake_at = min(mistake_at, max(1, min(t for t in (self.turns, self.turns_each) if t) - 3))
        turns, mistaken = 0, not self.mistake
        while referee.game_id == game_id and game.outcome(own.state) is None:
            if self.turns and self.shown >= self.turns:
                # the run ends as a recording does: the history the page shows stands
                self.service.submit(Settle())
                yield from self._ends_alike(referee, own, game_id)
                return None
            if self.turns_each and turns >= self.turns_each:
                yield from self._ends_alike(referee, own, game_id)
                return scene
            state = own.state
            prompt = game.prompt(state)
            if prompt.kind == "roll":
                if (card := player.before_roll(state)) is not None:
                    yield from self._type(card, None, own)
                    continue
                yield from self._roll(own)
                yield from self._still(0.8)  # everyone looks at the die
                continue
            choice = player.choose(state, prompt)
            if isinstance(choice, str):
                yield from self._type(choice, prompt.seat, own)
                continue
            after = game.apply(state, choice)
            notation = game.notation(state, choice)
            if game.board(after) == game.board(state):
                yield from self._type(notation, prompt.seat, own)
                continue
            if not player.shows(state, choice):
                log.info("demo: %s: the table cannot show this (%s); the players start again", game.name, notation)
                return scene
            if turns >= mistake_at and not mistaken and (wrong := player.wrong(state, choice, after)) is not None:
                mistaken = True
                log.info("demo: a deliberate mistake before %s", notation)
                yield from self._play(player.film([scene, wrong], still_s=1.5))
                yield from self._wait(lambda: referee.alarm is not None, "the alarm")
                yield from self._still(1.0)
                yield from self._play(player.film([wrong, scene], still_s=1.0))
                yield from self._wait(lambda: referee.alarm is None, "the alarm to clear")
            # the plies the page shows, but no more than the players made: an unsure ply
            # shown for a deliberate mistake (the knight put on d3 behind the pawns read as
            # Ne2?) is replaced by their move, not added to
            n = min(len(self._shown()), len(own.plies))
            new = player.scene(after)
            own.take(choice)
            yield from self._play(player.film([scene, new], player.hint(state, choice),
                                              still_s=self.rng.uniform(1.0, 2.5)))
            # the players go on once the page shows their move (recorded, or shown unsure:
            # the next still views settle it, as at a real table)
            seen = yield from self._wait(lambda: len(self._shown()) > n
                                         or referee.alarm is not None
                                         or referee.game_id != game_id or self._offered(referee, notation),
                                         f"the referee to see {notation}")
            if self._offered(referee, notation):  # the camera could not tell: they tap what they did
                log.info("demo: the referee asks (%s); the players tap %s", referee.doubt["text"], notation)
                yield from self._type(notation, prompt.seat)
                seen = yield from self._wait(lambda: len(self._shown()) > n
                                             or referee.alarm is not None, f"the referee to take {notation}")
            if referee.game_id != game_id:
                return scene  # a new game began meanwhile
            if not seen or referee.alarm is not None:
                raise RuntimeError(f"the referee did not record {notation} from the camera "
                                   f"({referee.alarm['reason'] if referee.alarm else 'no alarm'}; "
                                   f"camera: {self.service.status()['camera']}; last view: "
                                   f"{self._unlike(referee, after)}){self._parted(own)}")
            self._follow(own)
            scene = new
            turns += 1
            self.shown += 1
        if referee.game_id == game_id:
            yield from self._ends_alike(referee, own, game_id)
        return scene


def press_button(pin: int) -> None:
    """A player presses the new-game button: its pin (gpiozero's mock) goes low, then high again."""
    from gpiozero import Device

    mock = Device.pin_factory.pin(pin)
    mock.drive_low()
    time.sleep(0.1)
    mock.drive_high()
