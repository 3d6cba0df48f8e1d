"""The hall under a tournament's load, beside the bare broker, in one run.

Starts a real Mosquitto on loopback and `referee hall` as its own process, then 50
simulated tables (--tables) in worker processes of 100: each a real journal and referee
(chess, a random legal move typed in) with its real publisher, one move per table every
2 s, the tables staggered evenly. The tables start with the hall, so the first events of
many are published before the hall has subscribed: it must notice from their retained
states and ask for them again. Prints how many tables' starts the hall heard and how
soon, whether it kept every event journalled, the events per second it kept, the
end-to-end latency (from the table's journal to the hall's journal: median and 99th
percentile) and the hall's peak memory. The baseline is the broker's own figure for the
same load: bare paho clients publishing a timestamped QoS 1 message for each table every
2 s to one bare subscriber, no journal on either side; between the two, a bare
subscriber beside the hall shows how much of the delay is the tables' (their journal's
commit, the publisher) and the broker's. Target: every event kept, p99 under 200 ms.

    .venv/bin/python bench/hall.py --seconds 30
    .venv/bin/python bench/hall.py --tables 500 --seconds 20
"""
from __future__ import annotations

import argparse
import json
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from controller.config import HallSettings  # noqa: E402
from controller.events import Bus  # noqa: E402
from controller.hall import mqtt_client  # noqa: E402
from controller.hall.publisher import Publisher  # noqa: E402
from controller.journal import Journal  # noqa: E402
from controller.referee import Referee  # noqa: E402
from mosquitto import MOSQUITTO, Mosquitto  # noqa: E402
from procstat import status_kb  # noqa: E402  (bench/procstat.py, beside this script)

PER_PROCESS = 100  # simulated tables in one worker process


class Table:
    """A journal, a referee playing random legal chess moves, and its publisher."""

    def __init__(self, folder: Path, name: str, port: int, rng: random.Random):
        self.rng = rng
        self.lock = threading.Lock()
        self.journal = Journal(folder / f"{name}.sqlite")
        self.referee = Referee(self.journal, Bus())
        self.referee.new_game("chess")
        settings = HallSettings(enabled=True, broker="127.0.0.1", port=port, table=name)
        self.publisher = Publisher(self.journal.path, settings, snapshot=self.snapshot)
        self.referee.bus.subscribe(self.publisher.wake)
        self.publisher.start()

    def snapshot(self) -> dict:
        with self.lock:
            return self.referee.snapshot()

    def move(self) -> None:
        with self.lock:
            r = self.referee
            if r.game.outcome(r.state) is not None:
                r.new_game("chess")
                return
            action = self.rng.choice(list(r.game.observable_actions(r.state)))
            r.enter(r.game.notation(r.state, action))

    def close(self) -> None:
        self.publisher.close()
        self.journal.close()


def paced(n: int, period: float, seconds: float, act) -> None:
    """Call act(i) for table i = 0..n-1 in turn, each table once every `period` s."""
    step = period / n
    start = time.monotonic()
    k = 0
    while True:
        at = start + k * step
        if at - start >= seconds:
            return
        time.sleep(max(0.0, at - time.monotonic()))
        act(k % n)
        k += 1


def run_hall(tmp: Path, broker: Mosquitto, n: int, period: float, seconds: float, wait: float) -> dict:
    hall = subprocess.Popen([sys.executable, "-m", "controller.cli", "hall", "--broker", "127.0.0.1", "--port",
                             str(broker.port), "--data", str(tmp / "hall"), "--http-port", "0"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=open(tmp / "hall.log", "wb"))
    # a bare subscriber beside the hall: how much of the delay is the tables' and the broker's
    wire: list[float] = []
    sub = mqtt_client("bench-wire")
    sub.on_connect = lambda c, u, f, r, p: c.subscribe("referee/+/events", qos=1)
    sub.on_message = lambda c, u, m: wire.append((time.time(), json.loads(m.payload)["t"]))
    sub.connect("127.0.0.1", broker.port)
    sub.loop_start()
    # the tables in worker processes of at most PER_PROCESS each: a real table is its own
    # machine, and one process holding hundreds of paho clients passes 1024 file
    # descriptors, past which paho's select() cannot watch a socket (at 200 tables in one
    # process, 31 never connected: the bench's limit, not the hall's)
    workers = []
    for first in range(0, n, PER_PROCESS):
        count = min(PER_PROCESS, n - first)
        workers.append(subprocess.Popen(
            [sys.executable, __file__, "--worker", str(first), str(count), "--tables", str(n), "--port",
             str(broker.port), "--folder", str(tmp), "--period", str(period), "--seconds", str(seconds)],
            cwd=ROOT))
    db_path = tmp / "hall" / "hall.sqlite"
    started = time.monotonic()
    heard = 0
    while time.monotonic() < started + wait:  # every table's game_started at the hall
        try:
            with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as db:
                heard = db.execute("SELECT COUNT(DISTINCT table_name) FROM events").fetchone()[0]
        except sqlite3.OperationalError:  # the hall has not made its journal yet
            pass
        if heard == n:
            break
        time.sleep(0.2)
    heard_s = time.monotonic() - started
    t0 = time.time() + 1.0
    (tmp / "go").write_text(repr(t0))  # the workers start their moves at t0
    time.sleep(max(0.0, t0 + seconds - time.time()))
    t1 = t0 + seconds
    counts = [tmp / f"worker-{first}.json" for first in range(0, n, PER_PROCESS)]
    deadline = time.monotonic() + wait
    while not all(c.exists() for c in counts) and time.monotonic() < deadline:
        time.sleep(0.2)
    journalled = sum(json.loads(c.read_text())["journalled"] for c in counts if c.exists())
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        with sqlite3.connect(db_path) as db:
            if db.execute("SELECT COUNT(*) FROM events").fetchone()[0] >= journalled:
                break
        time.sleep(0.2)
    with sqlite3.connect(db_path) as db:
        kept = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        never = n - db.execute("SELECT COUNT(DISTINCT table_name) FROM events").fetchone()[0]
        lat = [r[0] for r in db.execute("SELECT received - t FROM events WHERE t >= ? AND t < ?", (t0, t1))]
        dupes = db.execute("SELECT COUNT(*) - COUNT(DISTINCT table_name || '/' || seq) FROM events").fetchone()[0]
    sub.disconnect()
    sub.loop_stop()
    memory = status_kb(hall.pid, "VmHWM")
    broker_kb = status_kb(broker.proc.pid, "VmHWM")
    (tmp / "stop").write_text("")
    for w in workers:
        w.wait(30)
    hall.terminate()
    hall.wait(10)
    wire_lat = [got - t for got, t in wire if t0 <= t < t1]
    return {"rate": len(lat) / (t1 - t0), "lat": lat, "wire_lat": wire_lat, "kept": kept, "journalled": journalled, "dupes": dupes,
            "hall_kb": memory, "broker_kb": broker_kb, "heard": heard, "heard_s": heard_s, "never": never}


def run_worker(args) -> None:
    """Tables `first` .. `first + count - 1` in this process: started at once, their moves
    paced from the time the main process writes to FOLDER/go, their journalled count to
    FOLDER/worker-FIRST.json; they go on publishing (resends) until FOLDER/stop."""
    first, count = args.worker
    folder = Path(args.folder)
    rng = random.Random(first + 1)
    tables = [Table(folder, f"t{i:03d}", args.port, random.Random(rng.random())) for i in range(first, first + count)]
    while not (folder / "go").exists():
        if not folder.exists():  # the main process ended without a run
            return
        time.sleep(0.1)
    t0 = float((folder / "go").read_text())
    # this worker's tables take their turns among all tables' (each once a period)
    offset = first // PER_PROCESS * args.period / args.tables
    time.sleep(max(0.0, t0 + offset - time.time()))
    paced(count, args.period, args.seconds - offset, lambda i: tables[i].move())
    journalled = sum(t.journal.events(t.referee.game_id)[-1].seq for t in tables)  # one game each, seq from 1
    (folder / f"worker-{first}.json").write_text(json.dumps({"journalled": journalled}))
    while not (folder / "stop").exists() and folder.exists():
        time.sleep(0.2)
    for t in tables:
        t.close()


def run_bare(broker: Mosquitto, n: int, period: float, seconds: float) -> dict:
    """The same load through the same broker with bare paho clients, nothing else (at
    most PER_PROCESS clients, each publishing for several tables past that)."""
    clients = min(n, PER_PROCESS)
    period = period * clients / n
    lat: list[float] = []
    got = threading.Event()
    sub = mqtt_client("bench-sub")
    sub.on_connect = lambda c, u, f, r, p: c.subscribe("bench/#", qos=1)
    sub.on_subscribe = lambda *a: got.set()
    sub.on_message = lambda c, u, m: lat.append(time.time() - json.loads(m.payload)["t"])
    sub.connect("127.0.0.1", broker.port)
    sub.loop_start()
    got.wait(10)
    pubs = []
    for i in range(clients):
        c = mqtt_client(f"bench-{i}")
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        pubs.append(c)
    time.sleep(1.0)
    t0 = time.time()
    paced(clients, period, seconds, lambda i: pubs[i].publish(f"bench/{i}", json.dumps({"t": time.time()}), qos=1))
    t1 = time.time()
    time.sleep(1.0)
    for c in pubs + [sub]:
        c.disconnect()
        c.loop_stop()
    return {"rate": len(lat) / (t1 - t0), "lat": lat}


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--period", type=float, default=2.0, help="seconds between two moves of one table")
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--wait", type=float, default=60.0,
                   help="seconds the hall has to hear every table's start, and the tables' last events")
    p.add_argument("--worker", type=int, nargs=2, metavar=("FIRST", "COUNT"), help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--folder", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        run_worker(args)
        return 0
    if MOSQUITTO is None:
        print("bench/hall.py: mosquitto is not installed (apt install mosquitto)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as tmp:
        broker = Mosquitto(Path(tmp) / "broker").start()
        try:
            bare = run_bare(broker, args.tables, args.period, args.seconds)
            hall = run_hall(Path(tmp), broker, args.tables, args.period, args.seconds, args.wait)
        finally:
            broker.stop()
    print(f"{args.tables} tables, one move per table every {args.period:g} s, {args.seconds:g} s measured")
    print(f"{'':28}{'events/s':>10}{'median ms':>11}{'p99 ms':>9}{'max ms':>9}")
    wire = {"rate": len(hall["wire_lat"]) / args.seconds, "lat": hall["wire_lat"]}
    for name, r in (("broker alone (bare paho)", bare), ("tables -> bare subscriber", wire),
                    ("tables -> hall (journals)", hall)):
        print(f"{name:28}{r['rate']:>10.1f}{pct(r['lat'], 0.5):>11.1f}{pct(r['lat'], 0.99):>9.1f}"
              f"{pct(r['lat'], 1.0):>9.1f}")
    print(f"hall: kept {hall['kept']} of {hall['journalled']} journalled events, {hall['dupes']} duplicates; "
          f"peak memory {hall['hall_kb'] / 1024:.1f} MB (broker {hall['broker_kb'] / 1024:.1f} MB)")
    print(f"hall: heard {hall['heard']} of {args.tables} tables' starts within {hall['heard_s']:.1f} s; "
          f"{hall['never']} tables never heard by the end")
    every = hall["kept"] >= hall["journalled"] and hall["never"] == 0
    print(f"target: every event kept, p99 under 200 ms: "
          f"{'met' if every and pct(hall['lat'], 0.99) < 200 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
