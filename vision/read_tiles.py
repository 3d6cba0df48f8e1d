"""The Labyrinth reader: which sides of each of the 49 tiles are open, and where each
pawn stands, with a confidence.

The plane is the 7x7 tile area seen from above, TILE_PX pixels per tile, the top edge
being the one with the arrows N2, N4, N6; marker inner corners (or given corners:
bottom-left, bottom-right, top-right, top-left) are the corners of the tile area.

Sides. A tile's side is open when the path reaches its edge. The reader looks at a small
patch just inside the middle of each edge (away from the picture in the middle and the
pawns' spots) and takes its median colour, in CIE Lab with lightness counting half. What
a path and a hedge look like is learned at game start from the known layout: every one of
the 196 patches is then known to be path or hedge, which gives both colours and how much
they vary on this board under this light. Each reading first lets the two colours follow
the light (two rounds of two-means started from the learned colours), then calls every
patch by the nearer colour; a patch like neither (a hand, a shadow) makes its tile
unsure instead of wrong.

Pawns. Their colours are learned from the start position (each pawn on its start corner:
the core of the blob there that is neither path nor hedge), and so are the colours of
the pictures on the tiles (k-means over everything else that is neither). A pixel is a
pawn's when that pawn's colour is the nearest of all learned colours and within the
spread its own pixels showed; blobs too small to be a pawn are dropped, and a blob much
bigger than a pawn (a sleeve of that colour) makes the pawn unsure. Each pawn is on the
cell holding most of its pixels, and the confidence says how much of its learned size is
seen there and how clearly no other cell holds it. Pawns sharing a cell are counted
separately, colour by colour. When the light changes, the learned colours are scaled by
how much the path's lightness changed.

Labels match controller/games/labyrinth/camera.py's `board`: ``tile:NES`` for cell (row, col),
and ``pawn:<colour>`` -> the cell's name (a-g from the left, 1-7 from the top), or
``unseen`` when the pawn is not found (a hand over it).
"""
from __future__ import annotations

import cv2
import numpy as np

from .reader import Reader

SIZE = 7
TILE_PX = 40
PAWNS = ("red", "yellow", "green", "blue")
SIDES = "NESW"
LIGHTNESS_WEIGHT = 0.5
MIN_SPREAD = 3.0  # Lab units: no colour model is sharper than a camera's noise
UNLIKE_SIGMAS = 4.0  # a pixel this many spreads from path and hedge is something else
SIDE_SIGMAS = 2.5  # an edge patch further than this from the colour it is called by is doubtful
FOLLOW_SIGMAS = 12.0  # how far the light may move the colours between learning and reading
PICTURE_CLUSTERS = 10  # colours learned from the pictures, so they are not taken for pawns
PAWN_MIN_SHARE = 0.25  # of a pawn's learned size: less than this seen, and it is unseen
PAWN_MAX_SHARE = 2.0  # a blob of a pawn's colour bigger than this (of its size) is no pawn


def cell_name(row: int, col: int) -> str:
    return "abcdefg"[col] + str(row + 1)


def _patch_boxes(t: int) -> dict[str, tuple[int, int, int, int]]:
    """Per side, the patch (y0, y1, x0, x1) in tile pixels: at the edge's middle, a tenth
    of a tile inside it, so a board placed a few pixels off (a strip of the table along
    the plane's edge, a tile border line) does not fall into it."""
    a, b = int(t * 0.10), int(t * 0.22)
    lo, hi = int(t * 0.39), int(np.ceil(t * 0.61))
    return {"N": (a, b, lo, hi), "S": (t - b, t - a, lo, hi), "W": (lo, hi, a, b), "E": (lo, hi, t - b, t - a)}


def _corner_boxes(t: int) -> list[tuple[int, int, int, int]]:
    """The four corner squares (y0, y1, x0, x1) of a tile, which are hedge on every
    Labyrinth tile: straight, corner and T alike."""
    a, b = int(t * 0.05), int(t * 0.25)
    return [(a, b, a, b), (a, b, t - b, t - a), (t - b, t - a, a, b), (t - b, t - a, t - b, t - a)]


def board_lab(plane_bgr: np.ndarray) -> np.ndarray:
    """Lab as float32 (L on 0-100, then weighted by LIGHTNESS_WEIGHT; a and b around 0),
    so that Euclidean distances are the reader's colour distances."""
    arr = cv2.cvtColor(np.ascontiguousarray(plane_bgr), cv2.COLOR_BGR2Lab).astype(np.float32)
    arr[..., 0] *= 100.0 / 255.0 * LIGHTNESS_WEIGHT
    arr[..., 1:] -= 128.0
    return arr


def _clusters(pixels: np.ndarray, k: int) -> np.ndarray:
    """k colour centres of the pixels (OpenCV's k-means, seeded so readings repeat)."""
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(0)
    _, _, centres = cv2.kmeans(np.float32(pixels), k, None, crit, 2, cv2.KMEANS_PP_CENTERS)
    return centres


CORNERS = ("a1", "g1", "a7", "g7")  # the pawns' start corners, no picture on them


class TileReader(Reader):
    """Reader for a Labyrinth board (the reader interface of vision/watch.py)."""

    grid = (SIZE, SIZE)
    lines_move = True  # a tile pushed in shifts a whole row or column

    def grid_place(self, cell):
        """Tiles by (row from the top, column); a pawn has no place of its own."""
        return (cell[1], cell[0]) if isinstance(cell, tuple) else None

    def __init__(self, colours=None, tile_px: int = TILE_PX, pawns=PAWNS):
        """`colours` (config's "#rrggbb" list, the reader interface of vision/watch.py)
        is not needed: tile and pawn colours are learned from the start position.
        `pawns` are the pawn names, as in the rules' `pawn:<name>` keys."""
        self.tile_px = t = tile_px
        self.plane_size = (SIZE * t, SIZE * t)
        w, h = self.plane_size
        self.anchors = np.float32([[0, h], [w, h], [w, 0], [0, 0]])  # BL, BR, TR, TL
        self.colours = tuple(pawns)
        self.cells = [(r, c) for r in range(SIZE) for c in range(SIZE)] + [f"pawn:{c}" for c in self.colours]
        # flat pixel indices of the 196 side patches (cell k // 4, side k % 4) and of the
        # 196 corner squares (cell k // 4)
        boxes = _patch_boxes(t)
        self._patches = self._gather([boxes[side] for side in SIDES])
        self._corners = self._gather(_corner_boxes(t))
        # what never changes in play: the corners of the 16 tiles printed on the board
        # (watch.py compares them with the last reading to tell a hand held still)
        self.static_mask = np.zeros(h * w, bool)
        fixed = [k for k in range(SIZE * SIZE) if (k // SIZE) % 2 == 0 and (k % SIZE) % 2 == 0]
        self.static_mask[self._corners.reshape(SIZE * SIZE, -1)[fixed].ravel()] = True
        self.static_mask = self.static_mask.reshape(h, w)
        ys, xs = np.mgrid[0:h, 0:w]
        self._cell_of = ((ys // t) * SIZE + xs // t).ravel()  # pixel -> cell index
        # pawns are looked for inside the cells, away from the gaps between tiles and
        # whatever lies beyond the board's edge
        m = max(2, t // 10)
        self._inner = np.flatnonzero((((ys % t) >= m) & ((ys % t) < t - m) &
                                      ((xs % t) >= m) & ((xs % t) < t - m)).ravel())
        self.path = self.hedge = None  # learned (mean Lab, spread of patches, of pixels)
        self.pawns: dict[str, tuple[np.ndarray, float, float]] = {}  # colour -> (colours, reach, size)
        self.others = np.zeros((0, 3), np.float32)  # learned colours of the pictures
        self.problems: list[str] = []  # what the last learn() could not learn, in words

    def _gather(self, boxes: list[tuple[int, int, int, int]]) -> np.ndarray:
        """Flat plane indices of the same boxes (tile pixels) in every cell, cell by
        cell: shape (49 * len(boxes), box pixels)."""
        t, w = self.tile_px, self.plane_size[0]
        out = []
        for r in range(SIZE):
            for c in range(SIZE):
                for y0, y1, x0, x1 in boxes:
                    ys, xs = np.mgrid[r * t + y0:r * t + y1, c * t + x0:c * t + x1]
                    out.append((ys * w + xs).ravel())
        return np.stack(out)

    # --- learning ------------------------------------------------------------------
    def _patch_colours(self, lab: np.ndarray) -> np.ndarray:
        return np.median(lab.reshape(-1, 3)[self._patches], axis=1)  # (196, 3)

    @staticmethod
    def _open_mask(expected: dict) -> tuple[np.ndarray, np.ndarray]:
        """The 196 patches' truth (open or not) from labels like 'tile:NES', and which
        patches it is known for."""
        out = np.zeros(SIZE * SIZE * 4, bool)
        known = np.zeros(SIZE * SIZE, bool)
        for r in range(SIZE):
            for c in range(SIZE):
                label = expected.get((r, c))
                if label is None:
                    continue
                if not isinstance(label, str) or not label.startswith("tile:"):
                    raise ValueError(f"cell {cell_name(r, c)} has {label!r}: expected a label like "
                                     "'tile:NES'")
                known[r * SIZE + c] = True
                for k, s in enumerate(SIDES):
                    out[(r * SIZE + c) * 4 + k] = s in label[5:]
        return out, np.repeat(known, 4)

    def learn(self, plane_bgr: np.ndarray, expected: dict) -> None:
        """Learn path, hedge and pawn colours from a plane whose labels are known: the
        start position (the setup's layout and each pawn on its start corner), a layout
        still to be read (only the 16 tiles printed on the board, and the pawns), or any
        later position (a resumed game, the position after a move). Path and hedge are
        blended with what was learned before. A pawn alone on a corner (where every game
        starts it: no picture there) is learned again; elsewhere a pawn already known
        keeps its look (mid-game it may stand on a picture) while that look still finds
        it somewhere, one not yet known or found nowhere now (a game resumed under
        another light) is learned where it stands alone."""
        self._check_shape(plane_bgr)
        lab = board_lab(plane_bgr)
        colours = self._patch_colours(lab)
        is_open, known = self._open_mask(expected)
        if not (is_open & known).any() or not (~is_open & known).any():
            raise ValueError("learning needs tiles with known open and closed sides")
        pixels = lab.reshape(-1, 3)[self._patches]  # (196, n, 3)
        self.path = _blend(self.path, self._model(colours[is_open & known], pixels[is_open & known]))
        self.hedge = _blend(self.hedge, self._model(colours[~is_open & known], pixels[~is_open & known]))
        self.problems = []
        found = self._read_pawns(lab, 1.0)  # before this lesson: which known pawns its looks still find
        where_of = {c: expected.get(f"pawn:{c}") for c in self.colours}
        shared = {w for w in where_of.values() if w and list(where_of.values()).count(w) > 1}
        blobs = {}
        for colour, where in where_of.items():
            if not where or where in shared or (colour in self.pawns and where not in CORNERS
                                                and found[f"pawn:{colour}"][0] != "unseen"):
                continue
            blob = self._pawn_blob(lab, colour, where)
            if blob is None:
                self.problems.append(f"no {colour} pawn on {where} to learn its colour from: "
                                     "nothing there looks unlike path and hedge")
            else:
                blobs[colour] = blob
        new = {colour: self._pawn_model(pixels) for colour, pixels in blobs.items()}
        self.pawns = {**self.pawns, **new}
        self.others = self._picture_colours(lab, expected)
        # a pawn's size is what reading counts of it where it stands
        smallest = min((len(p) for p in blobs.values()), default=0)
        for colour, (counts, _) in self._pawn_counts(lab, 1.0, PAWN_MIN_SHARE * smallest).items():
            if colour not in new:
                continue
            where = expected[f"pawn:{colour}"]
            k = (int(where[1]) - 1) * SIZE + "abcdefg".index(where[0])
            if counts[k] < PAWN_MIN_SHARE * len(blobs[colour]):
                self.problems.append(f"the {colour} pawn on {where} cannot be told from the "
                                     "pictures on the board by its colour")
                del self.pawns[colour]
            else:
                centres, reach, _ = self.pawns[colour]
                self.pawns[colour] = (centres, reach, float(counts[k]))

    @staticmethod
    def _model(patch_colours: np.ndarray, pixels: np.ndarray) -> tuple[np.ndarray, float, float]:
        """(mean colour, spread of patch medians, spread of single pixels)."""
        mu = patch_colours.mean(0)
        patch_sd = max(MIN_SPREAD, float(np.linalg.norm(patch_colours - mu, axis=1).mean()))
        pixel_sd = max(MIN_SPREAD, float(np.linalg.norm(pixels.reshape(-1, 3) - mu, axis=1).mean()))
        return mu, patch_sd, pixel_sd

    def _picture_colours(self, lab: np.ndarray, expected: dict) -> np.ndarray:
        """The colours of everything else on the board that is neither path nor hedge
        (the treasure pictures, the gaps), as a few cluster centres, so that a picture
        is not taken for a pawn. Centres within a pawn's reach are left out."""
        pawn_cells = [(int(w[1]) - 1) * SIZE + "abcdefg".index(w[0])
                      for w in (expected[f"pawn:{c}"] for c in self.pawns)]
        pixels = lab.reshape(-1, 3)
        keep = self._inner[~np.isin(self._cell_of[self._inner], pawn_cells)]
        rest = pixels[keep[self.unlike_board(pixels[keep])]]
        if len(rest) < PICTURE_CLUSTERS * 4:
            return np.zeros((0, 3), np.float32)
        centres = _clusters(rest[:: max(1, len(rest) // 20000)], PICTURE_CLUSTERS)
        for own, reach, _ in self.pawns.values():
            near = np.linalg.norm(centres[:, None] - own[None], axis=2).min(1) < reach
            centres = centres[~near]
        return centres

    def _pawn_blob(self, lab: np.ndarray, colour: str, where: str) -> np.ndarray | None:
        """The pixels of the pawn on `where`: the largest blob there that is like
        neither path nor hedge (the thin gaps between tiles are left out); None when
        there is none."""
        t = self.tile_px
        if not isinstance(where, str) or len(where) != 2 or where[0] not in "abcdefg" or where[1] not in "1234567":
            raise ValueError(f"pawn:{colour} is {where!r}: expected a cell name such as 'a1'")
        r, c = int(where[1]) - 1, "abcdefg".index(where[0])
        m = max(2, t // 10)
        cell = lab[r * t + m:(r + 1) * t - m, c * t + m:(c + 1) * t - m]
        far = self.unlike_board(cell.reshape(-1, 3)).reshape(cell.shape[:2]).astype(np.uint8)
        n, blobs, stats, _ = cv2.connectedComponentsWithStats(far, connectivity=4)
        if n < 2 or stats[1:, cv2.CC_STAT_AREA].max() < 4:
            return None
        return cell[blobs == 1 + int(stats[1:, cv2.CC_STAT_AREA].argmax())]

    def _pawn_model(self, pixels: np.ndarray) -> tuple[np.ndarray, float, float]:
        """(colour, reach, size): a pawn's colour is the median of the core of its blob,
        the half of its pixels least like path and hedge (its edges blend into the
        tile); its reach is how far the core's pixels lie from that colour."""
        away = np.minimum(np.linalg.norm(pixels - self.path[0], axis=1),
                          np.linalg.norm(pixels - self.hedge[0], axis=1))
        core = pixels[away >= np.median(away)]
        centre = np.median(core, axis=0)
        spread = float(np.percentile(np.linalg.norm(core - centre, axis=1), 75))
        return centre[None], max(MIN_SPREAD * 2, 1.5 * spread), float(len(pixels))

    def unlike_board(self, pixels: np.ndarray) -> np.ndarray:
        """Pixels further than UNLIKE_SIGMAS pixel spreads from both path and hedge."""
        d_path = ((pixels - self.path[0]) ** 2).sum(-1)
        d_hedge = ((pixels - self.hedge[0]) ** 2).sum(-1)
        return (d_path > (UNLIKE_SIGMAS * self.path[2]) ** 2) & (d_hedge > (UNLIKE_SIGMAS * self.hedge[2]) ** 2)

    def _check_shape(self, plane_bgr: np.ndarray) -> None:
        w, h = self.plane_size
        if plane_bgr.shape[:2] != (h, w):
            raise ValueError(f"tile reader: plane is {plane_bgr.shape[1]}x{plane_bgr.shape[0]}, "
                             f"expected {w}x{h}")

    # --- reading -------------------------------------------------------------------
    def read(self, plane_bgr: np.ndarray) -> dict:
        """Every cell's label and confidence; before anything was learned, every cell is
        "unknown" with confidence 0 (the referee waits)."""
        self._check_shape(plane_bgr)
        if self.path is None:
            return {cell: ("unknown", 0.0) for cell in self.cells}
        lab = board_lab(plane_bgr)
        corners = np.median(lab.reshape(-1, 3)[self._corners], axis=1)
        out, path_now = self._read_sides(self._patch_colours(lab), corners)
        out.update(self._read_pawns(lab, path_now[0] / max(self.path[0][0], 1e-3)))
        return out

    def _read_sides(self, colours: np.ndarray, corners: np.ndarray) -> tuple[dict, np.ndarray]:
        """Tile labels, and the path colour as seen now. A tile whose corners show path
        is not lying square in its cell: a push is under way (or the board is bumped),
        and its whole row and column are unsure until it settles."""
        path_mu, path_sd, _ = self.path
        hedge_mu, hedge_sd, _ = self.hedge
        for _ in range(2):  # follow the light: two-means from the learned colours
            d_p = np.linalg.norm(colours - path_mu, axis=1) / path_sd
            d_h = np.linalg.norm(colours - hedge_mu, axis=1) / hedge_sd
            near_p = (d_p < d_h) & (d_p < FOLLOW_SIGMAS)
            near_h = (d_h <= d_p) & (d_h < FOLLOW_SIGMAS)
            if near_p.sum() >= 8 and near_h.sum() >= 8:  # medians: a hand does not drag them
                path_mu, hedge_mu = np.median(colours[near_p], 0), np.median(colours[near_h], 0)
        d_p = np.linalg.norm(colours - path_mu, axis=1) / path_sd
        d_h = np.linalg.norm(colours - hedge_mu, axis=1) / hedge_sd
        is_open = d_p < d_h
        # sure when one colour is much nearer than the other and the nearer one is near
        margin = np.abs(d_p - d_h) / (d_p + d_h + 1e-6)
        near = np.minimum(d_p, d_h)
        conf = np.clip(margin * 1.5, 0, 1) * np.where(near < SIDE_SIGMAS, 1.0,
                                                      np.exp(-(near - SIDE_SIGMAS)))
        is_open, conf = is_open.reshape(-1, 4), conf.reshape(-1, 4).min(1)
        corner_path = (np.linalg.norm(corners - path_mu, axis=1) / path_sd <
                       np.linalg.norm(corners - hedge_mu, axis=1) / hedge_sd).reshape(-1, 4).any(1)
        for k in np.flatnonzero(corner_path):
            r, c = divmod(int(k), SIZE)
            conf[k] = 0.0
            if r % 2:  # a movable row: the whole row may be sliding
                conf[r * SIZE:(r + 1) * SIZE] = 0.0
            if c % 2:
                conf[c::SIZE] = 0.0
        out = {}
        for k in range(SIZE * SIZE):
            sides = "".join(s for s, o in zip(SIDES, is_open[k]) if o)
            out[divmod(k, SIZE)] = ("tile:" + sides, float(conf[k]))
        return out, path_mu

    def _pawn_counts(self, lab: np.ndarray, light: float, min_blob: float = 0.0) -> dict[str, tuple[np.ndarray, float]]:
        """Per pawn colour: how many of its pixels each of the 49 cells holds, counting
        only blobs of at least `min_blob` pixels (a pawn is one blob; stray pixels of a
        picture are not), and the largest blob's size (a sleeve of that colour makes a
        blob much bigger than a pawn). A pixel is a pawn's when one of that pawn's
        colours is the nearest of all learned colours (path, hedge, pawns, pictures) and
        within the pawn's reach.
        Only pixels unlike path and hedge are looked at; `light` is the path's lightness
        now over its lightness when learned."""
        pixels = lab.reshape(-1, 3)
        where = self._inner[self.unlike_board(pixels[self._inner])]
        candidates = pixels[where]
        colours = list(self.pawns)
        scale = np.float32(light)  # a dimmer light shrinks lightness and colourfulness alike
        refs = [self.path[0][None], self.hedge[0][None]] + [v[0] * scale for v in self.pawns.values()] + [self.others]
        owner = np.concatenate([[-1, -1]] + [np.full(len(v[0]), k) for k, v in enumerate(self.pawns.values())]
                               + [np.full(len(self.others), -1)])
        refs = np.concatenate(refs)
        # squared distances to every learned colour by one matrix product: |c|^2 - 2c.r + |r|^2
        d2 = (candidates ** 2).sum(1)[:, None] - 2.0 * candidates @ refs.T + (refs ** 2).sum(1)[None, :]
        nearest = d2.argmin(1)
        nearest_owner = owner[nearest]
        nearest_dist = np.sqrt(np.maximum(d2[np.arange(len(d2)), nearest], 0.0))
        w, h = self.plane_size
        out = {}
        for k, colour in enumerate(colours):
            hit = where[(nearest_owner == k) & (nearest_dist < self.pawns[colour][1])]
            largest = 0.0
            if min_blob > 0 and len(hit):
                mask = np.zeros(h * w, np.uint8)
                mask[hit] = 1
                _, blobs, stats, _ = cv2.connectedComponentsWithStats(mask.reshape(h, w), connectivity=8)
                area = stats[:, cv2.CC_STAT_AREA]
                area[0] = 0
                largest = float(area.max())
                hit = hit[(area >= min_blob)[blobs.ravel()[hit]]]
            out[colour] = (np.bincount(self._cell_of[hit], minlength=SIZE * SIZE), largest)
        return out

    def _read_pawns(self, lab: np.ndarray, light: float) -> dict:
        out = {f"pawn:{colour}": ("unseen", 0.0) for colour in self.colours if colour not in self.pawns}
        if not self.pawns:
            return out
        smallest = min(size for _, _, size in self.pawns.values())
        for colour, (counts, largest) in self._pawn_counts(lab, light, PAWN_MIN_SHARE * smallest).items():
            size = self.pawns[colour][2]
            k = int(counts.argmax())
            best, second = counts[k], np.partition(counts, -2)[-2]
            share = best / size
            if share < PAWN_MIN_SHARE or largest > PAWN_MAX_SHARE * size:
                out[f"pawn:{colour}"] = ("unseen", 0.3)  # hidden, or something big of its colour
                continue
            conf = float(np.clip(share / 0.7, 0, 1) * (1.0 - second / max(best, 1)))
            out[f"pawn:{colour}"] = (cell_name(*divmod(k, SIZE)), conf)
        return out


def _blend(old, new):
    """A colour model learned again: half what was known, half what is seen now."""
    if old is None:
        return new
    return (old[0] + new[0]) / 2, (old[1] + new[1]) / 2, (old[2] + new[2]) / 2
