"""The HTML pages (web/views.py) through Flask's test client over a real Service: the
status page carries its first snapshot, the TV's table mode, a seat's page, the voice's
kept announcements and what the page is told of each game, in the page's language."""
from __future__ import annotations

import json
import re
from pathlib import Path

from web import create_app
from web.payload import player_token

import pytest


@pytest.fixture
def client(service):
    return create_app(service).test_client()


def initial(page) -> dict:
    """The first snapshot and settings a page carries (read before any script runs)."""
    html = page.get_data(as_text=True)
    return json.loads(re.search(r'<script id="initial" type="application/json">(.*?)</script>', html, re.S)[1])


def test_page_carries_the_snapshot_and_is_phone_ready(client, service):
    page = client.get("/")
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert 'name="viewport"' in html
    assert "Mario to move" in html  # readable before any script runs
    assert initial(page)["snapshot"] == service.snapshot()
    for asset in ("/static/app.js", "/static/style.css"):
        assert client.get(asset).status_code == 200


def test_the_page_uses_the_configured_chip_colours(client, service):
    service.config.camera.colours = ["#e8c400", "#c81010"]  # a classic yellow and red set
    assert initial(client.get("/"))["colours"] == ["#e8c400", "#c81010"]


def test_the_tv_mode_and_a_seat_page_carry_who_is_looking(client, service):
    tv = initial(client.get("/table"))
    assert tv["table"] is True and tv["seat"] is None
    token = player_token(service.admin_token, 1)
    seat = client.get(f"/seat/{token}")
    assert seat.status_code == 200
    assert (initial(seat)["seat"], initial(seat)["token"]) == (1, token)
    assert client.get(f"/seat/{token[:-1]}x").status_code == 404  # a link one letter off is no seat


def test_each_game_is_described_in_the_page_language(client):
    games = initial(client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}))["games"]
    assert games["connect4"] == {"die": False, "example": "eine Spalte, z. B. 4"}
    assert games["smb"]["die"] and games["monopoly"]["die"] and not games["chess"]["die"]
    assert initial(client.get("/?lang=fr"))["games"]["connect4"]["example"] == "une colonne, p. ex. 4"


def test_kept_announcements_are_served_and_nothing_else_of_the_data_folder(client, service):
    speech = Path(service.config.data.folder) / "speech"
    speech.mkdir(exist_ok=True)
    (speech / "000003.wav").write_bytes(b"RIFF....WAVE")
    wav = client.get("/speech/000003.wav")
    assert wav.status_code == 200 and wav.mimetype == "audio/wav" and wav.data == b"RIFF....WAVE"
    assert client.get("/speech/000004.wav").status_code == 404  # not (or no longer) kept
    for name in ("journal.sqlite", "..%2Fjournal.sqlite", "3.wav", "000003.wav.bak"):
        assert client.get(f"/speech/{name}").status_code == 404, name
