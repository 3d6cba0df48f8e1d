"""A finished game downloads as PGN that chess programs read, and a game survives the
referee being killed: both come from the journal (a real SQLite file)."""
import io

import chess
import chess.pgn
import pytest

from controller.journal import Journal
from controller.pgn import export_pgn
from controller.referee import Referee
from shared_data import SHARED_DATA


def referee_on(path) -> Referee:
    return Referee(Journal(path))


def test_pgn_of_a_game_with_a_promotion_choice_and_a_resignation(tmp_path):
    referee = referee_on(tmp_path / "journal.sqlite")
    referee.new_game("chess")
    for text in "a4 b5 axb5 h6 b6 h5 bxc7 h4 cxb8".split() + ["promote n", "Bb7", "resign red"]:
        assert referee.enter(text).kind == "move", text
    record = chess.pgn.read_game(io.StringIO(export_pgn(referee.journal, referee.game_id)))
    assert record.headers["White"] == "Mario's team"
    assert record.headers["Black"] == "Bowser's team"
    assert record.headers["Result"] == "0-1"
    assert record.headers["Termination"] == "normal"
    assert record.headers["Date"].count(".") == 2 and "?" not in record.headers["Date"]
    sans = []
    board = record.board()
    for move in record.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    assert sans == "a4 b5 axb5 h6 b6 h5 bxc7 h4 cxb8=N Bb7".split()
    assert record.end().comment == "Mario's team resigns"


def test_pgn_of_a_real_game_reads_back_move_for_move(tmp_path):
    source = chess.pgn.read_game(open(SHARED_DATA / "pgn" / "nepomniachtchi-liren-2023-game1.pgn"))
    referee = referee_on(tmp_path / "journal.sqlite")
    referee.new_game("chess")
    for move in source.mainline_moves():
        assert referee.enter(move.uci()).kind == "move"
    referee.enter("draw agreed")
    record = chess.pgn.read_game(io.StringIO(export_pgn(referee.journal, referee.game_id)))
    assert list(record.mainline_moves()) == list(source.mainline_moves())
    assert record.headers["Result"] == "1/2-1/2"
    assert record.headers["PlyCount"] == "97"


def test_an_unfinished_game_is_unterminated_and_undo_is_respected(tmp_path):
    referee = referee_on(tmp_path / "journal.sqlite")
    referee.new_game("chess")
    for text in ["e4", "e5", "Qh5"]:
        referee.enter(text)
    referee.undo()
    record = chess.pgn.read_game(io.StringIO(export_pgn(referee.journal, referee.game_id)))
    assert record.headers["Result"] == "*" and record.headers["Termination"] == "unterminated"
    assert [m.uci() for m in record.mainline_moves()] == ["e2e4", "e7e5"]


def test_pgn_is_only_for_chess_and_existing_games(tmp_path):
    referee = referee_on(tmp_path / "journal.sqlite")
    referee.new_game("connect4", "classic")
    with pytest.raises(ValueError, match="game 1 is connect4, not chess"):
        export_pgn(referee.journal, referee.game_id)
    with pytest.raises(KeyError, match="no game 9"):
        export_pgn(referee.journal, 9)


def test_a_game_resumes_after_a_kill_with_its_offer_and_promotion(tmp_path):
    path = tmp_path / "journal.sqlite"
    referee = referee_on(path)
    referee.new_game("chess")
    for text in "a4 b5 axb5 h6 b6 h5 bxc7 h4 cxb8".split() + ["promote r", "offer draw"]:
        referee.enter(text)
    before = referee.snapshot()
    del referee  # the process dies; only the file is left
    again = referee_on(path)
    assert again.resume()
    after = again.snapshot()
    assert after["state"]["fen"] == before["state"]["fen"]
    assert after["state"]["draw_offer"] == "Bowser's team"
    assert chess.Board(after["state"]["fen"]).piece_at(chess.B8).symbol() == "R"
    assert again.enter("accept draw").kind == "move"
    assert again.snapshot()["outcome"]["reason"] == "draw agreed"


def test_a_game_started_from_a_position_exports_with_its_fen(tmp_path):
    import chess.pgn
    import io

    from controller.journal import Journal
    from controller.pgn import export_pgn
    from controller.referee import Referee

    journal = Journal(tmp_path / "j.sqlite")
    referee = Referee(journal)
    fen = "7k/5Q2/6K1/8/8/8/8/8 w - - 0 1"
    started = referee.new_game("chess", setup={"fen": fen})
    assert started.data["setup"] == {"fen": fen}  # a position is public
    assert referee.enter("Qg7#").kind == "move"
    record = chess.pgn.read_game(io.StringIO(export_pgn(journal, referee.game_id)))
    assert record.headers["FEN"] == fen and record.headers["Result"] == "1-0"
    assert [m.uci() for m in record.mainline_moves()] == ["f7g7"]
    fresh = Referee(journal)
    assert not fresh.resume()  # finished: nothing to resume
    fresh.load(referee.game_id)
    assert fresh.state.board.is_checkmate()


def test_an_impossible_position_is_refused_with_the_reason():
    import pytest

    from controller.games.chess.rules import Chess

    with pytest.raises(ValueError, match="not a legal position"):
        Chess().start({"fen": "8/8/8/8/8/8/8/8 w - - 0 1"})
