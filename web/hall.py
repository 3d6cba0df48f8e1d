"""The hall page: every table of a club or tournament on one screen (`referee hall`).

The same Flask web package as a table's status page, in hall mode: the app serves the
hall's overview (a card per table, the alarm list), one table opened in full, the
hall's event stream, and a round's export. It only reads the hall's journal and bus;
the one thing it changes, marking the start of a round, needs the hall's admin token.
Each table card is drawn by the game's page drawing (static/draw/<game>.js) when there
is one, else as text.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from controller.cli import failed, words
from controller.i18n import N_
from controller.registry import ENTRIES, FORMATS

from . import guard
from .addresses import listening_line
from .language import install
from .payload import ApiError, body, given_token, int_field, token_is, wrong_token
from .stream import Streams, stream_response
from .views import DRAWINGS

hall = Blueprint("hall", __name__)



def _hall():
    return current_app.extensions["referee_hall"]


def _require_admin(data=None) -> None:
    token = given_token(data)
    if token is None:
        raise ApiError(403, N_("this needs the hall's admin token (Authorization: Bearer <token> or field 'token')"))
    if not token_is(token, current_app.config["HALL_TOKEN"]):
        raise wrong_token(N_("wrong admin token"))


@hall.get("/")
def page():
    return render_template("hall.html", initial={**_hall().overview(), "formats": FORMATS}, drawings=DRAWINGS)


@hall.get("/api/hall")
def overview():
    return jsonify(_hall().overview())


@hall.get("/api/hall/tables/<name>")
def table(name: str):
    """One table in full: its state and the events of its current game."""
    found = next((t for t in _hall().store.tables() if t["table"] == name), None)
    if found is None:
        raise ApiError(404, f"no table {name!r} in this hall")
    state = found["state"] or {}
    game_id = state.get("game_id")
    events = _hall().store.events(name, game_id) if game_id is not None else []
    # the plies that stand, folded from the hall's own journal (controller/record.py), then
    # those the table shows as not yet sure
    record = _hall().store.record(name, game_id).to_json(state.get("seats") or []) if game_id is not None else []
    record += [p for p in state.get("record") or () if isinstance(p, dict) and p.get("unsure")]
    return jsonify({**found, "events": events, "record": record})


@hall.get("/tables/<name>/api/layout")
def layout(name: str):
    """A table's static board layout for its drawing (the game's `layout()`), from the
    rules of the game it started (the drawings fetch it from `opts.base` + /api/layout)."""
    from controller.games import load_game

    game_id = int_field(request.args, "game_id")
    started = _hall().store.record(name, game_id)
    if started.game is None:
        raise ApiError(404, f"no game {game_id} of table {name!r} in this hall")
    try:
        game = load_game(started.game, started.variant or None, started.settings)
    except Exception as exc:  # a game this version does not know: the card falls back to text
        raise ApiError(404, f"table {name!r} game {game_id}: {exc}") from None
    return jsonify({"game": game.name, **game.layout()})


@hall.get("/api/hall/admin")
def admin():
    """200 for the admin token: the page asks before it shows the organiser's controls."""
    _require_admin()
    return jsonify({"ok": True})


@hall.post("/api/hall/round")
def mark_round():
    data = body()
    _require_admin(data)
    number = int_field(data, "round")
    if number < 1:
        raise ApiError(400, N_("field 'round' is {number}; expected 1 or more"), number=number)
    _hall().store.mark_round(number)
    return jsonify({"ok": True, "rounds": _hall().store.rounds()})


@hall.get("/api/hall/export/round-<int:number>.<kind>")
def export(number: int, kind: str):
    from controller.hall.export import export_round

    if kind not in FORMATS:
        raise ApiError(404, f"a round exports as {', '.join('.' + f for f in FORMATS)}")
    try:
        texts, others, _problems = export_round(_hall().store, number)
    except KeyError as exc:
        raise ApiError(404, exc.args[0]) from None
    if kind == "json":  # the games of the kinds with no format of their own
        text, mimetype = json.dumps(others, indent=1), "application/json"
    else:
        text = texts[kind]
        mimetype = next(x.mimetype for e in ENTRIES.values() for x in e.exports if x.fmt == kind)
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
    install(app)  # each browser's language (web/language.py)

    guard(app, ("/api/", "/hall/"))
    return app


def cmd_hall(args) -> int:
    """`referee hall`: serve the hall page; `round N` and `export` work on its journal alone."""
    from controller.config import MIN_TOKEN
    from controller.hall.cli import export, mark_round

    if args.action == "round":
        return mark_round(args)
    if args.action == "export":
        return export(args)
    _ = words(args)
    if not args.broker:
        return failed(args, _("--broker HOST is needed to serve the hall"))
    if args.token is not None and len(args.token) < MIN_TOKEN:
        return failed(args, _("--token is {n} characters; at least {least} (a short token is soon guessed; leave "
                              "it out for a random one)", n=len(args.token), least=MIN_TOKEN))
    return serve_hall(args)


def serve_hall(args) -> int:
    """The hall's MQTT client and its page under waitress, until Ctrl-C or SIGTERM."""
    from controller.hall.receiver import Hall

    from .server import ServeError, open_server, run_server

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    # the broker keeps the hall's session (what arrives while it restarts) under this id: the
    # same for the same data folder, another for a second hall beside it
    client_id = "referee-hall-" + hashlib.sha1(str(Path(args.data).resolve()).encode()).hexdigest()[:8]
    hall = Hall(args.data, args.broker, args.port, username=args.username, client_id=client_id,
                password=os.environ.get("REFEREE_HALL_PASSWORD", ""), tls=args.tls, ca_file=args.ca_file).start()
    token = args.token or secrets.token_urlsafe(12)
    app = create_hall_app(hall, token)
    try:
        server = open_server(app, args.host, args.http_port, 8)
    except ServeError as exc:
        hall.close()
        failed(args, exc)
        return 1
    # the token is typed on the page, never put in a URL (history, the system log), and
    # printed only when it was generated: a given one is known already
    _ = words(args)
    shown = "" if args.token else "  " + _("(admin token: {token})", token=token)
    print(listening_line(_("hall page"), args.host, server.effective_port, _) + shown, flush=True)
    try:
        run_server(server, app)
    finally:
        hall.close()
    return 0
