"""Kill and resume each game at random moments: does the camera go on every time?

For each of the five games, one data folder and a chain of `referee demo` runs (the real
service on the simulated rig, each its own process, --no-mistake): each run must go on
from the journal the previous one left (the camera records two more moves; a run whose
table fails, or that records nothing more within --patience seconds, did not go on),
then plays on for a random while (seeded) and is killed with SIGKILL: mid-move, with a
hand over the board, on a Super Mario Bros. link space, with a token on a Warp Pipe or
in jail, wherever the moment falls. Prints, per game, how many resumes went on, where
the kills fell (the position the journal held) and the first failures in words.
Target: 100%.

    .venv/bin/python bench/resume_probe.py --moments 100        # long: 7-18 s a moment
    .venv/bin/python bench/resume_probe.py --moments 100 --games chess --seed 302   # one game a process, side by side
    .venv/bin/python bench/resume_probe.py --moments 10 --games smb monopoly
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.events import Kind  # noqa: E402
from controller.games import GAMES  # noqa: E402
from controller.games.monopoly.rules import Monopoly  # noqa: E402
from controller.games.smb.rules import SuperMarioBros  # noqa: E402
from controller.journal import open_journal  # noqa: E402
from controller.referee import Referee  # noqa: E402


def camera_moves(data: Path) -> int:
    """Camera moves journalled in all the folder's games (a run that ends a game and
    plays on in the next one went on): one read-only query, asked 4 times a second
    while the demo writes."""
    db = sqlite3.connect(f"file:{data / 'journal.sqlite'}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute("SELECT COUNT(*) FROM events WHERE kind = ? AND json_extract(data, '$.source') = "
                          "'camera'", (Kind.MOVE.value,)).fetchone()[0]
    except sqlite3.OperationalError:  # the first run is making the journal's tables
        return 0
    finally:
        db.close()


def journal_state(data: Path) -> str:
    """Where the folder's open game stands, in words."""
    journal, _ = open_journal(data)
    try:
        if journal.open_game() is None:
            return "no open game"
        referee = Referee(journal)
        return where(referee) if referee.resume() else "unreadable"
    finally:
        journal.close()


def where(referee) -> str:
    """The kind of moment the journal holds, for the report."""
    game, state = referee.game, referee.sure
    board = game.board(state)
    if isinstance(game, SuperMarioBros):
        link = state.phase == "link"
        return "Mario on a link space" if link else "Mario on a World"
    if isinstance(game, Monopoly):
        kinds = {game.b.spaces[i].kind for i, v in board.items() if v != "empty" and "p" in v}
        special = sorted(kinds & {"warp_pipe", "jail", "go_to_jail", "free_parking", "go"})
        return "a token on " + "/".join(special) if special else "tokens on streets"
    return f"{game.prompt(state).kind} due"


def run(data: Path, game: str, seed: int, log: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "demo", "--fast", "--no-mistake", "--port", "0",
         "--data", str(data), "--game", game, "--seed", str(seed), "--turns", "100000"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(log, "w"))


def probe(game: str, moments: int, rng: random.Random, folder: Path, patience: float,
          keep: Path | None = None) -> dict:
    data = folder / game
    went_on, failures, kills = 0, [], Counter()
    for k in range(moments + 1):  # the first run starts the game; each later one resumes it
        before = camera_moves(data) if (data / "journal.sqlite").exists() else 0
        if keep is not None and data.exists():
            shutil.rmtree(folder / "before", ignore_errors=True)
            shutil.copytree(data, folder / "before")
        log = folder / f"{game}-{k}.log"
        seed = rng.randrange(1 << 30)
        proc = run(data, game, seed, log)
        deadline = time.monotonic() + patience
        ok = False
        while time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.25)
            if (data / "journal.sqlite").exists() and camera_moves(data) >= before + 2:
                ok = True
                break
        if k > 0:
            went_on += ok
            print(f"  {game} moment {k}: {'went on' if ok else 'did not go on'}", file=sys.stderr, flush=True)
            if not ok and keep is not None:  # the folder as the failed run found it, for a look
                shutil.copytree(folder / "before", keep / f"{game}-{k}")
            if not ok:
                said = [line for line in log.read_text().splitlines() if "Error" in line or "waited" in line]
                failures.append(f"moment {k} (--seed {seed}): " + (said[-1][:300] if said else "no camera move within "
                                                   f"{patience:g} s"))
        if proc.poll() is None:
            time.sleep(rng.uniform(0.0, 6.0))  # a random moment of play
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        kills[journal_state(data)] += 1
    return {"went_on": went_on, "moments": moments, "failures": failures, "kills": kills}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moments", type=int, default=100, help="kills and resumes per game")
    p.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--patience", type=float, default=60.0,
                   help="seconds a resumed run has to record two more moves from the camera")
    p.add_argument("--keep", type=Path, help="copy the data folder a failed resume started from here")
    args = p.parse_args()
    rng = random.Random(args.seed)
    total = ok = 0
    with tempfile.TemporaryDirectory(prefix="resume-probe-") as tmp:
        for game in args.games:
            started = time.monotonic()
            r = probe(game, args.moments, rng, Path(tmp), args.patience, args.keep)
            total, ok = total + r["moments"], ok + r["went_on"]
            print(f"{game:10} went on after {r['went_on']} of {r['moments']} kills "
                  f"({100 * r['went_on'] / max(1, r['moments']):.0f}%), {time.monotonic() - started:.0f} s; "
                  f"killed with: " + ", ".join(f"{n} {k}" for k, n in r["kills"].most_common()), flush=True)
            for failure in r["failures"][:5]:
                print(f"    {failure}", flush=True)
    print(f"all games: {ok} of {total} resumes went on ({100 * ok / max(1, total):.0f}%); target 100%")
    return 0 if ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
