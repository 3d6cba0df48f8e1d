"""`referee hall export` (controller/hall/export.py): a round's games from the hall's own
journal, each chess game as PGN rebuilt as its table would write it (the history that
stands after an undo, the result, headers naming table and round), the games of kinds
without a format of their own as JSON with their record, and a record that does not
replay named as a problem while the rest is written. Real referees' journals copied into a
real HallStore as their publishers send them (no broker: that is tests/controller/hall/test_hall.py)."""
import io
import json

import chess.pgn
import pytest

from controller.events import Bus
from controller.hall.export import export_round, write_round
from controller.hall.store import HallStore
from controller.journal import Journal
from controller.referee import Referee


def sent(store: HallStore, table: str, journal: Journal, journal_id: str, after: int = 0) -> int:
    """Every event of `journal` after seq `after` kept by the hall as the table's
    publisher sends it; the last seq."""
    last = after
    for game in journal.games():
        for event in journal.export(game["id"])["events"]:
            if event["seq"] > after:
                assert store.add(table, {**event, "prev": last, "journal": journal_id}) == "kept"
                last = event["seq"]
    return last


def pgn_games(text: str) -> list:
    stream, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    return games


@pytest.fixture
def hall(tmp_path):
    """Round 1: table t1 plays chess (Nf3 taken back, then a fool's mate), t2 plays
    connect4; round 2: t2 plays chess."""
    store = HallStore(tmp_path / "hall.sqlite")
    store.mark_round(1, at=0.0)
    t1, t2 = Referee(Journal(":memory:"), Bus()), Referee(Journal(":memory:"), Bus())
    t1.new_game("chess")
    for san in ("f3", "e5", "Nh3"):
        t1.enter(san)
    t1.undo()
    for san in ("g4", "Qh4#"):
        t1.enter(san)
    t2.new_game("connect4")
    for column in ("4", "4", "3"):
        t2.enter(column)
    sent(store, "t1", t1.journal, "j-t1")
    last = sent(store, "t2", t2.journal, "j-t2")
    store.mark_round(2, at=max(g["started"] for g in store.games()) + 0.001)
    t2.new_game("chess")
    t2.enter("d4")
    sent(store, "t2", t2.journal, "j-t2", after=last)
    yield store
    store.close()


def test_a_round_s_chess_games_are_pgn_with_the_history_that_stands_and_the_table_named(hall):
    texts, others, problems = export_round(hall, 1)
    assert problems == []
    [game] = pgn_games(texts["pgn"])
    assert game.board().variation_san(list(game.mainline_moves())) == "1. f3 e5 2. g4 Qh4#"  # Nh3 taken back
    assert game.headers["Result"] == "0-1"
    assert (game.headers["Site"], game.headers["Round"], game.headers["Board"]) == \
        ("Tabletop Referee, table t1", "1", "t1")


def test_the_games_without_a_format_of_their_own_are_json_with_their_record(hall):
    _, others, _ = export_round(hall, 1)
    [connect4] = others
    assert (connect4["table"], connect4["game"], connect4["game_id"]) == ("t2", "connect4", 1)
    assert [p["notation"] for p in connect4["record"]] == ["4", "4", "3"]
    assert [e["type"] for e in connect4["events"]] == ["game_started", "move", "move", "move"]
    json.dumps(others)  # as it is written


def test_each_round_holds_its_own_games_and_every_game_without_a_round(hall):
    texts, others, _ = export_round(hall, 2)
    [game] = pgn_games(texts["pgn"])
    assert game.headers["Board"] == "t2" and game.headers["Round"] == "2" and others == []
    assert list(game.mainline_moves()) == [chess.Move.from_uci("d2d4")]
    texts, others, _ = export_round(hall, None)
    assert [g.headers["Round"] for g in pgn_games(texts["pgn"])] == ["-", "-"] and len(others) == 1


def test_a_round_is_written_one_file_per_format(hall, tmp_path):
    files, problems = write_round(hall, 1, tmp_path / "out")
    assert sorted(files) == [str(tmp_path / "out" / "round-1.json"), str(tmp_path / "out" / "round-1.pgn")]
    assert len(pgn_games((tmp_path / "out" / "round-1.pgn").read_text(encoding="utf-8"))) == 1
    assert json.loads((tmp_path / "out" / "round-1.json").read_text(encoding="utf-8"))[0]["game"] == "connect4"
    files, _ = write_round(hall, None, tmp_path / "out")
    assert {f.rsplit("/", 1)[1] for f in files} == {"all-games.pgn", "all-games.json"}


def test_a_record_that_does_not_replay_is_named_and_the_others_are_written(hall):
    last = hall.events("t2")[-1]["seq"]
    hall.add("t2", {"type": "move", "notation": "Ke5", "seat": 1, "game_id": 2, "seq": last + 1, "prev": last,
                    "t": last + 1.0, "journal": "j-t2"})  # no king reaches e5 from e8
    texts, _, problems = export_round(hall, None)
    assert len(problems) == 1 and problems[0].startswith("table t2 game 2: not written as PGN: ")
    assert [g.headers["Board"] for g in pgn_games(texts["pgn"])] == ["t1"]
