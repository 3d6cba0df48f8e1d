"""The treasure enrolment view: naming the pictures of one copy of Labyrinth, once.

Every copy prints its own 24 treasure pictures, so the referee cannot know them in
advance. When a game starts from the table (controller/table_start.py) and the copy's
catalogue cannot name a picture, the game waits; this view shows each such picture (cut
from the camera's view of its tile) with the cell it lies on, and the admin
picks its name from the 24. The names go into the catalogue beside the journal, and the
game starts as soon as every picture on the board has a name.

- GET /enrol: the page (static/enrol.js keeps it current from the event stream);
- GET /api/enrol: `{state, message, pictures: [{id, cell, png}], names, known}`, where
  `png` is a data URL and `id` the cell name; anyone may look (it shows the table);
- POST /api/enrol `{names: {picture id: treasure name}}`: admin only.
"""
from __future__ import annotations

import base64

import cv2
from flask import Blueprint, jsonify, render_template

from controller.events import Enrol
from controller.games.words import printed
from controller.i18n import N_
from controller.table_start import SHOWN_PX

from .payload import ApiError, _kind, body, require_admin, service

enrol = Blueprint("enrol", __name__)


def _png(picture) -> str:
    side = max(picture.shape[:2])
    if side < SHOWN_PX:  # a small crop of the reader's plane: enlarged for a person
        picture = cv2.resize(picture, (SHOWN_PX, SHOWN_PX), interpolation=cv2.INTER_CUBIC)
    ok, buf = cv2.imencode(".png", picture)
    return "data:image/png;base64," + base64.b64encode(buf.tobytes()).decode() if ok else ""


def enrolment() -> dict:
    """The view, with each treasure's name as printed (`printed`: "KoopaTroopa" is shown
    as "Koopa Troopa"; the catalogue keeps its own spelling)."""
    view = service().enrolment.public()
    return {**view, "pictures": [{"id": cell, "cell": cell, "png": _png(pic)}
                                 for cell, pic in sorted(view["pictures"].items())],
            "printed": {name: printed(name) for name in [*view["names"], *view["known"]]}}


@enrol.get("/enrol")
def page():
    return render_template("enrol.html", enrolment=enrolment())


@enrol.get("/api/enrol")
def pictures():
    return jsonify(enrolment())


def names_field(data: dict) -> dict[str, str]:
    value = data.get("names")
    if value is None:
        raise ApiError(400, "field 'names' is required: {picture id: treasure name}")
    if not isinstance(value, dict):
        raise ApiError(400, f"field 'names' must be an object {{picture id: treasure name}}, not {_kind(value)}")
    if not value:
        raise ApiError(400, N_("field 'names' is empty: name at least one picture"))
    for pid, name in value.items():
        if not isinstance(name, str):
            raise ApiError(400, f"field 'names' {pid}: the name must be a string, not {_kind(name)}")
        if not name.strip():
            raise ApiError(400, N_("field 'names' {picture}: the name is blank"), picture=pid)
    names = {pid.strip(): name.strip() for pid, name in value.items()}
    try:
        service().enrolment.check(names)
    except ValueError as exc:
        if not service().enrolment.active:  # well formed, but nothing waits: the referee's answer
            raise ApiError(422, str(exc)) from None
        raise ApiError(400, f"field 'names': {exc}") from None
    return names


@enrol.post("/api/enrol")
def name_pictures():
    data = body()
    require_admin(data)
    result = service().submit(Enrol(names_field(data)))
    return jsonify(result.to_json()), 200 if result.ok else 422
