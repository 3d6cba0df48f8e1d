"""The hall page: every table of a club or tournament on one screen (`referee hall`).

The same Flask web package as a table's status page, in hall mode: the app serves the
hall's overview (a card per table, the alarm list), one table opened in full, the
hall's event stream, and a round's export. It only reads the hall's journal and bus;
the one thing it changes, marking the start of a round, needs the hall's admin token.
Each table card is drawn by the game's page drawing (static/draw/<game>.js) when there
is one, else as text.
"""
from __future__ import annotations

import hmac
import json
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template

from . import answer_errors
from .payload import ApiError, body, given_token, int_field
from .stream import Streams, stream_response

hall = Blueprint("hall", __name__)

DRAWINGS = Path(__file__).parent / "static" / "draw"


def _hall():
    return current_app.extensions["referee_hall"]


def _require_admin(data=None) -> None:
    token = given_token(data)
    if token is None:
        raise ApiError(403, "this needs the hall's admin token (Authorization: Bearer <token> or field 'token')")
    if not hmac.compare_digest(token.encode(), current_app.config["HALL_TOKEN"].encode()):
        raise ApiError(403, "wrong admin token")


@hall.get("/")
def page():
    drawings = sorted(p.name for p in DRAWINGS.glob("*.js")) if DRAWINGS.is_dir() else []
    return render_template("hall.html", initial=_hall().overview(), drawings=drawings)


@hall.get("/api/hall")
def overview():
    return jsonify(_hall().overview())


@hall.get("/api/hall/tables/<name>")
def table(name: str):
    """One table in full: its state and the events of its current game."""
    found = next((t for t in _hall().store.tables() if t["table"] == name), None)
    if found is None:
        raise ApiError(404, f"no table {name!r} in this hall")
    game_id = (found["state"] or {}).get("game_id")
    events = _hall().store.events(name, game_id) if game_id is not None else []
    return jsonify({**found, "events": events})


@hall.post("/api/hall/round")
def mark_round():
    data = body()
    _require_admin(data)
    number = int_field(data, "round")
    if number < 1:
        raise ApiError(400, f"field 'round' is {number}; expected 1 or more")
    _hall().store.mark_round(number)
    return jsonify({"ok": True, "rounds": _hall().store.rounds()})


@hall.get("/api/hall/export/round-<int:number>.<kind>")
def export(number: int, kind: str):
    from controller.hall.export import export_round

    if kind not in ("pgn", "json"):
        raise ApiError(404, "a round exports as .pgn (chess) or .json (the other games)")
    try:
        pgn, others, _problems = export_round(_hall().store, number)
    except KeyError as exc:
        raise ApiError(404, exc.args[0]) from None
    text, mimetype = (pgn, "application/x-chess-pgn") if kind == "pgn" else (json.dumps(others, indent=1),
                                                                              "application/json")
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="round-{number}.{kind}"'})


@hall.get("/hall/events")
def events():
    return stream_response(_hall().bus, "start the hall with more threads")


def create_hall_app(the_hall, admin_token: str, threads: int = 8, heartbeat_s: float = 15.0) -> Flask:
    app = Flask(__name__)
    app.config.update(HALL_TOKEN=admin_token, HEARTBEAT_S=heartbeat_s, MAX_CONTENT_LENGTH=64 * 1024)
    app.extensions["referee_hall"] = the_hall
    app.extensions["referee_streams"] = Streams(max(1, threads - 2))
    app.register_blueprint(hall)

    answer_errors(app, ("/api/", "/hall/"))
    return app
