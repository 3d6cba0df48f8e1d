"""The HTML pages: the status page (for everyone, or as one player from a phone link),
the TV's table mode and the calibration view. The pages carry the first snapshot so they
show the game at once; static/app.js keeps them current from the event stream and draws
the board with static/draw/<game>.js. Chips and pieces are drawn in the colours
configured for the camera, so the page looks like the table."""
from __future__ import annotations

from functools import cache

from pathlib import Path

from flask import Blueprint, abort, redirect, render_template, send_from_directory, url_for

from controller.registry import ENTRIES

from controller.i18n import translator

from .language import page_language
from .payload import check_token_wait, page_status, seat_of, service, wrong_token

views = Blueprint("views", __name__)

# one drawing per game, each in static/draw/<game>.js (kit.js holds their shared parts),
# as the registry names them
DRAWINGS = sorted(name for name, e in ENTRIES.items() if e.drawing.exists())


@cache
def _kinds() -> dict[str, type]:
    from controller.games import game_class

    return {name: game_class(name) for name in ENTRIES}


def games() -> dict[str, dict]:
    """What the page needs of each game kind beyond its snapshot: whether it rolls a die
    (its page shows the die module's state) and an example of its typed notation, in the
    page's language."""
    _ = translator(page_language())
    return {name: {"die": bool(cls.die), "example": _(cls.example) if cls.example else ""}
            for name, cls in _kinds().items()}


def _page(seat: int | None = None, token: str | None = None, table: bool = False):
    snap = service().snapshot(viewer=seat)
    initial = {"snapshot": snap, "status": page_status(), "colours": service().config.camera.colours,
               "seat": seat, "token": token, "table": table, "games": games()}
    return render_template("index.html", snap=snap, initial=initial, seat=seat, table=table, drawings=DRAWINGS)


@views.get("/")
def index():
    return _page()


@views.get("/table")
def table():
    """Full screen for a TV by the table: the board, the prompt and the moves, no controls."""
    return _page(table=True)


@views.get("/seat/<token>")
def seat_page(token: str):
    check_token_wait(token)  # a link is a token: guessing links is slowed like guessing tokens
    seat = seat_of(token, service().snapshot())
    if seat is None:
        wrong_token("not a player link")
        return render_template("invalid_link.html"), 404
    return _page(seat, token)


@views.get("/speech/<name>")
def speech(name: str):
    """An announcement of the voice (controller/voice.py) as WAV, for a page whose sound
    is on: a table without a speaker still speaks through a phone or the TV."""
    from controller.voice import WAV

    if not WAV.fullmatch(name):
        abort(404)
    return send_from_directory(Path(service().config.data.folder).resolve() / "speech", name,
                               mimetype="audio/wav", max_age=3600)


@views.get("/favicon.ico")
def favicon():
    return redirect(url_for("static", filename="favicon.svg"), code=301)


@views.get("/calibrate")
def calibrate():
    return render_template("calibrate.html")
