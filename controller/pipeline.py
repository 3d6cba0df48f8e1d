"""The camera commands: `referee replay` (a recording through the whole camera path,
controller/table.py's Table, exactly as `serve` runs it), `referee read` (what vision
sees in one picture) and `referee markers` (a board's marker sheet).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .cli import failed, words
from .events import Bus, Enter, NewGame, Settle
from .i18n import N_
from .journal import Journal
from .record import fold
from .referee import MIN_CONFIDENCE, Referee


def _config(args):
    """The settings from --config (the [camera] ones, and the data folder that holds
    the treasure catalogue), or the defaults; None after a message."""
    from .config import Config, ConfigError, load

    if not getattr(args, "config", None):
        return Config(path="(defaults)")
    try:
        return load(args.config)
    except ConfigError as exc:
        failed(args, exc)
        return None


def _watcher(args, camera, options=None):
    from .table import make_watcher

    try:
        return make_watcher(args.game, camera, corners=args.corners or camera.corners or None, options=options)
    except ValueError as exc:  # bad corners (quoted in the message), no reader
        failed(args, exc)
        return None


class Progress:
    """A one-line progress bar on stderr, with the camera's status when it is not ok."""

    def __init__(self, total: int | None, _, stream=None, width: int = 30):
        # stderr as it is now (a default bound at import would keep a stream since replaced)
        self.total, self._, self.stream, self.width = total, _, stream or sys.stderr, width
        self.shown = -1

    def update(self, done: int, t: float, status: str) -> None:
        step = max(1, self.total // 100) if self.total else 30
        if done % step and done != self.total:
            return
        if self.total:
            filled = int(self.width * done / self.total)
            bar = f"[{'#' * filled}{'.' * (self.width - filled)}] {100 * done // self.total:3d}% {done}/{self.total}"
        else:
            bar = self._.n("{n} frame", "{n} frames", done)
        note = "" if status == "ok" else f" ({status})"
        self.stream.write("\r" + self._("replay: {bar} t={t}s{note}", bar=bar, t=f"{t:6.1f}", note=note) + "\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def cmd_replay(args) -> int:
    """referee replay VIDEO --game G [--variant V] [--corners ...] [--json] [--config F]
    [--record EXPORT.json]"""
    from vision.camera import CameraError, open_camera

    from .cli import print_events, print_result, with_clock
    from .config import GameSettings
    from .table import Table

    config = _config(args)
    if config is None:
        return 2
    camera = config.camera
    if args.corners:
        camera.corners = args.corners
    try:
        record = Record(args.record, args.game) if args.record else None
    except (OSError, ValueError) as exc:
        return failed(args, exc, f"--record {args.record}")
    referee = Referee(Journal(":memory:"), Bus(), lang=args.lang or config.table.language)
    game = GameSettings(name=args.game, variant=args.variant or "",
                        rulings=config.game.rulings if config.game.name == args.game else {})
    if record is not None:
        game.variant, game.rulings = record.variant, record.settings or {}
    game.rulings = with_clock(game.rulings, args.clock)
    try:
        table = Table(referee, game, camera, catalogue=Path(config.data.folder) / "treasures.npz")
        # the game starts as `serve` started it, dealt as recorded (a maze laid out on the
        # table is read from the recording's first clear view: Table._new_game)
        setup = record.setup if record is not None else None
        result, started = table.run(NewGame(game=args.game, variant=game.variant or None, setup=setup))
        if not result.ok:
            raise ValueError(result.error)
        source = open_camera(args.video, width=camera.width, height=camera.height, fps=camera.fps)
    except (ValueError, CameraError) as exc:  # bad corners, no reader, no such video
        return failed(args, exc)

    print_events(started + (record.enter(table) if record else []), referee, args.json)
    progress = Progress(source.frame_count, referee._)
    done, t = 0, 0.0
    try:
        with source:
            while (got := source.read()) is not None:
                t, frame = got
                events = table.feed(t, frame)
                if record is not None:  # the page may show a ply with no event: checked each frame
                    events += record.enter(table)
                print_events(events, referee, args.json)
                done += 1
                progress.update(done, t, table.watcher.status)
    except CameraError as exc:
        progress.close()
        return failed(args, exc)
    progress.close()
    print_events(table.run(Settle())[1], referee, args.json)  # the recording ended: the history shown stands
    if done == 0:
        print(referee._("referee replay: {video} holds no frames", video=args.video), file=sys.stderr)
    if not args.json:
        print_result(referee)
    return 0


SEEN = ("camera", "clock")  # what a replay makes itself: the camera's moves, and its clock's flag fall


class Record:
    """A game's record (`referee export` JSON) beside its recording: the setup the game
    was dealt, and the inputs the camera cannot see, entered as the game reaches them:
    after each move seen by the camera, every recorded input up to the next such move
    (a flag fall is the replay's own clock's, on the recording's time)."""

    def __init__(self, path: str, game: str):
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if data.get("game") != game:
            raise ValueError(f"it records a game of {data.get('game')!r}, not {game!r}")
        record = fold(data["events"])  # the plies that stand: none undone or retracted
        if record.game is None:
            raise ValueError("it holds no game_started event")
        self.variant, self.settings, self.setup = record.variant, record.settings, record.setup
        self.plies = record.plies
        self.next = 0

    def enter(self, table) -> list:
        """Each recorded input the camera cannot see is entered once the page shows every
        ply before it (recorded, or shown unsure: an input is taken on the history the
        page shows, which records those plies first, as at the table). Returns the events
        they caused."""
        referee = table.referee
        if referee.game is None:
            return []
        out = []
        while self.next < len(self.plies):
            shown = len(referee.history) + len(referee.unsure)
            if shown > self.next:  # the camera's plies passed their place in the record
                self.next = shown
                continue
            ply = self.plies[self.next]
            if shown < self.next or ply.source in SEEN:
                break  # the camera has yet to show what comes first
            self.next += 1
            out += table.run(Enter(text=ply.notation, source=ply.source or "entry"))[1]
        return out


def _from_table(game: str) -> bool:
    from .registry import entry

    return entry(game).starts_from_table


# the marker sheet's corners in words, in vision.markers.CORNER_NAMES' order
CORNERS = (N_("bottom-left"), N_("bottom-right"), N_("top-right"), N_("top-left"))
SYMBOLS = {"empty": ".", "p0": "X", "p1": "O", "blocker": "#"}


def cmd_read(args) -> int:
    """referee read IMAGE --game G [--corners ...] [--json] [--config F]"""
    import random

    from vision.images import ImageError, read_image

    from .games import load_game

    _ = words(args)
    config = _config(args)
    if config is None:
        return 2
    camera = config.camera
    try:  # its size from the header first: a picture too large or too small is not decoded
        frame = read_image(args.image)
        game = load_game(args.game, args.variant, lang=_.lang)
    except (ImageError, ValueError) as exc:
        return failed(args, exc)
    # the board the reader expects at the game's start (Super Mario Bros.: World 1)
    watcher = _watcher(args, camera, game.reader_options(game.start(game.new_setup(random.Random(0)))))
    if watcher is None:
        return 2
    if _from_table(args.game):  # what is on every copy of the board (Labyrinth's fixed tiles)
        watcher.learn(game.printed_board())
    try:
        view = watcher.read_frame(frame)
    except ValueError as exc:
        return failed(args, exc, str(args.image))
    cells = sorted(view.cells.items(), key=lambda kv: repr(kv[0]))
    if args.json:
        print(json.dumps({"image": args.image, "game": args.game, "cells": [
            {"cell": list(c) if isinstance(c, tuple) else c, "name": game.cell_name(c),
             "label": lab, "confidence": round(conf, 3)} for c, (lab, conf) in cells]}))
        return 0
    if all(isinstance(c, tuple) and len(c) == 2 for c, _ in cells):
        cols = max(c[0] for c, _ in cells) + 1
        rows = max(c[1] for c, _ in cells) + 1
        for r in reversed(range(rows)):
            line = []
            for c in range(cols):
                lab, conf = view.cells.get((c, r), ("?", 0.0))
                sym = SYMBOLS.get(lab, lab[:1])
                line.append(sym if conf >= MIN_CONFIDENCE else "?")
            print(" ".join(line))
        print(_("X first player, O second player, # blocker, . empty, ? unsure"))
    else:
        for c, (lab, conf) in cells:
            print(_("{cell}: {label} ({confidence})", cell=game.cell_name(c), label=lab, confidence=f"{conf:.2f}"))
    return 0


def cmd_markers(args) -> int:
    """referee markers --game G [--world N] --out FILE.png: the game's marker sheet (a
    Super Mario Bros. World board has its own, named by its board data)."""
    import cv2

    from vision.markers import sheet

    from .registry import entry

    _ = words(args)
    kind, name, reader = entry(args.game), args.game, None
    if getattr(args, "world", None):
        from .games import load_game

        try:  # a game whose board comes in several sheets: that sheet's markers
            sheet_name, options = load_game(args.game, lang=_.lang).sheet(args.world)
            reader = kind.make_reader(**options)
        except ValueError as exc:  # one sheet only, or no such sheet
            return failed(args, exc)
        name = f"{args.game} {sheet_name}"
    ids = kind.marker_ids(reader)
    try:
        ok = cv2.imwrite(args.out, sheet(name, ids))
    except cv2.error as exc:
        return failed(args, _("cannot write {path}: {error}", path=args.out, error=exc))
    if not ok:
        return failed(args, _("cannot write {path} (is the folder there, and is the extension an image type "
                              "such as .png?)", path=args.out))
    print(_("{path}: markers for {board}: {ids}", path=args.out, board=name,
            ids=", ".join(_("id {id} {corner}", id=i, corner=_(n)) for i, n in zip(ids, CORNERS))))
    return 0
