"""Super Mario Labyrinth rules: pushes, rotations, the no-push-back rule, pawns pushed
off, reachability, targets, the win, the variants and every illegal action in words."""
import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from controller.games.base import IllegalAction, NotationError
from controller.games.labyrinth.actions import MovePawn, Stay
from controller.games.labyrinth.maze import (ARROWS, OPPOSITE_ARROW, Tile, cell_index, cell_text, parse_tile,
                                             reachable, rotate, sides_text)
from controller.games.labyrinth.rules import Labyrinth
from controller.games.labyrinth.words import arrow_words

ROOT = Path(__file__).resolve().parents[3]


def play(game, state, *texts):
    for text in texts:
        state = game.play(state, game.parse(state, text))
    return state


def illegal(game, state, text) -> str:
    with pytest.raises(IllegalAction) as exc:
        game.check(state, game.parse(state, text))
    return exc.value.reason


def ring_setup(players=("red", "yellow"), targets=None, spare="EW"):
    """A maze whose border is one closed ring; inside, straight tiles that never join it.
    Star is on d1 (top edge, also open to the north, out of the maze), Moon on d7 (bottom
    edge) and Sun on g4 (right edge)."""
    rows = []
    for r in range(7):
        row = []
        for c in range(7):
            corner = {(0, 0): "ES", (0, 6): "SW", (6, 6): "NW", (6, 0): "NE"}.get((r, c))
            if corner:
                row.append(corner)
            elif r in (0, 6):
                row.append("EW" + {(0, 3): ":Star", (6, 3): ":Moon"}.get((r, c), "") if (r, c) != (0, 3) else "NEW:Star")
            elif c in (0, 6):
                row.append("NS:Sun" if (r, c) == (3, 6) else "NS")
            else:
                row.append("NS")
        rows.append(" ".join(row))
    return {"players": list(players), "first": 0, "rows": rows, "spare": spare,
            "targets": targets or {"red": ["Star"], "yellow": ["Moon"]}}


@pytest.fixture
def game():
    return Labyrinth()


@pytest.fixture
def state(game):
    return game.start(game.new_setup(random.Random(7)))


# --- setup -----------------------------------------------------------------------------
@pytest.mark.parametrize("players,each", [(2, 12), (3, 8), (4, 6)])
def test_new_setup_deals_the_24_cards_evenly_and_is_reproducible(players, each):
    game = Labyrinth(settings={"players": players})
    setup = game.new_setup(random.Random(3))
    assert setup == game.new_setup(random.Random(3))
    assert setup != game.new_setup(random.Random(4))
    cards = [t for c in setup["targets"].values() for t in c]
    assert [len(c) for c in setup["targets"].values()] == [each] * players
    assert len(set(cards)) == players * each
    state = game.start(setup)
    assert state.warnings == ()  # 33 + spare movable tiles of the right kinds, 24 treasures
    assert list(state.pawns) == [cell_index(c) for c in ("a1", "g1", "g7", "a7")[:players]]


def test_setup_with_a_wrong_tile_count_is_played_with_a_warning(game):
    setup = ring_setup(targets={"red": ["Star"], "yellow": ["Moon"]})
    state = Labyrinth(settings={"players": 2}).start(setup)
    assert any("34 in all" in w for w in state.warnings)
    assert any("3 treasures" in w for w in state.warnings)


@pytest.mark.parametrize("change,message", [
    ({"rows": ["ES"] * 7}, "row 1: expected 7 tiles"),
    ({"spare": "NX"}, "'NX' is not a tile"),
    ({"players": ["red", "pink"]}, "2-4 different colours"),
    ({"targets": {"red": ["Nothing"], "yellow": ["Moon"]}}, "no tile carries Nothing"),
    ({"targets": {"red": ["Star"]}}, "each player's cards"),
    ({"first": 5}, "'first'"),
    ({"targets": {"red": ["Star"], "yellow": []}}, "at least one card"),
    ({"targets": {"red": ["Star", "Moon"], "yellow": ["Moon"]}}, "Moon is dealt more than once"),
])
def test_bad_setup_is_refused_with_a_message_naming_the_place(change, message):
    with pytest.raises(ValueError, match=message):
        Labyrinth(settings={"players": 2}).start({**ring_setup(), **change})


def test_bad_settings_name_the_key():
    with pytest.raises(ValueError, match="'players'"):
        Labyrinth(settings={"players": 5})
    with pytest.raises(ValueError, match="'cards'"):
        Labyrinth(settings={"cards": "phone"})
    with pytest.raises(ValueError, match="no setting 'speed'"):
        Labyrinth(settings={"speed": 1})


# --- tiles and pushes ------------------------------------------------------------------
@pytest.mark.parametrize("tile,turns", [
    ("NS", ["NS", "EW", "NS", "EW"]),
    ("NE", ["NE", "ES", "SW", "NW"]),
    ("NES", ["NES", "ESW", "NSW", "NEW"]),
])
def test_rotations_of_each_tile_type(game, state, tile, turns):
    mask = parse_tile(tile, "test").sides
    assert [sides_text(rotate(mask, q)) for q in range(4)] == turns
    state = replace(state, spare=Tile(mask, "Gem"))
    for q, sides in enumerate(turns):
        after = play(game, state, f"push W4 r{q * 90}")
        assert after.tiles[cell_index("a4")] == Tile(parse_tile(sides, "t").sides, "Gem")
        # the same push written with the open sides it shows on the board
        same = game.play(state, game.parse(state, f"push W4 {sides}"))
        assert same.tiles == after.tiles


def test_a_spare_cannot_be_turned_into_another_kind(game, state):
    state = replace(state, spare=Tile(parse_tile("NS", "t").sides))
    with pytest.raises(NotationError, match="cannot be turned"):
        game.parse(state, "push N2 NE")


def test_push_shifts_the_line_and_the_far_tile_becomes_the_spare(game, state):
    column = [state.tiles[i] for i in ARROWS["N4"]]
    after = play(game, state, "push N4 r0")
    assert [after.tiles[i] for i in ARROWS["N4"]] == [state.spare] + column[:-1]
    assert after.spare == column[-1]
    untouched = [i for i in range(49) if i not in ARROWS["N4"]]
    assert [after.tiles[i] for i in untouched] == [state.tiles[i] for i in untouched]


def test_a_push_that_ejects_two_pawns_puts_both_on_the_inserted_tile(game, state):
    b7, b1, b3, b4 = map(cell_index, ("b7", "b1", "b3", "b4"))
    state = replace(state, pawns=(b7, b7, b3, cell_index("g7")))
    after = play(game, state, "push N2 r0")
    assert after.pawns == (b1, b1, b4, cell_index("g7"))
    assert "Red and Yellow go over to b1" in game.describe(state, game.parse(state, "push N2"))


def test_pawns_pushed_off_a_row_wrap_to_the_other_side(game, state):
    a2, g2 = cell_index("a2"), cell_index("g2")
    state = replace(state, pawns=(a2, g2, 0, 48))
    after = play(game, state, "push E2")  # pushes row 2 leftwards: a2 falls off
    assert after.pawns[0] == g2 and after.pawns[1] == cell_index("f2")


@pytest.mark.parametrize("arrow", sorted(ARROWS))
def test_no_push_back_after_each_of_the_12_arrows(game, state, arrow):
    state = play(game, state, f"push {arrow}", "stay")
    back = OPPOSITE_ARROW[arrow]
    assert illegal(game, state, f"push {back}") == (
        f"the tile may not go back in at {arrow_words(back)}, where the previous push at {arrow_words(arrow)} "
        "just pushed it out")
    legal_arrows = {a.arrow for a in game.legal_actions(state)}
    assert legal_arrows == set(ARROWS) - {back}
    # after another push elsewhere the ban moves on
    other = next(a for a in sorted(ARROWS) if a not in (arrow, back))
    state = play(game, state, f"push {other}", "stay")
    assert back in {a.arrow for a in game.legal_actions(state)}


# --- reachability ----------------------------------------------------------------------
def serpentine_rows():
    """One path through all 49 cells: along row 1 to the right, down, row 2 to the left..."""
    order = [(r, c if r % 2 == 0 else 6 - c) for r in range(7) for c in range(7)]
    sides = {cell: set() for cell in order}
    for (r1, c1), (r2, c2) in zip(order, order[1:]):
        d = {(0, 1): ("E", "W"), (0, -1): ("W", "E"), (1, 0): ("S", "N")}[(r2 - r1, c2 - c1)]
        sides[(r1, c1)].add(d[0])
        sides[(r2, c2)].add(d[1])
    return [[Tile(parse_tile("".join(sorted(sides[(r, c)])), "t").sides) for c in range(7)] for r in range(7)]


def test_reachability_follows_a_path_through_all_49_cells():
    tiles = tuple(t for row in serpentine_rows() for t in row)
    assert reachable(tiles, 0) == set(range(49))
    assert reachable(tiles, 48) == set(range(49))
    # break the path in the middle of row 4: only the first half stays reachable
    broken = list(tiles)
    broken[cell_index("d4")] = Tile(parse_tile("NS", "t").sides)
    half = reachable(tuple(broken), 0)
    assert cell_index("e4") in half and cell_index("d4") not in half and cell_index("a7") not in half


def test_reachability_round_a_closed_loop_stops_and_needs_both_sides_open(game):
    state = Labyrinth(settings={"players": 2}).start(ring_setup())
    ring = reachable(state.tiles, 0)
    assert len(ring) == 24 and all(divmod(i, 7)[0] in (0, 6) or divmod(i, 7)[1] in (0, 6) for i in ring)
    # b2 is open to the north but b1 (EW) is not open to the south: no passage
    assert cell_index("b2") not in ring


# --- turns, targets, the win -----------------------------------------------------------
def test_a_target_found_then_back_to_start_wins_when_the_turn_ends(game):
    game = Labyrinth(settings={"players": 2})
    state = game.start(ring_setup())
    state = play(game, state, "push N2 r0")
    assert game.wanted(state, 0) == ("Star",)
    mv = game.parse(state, "move d1")
    assert game.describe(state, mv) == "Red moves from a1 to d1"  # the secret card stays secret
    state = game.play(state, mv)
    assert state.found[0] == () and state.turn == 0  # the pawn may still move on
    end = game.parse(state, "end")
    assert game.describe(state, end) == "Red ends the turn on d1 and finds Star (0 left)"
    state = game.play(state, end)
    assert state.found[0] == ("Star",) and game.outcome(state) is None  # not home yet
    home = play(game, state, "push N2 EW", "stay", "push N2 EW", "move a1")
    assert game.outcome(home) is None  # on the start corner, but the turn goes on
    won = play(game, home, "end")
    out = game.outcome(won)
    assert out.winner == 0 and "back on the start corner" in out.reason
    assert "the game is over" in illegal(game, won, "push N4")
    # the next player's push ends the turn just the same: the win stands, the push is seen
    pushed = play(game, home, "push N4")
    assert game.outcome(pushed) == out and pushed.tiles != home.tiles


def test_the_pawn_may_move_again_and_back_within_the_turn(game):
    game = Labyrinth(settings={"players": 2})
    state = play(game, game.start(ring_setup()), "push N2 EW")  # a path round the border
    a1, c1, g4 = map(cell_index, ("a1", "c1", "g4"))
    assert state.turn_start == a1
    state = play(game, state, "move c1", "move g4")
    assert state.pawns[0] == g4 and state.turn == 0 and state.phase == "move"
    assert game.prompt(state).seat == 0 and game.prompt(state).options == ("end",)  # the page's button
    assert {a.cell for a in game.legal_actions(state) if isinstance(a, MovePawn)} == reachable(state.tiles, a1) - {g4}
    # the maze did not change: what was out of reach from a1 still is, from g4 as well
    assert illegal(game, state, "move d4") == "Red cannot reach d4 from g4: the path there is not connected"
    back = play(game, state, "move a1")
    assert back.pawns[0] == a1 and back.turn == 0
    assert game.notation(back, Stay()) == "stay" and game.describe(back, Stay()) == "Red stays on a1"
    assert game.notation(state, Stay()) == "end"
    assert play(game, back, "stay").turn == 1 and play(game, state, "red end").turn == 1
    assert illegal(game, state, "yellow end") == "it is Red's turn, not Yellow's"


def test_a_target_counts_only_where_the_turn_ends(game):
    game = Labyrinth(settings={"players": 2})
    state = play(game, game.start(ring_setup()), "push N2 EW", "move d1", "move g4")  # over Star, on
    ended = play(game, state, "end")
    assert ended.found[0] == ()
    # ended by the next player's push, on the target: counted then, and said so
    state = play(game, state, "move d1")
    push = game.parse(state, "push N4")
    assert game.describe(state, push).startswith("Yellow, after Red ended the turn on d1 and found Star (0 left), "
                                                 "pushes the spare tile")
    assert game.actor(state, push) == 1
    after = game.play(state, push)
    assert after.found[0] == ("Star",) and after.turn == 1 and after.phase == "move"


def test_secret_targets_are_found_in_order_and_shown_only_to_their_seat(game):
    game = Labyrinth(settings={"players": 2})
    state = game.start(ring_setup(targets={"red": ["Moon", "Star"], "yellow": ["Sun"]}))
    state = play(game, state, "push N2 r0", "move d1", "end")  # Star is red's second card: not yet
    assert state.found[0] == ()
    snap0, snap1, public = (game.snapshot(state, v) for v in (0, 1, None))
    assert snap0["players"][0]["targets"] == ["Moon"]
    assert "targets" not in snap1["players"][0] and "targets" not in public["players"][0]


def test_younger_variant_any_card_and_leaving_on_any_side():
    game = Labyrinth("younger", {"players": 2, "finish": "any_side"})
    state = game.start(ring_setup(targets={"red": ["Moon", "Star"], "yellow": ["Sun"]}))
    state = play(game, state, "push N2 r0", "move d1", "end")
    assert state.found[0] == ("Star",)  # open cards: any of them counts
    assert game.snapshot(state, 0)["players"][0]["targets"] == ["Moon"]  # all cards left, visible
    assert "only after finding every card" in illegal(game, play(game, state, "push N2 EW", "stay", "push N2 EW"), "exit a1")


def test_leaving_the_maze_wins_with_every_card_found():
    game = Labyrinth("younger", {"players": 2, "finish": "any_side"})
    state = game.start(ring_setup(targets={"red": ["Star"], "yellow": ["Moon"]}))
    state = play(game, state, "push N2 EW", "move d1", "push N2 EW", "stay", "push N2 EW")
    assert "no open side at the edge" in illegal(game, state, "exit c1")
    standard = Labyrinth(settings={"players": 2})
    assert "younger players' variant" in illegal(standard, state, "exit d1")
    out = game.outcome(play(game, state, "exit d1"))
    assert out.winner == 0 and "left the maze" in out.reason


def test_paper_cards_mode_checks_each_declared_find():
    game = Labyrinth(settings={"players": 2, "cards": "paper"})
    setup = ring_setup()
    del setup["targets"]
    state = game.start(setup)
    assert "before the next push" in illegal(game, state, "found")
    state = play(game, state, "push N2 r0", "move c1")
    assert "shows no treasure" in illegal(game, state, "found")
    state = play(game, state, "push N2 EW", "stay", "push N2 EW", "move d1")
    assert illegal(game, state, "yellow found") == "it is Red's turn, not Yellow's"
    assert game.actor(state, game.parse(state, "found")) == 0
    assert game.prompt(state).options == ("end", "found")
    declared = play(game, state, "found")  # said during the turn: it ends there
    assert declared.found[0] == ("Star",) and declared.turn == 1
    assert "before the next push" in illegal(game, declared, "found")  # once only
    ended = play(game, state, "end")  # or after the turn, before the next push
    assert game.actor(ended, game.parse(ended, "found")) == 0 and ended.turn == 1
    assert game.prompt(ended).options == ("found",)
    assert game.prompt(play(game, ended, "push N4")).options == ("end",)  # too late now
    assert play(game, ended, "found").found[0] == ("Star",)


# --- illegal actions in words ----------------------------------------------------------
def test_each_illegal_action_has_its_message(game, state):
    assert illegal(game, state, "move a2") == ("Red must first change the maze: push the spare "
                                               "tile in at one of the 12 arrows, then move the pawn")
    assert illegal(game, state, "stay").startswith("Red must first change the maze")
    assert illegal(game, state, "blue push N2") == "it is Red's turn, not Blue's"
    state = play(game, state, "push N2")
    assert illegal(game, state, "red push N4") == ("Red has already changed the maze this turn; now "
                                                   "move the pawn or end the turn")
    assert illegal(game, state, "blue push N4") == "it is Yellow's turn, not Blue's"
    assert illegal(game, state, "push S2").startswith("the tile may not go back in at the bottom of column b")
    far = next(i for i in range(49) if i not in reachable(state.tiles, state.pawns[0]))
    assert illegal(game, state, f"move {'abcdefg'[far % 7]}{far // 7 + 1}").startswith(
        "Red cannot reach") and "the path there is not connected" in illegal(
        game, state, f"move {'abcdefg'[far % 7]}{far // 7 + 1}")
    with pytest.raises(NotationError, match="not a Labyrinth move"):
        game.parse(state, "jump d4")
    with pytest.raises(NotationError, match="not playing"):
        Labyrinth(settings={"players": 2}).parse(
            Labyrinth(settings={"players": 2}).start(ring_setup()), "blue stay")


def test_referee_play_json_reports_each_illegal_action_in_words(tmp_path):
    game = Labyrinth()
    setup = game.new_setup(random.Random(7))
    state = game.start(setup)
    state = play(game, state, "push N2")
    far = next(i for i in range(49) if i not in reachable(state.tiles, state.pawns[0]))
    far_name = "abcdefg"[far % 7] + str(far // 7 + 1)
    (tmp_path / "setup.json").write_text(json.dumps(setup))
    moves = f"move a2\npush N2 r0\nred push S4\nblue stay\nmove {far_name}\nstay\npush S2  # back\npush Q9\n"
    run = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "labyrinth",
                          "--setup", str(tmp_path / "setup.json"), "--json"],
                         input=moves, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    lines = [json.loads(x) for x in run.stdout.splitlines()]
    reasons = [x["reason"] for x in lines if x["type"] == "illegal"]
    assert reasons[0].startswith("Red must first change the maze")
    assert reasons[1] == "Red has already changed the maze this turn; now move the pawn or end the turn"
    assert reasons[2] == "it is Red's turn, not Blue's"
    assert reasons[3] == f"Red cannot reach {far_name} from a1: the path there is not connected"
    assert reasons[4] == ("the tile may not go back in at the bottom of column b, where the previous push at the "
                          "top of column b just pushed it out")
    assert "not a Labyrinth move" in reasons[5]
    assert [x["notation"] for x in lines if x["type"] == "move"] == ["push N2 r0", "stay"]
    last_state = [x for x in lines if x["type"] == "state"][-1]
    assert last_state["state"]["banned_arrow"] == "S2" and last_state["state"]["phase"] == "push"


def test_referee_play_with_a_seed_starts_a_game_and_a_bad_setup_file_is_a_usage_error(tmp_path):
    run = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "labyrinth",
                          "--seed", "5", "--json"], input="push W6 r90\n", capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    started = json.loads(run.stdout.splitlines()[0])
    assert started["type"] == "game_started" and len(started["setup"]["rows"]) == 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rows": ["ES"]}))
    run = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "labyrinth",
                          "--setup", str(bad)], input="", capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert run.returncode == 2 and "expected a list of 7 rows" in run.stderr


def test_a_game_is_rebuilt_from_its_journal_after_a_restart(tmp_path):
    from controller.journal import Journal
    from controller.referee import Referee
    ref = Referee(Journal(tmp_path / "journal.sqlite"))
    ref.new_game("labyrinth", rng=random.Random(12))
    rng = random.Random(3)
    for _ in range(15):
        action = rng.choice(ref.game.legal_actions(ref.state))
        assert ref.enter(ref.game.notation(ref.state, action)).kind == "move"
    again = Referee(Journal(tmp_path / "journal.sqlite"))
    assert again.resume() and again.state == ref.state and again.history == ref.history


def test_the_camera_sees_a_pawn_put_down_and_moved_again_and_the_next_push_end_the_turn():
    """Board labels as the camera reads them: each pawn move in the turn is recorded and
    none is flagged; the turn ends (and Star is found) only with the next push; a move
    and the next push seen in one view are both recorded; the button ends a turn too."""
    from controller.journal import Journal
    from controller.referee import Referee
    from vision.view import BoardView

    ref = Referee(Journal(":memory:"))
    ref.new_game("labyrinth", settings={"players": 2}, setup=ring_setup())
    game = ref.game

    clock = iter(range(1, 100))

    def look(board):  # the board still after a hand left it, one look a second
        t = float(next(clock))
        return ref.observe(BoardView({c: (lab, 0.9) for c, lab in board.items()}, t=t, moved_at=t - 0.3))

    def see(*texts):
        return look(game.board(play(game, ref.state, *texts)))

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
    state = game.start(ring_setup())
    b7 = cell_index("b7")
    state = replace(state, pawns=(state.pawns[0], b7))  # yellow stands on b7
    pushed = game.apply(state, game.parse(state, "push N2 EW"))  # yellow goes over to b1
    seen = game.board(pushed) | {"pawn:yellow": "b7"}  # but was left where it fell off
    assert game.explain(state, seen).reason == ("the yellow pawn was pushed off the board: it goes "
                                                "onto the tile just pushed in, at b1")
    far = game.board(pushed) | {"pawn:red": "d4"}  # red pushes, then walks through hedges
    assert game.explain(state, far).reason == "Red cannot reach d4 from a1: the path there is not connected"
    start = game.start(ring_setup())  # yellow on g1, not on the line
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
    ref.new_game("labyrinth", settings={"players": 2}, setup=ring_setup())
    seen = ref.game.board(play(ref.game, ref.state, "push N2 EW")) | {"pawn:red": "d4"}
    tracemalloc.start()
    try:
        event = ref.observe(BoardView({c: (lab, 0.9) for c, lab in seen.items()}))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert event.kind == "illegal" and "cannot reach d4" in event.data["reason"]
    assert peak < 500_000, f"{peak / 1e6:.2f} MB at the peak"
