"""Monopoly through the camera: rendered views of the board read by the Monopoly reader
(vision/read_monopoly.py, on read_spaces' empty-or-taken reading) and matched by the
referee against the token placements it expects; a token on the wrong space is put into
words. The renderer draws tokens in colours a little off the reader's nominal ones."""
import random

import numpy as np

import pytest

from controller.events import Bus
from controller.games import load_game
from controller.journal import Journal
from controller.referee import Referee
from controller.simulations.monopoly import random_action
from controller.demo_rig import render_monopoly as rm
from controller.demo_rig import synth
from vision.read_monopoly import MonopolyReader, space_box
from controller.registry import entry

SIZE = (960, 720)
DRAWN = {"p0": (50, 40, 200), "p1": (60, 155, 50), "p2": (180, 125, 235)}  # BGR, not the nominal ones


class Table:
    """A referee and a camera over the board: `show` renders tokens where `labels` say,
    lets the watcher settle, and hands the view to the referee."""

    def __init__(self, seed: int):
        bus = Bus()
        self.events = []
        bus.subscribe(self.events.append)
        self.referee = Referee(Journal(":memory:"), bus)
        self.referee.new_game("monopoly", setup={"players": 3, "decks": {
            "question_block": list(range(16)), "bowser_fury": list(range(16))}})
        spaces = self.referee.game.b.spaces
        self.kinds, self.sets = [s.kind for s in spaces], [s.set for s in spaces]
        self.shot = synth.tilted(size=SIZE, margin=0.05, tilt=0.06, seed=seed)
        self.watcher = entry("monopoly").watcher(reader=MonopolyReader())
        self.seed, self.t = seed, 0.0
        self.watcher.learn(self.board())
        assert self.look(self.board()) is not None

    def board(self) -> dict:
        return self.referee.game.board(self.referee.state)

    def look(self, labels, light=1.0):
        view = None
        for _ in range(2):
            frame = rm.render(labels, self.kinds, self.sets, shot=self.shot, light=light,
                              seed=self.seed, colours=DRAWN)
            view = self.watcher.feed(self.t, frame) or view
            self.t += 0.3
        return view

    def show(self, changes: dict, light=1.0):
        labels = {**self.board(), **changes}
        view = self.look(labels, light)
        assert view is not None
        return self.referee.observe(view), view


def test_geometry_runs_clockwise_from_go_in_the_bottom_right():
    assert space_box(0)[2:] == (440, 440)  # GO: bottom-right corner
    assert space_box(10)[0] == 0 and space_box(10)[3] == 440  # Jail: bottom-left
    assert space_box(20)[:2] == (0, 0) and space_box(30)[1] == 0
    assert space_box(5)[0] < space_box(4)[0] and space_box(15)[1] < space_box(14)[1]
    with pytest.raises(ValueError, match="not on the board"):
        space_box(40)


@pytest.mark.parametrize("seed,light", [(1, 0.85), (2, 1.1)])
def test_a_placement_is_accepted_and_a_token_on_the_wrong_space_is_flagged(seed, light):
    table = Table(seed)
    table.referee.enter("roll 4 1")  # Bowser 20 -> 24; Mario's Cap 0 -> 5, a Warp Pipe: on to 15
    event, view = table.show({20: "empty", 24: "bowser"}, light)
    assert event is not None and event.kind == "move" and event.data["notation"] == "put bowser@24"
    # Mario's Cap put on Question Block 2 instead of Warp Pipe 2
    event, view = table.show({0: "p1+p2", 12: "p0"}, light)
    assert view.cells[12] == ("p0", pytest.approx(0.9)) and view.cells[0][0] == "p1+p2"
    assert event.kind == "illegal"
    assert event.data["reason"] == "Mario's Cap should be on Warp Pipe 2, not on Question Block 2"
    assert table.referee.snapshot()["alarm"]["cells"] == ["Question Block 2"]
    # moved on to the right space: accepted, and it is Luigi's turn to roll
    event, view = table.show({0: "p1+p2", 15: "p0"}, light)
    assert event.kind == "move" and event.data["notation"] == "put p0@15"
    assert table.referee.snapshot()["prompt"]["seat"] == 1


def test_two_tokens_moved_between_views_are_both_placed():
    table = Table(3)
    table.referee.enter("roll 2 1")  # Bowser 20 -> 22; Mario's Cap 0 -> 3
    event, view = table.show({20: "empty", 22: "bowser", 0: "p1+p2", 3: "p0"})
    assert event.kind == "move" and table.referee.history[-2:] == ["put bowser@22", "put p0@3"]


def test_a_random_game_through_the_camera_has_no_false_alarms():
    """Dice and choices at random; every token move is rendered as the rules expect and
    must be accepted from the camera view alone (shared spaces, Bowser among tokens, GO
    with several tokens, light changing)."""
    table = Table(4)
    rng = random.Random(6)
    game, placed = table.referee.game, 0
    while placed < 14:
        state = table.referee.state
        if game.prompt(state).kind != "move":
            action = random_action(game, state, rng)
            assert table.referee.enter(game.notation(state, action)).kind == "move"
            continue
        after = game.board(game.apply(state, game.observable_actions(state)[-1]))
        view = table.look(after, light=rng.choice((0.7, 1.0, 1.2)))
        event = table.referee.observe(view)
        assert event is not None and event.kind == "move", (event and event.data, view.cells)
        placed += 1


def test_light_far_brighter_than_at_the_start_makes_the_reader_unsure_not_wrong():
    """Pale spaces clip at 1.35 times the start's light: the reader cannot tell, so the
    referee waits instead of sounding a false alarm; back in normal light it goes on."""
    table = Table(2)
    table.referee.enter("roll 4 1")
    labels = {**table.board(), 20: "empty", 24: "bowser"}
    view = table.look(labels, light=1.35)
    assert view is not None and any(conf < 0.6 for _, conf in view.cells.values())
    assert table.referee.observe(view) is None
    event = table.referee.observe(table.look(labels, light=1.0))
    assert event.kind == "move" and event.data["notation"] == "put bowser@24"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tokens_on_printed_spaces_when_a_resumed_game_is_learned(seed):
    """A game resumed mid-way is learned from its position: the camera never saw the
    spaces under the tokens empty. Luigi on a green Warp Pipe must not read as Mario's
    Cap too (the pipe's green is near Luigi's), Bowser leaving a red property must not
    leave Mario's Cap behind (the red band under his shell), and Luigi leaving the pipe
    leaves it empty."""
    reader = MonopolyReader()
    watcher = entry("monopoly").watcher(reader=reader)
    table = Table(seed)
    kinds, sets = table.kinds, table.sets
    shot = synth.tilted(size=SIZE, margin=0.05, tilt=0.06, seed=seed)
    t = 0.0

    def look(labels):
        nonlocal t
        view = None
        for _ in range(2):
            view = watcher.feed(t, rm.render(labels, kinds, sets, shot=shot, seed=seed, colours=DRAWN)) or view
            t += 0.3
        return view

    resumed = {**{i: "empty" for i in range(40)}, 0: "p2", 15: "p1", 21: "bowser", 8: "p0"}
    watcher.learn(resumed)
    view = look(resumed)
    assert {c: lab for c, (lab, _) in view.cells.items() if lab != "empty"} == {0: "p2", 8: "p0", 15: "p1", 21: "bowser"}
    view = look({**resumed, 21: "empty", 24: "bowser"})
    assert view.cells[21] == ("empty", pytest.approx(0.9)) and view.cells[24][0] == "bowser"
    assert view.cells[15] == ("p1", pytest.approx(0.9))
    view = look({**resumed, 15: "empty", 18: "p1"})
    assert view.cells[15] == ("empty", pytest.approx(0.9)) and view.cells[18][0] == "p1"


def test_the_renderer_keeps_every_piece_of_a_crowded_space_in_sight():
    """Six tokens and Bowser on GO: each is drawn where it can be seen (the renderer once
    put a fifth piece on the first, hiding it, and the table showed a board no one laid)."""
    spaces = load_game("monopoly").b.spaces
    kinds, sets = [s.kind for s in spaces], [s.set for s in spaces]
    board = rm.draw_board(kinds, sets)
    pieces = ["p0", "p1", "p2", "p3", "p4", "p5", "bowser"]
    x0, y0, x1, y1 = rm.space_rect(0)
    for n in range(1, len(pieces) + 1):
        on = rm.draw_tokens(board, {0: "+".join(pieces[:n])})[y0:y1, x0:x1].reshape(-1, 3).astype(int)
        for piece in pieces[:n]:
            colour = rm.BOWSER[1] if piece == "bowser" else rm.TOKEN_COLOURS[piece]
            seen = (np.abs(on - colour).max(axis=1) < 12).sum()
            assert seen >= 20, (n, piece, seen)


@pytest.mark.parametrize("seed", [0, 1])
def test_bowser_put_among_four_tokens_on_go_is_a_doubt_not_an_alarm(seed):
    """GO was never seen empty (the tokens start there), so it is read against its look
    with the four tokens; Bowser put among them is half hidden (seen in the soak: the
    reader read the four tokens, surely, and the referee alarmed "Bowser should be on
    GO"). Much changed that no token coming explains: the reading is unsure, and the
    referee asks, offering the move the rules expect."""
    game, rng = load_game("monopoly"), random.Random(119)
    state = game.start(game.new_setup(rng))
    for _ in range(16):  # a game where Bowser is due on GO next
        state = game.apply(state, random_action(game, state, rng))
    draft = state.draft()
    draft.table = {**state.table, **{p: 0 for p in state.table if p != "bowser"}}  # all four on GO
    state = draft.freeze()
    put = next(a for a in game.observable_actions(state) if game.notation(state, a) == "put bowser@0")
    table = Table(seed)
    table.referee._sure_of(state)  # the referee sure of that position (as after a resume)
    table.watcher = entry("monopoly").watcher(reader=MonopolyReader())
    table.watcher.learn(table.board())
    table.look(table.board())
    table.referee.confirm_s = 0.5  # the live camera's clock
    after = game.board(game.apply(state, put))
    event, view = table.show({c: label for c, label in after.items() if label != table.board()[c]})
    assert event is None and view.cells[0][1] < table.referee.min_confidence
    assert table.referee.tick(table.t + 1.0, moved_at=0.0) is None  # the next moves may tell
    asked = table.referee.tick(table.t + 3.5, moved_at=0.0)
    assert asked is not None and asked.kind == "doubt"
    assert [c["notation"] for c in asked.data["candidates"]] == ["put bowser@0"]
    assert not [e for e in table.events if e.kind == "illegal"]
