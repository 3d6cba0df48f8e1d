"""Resident memory of the demo service, beside a baseline, in one run.

Starts `referee demo` (the real service: journal, referee, vision on rendered frames,
devices on mock pins, the die-module simulator, the page under waitress, and one open
status-page event stream), samples VmRSS from /proc every half second for --seconds,
and prints the peak beside the baseline: a bare interpreter that imports the same
libraries (numpy, OpenCV, Flask, waitress, gpiozero, pyserial, python-chess) and does
nothing. The target is a peak under 150 MB.

    .venv/bin/python bench/memory.py --seconds 60
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import threading
import time
import urllib.request

from procstat import status_kb  # bench/procstat.py, beside this script


def rss_mb(pid: int) -> float:
    return status_kb(pid) / 1024


def peak_of(proc: subprocess.Popen, seconds: float) -> float:
    peak = 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end and proc.poll() is None:
        peak = max(peak, rss_mb(proc.pid))
        time.sleep(0.5)
    return peak


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=60.0)
    args = ap.parse_args()
    demo = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--port", "0", "--seed", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    url = None
    for line in demo.stdout:
        if m := re.search(r"status page: (http://\S+)/", line):
            url = m[1]
            break
    # a phone watching the page holds an event stream open
    threading.Thread(target=lambda: urllib.request.urlopen(url + "/events", timeout=args.seconds + 5).read(),
                     daemon=True).start()
    urllib.request.urlopen(url + "/", timeout=10).read()
    demo_peak = peak_of(demo, args.seconds)
    demo.terminate()
    demo.wait(10)
    base = subprocess.Popen([sys.executable, "-c", "import numpy, cv2, flask, waitress, gpiozero, serial, chess, time; time.sleep(60)"])
    time.sleep(3)
    base_peak = peak_of(base, 2)
    base.kill()
    print(f"demo service peak RSS over {args.seconds:.0f} s: {demo_peak:.1f} MB")
    print(f"baseline (interpreter + the same libraries, idle): {base_peak:.1f} MB")
    print(f"demo_rss_mb_peak={demo_peak:.1f} baseline_rss_mb={base_peak:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
