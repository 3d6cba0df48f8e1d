"""What test modules import by name from every folder: the gate for a missing tool, a
service's offline config, a way to hold the referee's thread, a chess camera's views, and
a running service with its page served. Kept out of conftest.py,
whose module name each test folder's own conftest.py would shadow."""
import contextlib
import os
import threading

import pytest

IN_CI = os.environ.get("CI") == "true"


def need(tool_ok: bool, why: str):
    """Skip for a missing tool on a person's machine; under CI=true a missing tool fails."""
    if tool_ok:
        return
    if IN_CI:
        pytest.fail(f"CI=true and {why}")
    pytest.skip(why)


def offline_config(tmp_path, source, game: str = "connect4", variant: str | None = None):
    """A service's config as the tests run one: the camera from `source` (a folder of
    frames), gpiozero's mock pins, no die module, no voice, the journal under tmp_path."""
    from controller.config import default

    config = default()
    config.game.name = game
    if variant:
        config.game.variant = variant
    config.camera.source = str(source)
    config.gpio.factory = "mock"
    config.die_module.port = "off"
    config.data.folder = str(tmp_path / "data")
    config.voice.enabled = False  # the voice's own tests turn it on (tests/controller/test_voice.py)
    return config


class Hang:
    """A command that holds the referee's thread (see `hang_referee`)."""


def hang_referee(service, monkeypatch):
    """Make the command Hang() hold the service's referee thread until released, as a
    command stuck in the rules would; (hung, release) events."""
    import threading

    hung, release = threading.Event(), threading.Event()
    original = service.table.command
    monkeypatch.setattr(service.table, "command", lambda command: (hung.set(), release.wait())
                        if isinstance(command, Hang) else original(command))
    return hung, release


# --- a chess camera, as the referee is handed its views ---------------------------------
def label(piece) -> str:
    """A chess square's label as a reader gives it (python-chess's piece, or None)."""
    import chess

    return "empty" if piece is None else ("p0" if piece.color == chess.WHITE else "p1")


class ServiceSight:
    """A running service's referee, reached as the camera thread reaches it: each view
    and each tick of the camera's clock a command on the referee's thread."""

    def __init__(self, service):
        self.service = service

    def observe(self, view):
        from controller.events import View

        self.service.submit(View(view))

    def tick(self, t: float, moved_at: float):
        from controller.events import Tick

        self.service.submit(Tick(t, moved_at))


class Camera:
    """Views of chess boards as a camera reading labels only (no change evidence) gives
    them: each board held still `hold` seconds, read four times a second, handed to
    `referee` (a Referee, or a ServiceSight); the events it answers are kept."""

    def __init__(self, referee):
        self.referee, self.t, self.events = referee, 0.0, []

    def show(self, board, hold: float = 2.0, confidence: float = 0.95, since=None,
             motions: int | None = None, cells: dict | None = None) -> None:
        """`since`: a board the change is measured from (vision/change.py), each square
        plainly as it was or plainly changed into what it now shows; `motions`: the hand
        motions the watcher counted before the board stood (None: not counted); `cells`:
        readings that differ from the board's plain labels."""
        import chess

        from vision.view import BoardView, CellSight, Change

        cells = {**{chess.square_name(s): (label(board.piece_at(s)), confidence) for s in chess.SQUARES},
                 **(cells or {})}
        extra = {}
        if since is not None:
            extra = {"change_from": {c: label(since.piece_at(chess.parse_square(c))) for c in cells},
                     "sight": {c: CellSight(change=Change({lab: 0.0, **{other: -8.0 for other in ("empty", "p0", "p1")
                                                                   if other != lab}}, None))
                               for c, (lab, _) in cells.items()}}
        moved_at = self.t + 0.1  # the hand leaves, then the board stands
        for i in range(int(hold / 0.25)):
            self.t += 0.25
            # the motions since the view before: the first reading of a still board says how
            # many, the watcher's re-readings of it none
            seen = {**extra, "motions": motions if i == 0 else 0} if motions is not None else extra
            for event in (self.referee.observe(BoardView(cells, t=self.t, moved_at=moved_at, **seen)),
                          self.referee.tick(self.t, moved_at=moved_at)):
                if event is not None:
                    self.events.append(event)

    def lose(self, seconds: float) -> None:
        """The camera sees nothing still for `seconds` (a bumped camera, a stretch of
        video lost) while play goes on."""
        self.t += seconds


def master_game(plies: int | None, name: str = "nepomniachtchi-liren-2023-game1.pgn") -> list[str]:
    """The first `plies` (None: all) of a real master game in shared/data/pgn (by default
    Nepomniachtchi-Ding, 2023, game 1), in SAN."""
    import chess.pgn

    from shared_data import SHARED_DATA

    with open(f"{SHARED_DATA}/pgn/{name}") as f:
        game = chess.pgn.read_game(f)
    board, sans = game.board(), []
    for move in list(game.mainline_moves())[:plies]:
        sans.append(board.san(move))
        board.push(move)
    return sans


def placement(sans) -> str:
    """Where the pieces stand after `sans` (SAN) from the start."""
    import chess

    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return board.board_fen()


def chess_labels(fen: str) -> dict:
    """Each square's label as a reader should give it, for the position `fen`."""
    import chess

    board = chess.Board(fen)
    return {chess.square_name(sq): label(board.piece_at(sq)) for sq in chess.SQUARES}


def misread_then_corrected(camera: Camera, misread_shown=lambda: None):
    """The take-back the issue met: 1. e4, then Black's f7-f5 read as h7-h6 (held 4 s, so
    recorded; then `misread_shown` is called), then Nf3 Nc6 Bc4 e6, after which the views
    say h6 was f5. Returns the history the game holds (python-chess's SAN)."""
    import chess

    board = chess.Board()
    camera.show(board)
    board.push_san("e4")
    camera.show(board)
    misread = board.copy()
    misread.push_san("h6")
    camera.show(misread, hold=4.0)
    misread_shown()
    board.push_san("f5")
    for san in ("Nf3", "Nc6", "Bc4", "e6"):
        board.push_san(san)
        camera.show(board)
    return ["e4", "f5", "Nf3", "Nc6", "Bc4", "e6"]


def labyrinth_ring(players=("red", "yellow"), targets=None, spare="EW") -> dict:
    """A Labyrinth setup whose border is one closed ring; inside, straight tiles that never
    join it. Star is on d1 (top edge, also open to the north, out of the maze), Moon on d7
    (bottom edge) and Sun on g4 (right edge)."""
    rows = []
    for r in range(7):
        row = []
        for c in range(7):
            corner = {(0, 0): "ES", (0, 6): "SW", (6, 6): "NW", (6, 0): "NE"}.get((r, c))
            if corner:
                row.append(corner)
            elif r in (0, 6):
                row.append("EW" + {(0, 3): ":Star", (6, 3): ":Moon"}.get((r, c), "") if (r, c) != (0, 3) else "NEW:Star")
            elif c in (0, 6):
                row.append("NS:Sun" if (r, c) == (3, 6) else "NS")
            else:
                row.append("NS")
        rows.append(" ".join(row))
    return {"players": list(players), "first": 0, "rows": rows, "spare": spare,
            "targets": targets or {"red": ["Star"], "yellow": ["Moon"]}}


def played(game, state, *texts):
    """The state after each action written in `texts` (the game's notation) is played."""
    for text in texts:
        state = game.play(state, game.parse(state, text))
    return state


# --- a running service and its page ----------------------------------------------------
WAIT_MS = 5000  # how long a browser test waits for what the page shows


@contextlib.contextmanager
def running_service(folder, variant: str = "classic", camera_source: str | None = None, language: str = "en"):
    """The referee service as `referee serve` builds it, without devices, and without a
    camera unless `camera_source` names one (a folder of images); its table speaks
    `language` ([table] language)."""
    from controller.config import default
    from controller.service import Service

    config = default()
    config.data.folder = str(folder)
    config.table.language = language
    config.game.variant = variant
    if camera_source:
        config.camera.source = camera_source
    service = Service(config, camera=camera_source is not None, devices=False)
    service.start()
    try:
        yield service
    finally:
        service.stop()


def admin(service) -> dict:
    return {"Authorization": f"Bearer {service.admin_token}"}


def player(service, seat: int) -> dict:
    from web.payload import player_token

    return {"Authorization": f"Bearer {player_token(service.admin_token, seat)}"}


class Served:
    """A service and the page's app under waitress on 127.0.0.1, on a free port."""

    def __init__(self, service, heartbeat_s: float, threads: int = 4):
        import waitress

        from web import create_app

        self.service = service
        self.app = app = create_app(service)
        app.config["HEARTBEAT_S"] = heartbeat_s
        # poll, not select: the server is closed from the test's thread while its loop runs
        # here, and select on a closed socket raises in this thread (poll reports it)
        self.server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads, asyncore_use_poll=True)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def close(self):
        """The clean order: end the streams, let the worker threads finish, then close
        the sockets (a worker still running would write to a closed server)."""
        from web import close_streams

        close_streams(self.app)
        self.server.task_dispatcher.shutdown(timeout=2)
        self.server.close()


@contextlib.contextmanager
def served_hall(folder, broker, referee, table: str = "t1"):
    """A hall on `broker` (tests/mosquitto.py) keeping its journal in `folder`, the table
    `table` publishing `referee`'s journal and snapshot to it, and the hall's page under
    waitress: yields (the page's URL, the hall)."""
    import waitress

    from controller.config import HallSettings
    from controller.hall.publisher import Publisher
    from controller.hall.receiver import Hall
    from web import close_streams
    from web.hall import create_hall_app

    hall = Hall(folder, "127.0.0.1", broker.port).start()
    publisher = Publisher(referee.journal.path, HallSettings(enabled=True, broker="127.0.0.1", port=broker.port,
                                                             table=table), snapshot=referee.snapshot)
    referee.bus.subscribe(publisher.wake)
    publisher.start()
    app = create_hall_app(hall, "sesame", heartbeat_s=0.2)
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=4, asyncore_use_poll=True)
    threading.Thread(target=server.run, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", hall
    finally:
        close_streams(app)
        server.task_dispatcher.shutdown(timeout=2)
        server.close()
        publisher.close()
        hall.close()


# --- the demo, run as a person runs it ---------------------------------------------------


def ctrl_c_restored() -> None:
    """For a process a test stops with Ctrl-C (SIGINT), run in the child before it starts:
    a shell starts its background jobs with SIGINT ignored, a child inherits that, and
    Python then sets up no KeyboardInterrupt; a suite started in the background would
    find every demo deaf to Ctrl-C (the demo played on for 30 s)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_demo(*args, first=None):
    """`referee demo --port 0 ARGS` started: its process and its page's address, once
    the page is up (the address found in any language); `first`, a list, gets the lines
    printed until then."""
    import re
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_restored)
    for line in proc.stdout:
        if first is not None:
            first.append(line.rstrip("\n"))
        if m := re.search(r"(http://\S+)/", line):
            return proc, m[1]
    proc.kill()
    raise AssertionError(f"the demo's page never came up: {proc.stderr.read()[-2000:]}")


def play_demo(tmp_path, *args, page_shows=None, timeout=150, told=None, watch=None):
    """Run `referee demo --fast ARGS` to its end and return the game record that
    `referee export` writes from its journal; with `page_shows`, the status page must
    show that text while the demo runs; `told`, a list, gets the terminal's lines (from
    the first); `watch(url)` is called once the page is served (the address printed in
    the table's language)."""
    import json
    import subprocess
    import sys
    import urllib.request

    first = []
    proc, url = start_demo("--fast", "--data", str(tmp_path), *args, first=first)
    try:
        if page_shows:
            assert page_shows in urllib.request.urlopen(url + "/", timeout=10).read().decode()
        if watch is not None:
            watch(url)
        rest, err = proc.communicate(timeout=timeout)
        if told is not None:
            told += first + rest.splitlines()
    finally:
        proc.kill()
    assert proc.returncode == 0, err[-3000:]
    out = subprocess.run([sys.executable, "-m", "controller.cli", "export", "--data", str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def referee_on(journal):
    """A referee on `journal` whose events are kept in a list, its confirm time the live
    camera's (as the Table sets it)."""
    from controller.events import Bus
    from controller.referee import CONFIRM_S, Referee
    events: list = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(journal, bus)
    referee.confirm_s = CONFIRM_S  # the live camera's clock, as the Table sets it
    return referee, events


@contextlib.contextmanager
def serving(folder, game: str, broker=None):
    """`referee serve` without a camera or devices, publishing to the hall's `broker`."""
    from controller.config import default
    from controller.service import Service
    config = default()
    config.data.folder = str(folder)
    config.game.name = game
    if broker is not None:
        config.hall.enabled, config.hall.broker, config.hall.port, config.hall.table = True, "127.0.0.1", broker.port, "t1"
    service = Service(config, camera=False, devices=False)
    service.start()
    try:
        yield service
    finally:
        service.stop()


class Listener:
    """Everything the hall's broker carries for the table (retained state and events)."""

    def __init__(self, port: int):
        import time

        import paho.mqtt.client as mqtt
        self.messages: list[tuple[str, str]] = []
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"watcher-{time.monotonic_ns()}")
        self.client.on_message = lambda c, u, m: self.messages.append((m.topic, m.payload.decode("utf-8", "replace")))
        self.client.connect("127.0.0.1", port)
        self.client.subscribe("referee/#")
        self.client.loop_start()

    def close(self):
        self.client.loop_stop()
        self.client.disconnect()


def read(payload: str):
    """A message from the broker: JSON, or a word ("online")."""
    import json
    try:
        return json.loads(payload)
    except ValueError:
        return payload


def deck_with(hands, top=(), players=None):
    """A Super Mario Bros. deck (setup order) that deals `hands` (seat -> 3 kinds) and then
    `top` first."""
    from controller.games.smb.rules import SuperMarioBros
    game = SuperMarioBros()
    rest = game.worlds.deck()
    n = players or len(hands)
    hands = list(hands) + [[] for _ in range(n - len(hands))]
    for kind in [k for h in hands for k in h] + list(top):
        rest.remove(kind)
    dealt = [list(h) for h in hands]
    for h in dealt:
        while len(h) < 3:
            h.append(next(k for k in rest if k not in ("fireball",)))
            rest.remove(h[-1])
    deck = [dealt[i][j] for j in range(3) for i in range(n)]
    return deck + list(top) + rest


def run_cli(args, stdin):
    """`referee ARGS` (python -m controller.cli) with `stdin`, its output captured."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)
