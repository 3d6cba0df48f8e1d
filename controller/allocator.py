"""glibc's allocator, set once for a process that runs all season.

Why: the referee's threads (camera, referee, page, die link, OpenCV's own) each get a
glibc malloc arena of their own, and every arena keeps what it has freed for reuse, up to
a threshold that glibc raises to twice the largest frame-sized buffer freed. The soak
(bench/soak.py, 25-game runs) measured what this costs: with 15 MB in use by malloc,
60-110 MB more was freed but kept, moving from arena to arena from game to game, so
resident memory swung between 96 and 180 MB and never settled; glibc's malloc_trim cannot
give back the top of a thread's arena, so not even a trim brought it down. With two
arenas it still swung by 35 MB; with one (all threads share the main arena, which
malloc_trim does shrink) the memory held after a collection and a trim stayed within
0.2 MB game after game, and the games took no longer: the threads allocate a few large
buffers per frame, too few for a shared lock to matter. The other remedy tried, a fixed
mmap threshold so frames are mapped and unmapped, held memory as well but cost five
times the system time (docs/hardening.md, "The soak").

`settle()` is called once by `referee serve` and `referee demo` (web/server.py) before
any thread starts; bench/soak.py calls it as they do. Where the C library is
not glibc (no `mallopt`), it does nothing. An option already set in the environment
(MALLOC_ARENA_MAX, glibc's own variable) is left as the user set it.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os

M_ARENA_MAX = -8  # <malloc.h>
ARENA_MAX = 1  # the main arena, for all threads

_done: dict | None = None


def settle() -> dict:
    """Set glibc's allocator options once; {option: value} of what was set ({} where the
    C library has no `mallopt`, or the environment already set it)."""
    global _done
    if _done is not None:
        return _done
    _done = {}
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to set
        return _done
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    if "MALLOC_ARENA_MAX" not in os.environ and mallopt(M_ARENA_MAX, ARENA_MAX) == 1:
        _done["arena_max"] = ARENA_MAX
    return _done
