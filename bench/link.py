"""The die-module link: robustness figures and press-to-face round trip.

1. The full fault run (issue 4): 10,000 commands and 2,000 presses through a pseudo-
   terminal that corrupts 1% of bytes, drops 1% of frames and puts garbage between 1% of
   frames, with 20 unplug/replug cycles and 5 firmware resets. Prints lost, duplicated
   and reordered rolls (target: zero) and the link drops reported.
2. Round trip from a press on the simulated module to the face shown on it (the Pi
   draws the roll in between), median of N presses on a clean link, beside a baseline:
   one byte there and back over the same kind of pseudo-terminal with pyserial, the
   floor any protocol on this path pays. Target: median under 50 ms.

    .venv/bin/python bench/link.py            # full size (about two minutes)
    .venv/bin/python bench/link.py --quick    # a tenth of the fault run
"""
import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import serial  # noqa: E402

from controller.devices import dice  # noqa: E402
from controller.devices.link import DieLink  # noqa: E402
from controller.demo_rig.module import Faults, SimulatedModule, soak  # noqa: E402
from controller.events import Bus  # noqa: E402


def press_to_face(n: int) -> list[float]:
    sim = SimulatedModule()
    rng = random.Random(1)
    link = None

    def on_press():
        link.show(dice.roll("monopoly", rng))

    link = DieLink(sim.port, Bus(), on_press)
    try:
        while link.state != "up":
            time.sleep(0.01)
        times = []
        for _ in range(n):
            sim.face_shown.clear()
            t0 = time.perf_counter()
            sim.press()
            sim.face_shown.wait(2)
            times.append((time.perf_counter() - t0) * 1000)
        return times
    finally:
        link.close()
        sim.close()


def baseline(n: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def echo():
        while not stop.is_set():
            data = os.read(master, 1)
            os.write(master, data)

    threading.Thread(target=echo, daemon=True).start()
    port = serial.Serial(os.ttyname(slave), 115200, timeout=1)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        port.write(b"P")
        port.read(1)
        times.append((time.perf_counter() - t0) * 1000)
    stop.set()
    port.write(b"x")
    port.close()
    return times


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--presses", type=int, default=300, help="presses timed for the round trip")
    args = ap.parse_args()
    scale = 10 if args.quick else 1
    print(f"fault run: {10_000 // scale} commands, {2_000 // scale} presses, {20 // scale or 1} unplugs, "
          f"{5 // scale or 1} resets; 1% bytes corrupted, 1% frames dropped, garbage 1%", flush=True)
    r = soak(commands=10_000 // scale, presses=2_000 // scale, unplugs=20 // scale or 1, resets=5 // scale or 1,
             seed=2026, faults=Faults(corrupt=0.01, drop=0.01, garbage=0.01, seed=2026))
    print(json.dumps(r, indent=1))
    dup = r["rolls"] - (r["presses_made"] - r["presses_lost"])
    print(f"rolls_lost={r['presses_made'] - r['rolls']} rolls_duplicated={max(dup, 0)} "
          f"rolls_reordered={r['commands_out_of_order']} downs_reported={r['downs_reported']} "
          f"(unplugs={r['unplugs']} resets={r['resets']})")
    rt = press_to_face(args.presses)
    base = baseline(args.presses)
    print(f"press_to_face_ms_median={statistics.median(rt):.2f} "
          f"baseline_ms_median={statistics.median(base):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
