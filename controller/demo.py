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
The simulated table lives in controller/demo_rig/ (the players, their renderers, the
synthetic camera feed `DemoTable`, the die module's simulator); this module only builds
the demo's config and runs the service on it.
"""
from __future__ import annotations

import shutil
import sys
import tempfile

from .cli import failed, with_clock
from .config import Config, ConfigError, load, validate
from vision.camera import SyntheticCamera

from .demo_rig.feed import DemoTable, press_button
from .demo_rig.module import SimulatedModule
from .games import GAMES
from .registry import entry
from .demo_rig.players.base import FPS, SIZE
from .account import Account
from .service import Service
from .i18n import said, translator


def demo_config(args) -> Config:
    config = Config(path="(demo)")
    config.game.name = getattr(args, "game", None) or GAMES[0]
    config.game.variant = args.variant or entry(config.game.name).player_class().variant or ""
    config.camera.source = "synthetic"
    config.camera.width, config.camera.height = SIZE
    config.camera.fps = FPS
    config.gpio.factory = "mock"
    config.die_module.port = "sim"
    config.data.folder = args.data or tempfile.mkdtemp(prefix="referee-demo-")
    # a fast demo plays faster than anyone could listen: its words are only written (the
    # WAVs the page may play; the announcements the game overtook are dropped)
    config.voice.player = "off" if args.fast else "auto"
    config.web.host, config.web.port = args.host, args.port
    config.table.language = getattr(args, "lang", None) or "en"
    if getattr(args, "config", None):  # a demo table in a hall: the file's [hall] only
        config.hall = load(args.config).hall
    if getattr(args, "clock", None) is not None:
        config.game.rulings = with_clock(config.game.rulings, args.clock)
    if getattr(args, "players", None):  # the names by seat, kept by the games after the first
        config.game.players = args.players.split(",")
    # a control that is not one, a game without a clock, a name too long: said before the start
    validate(config)
    return config


def demo_service(config: Config, table: DemoTable) -> Service:
    """The real service on the simulated rig: the simulated parts (the camera that sees
    the rendered table, the die module's firmware simulator) are handed in, and the
    service treats them as the real ones."""
    return Service(config, camera=SyntheticCamera(table.frames()), die_module=SimulatedModule(roll_ms=400))


def run_demo(args, serve) -> int:
    """`serve(service, host, port, threads, until=...)`: the page's server (web/server.py)."""
    try:
        config = demo_config(args)
    except ConfigError as exc:
        return failed(args, exc)
    turns = getattr(args, "turns", 0) or 0
    table = DemoTable(seed=args.seed, games=args.games, turns=turns, realtime=not args.fast,
                      press_new_game=lambda: press_button(config.gpio.new_game_button),
                      colours=config.camera.colours, mistake=not getattr(args, "no_mistake", False))
    try:
        service = demo_service(config, table)
    except Exception as exc:  # a game or a camera reader that is not available: say which
        if not args.data:
            shutil.rmtree(config.data.folder, ignore_errors=True)
        _ = translator(config.table.language)
        return failed(args, _("cannot start {game}: {error}", game=config.game.name, error=said(exc, _)))
    table.attach(service)
    _ = translator(config.table.language)
    account = service.bus.subscribe(Account(lang=config.table.language))  # the game told on the terminal
    folder = config.data.folder
    print(_("demo: {title}, journal in {folder}; it runs until Ctrl-C", title=_(service.referee.game.title),
            folder=folder) if args.data else
          _("demo: {title}, journal in {folder} (a temporary folder, deleted at the end; --data FOLDER keeps it); "
            "it runs until Ctrl-C", title=_(service.referee.game.title), folder=folder), flush=True)
    try:
        serve(service, config.web.host, config.web.port, config.web.threads,
              until=table.finished)  # set after --games / --turns, or when the table cannot go on
    finally:
        print(account.summary(), flush=True)
        if table.failed:
            print(_("referee demo: the demo stopped: {error}", error=table.failure), file=sys.stderr, flush=True)
        if args.data:
            print(_("demo: the game is kept in {folder} (referee export --data {folder})", folder=folder), flush=True)
        else:  # a folder the demo made for itself goes with it, and the demo says so
            shutil.rmtree(config.data.folder, ignore_errors=True)
            print(_("demo: the game was in a temporary folder, now deleted; --data FOLDER keeps it"), flush=True)
    return 1 if table.failed else 0
