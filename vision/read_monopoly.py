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
pixels that differ from the empty look are compared with each token's colour, and every
token whose colour covers enough of the disc is there.

A space that held tokens whenever the board was learned (GO at game start; every taken
space of a resumed game) has no known empty look: its print, seen around the tokens, may
share a token's colour (a green Warp Pipe, a pink gate), so colours alone would read a
token that is not there. Such a space is read against its taken look instead, the disc
as it was learned with the tokens the referee knew stood on it: unchanged, it holds those
tokens still; changed, a token arrived where pixels came nearer its colour, and a token
left where the pixels that had its colour lost it; and where much changed into what is
neither the print nor a token that came while every token learned there is still seen, a
piece stands half hidden among them (Bowser put among four tokens on GO): the reading is
unsure, and the referee goes by the rules or asks; so is a token whose colour covers far
more of the disc than a token does (the print has it: a green token on the green Warp
Pipe) once the space changed, for its pixels staying say nothing of it (it had read as
there for good when it left a resumed game). Once the space is seen empty, its
empty look is learned and the taken look is dropped. The label is the tokens joined by
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
UNEXPLAINED = 0.05  # share of a disc changed into no print and no token that came: unsure
TOWARDS = 6.0
# a token's colour covers this much of a space's disc at most (3-20% seen); more, in a
# taken look, is the space's print in that colour
PRINT_SHARE = 0.3
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
        # spaces whose empty look is unknown: the tokens learned on them, and their look then
        self.taken: dict[int, tuple[frozenset, np.ndarray]] = {}

    def learn(self, plane: np.ndarray, expected) -> None:
        """Learn the empty looks (SpaceReader), which tokens are in the game (those of
        the first board learned: the start position), each token's colour from the
        spaces where it stands alone (the middle of the pixels near its colour that
        differ from the space's empty look: a green token on a green Warp Pipe must not
        learn the pipe's green; where that look is unknown, nothing), and the taken look
        of every taken space whose empty look is unknown."""
        if self.in_game is None:
            self.in_game = {t for label in expected.values() for t in str(label).split("+")} & set(PIECES)
            self.centroid = {p: c for p, c in self.centroid.items() if p in self.in_game}
        super().learn(plane, expected)
        labs = self._labs(plane)
        for k, cell in enumerate(self.cells):
            label = expected.get(cell)
            if label in self.centroid and self._seen(k):
                disc = self._disc(labs, k)
                near = self._near(disc, self.centroid[label], NEAR) & (self._distance(disc, self._disc(self.empty_ref, k)) > CHANGE)
                if near.sum() >= 12:
                    self.centroid[label] = np.median(disc[near], axis=0)
        for k, cell in enumerate(self.cells):
            label = str(expected.get(cell, ""))
            if label == "empty" or self._seen(k):
                self.taken.pop(k, None)
            elif label:
                self.taken[k] = (frozenset(label.split("+")) & set(self.centroid), self._disc(labs, k).copy())

    def _seen(self, k: int) -> bool:
        """Whether space k's empty look is known."""
        return self.empty_ref is not None and not np.isnan(self._disc(self.empty_ref, k)[:, 0]).any()

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
            if not self._seen(k):
                out[cell] = self._against_taken(k, disc, most) if k in self.taken else ("empty", min(UNSEEN_EMPTY, most))
                continue
            ref = self._disc(self.empty_ref, k)
            dist = self._distance(disc, ref)
            moved = dist > TOKEN_CHANGE  # only what differs from the space's own empty look
            shares = self.shares(disc[moved], len(disc), ref[moved])
            present = sorted(p for p, share in shares.items() if share >= PRESENT)
            if present:
                # sure when every token is clearly in or clearly out
                doubtful = any(DOUBT[0] <= share < DOUBT[1] for share in shares.values())
                out[cell] = ("+".join(present), 0.5 if doubtful else most)
            elif (dist > CHANGE).mean() <= EMPTY_SHARE:
                out[cell] = (taken[cell][0], min(taken[cell][1], most))
            else:  # something stands there that looks like no token
                out[cell] = (UNKNOWN, 0.3)
        return out

    def _like(self, labs: np.ndarray, sample: np.ndarray) -> np.ndarray:
        """Which of `labs` lie near some colour of `sample` (at most 200 of them)."""
        if not len(sample) or not len(labs):
            return np.zeros(len(labs), bool)
        sample = sample[::-(-len(sample) // 200)]  # every k-th, k rounded up
        d = labs[:, None, :] - sample[None, :, :]
        d[..., 0] *= LIGHTNESS_WEIGHT
        return np.sqrt((d ** 2).sum(axis=2)).min(axis=1) < NEAR / 2

    def _against_taken(self, k: int, disc: np.ndarray, most: float) -> tuple[str, float]:
        """Space k, whose empty look is unknown, read against its taken look (see the
        module docstring): the tokens learned there, less those whose pixels lost their
        colour, plus those whose colour came. Where a token left, the print it hid comes
        to light: a changed pixel counts for a new token only where it looks like none
        of the print still seen around it."""
        was, ref = self.taken[k]
        dist = self._distance(disc, ref)
        if (dist > TOKEN_CHANGE).mean() <= EMPTY_SHARE:
            return "+".join(sorted(was)) or "empty", most
        names = list(self.centroid)
        then = np.stack([self._distance(ref, self.centroid[p]) for p in names])
        owner = np.where(then.min(axis=0) < NEAR, then.argmin(axis=0), -1)  # whose colour each pixel had
        # the print: what looks as it did where no token learned there had its colour;
        # pixels like it (now, or then) are no token's evidence
        print_ = ref[(dist <= TOKEN_CHANGE) & ~np.isin(owner, [names.index(p) for p in was])]
        printed_now, printed_then = self._like(disc, print_), self._like(ref, print_)
        share_then = self.shares(ref[~printed_then], len(ref))
        share_now = self.shares(disc[~printed_now], len(disc))
        here, doubtful = set(), False
        for i, p in enumerate(names):
            if p not in was:
                continue
            own = owner == i
            if own.mean() >= PRINT_SHARE:
                # the print around it has its colour (a green token on the green Warp
                # Pipe): its pixels staying tell nothing, and much changed (past the
                # first test): it seems to have left, not surely; the rules tell
                doubtful = True
                continue
            still = float((dist[own] <= TOKEN_CHANGE).mean()) if own.sum() >= 12 else 1.0
            ratio = share_now[p] / max(share_then[p], 1e-6) if share_now[p] >= PRESENT else 0.0
            if still >= 0.6 or ratio >= 0.7:  # in place, or shifted on the space as another left
                here.add(p)
            else:
                doubtful |= ratio >= 0.5
        arrived = (dist > TOKEN_CHANGE) & ~printed_now
        came = self.shares(disc[arrived], len(disc), ref[arrived])
        for p in names:
            if p not in was:
                doubtful |= DOUBT[0] <= came[p] < DOUBT[1]
                if came[p] >= PRESENT:
                    here.add(p)
        # much changed into what is neither the print nor a token that came, yet every
        # token learned here is still seen: something half hidden among them (Bowser on a
        # crowded GO). Not sure, so the referee goes by what the rules allow, or waits.
        doubtful |= here == set(was) and arrived.mean() >= UNEXPLAINED
        return "+".join(sorted(here)) or "empty", 0.5 if doubtful else most
