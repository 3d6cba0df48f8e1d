"""Pieces set down off their squares' centres: players put a piece anywhere on its
square, a third of a square from the middle, and brush pieces that did not move. The
referee follows every ply, with no alarm, doubt or correction, from a camera at an angle
and from above (a render: the real photos' pieces stand as players left them, and those
are in tests/rig/test_chess_rectified.py and bench/real_boards.py)."""
import dataclasses

import numpy as np
import pytest

from chess_watching import positions_of, watch
from controller.demo_rig.render_chess import Camera
from support import master_game


def set_down_anyhow(positions, reach: float, seed: int):
    """Each piece put down up to `reach` squares off its square's centre where it lands;
    after each ply one piece that did not move is brushed to another place on its
    square."""
    rng = np.random.default_rng(seed)

    def anywhere():
        a, r = rng.uniform(0, 2 * np.pi), rng.uniform(0.5, 1.0) * reach
        return r * np.cos(a), r * np.sin(a)

    off, out = {}, []
    for i, pos in enumerate(positions):
        before = positions[i - 1].labels if i else {}
        for sq, lab in pos.labels.items():
            if lab == "empty":
                off.pop(sq, None)
            elif before.get(sq) != lab:
                off[sq] = anywhere()
        if i:
            stayed = sorted(sq for sq in off if before.get(sq) == pos.labels[sq])
            off[stayed[rng.integers(len(stayed))]] = anywhere()
        out.append(dataclasses.replace(pos, off=dict(off)))
    return out


@pytest.mark.parametrize("camera", ["at an angle", "above"])
def test_pieces_set_down_off_centre_and_brushed_are_followed(camera):
    sans = master_game(20, "kasparov-deep-blue-1997-game1.pgn")
    positions, _ = positions_of(sans)
    sloppy = set_down_anyhow(positions, reach=0.35, seed=11)
    assert any(abs(dx) > 0.25 or abs(dy) > 0.25 for p in sloppy for dx, dy in p.off.values())
    cam = Camera.above(seed=3) if camera == "above" else Camera(seed=3)
    referee, events = watch(sloppy, style="wood", still_s=2.0, camera=cam)
    assert referee.history == sans
    assert [(e.kind, e.data) for e in events if e.kind in ("illegal", "doubt", "corrected")] == []
