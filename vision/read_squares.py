"""Chess squares from a warped board: each square empty, first player's piece ("p0") or
second player's piece ("p1"), with a confidence.

The plane is the playing area seen from straight above, a1 at the bottom left and h8 at
the top right (the Watcher warps it so). Each square is sampled on a disk half a square
wide where the piece's base stands. A piece seen at an angle leans away from the
camera: its top covers the near part of the square behind it, while its own body covers
its own square's middle and far part. So once the camera's place is known (`view_from`,
from the homography), each square's disk moves a little away from the camera, more for
squares far from it; a camera straight above moves nothing. Five things are measured on
the disk: brightness, colour (two chromaticities, which a change of light leaves alone),
texture (the mean gradient: a piece has an outline and shading where an empty square is
flat or evenly grained) and the darkest tenth (a dark piece's shadowed side).

Nothing about the set is fixed in advance. `learn` takes the start position (first
mover's pieces on ranks 1-2) and learns, separately for light and dark squares, what an
empty square, a first player's piece and a second player's piece look like, so any
two-colour set works (Mario red and green, cream and brown wood). Each later square goes
to the most likely of its three learned looks (a Gaussian per look, its spread what the
look varied at the start, widened); the confidence is that look's share of the
likelihood, lowered when the square is far from all three (a hand, a fallen piece). Light
that drifts during a game, in level or in colour, is measured per colour channel on the
small patches where four squares meet, which pieces rarely cover, and taken out.

Before anything is learned (a board that is not in the start position) only occupancy
is read: the two square colours are estimated from the squares' corners, and a square
whose middle is much more textured than the flattest squares of its colour holds a
piece (the step is a quarter of the contrast between the square colours); the piece's
colour is then a guess (lighter = first player), given a confidence below the referee's.
"""
from __future__ import annotations

import cv2
import numpy as np

from .reader import Reader

FILES = "abcdefgh"
# cells in plane order: row 0 is rank 8 (top of the plane), column 0 is the a-file
CELLS = tuple(f"{FILES[c]}{8 - r}" for r in range(8) for c in range(8))
LABELS = ("empty", "p0", "p1")
SQUARE_PX = 32
DISK = 0.25  # sampling disk radius, in squares
CORNER = 0.2  # corner patch size, in squares, for the unlearned square colours
UNLEARNED_TEXTURE = 0.25  # texture above the flattest squares', in units of the squares' contrast
UNSURE = 0.5  # the confidence of a guess
LEAN_SHIFT = 0.3  # disk shift per (distance from the camera's foot / camera height)
NFEAT = 5  # brightness, two chromaticities, texture, darkest tenth
MAX_SHIFT = 0.15  # squares: the disk stays clear of the square's edges


def _blocks(a: np.ndarray, q: int) -> np.ndarray:
    """(8q, 8q, ...) -> (8, 8, q, q, ...)."""
    return a.reshape(8, q, 8, q, *a.shape[2:]).swapaxes(1, 2)


class SquareReader(Reader):
    plane_size = (8 * SQUARE_PX, 8 * SQUARE_PX)
    cells = CELLS

    def __init__(self, colours=None, square_px: int = SQUARE_PX):
        # `colours` (from config) are not needed: the set's colours are learned at start.
        q = self.q = square_px
        self.plane_size = (8 * q, 8 * q)
        self.shift = np.zeros((8, 8, 2))
        self.disks = np.broadcast_to(self._disk((0.0, 0.0)), (8, 8, q, q))
        k, e = max(2, int(q * CORNER)), max(1, q // 16)
        self.corner = np.zeros((q, q), bool)
        for ys in (slice(e, k), slice(q - k, q - e)):
            for xs in (slice(e, k), slice(q - k, q - e)):
                self.corner[ys, xs] = True
        # light squares: a8 (row 0, column 0) is light, a1 dark
        self.light = (np.add.outer(np.arange(8), np.arange(8)) % 2 == 0)
        self.model = None  # learned at the start position

    def _disk(self, shift) -> np.ndarray:
        """The sampling disk of a square, its centre moved by `shift` (x, y in squares,
        plane directions: y grows towards rank 1)."""
        q = self.q
        yy, xx = np.mgrid[0:q, 0:q] + 0.5
        return np.hypot(yy - q / 2 - shift[1] * q, xx - q / 2 - shift[0] * q) < DISK * q

    def view_from(self, H: np.ndarray, frame_size) -> None:
        """Where the camera stands, from the frame -> plane homography `H` and the frame
        size (width, height), assuming square pixels and the optical centre in the
        middle of the frame: each square's disk then moves a little away from the
        camera's foot point. A piece leans away from the camera, so the square behind a
        tall piece gets the piece's top over its near part, while a piece's own body
        covers its far part. Without a call, the disks stay centred (a camera looking
        straight down)."""
        foot, height = camera_foot(H, frame_size, self.q)
        centres = np.stack(np.meshgrid(np.arange(8) + 0.5, np.arange(8) + 0.5), axis=-1)  # x, y down
        away = centres - foot
        dist = np.linalg.norm(away, axis=-1, keepdims=True)
        self.shift = np.minimum(MAX_SHIFT, LEAN_SHIFT * dist / height) * away / np.maximum(dist, 1e-6)
        self.disks = np.stack([[self._disk(self.shift[r, c]) for c in range(8)] for r in range(8)])

    # --- measurements ----------------------------------------------------------------
    def _measure(self, plane: np.ndarray):
        """Per square (8x8): the mean colour (BGR), texture and darkest tenth on its disk;
        the colour at the 7x7 inner points where four squares meet; the squares' pixels
        (8, 8, q, q, 3)."""
        if plane.shape[:2] != (8 * self.q, 8 * self.q):
            raise ValueError(f"chess plane is {plane.shape[1]}x{plane.shape[0]} pixels; the reader "
                             f"wants {self.plane_size[0]}x{self.plane_size[1]}")
        img = plane.astype(np.float32)
        grey = img.mean(axis=2)
        grad = np.abs(cv2.Sobel(grey, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(grey, cv2.CV_32F, 0, 1))
        blocks = _blocks(img, self.q)
        weight = self.disks / self.disks.sum(axis=(2, 3), keepdims=True)
        mean = np.einsum("rcij,rcijk->rck", weight, blocks)  # 8,8,3 BGR
        texture = np.einsum("rcij,rcij->rc", weight, _blocks(grad, self.q))
        # the darkest tenth of the disk: a dark piece's shadowed side, which a mean over
        # a piece with a bright highlight hides
        ranked = np.sort(np.where(self.disks, _blocks(grey, self.q), np.nan).reshape(8, 8, -1), axis=-1)
        n = self.disks.sum(axis=(2, 3))
        dark = np.take_along_axis(ranked, (n // 10)[..., None], axis=-1)[..., 0]
        q, h = self.q, max(1, self.q // 8)
        # the mean of a (2h)x(2h) patch centred on each inner grid point
        joints = cv2.blur(img, (2 * h, 2 * h), anchor=(2 * h - 1, 2 * h - 1))[q + h - 1:8 * q - 1:q, q + h - 1:8 * q - 1:q]
        return (mean, texture, dark), joints, blocks

    @staticmethod
    def _features(raw, gains=np.ones(3)) -> np.ndarray:
        """The NFEAT features per square, the light's colour and level (`gains`, per BGR
        channel, relative to the start) taken out."""
        mean, texture, dark = raw
        b, g, r = (mean / gains).transpose(2, 0, 1)
        total = b + g + r + 1.0
        level = float(gains.mean())
        return np.stack([total / 3, (r - g) / total, (r + g - 2 * b) / total, texture / level, dark / level], axis=-1)

    # --- learning ----------------------------------------------------------------------
    def learn(self, plane_bgr: np.ndarray, expected: dict) -> None:
        """Learn the look of empty squares and of each side's pieces, on light and on dark
        squares, from a board known to hold `expected` ({square: label})."""
        missing = [c for c in CELLS if c not in expected]
        if missing:
            raise ValueError(f"learn needs a label for every square; missing {', '.join(missing[:5])}")
        labels = np.array([[expected[CELLS[r * 8 + c]] for c in range(8)] for r in range(8)])
        raw, joints, _ = self._measure(plane_bgr)
        feats = self._features(raw)
        means = np.ones((2, 3, NFEAT))
        spread = np.ones((2, 3, NFEAT))
        seen = np.zeros((2, 3), bool)
        for p, on in enumerate((self.light, ~self.light)):
            for k, lab in enumerate(LABELS):
                x = feats[on & (labels == lab)]
                if len(x):
                    seen[p, k] = True
                    means[p, k] = x.mean(axis=0)
                    spread[p, k] = x.std(axis=0)
        if not seen[:, 0].all():
            raise ValueError("learn needs empty light and dark squares (the start position has 32)")
        # a side seen on one square colour only (a bare ending learned from its position):
        # its pieces look mostly like themselves on the other square colour too
        for k in (1, 2):
            for p in (0, 1):
                if not seen[p, k] and seen[1 - p, k]:
                    means[p, k], spread[p, k], seen[p, k] = means[1 - p, k], 2.0 * spread[1 - p, k], True
        # floors: a handful of squares understates how much a look varies; the difference
        # between the two square colours sets the scale
        contrast = abs(means[0, 0, 0] - means[1, 0, 0]) + 1.0
        level = 0.04 * contrast + 2.0
        floor = np.array([level, 0.015, 0.015, level, level])
        # a piece's outline changes with the piece and where it stands: its texture
        # varies with its size, at least by a quarter
        floor = np.maximum(floor, np.where(np.arange(NFEAT) == 3, 0.25 * means, 0.0))
        # eight pawns show less of how a look varies than a game will: widen by half
        self.model = {"means": means, "spread": np.maximum(1.5 * spread, floor), "seen": seen,
                      "joints": joints + 1.0}

    # --- reading -----------------------------------------------------------------------
    def read(self, plane_bgr: np.ndarray) -> dict:
        raw, joints, blocks = self._measure(plane_bgr)
        if self.model is None:
            return self._read_unlearned(self._features(raw), blocks)
        m = self.model
        # the light now against the light at the start, per colour channel, where four
        # squares meet: a drift in level or in colour (a lamp switched on, daylight going)
        gains = np.median(((joints + 1.0) / m["joints"]).reshape(-1, 3), axis=0)
        feats = self._features(raw, gains)
        par = np.where(self.light, 0, 1)  # 8x8 -> model index
        means = m["means"][par]  # 8, 8, looks, features
        spread = m["spread"][par]
        d2 = (((feats[:, :, None, :] - means) / spread) ** 2).sum(axis=-1)  # 8,8,3
        # a Gaussian per look: a tight look (an empty square) is not also a wide one
        cost = np.where(m["seen"][par], d2 + 2.0 * np.log(spread).sum(axis=-1), np.inf)
        best = cost.argmin(axis=-1)
        like = np.exp(-0.5 * (cost - cost.min(axis=-1, keepdims=True)))
        conf = 1.0 / like.sum(axis=-1)
        # far from every learned look (d2 beyond ~20 per feature is not a look seen at start)
        near = np.take_along_axis(d2, best[..., None], axis=-1)[..., 0]
        conf *= np.exp(-np.maximum(0.0, near - 20.0 * NFEAT) / (20.0 * NFEAT))
        return {CELLS[r * 8 + c]: (LABELS[best[r, c]], round(float(conf[r, c]), 3))
                for r in range(8) for c in range(8)}

    def _read_unlearned(self, feats, blocks) -> dict:
        corners = np.median(blocks[:, :, self.corner], axis=2)  # 8,8,3
        ref_light = np.median(corners[self.light], axis=0)
        ref_dark = np.median(corners[~self.light], axis=0)
        contrast = float(np.linalg.norm(ref_light - ref_dark)) + 1.0
        texture = feats[..., 3]
        # the flattest quarter of each square colour is empty on any real position
        flat = np.where(self.light, np.percentile(texture[self.light], 25),
                        np.percentile(texture[~self.light], 25))
        score = (texture - flat) / contrast / UNLEARNED_TEXTURE  # 1.0 at the line
        conf = 1.0 / (1.0 + np.exp(-6.0 * np.abs(score - 1.0)))
        bright = feats[..., 0]
        ref_bright = np.where(self.light, ref_light.mean(), ref_dark.mean())
        out = {}
        for r in range(8):
            for c in range(8):
                if score[r, c] > 1.0:
                    out[CELLS[r * 8 + c]] = ("p0" if bright[r, c] >= ref_bright[r, c] else "p1", UNSURE)
                else:
                    out[CELLS[r * 8 + c]] = ("empty", round(float(conf[r, c]), 3))
        return out


def camera_foot(H: np.ndarray, frame_size, q: int) -> tuple[np.ndarray, float]:
    """The point of the board plane right below the camera (x, y in squares, plane
    directions: x to the h-file, y to rank 1) and the camera's height in squares, from a
    frame -> plane homography. The focal length comes from the two board axes being at
    right angles; a view too straight-on to tell gets a webcam's usual one."""
    w, h = frame_size
    # plane pixels -> frame pixels, with the plane in squares
    M = np.linalg.inv(H) @ np.diag([q, q, 1.0])
    c = np.array([w / 2, h / 2])
    a1, a2 = M[:2, 0] - c * M[2, 0], M[:2, 1] - c * M[2, 1]
    denom = M[2, 0] * M[2, 1]
    f2 = -(a1 @ a2) / denom if abs(denom) > 1e-12 else -1.0
    f = np.sqrt(f2) if 0.25 * max(w, h) ** 2 < f2 < 9 * max(w, h) ** 2 else 0.9 * max(w, h)
    Kinv = np.array([[1 / f, 0, -c[0] / f], [0, 1 / f, -c[1] / f], [0, 0, 1]])
    B = Kinv @ M
    scale = np.sqrt(np.linalg.norm(B[:, 0]) * np.linalg.norm(B[:, 1]))
    r1, r2, t = B[:, 0] / scale, B[:, 1] / scale, B[:, 2] / scale
    R = np.stack([r1, r2, np.cross(r1, r2)], axis=1)
    centre = -np.linalg.solve(R, t) if abs(np.linalg.det(R)) > 1e-9 else np.array([4.0, 4.0, 10.0])
    return centre[:2], max(abs(float(centre[2])), 1.0)
