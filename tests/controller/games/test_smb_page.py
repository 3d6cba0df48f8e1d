"""What the status page gets of a Super Mario Bros. game (controller/games/smb/page.py)."""
from smb_table import moved_once, new


def test_snapshot_shows_counts_to_all_and_a_hand_only_to_its_owner():
    game, s = new(hands=[["goomba", "koopa", "fireball"]])
    snap = game.snapshot(s, viewer=None)
    assert snap["cards"] == {"Player 1": 3, "Player 2": 3} and snap["hand"] is None
    assert game.snapshot(s, viewer=0)["hand"] == ["Goomba", "Koopa", "Fireball"]  # as printed


def test_another_seats_hand_and_the_drawpile_are_face_down():
    game, s = moved_once()
    seen = game.seen_by(s, 1)
    assert seen.hands[1] == s.hands[1] and seen.hands[0] == ("?",) * 3 and seen.hands[2] == ("?",) * 3
    assert set(seen.pile) == {"?"} and len(seen.pile) == len(s.pile)
    assert set(game.seen_by(s, None).hands[1]) == {"?"}


def test_the_layout_draws_all_four_worlds_with_their_spaces_named():
    game, s = new()
    worlds = game.layout()["worlds"]
    assert list(worlds) == ["1", "2", "3", "4"]
    start = next(sp for sp in worlds["1"]["spaces"] if sp["id"] == worlds["1"]["start"])
    assert start["name"] == "START" and start["id"] == s.mario
