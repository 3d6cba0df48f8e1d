"""What the status page shows of a Labyrinth game (controller/games/labyrinth/page.py)."""
import random

from controller.games.labyrinth.page import snapshot
from controller.games.labyrinth.rules import Labyrinth
from support import labyrinth_ring, played


def test_the_page_gets_the_maze_as_a_setup_writes_it_and_each_player_s_card():
    game = Labyrinth(settings={"players": 2})
    state = played(game, game.start(labyrinth_ring()), "push N2 EW", "move d1", "end")
    snap = snapshot(game, state, 0)
    assert game.start({**labyrinth_ring(), "rows": snap["rows"], "spare": snap["spare"]}).tiles == state.tiles
    assert snap["players"][0] == {"colour": "red", "cell": "d1", "start": "a1", "found": ["Star"], "cards": 1,
                                  "targets": []}
    assert "targets" not in snap["players"][1]  # yellow's card is not red's to see
    assert snap["seat_words"] == ["on d1 \u00B7 found 1 of 1 treasure", "on g1 \u00B7 found 0 of 1 treasure"]
    assert snap["treasures"]["Sun"] == {"name": "Sun", "mark": "Su"} and snap["turn"] == 1
    assert snap["phase"] == "push" and snap["banned_arrow"] == "S2"


def test_a_count_of_treasures_takes_its_language_s_plural():
    game = Labyrinth(settings={"players": 2}, lang="fr")
    state = game.start(game.new_setup(random.Random(3)))
    french = snapshot(game, state)["seat_words"]
    english = snapshot(Labyrinth(settings={"players": 2}), state)["seat_words"]
    assert french[0].startswith("en a1") and french[0] != english[0] == "on a1 \u00B7 found 0 of 12 treasures"
