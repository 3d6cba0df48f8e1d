"""Long fuzzing runs (issue 13, issue 21): the targets of tests/test_fuzz.py
(tests/fuzz_targets.py: every game's notation through the referee, the config loader,
the corners, the serial frames at both ends of the die link, the hall's MQTT messages at
both ends, every game's setup and settings, nested JSON) with many more examples, each
run seeded.

    .venv/bin/python bench/fuzz.py                      # 5,000 examples per target
    .venv/bin/python bench/fuzz.py --examples 50000 --seed 7

Prints, per target, the examples run, the time, and the first failing example (with its
error) if any; exits 1 when a target failed. (The JSON API has its own long run in the
suite's target only: it needs a running service.)
"""
import argparse
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

import fuzz_targets as T  # noqa: E402

TARGETS = ["notation", "config", "corners", "serial_frames", "hall_messages", "resend_requests", "game_inputs",
           "nested_json"]


def make_counted(check, count):
    def counted(example):
        count[0] += 1
        check(example)
    return counted


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--examples", type=int, default=5000)
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--only", choices=TARGETS, action="append")
    args = p.parse_args()
    failed = 0
    print(f"{'target':<14} {'examples':>9} {'seconds':>8}  result")
    for name in args.only or TARGETS:
        strategy, check = getattr(T, name)
        count = [0]
        counted = make_counted(check, count)

        run = seed(args.seed)(given(strategy)(settings(
            max_examples=args.examples, deadline=None, database=None,
            suppress_health_check=list(HealthCheck))(counted)))
        t0 = time.perf_counter()
        try:
            run()
            result = "ok: no crash, every message clear"
        except Exception as exc:  # hypothesis re-raises the shrunk failing example
            failed += 1
            result = f"FAILED: {type(exc).__name__}: {exc}"
            traceback.print_exc()
        print(f"{name:<14} {count[0]:>9} {time.perf_counter() - t0:>8.1f}  {result}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
