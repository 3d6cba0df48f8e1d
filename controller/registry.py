"""One entry per game: every part that makes a game refereed from the camera, by name.

An entry names the game's rules (controller/games/), the camera's reader of its board
(vision's READERS), its marker sheet, the renderer and the demo player that simulate its
table (controller/demo_rig/), and the page's drawing of its board
(web/static/draw/<game>.js, registering `window.drawings["<game>"]`). Parts are named as
"module:attribute" strings and imported only when used, so the service on a Pi never
loads the simulated table. tests/test_registry.py checks that every game has every part.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

WEB_STATIC = Path(__file__).resolve().parents[1] / "web" / "static"


def _load(ref: str):
    module, _, attr = ref.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attr) if attr else loaded


@dataclass(frozen=True)
class Entry:
    name: str
    rules: str  # the Game class
    renderer: str  # draws one camera frame of the table (the demo rig's, for tests and the demo)
    player: str  # the demo's simulated player
    starts_from_table: bool = False  # the start position is laid out at random by the players

    @property
    def drawing(self) -> Path:
        """The page's drawing of the board (web/static/draw/<game>.js)."""
        return WEB_STATIC / "draw" / f"{self.name}.js"

    def marker_ids(self, options: dict | None = None) -> tuple[int, ...]:
        """The four marker ids of the sheet in play: a World board's own (`options` as
        the game's `reader_options`), else the board type's."""
        from vision.markers import BOARD_MARKERS

        world = (options or {}).get("world")
        if world is not None:
            return tuple(world["markers"])
        return tuple(BOARD_MARKERS[self.name])

    def rules_class(self):
        return _load(self.rules)

    def renderer_function(self):
        return _load(self.renderer)

    def player_class(self):
        return _load(self.player)


ENTRIES = {e.name: e for e in (
    Entry("connect4", "controller.games.connect4:Connect4", "controller.demo_rig.render_connect4:render",
          "controller.demo_rig.players:Connect4Player"),
    Entry("chess", "controller.games.chess:Chess", "controller.demo_rig.render_chess:render",
          "controller.demo_rig.players:ChessPlayer"),
    Entry("labyrinth", "controller.games.labyrinth:Labyrinth", "controller.demo_rig.render_labyrinth:render",
          "controller.demo_rig.players:LabyrinthPlayer", starts_from_table=True),
    Entry("smb", "controller.games.smb:SuperMarioBros", "controller.demo_rig.render_track:render_smb_frame",
          "controller.demo_rig.players:SmbPlayer"),
    Entry("monopoly", "controller.games.monopoly:Monopoly", "controller.demo_rig.render_monopoly:render",
          "controller.demo_rig.players:MonopolyPlayer"),
)}


def entry(name: str) -> Entry:
    if name not in ENTRIES:
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(ENTRIES)}")
    return ENTRIES[name]
