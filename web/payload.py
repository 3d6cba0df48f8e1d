"""Reading request bodies and tokens for the JSON API.

Every malformed request gets a 400 whose message names the field and what was expected,
and every wrong token a 403: a phone with a typo must learn what to fix, and nothing a
client sends may end in a traceback. Bodies may be JSON objects or HTML form fields, so
the controls also work from a plain form without JavaScript.
"""
from __future__ import annotations

import hashlib
import hmac
import math

from flask import after_this_request, current_app, request

from controller.bounded_json import JsonError, loads
from controller.i18n import N_, Said

from .limits import MAX_TYPED


class ApiError(Said):
    """A refusal: its HTTP status, and its words (`{"error": ...}`) in the language of the
    page that asked (web/language.py): a message marked `N_` with its values is looked up
    in the catalogue; one only a program ever gets (a body that is not JSON, a field of
    the wrong type: the page never sends them) is English, as given."""

    def __init__(self, status: int, message: str, headers: dict | None = None, **params):
        super().__init__(message, **params)
        self.status = status
        self.headers = headers or {}


def service():
    return current_app.extensions["referee_service"]


def body() -> dict:
    """The request's fields: form fields, or else a JSON object (an empty body is {})."""
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return request.form.to_dict()
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:  # bounded: 30,000 nested [ was a RecursionError, a 500 and a traceback each time
        data = loads(raw, "the request body", current_app.config["MAX_CONTENT_LENGTH"])
    except JsonError as exc:
        raise ApiError(400, str(exc)) from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the request body must be a JSON object, not {_kind(data)}")
    return data


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    return {int: "a number", float: "a number", str: "a string", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def text_field(data: dict, name: str, required: bool = True) -> str | None:
    value = data.get(name)
    if value is None or value == "":
        if required:
            raise ApiError(400, N_("field '{name}' is required"), name=name)
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"field '{name}' must be a string, not {_kind(value)}")
    if len(value) > MAX_TYPED:
        raise ApiError(400, N_("field '{name}' is {n} characters long; at most {most}"), name=name, n=len(value),
                       most=MAX_TYPED)
    if required and not value.strip():
        raise ApiError(400, N_("field '{name}' must not be blank"), name=name)
    return value.strip()


def int_field(data: dict, name: str, required: bool = True) -> int | None:
    value = data.get(name)
    if value is None or value == "":
        if required:
            raise ApiError(400, N_("field '{name}' is required"), name=name)
        return None
    if isinstance(value, str):
        try:
            return int(value.strip(), 10)
        except ValueError:
            raise ApiError(400, N_("field '{name}' must be a whole number, not {value!r}"), name=name,
                           value=value) from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"field '{name}' must be a whole number, not {_kind(value)}")
    return value


def points_field(data: dict, name: str = "points") -> list[list[float]]:
    """Four [x, y] points: a JSON list of pairs, or a form's text "x,y x,y x,y x,y"."""
    value = data.get(name)
    if value is None or value == "":
        raise ApiError(400, f"field '{name}' is required: four [x, y] points")
    if isinstance(value, str):
        try:
            value = [[float(v) for v in p.split(",")] for p in value.split()]
        except ValueError:
            raise ApiError(400, f"field '{name}' must read \"x,y x,y x,y x,y\"") from None
    if not isinstance(value, list) or len(value) != 4:
        raise ApiError(400, f"field '{name}' must be a list of four [x, y] points")
    points = []
    for i, p in enumerate(value):
        if (not isinstance(p, list) or len(p) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in p)):
            raise ApiError(400, f"field '{name}' point {i + 1} must be [x, y] with two numbers, got {p!r}")
        points.append([float(p[0]), float(p[1])])
    return points


def page_status() -> dict:
    """The service's status for the page, with whether the camera has a picture of the
    board to show (`picture`)."""
    return {**service().status(), "picture": current_app.extensions["referee_camera"].ready()}


# --- tokens ----------------------------------------------------------------------------
def given_token(data=None) -> str | None:
    """The token from `Authorization: Bearer <token>`, else the `token` field of `data`
    (a body, or the query string where a link carries it)."""
    header = request.headers.get("Authorization", "")
    token = None
    if header.lower().startswith("bearer "):
        token = header[7:].strip() or None
    elif data is not None and isinstance(data.get("token"), str):
        token = data["token"] or None
    if token is not None:
        check_token_wait(token)
    return token


def check_token_wait(token: str) -> None:
    """429 while this address must wait after too many wrong tokens, unless this browser
    has used this very token before (web/limits.py)."""
    tokens = current_app.extensions["referee_limits"]["tokens"]
    if tokens.marked(token, request.cookies.get(tokens.COOKIE)):
        return
    wait = tokens.wait_s(request.remote_addr)
    if wait > 0:
        raise ApiError(429, N_("too many wrong tokens from {address}: wait {seconds} s"),
                       {"Retry-After": str(math.ceil(wait))}, address=request.remote_addr, seconds=math.ceil(wait))


def wrong_token(message: str, **params) -> ApiError:
    """The 403 for a wrong token, counted against the address that sent it."""
    current_app.extensions["referee_limits"]["tokens"].missed(request.remote_addr)
    return ApiError(403, message, **params)


def token_is(token: str | None, expected: str | None) -> bool:
    """Whether `token` is `expected` (in constant time). When it is, the answer carries
    the browser's mark of it, so another's wrong guesses from its address do not hold it
    up (web/limits.py)."""
    if not (token and expected and hmac.compare_digest(token.encode(), expected.encode())):
        return False
    tokens = current_app.extensions["referee_limits"]["tokens"]
    mark = tokens.mark(token)
    if request.cookies.get(tokens.COOKIE) != mark:
        @after_this_request
        def remember(response):
            response.set_cookie(tokens.COOKIE, mark, max_age=12 * 3600, httponly=True, samesite="Strict")
            return response
    return True


def player_token(admin_token: str, seat: int) -> str:
    """A per-seat token for phone links, derived from the admin token: a link lasts the
    evening (every game until the service restarts with a new admin token)."""
    msg = f"seat:{seat}".encode()
    return hmac.new(admin_token.encode(), msg, hashlib.sha256).hexdigest()[:16]


def is_admin(token: str | None) -> bool:
    return token_is(token, service().admin_token)


def seat_of(token: str | None, snapshot: dict) -> int | None:
    """The seat whose player token this is in the current game, if any."""
    if not token:
        return None
    for seat in range(len(snapshot.get("seats") or [])):
        if token_is(token, player_token(service().admin_token, seat)):
            return seat
    return None


def require_admin(data: dict | None = None) -> None:
    token = given_token(data)
    if token is None:
        raise ApiError(403, N_("this needs the admin token (Authorization: Bearer <token> or field 'token')"))
    if not is_admin(token):
        raise wrong_token(N_("wrong admin token"))
