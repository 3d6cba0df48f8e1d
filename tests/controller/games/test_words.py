"""Every word each game gives the page, the hall, the alarms and the journal, over a
seeded game played by the demo's players (issue 23): prompts, the buttons' words, each
move in words, each alarm's reason and fix. None shows an internal code, a number that
disagrees with its noun or glued words, and a move's words begin with the name of the
player whose action it is (the page writes that name once, in front)."""
from __future__ import annotations

import pytest

from controller.events import Bus
from controller.journal import Journal
from controller.referee import Referee
from controller.registry import ENTRIES
from table_players import told
from words_check import faults

STEPS = {"connect4": 60, "chess": 120, "labyrinth": 80, "smb": 120, "monopoly": 160}


def play(tmp_path, name: str, seed: int):
    """(texts the players read, move events, seat names) of a seeded game of
    `STEPS[name]` inputs, with a camera alarm from a player's mistake every few moves."""
    referee = Referee(Journal(tmp_path / f"{name}.sqlite"), Bus())
    moves = []
    referee.bus.subscribe(lambda e: moves.append(e) if e.kind == "move" else None)
    texts = told(referee, name, seed, STEPS[name])
    return texts, moves, referee.game.seats(referee.state)


@pytest.mark.parametrize("name", list(ENTRIES))
def test_every_word_of_a_game_is_plain(tmp_path, name):
    texts, moves, seats = play(tmp_path, name, seed=7)
    assert len(moves) >= 20, "the game ended before it said much"
    problems = sorted({f for t in texts for f in faults(t)})
    assert problems == [], "\n".join(problems[:20])
    if name == "chess":  # chess lists its moves by number, each team in its column
        return
    for e in moves:
        seat = e.data["seat"]
        if seat is not None:
            assert e.data["text"].startswith(seats[seat]), f"{e.data['text']!r} is {seats[seat]}'s action"


def test_the_checks_catch_what_issue_23_found():
    """The faults the issue quotes are all caught (a check that cannot fail is no check)."""
    for text in ("GO should show p1+p2+p3", "Player 2 plays a bullet_bill card", "the ground (w2-04)",
                 "Blue pushes the spare tile (ES:KoopaTroopa) in", "the tile (EW) comes out", "1 coins",
                 "3 card", "Mario \u25B6to play", "BowserJr, DiddyKong"):
        assert faults(text), text
    for text in ("Mario's Cap pays the Bank 1 coin", "Player 1 has 3 coins", "move Mario to space 12",
                 "Blue pushes the spare tile (a corner with Koopa Troopa) in at the top of column b",
                 "15... Re8", "Mario \u25B6 to play", "Punch-Out Pizzeria", "roll 3 5"):
        assert faults(text) == [], text
