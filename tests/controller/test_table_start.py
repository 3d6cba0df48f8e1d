"""Issue 13 #2: a Labyrinth start that fails leaves no made-up maze in the journal, and a
damaged treasure catalogue is named without stopping `serve`; the catalogue is written
whole or not at all. Real Service, SQLite journal, .npz files and folders of images."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.cli import main
from support import offline_config
from controller.journal import Journal
from controller.service import Service
from vision.treasures import Catalogue


def labyrinth_config(tmp_path, source):
    return offline_config(tmp_path, source, game="labyrinth")


def test_a_first_start_that_fails_on_the_camera_journals_no_maze(tmp_path, capsys):
    """The journal held a `game_started` with a random maze, which the next start resumed."""
    config = tmp_path / "referee.toml"
    config.write_text(f'[game]\nname = "labyrinth"\n[camera]\nsource = "{tmp_path / "no-such-camera"}"\n'
                      f'[gpio]\nfactory = "mock"\n[die_module]\nport = "off"\n'
                      f'[data]\nfolder = "{tmp_path / "data"}"\n')
    assert main(["serve", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert "cannot start" in err and "no-such-camera" in err
    journal = Journal(tmp_path / "data" / "journal.sqlite")
    assert journal.games() == []
    journal.close()


def catalogue(n=3) -> Catalogue:
    rng = np.random.default_rng(1)
    cat = Catalogue()
    for i in range(n):
        cat.enrol(rng.integers(0, 255, (40, 40, 3), dtype=np.uint8), f"treasure {i}")
    return cat


def test_a_truncated_catalogue_is_named_and_serve_goes_on(tmp_path):
    """It stopped `serve` with "File is not a zip file", naming no file."""
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "table.png"), np.full((360, 640, 3), 90, np.uint8))
    path = tmp_path / "data" / "treasures.npz"
    path.parent.mkdir()
    catalogue().save(path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    with pytest.raises(ValueError, match="treasures.npz: not a treasure catalogue"):
        Catalogue.load(path)
    service = Service(labyrinth_config(tmp_path, frames), devices=False)
    try:
        notes = service.status()["notes"]
        assert any(str(path) in n and "move it away" in n for n in notes), notes
    finally:
        service.stop()


def test_the_catalogue_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch):
    path = tmp_path / "treasures.npz"
    catalogue(2).save(path)
    assert len(Catalogue.load(path)) == 2

    def power_cut(*args, **kwargs):
        args[0].write(b"PK\x03\x04 half a zip")
        raise OSError("power cut")

    monkeypatch.setattr(np, "savez_compressed", power_cut)
    with pytest.raises(OSError):
        catalogue(3).save(path)
    assert len(Catalogue.load(path)) == 2  # the old one, whole
    monkeypatch.undo()
    catalogue(3).save(path)
    assert len(Catalogue.load(path)) == 3 and not (tmp_path / "treasures.npz.new").exists()
