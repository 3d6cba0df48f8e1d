"""Every game has every part (rules, camera reader, marker sheet, renderer, demo player,
the page's drawing), all hanging off one registry entry; and the layers import only
downwards: vision opens nothing of the controller's, the controller never imports web."""
import ast
import random
from pathlib import Path

import pytest

from controller.demo_rig.players import Player
from controller.games.base import Game
from controller.registry import ENTRIES
from vision.reader import Reader
from vision.watch import load_reader

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_game_has_every_part(name):
    e = ENTRIES[name]
    assert issubclass(e.rules_class(), Game)
    game = e.rules_class()(None, None)
    options = game.reader_options(game.start(game.new_setup(random.Random(1))))
    reader = load_reader(name, None, **options)
    assert isinstance(reader, Reader) and len(reader.cells) > 0
    assert len(set(e.marker_ids(options))) == 4
    assert callable(e.renderer_function())
    assert issubclass(e.player_class(), Player)


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_game_has_its_drawing_on_the_page(name):
    drawing = ENTRIES[name].drawing
    text = drawing.read_text(encoding="utf-8")
    assert f'window.drawings["{name}"]' in text or f"drawings.{name}" in text


def _imports(folder: str) -> list[tuple[str, str]]:
    out = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                out += [(path.name, a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                out.append((path.name, node.module))
    return out


def test_vision_imports_and_opens_nothing_of_the_controller():
    assert [i for i in _imports("vision") if i[1].split(".")[0] in ("controller", "web")] == []
    assert not any('"controller"' in p.read_text(encoding="utf-8") for p in (ROOT / "vision").glob("*.py"))


def test_the_controller_does_not_import_web():
    assert [i for i in _imports("controller") if i[1].split(".")[0] == "web"] == []
