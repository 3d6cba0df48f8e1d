"""What the page and `referee play` get of the game (controller/snapshot.py): the
players' names in every word, each ply with its notation, words and seat (the unsure
ones after those that stand), the prompt's options in words with whose each is, the
variant in the table's language, and no seat's secret but to that seat."""
import json

import chess

from support import Camera, labyrinth_ring
from controller.events import Bus
from controller.journal import Journal
from controller.referee import Referee


def referee(lang: str = "en") -> Referee:
    return Referee(Journal(":memory:"), Bus(), lang=lang)


def test_no_game_is_said_plainly():
    assert referee().snapshot() == {"game": None}


def test_the_players_names_are_in_the_seats_the_prompt_and_the_record():
    ref = referee()
    ref.new_game("connect4", "classic", players=["Léa", "Tom"])
    ref.enter("4")
    snap = ref.snapshot()
    assert snap["seats"] == ["Léa (Mario)", "Tom (Luigi)"] and snap["players"] == ["Léa", "Tom"]
    assert snap["prompt"]["text"] == "Tom (Luigi) to move (green chip)" and snap["prompt"]["seat"] == 1
    assert snap["moves"] == ["4"] and snap["unsure"] == 0
    [ply] = snap["record"]
    assert (ply["notation"], ply["text"], ply["seat"], ply["name"], ply["unsure"]) == \
        ("4", "Léa (Mario) drops a chip in column 4", 0, "Léa (Mario)", False)
    assert snap["position"] == ref.position and snap["game_id"] == ref.game_id
    assert snap["outcome"] is None and snap["alarm"] is None and snap["doubt"] is None


def test_the_snapshot_gives_the_unsure_plies_words_after_the_recorded_ones():
    ref = referee()
    ref.confirm_s = 0.5
    ref.new_game("chess")
    camera = Camera(ref)
    board = chess.Board()
    camera.show(board)
    board.push_san("e4")
    camera.show(board, hold=0.25, confidence=0.62)  # read barely surely, once: shown, not recorded
    snap = ref.snapshot()
    assert snap["unsure"] == 1 and ref.history == []
    assert [p["unsure"] for p in snap["record"]] == [True]
    assert [p["notation"] for p in snap["record"]] == snap["moves"]
    assert all(p["text"] and p["text"] != p["notation"] for p in snap["record"])


def test_a_seat_s_secret_is_in_its_own_snapshot_only():
    """Red stands on the Star, its secret target, the turn not ended: Red's phone is told
    the option to end finds it; anyone else's page offers the same option without a word
    of the card, and sees how many cards Red holds, not which."""
    ref = referee()
    ref.new_game("labyrinth", settings={"players": 2}, setup=labyrinth_ring(), players=["Léa", "Tom"])
    for text in ("push N2 r0", "move d1"):
        ref.enter(text)
    own, anyone, other = ref.snapshot(0), ref.snapshot(None), ref.snapshot(1)
    assert own["prompt"]["words"]["end"] == "Léa (Red) ends the turn on d1 and finds Star (0 left)"
    assert own["state"]["players"][0]["targets"] == ["Star"]
    for snap in (anyone, other):
        assert snap["prompt"]["options"] == ["end"] and snap["prompt"]["actors"] == {"end": 0}
        assert snap["prompt"]["words"]["end"] == "Léa (Red) ends the turn on d1"
        assert "targets" not in snap["state"]["players"][0] and snap["state"]["players"][0]["cards"] == 1
    assert "Moon" not in json.dumps(own["state"]["players"])  # Tom's card, not Léa's to see


def test_the_game_is_named_in_the_table_s_language():
    ref = referee("fr")
    ref.new_game("connect4", "classic")
    snap = ref.snapshot()
    assert (snap["game"], snap["variant"]) == ("connect4", "classic")
    assert (snap["title"], snap["variant_title"]) == ("Puissance 4", "classique")
