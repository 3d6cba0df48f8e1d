"""A Labyrinth laid out under a camera, as the table-start tests run it: the rendered
table's frames (controller/demo_rig/render_labyrinth.py) as a service's camera, and the
steps of naming the treasure pictures on the enrolment view."""
from __future__ import annotations

import base64
import contextlib
import random
import threading
import time

import cv2
import numpy as np

from controller.config import default
from controller.demo_rig import render_labyrinth as R
from controller.games.labyrinth.maze import cell_text, tile_kind
from controller.games.labyrinth.rules import Labyrinth
from controller.service import Service
from support import admin
from vision.camera import SyntheticCamera
from waiting import wait_for

FIRST, SECOND = 4, 9  # shuffles; FIRST's spare tile carries no picture (see test_labyrinth_table's first test)


class Table:
    """The table under the camera: whatever is laid out now, photographed at 10 frames a
    second of table time (a few noisy shots per layout, taken once)."""

    def __init__(self, seed: int = 3):
        self.camera = R.Camera(R.camera_shot(seed=seed), seed=seed)
        self.shots: list[np.ndarray] = []
        self.closed = threading.Event()

    def lay(self, position: dict) -> None:
        self.shots = [self.camera.shoot(position) for _ in range(3)]

    def frames(self):
        t = 0.0
        while not self.closed.is_set():
            shots = self.shots
            if shots:
                yield t, shots[int(t * 10) % len(shots)]
                t += 0.1
            time.sleep(0.004)


def shuffle(seed: int):
    game = Labyrinth()
    return game.start(game.new_setup(random.Random(seed)))


def position(state) -> dict:
    return Labyrinth().snapshot(state)


def spare(state) -> tuple[str, str | None]:
    return tile_kind(state.spare.sides), state.spare.treasure


def treasures(state) -> dict[str, str]:
    return {cell_text(i): t.treasure for i, t in enumerate(state.tiles) if t.treasure}


@contextlib.contextmanager
def table_service(folder, table: Table):
    """The service as `referee serve` builds it, the table as its camera, devices off."""
    config = default()
    config.data.folder = str(folder)
    config.camera.source = "synthetic"
    service = Service(config, devices=False, camera=SyntheticCamera(table.frames()))
    service.start()
    try:
        yield service
    finally:
        table.closed.set()
        service.stop()


def decode(data_url: str) -> np.ndarray:
    png = base64.b64decode(data_url.removeprefix("data:image/png;base64,"))
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)


def enrolment_naming(client) -> dict:
    """Wait until the enrolment view lists pictures to name; return it."""
    return wait_for(lambda: (lambda e: e if e["state"] == "naming" else None)(client.get("/api/enrol").get_json()),
                    "pictures to name on the enrolment view")


def start_waiting_for_names(service, client, table: Table, state) -> dict:
    table.lay(position(state))
    reply = client.post("/api/new-game", json={"game": "labyrinth"}, headers=admin(service))
    assert reply.status_code == 200, reply.get_json()
    return enrolment_naming(client)
