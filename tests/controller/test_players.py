"""Players have names (controller/players.py): a new game takes them from the page (the
API), the CLI or the Table; the referee's words, the seats, the result and the PGN name
them with the printed seat beside; they are journalled with the game's start, so a
restart keeps them."""
import subprocess
import sys

import pytest

from controller.events import Bus, Enter, NewGame
from controller.journal import Journal
from controller.pgn import export_pgn
from controller.players import named
from controller.referee import Referee
from support import admin, running_service
from web import create_app

SCHOLAR = ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#")


def test_the_words_name_the_players_beside_their_seats(tmp_path):
    events = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(Journal(tmp_path / "j.sqlite"), bus)
    referee.new_game("chess", players=["Léa", "Tom"])
    snap = referee.snapshot()
    assert snap["prompt"]["text"].startswith("Léa (Mario's team) to move")
    assert snap["seats"] == ["Léa (Mario's team)", "Tom (Bowser's team)"]
    refused = referee.enter("e4", seat=1)  # Tom's phone, out of turn
    assert refused.data["reason"] == "it is Léa (Mario's team)'s turn, not Tom (Bowser's team)'s"
    for move in SCHOLAR:
        referee.enter(move)
    over = [e for e in events if e.kind == "game_over"][0]
    assert over.data["winner_name"] == "Léa (Mario's team)"
    pgn = export_pgn(referee.journal, referee.game_id)
    assert '[White "Léa (Mario\'s team)"]' in pgn and '[Black "Tom (Bowser\'s team)"]' in pgn


def test_a_restart_keeps_the_names(tmp_path):
    Referee(Journal(tmp_path / "j.sqlite")).new_game("connect4", players=["Léa", ""])
    again = Referee(Journal(tmp_path / "j.sqlite"))
    assert again.resume()
    assert again.snapshot()["seats"] == ["Léa (Mario)", "Luigi"]  # the unnamed seat keeps its words
    assert again.enter("4").data["text"] == "Léa (Mario) drops a chip in column 4"


def test_a_seat_is_named_only_as_a_whole_word():
    seats = ["Mario", "Luigi"]
    assert named("Mario's team; Marionette; Luigi", seats, ["Léa", ""]) == "Léa (Mario)'s team; Marionette; Luigi"
    assert named("Léa (Mario) to move", seats, ["Léa"]) == "Léa (Mario) to move"  # never twice


@pytest.mark.parametrize("names, said", [(["a", "b", "c"], "3 names for 2 seats"),
                                         (["x" * 30], "expected 1-24 printable characters"),
                                         (["tab\there"], "printable")])
def test_names_that_cannot_be_shown_are_refused_in_words(tmp_path, names, said):
    with running_service(tmp_path / "data") as service:
        result = service.submit(NewGame("chess", players=tuple(names)))
        assert not result.ok and said in result.error
        assert service.snapshot()["game"] == "connect4"  # the game in play goes on


def test_the_page_starts_a_game_with_names(tmp_path):
    with running_service(tmp_path / "data") as service:
        client = create_app(service).test_client()
        reply = client.post("/api/new-game", json={"game": "connect4", "players": "Léa, Tom"}, headers=admin(service))
        assert reply.status_code == 200
        assert client.get("/api/state").get_json()["prompt"]["text"].startswith("Léa (Mario) to move")
        assert service.submit(Enter("4")).event.data["text"] == "Léa (Mario) drops a chip in column 4"
        # the new-game button asks for no names: the same game keeps them
        assert service.submit(NewGame()).ok
        assert service.snapshot()["seats"] == ["Léa (Mario)", "Tom (Luigi)"]
        bad = client.post("/api/new-game", json={"game": "connect4", "players": 4}, headers=admin(service))
        assert bad.status_code == 400 and "'players'" in bad.get_json()["error"]


def test_the_cli_takes_names():
    run = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "chess", "--players", "Léa,Tom"],
                         input="\n".join(SCHOLAR), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    assert "result: Léa (Mario's team) wins: Bowser is checkmated" in run.stdout
    run = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "chess", "--players", "a,b,c"],
                         input="", capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "3 names for 2 seats" in run.stderr


def test_names_and_their_faults_are_in_the_table_s_language():
    referee = Referee(Journal(":memory:"), Bus(), lang="de")
    referee.new_game("chess", players=["Léa", "Tom"])
    assert referee.snapshot()["seats"] == ["Léa (Team Mario)", "Tom (Team Bowser)"]
    with pytest.raises(ValueError, match="3 Namen für 2 Plätze; höchstens ein Name pro Platz"):
        referee.new_game("chess", players=["A", "B", "C"])
