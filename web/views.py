"""The HTML pages: the status page (for everyone, or as one player from a phone link)
and the calibration view. The pages carry the first snapshot so they show the game at
once; static/app.js keeps them current from the event stream. Chips and pieces are drawn
in the colours configured for the camera, so the page looks like the table."""
from __future__ import annotations

from flask import Blueprint, render_template

from .payload import check_token_wait, seat_of, service, wrong_token

views = Blueprint("views", __name__)


def _page(seat: int | None = None, token: str | None = None):
    snap = service().snapshot(viewer=seat)
    initial = {"snapshot": snap, "status": service().status(), "colours": service().config.camera.colours,
               "seat": seat, "token": token}
    return render_template("index.html", snap=snap, initial=initial, seat=seat)


@views.get("/")
def index():
    return _page()


@views.get("/seat/<token>")
def seat_page(token: str):
    check_token_wait()  # a link is a token: guessing links is slowed like guessing tokens
    seat = seat_of(token, service().snapshot())
    if seat is None:
        wrong_token("not a player link")
        return render_template("invalid_link.html"), 404
    return _page(seat, token)


@views.get("/calibrate")
def calibrate():
    return render_template("calibrate.html")
