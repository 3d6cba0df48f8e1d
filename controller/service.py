"""The running referee: camera -> vision -> referee -> journal -> bus -> devices and page.

Threads, each with one job:
- the camera thread reads frames and runs vision; what a frame asks of the referee (a
  board settled differently, or the time while a wrong board is waited out) goes to the
  inbox (Table.see);
- the referee thread is the only one that touches the game: it takes views, moves,
  rolls and commands from the inbox one at a time;
- the web server's threads read snapshots and put commands into the inbox;
- device callbacks (a button, the die module) put inputs into the inbox too.

`referee serve` runs it on the configured rig; `referee demo` runs it on the built-in
simulated rig (controller/demo.py).
"""
from __future__ import annotations

import logging
import queue
import secrets
import shlex
import threading
from concurrent.futures import Future
from pathlib import Path

from .config import Config
from .events import Bus, Command, Event, Kind, NewGame, RollDie, Tick
from .i18n import said
from .hall.publisher import hall_publisher
from .journal import open_journal
from .referee import Referee
from .registry import entry
from .systemd import Notifier
from .table import Result, Table

log = logging.getLogger("referee")

CAMERA_FAILURES = 50  # vision faults in a row between two notices of them
STOP_S = 15.0  # longest wait for a thread to finish its step (a frame, a command) at stop
JOURNAL_CHECK_S = 5.0  # an idle referee checks this often that the journal's file is still there


class Service:
    """Owns the journal, the Table (referee, watcher, table start) and the referee's
    thread, and the optional camera and devices.

    `camera=False` / `devices=False` leave those parts out (the page alone, for tests and
    for a table without a camera). A simulated part is handed in, never made here: a
    Camera as `camera` (the demo's rendered table, vision/camera.py), the die module's
    simulator as `die_module` (its pseudo-terminal is the port the link opens); the
    service treats them as the real ones.
    """

    def __init__(self, config: Config, *, camera=True, devices: bool = True, die_module=None):
        self.config = config
        self.bus = Bus()
        self.journal, notes = open_journal(config.data.folder)
        for note in notes:
            log.warning("journal: %s", note)
        self.referee = Referee(self.journal, self.bus, lang=config.table.language)
        self.notes = [said(note, self.referee._) for note in notes]  # the page's, in the table's language
        self.admin_token = config.web.admin_token or secrets.token_urlsafe(12)
        self.token_generated = not config.web.admin_token  # only a generated token is printed
        self.systemd = Notifier()
        self._inbox: queue.Queue = queue.Queue()
        # a tick of the referee's clock waits in the inbox: the camera thread adds no other
        # (each frame while a wrong board is waited out would add one; a referee thread
        # slower than the frames then fell ever further behind the table)
        self._tick_waiting = threading.Event()
        self._lock = threading.Lock()  # held while the referee changes state
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.journal_check_s = JOURNAL_CHECK_S
        self.link_state = "off"
        self.camera = None
        self.panel = None
        self.gpio_die = None
        self.die = None
        self.die_simulator = die_module  # the die module's simulator, when handed one
        self.bus.subscribe(self._on_event)
        if camera is True:  # before anything is journalled: a start that fails on it leaves no made-up game
            self.camera = self._open_source()
        elif camera:
            self.camera = camera
        resumed = self.referee.resume()
        for note in self.referee.notes:
            log.warning("journal: %s", note)
        self.notes += self.referee.notes
        if not resumed:
            self.referee.new_game(config.game.name, config.game.variant or None, config.game.rulings,
                                  players=config.game.players or None)
        # a resumed game is refereed from the position the journal knows (Table learns it)
        self.table = Table(self.referee, config.game, config.camera if self.camera is not None else None,
                           catalogue=Path(config.data.folder) / "treasures.npz",
                           looks=Path(config.data.folder) / "camera_looks.pickle")
        r = self.referee
        placeholder = (resumed and r.game.name == config.game.name and not r.history
                       and not r.setup.get("from_table"))  # killed while the table was being read
        if self.camera is not None and (not resumed or placeholder) and entry(config.game.name).starts_from_table:
            # the game on the table is the one to referee, not a layout drawn here
            started = self.table.command(NewGame(variant=config.game.variant or None,
                                                 players=tuple(config.game.players) or None))
            if not started.ok:  # a damaged treasure catalogue: said, and serving goes on
                log.warning("table start: %s", started.error)
                self.notes.append(started.error)
        self.voice = None
        if devices:
            self._open_devices()
        self.hall = hall_publisher(self)  # the public record to the hall's broker ([hall]), or None

    def _open_source(self):
        """The configured camera, kept: reopened when it ends or keeps failing."""
        from vision.camera import KeptCamera, open_camera

        c = self.config.camera
        return KeptCamera(lambda: open_camera(c.source, width=c.width, height=c.height, fps=c.fps))

    @property
    def watcher(self):
        return self.table.watcher

    @property
    def enrolment(self):
        return self.table.enrolment

    def _open_devices(self) -> None:
        from .devices.gpio import Panel

        self.panel = Panel(self.config.gpio, self.bus, on_new_game=lambda: self.submit(NewGame(), wait=False))
        self.panel.ready(self.referee.game.outcome(self.referee.state) is None)
        if self.config.gpio.die != "off":
            from .devices.gpio import GpioDie

            # the GPIO die: the roll button, and the faces shown when the module is away
            self.gpio_die = GpioDie(self.config.gpio, on_press=lambda: self.submit(RollDie(), wait=False),
                                    panel=self.panel)
        port = self.die_simulator.port if self.die_simulator is not None else self.config.die_module.port
        if port != "off":
            from .devices.link import DieLink

            d = self.config.die_module
            self.die = DieLink(port, self.bus, on_press=lambda: self.submit(RollDie(), wait=False),
                               usb_id=d.usb_id, heartbeat_s=d.heartbeat_s, missed=d.missed_heartbeats)
        if self.config.voice.enabled:  # the speaker (and the WAVs the page may play)
            from .voice import Voice

            v = self.config.voice
            player = None if v.player == "auto" else [] if v.player == "off" else shlex.split(v.player)
            self.voice = Voice(self.bus, Path(self.config.data.folder), language=self.config.table.language, volume=v.volume,
                               speed=v.speed, player=player, game=lambda: self.referee.game)

    def _on_event(self, event: Event) -> None:
        if event.kind == Kind.LINK:
            self.link_state = event.data.get("state", self.link_state)

    # --- threads -------------------------------------------------------------------
    def start(self) -> None:
        self._spawn(self._referee_loop, "referee")
        if self.camera is not None:
            self._spawn(self._camera_loop, "camera")

    def _spawn(self, target, name) -> None:
        t = threading.Thread(target=target, name=name, daemon=True)
        t.start()
        self._threads.append(t)

    @property
    def stopping(self) -> bool:
        """Set once `stop` began: whatever waits on the referee (the demo's table, a
        command) gives up at once instead of waiting out its timeout."""
        return self._stop.is_set()

    def stop(self) -> None:
        self._stop.set()
        self._inbox.put(None)
        for t in self._threads:
            t.join(timeout=STOP_S)
            if t.is_alive():  # a camera read that hangs in its driver: the program ends without it (cli.program)
                log.warning("service: the %s thread did not stop within %.0f s", t.name, STOP_S)
        for part in (self.hall, self.voice, self.die, self.die_simulator, self.gpio_die, self.panel, self.camera):
            if part is not None:
                part.close()
        self.journal.close()

    def _camera_loop(self) -> None:
        """Frames -> watcher -> the referee's inbox. A fault in one frame is reported and
        the next frame tried; a camera that ends or keeps failing is "camera lost" on the
        page and the busy LED, and reopened (vision/camera.py KeptCamera), the game kept."""
        failures, status = 0, None
        while not self._stop.is_set():
            step = None
            try:
                got = self.camera.read()
                if got is None and self.camera.ends:
                    log.info("camera: end of %s", self.camera.name)  # the demo's frames end with it
                    return  # (a kept source never ends: None is a bad frame or a lost camera, retried)
                if got is not None:
                    step = self.table.see(*got)
                    failures = 0
            except Exception as exc:  # a vision fault must not end refereeing
                failures += 1
                text = f"camera {self.camera.name}: {type(exc).__name__}: {exc}"
                log.error("%s", text)
                if failures == 1 or failures % CAMERA_FAILURES == 0:
                    self.bus.publish(Event(Kind.NOTICE, {"text": text}))
                self._stop.wait(0.1)
                continue
            if self.camera_status() != status:
                status = self._camera_told(status)
            if got is None:
                self._stop.wait(0.05)
            elif step is not None and not (isinstance(step, Tick) and self._tick_waiting.is_set()):
                if isinstance(step, Tick):  # the referee's clock while it waits out a board
                    self._tick_waiting.set()
                self._inbox.put((step, None))

    def camera_status(self) -> str:
        """"camera lost", else the watcher's ("ok", "too dark", "frozen", "hand over the
        board", ...), or "off" without a camera."""
        if self.watcher is None:
            return "off"
        return "camera lost" if getattr(self.camera, "state", "ok") == "camera lost" else self.watcher.status

    def _camera_told(self, was: str | None) -> str:
        """The camera's status changed: the busy LED, and a notice when it is lost or back."""
        now = self.camera_status()
        if self.panel is not None:
            self.panel.busy(now != "ok")  # a hand over the board, no board, or no camera
        if now == "camera lost":
            log.warning("camera lost: %s", self.camera.problem)
            self.bus.publish(Event(Kind.NOTICE, {"text": self.referee._("camera lost: {problem}; trying again",
                                                                          problem=self.camera.problem)}))
        elif was == "camera lost":
            log.info("camera back: %s", self.camera.name)
            self.bus.publish(Event(Kind.NOTICE, {"text": self.referee._("camera {name} is back", name=self.camera.name)}))
        return now

    def _referee_loop(self) -> None:
        while True:
            self.systemd.alive()  # the watchdog's heartbeat comes from this thread (controller/systemd.py)
            try:
                item = self._inbox.get(timeout=min(self.systemd.every_s or self.journal_check_s, self.journal_check_s))
            except queue.Empty:  # idle: a journal deleted now is written again before the power is cut
                with self._lock:
                    self.referee.check_record()
                continue
            if item is None:
                return
            command, future = item
            if isinstance(command, Tick):
                self._tick_waiting.clear()  # the next frame's time goes in again
            try:
                with self._lock:
                    result = self.table.command(command)
                for shower in (self.die, self.gpio_die):  # a roll button's roll, on the dice
                    if result.rolled is not None and shower is not None:
                        shower.show(result.rolled)
            except Exception as exc:  # a fault in one input must not stop refereeing
                log.exception("referee: %s failed", command)
                result = Result.refused(f"{type(command).__name__}: {exc}")
            if future is not None:
                future.set_result(result)

    # --- what the page uses ----------------------------------------------------------
    def submit(self, command: Command, wait: bool = True, timeout: float = 10.0) -> Result:
        """Run a command (controller/events.py) on the referee's thread; with `wait`,
        return its result."""
        if self.stopping:  # the referee's thread takes no more commands
            return Result.refused(self.referee._("the referee is stopping"))
        future: Future | None = Future() if wait else None
        self._inbox.put((command, future))
        if future is None:
            return Result()
        try:
            return future.result(timeout)
        except TimeoutError:
            return Result.refused(self.referee._("the referee did not answer in {seconds} s", seconds=f"{timeout:.0f}"))

    def snapshot(self, viewer: int | None = None) -> dict:
        """The game as the page shows it, read under the referee's lock: the web reads the
        game only through this and `layout`, never the referee's attributes."""
        with self._lock:
            return self.referee.snapshot(viewer)

    def layout(self) -> dict:
        """The running game's printed board for the page's drawing (its `layout()`)."""
        with self._lock:
            game = self.referee.game
            return {"game": game.name, **game.layout()} if game is not None else {}

    def status(self) -> dict:
        return {"camera": self.camera_status(), "die_module": self.link_state, "notes": list(self.notes),
                "record": self.referee.record_lost or "kept"}
