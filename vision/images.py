"""Reading a picture file, its size checked from its header before anything is decoded.

OpenCV allocates the whole decoded picture first: a 1.1 MB PNG that claims 20000x20000
pixels took 3.2 GB before a single check ran, and a Pi has 1 GB. So the
width and height are read from the file's header (PNG, JPEG, BMP, TIFF and WebP, the
types the referee reads) and a picture over MAX_PIXELS, or too small to hold a board
(under MIN_SIDE pixels a side: a 1x1 picture crashed the readers), is refused with a
message saying so, undecoded. A header that cannot be read is refused the same way.
"""
from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

IMAGE_TYPES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
MAX_PIXELS = 50_000_000  # a 48 MP phone photo still reads; decoded it is 150 MB
MIN_SIDE = 32
HEAD = 1024 * 1024  # bytes read to find the size (a JPEG's frame header follows its EXIF and ICC data)


class ImageError(ValueError):
    """A picture that is refused; the message names the file and why."""


def _png(b: bytes):
    if b.startswith(b"\x89PNG\r\n\x1a\n") and b[12:16] == b"IHDR":
        return struct.unpack(">II", b[16:24])
    return None


def _jpeg(b: bytes):
    if not b.startswith(b"\xff\xd8"):
        return None
    i = 2
    while i + 9 < len(b):
        if b[i] != 0xFF:
            return None
        marker = b[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:  # no length follows
            i += 2 if marker != 0xFF else 1
            continue
        length = struct.unpack(">H", b[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h, w = struct.unpack(">HH", b[i + 5:i + 9])
            return w, h
        i += 2 + length
    return None


def _bmp(b: bytes):
    if b.startswith(b"BM") and len(b) >= 26:
        w, h = struct.unpack("<ii", b[18:26])
        return abs(w), abs(h)
    return None


def _webp(b: bytes):
    if not (b.startswith(b"RIFF") and b[8:12] == b"WEBP") or len(b) < 30:
        return None
    kind = b[12:16]
    if kind == b"VP8 ":
        w, h = struct.unpack("<HH", b[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if kind == b"VP8L":
        bits = int.from_bytes(b[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8X":
        return int.from_bytes(b[24:27], "little") + 1, int.from_bytes(b[27:30], "little") + 1
    return None


def _tiff(b: bytes):
    order = {b"II": "<", b"MM": ">"}.get(b[:2])
    if order is None or len(b) < 8:
        return None
    first = struct.unpack(order + "I", b[4:8])[0]
    if first + 2 > len(b):
        return None
    size = {}
    for k in range(struct.unpack(order + "H", b[first:first + 2])[0]):
        entry = b[first + 2 + 12 * k:first + 14 + 12 * k]
        if len(entry) < 12:
            return None
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):  # ImageWidth, ImageLength: SHORT or LONG
            size[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), entry[8:10] if kind == 3 else entry[8:12])[0]
    return (size[256], size[257]) if len(size) == 2 else None


def header_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the first bytes of a picture file, or None."""
    for reader in (_png, _jpeg, _bmp, _webp, _tiff):
        try:
            found = reader(head)
        except struct.error:
            found = None
        if found is not None:
            return found
    return None


def read_image(path: str | Path) -> np.ndarray:
    """The picture at `path` as a BGR frame; ImageError naming the file when it is not
    there, not a picture type the referee reads, out of size, or undecodable."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD)
    except OSError as exc:
        raise ImageError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    size = header_size(head)
    if size is None:
        raise ImageError(f"{path}: not a picture the referee reads ({', '.join(sorted(IMAGE_TYPES))}), "
                         f"or its header is damaged ({len(head):,} bytes read)")
    w, h = size
    if w * h > MAX_PIXELS:
        raise ImageError(f"{path}: {w}x{h} pixels is {w * h / 1e6:.0f} megapixels; at most "
                         f"{MAX_PIXELS / 1e6:.0f} (scale it down: a board reads well at 1-12 megapixels)")
    if min(w, h) < MIN_SIDE:
        raise ImageError(f"{path}: {w}x{h} pixels is too small to show a board (at least {MIN_SIDE} a side)")
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise ImageError(f"{path}: its header says {w}x{h} pixels but the picture cannot be decoded (damaged?)")
    return frame
