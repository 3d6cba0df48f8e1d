"""The board and card data: the bundled stand-in passes the validator, and every kind of
broken file is refused with a message naming the file and the entry."""
import copy
import json

import pytest

from controller.games.monopoly.board import (BOARD_FILE, CARDS_FILE, EFFECTS, BoardDataError, load_board,
                                             parse_board)

BOARD = json.loads(BOARD_FILE.read_text())
CARDS = json.loads(CARDS_FILE.read_text())


def test_the_bundled_board_has_the_box_contents_and_says_it_is_a_stand_in():
    b = load_board()
    kinds = [s.kind for s in b.spaces]
    assert len(b.spaces) == 40 and kinds[0] == "go"
    assert len(b.locations) == 16 and kinds.count("warp_pipe") == 4
    assert len({b.spaces[i].set for i in b.locations}) == 8
    assert all(b.partner(b.partner(i)) == i and b.partner(i) != i for i in b.locations)
    assert b.total_coins == 55 + 5 * 40 == 255 and b.start_coins == 30
    assert all(len(b.cards[d]) == 16 for d in ("question_block", "bowser_fury"))
    assert "STAND-IN" in b.stand_in
    used = {c.effect for d in b.cards.values() for c in d}
    assert used == set(EFFECTS)  # the stand-in decks use the whole vocabulary


def test_walk_and_next_of():
    b = load_board()
    assert b.walk(38, 4) == (2, True) and b.walk(5, -3) == (2, False) and b.walk(33, 7) == (0, True)
    pipes = [s.index for s in b.spaces if s.kind == "warp_pipe"]
    assert b.next_of("warp_pipe", pipes[-1]) == pipes[0]


def broken(path, value, which="board"):
    board, cards = copy.deepcopy(BOARD), copy.deepcopy(CARDS)
    target = board if which == "board" else cards
    *keys, last = path
    for k in keys:
        target = target[k]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return board, cards


@pytest.mark.parametrize("path,value,which,message", [
    (("spaces",), BOARD["spaces"][:39], "board", "expected a list of 40 spaces, got 39"),
    (("spaces", 0, "kind"), "jail", "board", "space 0"),
    (("spaces", 1, "name"), "GO", "board", "space 1 (GO): the name is used twice"),
    (("spaces", 1, "kind"), "castle", "board", "unknown kind 'castle'"),
    (("spaces", 1, "price"), 0, "board", "space 1 (Brooklyn Sewers) price: expected a whole number >= 1, got 0"),
    (("spaces", 3, "set"), "pink", "board", "set 'brown': a colour set has exactly two locations"),
    (("spaces", 5, "kind"), "super_star", "board", "expected 4 Warp Pipes, found 3"),
    (("tokens",), ["a", "a", "b", "c", "d", "e"], "board", "six different token names"),
    (("decks", "bowser_fury", 0, "effect"), "teleport", "cards", "bowser_fury card 0: unknown effect 'teleport'"),
    (("decks", "question_block", 5, "space"), 40, "cards", "question_block card 5: space must be 0-39"),
    (("decks", "question_block"), CARDS["decks"]["question_block"][:15], "cards", "expected 16 cards, got 15"),
    (("decks", "bowser_fury", 9, "steps"), 0, "cards", "steps must be a non-zero"),
])
def test_broken_data_is_refused_with_the_entry_named(path, value, which, message):
    board, cards = broken(path, value, which)
    with pytest.raises(BoardDataError) as err:
        parse_board(board, cards, "board.json", "cards.json")
    assert message in str(err.value)
    assert ("board.json" if which == "board" else "cards.json") in str(err.value)


def test_unreadable_files_are_named(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text("{not json")
    with pytest.raises(BoardDataError, match="board.json: not valid JSON"):
        load_board(bad, CARDS_FILE)
    with pytest.raises(BoardDataError, match="missing.json: cannot read"):
        load_board(tmp_path / "missing.json", CARDS_FILE)


def test_corrected_files_are_used_by_the_game(tmp_path):
    from controller.games.monopoly.rules import Monopoly
    board = copy.deepcopy(BOARD)
    board["spaces"][1]["price"] = 9
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(board))
    game = Monopoly(settings={"board_file": str(path), "cards_file": str(CARDS_FILE)})
    assert game.b.spaces[1].price == 9
