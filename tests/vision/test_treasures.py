"""The treasure catalogue (vision/treasures.py): pictures named once by the user are
named again however the tile lies (any quarter turn, a few pixels off, another size,
another light), a picture never enrolled is listed for naming instead of given a wrong
name, the catalogue survives a save and a load, bad input is refused in words, and a
reading is written as the setup's text rows. Pictures are the demo rig's stand-ins
(controller/demo_rig/render_labyrinth.py); a whole board read from rendered frames:
tests/vision/test_read_tiles.py."""
import cv2
import numpy as np
import pytest

from controller.demo_rig.render_labyrinth import DEFAULT_NAMES, draw_symbol
from vision.treasures import Catalogue, layout_rows

NAMES = DEFAULT_NAMES[:12]


def seen_as(picture: np.ndarray, quarter_turns: int, shift: tuple[int, int], px: int, light: float,
            rng: np.random.Generator) -> np.ndarray:
    """The picture as a camera gives it: turned, off the tile's middle, resized, dimmer, noisy."""
    turned = np.rot90(picture, quarter_turns)
    moved = np.roll(turned, shift, axis=(0, 1))
    small = cv2.resize(moved, (px, px), interpolation=cv2.INTER_AREA).astype(np.float32) * light
    return np.clip(small + rng.normal(0, 2.0, small.shape), 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def catalogue():
    cat = Catalogue()
    for name in NAMES[:-1]:  # the last is never enrolled
        cat.enrol(draw_symbol(name, 60), name)
    return cat


@pytest.mark.parametrize("quarter_turns", [0, 1, 2, 3])
def test_an_enrolled_picture_is_named_however_the_tile_lies(catalogue, quarter_turns):
    rng = np.random.default_rng(quarter_turns)
    for name in NAMES[:-1]:
        picture = seen_as(draw_symbol(name, 60), quarter_turns, (2, -2), int(rng.integers(36, 80)), 0.8, rng)
        named, confidence = catalogue.recognise(picture)
        assert named == name and confidence >= 0.5, (name, named, confidence)


def test_a_picture_never_enrolled_is_listed_for_naming_not_named_wrongly(catalogue):
    rng = np.random.default_rng(5)
    pictures = {(0, 2): seen_as(draw_symbol(NAMES[0], 60), 1, (0, 0), 50, 1.0, rng),
                (3, 3): seen_as(draw_symbol(NAMES[-1], 60), 0, (0, 0), 50, 1.0, rng)}
    assert set(catalogue.unknown(pictures)) == {(3, 3)}
    assert {cell: name for cell, (name, _) in catalogue.name_board(pictures).items()} == {"c1": NAMES[0]}


def test_a_catalogue_is_the_same_after_a_save_and_a_load(catalogue, tmp_path):
    path = tmp_path / "treasures.npz"
    catalogue.save(path)
    loaded = Catalogue.load(path)
    assert loaded.names == catalogue.names and len(loaded) == len(NAMES) - 1
    assert [p.name for p in tmp_path.iterdir()] == ["treasures.npz"]  # nothing half-written left beside it
    probe = draw_symbol(NAMES[3], 44)
    assert loaded.recognise(probe) == catalogue.recognise(probe)
    Catalogue().save(path)  # an empty catalogue replaces it whole
    assert len(Catalogue.load(path)) == 0 and Catalogue.load(path).recognise(probe) == (None, 0.0)


def test_catalogue_refuses_bad_input(tmp_path):
    cat = Catalogue()
    with pytest.raises(ValueError, match="needs a name"):
        cat.enrol(np.zeros((20, 20, 3), np.uint8), "  ")
    with pytest.raises(ValueError, match="colour image"):
        cat.enrol(np.zeros((20, 20), np.uint8), "Mario")
    with pytest.raises(ValueError, match="at least 4x4 pixels"):
        cat.enrol(np.zeros((3, 20, 3), np.uint8), "Mario")
    (tmp_path / "junk.npz").write_bytes(b"not a catalogue")
    with pytest.raises(ValueError, match=f"^{tmp_path / 'junk.npz'}: not a treasure catalogue"):
        Catalogue.load(tmp_path / "junk.npz")
    assert cat.recognise(draw_symbol("Mario", 30)) == (None, 0.0)
    assert len(cat) == 0  # nothing refused was kept: a name kept without its picture named the next one wrongly
    cat.enrol(draw_symbol("Luigi", 40), "Luigi")
    assert cat.recognise(draw_symbol("Luigi", 40))[0] == "Luigi"


def test_a_reading_is_written_as_the_setup_s_rows():
    seen = {(r, c): ("tile:" + ("NS" if c % 2 else "ESW"), 0.9) for r in range(7) for c in range(7)}
    named = {"a1": ("Mario", 0.8), "g7": ("Bowser", 0.7)}
    rows = layout_rows(seen, named)
    assert len(rows) == 7 and rows[0] == "ESW:Mario NS ESW NS ESW NS ESW"
    assert rows[6] == "ESW NS ESW NS ESW NS ESW:Bowser"
