"""Issue 30: a refusal the page shows a person comes in that page's language (the phone's
choice, else its browser's Accept-Language), in the same JSON shape ({"error": ...}); a
refusal only a program can get (a body that is not JSON) stays English. Flask's test
client over a real Service (docs/languages.md, "The HTTP API")."""
from __future__ import annotations

import pytest

from support import admin
from web import create_app

DE = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
FR = {"Accept-Language": "fr-CH, fr;q=0.9"}


@pytest.fixture
def client(service):
    return create_app(service).test_client()


def test_a_move_without_a_token_is_refused_in_the_browser_s_language(client):
    de = client.post("/api/move", json={"text": "4"}, headers=DE)
    assert de.status_code == 403
    assert de.get_json() == {"error": "ein Zug braucht den Admin-Token oder den Spieler-Token des Platzes am Zug"}
    en = client.post("/api/move", json={"text": "4"})
    assert en.get_json() == {"error": "a move needs the admin token or the player token of the seat to move"}


def test_a_wrong_token_and_a_missing_field_are_said_in_german_and_french(client, service):
    wrong = client.post("/api/move", json={"text": "4", "token": "not-a-token"}, headers=DE)
    assert wrong.status_code == 403
    assert wrong.get_json()["error"] == "falscher Token: weder der Admin-Token noch ein Spieler-Token dieser Partie"
    missing = client.post("/api/move", json={}, headers={**DE, **admin(service)})
    assert missing.status_code == 400 and missing.get_json() == {"error": "das Feld 'text' ist erforderlich"}
    blank = client.post("/api/move", json={"text": "  "}, headers={**FR, **admin(service)})
    assert blank.get_json() == {"error": "le champ 'text' ne doit pas être vide"}


def test_the_page_s_own_choice_wins_over_the_browser_s(client):
    client.set_cookie("referee-lang", "fr")
    answer = client.post("/api/new-game", json={"game": "connect4"}, headers=DE)
    assert answer.status_code == 403
    assert answer.get_json()["error"].startswith("il faut le jeton d'administration")


def test_a_new_game_s_refusals_name_the_field_in_the_page_s_language(client, service):
    game = client.post("/api/new-game", json={"game": "go"}, headers={**DE, **admin(service)})
    assert game.status_code == 400 and game.get_json()["error"].startswith("das Feld 'game' ist 'go'; erwartet eines von")
    variant = client.post("/api/new-game", json={"game": "connect4", "variant": "huge"}, headers={**FR, **admin(service)})
    assert variant.status_code == 422
    assert variant.get_json()["error"].startswith("le champ 'variant' vaut 'huge' ; connect4 a ")


def test_what_only_a_program_sends_is_answered_in_english(client, service):
    """A page never sends a body that is not a JSON object: its answer is for the programmer."""
    answer = client.post("/api/move", data="[1, 2]", content_type="application/json", headers={**DE, **admin(service)})
    assert answer.status_code == 400
    assert answer.get_json() == {"error": "the request body must be a JSON object, not a list"}
