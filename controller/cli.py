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
from .i18n import DEFAULT, LANGUAGES, N_, said, translator
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


def build_parser(_=None) -> argparse.ArgumentParser:
    """The command line, its help in the language of the translator `_` (the table's:
    `table_language`); argparse's own words (usage:, error:) stay argparse's."""
    _ = _ or translator()
    p = argparse.ArgumentParser(prog="referee", description=_("Tabletop Referee: a camera referee for board games"))
    sub = p.add_subparsers(dest="command", required=True)

    def lang_arg(sp, default_words):
        sp.add_argument("--lang", choices=list(LANGUAGES), default=None,
                        help=_("the table's language: {languages}; default: {default} (docs/languages.md)",
                               languages=", ".join(f"{k} ({v})" for k, v in LANGUAGES.items()),
                               default=_(default_words)))

    def game_args(sp, required=True, variant=N_("the game's first")):
        sp.add_argument("--game", choices=list(GAMES), required=required,
                        help=_("the game: {games}", games=", ".join(GAMES)) if required else
                        _("the game: {games} (default {game})", games=", ".join(GAMES), game=GAMES[0]))
        sp.add_argument("--variant", default=None,
                        help=_("the game's variant, as its page in docs/games/ names them (default: {variant})",
                               variant=_(variant)))

    def clock_arg(sp):
        sp.add_argument("--clock", default=None, metavar="CONTROL",
                        help=_("chess: a clock the camera runs, e.g. 5+0, 3+2, \"5 d3\", \"40/90, 30+30\" "
                               "(docs/games/chess.md, The clock)"))

    def players_arg(sp):
        sp.add_argument("--players", default=None, metavar="NAMES",
                        help=_("the players' names by seat, separated by commas (\"Léa,Tom\"): the words, the "
                               "voice and the page use them"))

    sp = sub.add_parser("serve", help=_("run the referee on the configured rig"))
    sp.add_argument("--config", default="referee.toml", help=_("the settings file (default %(default)s)"))
    sp.add_argument("--port", type=int, default=None, help=_("overrides [web] port"))
    lang_arg(sp, N_("[table] language of the config, else en"))

    sp = sub.add_parser("demo", help=_("run the referee on the built-in simulated rig"),
                        description=_("The whole referee on a simulated table: players who take turns, seen "
                                      "through a rendered camera. The terminal tells the game in words; the page "
                                      "shows it. It runs until stopped (Ctrl-C), or until --games or --turns."))
    game_args(sp, required=False, variant=N_("blocker for connect4, else the game's first"))
    sp.add_argument("--host", default="127.0.0.1",
                    help=_("the page's address (default %(default)s: this machine only)"))
    sp.add_argument("--port", type=int, default=8000, help=_("the page's port (default %(default)s; 0: any free port)"))
    sp.add_argument("--data", default=None,
                    help=_("data folder for the journal (default: a temporary one, deleted when the demo ends)"))
    sp.add_argument("--seed", type=int, default=None,
                    help=_("repeat the players' choices, the camera's placing and its noise (die rolls still differ)"))
    sp.add_argument("--games", type=int, default=0, help=_("stop after this many games (0: run until Ctrl-C)"))
    sp.add_argument("--fast", action="store_true",
                    help=_("play as fast as frames render, not in real time (and silently)"))
    sp.add_argument("--turns", type=int, default=0,
                    help=_("stop after this many turns shown on the table (0: no limit)"))
    sp.add_argument("--config", default=None, help=_("a referee.toml whose [hall] the demo table uses"))
    sp.add_argument("--no-mistake", action="store_true",
                    help=_("the players make no deliberate mistake (there is one per game otherwise)"))
    clock_arg(sp)
    lang_arg(sp, N_("en"))
    players_arg(sp)

    sp = sub.add_parser("play", help=_("referee moves read from stdin, without a camera"))
    game_args(sp)
    sp.add_argument("--json", action="store_true", help=_("one JSON object per event, and the state after each move"))
    sp.add_argument("--seed", type=int, default=None, help=_("seed for shuffles and deals"))
    sp.add_argument("--setup", default=None, help=_("JSON file with the starting setup (see docs/games/)"))
    sp.add_argument("--setting", action="append", default=[], metavar="KEY=VALUE",
                    help=_("a game setting or ruling (repeatable; the value is read as JSON, else as text)"))
    clock_arg(sp)
    lang_arg(sp, N_("en"))
    players_arg(sp)

    sp = sub.add_parser("replay", help=_("run a recording through the whole pipeline"))
    sp.add_argument("video", help=_("a video file or a folder of pictures"))
    game_args(sp)
    sp.add_argument("--corners", default=None, help=_("the board's four corners \"x,y\" when it has no markers"))
    sp.add_argument("--json", action="store_true", help=_("one JSON object per event, and the state after each move"))
    sp.add_argument("--config", default=None, help=_("a referee.toml whose [camera] and [table] settings apply"))
    sp.add_argument("--record", default=None,
                    help=_("the game's record (`referee export` JSON): its setup, and the inputs the "
                           "camera cannot see (rolls, choices, typed moves), entered in their order"))
    clock_arg(sp)
    lang_arg(sp, N_("[table] language of --config, else en"))

    sp = sub.add_parser("read", help=_("what vision sees in one picture"))
    sp.add_argument("image", help=_("a picture of the board"))
    game_args(sp)
    sp.add_argument("--corners", default=None, help=_("the board's four corners \"x,y\" when it has no markers"))
    sp.add_argument("--json", action="store_true", help=_("each cell as JSON"))
    sp.add_argument("--config", default=None, help=_("a referee.toml whose [camera] and [table] settings apply"))
    lang_arg(sp, N_("[table] language of --config, else en"))

    sp = sub.add_parser("markers", help=_("print the marker sheet for a board"))
    sp.add_argument("--game", choices=list(GAMES), required=True, help=_("the game: {games}", games=", ".join(GAMES)))
    sp.add_argument("--world", type=int, default=None, help=_("smb: the World board (1-4)"))
    sp.add_argument("--out", required=True, help=_("the picture to write (.png)"))
    lang_arg(sp, N_("en"))

    sp = sub.add_parser("export", help=_("write a game's record"))
    sp.add_argument("game_id", type=int, nargs="?", help=_("default: the newest game"))
    sp.add_argument("--data", default="data", help=_("data folder holding the journal"))
    sp.add_argument("--format", choices=FORMATS, default="json",
                    help=_("json (every game), or the game's own: pgn for chess (default %(default)s)"))
    sp.add_argument("--out", default="-", help=_("the file to write (default: the terminal)"))
    lang_arg(sp, N_("en"))

    sp = sub.add_parser("roll", help=_("roll a die definition N times"))
    sp.add_argument("--die", required=True, help=_("the die: smb or monopoly (docs/die-module.md)"))
    sp.add_argument("-n", type=int, default=1, help=_("how many rolls (default %(default)s)"))
    sp.add_argument("--json", action="store_true", help=_("one JSON object per roll"))
    sp.add_argument("--seed", type=int, default=None, help=_("repeat the same rolls"))
    lang_arg(sp, N_("en"))

    sp = sub.add_parser("firmware", help=_("die-module firmware"))
    sp.add_argument("action", choices=["flash"], help=_("flash: copy the firmware onto the die module"))
    sp.add_argument("--port", default="auto",
                    help=_("the die module's serial port (default %(default)s: found by its USB id)"))
    lang_arg(sp, N_("en"))

    sp = sub.add_parser("selftest", help=_("check camera, pins and the die module link"))
    sp.add_argument("--config", default="referee.toml", help=_("the settings file (default %(default)s)"))
    lang_arg(sp, N_("[table] language of the config, else en"))

    sp = sub.add_parser("simulate", help=_("play whole games with random legal choices"))
    sp.add_argument("--game", choices=list(SIMULATED), required=True, help=_("the games that have a simulation"))
    sp.add_argument("--games", type=int, default=1000, help=_("how many games (default %(default)s)"))
    sp.add_argument("--seed", type=int, default=1, help=_("seed for the random choices (default %(default)s)"))
    sp.add_argument("--bowser", choices=["on", "off"], default="on", help=_("smb: Bowser's spaces (default %(default)s)"))
    sp.add_argument("--cards", choices=["on", "off"], default="on", help=_("smb: the cards (default %(default)s)"))
    sp.add_argument("--turns", type=int, default=None, help=_("stop each game after this many turns"))
    sp.add_argument("--players", type=int, choices=[2, 3, 4], default=None, help=_("how many players"))
    sp.add_argument("--json", action="store_true", help=_("the figures as one JSON object"))
    lang_arg(sp, N_("en"))

    sp = sub.add_parser("hall", help=_("the hall: every table of a club on one page, over MQTT"),
                        description=_("referee hall --broker HOST: serve the hall page; "
                                      "referee hall round N: mark the start of round N now; "
                                      "referee hall export --round N: write round-N.pgn and round-N.json"))
    sp.add_argument("action", nargs="?", choices=["serve", "round", "export"], default="serve",
                    help=_("serve the page (the default), start a round, or export one"))
    sp.add_argument("number", nargs="?", type=int, help=_("round: the round's number"))
    sp.add_argument("--broker", default=None, help=_("the MQTT broker's host (serve)"))
    sp.add_argument("--port", type=int, default=1883, help=_("the broker's port"))
    sp.add_argument("--username", default="", help=_("broker user (its password: $REFEREE_HALL_PASSWORD)"))
    sp.add_argument("--tls", action="store_true", help=_("talk to the broker over TLS"))
    sp.add_argument("--ca-file", default="", help=_("with --tls: the CA certificate of the broker's"))
    sp.add_argument("--data", default="hall", help=_("the hall's data folder (its journal)"))
    sp.add_argument("--host", default="0.0.0.0", help=_("the page's address"))
    sp.add_argument("--http-port", type=int, default=8080, help=_("the page's port"))
    sp.add_argument("--token", default=None, help=_("the page's admin token (default: a random one, printed)"))
    sp.add_argument("--round", type=int, default=None, help=_("export: the round (default: every game)"))
    sp.add_argument("--out", default=".", help=_("export: the folder to write into"))
    lang_arg(sp, N_("en"))
    return p


# the commands whose table's language is the config file's [table] language unless --lang
# says another (the demo's is --lang's, else English)
CONFIGURED = {"serve": "referee.toml", "replay": None, "read": None, "selftest": "referee.toml"}


def table_language(argv: list[str]) -> str:
    """The language a command speaks in, read before the command line is parsed (its help
    and its errors are in it): --lang, else the [table] language of the command's config
    file (controller/config.py `file_language`), else English."""
    from .config import file_language

    early = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    early.add_argument("command", nargs="?")
    early.add_argument("--lang")
    early.add_argument("--config")
    try:
        known, _rest = early.parse_known_args(argv)
    except argparse.ArgumentError:  # nothing worth reading: argparse says why once the real parser runs
        return DEFAULT
    if known.lang in LANGUAGES:
        return known.lang
    if known.command in CONFIGURED and (path := known.config or CONFIGURED[known.command]):
        return file_language(path) or DEFAULT
    return DEFAULT


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
    _ = referee._
    setup = None
    if args.setup:
        try:
            with open(args.setup, "rb") as f:
                setup = loads(f.read(MAX_SETUP + 1), "the file", MAX_SETUP)
        except (OSError, JsonError) as exc:
            return failed(args, exc, f"--setup {args.setup}")
    try:
        settings = with_clock(parse_settings(args.setting, _), args.clock)
        game = load_game(args.game, args.variant, settings, referee.lang)  # the settings' faults named as such
        checked(args.players, seats_of(game), _)  # and the names' (--players)
    except ValueError as exc:
        return failed(args, exc)
    try:  # what is left to go wrong is the setup's (or a deal the settings cannot make)
        referee.new_game(args.game, args.variant, settings, setup=setup,
                         rng=random.Random(args.seed) if args.seed is not None else None, players=args.players)
    except ValueError as exc:
        return failed(args, exc, f"--setup {args.setup}" if args.setup else "")

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
            print(_("referee play: stdin line {number} is not UTF-8 (byte {byte}); skipped", number=number,
                    byte=exc.start + 1), file=sys.stderr, flush=True)
            continue
        text = line.split("#", 1)[0].strip()
        if text:
            referee.enter(text)
            referee.clock.tick(referee)  # a flag that fell while the move was awaited
            flush()
    if not args.json:
        print_result(referee)
    return 0


def parse_settings(pairs: list[str], _=None) -> dict:
    """['players=3', 'mode="paper"'] -> {'players': 3, 'mode': 'paper'}; ValueError in the
    language of the translator `_`."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError((_ or translator())("--setting {pair!r}: expected KEY=VALUE", pair=pair))
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
        return _("{text}: {note}", text=_(event.kind.value.replace('_', ' ')), note=d['text'])
    return f"{event.kind.value}: {json.dumps(d)}"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    language = table_language(argv)
    _ = translator(language)
    args = build_parser(_).parse_args(argv)
    args.language = language  # what the command prints is in it (`words`)
    module, func = COMMANDS[args.command].split(":")
    try:
        handler = getattr(importlib.import_module(module), func)
    except (ModuleNotFoundError, AttributeError):
        print(_("referee {command}: not available in this version", command=args.command), file=sys.stderr)
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
        print(_("referee {command}: {error} (run with REFEREE_DEBUG=1 for the details)", command=args.command,
                error=said(exc, _) or type(exc).__name__), file=sys.stderr)
        return 1


def words(args):
    """The translator of the language a command speaks in (`table_language`, set by
    `main`; English for a command called without it)."""
    return translator(getattr(args, "language", None) or DEFAULT)


def failed(args, error, about: str = "", status: int = 2) -> int:
    """Say a command's failure in one line on stderr, in its language (`about`: what it
    concerns, such as an option and its value, put in front the language's way:
    "--die : ..." in French); returns `status` (2: the command line was wrong; 1: what it
    works on was)."""
    _ = words(args)
    text = error if isinstance(error, str) else said(error, _)
    if about:
        text = _("{text}: {note}", text=about, note=text)
    print(_("referee {command}: {error}", command=args.command, error=text), file=sys.stderr)
    return status


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
