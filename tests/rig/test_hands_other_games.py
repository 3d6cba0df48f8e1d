"""A hand is a hand in every game the camera follows (issue 27, item 6): real hands and
arms cut out of the scholar's mate video (tests/real_hands.py) rest still for 2 s over
the rendered boards of Super Mario Bros., Monopoly and Labyrinth, reaching in from the
nearest edge with the hand over the cells the move just changed; then the board is clear
for 2 s. The referee raises no alarm and no doubt, the cells it calls covered lie under
the hand, and every move is recorded in order once the hand leaves. Each runs the Table
as `referee replay` does, nobody tapping; rolls and choices come in as the die module
and the page give them."""
import random

import numpy as np
import pytest

import real_hands
from controller.config import CameraSettings, GameSettings
from controller.demo_rig import render_labyrinth as R
from controller.demo_rig.players.base import Noise
from controller.devices.dice import roll
from controller.events import Bus, Enter
from controller.journal import Journal
from controller.referee import Referee
from controller.registry import entry
from controller.table import Table

FPS = 15
HANDS = ["resting", "reaching", "sleeve", "fist"]


def table_for(name: str, seed: int) -> tuple[Table, object]:
    referee = Referee(Journal(":memory:"), Bus())
    referee.new_game(name, rng=random.Random(seed))
    table = Table(referee, GameSettings(name=name), CameraSettings())
    return table, entry(name).player_class()(referee.game, random.Random(seed), seed)


def photo(name: str, player, state, seed: int) -> np.ndarray:
    scene = player.scene(state)
    if name == "labyrinth":
        return R.render(scene, shot=player.shot, rng=np.random.default_rng(seed))
    return player.photo(scene)


def changed(game, before, after) -> list:
    return [c for c, lab in game.board(after).items() if game.board(before).get(c) != lab]


def under_the_hand(game, before, after) -> object:
    """The cell a hand rests over after a move: the middle of the cells it changed (a
    pawn has no cell of its own: the tile it went to)."""
    cells = [c for c in changed(game, before, after)
             if not (isinstance(c, str) and (c.startswith("pawn:") or c == "spare"))]
    if not cells:  # a Labyrinth pawn moved: its label names the tile it stands on
        cells = [R.cell_rc(game.board(after)[changed(game, before, after)[0]])]
    return cells[len(cells) // 2]


def play(name: str, seed: int, turns: int, hand_s: float = 2.0, lost=()):
    """The players play `turns` moves on the table, a real hand resting `hand_s` after each; every
    event, the inputs in order, and (covered cells, the cells under the hand or changed
    by the move: a pushed row joins the hand it touches) for every view read while a
    hand lay there. The camera sees nothing of the moves numbered in `lost` (a lost
    stretch of video): the next frames show the board after them."""
    table, player = table_for(name, seed)
    referee, game, rng, noise = table.referee, table.referee.game, random.Random(seed), Noise(seed)
    events, truth, covers, t = [], [], [], 0.0

    def hold(frame, seconds, under=None, seen=True):
        nonlocal t
        for _ in range(int(seconds * FPS)):
            if seen:
                events.extend(table.feed(t, noise(frame)))
            view = table.watcher.last_view
            if under is not None and view is not None and view.t == t:
                covers.append((set(view.covered), under))
            t += 1 / FPS

    def enter(text, source):
        result, caused = table.run(Enter(text, source=source))
        assert result.ok, (text, result.error)
        events.extend(caused)
        truth.append(text)

    state = referee.state  # the table's position (the referee's, but while the camera is lost)
    hold(photo(name, player, state, seed), 2.0)
    shown = 0
    while shown < turns:
        if not lost:
            state = referee.state
        prompt = game.prompt(state)
        if prompt.kind == "roll":
            enter(roll(prompt.die, rng).notation, "die")
            continue
        choice = player.choose(state, prompt)
        if isinstance(choice, str):
            enter(choice, "page")
            continue
        after = game.apply(state, choice)
        if game.board(after) == game.board(state):
            enter(game.notation(state, choice), "page")
            continue
        truth.append(game.notation(state, choice))
        still, cell, hand = photo(name, player, after, seed), under_the_hand(game, state, after), HANDS[shown % 4]
        under = real_hands.covered_cells(table.watcher, cell, hand, table.watcher.reader.cells, share=0.02)
        hold(real_hands.paste_over_cell(still, table.watcher, cell, hand), hand_s,
             under | {cell} | set(changed(game, state, after)), seen=shown not in lost)
        hold(still, 2.0, seen=shown not in lost)
        state, shown = after, shown + 1
    return events, truth, covers, referee, state


# a hand over a Labyrinth's printed frame is waited out for 3 s (vision/watch.py
# PATIENCE_S: its never-changing parts are covered), so there it rests 4 s to be read
@pytest.mark.parametrize("name, seed, hand_s", [("smb", 3, 2.0), ("monopoly", 5, 2.0), ("labyrinth", 3, 4.0)])
def test_real_hands_resting_on_every_game_the_camera_follows(name, seed, hand_s):
    events, truth, covers, referee, _ = play(name, seed, turns=6, hand_s=hand_s)
    assert referee.history == truth
    assert [(e.kind, e.data) for e in events if e.kind in ("illegal", "doubt", "corrected")] == []
    for covered, under in covers:  # what a hand covers lies under it (or moved), nothing far from it
        assert covered <= under, (covered, under)
    assert sum(bool(covered) for covered, _ in covers) >= 2, covers  # and the hands were read as hands


def test_a_labyrinth_seen_again_after_a_lost_stretch_of_video_is_found():
    """The camera sees nothing of three actions (a push, the walk, the next push: a lost
    stretch of video), then the board again under the next hand: what it missed is found
    from the sure position and said once as recovered late, and the game is followed on,
    with no alarm and no doubt. The referee's board is the table's; the actions no view
    showed may be found in another order that leaves the same board and spare tile
    (nothing seen tells them apart: docs/following.md)."""
    events, truth, covers, referee, table = play("labyrinth", 3, turns=7, hand_s=2.0, lost=(2, 3, 4))
    game = referee.game
    assert game.board(referee.state) == game.board(table)
    assert referee.history[:2] == truth[:2] and len(referee.history) == len(truth)
    assert [(e.kind, e.data) for e in events if e.kind in ("illegal", "doubt")] == []
    recovered = [e.data["notation"] for e in events if e.kind == "recovered"]
    assert len(recovered) == 1 and len(recovered[0]) >= 3, recovered
