"""The voice: time from a recorded move to its first sound, beside a baseline.

A real referee (chess, a real in-memory journal) records N moves from a seeded random
game, each after the voice said the one before (a family waits for the word before
moving). For each, the time from the move event reaching the voice to the player being
started on its finished WAV (`Voice.latencies`: the queue, espeak-ng writing the WAV,
the player process launched; what the speaker adds after that is the sound card's
buffer). The player here is sox writing to its null device (this machine has no sound
card; on the Pi it is aplay). The baseline is espeak-ng alone writing the same sentences
to a WAV, called straight from the bench: the floor any espeak-ng voice pays.
Goal: the median under 300 ms.

    .venv/bin/python bench/voice.py --moves 30
"""
from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.events import Bus, Kind  # noqa: E402
from controller.journal import Journal  # noqa: E402
from controller.referee import Referee  # noqa: E402
from controller.voice import Voice  # noqa: E402


def figures(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(len(xs) * 0.95))]
    return f"median {statistics.median(xs) * 1000:6.1f} ms  p95 {p95 * 1000:6.1f} ms  max {xs[-1] * 1000:6.1f} ms"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--moves", type=int, default=30)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if shutil.which("espeak-ng") is None:
        print("bench/voice.py: espeak-ng is not installed (apt install espeak-ng)", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="bench-voice-"))
    bus = Bus()
    said: list[str] = []
    bus.subscribe(lambda e: said.append(e.data["text"]) if e.kind == Kind.SAID else None)
    referee = Referee(Journal(":memory:"), bus)
    # sox's null output wants the WAV first ("sox -q WAV -n"); the voice puts the WAV last
    player = ["sh", "-c", 'exec sox -q "$0" -n'] if shutil.which("sox") else []
    voice = Voice(bus, folder, player=player, game=lambda: referee.game)
    rng = random.Random(args.seed)
    try:
        referee.new_game("chess")
        for _ in range(args.moves):
            legal = referee.game.legal_actions(referee.sure)
            if not legal or referee.game.outcome(referee.sure) is not None:
                referee.new_game("chess")
                continue
            referee.enter(referee.game.notation(referee.sure, rng.choice(legal)))
            end = time.monotonic() + 10
            while (voice.waiting.items or len(voice.latencies) < len(said) or not said) and time.monotonic() < end:
                time.sleep(0.005)
            time.sleep(0.05)  # the player ends before the next move
    finally:
        voice.close()
    base = []
    for text in said:
        t0 = time.perf_counter()
        subprocess.run(["espeak-ng", "-v", "en", "-w", str(folder / "base.wav")], input=text.encode(), check=True)
        base.append(time.perf_counter() - t0)
    shutil.rmtree(folder, ignore_errors=True)
    print(f"announcements said: {len(said)}, dropped as overtaken: {voice.waiting.dropped}")
    print(f"event -> player started   {figures(list(voice.latencies))}")
    print(f"baseline: espeak-ng alone {figures(base)}")
    goal = statistics.median(voice.latencies) < 0.3
    print(f"goal (median under 300 ms): {'met' if goal else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
