"""How the Labyrinth is said (controller/games/labyrinth/words.py): tiles, arrows, cells
and pawns, and each action as it is recorded, in the table's language."""
from controller.games.labyrinth.actions import Push
from controller.games.labyrinth.maze import E, N, S, Tile
from controller.games.labyrinth.rules import Labyrinth
from controller.games.labyrinth.words import arrow_words, cell_name, describe, label_words, tile_words, who
from controller.i18n import translator
from support import labyrinth_ring, played


def test_tiles_and_arrows_are_said_as_players_see_them():
    assert tile_words(Tile(E | S, "Koopa Troopa")) == "a corner with Koopa Troopa"
    assert tile_words(Tile(N | S)) == "a straight" and tile_words(Tile(N | E | S)) == "a T-junction"
    assert tile_words(Tile(N | E | S | 8)) == "a tile open on 4 sides"
    assert [arrow_words(a) for a in ("N2", "S6", "W4", "E2")] == [
        "the top of column b", "the bottom of column f", "the left end of row 4", "the right end of row 2"]
    assert arrow_words("N2", translator("fr")) == "le haut de la colonne b"


def test_camera_cells_and_labels_in_words():
    _ = translator()
    assert cell_name(_, (0, 0)) == "a1" and cell_name(_, (6, 6)) == "g7"
    assert cell_name(_, "spare") == "the spare tile" and cell_name(_, "pawn:blue") == "the blue pawn"
    assert label_words(_, "tile:ES") == "a corner open at the right and the bottom"
    assert label_words(_, "spare:T") == "a T-junction" and label_words(_, "spare:?") == "a tile"
    assert label_words(_, "b3") == "on b3"


def test_a_push_that_ends_the_turn_is_said_after_the_pusher_s_name():
    game = Labyrinth(settings={"players": 2})
    state = played(game, game.start(labyrinth_ring()), "push N2 EW")
    assert who(translator(), state, 1) == "Yellow"
    assert describe(game, state, Push("N4", 0)) == (
        "Yellow, after Red stayed on a1, pushes the spare tile (a straight) in at the top of column d; "
        "the tile on d7 (a straight with Moon) comes out")
    french = Labyrinth(settings={"players": 2}, lang="fr")
    assert describe(french, state, Push("N4", 0)).startswith("Jaune")
