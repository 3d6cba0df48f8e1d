"""What the camera sees of a Labyrinth table (controller/games/labyrinth/camera.py): the
labels a reader gives, the pushes a view may show, words for a view no action explains,
and how to put the board back."""
from dataclasses import replace

from controller.games.labyrinth.actions import MovePawn, Push
from controller.games.labyrinth.camera import board, fix, printed_board, pushes_seen
from controller.games.labyrinth.maze import ARROWS, cell_index, cell_text, reachable
from controller.games.labyrinth.rules import Labyrinth
from controller.i18n import translator
from support import labyrinth_ring, played


def test_the_board_is_each_tile_the_spare_s_kind_and_each_pawn_s_cell():
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring())
    seen = board(state)
    assert seen[(0, 0)] == "tile:ES" and seen[(0, 3)] == "tile:NEW" and seen["spare"] == "spare:I"
    assert seen["pawn:red"] == "a1" and seen["pawn:yellow"] == "g1" and len(seen) == 49 + 1 + 2
    printed = printed_board(3)  # before the maze is read: the 16 printed tiles and the pawns at home
    assert len([c for c in printed if isinstance(c, tuple)]) == 16
    assert {k: v for k, v in printed.items() if isinstance(k, str)} == {
        "pawn:red": "a1", "pawn:yellow": "g1", "pawn:green": "g7"}


def test_only_the_pushes_of_the_line_that_changed_are_weighed():
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring())
    column_b = {divmod(i, 7) for i in ARROWS["N2"][2:4]}
    assert {p.arrow for p in pushes_seen(state, column_b)} == {"N2", "S2"}
    assert pushes_seen(state, {"pawn:red"}) == []  # no tile changed: no push
    assert pushes_seen(state, None) == Push.every(state)
    across = {(1, 1), (3, 3)}  # on no one line: every push is tried
    assert pushes_seen(state, across) == Push.every(state)
    moving = played(game, state, "push N2 EW")  # the pawn may move: its moves and the next push
    listed = game.observable_actions(moving)
    assert {a.cell for a in listed if isinstance(a, MovePawn)} == reachable(moving.tiles, moving.pawns[0]) - {0}
    assert any(isinstance(a, Push) for a in listed)


def test_the_fix_names_each_pawn_and_tile_to_put_back():
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring())
    now = board(state)
    _ = translator()
    assert fix(_, state, now | {"pawn:red": "b2", (0, 1): "tile:NS"}) == (
        "put the red pawn back on a1; turn the tile on b1 back to a straight open at the right and the left")
    assert fix(_, state, now | {(0, 1): "tile:NS", (0, 2): "tile:NS", (0, 4): "tile:NS", "spare": "spare:L"}) == (
        "put the maze back as it was (the tiles on b1, c1 and e1 differ); the spare tile is a straight")
    assert fix(_, state, now) == "put the board back as it was"
    assert fix(translator("de"), state, now | {"pawn:red": "b2"}) != fix(_, state, now | {"pawn:red": "b2"})


def test_the_camera_sees_a_pawn_put_down_and_moved_again_and_the_next_push_end_the_turn():
    """Board labels as the camera reads them: each pawn move in the turn is recorded and
    none is flagged; the turn ends (and Star is found) only with the next push; a move
    and the next push seen in one view are both recorded; the button ends a turn too."""
    from controller.journal import Journal
    from controller.referee import Referee
    from vision.view import BoardView

    ref = Referee(Journal(":memory:"))
    ref.new_game("labyrinth", settings={"players": 2}, setup=labyrinth_ring())
    game = ref.game

    clock = iter(range(1, 100))

    def look(board):  # the board still after a hand left it, one look a second
        t = float(next(clock))
        return ref.observe(BoardView({c: (lab, 0.9) for c, lab in board.items()}, t=t, moved_at=t - 0.3))

    def see(*texts):
        return look(game.board(played(game, ref.state, *texts)))

    events = [see("push N2 EW"), see("move d1"), see("move g4"), see("move a1"), see("move d1")]
    assert [e.kind for e in events] == ["move"] * 5
    assert ref.history == ["push N2 r0", "move d1", "move g4", "move a1", "move d1"]
    assert ref.state.found[0] == () and ref.state.turn == 0
    lost = game.board(ref.state) | {"pawn:red": "d4"}  # put down where no passage leads
    event = look(lost)
    assert event.kind == "illegal" and event.data["reason"] == ("Red cannot reach d4 from d1: the path "
                                                                "there is not connected")
    assert see().kind == "restored"
    event = see("push N4")  # Yellow's push: Red's turn ended on Star
    assert event.data["notation"] == "push N4 r0" and event.data["seat"] == 1
    assert event.data["text"].startswith("Yellow, after Red ended the turn on d1 and found Star (0 left), pushes")
    assert ref.state.found[0] == ("Star",) and ref.state.turn == 1
    yellow_at = ref.state.pawns[1]
    far = cell_text(next(iter(reachable(ref.state.tiles, yellow_at) - {yellow_at})))
    assert see(f"move {far}", "push N6").kind == "move"  # Yellow's move and Red's push in one view
    assert ref.history[-2:] == [f"move {far}", "push N6 r0"]
    assert ref.enter("end", seat=0).data["notation"] == "stay"  # the button: Red's pawn stays
    assert ref.state.turn == 1 and ref.alarm is None


def test_views_no_action_explains_are_put_into_words():
    """What the camera might show, as board labels: each wrong thing named."""
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring())
    b7 = cell_index("b7")
    state = replace(state, pawns=(state.pawns[0], b7))  # yellow stands on b7
    pushed = game.apply(state, game.parse(state, "push N2 EW"))  # yellow goes over to b1
    seen = game.board(pushed) | {"pawn:yellow": "b7"}  # but was left where it fell off
    assert game.explain(state, seen).reason == ("the yellow pawn was pushed off the board: it goes "
                                                "onto the tile just pushed in, at b1")
    far = game.board(pushed) | {"pawn:red": "d4"}  # red pushes, then walks through hedges
    assert game.explain(state, far).reason == "Red cannot reach d4 from a1: the path there is not connected"
    start = game.start(labyrinth_ring())  # yellow on g1, not on the line
    other = game.board(game.apply(start, game.parse(start, "push N2 EW"))) | {"pawn:yellow": "g2"}
    assert game.explain(start, other).reason == "it is Red's turn: the yellow pawn may not move now"
    torn = game.board(state) | {(3, 3): "tile:NESW"}
    assert game.explain(state, torn).reason == "the maze changed in a way no push explains: d4"


def test_weighing_a_view_of_a_push_makes_no_burst_of_objects():
    """A view after a push is weighed against every push and the moves after it. Each
    sequence's board used to be made of fresh small objects, and the referee kept them all
    at once: a burst that left Python's allocator holding more memory game after game
    (bench/soak.py, README "The soak"). 0.95 MB at the peak before, 0.24 MB now."""
    import tracemalloc

    from controller.journal import Journal
    from controller.referee import Referee
    from vision.view import BoardView

    ref = Referee(Journal(":memory:"))
    ref.new_game("labyrinth", settings={"players": 2}, setup=labyrinth_ring())
    seen = ref.game.board(played(ref.game, ref.state, "push N2 EW")) | {"pawn:red": "d4"}
    tracemalloc.start()
    try:
        event = ref.observe(BoardView({c: (lab, 0.9) for c, lab in seen.items()}))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert event.kind == "illegal" and "cannot reach d4" in event.data["reason"]
    assert peak < 500_000, f"{peak / 1e6:.2f} MB at the peak"
