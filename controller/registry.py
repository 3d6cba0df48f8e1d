"""One entry per game: the only table in the project that knows the games by name.

An entry names every part that makes a game refereed from the camera:
- `rules`: the Game class (controller/games/), pure rules; its `layout()` is the printed
  board the page draws beside the snapshot;
- `reader`: the camera's reader of its board (vision/, a vision.reader.Reader), which
  the Watcher is handed: vision keeps no table of games;
- `markers`: the four ArUco ids of its marker sheet (BL, BR, TR, TL; a game with several
  sheets, the Super Mario Bros. Worlds, has its reader name the sheet in play);
- `exports`: the formats a game is written in besides JSON (PGN for chess), each with the
  function that writes it from the journal, for `referee export`, the page and the hall;
- `player`: the demo's simulated player, which draws the table as a camera sees it
  (controller/demo_rig/players/<game>.py);
- the page's drawing, web/static/draw/<game>.js, registering `window.drawings["<game>"]`.

Parts are named as "module:attribute" strings and imported only when used, so the
service on a Pi never loads the simulated table. tests/controller/test_registry.py holds
the contract every entry meets. A new game is a rules module, a reader, a drawing, a
demo player and one line here (docs/design.md).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from vision.view import STILL_S

WEB_STATIC = Path(__file__).resolve().parents[1] / "web" / "static"


def _load(ref: str):
    module, _, attr = ref.partition(":")
    loaded = importlib.import_module(module)
    return getattr(loaded, attr) if attr else loaded


@dataclass(frozen=True)
class Export:
    """A format a game is written in besides JSON: `writer(journal, game_id, headers)`
    returns the text (`headers`: what the hall adds, which table and round)."""

    fmt: str  # the file extension: export.<fmt>, round-N.<fmt>
    writer: str
    mimetype: str

    def write(self, journal, game_id: int, headers: dict | None = None) -> str:
        return _load(self.writer)(journal, game_id, headers)


@dataclass(frozen=True)
class Entry:
    name: str
    rules: str  # the Game class
    reader: str  # the camera's reader class of the board
    markers: tuple[int, int, int, int]  # the marker sheet's ids, BL, BR, TR, TL
    player: str  # the demo's simulated player (it draws the table it plays on)
    starts_from_table: bool = False  # the start position is laid out at random by the players
    exports: tuple[Export, ...] = ()
    simulation: str | None = None  # `referee simulate`: "module:run", run(args) -> figures; None: none

    def simulate(self, args) -> dict:
        """Whole games with random legal choices (`referee simulate`): the figures."""
        if self.simulation is None:
            raise ValueError(f"no simulation for {self.name}")
        return _load(self.simulation)(args)

    @property
    def drawing(self) -> Path:
        """The page's drawing of the board (web/static/draw/<game>.js)."""
        return WEB_STATIC / "draw" / f"{self.name}.js"

    def rules_class(self):
        return _load(self.rules)

    def player_class(self):
        return _load(self.player)

    def make_reader(self, colours=None, **options):
        """The camera's reader of this board (`options`: the game's `reader_options`, the
        sheet in play). ValueError when the reader cannot be loaded here."""
        try:
            reader_class = _load(self.reader)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"the camera reader for {self.name!r} ({self.reader}) is not available: {exc}") from None
        return reader_class(colours=colours, **options)

    def watcher(self, *, colours=None, corners=None, still_s: float = STILL_S, options: dict | None = None,
                reader=None):
        """The camera's Watcher of this board, handed its reader (`reader`, or one built
        for the sheet `options` in `colours`) and the markers of that sheet. ValueError
        for bad corners or a reader that cannot be loaded."""
        from vision.watch import Watcher

        reader = reader or self.make_reader(colours, **(options or {}))
        return Watcher(self.name, reader, self.marker_ids(reader), corners=corners or None, still_s=still_s,
                       reader_options=options or None)

    def marker_ids(self, reader=None) -> tuple[int, ...]:
        """The four marker ids of the sheet in play: the one `reader` reads when the
        board has several sheets, else the board's own."""
        return tuple(getattr(reader, "markers", ()) or self.markers)

    def export(self, fmt: str) -> Export | None:
        """The format `fmt` of this game (None: the game is not written so)."""
        return next((e for e in self.exports if e.fmt == fmt), None)


ENTRIES = {e.name: e for e in (
    Entry("connect4", "controller.games.connect4:Connect4", "vision.read_holes:HoleReader", (0, 1, 2, 3),
          "controller.demo_rig.players.connect4:Connect4Player"),
    Entry("chess", "controller.games.chess.rules:Chess", "vision.read_squares:SquareReader", (4, 5, 6, 7),
          "controller.demo_rig.players.chess:ChessPlayer", exports=(Export("pgn", "controller.pgn:export_pgn", "application/x-chess-pgn"),)),
    Entry("labyrinth", "controller.games.labyrinth.rules:Labyrinth", "vision.read_tiles:TileReader", (8, 9, 10, 11),
          "controller.demo_rig.players.labyrinth:LabyrinthPlayer", starts_from_table=True),
    Entry("smb", "controller.games.smb.rules:SuperMarioBros", "vision.read_spaces:SmbSpaceReader", (12, 13, 14, 15),
          "controller.demo_rig.players.smb:SmbPlayer", simulation="controller.simulations.smb:run"),
    Entry("monopoly", "controller.games.monopoly.rules:Monopoly", "vision.read_monopoly:MonopolyReader", (16, 17, 18, 19),
          "controller.demo_rig.players.monopoly:MonopolyPlayer", simulation="controller.simulations.monopoly:run"),
)}


FORMATS = ("json", *sorted({x.fmt for e in ENTRIES.values() for x in e.exports}))  # what `referee export` writes
SIMULATED = tuple(name for name, e in ENTRIES.items() if e.simulation)  # what `referee simulate` plays


def entry(name: str) -> Entry:
    if name not in ENTRIES:
        raise ValueError(f"unknown game {name!r}; expected one of {', '.join(ENTRIES)}")
    return ENTRIES[name]
