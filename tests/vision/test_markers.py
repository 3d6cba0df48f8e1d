"""The ArUco markers that name a board and its corners (vision/markers.py): each marker
drawn is found again with its id and corners, a printed sheet holds a board's four
markers each where it goes (bottom-left at the bottom left...), and the inner corner the
referee uses is the one that points at the playing area. The `referee markers` command and finding a
board by its markers: tests/vision/test_locate.py."""
import numpy as np
import pytest

from controller.registry import ENTRIES
from vision.markers import CORNER_NAMES, INNER_CORNER, detect, detector, marker_image, sheet


@pytest.mark.parametrize("marker_id", [0, 7, 24, 49])
def test_a_drawn_marker_is_found_with_its_id_and_its_corners(marker_id):
    img = marker_image(marker_id, 120)
    assert img.shape == (160, 160) and img[0, 0] == 255  # a white quiet zone of px/6 around it
    page = np.full((400, 400), 255, np.uint8)
    page[100:260, 150:310] = img
    found = detect(page, detector())
    assert list(found) == [marker_id]
    corners = found[marker_id]  # top-left, top-right, bottom-right, bottom-left of the black square
    assert np.allclose(corners, [[170, 120], [290, 120], [290, 240], [170, 240]], atol=2)


def test_a_page_without_markers_has_none():
    rng = np.random.default_rng(3)
    assert detect(rng.integers(0, 255, (300, 300), np.uint8)) == {}


@pytest.mark.parametrize("game", ["chess", "connect4"])
def test_a_sheet_puts_each_marker_at_its_corner_and_its_inner_corner_towards_the_board(game):
    ids = ENTRIES[game].markers
    page = sheet(game, ids, px=200)
    found = detect(page)
    assert set(found) == set(ids)
    centre = np.mean([c.mean(axis=0) for c in found.values()], axis=0)
    for position, name in enumerate(CORNER_NAMES):  # bottom-left, bottom-right, top-right, top-left
        middle = found[ids[position]].mean(axis=0)
        assert (middle[0] > centre[0]) == ("right" in name) and (middle[1] > centre[1]) == ("bottom" in name), name
        # the inner corner is the one nearest the middle of the four: it touches the playing area
        inner = found[ids[position]][INNER_CORNER[position]]
        nearest = min(found[ids[position]], key=lambda p: np.linalg.norm(p - centre))
        assert np.allclose(inner, nearest), name
