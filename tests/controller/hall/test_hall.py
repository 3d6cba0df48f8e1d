"""The hall over MQTT: referees publish their public record to a real Mosquitto on
loopback, the hall keeps every event of every table exactly once and in order through a
broker restart and a referee killed and started again, and its round export is PGN that
python-chess reads back."""
from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn
import pytest

from support import need
from controller.cli import main
from controller.config import ConfigError, HallSettings, parse
from controller.events import Bus
from controller.hall.publisher import Publisher
from controller.hall.receiver import Hall
from controller.journal import Journal
from controller.referee import Referee
from mosquitto import MOSQUITTO, MOSQUITTO_PASSWD, Mosquitto
from waiting import wait_for

REFEREE = str(Path(sys.executable).parent / "referee")


def hall_config(folder: Path, table: str, port: int) -> Path:
    path = folder / f"{table}.toml"
    path.write_text(f'[hall]\nenabled = true\nbroker = "127.0.0.1"\nport = {port}\ntable = "{table}"\n')
    return path


def journal_record(data: Path) -> list[tuple[int, int | None, str]]:
    journal = Journal(data / "journal.sqlite")
    try:
        return [(e.seq, e.game_id, e.kind) for g in journal.games() for e in journal.events(g["id"])]
    finally:
        journal.close()


def test_every_event_of_every_table_reaches_the_hall_once_in_order_through_restarts(tmp_path, broker):
    assert main(["hall", "round", "1", "--data", str(tmp_path / "hall")]) == 0  # before the games start
    hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port).start()
    heard: list[tuple[str, int]] = []
    hall.bus.subscribe(lambda e: heard.append((e.data["table"], e.data["event"]["seq"]))
                       if e.kind == "hall_event" else None)
    tables = {"a": ("chess", 1, 10), "b": ("chess", 2, 8), "c": ("connect4", 3, 8)}

    def referee(name: str, turns: int) -> subprocess.Popen:
        game, seed, _ = tables[name]
        return subprocess.Popen(
            [REFEREE, "demo", "--fast", "--game", game, "--seed", str(seed), "--turns", str(turns),
             "--port", "0", "--data", str(tmp_path / name), "--config",
             str(hall_config(tmp_path, name, broker.port))],
            stdout=subprocess.DEVNULL, stderr=open(tmp_path / f"{name}.log", "ab"))

    procs = {name: referee(name, turns) for name, (_, _, turns) in tables.items()}
    try:
        # the broker goes away while the tables play on, and comes back on the same port
        wait_for(lambda: {"a", "b"} <= {t for t, _ in heard}, "the first events of tables a and b", 60)
        broker.stop()
        kept = len(heard)
        time.sleep(2.0)
        broker.start()
        # table c is killed in the middle of its game and started again on its journal
        wait_for(lambda: len(journal_record(tmp_path / "c")) >= 4, "four events in table c's journal", 60)
        procs["c"].send_signal(signal.SIGKILL)
        procs["c"].wait(10)
        procs["c"] = referee("c", 3)
        for name, proc in procs.items():
            assert proc.wait(120) == 0, (tmp_path / f"{name}.log").read_text()[-2000:]
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.kill()

    records = {name: journal_record(tmp_path / name) for name in tables}

    def complete():
        return all([(e["seq"], e["game_id"], e["type"]) for e in hall.store.events(name)] == records[name]
                   for name in tables)

    wait_for(complete, "every table's journal at the hall", 30)
    assert len(heard) > kept  # events came after the broker's restart too
    for name in tables:
        seqs = [seq for t, seq in heard if t == name]
        assert seqs == [seq for seq, _, _ in records[name]], f"table {name}: each event once, in order"
    assert records["c"][-1][0] > 4 and any(kind == "move" for _, _, kind in records["c"][4:])
    hall.close()

    # the export: every chess game as PGN python-chess reads back with its moves
    assert main(["hall", "export", "--round", "1", "--data", str(tmp_path / "hall"),
                 "--out", str(tmp_path / "out")]) == 0
    text = (tmp_path / "out" / "round-1.pgn").read_text()
    games = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors and game.headers["Round"] == "1"
        games.append(game)
    assert sorted(g.headers["Board"] for g in games) == ["a", "b"]
    for game in games:
        journal = Journal(tmp_path / game.headers["Board"] / "journal.sqlite")
        moves = [e.data["notation"] for e in journal.events(1) if e.kind == "move"]
        journal.close()
        assert len(moves) >= 3
        assert [n.san() for n in game.mainline()] == moves
    others = json.loads((tmp_path / "out" / "round-1.json").read_text())
    assert [(g["table"], g["game"]) for g in others] == [("c", "connect4")]
    played = [e["notation"] for e in others[0]["events"] if e["type"] == "move"]  # no undo in this game
    assert [p["notation"] for p in others[0]["record"]] == played and all(p["text"] for p in others[0]["record"])


def test_a_table_publishes_only_under_its_own_name_and_never_its_secret_setup_and_the_hall_catches_up(tmp_path):
    need(MOSQUITTO is not None and MOSQUITTO_PASSWD is not None,
         "mosquitto and mosquitto_passwd are missing (apt install mosquitto)")
    broker = Mosquitto(tmp_path / "broker", users={"hall": "hall-pw", "t1": "t1-pw"}).start()
    try:
        publishers = []
        for table, user, password in (("t1", "t1", "t1-pw"), ("t2", "t1", "t1-pw"), ("t3", "", "")):
            journal = Journal(tmp_path / f"{table}.sqlite")
            referee = Referee(journal, Bus())
            referee.new_game("labyrinth")
            settings = HallSettings(enabled=True, broker="127.0.0.1", port=broker.port, table=table,
                                    username=user, password=password)
            publishers.append(Publisher(journal.path, settings, snapshot=referee.snapshot,
                                        client_id=f"test-{table}").start())
        # the hall comes after the events went out (gone: nobody held them), and catches up
        # from the table's retained state: it asks for every event after the last it has
        wait_for(lambda: publishers[0].acked >= 1, "the broker to acknowledge t1's first event", 10)
        hall = Hall(tmp_path / "hall", "127.0.0.1", broker.port, username="hall", password="hall-pw").start()
        wait_for(lambda: hall.store.events("t1") and any(t["table"] == "t1" and t["state"]
                                                          for t in hall.store.tables()), "table t1 at the hall", 15)
        time.sleep(1.0)  # time enough for t2's and t3's messages, had the broker let them through
        assert [t["table"] for t in hall.store.tables()] == ["t1"]
        assert any("t1: events after seq 0 are missing" in note for note in hall.notes)
        started = hall.store.events("t1")[0]
        assert started["type"] == "game_started"
        full = Journal(tmp_path / "t1.sqlite").events(1)[0].data["setup"]
        assert "targets" in json.dumps(full)  # the journal holds the secret deal...
        assert "targets" not in json.dumps(started["setup"])  # ...the hall never sees it
        assert started["setup"]["rows"] == full["rows"]  # the maze on the table is public
        state = hall.store.tables()[0]["state"]
        assert state["game"] == "labyrinth" and state["table"] == "t1" and state["seq"] >= 1
        for p in publishers:
            p.close()
        wait_for(lambda: hall.store.tables()[0]["online"] == "offline", "t1 to say offline", 10)
        # table t1 comes back on a new SD card: its new journal numbers from 1 again, and
        # the hall keeps that game beside the first instead of taking it for duplicates
        first = hall.store.tables()[0]["journal"]
        journal = Journal(tmp_path / "t1-new.sqlite")
        referee = Referee(journal, Bus())
        referee.new_game("connect4")
        referee.enter("4")
        settings = HallSettings(enabled=True, broker="127.0.0.1", port=broker.port, table="t1",
                                username="t1", password="t1-pw")
        publisher = Publisher(journal.path, settings, snapshot=referee.snapshot).start()
        wait_for(lambda: [e["type"] for e in hall.store.events("t1")] == ["game_started", "move"],
                 "t1's new journal at the hall", 10)
        assert hall.store.tables()[0]["journal"] not in ("", first)
        assert [e["type"] for e in hall.store.events("t1", journal=first)] == ["game_started"]
        assert [g["game"] for g in hall.store.games()] == ["labyrinth", "connect4"]
        publisher.close()
        hall.close()
    finally:
        broker.stop()


@pytest.mark.parametrize("text, words", [
    ("[hall]\nenabled = true\ntable = 'x'\n", ["[hall] broker is empty", "enabled = true"]),
    ("[hall]\nenabled = true\nbroker = 'h'\n", ["[hall] table is empty"]),
    ("[hall]\ntable = 'a/b'\n", ["[hall] table is 'a/b'", "letters, digits"]),
    ("[hall]\nport = 0\n", ["[hall] port is 0", "1-65535"]),
    ("[hall]\npassword = 'x'\n", ["[hall] password is set but username is not"]),
    ("[hall]\ntls = true\nca_file = '/nonexistent.pem'\n", ["[hall] ca_file", "no such file"]),
    ("[hall]\nenabled = 'yes'\n", ["[hall] enabled", "true or false"]),
    ("[hall]\nbrokr = 'h'\n", ["unknown key [hall] brokr", "broker"]),
])
def test_hall_settings_are_checked_with_messages_naming_the_key(text, words):
    with pytest.raises(ConfigError) as caught:
        parse(text, "t.toml")
    for word in words:
        assert word in str(caught.value)


def test_the_hall_page_is_read_only_without_the_admin_token(tmp_path):
    """The page and its API serve what the hall kept; marking a round needs the token."""
    from web.hall import create_hall_app

    hall = Hall(tmp_path / "hall", "127.0.0.1", 1)  # not started: the page reads the store
    for seq, event in enumerate([
            {"type": "game_started", "game": "chess", "variant": "mario", "settings": {}, "setup": {}},
            {"type": "move", "notation": "e4", "text": "e2-e4", "seat": 0, "ply": 1},
            {"type": "illegal", "reason": "a pawn moves forward", "cells": ["e5"], "source": "camera"}], 1):
        assert hall.store.add("t7", {**event, "game_id": 1, "seq": seq, "prev": seq - 1, "t": 100.0 + seq}) == "kept"
    again = {"type": "move", "notation": "e4", "text": "e2-e4", "seat": 0, "ply": 1, "game_id": 1, "seq": 2, "t": 102.0}
    assert hall.store.add("t7", {**again, "prev": 0}) == "duplicate"  # sent again after a resend from seq 0
    assert hall.store.add("t7", {"type": "move", "game_id": 1, "seq": 9, "prev": 8, "t": 1}) == "gap"
    hall.store.set_state("t7", {"game": "chess", "game_id": 1, "moves": ["e4"], "seq": 9, "table": "t7"})
    assert hall.store.behind() == [("t7", "", 3)]
    client = create_hall_app(hall, "sesame").test_client()
    page = client.get("/").get_data(as_text=True)
    assert "The hall" in page and "t7" in page and "hall.js" in page
    detail = client.get("/api/hall/tables/t7").get_json()
    assert [e["seq"] for e in detail["events"]] == [1, 2, 3]
    assert client.get("/api/hall").get_json()["alarms"][0]["reason"] == "a pawn moves forward"
    assert client.get("/api/hall/tables/nobody").status_code == 404
    assert client.post("/api/hall/round", json={"round": 1}).status_code == 403
    assert client.post("/api/hall/round", json={"round": 1, "token": "wrong"}).status_code == 403
    assert client.get("/api/hall/export/round-1.pgn").status_code == 404  # not marked yet
    answer = client.post("/api/hall/round", json={"round": 1},
                         headers={"Authorization": "Bearer sesame"})
    assert answer.status_code == 200 and "1" in answer.get_json()["rounds"]
    # a Super Mario Bros. table's drawing fetches its World boards from the hall
    smb = Referee(Journal(":memory:"))
    started = smb.new_game("smb").to_json()
    assert hall.store.add("s1", {**started, "prev": 0}) == "kept"
    assert "worlds" in client.get("/tables/s1/api/layout?game_id=1").get_json()
    assert client.get("/tables/s1/api/layout?game_id=7").status_code == 404
    hall.store.close()


def test_hall_commands_say_what_is_missing(tmp_path, capsys):
    assert main(["hall"]) == 2
    assert "--broker HOST" in capsys.readouterr().err
    assert main(["hall", "--broker", "127.0.0.1", "--token", "sesame"]) == 2
    assert "--token is 6 characters; at least 16" in capsys.readouterr().err
    assert main(["hall", "export", "--data", str(tmp_path / "none")]) == 1
    assert "no hall journal here" in capsys.readouterr().err
    assert main(["hall", "round", "--data", str(tmp_path / "h")]) == 2
    assert main(["hall", "round", "2", "--data", str(tmp_path / "h")]) == 0
    assert main(["hall", "export", "--round", "3", "--data", str(tmp_path / "h")]) == 1
    assert "round 3 was never marked (marked: 2)" in capsys.readouterr().err
    assert main(["hall", "export", "--round", "2", "--data", str(tmp_path / "h"), "--out", str(tmp_path / "o")]) == 0
    assert (tmp_path / "o" / "round-2.pgn").read_text() == "" and (tmp_path / "o" / "round-2.json").read_text() == "[]"
