"""The treasure catalogue: which picture is on a Labyrinth tile.

Every copy of the game has its own 24 pictures, and nobody here has seen them, so the
referee does not ship a model of them: it builds a catalogue once per copy. Enrolment:
with a board laid out under the camera, `find_pictures` cuts out the middle of every
tile that shows a picture and `Catalogue.unknown` lists those the catalogue cannot name
yet; the status page shows each one and the user types its name once (`enrol`). After
that, `recognise` names the pictures of any new layout without help, so a new game's
setup is read from the board alone (`layout_rows` writes it as the setup's text rows).

Pictures are compared as small normalised colour images (CIE Lab, 32x32) by OpenCV's
normalised correlation coefficient (`cv2.matchTemplate`, TM_CCOEFF_NORMED), which does
not care about the light level or contrast. A movable tile may lie turned any way, so
each stored picture is tried in its four quarter turns. The confidence is how much
of the gap between the next best name's fit and a perfect fit the best name closes.

A catalogue is saved as one .npz file (pictures and names) beside the journal.
"""
from __future__ import annotations

import os
import zipfile
from pathlib import Path

import cv2
import numpy as np

from .read_tiles import SIZE, board_lab, cell_name

PICTURE_PX = 32
CROP = 0.56  # the middle of a tile, as a share of its side, where the picture is
SHIFT = 4  # pixels (of PICTURE_PX) a picture may be off the tile's middle
MIN_SCORE = 0.5  # a best correlation below this names nothing
PICTURE_SHARE = 0.12  # share of a tile's middle unlike the path: the tile shows a picture


def tile_middle(plane_bgr: np.ndarray, row: int, col: int, tile_px: int) -> np.ndarray:
    """The middle of one tile of a tile-area plane (TileReader's plane)."""
    half = int(tile_px * CROP / 2)
    cy, cx = int((row + 0.5) * tile_px), int((col + 0.5) * tile_px)
    return plane_bgr[cy - half:cy + half, cx - half:cx + half]


def find_pictures(plane_bgr: np.ndarray, reader) -> dict[tuple[int, int], np.ndarray]:
    """Cell -> the middle of each tile that shows a picture: enough of its middle is
    unlike the path and the hedge colours the reader learned. Cells the reader sees a
    pawn on are left out (a pawn hides a picture; at setup the pawns stand on their
    start corners, which carry none)."""
    if reader.path is None:
        raise ValueError("find_pictures: the tile reader has not learned the board's colours yet")
    seen = reader.read(plane_bgr)
    pawns = {lab for key, (lab, _) in seen.items() if isinstance(key, str) and key.startswith("pawn:")}
    out = {}
    for r in range(SIZE):
        for c in range(SIZE):
            if cell_name(r, c) in pawns:
                continue
            middle = tile_middle(plane_bgr, r, c, reader.tile_px)
            unlike = reader.unlike_board(board_lab(middle).reshape(-1, 3))
            if unlike.mean() >= PICTURE_SHARE:
                out[(r, c)] = middle
    return out


def _normalise(picture_bgr: np.ndarray) -> np.ndarray:
    if picture_bgr is None or picture_bgr.ndim != 3 or min(picture_bgr.shape[:2]) < 4:
        raise ValueError("a treasure picture must be a colour image of at least 4x4 pixels")
    small = cv2.resize(picture_bgr, (PICTURE_PX, PICTURE_PX), interpolation=cv2.INTER_AREA)
    return board_lab(small)


class Catalogue:
    """Named pictures of one copy of the game."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.pictures: list[np.ndarray] = []  # normalised, one per enrolment

    def __len__(self) -> int:
        return len(self.names)

    def enrol(self, picture_bgr: np.ndarray, name: str) -> None:
        """Store a picture under the name the user gave it (a second picture of the same
        name is kept too: a different light or camera)."""
        name = name.strip()
        if not name:
            raise ValueError("a treasure needs a name")
        picture = _normalise(picture_bgr)  # refused before anything is kept: names and pictures stay paired
        self.names.append(name)
        self.pictures.append(picture)

    def scores(self, picture_bgr: np.ndarray) -> dict[str, float]:
        """Name -> the best correlation of the picture with that name's pictures, over
        the four quarter turns."""
        probe = _normalise(picture_bgr)
        turns = [np.ascontiguousarray(np.rot90(probe, q)) for q in range(4)]
        m = SHIFT
        best: dict[str, float] = {}
        for name, ref in zip(self.names, self.pictures):
            core = np.ascontiguousarray(ref[m:-m, m:-m])  # slid over the probe: a crop a few pixels off still fits
            score = max(float(cv2.matchTemplate(t, core, cv2.TM_CCOEFF_NORMED).max()) for t in turns)
            best[name] = max(score, best.get(name, -1.0))
        return best

    def recognise(self, picture_bgr: np.ndarray) -> tuple[str | None, float]:
        """(name, confidence), or (None, 0.0) when nothing in the catalogue fits."""
        scores = sorted(self.scores(picture_bgr).items(), key=lambda kv: -kv[1])
        if not scores or scores[0][1] < MIN_SCORE:
            return None, 0.0
        best = scores[0][1]
        runner_up = max(scores[1][1], 0.0) if len(scores) > 1 else 0.0
        # how much of the gap between the runner-up and a perfect fit the best closes
        return scores[0][0], float(np.clip((best - runner_up) / max(1.0 - runner_up, 1e-6), 0.0, 1.0))

    def unknown(self, pictures: dict, min_confidence: float = 0.5) -> dict:
        """The pictures (cell -> image) the catalogue cannot name surely: what the
        enrolment page shows for naming."""
        return {cell: pic for cell, pic in pictures.items()
                if self.recognise(pic)[1] < min_confidence}

    def name_board(self, pictures: dict, min_confidence: float = 0.5) -> dict[str, tuple[str, float]]:
        """Cell name ('c1') -> (treasure name, confidence) for every picture named surely."""
        out = {}
        for (r, c), pic in pictures.items():
            name, conf = self.recognise(pic)
            if name is not None and conf >= min_confidence:
                out[cell_name(r, c)] = (name, conf)
        return out

    # --- storage -------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """Written whole beside the old file, then put in its place (os.replace): a power
        cut leaves the old catalogue or the new one, never half of one."""
        path = Path(path)
        temp = path.with_name(path.name + ".new")
        with open(temp, "wb") as f:
            np.savez_compressed(f, names=np.array(self.names, dtype=str),
                                pictures=np.stack(self.pictures) if self.pictures
                                else np.zeros((0, PICTURE_PX, PICTURE_PX, 3), np.float32))
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)

    @classmethod
    def load(cls, path: str | Path) -> "Catalogue":
        try:
            with np.load(path, allow_pickle=False) as data:
                names, pictures = list(data["names"]), list(data["pictures"])
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise ValueError(f"{path}: not a treasure catalogue ({exc})") from exc
        cat = cls()
        cat.names, cat.pictures = [str(n) for n in names], pictures
        return cat


def layout_rows(seen: dict, named: dict) -> list[str]:
    """The maze as the setup's text rows ('ES NS ESW:Mario ...'), from a tile reading
    (cell -> ('tile:ESW', confidence)) and the pictures named by `Catalogue.name_board`
    (cell name -> (treasure, confidence)): what the rules' setup_from_layout takes."""
    rows = []
    for r in range(SIZE):
        tokens = []
        for c in range(SIZE):
            label = seen[(r, c)][0]
            name = named.get(cell_name(r, c))
            tokens.append(label.removeprefix("tile:") + (f":{name[0]}" if name else ""))
        rows.append(" ".join(tokens))
    return rows
