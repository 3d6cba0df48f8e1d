"""The status page: a Flask app over a running referee service.

The page only reads the referee's snapshot and the event bus, and changes the game only
through `service.submit`, the same command path the CLI and the devices use. Blueprints:
`views` (the HTML pages), `api` (JSON and downloads), `stream` (Server-Sent Events).
"""
from __future__ import annotations

import logging

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from controller.i18n import translator

from .api import api
from .camera import CameraShots
from .enrol import enrol
from .language import install, page_language
from .limits import Pace, WrongTokens, security_headers, throttle_logs
from .payload import ApiError
from .stream import Streams, stream
from .views import views

log = logging.getLogger("referee.web")

# Seconds between comment lines on an idle event stream, so that proxies and phones keep
# it open and a client that went away is noticed (and its thread freed) this soon.
HEARTBEAT_S = 15.0


def create_app(service) -> Flask:
    """The page's app over `service`. `close_streams(app)` before stopping the server
    ends the open event streams, so no worker thread is left writing to a closed server."""
    app = Flask(__name__)
    app.config["HEARTBEAT_S"] = HEARTBEAT_S
    app.config["MAX_CONTENT_LENGTH"] = 64 * 1024  # no request is anywhere near this
    app.extensions["referee_service"] = service
    app.extensions["referee_camera"] = CameraShots(service)
    # two of the server's threads stay free for the page's requests and players' moves
    app.extensions["referee_streams"] = Streams(max(1, service.config.web.threads - 2))

    install(app, service.config.table.language)  # a browser's own choice comes first (web/language.py)
    app.register_blueprint(views)
    app.register_blueprint(api, url_prefix="/api")
    app.register_blueprint(stream)
    app.register_blueprint(enrol)
    guard(app, ("/api/", "/events"))
    return app


def guard(app: Flask, json_paths: tuple[str, ...]) -> None:
    """What every app of ours facing the network has (the status page's and the hall's):
    security headers, wrong tokens slowed and typed moves paced (web/limits.py), and
    errors as JSON under `json_paths` (the API, the stream), the plain page for a
    person's browser elsewhere; never a traceback."""
    app.extensions["referee_limits"] = {"pace": Pace(), "tokens": WrongTokens()}
    app.after_request(security_headers)
    throttle_logs()

    @app.errorhandler(ApiError)
    def api_error(exc: ApiError):  # in the words of the page that asked (web/language.py)
        return jsonify({"error": exc.said(translator(page_language()))}), exc.status, exc.headers

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if request.path.startswith(json_paths):
            return jsonify({"error": f"{exc.name}: {exc.description}"}), exc.code
        return exc

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        # A fault behind the page must not show a traceback to a player; it is logged,
        # throttled (LogThrottle), under the route's pattern: a player's link is a token,
        # and a token never goes to the log
        route = request.url_rule.rule if request.url_rule else "an unknown path"
        log.exception("web: %s %s failed", request.method, route)
        return jsonify({"error": f"internal error: {type(exc).__name__}: {exc}"}), 500


def close_streams(app: Flask, timeout: float = 2.0) -> bool:
    """End the app's open event streams (waiting up to `timeout`); True if all ended."""
    return app.extensions["referee_streams"].close_all(timeout)
