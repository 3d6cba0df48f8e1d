"""Soak: the demo rig through many games back to back, all five games in turn (issue 13).

One demo rig, as `referee demo --fast` runs it and a club leaves it running: the real
Service (journal, referee, camera thread and vision on the rendered table, gpiozero's mock
pins, the die module's firmware simulator over real pyserial on a pseudo-terminal), its
players playing each game to its end or `--turns` turns, then starting the next kind of
game as the page's New game does, all games in one journal. What must hold for a season:

- resident memory grows by less than 5 MB from the end of the first round (five games:
  imports, caches and readers warmed up) to the end, and by less than 5 MB after the same
  game from the second round to the last (the games' frames differ in size, so each game
  leaves its own figure); the start figure is printed too. Memory is measured after each
  game twice: raw, and after a full collection and glibc's malloc_trim (see
  `settled_mb`); the live Python objects are counted too. The allocator is set as
  `referee serve` sets it (controller/allocator.py);
- no error is logged (every log record at ERROR or above is counted and the first shown),
  and every game is finished (one the rig could not finish is counted and named, closed,
  and the rig started afresh);
- open files and threads come back to where they were (no descriptor or thread per game).

    .venv/bin/python bench/soak.py                 # 1,000 games (many hours)
    .venv/bin/python bench/soak.py --games 50      # a shorter run
    .venv/bin/python bench/soak.py --minutes 40    # as many games as fit in 40 minutes
    .venv/bin/python bench/soak.py --turns 8       # each game to its end or 8 turns

One line per game (game, seconds, moves, journal bytes, RSS, files, threads), then the
summary beside the targets.
"""
import argparse
from contextlib import closing
import logging
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller import allocator  # noqa: E402
from controller.demo import demo_config, demo_service  # noqa: E402
from controller.demo_rig.feed import DemoTable  # noqa: E402
from controller.events import NewGame  # noqa: E402
from controller.games import GAMES  # noqa: E402
from controller.registry import entry  # noqa: E402
from procstat import status_kb  # noqa: E402  (bench/procstat.py, beside this script)

TARGET_MB = 5.0
GAME_TIMEOUT_S = 600.0


def rss_mb() -> float:
    return status_kb() / 1024


def settled_mb() -> tuple[float, int]:
    """(RSS after a full collection and glibc's malloc_trim, Python objects alive). Raw
    RSS swings by tens of MB with the frames in flight and memory freed but kept by the
    allocator; after a trim it is closer to what is really held (malloc_trim gives back the
    main arena's free memory, not the top of the other threads' arenas: so the figure is
    only as steady as controller/allocator.py makes it), and the count of live objects
    shows a leak of Python objects directly."""
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the figure is the raw one
        pass
    return rss_mb(), len(gc.get_objects())


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def native_threads() -> int:
    """Threads of the process, OpenCV's and the C libraries' included."""
    return len(os.listdir("/proc/self/task"))


class Errors(logging.Handler):
    """Counts records at ERROR and above; keeps the first few."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.count, self.first = 0, []

    def emit(self, record):
        self.count += 1
        if len(self.first) < 5:
            self.first.append(self.format(record)[:500])


def journal_bytes(folder: str) -> int:
    return sum(p.stat().st_size for p in Path(folder).glob("journal*.sqlite*"))


def game_bytes(journal: str, game_id: int) -> int:
    """What one game's events hold in the journal (kinds and data, as stored), read beside
    the service's own connection (the file's size moves with the write-ahead log)."""
    import sqlite3

    with closing(sqlite3.connect(f"file:{journal}?mode=ro", uri=True)) as db:
        return db.execute("SELECT COALESCE(SUM(LENGTH(kind) + LENGTH(data)), 0) FROM events WHERE game_id = ?",
                          (game_id,)).fetchone()[0]


class Season:
    """One demo rig (`referee demo --fast`: one Service, its journal, camera thread and
    page, as a club leaves it running) through game after game, the five kinds in turn:
    when a game is over (or stopped after `turns` turns), the figures are taken and the
    next kind is started as the page's New game starts it. The table calls `next_game`
    from the camera thread between games."""

    def __init__(self, args, folder: str, errors: Errors, names: list[str]):
        self.args, self.folder, self.errors, self.names = args, folder, errors, names
        self.played, self.began = 0, time.monotonic()
        self.lines: list[dict] = []  # one per game: the figures after it
        self.failed: list[str] = []  # games the rig could not finish, and why
        self.service = None
        self._last = time.monotonic()

    def run(self) -> None:
        """Games until --games or --minutes; a table that fails or stalls counts as an
        error, and the rig is started afresh (as a club would restart it) for the rest."""
        while self.played < self.args.games and not self.out_of_time():
            name = self.names[self.played % len(self.names)]
            args = argparse.Namespace(game=name, variant=None, data=self.folder, host="127.0.0.1", port=0,
                                      seed=self.args.seed + self.played, fast=True)
            config = demo_config(args)
            table = DemoTable(seed=args.seed, turns_each=self.args.turns, realtime=False,
                              colours=config.camera.colours, next_game=self.next_game)
            self.service = demo_service(config, table)
            table.attach(self.service)
            self._last = time.monotonic()
            self.service.start()
            failed = False
            try:
                while not table.finished.wait(5.0):
                    if time.monotonic() - self._last > GAME_TIMEOUT_S:
                        failed = True
                        self.error(f"{self.playing()}: the game did not end within "
                                   f"{GAME_TIMEOUT_S:.0f} s")
                        break
                if table.failed:
                    failed = True
                    self.error(f"{self.playing()} (rig seed {args.seed}): the simulated table "
                               f"failed (see the log)")
            finally:
                if failed:  # closed, as a club would start a new game, so the next rig does not resume it
                    self.close_open_game("stopped by the soak: the table could not go on")
                self.service.stop()
                forget_mock_pin_history()

    def close_open_game(self, why: str) -> None:
        with self.service._lock:
            r = self.service.referee
            if r.game is not None and r.game.outcome(r.state) is None:
                r.journal.end_game(r.game_id, why)

    def error(self, text: str) -> None:
        """A game the rig could not finish (its own error, if it logged one, is counted
        among the errors logged)."""
        self.failed.append(text)
        self.played += 1  # the failed game counts as played: the next starts afresh

    def playing(self) -> str:
        """The kind of game under way (the page may have started it while the last ended)."""
        return self.names[self.played % len(self.names)]

    def out_of_time(self) -> bool:
        return bool(self.args.minutes) and time.monotonic() - self.began > self.args.minutes * 60

    def next_game(self) -> bool:
        """A game is over: its figures, then the next kind's New game (False: the soak ends)."""
        service = self.service
        with service._lock:
            name, moves, game_id = service.referee.game.name, len(service.referee.history), service.referee.game_id
        raw = rss_mb()
        forget_mock_pin_history()
        settled, objects = settled_mb()
        self.played += 1
        self.lines.append({"name": name, "seconds": time.monotonic() - self._last, "moves": moves,
                           "grown": game_bytes(service.journal.path, game_id), "rss": raw, "settled": settled,
                           "objects": objects, "files": open_files(), "threads": threading.active_count(),
                           "tasks": native_threads()})
        print_line(self.played, self.lines[-1])
        self._last = time.monotonic()
        if self.played >= self.args.games or self.out_of_time():
            return False
        following = self.names[self.played % len(self.names)]
        result = service.submit(NewGame(following, entry(following).player_class().variant))
        if not result.ok:
            self.error(f"the page's New game ({following}) was refused: {result.error}")
            return False
        return True


def print_line(played: int, line: dict) -> None:
    print(f"{played:>5} {line['name']:<10} {line['seconds']:>6.1f} {line['moves']:>5} {line['grown']:>10} "
          f"{line['rss']:>7.1f} {line['settled']:>7.1f} {line['objects']:>8} {line['files']:>5} "
          f"{line['threads']:>4} {line['tasks']:>6}", flush=True)


def forget_mock_pin_history() -> None:
    """gpiozero's mock pins (the simulated hardware) record every state change for
    tests to inspect; a real pin keeps none, so that record is not the referee's memory."""
    from gpiozero import Device

    for pin in getattr(Device.pin_factory, "pins", {}).values():
        if hasattr(pin, "clear_states"):
            pin.clear_states()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--minutes", type=float, default=0.0, help="stop starting games after this long (0: no limit)")
    p.add_argument("--turns", type=int, default=0,
                   help="end a game after this many turns on the table (0: play it out; a Monopoly "
                        "or Labyrinth game played out takes many minutes)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--data", default=None, help="data folder (default: a temporary one)")
    args = p.parse_args()
    set_options = allocator.settle()
    errors = Errors()
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger().addHandler(errors)
    folder = args.data or tempfile.mkdtemp(prefix="referee-soak-")
    names = list(GAMES)
    start = {"rss": rss_mb(), "files": open_files(), "threads": threading.active_count(), "tasks": native_threads()}
    start["settled"], start["objects"] = settled_mb()
    print(f"soak: {args.games} games ({', '.join(names)} in turn"
          f"{f', each to its end or {args.turns} turns' if args.turns else ''}), data in {folder}")
    print(f"allocator: {', '.join(f'{k} {v}' for k, v in set_options.items()) or 'as the environment set it'}"
          f" (MALLOC_ARENA_MAX={os.environ.get('MALLOC_ARENA_MAX', '-')})")
    print(f"start: RSS {start['rss']:.1f} MB, {start['files']} open files, {start['threads']} threads "
          f"({start['tasks']} native)", flush=True)
    print(f"{'#':>5} {'game':<10} {'s':>6} {'moves':>5} {'journal B':>10} {'RSS MB':>7} {'trim MB':>7} "
          f"{'objects':>8} {'files':>5} {'thr':>4} {'native':>6}")
    season = Season(args, folder, errors, names)
    season.run()
    played, lines = season.played, season.lines
    warm = next(({"rss": line["rss"], "settled": line["settled"], "objects": line["objects"]}
                 for line in lines if line["name"] == names[-1]), None)  # the end of the first round
    sizes: dict[str, list[int]] = {n: [line["grown"] for line in lines if line["name"] == n] for n in names}
    after = {n: [line["settled"] for line in lines if line["name"] == n] for n in names}
    after_raw = {n: [line["rss"] for line in lines if line["name"] == n] for n in names}
    began = season.began
    # after the last game of the kind that ends a round (as `warm`), the rig still running
    last = next((line for line in reversed(lines) if line["name"] == names[-1]), start)
    end = {"rss": last["rss"], "settled": last["settled"], "objects": last["objects"],
           "files": open_files(), "threads": threading.active_count(), "tasks": native_threads()}
    stopped, _ = settled_mb()
    warm = warm or start
    print()
    print(f"games played: {played} in {(time.monotonic() - began) / 60:.1f} min")
    for key, what in (("rss", "resident memory (raw, after the game)"),
                      ("settled", "resident memory (collected, trimmed)")):
        print(f"{what}: start {start[key]:.1f} MB, after the first round {warm[key]:.1f} MB, "
              f"after the last round {end[key]:.1f} MB")
    print(f"resident memory (collected, trimmed) once the rig stopped: {stopped:.1f} MB")
    late = [mb for runs in after.values() for mb in runs[1:]]
    if late:
        print(f"resident memory (collected, trimmed) after each game from the second round: "
              f"{min(late):.1f}-{max(late):.1f} MB")
    print(f"Python objects alive: start {start['objects']}, after the first round {warm['objects']}, "
          f"end {end['objects']}")
    growth = end["settled"] - warm["settled"]
    print(f"memory growth after the first round (trimmed): {growth:+.1f} MB (target < {TARGET_MB:.0f} MB): "
          f"{'ok' if growth < TARGET_MB else 'OVER'}; raw: {end['rss'] - warm['rss']:+.1f} MB")
    same = {n: runs[-1] - runs[1] for n, runs in after.items() if len(runs) > 2}
    for name, d in same.items():
        raws = after_raw[name]
        print(f"  after {name} ({len(raws)} games): trimmed {after[name][1]:.1f} MB in the second round, "
              f"{after[name][-1]:.1f} MB in the last: {d:+.1f} MB; raw {raws[1]:.1f} -> {raws[-1]:.1f} MB "
              f"({raws[-1] - raws[1]:+.1f}), {min(raws[1:]):.1f}-{max(raws[1:]):.1f} MB in between")
    worst = max(same.values(), default=0.0)
    if same:
        print(f"memory growth after the same game (trimmed), worst: {worst:+.1f} MB "
              f"(target < {TARGET_MB:.0f} MB): {'ok' if worst < TARGET_MB else 'OVER'}")
    print(f"open files: start {start['files']}, end {end['files']}; threads: start {start['threads']}, "
          f"end {end['threads']} (native: {start['tasks']}, {end['tasks']})")
    for name, grown in sizes.items():
        if grown:
            print(f"journal per game, {name}: mean {sum(grown) / len(grown) / 1024:.1f} KB, "
                  f"max {max(grown) / 1024:.1f} KB ({len(grown)} games)")
    print(f"journal total: {journal_bytes(folder) / 1e6:.2f} MB")
    print(f"games the rig could not finish: {len(season.failed)} (target 0)")
    for text in season.failed[:5]:
        print(f"  {text}")
    print(f"errors logged: {errors.count} (target 0)")
    for text in errors.first:
        print(f"  {text}")
    ok = growth < TARGET_MB and worst < TARGET_MB and errors.count == 0 and not season.failed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
