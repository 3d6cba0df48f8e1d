"""controller/allocator.py: `referee serve` keeps glibc to one malloc arena however many
threads allocate frames (issue 13: the soak's memory swung by 100 MB without it), leaves
a MALLOC_ARENA_MAX the user set alone, and does nothing where the C library is not glibc.
Each count runs in a fresh interpreter, as a service starts."""
from __future__ import annotations

import argparse
import ctypes
import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from controller import allocator

ROOT = Path(__file__).resolve().parents[2]

# Threads that each hold frame-sized numpy arrays at once (as the camera, referee and page
# threads do); then glibc's own report of its arenas (malloc_info: one <heap> per arena).
ARENAS = r"""
import ctypes, sys, tempfile, threading
import numpy as np
from controller import allocator
if sys.argv[1] == "settle":
    print(allocator.settle(), file=sys.stderr)
go = threading.Barrier(8)
def work():
    go.wait()
    frames = [np.ones((720, 1280, 3), np.uint8) for _ in range(3)]
    small = [np.ones(5000) for _ in range(50)]
    go.wait()
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
libc = ctypes.CDLL("libc.so.6")
libc.fopen.restype = ctypes.c_void_p
libc.fclose.argtypes = [ctypes.c_void_p]
libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
with tempfile.NamedTemporaryFile(suffix=".xml") as f:
    fp = libc.fopen(f.name.encode(), b"w")
    libc.malloc_info(0, fp)
    libc.fclose(fp)
    print(open(f.name).read().count("<heap nr="))
"""

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the arenas are glibc's")


def arenas(mode: str, **env) -> int:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")} | env
    out = subprocess.run([sys.executable, "-c", ARENAS, mode], cwd=ROOT, env=environ,
                         capture_output=True, text=True, timeout=60, check=True)
    return int(out.stdout.split()[-1])


@glibc
def test_threads_share_one_arena_once_settled():
    assert arenas("plain") > 2  # glibc's default: an arena per thread, up to 8 per core
    assert arenas("settle") == 1


@glibc
def test_an_arena_count_the_user_set_is_kept():
    assert arenas("settle", MALLOC_ARENA_MAX="4") == 4


def test_without_glibc_nothing_is_set_and_nothing_fails(monkeypatch):
    def no_glibc(*args, **kwargs):
        raise OSError("no such library")

    monkeypatch.setattr(allocator, "_done", None)
    monkeypatch.setattr(ctypes, "CDLL", no_glibc)
    assert allocator.settle() == {}


def test_serve_and_demo_settle_the_allocator_first(monkeypatch, tmp_path):
    """The two commands that run for a season settle it before anything else (even a
    config that stops them), so no thread has taken an arena of its own first."""
    import controller.demo
    import web.server

    calls = []
    monkeypatch.setattr(web.server, "settle", lambda: calls.append("settle"))
    monkeypatch.setattr(controller.demo, "run_demo", lambda args, serve: calls.append("demo") or 0)
    broken = tmp_path / "referee.toml"
    broken.write_text("[camera\n")
    assert web.server.cmd_serve(argparse.Namespace(command="serve", config=str(broken), port=None)) == 2
    assert web.server.cmd_demo(argparse.Namespace()) == 0
    assert calls == ["settle", "settle", "demo"]
