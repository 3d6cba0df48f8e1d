"""The `referee` command. Each subcommand's work lives in the module that owns it; this
file only parses arguments and hands them over (docs/install.md lists every command)."""
from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import random
import sys
import threading

from .bounded_json import JsonError, loads
from .clock import shown
from .games import GAMES
from .events import Kind
from .i18n import LANGUAGES, translator
from .record import changes
from .registry import FORMATS, SIMULATED

MAX_SETUP = 1024 * 1024  # bytes of a --setup file (a Labyrinth setup, the largest, is about 1 KB)

# subcommand -> "module:function"; each function takes the parsed arguments and
# returns the exit status.
COMMANDS = {
    "serve": "web.server:cmd_serve",
    "demo": "web.server:cmd_demo",
    "play": "controller.cli:cmd_play",
    "replay": "controller.pipeline:cmd_replay",
    "read": "controller.pipeline:cmd_read",
    "markers": "controller.pipeline:cmd_markers",
    "export": "controller.export:cmd_export",
    "roll": "controller.devices.dice:cmd_roll",
    "firmware": "controller.devices.flash:cmd_firmware",
    "selftest": "controller.selftest:cmd_selftest",
    "simulate": "controller.simulate:cmd_simulate",
    "hall": "web.hall:cmd_hall",
}


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="referee", description="Tabletop Referee: a camera referee for board games")
    sub = p.add_subparsers(dest="command", required=True)

    def lang_arg(sp, default_words):
        sp.add_argument("--lang", choices=list(LANGUAGES), default=None,
                        help=f"the table's language: {', '.join(f'{k} ({v})' for k, v in LANGUAGES.items())}; "
                             f"default: {default_words} (docs/languages.md)")

    def game_args(sp, required=True, variant="the game's first"):
        sp.add_argument("--game", choices=list(GAMES), required=required,
                        help="the game: " + ", ".join(GAMES) + ("" if required else f" (default {GAMES[0]})"))
        sp.add_argument("--variant", default=None,
                        help=f"the game's variant, as its page in docs/games/ names them (default: {variant})")

    def clock_arg(sp):
        sp.add_argument("--clock", default=None, metavar="CONTROL",
                        help="chess: a clock the camera runs, e.g. 5+0, 3+2, \"5 d3\", \"40/90, 30+30\" "
                             "(docs/games/chess.md, The clock)")

    sp = sub.add_parser("serve", help="run the referee on the configured rig")
    sp.add_argument("--config", default="referee.toml")
    sp.add_argument("--port", type=int, default=None, help="overrides [web] port")
    lang_arg(sp, "[table] language of the config, else en")

    sp = sub.add_parser("demo", help="run the referee on the built-in simulated rig",
                        description="The whole referee on a simulated table: players who take turns, seen "
                                    "through a rendered camera. The terminal tells the game in words; the page "
                                    "shows it. It runs until stopped (Ctrl-C), or until --games or --turns.")
    game_args(sp, required=False, variant="blocker for connect4, else the game's first")
    sp.add_argument("--host", default="127.0.0.1", help="the page's address (default %(default)s: this machine only)")
    sp.add_argument("--port", type=int, default=8000, help="the page's port (default %(default)s; 0: any free port)")
    sp.add_argument("--data", default=None,
                    help="data folder for the journal (default: a temporary one, deleted when the demo ends)")
    sp.add_argument("--seed", type=int, default=None,
                    help="repeat the players' choices, the camera's placing and its noise (die rolls still differ)")
    sp.add_argument("--games", type=int, default=0, help="stop after this many games (0: run until Ctrl-C)")
    sp.add_argument("--fast", action="store_true",
                    help="play as fast as frames render, not in real time (and silently)")
    sp.add_argument("--turns", type=int, default=0,
                    help="stop after this many turns shown on the table (0: no limit)")
    sp.add_argument("--config", default=None, help="a referee.toml whose [hall] the demo table uses")
    sp.add_argument("--no-mistake", action="store_true",
                    help="the players make no deliberate mistake (there is one per game otherwise)")
    clock_arg(sp)
    lang_arg(sp, "en")

    sp = sub.add_parser("play", help="referee moves read from stdin, without a camera")
    game_args(sp)
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--seed", type=int, default=None, help="seed for shuffles and deals")
    sp.add_argument("--setup", default=None, help="JSON file with the starting setup (see docs/games/)")
    sp.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                    help="a game setting or ruling (repeatable; the value is read as JSON, else as text)")
    clock_arg(sp)
    lang_arg(sp, "en")
    sp.add_argument("--players", default=None, metavar="NAMES",
                    help='the players\' names by seat, separated by commas ("Léa,Tom"): the words use them')

    sp = sub.add_parser("replay", help="run a recording through the whole pipeline")
    sp.add_argument("video")
    game_args(sp)
    sp.add_argument("--corners", default=None)
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--config", default=None)
    sp.add_argument("--record", default=None,
                    help="the game's record (`referee export` JSON): its setup, and the inputs the "
                         "camera cannot see (rolls, choices, typed moves), entered in their order")
    clock_arg(sp)
    lang_arg(sp, "[table] language of --config, else en")

    sp = sub.add_parser("read", help="what vision sees in one picture")
    sp.add_argument("image")
    game_args(sp)
    sp.add_argument("--corners", default=None)
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--config", default=None)

    sp = sub.add_parser("markers", help="print the marker sheet for a board")
    sp.add_argument("--game", choices=list(GAMES), required=True)
    sp.add_argument("--world", type=int, default=None, help="smb: the World board (1-4)")
    sp.add_argument("--out", required=True)

    sp = sub.add_parser("export", help="write a game's record")
    sp.add_argument("game_id", type=int, nargs="?", help="default: the newest game")
    sp.add_argument("--data", default="data", help="data folder holding the journal")
    sp.add_argument("--format", choices=FORMATS, default="json")
    sp.add_argument("--out", default="-")

    sp = sub.add_parser("roll", help="roll a die definition N times")
    sp.add_argument("--die", required=True)
    sp.add_argument("-n", type=int, default=1)
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--seed", type=int, default=None)

    sp = sub.add_parser("firmware", help="die-module firmware")
    sp.add_argument("action", choices=["flash"])
    sp.add_argument("--port", default="auto")

    sp = sub.add_parser("selftest", help="check camera, pins and the die module link")
    sp.add_argument("--config", default="referee.toml")

    sp = sub.add_parser("simulate", help="play whole games with random legal choices")
    sp.add_argument("--game", choices=list(SIMULATED), required=True, help="the games that have a simulation")
    sp.add_argument("--games", type=int, default=1000)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--bowser", choices=["on", "off"], default="on")
    sp.add_argument("--cards", choices=["on", "off"], default="on")
    sp.add_argument("--turns", type=int, default=None)
    sp.add_argument("--players", type=int, choices=[2, 3, 4], default=None)
    sp.add_argument("--json", action="store_true")

    sp = sub.add_parser("hall", help="the hall: every table of a club on one page, over MQTT",
                        description="referee hall --broker HOST: serve the hall page; "
                                    "referee hall round N: mark the start of round N now; "
                                    "referee hall export --round N: write round-N.pgn and round-N.json")
    sp.add_argument("action", nargs="?", choices=["serve", "round", "export"], default="serve")
    sp.add_argument("number", nargs="?", type=int, help="round: the round's number")
    sp.add_argument("--broker", default=None, help="the MQTT broker's host (serve)")
    sp.add_argument("--port", type=int, default=1883, help="the broker's port")
    sp.add_argument("--username", default="", help="broker user (its password: $REFEREE_HALL_PASSWORD)")
    sp.add_argument("--tls", action="store_true")
    sp.add_argument("--ca-file", default="", help="with --tls: the CA certificate of the broker's")
    sp.add_argument("--data", default="hall", help="the hall's data folder (its journal)")
    sp.add_argument("--host", default="0.0.0.0", help="the page's address")
    sp.add_argument("--http-port", type=int, default=8080, help="the page's port")
    sp.add_argument("--token", default=None, help="the page's admin token (default: a random one, printed)")
    sp.add_argument("--round", type=int, default=None, help="export: the round (default: every game)")
    sp.add_argument("--out", default=".", help="export: the folder to write into")
    return p


def cmd_play(args) -> int:
    """Moves from stdin, one per line ('#' starts a comment); events to stdout."""
    from .events import Bus
    from .games import load_game
    from .journal import Journal
    from .players import checked
    from .referee import Referee
    from .table import seats_of

    out: list = []
    bus = Bus()
    bus.subscribe(out.append)
    referee = Referee(Journal(":memory:"), bus, lang=args.lang or "en")
    setup = None
    if args.setup:
        try:
            with open(args.setup, "rb") as f:
                setup = loads(f.read(MAX_SETUP + 1), "the file", MAX_SETUP)
        except (OSError, JsonError) as exc:
            print(f"referee play: --setup {args.setup}: {exc}", file=sys.stderr)
            return 2
    try:
        settings = with_clock(parse_settings(args.setting), args.clock)
        game = load_game(args.game, args.variant, settings)  # the settings' faults named as such
        checked(args.players, seats_of(game), referee._)  # and the names' (--players)
    except ValueError as exc:
        print(f"referee play: {exc}", file=sys.stderr)
        return 2
    try:  # what is left to go wrong is the setup's (or a deal the settings cannot make)
        referee.new_game(args.game, args.variant, settings, setup=setup,
                         rng=random.Random(args.seed) if args.seed is not None else None, players=args.players)
    except ValueError as exc:
        print(f"referee play: {f'--setup {args.setup}: ' if args.setup else ''}{exc}", file=sys.stderr)
        return 2

    def flush():
        print_events(out, referee, args.json)
        out.clear()

    flush()
    for number, raw in enumerate(sys.stdin.buffer, start=1):
        # read as bytes: a line that is not UTF-8 is reported and skipped whatever the
        # locale's error handler would do with it (strict: a crash, surrogateescape:
        # garbage in the record)
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            print(f"referee play: stdin line {number} is not UTF-8 (byte {exc.start + 1}); skipped",
                  file=sys.stderr, flush=True)
            continue
        text = line.split("#", 1)[0].strip()
        if text:
            referee.enter(text)
            referee.clock.tick(referee)  # a flag that fell while the move was awaited
            flush()
    if not args.json:
        print_result(referee)
    return 0


def parse_settings(pairs: list[str]) -> dict:
    """['players=3', 'mode="paper"'] -> {'players': 3, 'mode': 'paper'}."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--setting {pair!r}: expected KEY=VALUE")
        try:
            out[key] = loads(value, f"--setting {key}", MAX_SETUP)
        except JsonError:  # not JSON (a word such as paper, or too large a number): the text
            out[key] = value
    return out


def with_clock(settings: dict, clock: str | None) -> dict:
    """The settings with `--clock` as the game's "clock" setting (a time control, checked
    by the rules: controller/games/time_control.py); "" for no clock."""
    return settings if clock is None else {**settings, "clock": clock}


def print_events(events, referee, as_json: bool) -> None:
    """The output contract of `play` and `replay`: one JSON object per event, and after
    each that changes the record once the game has started (a move, an undo, a camera
    correction) the state (the same JSON as /api/state, its `record` each ply in words);
    or one line of text each."""
    for event in events:
        if as_json:
            print(json.dumps(event.to_json()), flush=True)
            if changes(event.kind) and event.kind != Kind.GAME_STARTED:
                print(json.dumps({"type": "state", **referee.snapshot()}), flush=True)
        else:
            print(_human(event, referee), flush=True)


def print_result(referee) -> None:
    _ = translator(referee.lang)
    outcome = referee.snapshot()["outcome"]
    winner = _("{who} wins: ", who=outcome["winner_name"]) if outcome and outcome.get("winner_name") else ""
    print(_("result: {reason}", reason=winner + outcome["reason"] if outcome else _("game not finished")))


def _human(event, referee) -> str:
    """One line of text for an event, in the referee's (the table's) language."""
    _ = translator(referee.lang)
    d = event.data
    if event.kind == Kind.MOVE:
        clocks = d.get("clocks")
        timed = ("  [" + _("clock red {red}, green {green}", red=shown(clocks[0]), green=shown(clocks[1])) + "]"
                 if clocks else "")
        return f"{d['ply']:>3}. {d['notation']:<8} {d['text']}{timed}"
    if event.kind == Kind.CLOCK:
        return "  " + _("clock: {text}", text=d['text'])
    if event.kind == Kind.ILLEGAL:
        usage = f"\n           ({d['usage']})" if d.get("usage") else ""
        return "  " + _("illegal: {move} - {reason}", move=d.get('input', ''), reason=d['reason']) + usage
    if event.kind == Kind.GAME_OVER:
        return _("game over: {reason}", reason=d['reason'])
    if event.kind == Kind.GAME_STARTED:
        title = referee.game.title if referee.game is not None else d['game']
        return _("new game: {game} ({variant})", game=title, variant=_(d['variant']))
    if event.kind == Kind.CORRECTED:  # its text says "corrected: <now>, not <was>"; the plies after it follow
        taken = d.get("retracted") or []
        text = "  " + (d.get('text') or _("corrected"))
        return text + (" " + _("(taken back: {plies})", plies=", ".join(map(str, taken))) if taken else "")
    if isinstance(d.get("text"), str):  # a doubt, a doubt settled, the board restored, a notice
        return f"{_(event.kind.value.replace('_', ' '))}: {d['text']}"
    return f"{event.kind.value}: {json.dumps(d)}"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    module, func = COMMANDS[args.command].split(":")
    try:
        handler = getattr(importlib.import_module(module), func)
    except (ModuleNotFoundError, AttributeError):
        print(f"referee {args.command}: not available in this version", file=sys.stderr)
        return 2
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader (| head) went away; that is not an error
        sys.stderr.close()
        return 0
    except Exception as exc:  # a fault nobody foresaw: a sentence, the trace only when asked for
        if os.environ.get("REFEREE_DEBUG"):
            raise
        _ = translator(getattr(args, "lang", None) or "en")
        print(_("referee {command}: {error} (run with REFEREE_DEBUG=1 for the details)", command=args.command,
                error=f"{exc}" or type(exc).__name__), file=sys.stderr)
        return 1


def program() -> None:
    """The `referee` command: `main`, then the exit. A thread still running then (a camera
    read hung in its driver past the service's stop, a page's picture being encoded)
    would abort the interpreter's finalisation inside OpenCV's C++ ("terminate called
    without an active exception", exit -6), so the program then ends at once, its output
    and logs flushed and its status kept."""
    status = main()
    if threading.active_count() > 1:
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status or 0)
    sys.exit(status)


if __name__ == "__main__":
    program()
