"""Reading a picture file (vision/images.py): its size is read from the header of each
type the referee reads, before anything is decoded, and a picture out of size, a file
that is no picture, a header that lies about what follows or a file that is not there is
refused with a message naming the file and why; a damaged header never raises anything
else. The `referee read` command on such files: tests/controller/test_pipeline.py."""
import random
import struct
import zlib

import cv2
import numpy as np
import pytest

from vision.images import MAX_PIXELS, ImageError, header_size, read_image

TYPES = (".png", ".jpg", ".bmp", ".tif", ".webp")


def encoded(ext: str, w: int = 1000, h: int = 300) -> bytes:
    rng = np.random.default_rng(21)
    ok, data = cv2.imencode(ext, rng.integers(0, 255, (h, w, 3), np.uint8))
    assert ok
    return data.tobytes()


def png_claiming(w: int, h: int, picture: bytes) -> bytes:
    """`picture` (a PNG) with its header saying w x h pixels, its checksum made right."""
    ihdr = b"IHDR" + struct.pack(">II", w, h) + picture[24:29]
    return picture[:8] + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr)) + picture[33:]


def test_each_picture_type_gives_its_size_from_the_header():
    for ext in TYPES:
        assert header_size(encoded(ext)) == (1000, 300), ext
        assert header_size(encoded(ext, 41, 977)) == (41, 977), ext
    assert header_size(b"GIF89a...") is None and header_size(b"\x89PNG\r\n\x1a\n") is None


def test_a_jpeg_s_size_is_found_after_its_exif_and_colour_profile():
    jpeg = encoded(".jpg", 640, 480)
    app1 = b"\xff\xe1" + struct.pack(">H", 40_002) + b"Exif\x00\x00" + bytes(39_994)
    app2 = b"\xff\xe2" + struct.pack(">H", 3_002) + b"ICC_PROFILE\x00" + bytes(2_988)
    assert header_size(jpeg[:2] + app1 + app2 + jpeg[2:]) == (640, 480)


def test_a_damaged_header_is_none_never_an_exception():
    rng = random.Random(21)
    for ext in TYPES:
        data = encoded(ext, 64, 48)
        for _ in range(200):
            cut = bytearray(data[:rng.randint(0, 200)])
            for _ in range(rng.randint(0, 3)):
                if cut:
                    cut[rng.randrange(len(cut))] = rng.randrange(256)
            size = header_size(bytes(cut))
            assert size is None or (len(size) == 2 and all(isinstance(v, int) for v in size)), (ext, size)


def test_a_picture_is_read_as_a_colour_frame(tmp_path):
    for ext in TYPES:
        path = tmp_path / f"board{ext}"
        path.write_bytes(encoded(ext, 120, 90))
        frame = read_image(path)
        assert frame.shape == (90, 120, 3) and frame.dtype == np.uint8, ext


def test_a_header_claiming_too_many_pixels_is_refused_undecoded(tmp_path):
    side = int(MAX_PIXELS ** 0.5) + 1
    path = tmp_path / "huge.png"
    path.write_bytes(png_claiming(side, side, encoded(".png", 64, 64)))
    with pytest.raises(ImageError, match=rf"^{path}: {side}x{side} pixels is 50 megapixels; at most 50 \(scale it down"):
        read_image(path)
    path.write_bytes(png_claiming(8000, 6000, encoded(".png", 64, 64)))  # 48 MP: not refused for its size
    with pytest.raises(ImageError, match="header says 8000x6000 pixels but the picture cannot be decoded"):
        read_image(path)  # (it is a lie: the data holds 64x64)


def test_a_header_lying_about_the_data_is_refused_saying_so(tmp_path):
    path = tmp_path / "lies.png"
    path.write_bytes(png_claiming(640, 480, encoded(".png", 64, 64)))
    with pytest.raises(ImageError, match=rf"^{path}: its header says 640x480 pixels but the picture cannot be decoded"):
        read_image(path)


@pytest.mark.parametrize("name, content, words", [
    ("dot.png", None, "1x1 pixels is too small to show a board (at least 32 a side)"),
    ("notes.png", b"a shopping list, not a picture", "not a picture the referee reads (.bmp, .jpeg, .jpg"),
    ("empty.jpg", b"", "or its header is damaged (0 bytes read)"),
    ("missing.png", False, "cannot be read (No such file or directory)"),
])
def test_what_is_no_board_picture_is_refused_naming_the_file(tmp_path, name, content, words):
    path = tmp_path / name
    if content is None:
        cv2.imwrite(str(path), np.zeros((1, 1, 3), np.uint8))
    elif content is not False:
        path.write_bytes(content)
    with pytest.raises(ImageError) as refused:
        read_image(path)
    assert str(refused.value).startswith(f"{path}: ") and words in str(refused.value)
