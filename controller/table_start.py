"""Starting a game whose layout is random and lies on the table (Super Mario Labyrinth).

Why: the maze players lay out is their own shuffle, so a game drawn by the referee's
random source (`new_setup`) would not match the table. Instead the referee reads it:

1. the reader learns the colours from what every copy shows at the start, the 16 tiles
   printed on the board and the pawns on their corners (`game.printed_board()`);
2. from the first stable view after that, the sides of all 49 tiles are read and the
   treasure pictures cut out (`find_pictures`) and named by the copy's catalogue
   (`Catalogue.name_board`);
3. pictures the catalogue does not know wait for the admin to name them once on the
   status page's enrolment view (web/enrol.py); they are added to the catalogue, which
   is saved beside the journal, so the next game's layout is read without help;
4. `layout_rows` + `game.setup_from_layout` make the setup (the spare is the tile the
   set is missing; the cards are dealt from the referee's random source), and the
   service starts the game from it. The setup is journalled, so a resume rebuilds it.

A `TableStart` runs on the referee's thread (views and names arrive through the
service's inbox); the page's threads only read `public()`, which is replaced whole, never
changed in place.
"""
from __future__ import annotations

import random
import secrets
from pathlib import Path

import cv2
import numpy as np

from vision.read_tiles import cell_name
from vision.treasures import Catalogue, find_pictures, layout_rows
from vision.view import SURE  # a tile side read less surely than this: wait for a clearer view

from .i18n import translator

SHOWN_PX = 160  # a waiting picture's whole tile, as the page shows it to a person


def treasure_names() -> list[str]:
    """The 24 treasure names a picture may be given (the game's data file)."""
    from .games.labyrinth.maze import TILE_SET

    tiles = list(TILE_SET["fixed"].values()) + list(TILE_SET["movable"])
    return sorted(t.split(":", 1)[1] for t in tiles if ":" in t)


def tile_photo(frame: np.ndarray, to_plane: np.ndarray, cell: tuple[int, int], tile_px: int) -> np.ndarray:
    """One tile cut straight from the camera frame (`to_plane`: frame -> the reader's
    plane, where tiles are `tile_px` wide), SHOWN_PX square."""
    r, c = cell
    k = SHOWN_PX / tile_px
    tile = np.array([[k, 0, -c * SHOWN_PX], [0, k, -r * SHOWN_PX], [0, 0, 1]])
    return cv2.warpPerspective(frame, tile @ to_plane, (SHOWN_PX, SHOWN_PX), flags=cv2.INTER_CUBIC)


class TableStart:
    """A Labyrinth game waiting for its layout to be read from the table."""

    def __init__(self, catalogue_path: str | Path, rng: random.Random | None = None):
        self.path = Path(catalogue_path)
        self.rng = rng
        self.game = None  # the game (rules object) waiting for its layout; None when idle
        self.catalogue: Catalogue | None = None
        self._ = translator()  # the waiting game's translator (its table's language) once one begins
        self.message = self._("no game is waiting to start from the table")
        self._reading = None  # (tile sides, cell -> picture) of the last clear view
        self._deal: dict | None = None  # a recorded setup whose deal the maze read gets (a replay)
        self._waiting: dict[str, object] = {}  # cell name -> picture waiting for a name
        self._photos: dict[str, np.ndarray] = {}  # cell name -> its tile as the page shows it
        self._named: dict[str, str] = {}  # cell name -> treasure named by the catalogue
        self._public = self._snapshot("idle")

    @property
    def active(self) -> bool:
        return self.game is not None

    def public(self) -> dict:
        """What the enrolment view shows: state ("idle", "reading", "naming"), the message,
        the tiles whose picture waits for a name (cell -> BGR image), the names allowed
        and those the catalogue knows."""
        return self._public

    def _snapshot(self, state: str) -> dict:
        known = sorted(set(self.catalogue.names)) if self.catalogue is not None else []
        return {"state": state, "message": self.message,
                "pictures": {c: self._photos.get(c, pic) for c, pic in self._waiting.items()},
                "names": treasure_names(), "known": known}

    def _say(self, state: str, message: str) -> None:
        self.message = message
        self._public = self._snapshot(state)

    # --- steps (the referee's thread) ------------------------------------------------
    def begin(self, game, deal: dict | None = None) -> dict:
        """Wait for `game`'s layout; returns what the camera's reader learns from first.
        Raises ValueError when the catalogue file exists but cannot be read."""
        try:
            self.catalogue = Catalogue.load(self.path) if self.path.exists() else Catalogue()
        except ValueError as exc:
            raise ValueError(f"{exc}; move it away to name the pictures again") from None
        self.game, self._reading, self._waiting, self._named = game, None, {}, {}
        self._ = game._
        self._deal = deal
        self._say("reading", self._("reading the {game} maze from the table: lay it out with the pawns on "
                                    "their corners and keep hands off the board", game=game.title))
        return game.printed_board()

    def cancel(self) -> None:
        """Another game was started instead."""
        if self.active:
            self.game, self._reading, self._waiting = None, None, {}
            self._say("idle", self._("the start from the table was replaced by another game"))

    def take(self, plane, reader, frame=None, to_plane=None, learn=None) -> tuple | None:
        """A stable view of the table (the reader's plane; reading does not change the
        reader, so the camera's thread may go on using it): (game, setup) when the layout
        is complete, else None (`message` says what is missing). With the camera `frame`
        and its homography `to_plane`, the page shows each waiting tile at the camera's
        own resolution instead of the reader's small plane. `learn(expected)` asks the
        camera's watcher to learn again from the next still view."""
        sides = reader.read(plane)
        unsure = [cell_name(*cell) for cell, (_, conf) in sides.items()
                  if isinstance(cell, tuple) and conf < SURE]
        if unsure:
            self._say("reading", self._("waiting for a clear view of the maze: {cells} cannot be read surely",
                                        cells=", ".join(unsure[:8]) + (" ..." if len(unsure) > 8 else "")))
            return None
        # A pawn off its corner would hide a picture (and the game starts on the corners).
        # Away while the reader learned, its colour was learned from the wrong pixels: so
        # the reader learns again from each still view until every pawn is seen home.
        expected = self.game.printed_board()
        astray = [self._("{pawn} on {cell}", pawn=self.game.cell_name(key), cell=where) for key, where in expected.items()
                  if isinstance(key, str) and key.startswith("pawn:")
                  and (sides.get(key, ("unseen", 0.0))[0] != where or sides[key][1] < SURE)]
        if astray or reader.problems:
            self._say("reading", self._("waiting for the pawns on their start corners: {problems}",
                                        problems="; ".join(astray + list(reader.problems))))
            if learn is not None:
                learn(expected)
            return None
        pictures = find_pictures(plane, reader)
        self._reading = (sides, pictures)
        self._photos = {} if frame is None or to_plane is None else {
            cell_name(*rc): tile_photo(frame, to_plane, rc, reader.tile_px) for rc in pictures}
        return self._setup()

    def check(self, names: dict[str, str]) -> None:
        """Raise ValueError naming what is wrong with `names` (picture cell -> treasure)."""
        if not self.active:
            raise ValueError("no game is waiting to start from the table")
        if not names:
            raise ValueError("no names given")
        allowed = treasure_names()
        given: dict[str, str] = {}
        for cell, name in names.items():
            if cell not in self._waiting:
                waiting = ", ".join(sorted(self._waiting)) or "none"
                raise ValueError(f"no picture at {cell!r} waits for a name (waiting: {waiting})")
            if name not in allowed:
                raise ValueError(f"{cell}: {name!r} is not one of the {len(allowed)} treasures "
                                 f"({', '.join(allowed)})")
            if name in given:
                raise ValueError(f"{name} is given to both {given[name]} and {cell}")
            on = next((c for c, n in self._named.items() if n == name), None)
            if on is not None:
                raise ValueError(f"{cell}: {name} is already on {on}")
            given[name] = cell

    def enrol(self, names: dict[str, str]) -> tuple | None:
        """The admin's names for waiting pictures: into the catalogue, which is saved;
        then (game, setup) if the layout is now complete."""
        self.check(names)
        for cell, name in names.items():
            self.catalogue.enrol(self._waiting[cell], name)
        self.catalogue.save(self.path)
        return self._setup()

    def _setup(self) -> tuple | None:
        sides, pictures = self._reading
        named = self.catalogue.name_board(pictures)
        cells_of: dict[str, list[str]] = {}
        for cell, (name, _) in named.items():
            cells_of.setdefault(name, []).append(cell)
        twice = {c for cells in cells_of.values() if len(cells) > 1 for c in cells}
        self._named = {c: n for c, (n, _) in named.items() if c not in twice}
        self._waiting = {cell_name(*rc): pic for rc, pic in pictures.items() if cell_name(*rc) not in self._named}
        if self._waiting:
            n = len(self._waiting)
            self._say("naming", self._.n("{n} treasure picture needs a name ({cells} looked alike): open /enrol "
                                         "on the status page", "{n} treasure pictures need a name ({cells} looked "
                                         "alike): open /enrol on the status page", n, cells=", ".join(sorted(twice)))
                      if twice else self._.n("{n} treasure picture needs a name: open /enrol on the status page",
                                             "{n} treasure pictures need a name: open /enrol on the status page", n))
            return None
        rows = layout_rows(sides, {c: (n, 1.0) for c, n in self._named.items()})
        setup = self.game.setup_from_layout(rows, self.rng or random.Random(secrets.randbits(64)), deal=self._deal)
        try:
            self.game.start(setup)
        except ValueError as exc:  # read, but not playable: say so and keep looking
            self._say("reading", self._("the maze read from the table cannot be played: {why}", why=exc))
            return None
        game, self.game, self._reading = self.game, None, None
        self._say("idle", self._("{game} started from the layout on the table", game=game.title))
        return game, setup
