"""Issue 13 #2, the SIGKILL variant: a Labyrinth `serve` killed while the camera is still
reading the maze at the table start used to resume, at the next start, the maze the
service had made up to hold the place, not the one on the table. Now the next start
reads the table again; a maze that was read from the table is resumed as it was.
Real `referee serve` process (killed with SIGKILL), real Service, SQLite journal, a
folder of images as the camera."""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from controller.config import load
from controller.games.labyrinth.rules import Labyrinth
from controller.journal import Journal
from controller.referee import Referee
from controller.service import Service

ROOT = Path(__file__).resolve().parents[2]


def rig(tmp_path) -> Path:
    """A referee.toml for Labyrinth whose camera films an empty table (a folder holding
    one grey picture): the maze can never be read from it."""
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "table.png"), np.full((360, 640, 3), 90, np.uint8))
    config = tmp_path / "referee.toml"
    config.write_text(f'[game]\nname = "labyrinth"\n[camera]\nsource = "{frames}"\n'
                      f'[gpio]\nfactory = "mock"\n[die_module]\nport = "off"\n'
                      f'[data]\nfolder = "{tmp_path / "data"}"\n')
    return config


def serve_until_reading_then_kill(config: Path, data: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "serve", "--config", str(config),
                             "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)
    try:
        deadline = time.monotonic() + 60
        for line in proc.stdout:  # the page is served once the service is built
            if "status page" in line:
                break
            assert time.monotonic() < deadline and proc.poll() is None, line
        assert proc.poll() is None
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        proc.kill()
        proc.stdout.close()
    journal = Journal(data / "journal.sqlite")
    try:
        assert [g["ended"] for g in journal.games()] == [None]  # the place-holder game, left open
    finally:
        journal.close()


def test_a_serve_killed_while_reading_the_maze_reads_it_again(tmp_path):
    config = rig(tmp_path)
    serve_until_reading_then_kill(config, tmp_path / "data")
    service = Service(load(config), devices=False)
    try:
        view = service.enrolment.public()
        assert view["state"] == "reading", view
        assert "from the table" in view["message"]
    finally:
        service.stop()


def test_a_maze_read_from_the_table_is_resumed_not_read_again(tmp_path):
    config = rig(tmp_path)
    game = Labyrinth()
    made = game.new_setup(random.Random(7))  # stands for the maze the camera read
    setup = game.setup_from_layout(made["rows"], random.Random(8), spare=made["spare"])
    (tmp_path / "data").mkdir()
    journal = Journal(tmp_path / "data" / "journal.sqlite")
    started = Referee(journal).new_game("labyrinth", setup=setup)
    journal.close()
    service = Service(load(config), devices=False)
    try:
        assert service.enrolment.public()["state"] == "idle"
        assert service.referee.game_id == started.game_id
        assert service.referee.setup["rows"] == made["rows"]
    finally:
        service.stop()
