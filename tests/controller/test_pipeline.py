"""Issue 21 #6, #10: `referee read` (and the pictures a folder camera reads) on pictures
that crashed it, and `referee replay` on a file that is there but is no video. The real
command as a subprocess, with the address space capped at 1 GB as on a Pi: the size of a
picture is checked from its header before anything is decoded (the header reading itself:
tests/vision/test_images.py)."""
from __future__ import annotations

import resource
import struct
import subprocess
import sys
import zlib

import cv2
import numpy as np
import pytest

from controller.games import GAMES

ONE_GB = 1024 ** 3


def referee(*args: str) -> subprocess.CompletedProcess:
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (ONE_GB, ONE_GB))
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=60, preexec_fn=cap)


def claims(path, side: int = 20_000) -> None:
    """A PNG whose header says side x side pixels (1.2 GB decoded) and whose data holds
    its first rows: whatever decodes it allocates the whole picture first."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = zlib.compress(bytes(1 + 3 * side) * 16)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def test_a_picture_too_large_to_decode_is_refused_from_its_header(tmp_path):
    """A 1.1 MB PNG of 20000x20000 pixels peaked at 3.2 GB (2.9 GB here, 10.8 s)."""
    picture = tmp_path / "huge.png"
    claims(picture)
    run = referee("read", str(picture), "--game", "chess")
    assert run.returncode == 2, run.stderr[-500:]
    assert run.stderr == (f"referee read: {picture}: 20000x20000 pixels is 400 megapixels; at most 50 "
                          "(scale it down: a board reads well at 1-12 megapixels)\n")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_picture_too_small_for_a_board_is_one_line(tmp_path, game):
    """A 1x1 picture was cv2.error (!dsize.empty()) for connect4, chess, labyrinth and monopoly."""
    picture = tmp_path / "dot.png"
    cv2.imwrite(str(picture), np.zeros((1, 1, 3), np.uint8))
    run = referee("read", str(picture), "--game", game)
    assert run.returncode == 2
    assert run.stderr == f"referee read: {picture}: 1x1 pixels is too small to show a board (at least 32 a side)\n"


def test_smb_reads_its_own_marker_sheet(tmp_path):
    """`--game smb` raised TypeError (SmbSpaceReader needs the World) on any picture."""
    sheet = tmp_path / "sheet.png"
    assert referee("markers", "--game", "smb", "--out", str(sheet)).returncode == 0
    run = referee("read", str(sheet), "--game", "smb", "--json")
    assert run.returncode == 0, run.stderr[-500:]
    assert '"name": "START (w1-00)"' in run.stdout or "w1-00" in run.stdout


def test_replaying_a_file_that_is_there_but_no_video_says_so(tmp_path):
    """`replay empty.png` said "no such file" for a file that exists."""
    empty = tmp_path / "empty.png"
    empty.touch()
    run = referee("replay", str(empty), "--game", "connect4")
    assert run.returncode == 2
    assert "no such file" not in run.stderr and f"{empty}" in run.stderr and "is empty (0 bytes)" in run.stderr
    (tmp_path / "notes.mp4").write_text("not a video, only words")
    run = referee("replay", str(tmp_path / "notes.mp4"), "--game", "connect4")
    assert run.returncode == 2 and "no such file" not in run.stderr and "23 bytes" in run.stderr
