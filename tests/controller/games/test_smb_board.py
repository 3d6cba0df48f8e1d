"""The World board file: the bundled stand-in loads, and the validator names the World
and the space for every kind of error a hand-traced board can have."""
import copy
import json

import pytest

from controller.games.smb.board import DEFAULT_PATH, BoardError, build_worlds, load_worlds, validate


@pytest.fixture
def data():
    return json.loads(DEFAULT_PATH.read_text())


def space(data, sid):
    world = int(sid[1]) - 1
    return next(s for s in data["worlds"][world]["spaces"] if s["id"] == sid)


def test_bundled_worlds_are_valid_and_marked_as_a_stand_in(data):
    assert validate(data) == []
    assert "STAND-IN" in data["stand_in"]
    worlds = load_worlds()
    assert sorted(worlds.worlds) == [1, 2, 3, 4] and len(worlds.deck()) == 36
    assert worlds.worlds[4].with_feature("princess") == ["w4-25"]
    # each World has its own four markers so the camera tells the boards apart
    markers = [tuple(w.markers) for w in worlds.worlds.values()]
    assert len(set(markers)) == 4 and all(len(m) == 4 for m in markers)


def test_an_unreachable_space_is_named(data):
    space(data, "w2-03")["next"] = ["w2-05"]  # w2-04 now hangs loose
    errors = validate(data)
    assert "World 2, space w2-04: cannot be reached from START" in errors


def test_no_start(data):
    space(data, "w3-00")["features"] = []
    assert any(e.startswith("World 3") and "START" in e for e in validate(data))


def test_a_missing_link(data):
    w1 = data["worlds"][0]["spaces"]
    w1.remove(space(data, "w1-34"))
    space(data, "w1-32")["next"] = ["w1-33"]
    errors = validate(data)
    assert any(e.startswith("World 1: needs two link spaces") for e in errors)


def test_a_path_that_ends_without_a_link(data):
    space(data, "w2-29")["next"] = []
    errors = validate(data)
    assert "World 2, space w2-29: the path ends here without a link to World 3" in errors


def test_a_block_that_can_be_walked_through(data):
    space(data, "w1-07")["next"] = ["w1-08", "w1-09"]  # from under block b1 up onto it
    errors = validate(data)
    assert any(e.startswith("World 1, space w1-07: the step to w1-08 goes through block b1") for e in errors)


def test_next_names_a_missing_space_and_a_cycle(data):
    d2 = copy.deepcopy(data)
    space(data, "w4-03")["next"] = ["w4-99"]
    assert "World 4, space w4-03: \"next\" names 'w4-99', which is not a space of World 4" in validate(data)
    space(d2, "w4-07")["next"] = ["w4-04"]
    assert any("the path comes back to it" in e and e.startswith("World 4") for e in validate(d2))


def test_world_only_features_and_colours(data):
    space(data, "w1-05")["features"] = ["water"]
    space(data, "w2-05")["colour"] = "green"
    space(data, "w3-07")["features"] = ["question_block"]
    errors = validate(data)
    assert "World 1, space w1-05: water belongs only on World 2 or 3" in errors
    assert any(e.startswith("World 2, space w2-05: colour must be") for e in errors)
    assert any(e.startswith("World 3, space w3-07: under a question block needs \"under\"") for e in errors)


def test_king_bowser_must_lead_to_the_princess(data):
    space(data, "w4-24")["next"] = []
    space(data, "w4-23")["next"] = ["w4-24", "w4-25"]
    errors = validate(data)
    assert any("King Bowser's only next space must be the Princess" in e for e in errors)


def test_cards_must_make_36(data):
    data["cards"]["goomba"]["count"] = 9
    assert "the cards add up to 40, not 36" in validate(data)


def test_a_broken_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "worlds.json"
    bad.write_text("{not json")
    with pytest.raises(BoardError, match="worlds.json: not JSON"):
        load_worlds(bad)
    with pytest.raises(BoardError, match="cannot read it"):
        load_worlds(tmp_path / "missing.json")
    with pytest.raises(BoardError, match="World 1, 2, 3 and 4"):
        build_worlds({"format": "smb-worlds/1", "cards": {"fireball": {"count": 36}}, "worlds": []})


def test_a_traced_board_is_used_by_the_game(tmp_path, data):
    from controller.games.smb.rules import SuperMarioBros
    space(data, "w1-01")["features"] = ["mushroom"]
    path = tmp_path / "traced.json"
    path.write_text(json.dumps(data))
    game = SuperMarioBros(settings={"board": str(path)})
    s = game.start({"players": 2, "deck": None})
    s = game.play(s, game.parse(s, "roll red"))
    s = game.play(s, game.parse(s, "move w1-01"))
    assert s.coins == (4, 0) and game.snapshot(s)["board"] == str(path)


def test_the_check_command_lists_problems(tmp_path, data, capsys):
    from controller.games.smb.board import main
    assert main([str(DEFAULT_PATH)]) == 0
    assert "ok (World 1: 35 spaces" in capsys.readouterr().out
    space(data, "w2-03")["next"] = ["w2-05"]
    bad = tmp_path / "traced.json"
    bad.write_text(json.dumps(data))
    assert main([str(bad)]) == 1
    assert "World 2, space w2-04: cannot be reached from START" in capsys.readouterr().out
    assert main([]) == 2
