"""The camera picture boxes the cells an alarm or a doubt names, where the camera saw them."""
from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from controller.demo_rig import render_connect4 as rc
from controller.events import Bus, Event
from controller.games.smb.board import world_data
from controller.registry import ENTRIES
from controller.registry import entry
from web.camera import CameraShots, view_box


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_reader_outlines_each_of_its_cells_inside_its_plane(name):
    options = {"world": world_data(1)} if name == "smb" else {}  # the World board in play
    reader = entry(name).make_reader(**options)
    w, h = reader.plane_size
    for cell in reader.cells:
        box = np.asarray(reader.cell_outline(cell), float)
        assert box.shape == (4, 2) and np.isfinite(box).all(), cell
        assert (box >= 0).all() and (box[:, 0] <= w).all() and (box[:, 1] <= h).all(), cell
        assert np.ptp(box[:, 0]) > 0 and np.ptp(box[:, 1]) > 0, cell  # a box, not a point


def _edge_points(shot, col, row, shown):
    """Points along the four sides of hole (col, row)'s square in the picture shown
    (`shown`: the part of the frame and its scale, web.camera.view_box)."""
    cx, cy = rc.hole_centre(col, row)
    half = rc.PITCH / 2
    corners = [(cx - half, cy + half), (cx + half, cy + half), (cx + half, cy - half), (cx - half, cy - half)]
    pts = []
    for a, b in zip(corners, corners[1:] + corners[:1]):
        pts += [(a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s) for s in np.linspace(0.15, 0.85, 15)]
    (x0, y0, _, _), scale = shown
    return (rc.to_frame(shot, pts) - (x0, y0)) * scale


def _share(img, pts, colour) -> float:
    """Share of the points with a pixel of `colour` (BGR, roughly) within 2 px."""
    hits = 0
    for x, y in pts:
        patch = img[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3].reshape(-1, 3).astype(int)
        hits += bool((np.abs(patch - colour).max(axis=1) < 60).any())
    return hits / len(pts)


def test_an_alarm_boxes_its_cell_solid_red_and_a_doubt_dashed_amber():
    shot = rc.camera_shot()
    frame = rc.render({}, shot=shot)
    watcher = entry("connect4").watcher(corners=rc.hole_centres_in_frame(shot).tolist())
    watcher.read_frame(frame)
    game = ENTRIES["connect4"].rules_class()()
    service = SimpleNamespace(bus=Bus(), watcher=watcher, referee=SimpleNamespace(game=game))
    shots = CameraShots(service)
    shown = view_box(watcher.quad, frame.shape)  # the board and a margin, not the room

    def picture(which):
        return cv2.imdecode(np.frombuffer(shots.jpeg(which), np.uint8), cv2.IMREAD_COLOR)

    red, amber = (40, 40, 220), (0, 190, 255)
    service.bus.publish(Event("illegal", {"source": "camera", "reason": "a floating chip",
                                          "cells": ["column 5, row 4"], "who": "Luigi"}))
    alarm = picture("alarm")
    assert _share(alarm, _edge_points(shot, 4, 3, shown), red) > 0.9  # boxed all round
    assert _share(alarm, _edge_points(shot, 1, 0, shown), red) < 0.1  # another hole is not
    assert _share(picture("live"), _edge_points(shot, 4, 3, shown), red) < 0.1  # nor the live picture

    service.bus.publish(Event("doubt", {"text": "which column?", "cells": ["column 2, row 1"]}))
    live = picture("live")
    dashes = _share(live, _edge_points(shot, 1, 0, shown), amber)
    assert 0.3 < dashes < 0.9  # dashed: drawn along the edge, with gaps
    assert _share(live, _edge_points(shot, 4, 3, shown), amber) < 0.1
    service.bus.publish(Event("restored", {}))
    assert _share(picture("live"), _edge_points(shot, 1, 0, shown), amber) < 0.1
