"""Issue 21 #4, #5: the page's limits (web/limits.py): a body nested too deep is a 400 on
every POST route, and a fault behind a route is logged once a minute, never with a
token. The server's connection limits: tests/web/test_connections.py."""
from __future__ import annotations

import logging

from support import admin
from web import create_app, limits
from web.hall import create_hall_app


def post_routes(app) -> list[str]:
    return sorted(r.rule for r in app.url_map.iter_rules() if "POST" in r.methods)


def test_deeply_nested_json_is_a_400_naming_the_depth_on_every_post_route(service, caplog):
    """30,000 nested `[` was a 500 with a RecursionError and a 1.4 KB traceback in the log
    on every POST route, without a token."""
    caplog.set_level(logging.INFO)
    apps = {"page": create_app(service), "hall": create_hall_app(object(), "sesame-sesame-sesame")}
    for name, app in apps.items():
        client = app.test_client()
        routes = post_routes(app)
        assert routes, name
        for route in routes:
            reply = client.post(route, data="[" * 30_000 + "]" * 30_000, content_type="application/json",
                                headers=admin(service))
            assert reply.status_code == 400, (route, reply.status_code)
            assert "nests lists and objects more than 32 levels deep" in reply.get_json()["error"], route
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_a_fault_behind_a_route_is_logged_once_a_minute_and_never_with_a_token(service, caplog, monkeypatch):
    """Log lines are what a stranger can grow too: one traceback a minute per kind,
    the next saying how many were held back; a link's token never in the log."""
    clock = [1000.0]
    monkeypatch.setattr(limits.LOG_THROTTLE, "clock", lambda: clock[0])
    monkeypatch.setattr(limits.LOG_THROTTLE, "_table", limits._Table())
    app = create_app(service)

    @app.get("/boom/<token>")
    def boom(token):
        raise RuntimeError("a fault behind the page")

    caplog.set_level(logging.INFO)
    client = app.test_client()
    secret = "s3cret-link-token"
    for _ in range(50):
        assert client.get(f"/boom/{secret}").status_code == 500
    errors = [r for r in caplog.records if r.name == "referee.web" and r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info
    assert errors[0].getMessage() == "web: GET /boom/<token> failed"
    clock[0] += 61
    client.get(f"/boom/{secret}")
    errors = [r for r in caplog.records if r.name == "referee.web" and r.levelno >= logging.ERROR]
    assert len(errors) == 2 and "(49 more like it in the last 60 s were not logged)" in errors[1].getMessage()
    assert secret not in caplog.text
