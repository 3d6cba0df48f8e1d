"""The referee's words for what it cannot simply record (controller/wording.py), on the
real games: a doubt offers the likeliest readings once each, by their first ply's
notation, and names the squares in question; a correction says what the board shows
now against what was believed, from the first ply that differs; a wrong board says why,
where, whose turn it is to fix it and how; an oddity names its cell; the record is
numbered as players count it; a refusal says what the game waits for; and no reading of
a move not made yet names a seat's secret. In the table's language."""
import random

import pytest

from support import labyrinth_ring, played
from controller.beliefs import Line
from controller.evidence import Evidence
from controller.games.base import NotationError
from controller.games.chess.rules import Chess
from controller.games.labyrinth.rules import Labyrinth
from controller.games.smb.rules import SuperMarioBros
from controller.wording import DOUBT_CANDIDATES, Wording
from vision.view import SURE, BoardView


def chess_words(lang: str = "en"):
    game = Chess(lang=lang)
    return game, Wording(game, game._), game.start(None)


def line(game, state, *texts) -> Line:
    """A candidate history from `state`: the plies written in `texts`."""
    actions = []
    for text in texts:
        actions.append(game.parse(state, text))
        state = game.apply(state, actions[-1])
    return Line(tuple(actions), state, game.board(state))


def view_of(board: dict, **read) -> Evidence:
    """The evidence of a view reading `board` surely but for the cells in `read`."""
    cells = {c: (read.get(c, lab), 0.95) for c, lab in board.items()}
    return Evidence(BoardView(cells), board, SURE, False, Chess.wrong_cells)


def test_a_doubt_offers_each_likely_reading_once_and_names_its_squares():
    game, words, start = chess_words()
    lines = [line(game, start, "e4"), line(game, start, "d4"), line(game, start, "e4"), line(game, start, "e3"),
             line(game, start, "c4")]
    doubt = words.doubt(start, lines)
    assert [c["notation"] for c in doubt["candidates"]] == ["e4", "d4", "e3"][:DOUBT_CANDIDATES]
    assert doubt["candidates"][0]["text"] == "Coin moves from e2 to e4"
    assert doubt["text"] == ("I can't tell yet what moved: is it Coin moves from e2 to e4, Coin moves from d2 to d4 "
                             "or Coin moves from e2 to e3? The next moves will tell")
    assert doubt["cells"] == ["e2", "e4", "d2", "d4", "e3"]  # each once, the likeliest first
    unexplained = words.doubt(start, lines[:2], unexplained=True)
    assert unexplained["text"] == ("the board changed in a way I can't read: is it Coin moves from e2 to e4 or "
                                   "Coin moves from d2 to d4?")
    assert words.doubt(start, [Line((), start, game.board(start))]) is None  # nothing moved: no doubt


def test_a_correction_says_what_the_board_shows_now_from_the_first_ply_that_differs():
    game, words, start = chess_words()
    e4, h6, f5 = line(game, start, "e4", "h6").actions + line(game, start, "e4", "f5").actions[1:]
    assert words.correction(start, [e4, h6], [e4, f5]) == \
        "Green Shell moves from f7 to f5, not Green Shell moves from h7 to h6"
    assert words.correction(start, [e4, h6], [e4]) == "nothing moved, not Green Shell moves from h7 to h6"
    assert words.correction(start, [e4], [e4, h6]) == "Green Shell moves from h7 to h6, not nothing"
    took, knight = line(game, start, "e4", "d5", "exd5").actions, line(game, start, "e4", "d5", "Nc3").actions
    assert words.correction(start, took, knight) == \
        "Yoshi moves from b1 to c3, not Coin moves from e4 to d5 and captures Green Shell"
    misread = words.misread(start, [e4, h6], [line(game, start, "e4", "f5")])
    assert misread == {"text": "I may have misread a move: Green Shell moves from f7 to f5, not Green Shell moves "
                               "from h7 to h6? The next moves will tell", "candidates": [], "cells": []}


def test_a_wrong_board_says_why_where_who_fixes_it_and_how():
    """After 1. e4 White's pawn is seen on d5 instead: Black is to move, so White's pawn
    cannot have gone there; Black's team is named, and how to put it back."""
    game, words, start = chess_words()
    after = played(game, start, "e4")
    wrong = words.wrong_board(after, view_of(game.board(after), e4="empty", d5="p0"))
    assert wrong == {"reason": "it is Bowser's team's turn: Coin cannot move now", "cells": ["e4", "d5"],
                     "who": "Bowser's team", "fix": "put Coin (red) back on e4; clear d5",
                     "seen": {"d5": "p0", "e4": "empty"}}


def test_an_oddity_names_its_cell_and_what_it_shows():
    game, words, start = chess_words()
    odd = words.oddity(start, view_of(game.board(start), a7="empty"), {"a7"})
    assert odd["cells"] == ["a7"] and odd["candidates"] == []
    assert odd["text"] == ("something on the board no move explains: board does not match: a7 shows empty where "
                           "Green Shell (green) should be")


def test_the_record_is_numbered_as_players_count_it():
    game, words, start = chess_words()
    assert words.record_at(start, []) == "the start"
    assert words.record_at(start, ["e4"]) == "1. e4"
    assert words.record_at(start, ["e4", "e5"]) == "1... e5"
    assert words.record_at(start, ["e4", "e5", "Nf3"]) == "2. Nf3"
    smb = SuperMarioBros()
    three = smb.start({**smb.new_setup(random.Random(1)), "players": 3})
    assert Wording(smb, smb._).record_at(three, ["roll 3", "w1-03"]) == "move 2, w1-03"


def test_a_refusal_says_what_the_game_waits_for():
    game, words, start = chess_words()
    with pytest.raises(NotationError) as refused:
        game.parse(start, "xyz")
    said = words.refusal(start, refused.value)
    assert said["reason"] == "'xyz' is not a chess move. Mario's team to move (red)"
    assert said["usage"].startswith("expected UCI (e2e4, e7e8q), SAN (Nf3, O-O)")
    assert words.refusal(start, ValueError("the die module is off")) == {"reason": "the die module is off"}


def test_a_reading_of_a_move_not_made_yet_names_no_secret():
    """Red's pawn on the Star's square, the turn not ended: the doubt's reading "ends the
    turn there" says nothing of the card Red would find (the move, once made, does)."""
    game = Labyrinth(settings={"players": 2})
    state = played(game, game.start(labyrinth_ring()), "push N2 r0", "move d1")
    end = game.parse(state, "end")
    assert "Star" in game.describe(state, end)
    said = Wording(game, game._).describe(state, [end])
    assert said.startswith("Red ends the turn on d1") and "Star" not in said


def test_the_words_are_in_the_table_s_language():
    game, words, start = chess_words("fr")
    doubt = words.doubt(start, [line(game, start, "e4"), line(game, start, "d4")])
    assert doubt["text"] == ("Je ne sais pas encore ce qui a bougé : est-ce Pièce va de e2 à e4 ou Pièce va de d2 "
                             "à d4 ? Les coups suivants le diront")
    assert words.describe(start, line(game, start, "e4", "e5").actions) == \
        "Pièce va de e2 à e4, puis Carapace verte va de e7 à e5"
