"""`referee replay` decides what `serve` decided from the same frames. The service runs on
the demo rig and every frame its camera is handed is also written to a folder (lossless
PNG, in tmp_path); `referee replay FOLDER --record EXPORT.json` then runs those frames
through the same Table, with the inputs the camera cannot see (rolls, cards, choices)
taken from the record, and must see the same moves in the same order. A Labyrinth game
is started from the maze laid out on the table (the replay reads it from the frames); a
Super Mario Bros. game resumed one move before World 1's link space crosses into World 2
(the replay follows the board sheet)."""
import json
import random
import subprocess
import sys
from argparse import Namespace

import cv2

from controller.demo import demo_config
from controller.demo_rig.feed import DemoTable
from controller.demo_rig.players.base import FPS
from controller import table as table_module
from controller.cli import main
from controller.events import Bus
from controller.journal import open_journal
from controller.referee import Referee
from controller.service import Service
from controller.table import Table
from vision.camera import SyntheticCamera


def recorded(feed, folder):
    """The demo table's frames, each written to `folder` as it is handed to the camera,
    timed by its index (as a folder of images is replayed)."""
    folder.mkdir()
    for n, (_, frame) in enumerate(feed):
        cv2.imwrite(str(folder / f"{n:06d}.png"), frame, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        yield n / FPS, frame


def serve(tmp_path, game, seed, turns):
    """The service on the demo rig until `turns` turns were shown; the game's record."""
    args = Namespace(game=game, variant=None, data=str(tmp_path / "data"), host="127.0.0.1", port=0,
                     seed=seed, games=0, fast=True, turns=turns, no_mistake=True)
    config = demo_config(args)
    table = DemoTable(seed=seed, turns=turns, realtime=False, colours=config.camera.colours, mistake=False)
    service = Service(config, devices=False, camera=SyntheticCamera(recorded(table.frames(), tmp_path / "frames")))
    table.attach(service)
    service.start()
    try:
        assert table.finished.wait(240), "the demo table did not finish"
    finally:
        service.stop()
    assert not table.failed
    journal, _ = open_journal(tmp_path / "data")
    try:
        record = journal.export(max(g["id"] for g in journal.games()))
    finally:
        journal.close()
    (tmp_path / "record.json").write_text(json.dumps(record))
    (tmp_path / "referee.toml").write_text(f'[camera]\nfps = {FPS}\n\n[data]\nfolder = "{tmp_path / "data"}"\n')
    return record


def replay(tmp_path, game) -> list[dict]:
    out = subprocess.run([sys.executable, "-m", "controller.cli", "replay", str(tmp_path / "frames"), "--game", game,
                          "--json", "--config", str(tmp_path / "referee.toml"),
                          "--record", str(tmp_path / "record.json")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return [json.loads(line) for line in out.stdout.splitlines()]


def moves(events) -> list[tuple[str, str]]:
    return [(e["notation"], e["source"]) for e in events if e["type"] == "move"]


def near_the_link(data, seed):
    """A Super Mario Bros. game in the journal, played (typed) until Mario's next move
    lands on a link space of World 1."""
    rng = random.Random(seed)
    referee = Referee(*open_journal(data)[:1], Bus())
    referee.new_game("smb", rng=rng)
    game, setup, typed = referee.game, referee.setup, []
    state = referee.state
    while state.phase != "link":
        actions = [a for a in game.legal_actions(state) if type(a).__name__ in ("Move", "Pass", "Buy")]
        rolls = [a for a in game.legal_actions(state) if game.notation(state, a).startswith("roll ")
                 and game.notation(state, a) != "roll stop"]
        action = rng.choice(actions or rolls or game.legal_actions(state))
        typed.append(game.notation(state, action))
        state = game.apply(state, action)
    referee.journal.close()
    data.joinpath("journal.sqlite").unlink()
    for suffix in ("-wal", "-shm"):
        data.joinpath("journal.sqlite" + suffix).unlink(missing_ok=True)
    referee = Referee(*open_journal(data)[:1], Bus())
    referee.new_game("smb", setup=setup)
    for text in typed[:-1]:  # the last: onto the link space, for the players to make
        assert referee.enter(text, source="entry").kind == "move", text
    referee.journal.close()


def test_a_labyrinth_game_started_from_the_table_replays_as_it_was_served(tmp_path, monkeypatch):
    record = serve(tmp_path, "labyrinth", seed=3, turns=3)
    served = moves(record["events"])
    assert sum(source == "camera" for _, source in served) >= 3
    assert moves(replay(tmp_path, "labyrinth")) == served
    # the maze is read from the frames, the secret deal (targets) comes from the record:
    # the replay's game is the served one (the targets never show in its output)
    tables = []
    monkeypatch.setattr(table_module, "Table", lambda *a, **k: tables.append(Table(*a, **k)) or tables[-1])
    assert main(["replay", str(tmp_path / "frames"), "--game", "labyrinth", "--json", "--config",
                 str(tmp_path / "referee.toml"), "--record", str(tmp_path / "record.json")]) == 0
    setup = next(e for e in record["events"] if e["type"] == "game_started")["setup"]
    assert tables[0].referee.setup["rows"] == setup["rows"]
    assert tables[0].referee.setup["targets"] == setup["targets"]


def test_a_super_mario_bros_game_crossing_into_world_2_replays_as_it_was_served(tmp_path):
    (tmp_path / "data").mkdir()
    near_the_link(tmp_path / "data", seed=7)
    record = serve(tmp_path, "smb", seed=7, turns=3)
    served = moves(record["events"])
    assert any(n.startswith("move w2-") and source == "camera" for n, source in served), served
    replayed = replay(tmp_path, "smb")
    assert moves(replayed) == served
    assert [e for e in replayed if e["type"] == "illegal"] == []
