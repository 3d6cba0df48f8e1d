"""The camera's side of Super Mario Bros. (controller/games/smb/camera.py): the words for a
board that no action explains."""
from dataclasses import replace

from smb_table import new, play


def seen(game, s, **labels):
    board = game.board(s)
    board.update({k.replace("_", "-"): v for k, v in labels.items()})
    return game.explain(s, board)


def test_a_token_taken_away_for_no_reason_and_a_missing_mario():
    game, s = new(tokens=(("w1-05", "goomba"),))
    assert "only passing over it or a Fireball" in seen(game, s, w1_05="empty").reason
    assert seen(game, s, w1_00="empty").reason == "Mario is missing from START"


def test_mario_on_his_roll_target_is_not_blamed_for_something_else_on_the_board():
    """Issue 28 #5: Mario put rightly on space 2 after a red roll, while the camera sees
    something on START, was refused "a red roll goes to the next red space: space 2, not
    space 2": the wrong thing is on START, and the words say so."""
    game, s = new()
    s = play(game, s, "roll red")
    target = s.targets[0]
    reason = seen(game, s, w1_00="hazard", **{target.replace("-", "_"): "mario"}).reason
    assert "not space" not in reason and "START" in reason, reason


def test_a_token_the_fireball_or_a_jump_sent_back_must_leave_the_board():
    game, s = new(hands=[["fireball"]], tokens=(("w1-05", "goomba"), ("w1-09", "koopa")))
    s = play(game, s, "fireball w1-09")
    assert seen(game, s, w1_09="hazard").reason == "the hazard token on space 9 went back to the pile: take it off the board"
    s = play(game, replace(s, mario="w1-03"), "roll yellow", "move w1-06")  # typed on the page
    assert s.returned == ("w1-05",)
    assert "space 5 went back to the pile" in seen(game, s, w1_05="hazard").reason
    s = play(game, s, "roll red")
    assert s.returned == ()


def test_each_space_of_the_four_worlds_shows_mario_a_token_or_nothing():
    game, s = new(tokens=(("w1-05", "goomba"),))
    board = game.board(s)
    assert board["w1-00"] == "mario" and board["w1-05"] == "hazard" and board["w4-25"] == "empty"
    assert set(board.values()) == {"mario", "hazard", "empty"}
    assert sum(1 for v in board.values() if v != "empty") == 2


def test_on_a_link_space_the_camera_reads_the_next_world_and_sees_mario_go_there():
    game, s = new(mario="w1-32")
    assert game.reader_options(s)["world"]["world"] == 1
    assert list(game.observable_actions(s)) == []  # a roll is not seen
    s = play(game, s, "roll yellow", "move w1-34")
    assert game.reader_options(s)["world"]["world"] == 2
    assert [a.notation() for a in game.observable_actions(s)] == ["move w2-00"]
