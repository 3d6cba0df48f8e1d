"""The running referee: camera -> vision -> referee -> journal -> bus -> devices and page.

Threads, each with one job:
- the camera thread reads frames and runs vision; a stable BoardView goes to the inbox;
- the referee thread is the only one that touches the game: it takes views, moves,
  rolls and commands from the inbox one at a time;
- the web server's threads read snapshots and put commands into the inbox;
- device callbacks (a button, the die module) put inputs into the inbox too.

`referee serve` runs it on the configured rig; `referee demo` runs it on the built-in
simulated rig (controller/demo.py).
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import queue
import secrets
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from .config import Config, ConfigError, load
from .events import Bus, Event
from .games import game_class, load_game
from .hall.publisher import hall_publisher
from .journal import open_journal
from .referee import Referee
from .table_start import TableStart, starts_from_table

log = logging.getLogger("referee")

CAMERA_FAILURES = 50  # frames in a row that fail before the camera is given up


class Service:
    """Owns the journal, the referee and its thread, and the optional camera and devices.

    `camera=False` / `devices=False` leave those parts out (the page alone, for tests and
    for a table without a camera); `frames` feeds the synthetic camera source.
    """

    def __init__(self, config: Config, *, camera: bool = True, devices: bool = True, frames=None):
        self.config = config
        self.bus = Bus()
        self.journal, self.notes = open_journal(config.data.folder)
        for note in self.notes:
            log.warning("journal: %s", note)
        self.referee = Referee(self.journal, self.bus)
        self.admin_token = config.web.admin_token or secrets.token_urlsafe(12)
        self._inbox: queue.Queue = queue.Queue()
        self._lock = threading.Lock()  # held while the referee changes state
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.link_state = "off"
        self.watcher = None
        self.camera = None
        self.panel = None
        self.gpio_die = None
        self.die = None
        # a Labyrinth game waits here while its maze is read from the table (and its
        # treasure pictures are named: the page's enrolment view reads `public()`)
        self.enrolment = TableStart(Path(config.data.folder) / "treasures.npz")
        self._table_told: str | None = None
        self._reader_options: dict | None = None  # the board sheet the watcher reads  # the table start's last notice on the bus
        self.bus.subscribe(self._on_event)
        resumed = self.referee.resume()
        for note in self.referee.notes:
            log.warning("journal: %s", note)
        self.notes += self.referee.notes
        if not resumed:
            self.referee.new_game(config.game.name, config.game.variant or None, config.game.rulings)
        if camera:
            self._open_camera(frames)
            if not resumed and starts_from_table(game_class(config.game.name)):
                # the game on the table is the one to referee, not a layout drawn here
                self._run("new_game", variant=config.game.variant or None)
        if devices:
            self._open_devices()
        self.hall = hall_publisher(self)  # the public record to the hall's broker ([hall]), or None

    # --- parts ---------------------------------------------------------------------
    def _open_camera(self, frames) -> None:
        from vision.camera import open_camera
        from vision.watch import Watcher

        c = self.config.camera
        self.camera = open_camera(c.source, width=c.width, height=c.height, fps=c.fps, frames=frames)
        self.watcher = Watcher(self.referee.game.name, corners=c.corners or None, colours=c.colours, still_s=c.still_s,
                               reader_options=self.referee.game.reader_options(self.referee.state))
        self._learn_start()

    def _learn_start(self) -> None:
        """At a game's start the board is in a known position: vision learns its colours
        from it (the empty grid, the chess start position)."""
        if self.watcher is not None and not self.referee.history:
            self.watcher.learn(self.referee.game.board(self.referee.state))

    def _open_devices(self) -> None:
        from .devices.gpio import Panel

        self.panel = Panel(self.config.gpio, self.bus, on_new_game=lambda: self.submit("new_game", wait=False))
        self.panel.ready(self.referee.game.outcome(self.referee.state) is None)
        if self.config.gpio.die != "off":
            from .devices.gpio import GpioDie

            # the GPIO die: the roll button, and the faces shown when the module is away
            self.gpio_die = GpioDie(self.config.gpio, on_press=lambda: self.submit("roll", wait=False),
                                    panel=self.panel)
        port = self.config.die_module.port
        if port != "off":
            from .devices.link import DieLink

            d = self.config.die_module
            self.die = DieLink(port, self.bus, on_press=lambda: self.submit("roll", wait=False),
                               usb_id=d.usb_id, heartbeat_s=d.heartbeat_s, missed=d.missed_heartbeats)

    def _on_event(self, event: Event) -> None:
        if event.kind == "link":
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

    def stop(self) -> None:
        self._stop.set()
        self._inbox.put(None)
        for t in self._threads:
            t.join(timeout=5)
            if t.is_alive():
                log.warning("service: the %s thread did not stop within 5 s", t.name)
        for part in (self.hall, self.die, self.gpio_die, self.panel, self.camera):
            if part is not None:
                part.close()
        self.journal.close()

    def _camera_loop(self) -> None:
        """Frames -> watcher -> the referee's inbox. A fault in one frame is reported and
        the next frame tried; a camera that keeps failing is given up, the game kept."""
        failures, status = 0, None
        while not self._stop.is_set():
            try:
                got = self.camera.read()
                if got is None:
                    log.info("camera: end of %s", self.camera.name)
                    return
                t, frame = got
                view = self.watcher.feed(t, frame)
                failures = 0
            except Exception as exc:  # a camera or vision fault must not end refereeing
                failures += 1
                text = f"camera {self.camera.name}: {type(exc).__name__}: {exc}"
                log.error("%s", text)
                if failures == 1 or failures >= CAMERA_FAILURES:
                    self.bus.publish(Event("notice", {"text": text}))
                if failures >= CAMERA_FAILURES:
                    self.notes.append(f"{text} ({failures} frames in a row): camera given up")
                    return
                time.sleep(0.1)
                continue
            if self.panel is not None and self.watcher.status != status:
                status = self.watcher.status
                self.panel.busy(status != "ok")  # a hand over the board, or no board
            if view is not None:
                self._inbox.put(("view", {"view": view}, None))

    def _referee_loop(self) -> None:
        while True:
            item = self._inbox.get()
            if item is None:
                return
            command, kw, future = item
            try:
                with self._lock:
                    result = self._run(command, **kw)
                    self._follow_board()
            except Exception as exc:  # a fault in one input must not stop refereeing
                log.exception("referee: %s failed", command)
                result = {"ok": False, "error": f"{command}: {exc}", "event": None}
            if future is not None:
                future.set_result(result)

    def _run(self, command: str, **kw) -> dict:
        r = self.referee
        if command == "view" and self.enrolment.active:
            return self._from_table(self._table_view(kw["view"]))
        if command == "view":
            event = r.observe(kw["view"])
        elif command == "move":
            event = r.enter(str(kw["text"]), source=kw.get("source", "page"), seat=kw.get("seat"))
        elif command == "roll":
            event = self._roll()
        elif command == "new_game":
            # the configured rulings hold for the configured game; the variant stays
            # unless another is asked for (the new-game button asks for none)
            name = kw.get("game") or r.game.name
            settings = self.config.game.rulings if name == self.config.game.name else None
            variant = kw.get("variant") or (r.game.variant if name == r.game.name else None)
            if self.watcher is not None and starts_from_table(game_class(name)):
                return self._start_from_table(load_game(name, variant, settings))
            self.enrolment.cancel()
            event = r.new_game(name, variant, settings)
            self._watch(r.game.name)
            self._learn_start()
        elif command == "enrol":
            try:
                return self._from_table(self.enrolment.enrol(kw["names"]))
            except ValueError as exc:  # names that do not fit what waits (checked by the page too)
                return {"ok": False, "error": str(exc), "event": None}
        elif command == "undo":
            event = r.undo()
            if event is None:
                return {"ok": False, "error": "nothing to undo", "event": None}
        elif command == "corners":
            if self.watcher is None:
                return {"ok": False, "error": "no camera in this service", "event": None}
            self.watcher.set_corners(kw["points"])
            return {"ok": True, "error": None, "event": None}
        else:
            return {"ok": False, "error": f"unknown command {command!r}", "event": None}
        ok = event is None or event.kind != "illegal"
        return {"ok": ok, "error": None if ok else event.data.get("reason"),
                "event": event.to_json() if event else None}

    # --- a game that starts from the layout on the table (controller/table_start.py) -----
    def _watch(self, board: str, options: dict | None = None) -> None:
        """A watcher with the reader for `board` (and that board's sheet, `options`)."""
        if self.watcher is not None and (self.watcher.board != board or options is not None):
            corners = self.config.camera.corners if board == self.config.game.name else None
            self.watcher = type(self.watcher)(board, corners=corners or None, colours=self.config.camera.colours,
                                              still_s=self.config.camera.still_s, reader_options=options)

    def _follow_board(self) -> None:
        """A game that moves to another board sheet (a Super Mario Bros. link space to
        the next World) gets a watcher for that sheet, which learns it as it stands."""
        r = self.referee
        if self.watcher is None or self.enrolment.active or r.game is None:
            return
        options = r.game.reader_options(r.state)
        if options and options != self._reader_options:
            if self._reader_options is not None:
                self._watch(r.game.name, options)
                self.watcher.learn(r.game.board(r.state))
            self._reader_options = options

    def _start_from_table(self, game) -> dict:
        """The open game goes on until the maze on the table is read (views go to the
        table start meanwhile); the reader first learns from the printed tiles."""
        try:
            expected = self.enrolment.begin(game)
        except ValueError as exc:  # a damaged catalogue file: say which
            return {"ok": False, "error": str(exc), "event": None}
        self._watch(game.name)
        self.watcher.learn(expected)
        return self._from_table(None)

    def _table_view(self, view) -> tuple | None:
        plane = self.watcher.last_plane
        if view.source != self.enrolment.game.name or plane is None:
            return None
        w = self.watcher
        return self.enrolment.take(plane, w.reader, w.last_frame, w.H, learn=w.learn)

    def _from_table(self, started: tuple | None) -> dict:
        """Start the game once the table gave (game, setup); else say where it stands."""
        if started is None:
            if self.enrolment.message != self._table_told:
                self._table_told = self.enrolment.message
                self.bus.publish(Event("notice", {"text": self.enrolment.message}))
            return {"ok": True, "error": None, "event": None, "waiting": self.enrolment.message}
        game, setup = started
        event = self.referee.new_game(game.name, game.variant, game.settings, setup=setup)
        self._learn_start()  # now from the whole layout
        self._table_told = None
        return {"ok": True, "error": None, "event": event.to_json()}

    def _roll(self) -> Event | None:
        """A press of a roll button: draw the roll the game waits for, journal it as the
        game's input, and show it on the die."""
        from .devices.dice import roll

        prompt = self.referee.game.prompt(self.referee.state)
        if prompt.kind != "roll":
            self.bus.publish(Event("notice", {"text": "no roll is due now"}))
            return None
        result = roll(prompt.die)
        event = self.referee.enter(result.notation, source="die")
        for shower in (self.die, self.gpio_die):
            if shower is not None:
                shower.show(result)
        return event

    # --- what the page uses ----------------------------------------------------------
    def submit(self, command: str, wait: bool = True, timeout: float = 10.0, **kw) -> dict:
        """Run a command on the referee's thread; with `wait`, return its result."""
        future: Future | None = Future() if wait else None
        self._inbox.put((command, kw, future))
        if future is None:
            return {"ok": True, "error": None, "event": None}
        try:
            return future.result(timeout)
        except TimeoutError:
            return {"ok": False, "error": f"{command}: the referee did not answer in {timeout:.0f} s", "event": None}

    def snapshot(self, viewer: int | None = None) -> dict:
        with self._lock:
            return self.referee.snapshot(viewer)

    def status(self) -> dict:
        camera = "off" if self.watcher is None else self.watcher.status
        return {"camera": camera, "die_module": self.link_state, "notes": list(self.notes)}

    def frame_jpeg(self) -> bytes | None:
        if self.watcher is None or getattr(self.watcher, "last_frame", None) is None:
            return None
        import cv2

        ok, buf = cv2.imencode(".jpg", self.watcher.last_frame)
        return buf.tobytes() if ok else None

    def player_token(self, seat: int) -> str:
        """A per-seat token for phone links, derived from the admin token and the game, so
        a link from an earlier game does not work in this one."""
        msg = f"{self.referee.game_id}:{seat}".encode()
        return hmac.new(self.admin_token.encode(), msg, hashlib.sha256).hexdigest()[:16]


def serve(service: Service, host: str, port: int, threads: int,
          until: threading.Event | None = None) -> None:
    """Serve the page with waitress until Ctrl-C, SIGTERM or `until` is set, then shut
    down in order: open event streams first (each holds a server thread), then the
    server, then the service (whose journal closes after the last event is written)."""
    import os
    import signal

    from waitress import create_server

    from web import close_streams, create_app

    app = create_app(service)
    server = create_server(app, host=host, port=port, threads=threads)

    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    if until is not None:
        threading.Thread(target=lambda: (until.wait(), time.sleep(1.0), os.kill(os.getpid(), signal.SIGTERM)),
                         daemon=True).start()
    service.start()
    print(f"status page: http://{host if host != '0.0.0.0' else '127.0.0.1'}:{server.effective_port}/  "
          f"(admin token: {service.admin_token})", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        close_streams(app)
        server.task_dispatcher.shutdown(timeout=2)
        server.close()
        service.stop()


def cmd_serve(args) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"referee serve: {exc}", file=sys.stderr)
        return 2
    try:
        service = Service(config)
    except Exception as exc:  # start-up faults (camera, pins) are reported, not dumped
        print(f"referee serve: cannot start: {exc}", file=sys.stderr)
        return 1
    serve(service, config.web.host, config.web.port, config.web.threads)
    return 0


def cmd_demo(args) -> int:
    from .demo import run_demo

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    return run_demo(args)
