"""The Monopoly board reader: which tokens stand on each of the 40 spaces.

Geometry. The plane is the board's outer square (the four Monopoly markers' inner corners
touch its corners, vision/markers.py). Spaces run clockwise from GO in the bottom-right
corner, ten to a side, as on every Monopoly board; the four corner squares are `corner`
of the side long (the stand-in board's 1/11; a printed board's corners are larger: set
it from the printed board, as `space_box` is the only place that knows).

Reading. The empty-or-taken decision is read_spaces.SpaceReader's: each space's own
empty look is learned (at game start, and again whenever `learn` is given the board the
referee accepted), and a space is taken when enough of its disc differs from that look.
A Monopoly space can hold several tokens, so what stands on a taken space is a set: the
pixels that differ from the empty look (all the disc's pixels while the empty look is
still unknown, as on GO at game start) are compared with each token's colour, and every
token whose colour covers enough of the disc is there. The label is the tokens joined by
"+" in sorted order ("bowser+p2"), as `Monopoly.board` writes them. Token colours are
nominal ones from config at first and are learned from any space where a token stands
alone. A taken space whose colours match no token reads "token?" with a low confidence:
the referee waits rather than guessing. So does every space when the board-wide light is
far from the light learned (SURE_LIGHT): pale spaces and tokens clip to white.

Tokens that look alike (the same plastic colour) cannot be told apart this way: such a
set would need a reader of occupancy alone, with the rules saying which token was due to
move. Not done yet.
"""
from __future__ import annotations

import numpy as np

from .read_holes import hex_bgr, lab
from .read_spaces import CHANGE, EMPTY_SHARE, LIGHTNESS_WEIGHT, UNSEEN_EMPTY, SpaceReader

SPACES = 40
PLANE_PX = 440
CORNER = 1 / 11
PIECES = ("p0", "p1", "p2", "p3", "p4", "p5", "bowser")
# nominal colours of the six tokens and Bowser's shell (config may give the real ones)
DEFAULT_COLOURS = ("#d21e28", "#28a532", "#f578be", "#3ca0e6", "#8c501e", "#aadc3c", "#f07814")
NEAR = 18.0  # Lab distance (lightness counting half) of a pixel to a token's colour
PRESENT = 0.03  # share of a space's disc a token covers at least when it stands there
DOUBT = (0.015, 0.045)  # shares too close to PRESENT to be sure either way
# a token's pixels may differ from the space under it by less than read_spaces' CHANGE
# (a green token on a green Warp Pipe, blurred): they count from this difference on if
# they also came nearer a token's colour by TOWARDS (an orange colour band under other
# light does not turn into Bowser's shell)
TOKEN_CHANGE = 8.0
TOWARDS = 6.0
# board-wide light, relative to the light the empty looks were learned in, within which
# the colours hold: brighter, pale spaces and tokens clip to white and all readings are
# unsure (the referee waits for the light to come back or a new `learn`)
SURE_LIGHT = (0.6, 1.25)
PALE = 170  # mean grey of a space that clips first
UNKNOWN = "token?"


def space_box(index: int, size: float = PLANE_PX, corner: float = CORNER) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of space `index` on a board `size` pixels square (y down)."""
    if not 0 <= index < SPACES:
        raise ValueError(f"space {index} is not on the board (0-39)")
    side, k = divmod(index, 10)
    c = corner * size
    w = (size - 2 * c) / 9
    lo, hi = (0.0, c) if k == 0 else (c + (k - 1) * w, c + k * w)  # along the side from its start
    if side == 0:  # bottom row, right to left
        return size - hi, size - c, size - lo, size
    if side == 1:  # left column, bottom to top
        return 0.0, size - hi, c, size - lo
    if side == 2:  # top row, left to right
        return lo, 0.0, hi, c
    return size - c, lo, size, hi  # right column, top to bottom


def space_centre(index: int, size: float = PLANE_PX, corner: float = CORNER) -> tuple[float, float]:
    x0, y0, x1, y1 = space_box(index, size, corner)
    return (x0 + x1) / 2, (y0 + y1) / 2


class MonopolyReader(SpaceReader):
    """Labels each space with the set of tokens on it (see the module docstring)."""

    def __init__(self, colours=None, size: int = PLANE_PX, corner: float = CORNER):
        points = {i: space_centre(i, size, corner) for i in range(SPACES)}
        narrow = min(corner * size, (size - 2 * corner * size) / 9)
        super().__init__(points, (size, size), 0.45 * narrow, pieces=PIECES)
        colours = list(colours or ()) + list(DEFAULT_COLOURS[len(colours or ()):])
        self.centroid = {p: lab(hex_bgr(c)[None, :])[0] for p, c in zip(PIECES, colours)}
        self.in_game: set[str] | None = None

    def learn(self, plane: np.ndarray, expected) -> None:
        """Learn the empty looks (SpaceReader), which tokens are in the game (those of
        the first board learned: the start position), and each token's colour from the
        spaces where it stands alone (the middle of the pixels near its colour)."""
        if self.in_game is None:
            self.in_game = {t for label in expected.values() for t in str(label).split("+")} & set(PIECES)
            self.centroid = {p: c for p, c in self.centroid.items() if p in self.in_game}
        super().learn(plane, expected)
        labs = self._labs(plane)
        for k, cell in enumerate(self.cells):
            label = expected.get(cell)
            if label in self.centroid:
                disc = self._disc(labs, k)
                near = self._near(disc, self.centroid[label], NEAR)
                if near.sum() >= 12:
                    self.centroid[label] = np.median(disc[near], axis=0)

    def _true_light(self, means: np.ndarray) -> float:
        """The board-wide light now relative to the learned light, from the spaces that
        are not pale: a pale space clips to white in bright light and hides how bright it
        is (SpaceReader's estimate, which corrects the colours, includes them, and that
        suits the colours, which clip too)."""
        if self.grey_ref is None:
            return 1.0
        keep = self.grey_ref < PALE
        keep = keep if keep.sum() >= 5 else np.ones_like(keep)
        return float(np.clip(np.median(means[keep] / np.maximum(self.grey_ref[keep], 1.0)), 0.3, 3.0))

    def _labs(self, plane: np.ndarray) -> np.ndarray:
        return self._labs_and_light(plane)[0]

    def _labs_and_light(self, plane: np.ndarray) -> tuple[np.ndarray, float]:
        """Light-corrected Lab of every disc pixel, and the true board-wide light."""
        bgr, means = self._pixels(plane)
        return lab(bgr / self._light(means)), self._true_light(means)

    @staticmethod
    def _distance(labs: np.ndarray, centre: np.ndarray) -> np.ndarray:
        d = labs - centre
        d[:, 0] *= LIGHTNESS_WEIGHT
        return np.sqrt((d ** 2).sum(axis=1))

    def _near(self, labs: np.ndarray, centre: np.ndarray, limit: float) -> np.ndarray:
        return self._distance(labs, centre) < limit

    def shares(self, pixels: np.ndarray, disc_size: int, before: np.ndarray | None = None) -> dict[str, float]:
        """Each token's share of a disc: the pixels nearest its colour, within NEAR (a
        pixel counts for one token only, so a blend at a rim does not make a third), and,
        given the same pixels' empty look `before`, nearer to it than they were."""
        names = list(self.centroid)
        if not len(pixels) or not names:
            return {p: 0.0 for p in names}
        dist = np.stack([self._distance(pixels, self.centroid[p]) for p in names])
        best = dist.argmin(axis=0)
        ok = dist.min(axis=0) < NEAR
        if before is not None:
            was = np.stack([self._distance(before, self.centroid[p]) for p in names])
            ok &= np.take_along_axis(was - dist, best[None, :], axis=0)[0] > TOWARDS
        return {p: float(((best == i) & ok).sum()) / disc_size for i, p in enumerate(names)}

    def read(self, plane: np.ndarray) -> dict:
        taken = super().read(plane)  # empty or not, from the learned empty looks
        labs, light = self._labs_and_light(plane)
        most = 0.9 if SURE_LIGHT[0] <= light <= SURE_LIGHT[1] else 0.5
        out = {}
        for k, cell in enumerate(self.cells):
            disc = self._disc(labs, k)
            ref = None if self.empty_ref is None else self._disc(self.empty_ref, k)
            seen = ref is not None and not np.isnan(ref[:, 0]).any()
            if seen:  # only what differs from the space's own empty look
                diff = disc - ref
                diff[:, 0] *= LIGHTNESS_WEIGHT
                dist = np.sqrt((diff ** 2).sum(axis=1))
                moved = dist > TOKEN_CHANGE
                shares = self.shares(disc[moved], len(disc), ref[moved])
            else:
                shares = self.shares(disc, len(disc))
            present = sorted(p for p, share in shares.items() if share >= PRESENT)
            if present:
                # sure when every token is clearly in or clearly out
                doubtful = any(DOUBT[0] <= share < DOUBT[1] for share in shares.values())
                out[cell] = ("+".join(present), 0.5 if doubtful else most)
            elif not seen:
                out[cell] = ("empty", min(UNSEEN_EMPTY, most))
            elif (dist > CHANGE).mean() <= EMPTY_SHARE:
                out[cell] = (taken[cell][0], min(taken[cell][1], most))
            else:  # something stands there that looks like no token
                out[cell] = (UNKNOWN, 0.3)
        return out
