"""Frames -> vision -> referee: `Refereeing`, and the `referee replay` and `referee read`
commands built on it.

`Refereeing.feed(t, frame)` is the whole camera path for one frame: the Watcher decides
whether the board has settled into a new reading, and the referee matches that view
against the rules. `referee replay` runs a recording through exactly this, so a replay
shows what the service would have done live.
"""
from __future__ import annotations

import json
import sys

from .events import Bus, Event
from .journal import Journal
from .referee import CONFIRM_S, MIN_CONFIDENCE, Referee


class Refereeing:
    """One Watcher feeding one Referee. Events the referee writes while a frame is fed
    are returned by `feed`; game starts teach the watcher the start position, and every
    position the referee accepts from the camera teaches it again (learning is the same
    at the start and after a move). A wrong board must stay for CONFIRM_S before an
    alarm, and the game is followed once the camera has seen its start."""

    def __init__(self, watcher, referee: Referee):
        self.watcher = watcher
        self.referee = referee
        self._events: list[Event] = []
        referee.bus.subscribe(self._events.append)

    def new_game(self, game: str, variant: str | None = None, settings: dict | None = None,
                 setup: dict | None = None) -> list[Event]:
        self.referee.new_game(game, variant, settings, setup=setup)
        self.referee.await_start()
        self.referee.confirm_s = CONFIRM_S
        self.watcher.learn(self.referee.game.board(self.referee.state))
        return self._take()

    def feed(self, t: float, frame) -> list[Event]:
        view = self.watcher.feed(t, frame)
        r = self.referee
        if view is not None:
            waiting = r.awaiting_start
            event = r.observe(view)
            accepted = (event is not None and event.kind in ("move", "game_over")) or (waiting and not r.awaiting_start)
            if accepted and self.watcher.change.supported:
                # the position just accepted (or the start, just seen) is what the camera
                # sees: learn its looks and measure change from it. (Only readers that
                # measure change for now: the others' `learn` still expects a start.)
                self.watcher.learn(r.game.board(r.state), now=True)
        else:
            r.tick(t, self.watcher.gate.moved_at)
        return self._take()

    def _take(self) -> list[Event]:
        out, self._events[:] = list(self._events), []
        return out


def _camera_settings(args):
    """The [camera] settings from --config, or the defaults; None after a message."""
    from .config import CameraSettings, ConfigError, load

    if not getattr(args, "config", None):
        return CameraSettings()
    try:
        return load(args.config).camera
    except ConfigError as exc:
        print(f"referee {args.command}: {exc}", file=sys.stderr)
        return None


def _watcher(args, camera):
    from vision.watch import Watcher

    corners = args.corners or camera.corners or None
    try:
        return Watcher(args.game, corners=corners, colours=camera.colours, still_s=camera.still_s)
    except ValueError as exc:  # bad corners (quoted in the message), no reader
        print(f"referee {args.command}: {exc}", file=sys.stderr)
        return None


class Progress:
    """A one-line progress bar on stderr, with the camera's status when it is not ok."""

    def __init__(self, total: int | None, stream=sys.stderr, width: int = 30):
        self.total, self.stream, self.width = total, stream, width
        self.shown = -1

    def update(self, done: int, t: float, status: str) -> None:
        step = max(1, self.total // 100) if self.total else 30
        if done % step and done != self.total:
            return
        if self.total:
            filled = int(self.width * done / self.total)
            bar = f"[{'#' * filled}{'.' * (self.width - filled)}] {100 * done // self.total:3d}% {done}/{self.total}"
        else:
            bar = f"{done} frames"
        note = "" if status == "ok" else f" ({status})"
        self.stream.write(f"\rreplay: {bar} t={t:6.1f}s{note}\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def cmd_replay(args) -> int:
    """referee replay VIDEO --game G [--variant V] [--corners ...] [--json] [--config F]"""
    from vision.camera import CameraError, open_camera

    from .cli import print_events, print_result

    camera = _camera_settings(args)
    if camera is None:
        return 2
    watcher = _watcher(args, camera)
    if watcher is None:
        return 2
    referee = Referee(Journal(":memory:"), Bus())
    run = Refereeing(watcher, referee)
    try:
        started = run.new_game(args.game, args.variant)
        source = open_camera(args.video, width=camera.width, height=camera.height, fps=camera.fps)
    except (ValueError, CameraError) as exc:
        print(f"referee replay: {exc}", file=sys.stderr)
        return 2

    print_events(started, referee, args.json)
    progress = Progress(source.frame_count)
    done, t = 0, 0.0
    try:
        with source:
            while (got := source.read()) is not None:
                t, frame = got
                print_events(run.feed(t, frame), referee, args.json)
                done += 1
                progress.update(done, t, watcher.status)
    except CameraError as exc:
        progress.close()
        print(f"referee replay: {exc}", file=sys.stderr)
        return 2
    progress.close()
    if done == 0:
        print(f"referee replay: {args.video} holds no frames", file=sys.stderr)
    if not args.json:
        print_result(referee)
    return 0


SYMBOLS = {"empty": ".", "p0": "X", "p1": "O", "blocker": "#"}


def cmd_read(args) -> int:
    """referee read IMAGE --game G [--corners ...] [--json] [--config F]"""
    import cv2

    from .games import load_game

    camera = _camera_settings(args)
    if camera is None:
        return 2
    frame = cv2.imread(args.image, cv2.IMREAD_COLOR)
    if frame is None:
        print(f"referee read: {args.image}: not an image that can be read (missing, or not "
              "PNG/JPEG/...)", file=sys.stderr)
        return 2
    watcher = _watcher(args, camera)
    if watcher is None:
        return 2
    try:
        game = load_game(args.game, args.variant)
    except ValueError as exc:
        print(f"referee read: {exc}", file=sys.stderr)
        return 2
    if hasattr(game, "printed_board"):  # what is on every copy of the board (Labyrinth's fixed tiles)
        watcher.learn(game.printed_board())
    try:
        view = watcher.read_frame(frame)
    except ValueError as exc:
        print(f"referee read: {args.image}: {exc}", file=sys.stderr)
        return 2
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
        print("X first player, O second player, # blocker, . empty, ? unsure")
    else:
        for c, (lab, conf) in cells:
            print(f"{game.cell_name(c)}: {lab} ({conf:.2f})")
    return 0
