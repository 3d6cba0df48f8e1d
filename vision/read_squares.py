"""Chess squares from a warped board: each square empty, first player's piece ("p0") or
second player's piece ("p1"), with a confidence.

The plane is the playing area seen from straight above, a1 at the bottom left and h8 at
the top right (the Watcher warps it so). A piece seen at an angle leans away from the
camera: its top covers the near part of the squares behind it, while its own base and
lower body stay on its own square. So once the camera's place is known (`view_from`, from
the homography: the point of the board below the camera and its height), each square is
sampled where a standing piece's lower body is, and a square behind a piece is read only
from what that piece leaves visible.

Cold read (nothing learned: a board never seen at the start, `referee read` of a photo).
Everything is measured against the photo itself: the two square colours are the median
colours of the two square parities (the lighter one is "light"), their contrast is the
unit of brightness, and the light over each square is its own level, measured on the
square's rim (outside 0.4 squares of its middle), which a piece standing on it leaves
uncovered (the upper quartile on a light square, the median on a dark one), so a shadow
across the board is not a piece. Print on a square (a logo, a letter) is told as what a
piece is not: pixels towards the dark squares' chromaticity (which a shadow keeps) or
darker than the dark squares, drawn in strokes thinner than a tenth of a square, which an
opening of that width removes while it keeps a piece's solid body; the strokes and the
fine detail around them are left out of a piece's evidence.
On a disk at the projection of a piece's lower body (a third of a square up), in CIE Lab:
- a dark piece: pixels darker than the dark squares at the square's light (on a light
  square, and not print; on a dark square, under half its level);
- a light piece on a dark square: pixels clearly lighter than the dark square, or (a
  wooden piece about as bright as the dark squares) the spread and fine detail below,
  beyond what this board's plain dark squares show (their lower quartile) and not running
  one way as wood grain does (a piece seen from above is round); if a tenth of such a
  disk is dark, and more of it darker than lighter, the piece is a dark one standing off
  the disk's middle. A piece told by its texture alone may be of either side (dark wood on
  walnut looks like light wood on walnut): it takes the side whose pieces on this board's
  dark squares its brightness is nearer to, the clearly lighter ones or the darker ones;
- a light piece on a light square: pixels brighter than the light squares around it
  (white plastic on cream: a shadow only darkens a square, so this needs no detail), or
  (the same cream as the square, told by its shading) pixels far from the disk's own
  median AND fine detail (a high-pass of the brightness, weighed against what the photo's
  own square edges give, so a soft photo is not held to a sharp one's detail), which a
  smooth shadow edge or a plain square lacks; if a tenth of such a disk is dark, the piece is a dark one standing
  off the disk's middle.
Squares are read from the camera outwards; a square read occupied hides, for the squares
behind it, the pixels a standing piece up to 1.5 squares tall (a king) would cover, and those are
left out of their disks (the weight `looks` gives says how much of each disk was left). The
confidence is the evidence's margin past its threshold through a logistic, lowered where
little of the disk was visible; the thresholds are fractions of the photo's own contrast.
The dark pieces are taken as the second player's ("p1").

Learned read. `learn(plane, expected)` takes a known position (the start, and then every
accepted position: the Table calls it after each move and on resume) and blends, for light
and for dark squares, what an empty square, a first player's piece and a second player's
piece look like on a disk at the piece's base: brightness, colour (two chromaticities),
texture (mean gradient) and the darkest tenth. Each look keeps running statistics, so a
look seen once is never forgotten because a later position lacks it, and any two-colour
set works (Mario red and green, cream and brown wood). Each square goes to the most likely
of its learned looks (a Gaussian per look); the confidence is that look's share of the
likelihood, lowered when the square is far from all of them (a hand, a fallen piece).
Light that drifts during a game, in level or in colour, is measured per colour channel on
the small patches where four squares meet, which pieces rarely cover, and taken out.

`visible(cells)` says how well each square can be seen behind the pieces read, which
weighs what it shows (vision/change.py).
"""
from __future__ import annotations

import cv2
import numpy as np

from . import locate
from .reader import Reader

FILES = "abcdefgh"
# cells in plane order: row 0 is rank 8 (top of the plane), column 0 is the a-file
CELLS = tuple(f"{FILES[c]}{8 - r}" for r in range(8) for c in range(8))
LABELS = ("empty", "p0", "p1")
SQUARE_PX = 32
DISK = 0.25  # learned read: sampling disk radius, in squares
LEAN_SHIFT = 0.3  # learned read: disk shift per (distance from the camera's foot / camera height)
MAX_SHIFT = 0.15  # squares: the learned read's disk stays clear of the square's edges
NFEAT = 5  # learned read: brightness, two chromaticities, texture, darkest tenth
BLEND_CAP = 200.0  # a look's past weighs at most this many squares against a new position
# cold read: geometry, in squares
BASE_Z, BASE_R = 0.3, 0.3  # the disk sampled: a piece's lower body, a third of a square up
PIECE_Z, PIECE_R = (0.35, 1.5), 0.25  # a standing piece up to a king's height, hiding what is behind
RIM = 0.4  # the light over a square is measured outside this radius (squares)
MIN_VISIBLE = 0.25  # below this share of its disk visible, a square is read from all of it
# cold read: pixel tests, in units of the contrast between the two square colours
DARK_ON_DARK = 0.45  # on a dark square: darker than this fraction of its level
LIGHT_ON_DARK = 0.35  # on a dark square: lighter than it by this much
SPREAD = 0.12  # on a light square: this far from the disk's median brightness
DETAIL = 0.12  # on a light square: this much above the brightness blurred by q/16
SHARP_EDGE = 0.4  # the high-pass of a square edge, in contrasts, in photos as sharp as the phone photos
BRIGHTER = 0.1  # on a light square: brighter than the light squares around by this much
STROKE = 0.1  # print is drawn in strokes thinner than this (squares); a piece is not
CHROMA_APART = 0.03  # square colours this far apart in chromaticity: print can be told
PRINT = 0.3  # a pixel this far from the light towards the dark squares' chromaticity is print
# cold read: shares of the disk that mean a piece
DARK_SHARE, LIGHT_SHARE_DARK, SPREAD_SHARE, DETAIL_SHARE, BRIGHT_SHARE = 0.25, 0.15, 0.16, 0.1, 0.08
DARK_IN_PIECE = 0.1  # on a light square holding a piece: this share dark means a dark piece
GRAIN = 0.5  # detail more one-way than this (structure tensor coherence) is grain, not a piece
SURENESS = 3.0  # logistic slope on the margin past a share's threshold (relative margin)
# learned read: how much one square's measurements say
TEMPER = 0.5  # the Gaussian looks' log-likelihoods count half: their five features move together
LL_FLOOR = 8.0  # no look is more than this far below the best (log-likelihood)


def _blocks(a: np.ndarray, q: int) -> np.ndarray:
    """(8q, 8q, ...) -> (8, 8, q, q, ...)."""
    return a.reshape(8, q, 8, q, *a.shape[2:]).swapaxes(1, 2)


class SquareReader(Reader):
    plane_size = (8 * SQUARE_PX, 8 * SQUARE_PX)
    cells = CELLS
    labels = LABELS
    grid = (8, 8)
    squares = True  # each square sampled on its disk (`disks`): vision/change.py measures its change

    def grid_place(self, cell):
        return FILES.index(cell[0]), 8 - int(cell[1:])

    def fit(self, frame: np.ndarray, points: np.ndarray, same: float) -> np.ndarray | None:
        """Corners given by hand, moved onto the board's crossings (vision/reader.py)."""
        return locate.fit_squares(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), points, 8, same)

    def __init__(self, colours=None, square_px: int = SQUARE_PX):
        # `colours` (from config) are not needed: the set's colours are measured or learned.
        q = self.q = square_px
        self.plane_size = (8 * q, 8 * q)
        # light squares: a8 (row 0, column 0) is light, a1 dark
        self.light = (np.add.outer(np.arange(8), np.arange(8)) % 2 == 0)
        yy, xx = np.mgrid[0:8 * q, 0:8 * q]
        self.px_light = ((yy // q + xx // q) % 2 == 0).ravel()
        # the rim of a square (outside a disk of RIM squares radius): a piece standing on
        # the square rarely covers it, so the light over the square is measured there
        self.rim = (np.hypot(yy[:q, :q] + 0.5 - q / 2, xx[:q, :q] + 0.5 - q / 2) > RIM * q).ravel()
        self.stats = None  # learned looks: running count, mean and variance per look
        self.model = None  # what reading needs, derived from the stats at each learn
        self._set_view(np.array([4.0, 4.0]), np.inf)

    # --- geometry -----------------------------------------------------------------------
    def _disk(self, shift) -> np.ndarray:
        """The learned read's sampling disk of a square, its centre moved by `shift` (x, y
        in squares, plane directions: y grows towards rank 1)."""
        q = self.q
        yy, xx = np.mgrid[0:q, 0:q] + 0.5
        return np.hypot(yy - q / 2 - shift[1] * q, xx - q / 2 - shift[0] * q) < DISK * q

    def _disk_pixels(self, centre, radius) -> np.ndarray:
        """Flat plane indices of the pixels within `radius` of `centre` (squares)."""
        q, n = self.q, 8 * self.q
        x0, x1 = int(max(0, np.floor((centre[0] - radius) * q))), int(min(n, np.ceil((centre[0] + radius) * q)))
        y0, y1 = int(max(0, np.floor((centre[1] - radius) * q))), int(min(n, np.ceil((centre[1] + radius) * q)))
        yy, xx = np.mgrid[y0:max(y0, y1), x0:max(x0, x1)]
        inside = np.hypot((xx + 0.5) / q - centre[0], (yy + 0.5) / q - centre[1]) < radius
        return (yy[inside] * n + xx[inside]).ravel()

    def view_from(self, H: np.ndarray, frame_size) -> None:
        """Where the camera stands, from the frame -> plane homography `H` and the frame
        size (width, height), assuming square pixels and the optical centre in the
        middle of the frame. Each square is then sampled where a standing piece's lower
        body is (a little away from the camera's foot, more for squares far from it), and
        a piece read on a square hides what its body covers of the squares behind it.
        Without a call, the camera looks straight down from far away."""
        self._set_view(*camera_foot(H, frame_size, self.q))

    def _set_view(self, foot: np.ndarray, height: float) -> None:
        centres = np.stack(np.meshgrid(np.arange(8) + 0.5, np.arange(8) + 0.5), axis=-1)  # x, y down
        away = centres - foot
        dist = np.linalg.norm(away, axis=-1, keepdims=True)
        self.shift = np.minimum(MAX_SHIFT, LEAN_SHIFT * dist / height) * away / np.maximum(dist, 1e-6)
        self.disks = np.stack([[self._disk(self.shift[r, c]) for c in range(8)] for r in range(8)])

        def at(z):  # where height z above each square centre shows on the plane
            return (centres + away * (z / (height - z) if np.isfinite(height) else 0.0)).reshape(64, 2)
        # the base disk stays inside its square, however low the camera
        lean = at(BASE_Z) - centres.reshape(64, 2)
        base = centres.reshape(64, 2) + lean * np.minimum(1.0, (0.45 - BASE_R) / np.maximum(
            np.linalg.norm(lean, axis=1, keepdims=True), 1e-9))
        self.base = [self._disk_pixels(base[i], BASE_R) for i in range(64)]
        heights = np.linspace(*PIECE_Z, 6)
        self.body = [np.unique(np.concatenate([self._disk_pixels(at(z)[i], PIECE_R) for z in heights]))
                     for i in range(64)]
        self.near_first = np.argsort(dist.ravel(), kind="stable")

    # --- the cold read ---------------------------------------------------------------------
    def _cold(self, plane: np.ndarray):
        """Evidence per square (64 x 3: dark-piece share, light-piece share, fine-detail
        share), labels (64, index into LABELS), confidences and visible shares."""
        lab = cv2.cvtColor(plane, cv2.COLOR_BGR2LAB).astype(np.float32)
        L = lab[..., 0]
        flat = lab.reshape(-1, 3)
        refs = [np.median(flat[~self.px_light], axis=0), np.median(flat[self.px_light], axis=0)]
        light_parity = int(refs[1][0] >= refs[0][0])  # 1: the a8 parity is the lighter
        ref_light, ref_dark = refs[light_parity], refs[1 - light_parity]
        contrast = max(float(ref_light[0] - ref_dark[0]), 10.0)
        # chromaticity (each channel's share of the sum) stays in a shadow: print in the dark
        # squares' colour moves it towards theirs, a shadow on a light square does not
        chroma = plane.reshape(-1, 3).astype(np.float32)
        chroma /= chroma.sum(axis=1, keepdims=True) + 1.0
        c_light, c_dark = (np.median(chroma[self.px_light == (p == light_parity)], axis=0) for p in (1, 0))
        axis = c_dark - c_light
        if float(axis @ axis) > CHROMA_APART ** 2:  # square colours of different hue: print can be told
            # towards the dark squares' chroma, but not darker than them (a dark piece is)
            printed = (((chroma - c_light) @ axis / float(axis @ axis) > PRINT)
                       & (flat[:, 0] >= ref_dark[0]))
        else:
            printed = np.zeros(len(flat), bool)
        # print (a logo, a letter) is drawn in thin strokes, in the dark squares' colour or
        # darker; a piece, a shadow is a solid body
        thin = self._thin((printed | (flat[:, 0] < ref_dark[0])).reshape(L.shape))
        strokes = self._around(thin)
        thin = thin.ravel() > 0
        # the brightness gradient's structure tensor: how much the detail runs one way
        gx, gy = cv2.Sobel(L, cv2.CV_32F, 1, 0).ravel(), cv2.Sobel(L, cv2.CV_32F, 0, 1).ravel()
        tensor = (gx * gx, gy * gy, gx * gy)
        # a soft photo (downscaled, rectified) shows less fine detail everywhere: detail
        # counts against what this photo's own square edges give, never more strictly
        # than on photos as sharp as those the thresholds were set on
        highpass = np.abs(L - cv2.GaussianBlur(L, (0, 0), self.q / 16))
        highpass = (highpass / np.clip(self._edge(highpass) / (SHARP_EDGE * contrast), 0.25, 1.0)).ravel()
        L = L.ravel()
        # the light over each square: its own level against its colour's
        blockL = _blocks(lab[..., 0], self.q).reshape(64, -1)[:, self.rim]
        is_light = (self.light.ravel() == bool(light_parity))
        level = np.where(is_light, np.percentile(blockL, 75, axis=1), np.median(blockL, axis=1))
        gain = np.minimum(np.where(is_light, 1.0, 1.5), level / np.where(is_light, ref_light[0], max(ref_dark[0], 1.0)))
        # what a light square is brightest at here: its own level, or its light neighbours'
        # (the diagonal ones) where a shadow or a piece lowers its rim
        grid = np.pad(level.reshape(8, 8), 1, constant_values=np.nan)
        diagonal = np.stack([grid[1 + dr:9 + dr, 1 + dc:9 + dc] for dr in (-1, 1) for dc in (-1, 1)])
        bright = np.maximum(level, np.nanmedian(diagonal, axis=0).ravel())
        # the shading and fine detail a plain dark square of this board shows: the lower
        # quartile over the dark squares (at least half of them are empty in a game)
        texture = []
        for i in np.flatnonzero(~is_light):
            v, g = L[self.base[i]], gain[i]
            texture.append((np.mean(np.abs(v - np.median(v)) > SPREAD * g * contrast),
                            np.mean(highpass[self.base[i]] > DETAIL * g * contrast)))
        plain = np.percentile(np.array(texture), 25, axis=0)
        covered = np.zeros(L.size, bool)
        evidence = np.zeros((64, 3))
        labels = np.zeros(64, int)
        conf = np.ones(64)
        visible = np.ones(64)
        tone = np.zeros(64)  # a dark square's median brightness against its level, in contrasts
        for i in self.near_first:
            idx = self.base[i]
            seen = idx[~covered[idx]]
            visible[i] = seen.size / max(idx.size, 1)
            if visible[i] < MIN_VISIBLE:
                seen = idx
            v, g = L[seen], gain[i]
            if is_light[i]:
                lighter = 0.0
                dark = float(np.mean((v < g * ref_dark[0]) & ~printed[seen] & ~thin[seen]))
                clean = ~strokes[seen]
                spread = float(np.mean((np.abs(v - np.median(v[clean] if clean.any() else v)) > SPREAD * g * contrast) & clean))
                fine = float(np.mean((highpass[seen] > DETAIL * g * contrast) & clean))
                evidence[i] = dark, spread, fine
                dark_margin = dark / DARK_SHARE - 1.0
                light_margin = min(spread / SPREAD_SHARE, fine / DETAIL_SHARE) - 1.0
                # a light piece brighter than the square (white plastic on cream): a shadow
                # only darkens a square, so this needs no fine detail
                brighter = float(np.mean((v > bright[i] + BRIGHTER * contrast) & clean))
                light_margin = max(light_margin, brighter / BRIGHT_SHARE - 1.0)
            else:
                dark = float(np.mean(v < g * DARK_ON_DARK * ref_dark[0]))
                lighter = float(np.mean(v > g * (ref_dark[0] + LIGHT_ON_DARK * contrast)))
                evidence[i] = dark, lighter, float(np.mean(highpass[seen] > DETAIL * g * contrast))
                tone[i] = (float(np.median(v)) - level[i]) / contrast
                dark_margin = dark / DARK_SHARE - 1.0
                light_margin = lighter / LIGHT_SHARE_DARK - 1.0
                # a light piece about as bright as the dark squares (a wooden one) shows the
                # shading and fine detail of a light piece on a light square, beyond what the
                # plain dark squares of this board show ...
                spread = float(np.mean(np.abs(v - np.median(v)) > SPREAD * g * contrast)) - plain[0]
                # ... unless the detail runs one way (wood grain); a piece seen from above is round
                jxx, jyy, jxy = (float(t[seen].sum()) for t in tensor)
                if np.hypot(jxx - jyy, 2 * jxy) <= GRAIN * max(jxx + jyy, 1e-6):
                    light_margin = max(light_margin, min(spread / SPREAD_SHARE, (evidence[i, 2] - plain[1]) / DETAIL_SHARE) - 1.0)
            if dark_margin > 0:
                labels[i], margin = 2, dark_margin
            elif light_margin > 0 and dark > DARK_IN_PIECE and (is_light[i] or dark > lighter):
                # a piece stands here and some of it is dark: a light piece on a light
                # square shows none, on a dark square less than it shows lighter than the
                # square; a dark one set off the disk's middle shows some
                labels[i], margin = 2, min(light_margin, dark / DARK_IN_PIECE - 1.0)
            elif light_margin > 0:
                labels[i], margin = 1, light_margin
            else:
                labels[i], margin = 0, -max(dark_margin, light_margin)
            conf[i] = 1.0 / (1.0 + np.exp(-SURENESS * margin)) * min(1.0, 0.5 + visible[i])
            if labels[i]:
                covered[self.body[i]] = True
        self._sides_by_tone(labels, conf, tone, ~is_light, evidence[:, 1] < LIGHT_SHARE_DARK)
        return evidence, labels, conf, visible

    @staticmethod
    def _sides_by_tone(labels, conf, tone, on_dark, unclear) -> None:
        """A piece read on a dark square (`on_dark`) by its texture alone (`unclear`: not clearly
        lighter than the square, not darker) may be of either side: a light wooden one
        about as bright as the walnut, or a dark wooden one, which can be a little lighter
        than near-black squares. It takes the side whose pieces on the dark squares of
        this board it is nearer to in brightness: the light ones read clearly lighter than
        their square, against the dark ones read darker (or, without any, the square
        itself). Without a light piece read clearly there, nothing tells: left as read.
        Changes `labels` and `conf` in place; the confidence says how far from the middle
        between the two sides the piece's brightness is."""
        on_dark = on_dark & (labels > 0)
        textured = on_dark & unclear & (labels == 1)
        light, dark = on_dark & ~unclear & (labels == 1), on_dark & (labels == 2)
        if not textured.any() or not light.any():
            return
        light_tone = float(np.median(tone[light]))
        dark_tone = float(np.median(tone[dark])) if dark.any() else 0.0
        middle, half = (light_tone + dark_tone) / 2, max(abs(light_tone - dark_tone) / 2, 1e-6)
        labels[textured & (tone < middle)] = 2
        sure = 1.0 / (1.0 + np.exp(-SURENESS * np.abs(tone - middle) / half))
        conf[textured] = np.minimum(conf[textured], sure[textured])

    def _edge(self, highpass: np.ndarray) -> float:
        """The high-pass a step from one square colour to the other gives in this photo:
        across each of the seven inner grid lines each way its largest value (within a
        tenth of a square of the line, as the corners are good to a few pixels), the
        median along all of them (pieces cover only part of the lines)."""
        q, w = self.q, max(1, self.q // 10)
        return float(np.median(np.concatenate(
            [highpass[:, k * q - w:k * q + w].max(axis=1) for k in range(1, 8)]
            + [highpass[k * q - w:k * q + w, :].max(axis=0) for k in range(1, 8)])))

    def _thin(self, mask: np.ndarray) -> np.ndarray:
        """The parts of a plane-shaped bool mask thinner than STROKE squares (uint8): the
        strokes of print, which an opening of that width removes while it keeps a piece's
        solid body (or its shadow)."""
        mask = mask.astype(np.uint8)
        width = max(2, round(STROKE * self.q))
        solid = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((width, width), np.uint8))
        return ((mask > 0) & (solid == 0)).astype(np.uint8)

    def _around(self, thin: np.ndarray) -> np.ndarray:
        """Where print strokes (`_thin`) leave their trace: the fine detail around a stroke
        is the stroke's, as far as the detail filter reaches. Flat bool (plane order)."""
        reach = 2 * max(1, round(self.q / 16)) + 1
        return cv2.dilate(thin, np.ones((reach, reach), np.uint8)).ravel() > 0

    # --- measurements for the learned read ------------------------------------------------
    def _check(self, plane: np.ndarray) -> None:
        if plane.shape[:2] != (8 * self.q, 8 * self.q):
            raise ValueError(f"chess plane is {plane.shape[1]}x{plane.shape[0]} pixels; the reader "
                             f"wants {self.plane_size[0]}x{self.plane_size[1]}")

    def _measure(self, plane: np.ndarray):
        """Per square (8x8): the mean colour (BGR), texture and darkest tenth on its disk;
        the colour at the 7x7 inner points where four squares meet."""
        self._check(plane)
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
        return (mean, texture, dark), joints

    @staticmethod
    def _features(raw, gains=np.ones(3)) -> np.ndarray:
        """The NFEAT features per square, the light's colour and level (`gains`, per BGR
        channel, relative to the first learned position) taken out."""
        mean, texture, dark = raw
        b, g, r = (mean / gains).transpose(2, 0, 1)
        total = b + g + r + 1.0
        level = float(gains.mean())
        return np.stack([total / 3, (r - g) / total, (r + g - 2 * b) / total, texture / level, dark / level], axis=-1)

    def _gains(self, joints) -> np.ndarray:
        """The light now against the light at the first learned position, per colour
        channel, where four squares meet: a drift in level or in colour."""
        if self.stats is None:
            return np.ones(3)
        return np.median(((joints + 1.0) / self.stats["joints"]).reshape(-1, 3), axis=0)

    # --- learning ----------------------------------------------------------------------
    def learn(self, plane_bgr: np.ndarray, expected: dict) -> None:
        """Blend into the learned looks (empty, each side's pieces, on light and on dark
        squares) what the board looks like holding `expected` ({square: label}; a square
        left out is not learned from: a hand still moves over it). Called at the start
        and after every known position: each look keeps a running mean and variance (its
        past weighing at most BLEND_CAP squares, so the looks follow slow change), and a
        look this position lacks keeps what it had. The first position must show the
        empty squares of both colours, and if part of it is left out, both sides' pieces."""
        labels = np.array([[expected.get(CELLS[r * 8 + c], "") for c in range(8)] for r in range(8)])
        if self.stats is None and len(expected) < len(CELLS) and not all((labels == lab).any() for lab in LABELS[1:]):
            raise ValueError("a first position learned in part must show both sides' pieces")
        raw, joints = self._measure(plane_bgr)
        feats = self._features(raw, self._gains(joints))
        st = self.stats or {"n": np.zeros((2, 3)), "mean": np.zeros((2, 3, NFEAT)),
                            "var": np.zeros((2, 3, NFEAT)), "joints": joints + 1.0}
        for p, on in enumerate((self.light, ~self.light)):
            for k, lab in enumerate(LABELS):
                x = feats[on & (labels == lab)]
                if not len(x):
                    continue
                n0, n1 = min(st["n"][p, k], BLEND_CAP), float(len(x))
                m0, m1 = st["mean"][p, k], x.mean(axis=0)
                tot = n0 + n1
                st["var"][p, k] = (n0 * st["var"][p, k] + n1 * x.var(axis=0) + n0 * n1 / tot * (m1 - m0) ** 2) / tot
                st["mean"][p, k] = (n0 * m0 + n1 * m1) / tot
                st["n"][p, k] = tot
        if not (st["n"][:, 0] > 0).all():
            raise ValueError("learn needs empty light and dark squares (the start position has 32)")
        self.stats = st
        self.model = self._model(st)

    @staticmethod
    def _model(st) -> dict:
        """Means and spreads per (square colour, look) from the running statistics."""
        seen = st["n"] > 0
        means, spread = st["mean"].copy(), np.sqrt(st["var"])
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
        return {"means": means, "spread": np.maximum(1.5 * spread, floor), "seen": seen}

    @property
    def unlearned(self) -> bool:
        """Nothing learned yet: it reads cold (the module docstring)."""
        return self.model is None

    # --- reading -----------------------------------------------------------------------
    def read(self, plane_bgr: np.ndarray) -> dict:
        """{square: (label, confidence)} for all 64 squares; below 0.6 means unsure. Cold
        (the module docstring) until something is learned, then from the learned looks."""
        if self.model is None:
            self._check(plane_bgr)
            _, labels, conf, _ = self._cold(plane_bgr)
            return {CELLS[i]: (LABELS[labels[i]], round(float(conf[i]), 3)) for i in range(64)}
        best, conf = self._read_learned(self._measure(plane_bgr))
        return {CELLS[i]: (LABELS[best[i]], round(float(conf[i]), 3)) for i in range(64)}

    def weigh(self, plane_bgr: np.ndarray) -> dict | None:
        """{square: {label: log-likelihood}} from the learned looks (vision/reader.py), or
        None before anything is learned (a cold read gives labels and confidences only)."""
        if self.model is None:
            return None
        ll = self._weigh_learned(self._measure(plane_bgr))
        return {CELLS[i]: dict(zip(LABELS, (float(v) for v in ll[i]))) for i in range(64)}

    def _costs(self, measured) -> tuple[np.ndarray, np.ndarray]:
        """Per square (64 x 3, LABELS order): the cost of each learned look (a Gaussian per
        look: minus twice its log-likelihood; infinite for a look never seen on this square
        colour) and its squared distance in spreads."""
        raw, joints = measured
        m = self.model
        feats = self._features(raw, self._gains(joints)).reshape(64, 1, NFEAT)
        par = np.where(self.light, 0, 1).reshape(64)  # square -> model index
        means, spread = m["means"][par], m["spread"][par]  # 64, looks, features
        d2 = (((feats - means) / spread) ** 2).sum(axis=-1)
        # a tight look (an empty square) is not also a wide one
        return np.where(m["seen"][par], d2 + 2.0 * np.log(spread).sum(axis=-1), np.inf), d2

    @staticmethod
    def _far(cost: np.ndarray, d2: np.ndarray) -> np.ndarray:
        """Per square, 1 near a learned look, less the further it is from every look seen
        (d2 beyond ~20 per feature is not a look seen before: a hand, a fallen piece)."""
        near = d2[np.arange(len(d2)), cost.argmin(axis=-1)]
        return np.exp(-np.maximum(0.0, near - 20.0 * NFEAT) / (20.0 * NFEAT))

    def _weigh_learned(self, measured) -> np.ndarray:
        """Per square (64 x 3), how likely each learned look makes its measurements,
        tempered (the features are not independent: a piece's brightness and its darkest
        tenth move together), the best look at 0 and none below -LL_FLOOR; a square far
        from every look says less either way."""
        cost, d2 = self._costs(measured)
        ll = -0.5 * TEMPER * (cost - cost.min(axis=-1, keepdims=True))
        return np.maximum(ll * self._far(cost, d2)[:, None], -LL_FLOOR)

    def _read_learned(self, measured) -> tuple[np.ndarray, np.ndarray]:
        """The most likely learned look per square (64, index into LABELS) and its share of
        the likelihood, lowered far from every look."""
        cost, d2 = self._costs(measured)
        like = np.exp(-0.5 * (cost - cost.min(axis=-1, keepdims=True)))
        return cost.argmin(axis=-1), self._far(cost, d2) / like.sum(axis=-1)

    def _visible(self, occupied: np.ndarray) -> np.ndarray:
        """The share of each square's cold-read disk that the pieces on `occupied` squares
        nearer the camera leave in view."""
        covered = np.zeros(64 * self.q * self.q, bool)
        visible = np.ones(64)
        for i in self.near_first:
            idx = self.base[i]
            visible[i] = 1.0 - float(covered[idx].mean()) if idx.size else 0.0
            if occupied[i]:
                covered[self.body[i]] = True
        return visible

    def visible(self, cells: dict) -> list[float]:
        """How well each square can be seen at this camera angle (CELLS order, 0..1), with
        the squares read occupied in `cells` ({square: (label, confidence)}): the share
        of its base disk that the pieces standing nearer the camera leave in view; low
        behind a tall piece. What a square shows counts that much (vision/change.py)."""
        return [float(v) for v in self._visible(np.array([cells[c][0] != "empty" for c in CELLS]))]


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
