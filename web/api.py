"""The JSON API: the snapshot, the commands (moves, new game, undo, set position, corners), the camera
frame for calibration and the game records for download.

Reading the game needs no token; a seat's hidden information needs that seat's player
token; commands need the admin token, except a move, which the player whose turn it is
may also make with their own token (the per-player phone links).
"""
from __future__ import annotations

import json
import logging

from flask import Blueprint, Response, current_app, jsonify, request

from controller.events import Corners, Enter, Event, Kind, NewGame, SetPosition, Undo
from controller.games import GAMES, game_class
from controller.i18n import N_, translator
from controller.registry import ENTRIES
from controller.table import Result

from .language import page_language
from .payload import (ApiError, body, given_token, int_field, is_admin, page_status, player_token,
                      points_field, require_admin, seat_of, service, text_field, wrong_token)

api = Blueprint("api", __name__)
log = logging.getLogger("referee.web")


def _result(result):
    """A command's result (controller/table.py's Result): 200 when the referee accepted
    it, 422 (with the referee's reason in `error`) when the game refused it."""
    return jsonify(result.to_json()), 200 if result.ok else 422


@api.get("/state")
def state():
    if "seat" not in request.args and "token" not in request.args:
        return jsonify(service().snapshot())
    seat = int_field(request.args, "seat")
    public = service().snapshot()
    seats = public.get("seats") or []
    if not 0 <= seat < len(seats):  # a link of an earlier game with more players: the page drops it on a 403
        if seats:
            raise ApiError(403, N_("seat {seat} is not in this game (seats 0-{last})"), seat=seat, last=len(seats) - 1)
        raise ApiError(403, N_("seat {seat}: no game is running"), seat=seat)
    if seat_of(given_token(request.args), public) != seat:
        raise wrong_token(N_("wrong player token for seat {seat}"), seat=seat)
    return jsonify(service().snapshot(viewer=seat))


@api.get("/status")
def status():
    return jsonify(page_status())


@api.get("/catalogue")
def catalogue():
    """The games this version can start, with their variants (for the new-game form)."""
    out = []
    for name in GAMES:
        try:
            cls = game_class(name)
        except Exception as exc:  # one broken game module must not hide the others
            log.warning("web: game %s cannot be offered: %s", name, exc)
            continue
        out.append({"game": name, "title": cls.title, "variants": list(cls.variants), "clock": _takes_clock(cls)})
    return jsonify(out)


def _takes_clock(cls) -> bool:
    """Does the game run a clock (a "clock" setting its rules accept)?"""
    try:
        cls(None, {"clock": "5+0"})
    except ValueError:
        return False
    return True


@api.post("/move")
def move():
    data = body()
    text = text_field(data, "text")
    at = int_field(data, "position", required=False)  # a tap names the position it answers
    token = given_token(data)
    if is_admin(token):
        seat = int_field(data, "seat", required=False)
        _pace("admin")
        return _result(service().submit(Enter(text, seat=seat, at=at)))
    if token is None:
        raise ApiError(403, N_("a move needs the admin token or the player token of the seat to move"))
    seat = seat_of(token, service().snapshot())
    if seat is None:
        raise wrong_token(N_("wrong token: neither the admin token nor a player token of this game"))
    _pace(seat)
    # the referee decides who may act: usually the seat to move, but a hazard card or an
    # auction bid comes from another player (Game.actor)
    return _result(service().submit(Enter(text, seat=seat, at=at)))


def _pace(who) -> None:
    """429 for a seat (or the admin) typing faster than anyone plays (web/limits.py)."""
    if not current_app.extensions["referee_limits"]["pace"].allow(who):
        _ = _page()  # a phone's answer, in its page's language
        name = _("the admin") if who == "admin" else _("seat {n}", n=who)
        raise ApiError(429, _("{who} is sending moves too fast: wait a second", who=name), {"Retry-After": "1"})


def _page():
    """The translator of the page that asks (a phone's own language: web/language.py)."""
    return translator(page_language())


@api.post("/new-game")
def new_game():
    data = body()
    require_admin(data)
    game = text_field(data, "game")
    if game not in GAMES:
        raise ApiError(400, N_("field 'game' is {game!r}; expected one of {games}"), game=game, games=", ".join(GAMES))
    variant = text_field(data, "variant", required=False)
    variants = list(game_class(game).variants)
    if variant is not None and variant not in variants:  # said here, not as a fault in the referee
        _ = _page()
        return _result(Result.refused(_("field 'variant' is {variant!r}; {game} has {variants}", variant=variant,
                                        game=game, variants=", ".join(variants))))
    clock = text_field(data, "clock", required=False)
    if clock is not None and clock.lower() in ("off", "none"):
        clock = ""  # a game without a clock
    players = data.get("players")  # the names by seat: a list, or one text with commas
    if players is not None and not isinstance(players, (list, str)):  # how many: the table checks (players.py)
        raise ApiError(400, N_("field 'players' must be a list of names or one text of names separated by commas"))
    if isinstance(players, str):
        players = players.split(",") if players.strip() else None
    return _result(service().submit(NewGame(game, variant, clock=clock, players=tuple(players) if players else None)))


@api.post("/say-again")
def say_again():
    """The page's "Say again": the voice repeats its last announcement (anyone at the
    table may ask; it changes nothing in the game)."""
    body()  # nothing is read from it, but a malformed one is said so, as on every POST
    service().bus.publish(Event(Kind.REPEAT, {"by": "page"}))
    return jsonify({"ok": True, "error": None, "event": None})


@api.post("/undo")
def undo():
    data = body()
    require_admin(data)
    return _result(service().submit(Undo(at=int_field(data, "position", required=False))))


@api.post("/position")
def set_position():
    """The admin accepts the board as it stands (after an illegal move the players
    played on from): {"setup": the position in the game's own terms (chess: {"fen": ...})}."""
    data = body()
    require_admin(data)
    setup = data.get("setup")
    if not isinstance(setup, dict):
        raise ApiError(400, "field 'setup' is required: the position as a JSON object (chess: {\"fen\": ...})")
    return _result(service().submit(SetPosition(setup)))


@api.post("/corners")
def corners():
    data = body()
    require_admin(data)
    return _result(service().submit(Corners(points_field(data))))


@api.get("/player-links")
def player_links():
    """Each seat's phone link, good for the evening (every game until the service
    restarts), with its QR code as SVG (admin only: the links are the keys)."""
    import segno

    require_admin()
    snap = service().snapshot()
    root = request.host_url.rstrip("/")
    out = []
    for i, name in enumerate(snap.get("seats") or []):
        url = f"{root}/seat/{player_token(service().admin_token, i)}"
        qr = segno.make(url, error="m").svg_inline(scale=3, border=2, omitsize=True)
        out.append({"seat": i, "name": name, "url": url, "qr_svg": qr})
    return jsonify(out)


@api.get("/layout")
def layout():
    """The running game's static board layout for the page's drawing (its `layout()`)."""
    return jsonify(service().layout())


@api.get("/moves")
def moves():
    """The current game's plies that stand, each with its notation, its words, its seat
    and its time (the referee's record, controller/record.py; public: what the table
    shows). The snapshot's `record` holds the same, then the plies not yet sure."""
    return jsonify([ply for ply in service().snapshot().get("record") or () if not ply["unsure"]])


@api.get("/camera.jpg")
def camera_picture():
    """What the camera sees of the board (not of the room), small, for every viewer: the
    latest frame with the board's outline and what was read, or (?which=alarm or doubt)
    the frame of the standing camera alarm or doubt, with its cells boxed."""
    shots = current_app.extensions["referee_camera"]
    jpeg = shots.jpeg(request.args.get("which", "live"))
    if jpeg is None:
        raise ApiError(404, shots.missing())
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@api.get("/camera-caption")
def camera_caption():
    """The words of /api/camera.jpg's picture (the same `which`), for the page to lay over
    it as text a phone can read."""
    shots = current_app.extensions["referee_camera"]
    return jsonify({"caption": shots.caption(request.args.get("which", "live"))})


@api.get("/frame.jpg")
def frame():
    """The camera's latest frame for the calibration view (admin only: it shows the room)."""
    require_admin()
    jpeg = current_app.extensions["referee_camera"].whole_frame()
    if jpeg is None:
        raise ApiError(404, N_("no camera frame yet (is the camera on?)"))
    return Response(jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@api.get("/games")
def games():
    """The journal's games, each with the formats it downloads in besides JSON."""
    return jsonify([{**g, "exports": [x.fmt for x in ENTRIES[g["game"]].exports] if g["game"] in ENTRIES else []}
                    for g in service().journal.games()])


def _game(game_id: int) -> dict:
    info = next((g for g in service().journal.games() if g["id"] == game_id), None)
    if info is None:
        raise ApiError(404, N_("no game {id} in the journal"), id=game_id)
    return info


def _download(text: str, mimetype: str, filename: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@api.get("/games/<int:game_id>/export.json")
def export_json(game_id: int):
    if _game(game_id)["ended"] is None:
        # the record holds the whole setup (secret targets, deck order) until the game ends
        require_admin()
    record = service().journal.export(game_id)
    return _download(json.dumps(record, indent=1), "application/json", f"game-{game_id}.json")


@api.get("/games/<int:game_id>/export.<fmt>")
def export_as(game_id: int, fmt: str):
    """A game in a format of its own kind (PGN for chess: the registry's exports)."""
    info = _game(game_id)
    export = ENTRIES[info["game"]].export(fmt) if info["game"] in ENTRIES else None
    if export is None:
        raise ApiError(404, N_("game {id} is {game}; it is not written as {format}"), id=game_id, game=info["game"],
                       format=fmt.upper())
    try:
        text = export.write(service().journal, game_id)
    except ValueError as exc:  # a record this version cannot replay
        raise ApiError(422, N_("game {id} cannot be written as {format}: {error}"), id=game_id, format=fmt.upper(),
                       error=exc) from None
    return _download(text, export.mimetype, f"game-{game_id}.{fmt}")
