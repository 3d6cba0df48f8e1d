"""The contract every game's registry entry meets, so a new game is its own modules and
one entry: its rules, its camera reader of the board the rules name, a marker sheet no
other board shares, a printed layout the page can draw, its export formats, a demo
player, the page's drawing. And the registry is the only table of games: no module but
a game's own compares a game's name. The layers import only downwards: vision opens
nothing of the controller's, the controller never imports web."""
import ast
import json
import random
import re
from pathlib import Path

import pytest

from controller.demo_rig.players.base import Player
from controller.games.base import Game
from controller.registry import ENTRIES, FORMATS, SIMULATED
from vision.reader import Reader

ROOT = Path(__file__).resolve().parents[2]
DICT_4X4_50 = range(50)


def _started(e):
    game = e.rules_class()(None, None)
    return game, game.start(game.new_setup(random.Random(1)))


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_rules_are_a_game_of_that_name(name):
    rules = ENTRIES[name].rules_class()
    assert issubclass(rules, Game) and rules.name == name and rules.title and rules.variants


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_reader_reads_cells_the_rules_name(name):
    """The reader of the sheet in play reads cells of the game's board, and only those
    (the rules may name more: the other World boards, Labyrinth's spare tile in hand)."""
    e = ENTRIES[name]
    game, state = _started(e)
    reader = e.make_reader(None, **game.reader_options(state))
    assert isinstance(reader, Reader) and reader.cells
    assert set(reader.cells) <= set(game.board(state)), "the camera reads a cell the rules do not know"


def _sheets(e) -> list[tuple[int, ...]]:
    """The marker ids of each of the game's board sheets (one, or a World board each)."""
    game = e.rules_class()(None, None)
    sheets = [e.marker_ids()]
    for n in range(1, 20):
        try:
            _, options = game.sheet(n)
        except ValueError:
            continue
        sheets.append(e.marker_ids(e.make_reader(**options)))
    return sheets


def test_every_board_sheet_has_four_markers_of_its_own():
    seen: dict[int, str] = {}
    for name, e in ENTRIES.items():
        for ids in _sheets(e):
            assert len(set(ids)) == 4 and all(i in DICT_4X4_50 for i in ids), f"{name}: {ids}"
            for i in ids:
                assert seen.get(i, name) == name, f"marker {i} is on a {seen.get(i)} sheet and a {name} one"
                seen[i] = name


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_layout_the_page_draws_is_json_and_given_where_the_drawing_asks_for_it(name):
    e = ENTRIES[name]
    layout = e.rules_class()(None, None).layout()
    assert isinstance(layout, dict) and json.loads(json.dumps(layout)) == layout
    drawing = e.drawing.read_text(encoding="utf-8")
    assert bool(layout) == ("layout(snap" in drawing), "a drawing that fetches /api/layout needs the game's layout()"


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_export_formats_are_named_and_load(name):
    for export in ENTRIES[name].exports:
        assert export.fmt in FORMATS and export.fmt != "json" and "/" in export.mimetype
        module, _, attr = export.writer.partition(":")
        assert callable(getattr(__import__(module, fromlist=[attr]), attr))


def test_simulate_offers_only_the_games_whose_entry_names_a_simulation(capsys):
    """`referee simulate --game` lists the games that have one (named in the registry, not
    found by a module name), and each it names loads."""
    from controller.cli import main

    assert SIMULATED == ("smb", "monopoly")
    for name in SIMULATED:
        module, _, attr = ENTRIES[name].simulation.partition(":")
        assert callable(getattr(__import__(module, fromlist=[attr]), attr))
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    offered = re.search(r"--game \{([^}]*)\}", capsys.readouterr().out)[1]
    assert offered.split(",") == list(SIMULATED)
    with pytest.raises(SystemExit) as refused:
        main(["simulate", "--game", "chess"])
    assert refused.value.code == 2 and "invalid choice: 'chess'" in capsys.readouterr().err


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_demo_player_plays_a_variant_of_the_game(name):
    e = ENTRIES[name]
    player = e.player_class()
    assert issubclass(player, Player)
    assert player.variant is None or player.variant in e.rules_class().variants


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_game_has_its_drawing_on_the_page(name):
    text = ENTRIES[name].drawing.read_text(encoding="utf-8")
    assert f'window.drawings["{name}"]' in text or f"window.drawings.{name} =" in text


def _own_modules(name: str) -> set[Path]:
    """A game's own files: those its entry names, and those named after it."""
    e = ENTRIES[name]
    named = [e.rules, e.reader, e.player, *(x.writer for x in e.exports)]
    own = {ROOT / (ref.partition(":")[0].replace(".", "/") + ".py") for ref in named}
    own.add(e.drawing)
    return own | set(ROOT.glob(f"*/**/{name}*"))


def test_no_module_but_a_games_own_compares_its_name():
    """The registry is the only per-game table: a name compared in the page's script, the
    web API or the referee (`== "chess"`) is a second table that drifts."""
    names = "|".join(ENTRIES)
    compared = re.compile(rf"""(==|!=|===|!==)\s*["']({names})["']|["']({names})["']\s*(==|!=|===|!==)""")
    found = []
    for folder in ("controller", "vision", "web", "bench"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".js", ".html") or path.name == "registry.py":
                continue
            for m in compared.finditer(path.read_text(encoding="utf-8")):
                game = m.group(2) or m.group(3)
                if path not in _own_modules(game):
                    found.append(f"{path.relative_to(ROOT)}: {m.group(0)}")
    assert found == []


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


def test_vision_keeps_no_table_of_games():
    """The watcher is handed its reader and markers: vision names no game."""
    for path in (ROOT / "vision").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(rf"""["']({"|".join(ENTRIES)})["']\s*:""", text), path.name


def test_the_controller_does_not_import_web():
    assert [i for i in _imports("controller") if i[1].split(".")[0] == "web"] == []
