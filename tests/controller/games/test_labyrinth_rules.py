"""Super Mario Labyrinth rules (controller/games/labyrinth/rules.py): pushes, rotations,
the no-push-back rule, pawns pushed off, targets, the win, the variants and every illegal
action in words."""
import json
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from controller.games.base import IllegalAction, NotationError
from controller.games.labyrinth.actions import MovePawn, Stay
from controller.games.labyrinth.maze import (ARROWS, OPPOSITE_ARROW, Tile, cell_index, parse_tile, reachable,
                                             rotate, sides_text)
from controller.games.labyrinth.rules import Labyrinth
from controller.games.labyrinth.words import arrow_words
from support import labyrinth_ring, played

ROOT = Path(__file__).resolve().parents[3]


def illegal(game, state, text) -> str:
    with pytest.raises(IllegalAction) as exc:
        game.check(state, game.parse(state, text))
    return exc.value.reason


@pytest.fixture
def game():
    return Labyrinth()


@pytest.fixture
def state(game):
    return game.start(game.new_setup(random.Random(7)))


# --- settings --------------------------------------------------------------------------
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
        after = played(game, state, f"push W4 r{q * 90}")
        assert after.tiles[cell_index("a4")] == Tile(parse_tile(sides, "t").sides, "Gem")
        # the same push written with the open sides it shows on the board
        same = game.play(state, game.parse(state, f"push W4 {sides}"))
        assert same.tiles == after.tiles


def test_push_shifts_the_line_and_the_far_tile_becomes_the_spare(game, state):
    column = [state.tiles[i] for i in ARROWS["N4"]]
    after = played(game, state, "push N4 r0")
    assert [after.tiles[i] for i in ARROWS["N4"]] == [state.spare] + column[:-1]
    assert after.spare == column[-1]
    untouched = [i for i in range(49) if i not in ARROWS["N4"]]
    assert [after.tiles[i] for i in untouched] == [state.tiles[i] for i in untouched]


def test_a_push_that_ejects_two_pawns_puts_both_on_the_inserted_tile(game, state):
    b7, b1, b3, b4 = map(cell_index, ("b7", "b1", "b3", "b4"))
    state = replace(state, pawns=(b7, b7, b3, cell_index("g7")))
    after = played(game, state, "push N2 r0")
    assert after.pawns == (b1, b1, b4, cell_index("g7"))
    assert "Red and Yellow go over to b1" in game.describe(state, game.parse(state, "push N2"))


def test_pawns_pushed_off_a_row_wrap_to_the_other_side(game, state):
    a2, g2 = cell_index("a2"), cell_index("g2")
    state = replace(state, pawns=(a2, g2, 0, 48))
    after = played(game, state, "push E2")  # pushes row 2 leftwards: a2 falls off
    assert after.pawns[0] == g2 and after.pawns[1] == cell_index("f2")


@pytest.mark.parametrize("arrow", sorted(ARROWS))
def test_no_push_back_after_each_of_the_12_arrows(game, state, arrow):
    state = played(game, state, f"push {arrow}", "stay")
    back = OPPOSITE_ARROW[arrow]
    assert illegal(game, state, f"push {back}") == (
        f"the tile may not go back in at {arrow_words(back)}, where the previous push at {arrow_words(arrow)} "
        "just pushed it out")
    legal_arrows = {a.arrow for a in game.legal_actions(state)}
    assert legal_arrows == set(ARROWS) - {back}
    # after another push elsewhere the ban moves on
    other = next(a for a in sorted(ARROWS) if a not in (arrow, back))
    state = played(game, state, f"push {other}", "stay")
    assert back in {a.arrow for a in game.legal_actions(state)}


# --- turns, targets, the win -----------------------------------------------------------
def test_a_target_found_then_back_to_start_wins_when_the_turn_ends(game):
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring())
    state = played(game, state, "push N2 r0")
    assert game.wanted(state, 0) == ("Star",)
    mv = game.parse(state, "move d1")
    assert game.describe(state, mv) == "Red moves from a1 to d1"  # the secret card stays secret
    state = game.play(state, mv)
    assert state.found[0] == () and state.turn == 0  # the pawn may still move on
    end = game.parse(state, "end")
    assert game.describe(state, end) == "Red ends the turn on d1 and finds Star (0 left)"
    state = game.play(state, end)
    assert state.found[0] == ("Star",) and game.outcome(state) is None  # not home yet
    home = played(game, state, "push N2 EW", "stay", "push N2 EW", "move a1")
    assert game.outcome(home) is None  # on the start corner, but the turn goes on
    won = played(game, home, "end")
    out = game.outcome(won)
    assert out.winner == 0 and "back on the start corner" in out.reason
    assert "the game is over" in illegal(game, won, "push N4")
    # the next player's push ends the turn just the same: the win stands, the push is seen
    pushed = played(game, home, "push N4")
    assert game.outcome(pushed) == out and pushed.tiles != home.tiles


def test_the_pawn_may_move_again_and_back_within_the_turn(game):
    game = Labyrinth(settings={"players": 2})
    state = played(game, game.start(labyrinth_ring()), "push N2 EW")  # a path round the border
    a1, c1, g4 = map(cell_index, ("a1", "c1", "g4"))
    assert state.turn_start == a1
    state = played(game, state, "move c1", "move g4")
    assert state.pawns[0] == g4 and state.turn == 0 and state.phase == "move"
    assert game.prompt(state).seat == 0 and game.prompt(state).options == ("end",)  # the page's button
    assert {a.cell for a in game.legal_actions(state) if isinstance(a, MovePawn)} == reachable(state.tiles, a1) - {g4}
    # the maze did not change: what was out of reach from a1 still is, from g4 as well
    assert illegal(game, state, "move d4") == "Red cannot reach d4 from g4: the path there is not connected"
    back = played(game, state, "move a1")
    assert back.pawns[0] == a1 and back.turn == 0
    assert game.notation(back, Stay()) == "stay" and game.describe(back, Stay()) == "Red stays on a1"
    assert game.notation(state, Stay()) == "end"
    assert played(game, back, "stay").turn == 1 and played(game, state, "red end").turn == 1
    assert illegal(game, state, "yellow end") == "it is Red's turn, not Yellow's"


def test_a_target_counts_only_where_the_turn_ends(game):
    game = Labyrinth(settings={"players": 2})
    state = played(game, game.start(labyrinth_ring()), "push N2 EW", "move d1", "move g4")  # over Star, on
    ended = played(game, state, "end")
    assert ended.found[0] == ()
    # ended by the next player's push, on the target: counted then, and said so
    state = played(game, state, "move d1")
    push = game.parse(state, "push N4")
    assert game.describe(state, push).startswith("Yellow, after Red ended the turn on d1 and found Star (0 left), "
                                                 "pushes the spare tile")
    assert game.actor(state, push) == 1
    after = game.play(state, push)
    assert after.found[0] == ("Star",) and after.turn == 1 and after.phase == "move"


def test_secret_targets_are_found_in_order_and_shown_only_to_their_seat(game):
    game = Labyrinth(settings={"players": 2})
    state = game.start(labyrinth_ring(targets={"red": ["Moon", "Star"], "yellow": ["Sun"]}))
    state = played(game, state, "push N2 r0", "move d1", "end")  # Star is red's second card: not yet
    assert state.found[0] == ()
    snap0, snap1, public = (game.snapshot(state, v) for v in (0, 1, None))
    assert snap0["players"][0]["targets"] == ["Moon"]
    assert "targets" not in snap1["players"][0] and "targets" not in public["players"][0]


def test_younger_variant_any_card_and_leaving_on_any_side():
    game = Labyrinth("younger", {"players": 2, "finish": "any_side"})
    state = game.start(labyrinth_ring(targets={"red": ["Moon", "Star"], "yellow": ["Sun"]}))
    state = played(game, state, "push N2 r0", "move d1", "end")
    assert state.found[0] == ("Star",)  # open cards: any of them counts
    assert game.snapshot(state, 0)["players"][0]["targets"] == ["Moon"]  # all cards left, visible
    assert "only after finding every card" in illegal(game, played(game, state, "push N2 EW", "stay", "push N2 EW"), "exit a1")


def test_leaving_the_maze_wins_with_every_card_found():
    game = Labyrinth("younger", {"players": 2, "finish": "any_side"})
    state = game.start(labyrinth_ring(targets={"red": ["Star"], "yellow": ["Moon"]}))
    state = played(game, state, "push N2 EW", "move d1", "push N2 EW", "stay", "push N2 EW")
    assert "no open side at the edge" in illegal(game, state, "exit c1")
    standard = Labyrinth(settings={"players": 2})
    assert "younger players' variant" in illegal(standard, state, "exit d1")
    out = game.outcome(played(game, state, "exit d1"))
    assert out.winner == 0 and "left the maze" in out.reason


def test_paper_cards_mode_checks_each_declared_find():
    game = Labyrinth(settings={"players": 2, "cards": "paper"})
    setup = labyrinth_ring()
    del setup["targets"]
    state = game.start(setup)
    assert "before the next push" in illegal(game, state, "found")
    state = played(game, state, "push N2 r0", "move c1")
    assert "shows no treasure" in illegal(game, state, "found")
    state = played(game, state, "push N2 EW", "stay", "push N2 EW", "move d1")
    assert illegal(game, state, "yellow found") == "it is Red's turn, not Yellow's"
    assert game.actor(state, game.parse(state, "found")) == 0
    assert game.prompt(state).options == ("end", "found")
    declared = played(game, state, "found")  # said during the turn: it ends there
    assert declared.found[0] == ("Star",) and declared.turn == 1
    assert "before the next push" in illegal(game, declared, "found")  # once only
    ended = played(game, state, "end")  # or after the turn, before the next push
    assert game.actor(ended, game.parse(ended, "found")) == 0 and ended.turn == 1
    assert game.prompt(ended).options == ("found",)
    assert game.prompt(played(game, ended, "push N4")).options == ("end",)  # too late now
    assert played(game, ended, "found").found[0] == ("Star",)


# --- illegal actions in words ----------------------------------------------------------
def test_each_illegal_action_has_its_message(game, state):
    assert illegal(game, state, "move a2") == ("Red must first change the maze: push the spare "
                                               "tile in at one of the 12 arrows, then move the pawn")
    assert illegal(game, state, "stay").startswith("Red must first change the maze")
    assert illegal(game, state, "blue push N2") == "it is Red's turn, not Blue's"
    state = played(game, state, "push N2")
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
            Labyrinth(settings={"players": 2}).start(labyrinth_ring()), "blue stay")


def test_referee_play_json_reports_each_illegal_action_in_words(tmp_path):
    game = Labyrinth()
    setup = game.new_setup(random.Random(7))
    state = game.start(setup)
    state = played(game, state, "push N2")
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
