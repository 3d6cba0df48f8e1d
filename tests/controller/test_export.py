"""`referee export` (controller/export.py): a game's record from the data folder's
journal, as JSON for every game and as PGN for chess, the newest game unless one is
named, to the terminal or a file; a folder without a journal, a journal without games, a
game that is not there or a format the game is not written in is one line naming it and
exit status 1. The command in-process on a real SQLite journal in tmp_path; the PGN
writer itself: tests/controller/test_pgn.py."""
import io
import json

import chess.pgn
import pytest

from controller.cli import main
from controller.journal import Journal
from support import Camera, misread_then_corrected, referee_on


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A data folder whose journal holds a connect4 game (1) and then a chess game (2)
    whose camera misread a move and took it back (only read by the tests)."""
    tmp_path = tmp_path_factory.mktemp("data")
    journal = Journal(tmp_path / "journal.sqlite")
    referee, _ = referee_on(journal)
    referee.new_game("connect4")
    referee.enter("4")
    referee.new_game("chess")
    history = misread_then_corrected(Camera(referee))
    assert referee.game_id == 2
    journal.close()
    return tmp_path, history


def export(capsys, *args):
    status = main(["export", *map(str, args)])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_newest_game_as_json_holds_every_event_and_the_corrected_record(data, capsys):
    folder, history = data
    status, out, err = export(capsys, "--data", folder)
    assert status == 0 and err == ""
    record = json.loads(out)
    assert [p["notation"] for p in record["record"]] == history  # h6, misread and taken back, is not in it
    assert [e["type"] for e in record["events"]].count("corrected") == 1
    assert record["record"][1]["text"] == "Green Shell moves from f7 to f5"


def test_chess_as_pgn_that_python_chess_reads_back(data, capsys, tmp_path):
    folder, history = data
    out_file = tmp_path / "game.pgn"
    status, out, err = export(capsys, "2", "--data", folder, "--format", "pgn", "--out", out_file)
    assert (status, out, err) == (0, "", "")
    game = chess.pgn.read_game(io.StringIO(out_file.read_text(encoding="utf-8")))
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    assert sans == history


def test_an_older_game_by_its_number(data, capsys):
    folder, _ = data
    status, out, _ = export(capsys, "1", "--data", folder)
    record = json.loads(out)
    assert status == 0 and record["game"] == "connect4" and [p["notation"] for p in record["record"]] == ["4"]


@pytest.mark.parametrize("args, words", [
    (["7"], "no game 7 in"),
    (["7", "--format", "pgn"], "no game 7 in"),
    (["1", "--format", "pgn"], "game 1 is connect4: it is not written as PGN"),
])
def test_a_game_that_is_not_there_or_not_written_so_is_one_line(data, capsys, args, words):
    folder, _ = data
    status, out, err = export(capsys, *args, "--data", folder)
    assert status == 1 and out == ""
    assert err.startswith("referee export: ") and words in err and err.count("\n") == 1


def test_a_folder_without_a_journal_or_without_games_says_so(tmp_path, capsys):
    status, out, err = export(capsys, "--data", tmp_path / "nowhere")
    assert status == 1 and out == "" and err.startswith("referee export: ") and "nowhere" in err
    assert not (tmp_path / "nowhere").exists()  # exporting creates nothing
    Journal(tmp_path / "journal.sqlite").close()
    status, out, err = export(capsys, "--data", tmp_path)
    assert (status, out) == (1, "") and err == f"referee export: {tmp_path / 'journal.sqlite'} holds no games\n"
