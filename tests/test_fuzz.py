"""Fuzzing in the suite (issue 13, issue 21): every notation parser (through the referee,
as a typed line), the config loader, the corners, the serial frame decoders at both ends
of the die link, the hall's MQTT messages at both ends (events, states and online flags
into the hall; resend requests into a table), every game's setup and settings, nested
JSON, and the JSON API. Seeded (derandomize) and bounded so it stays a few seconds;
bench/fuzz.py runs the same targets for longer. The targets and their properties are in
tests/fuzz_targets.py."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzz_targets as T
from web.payload import player_token

SUITE = settings(max_examples=100, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("target", ["notation", "config", "corners", "serial_frames", "hall_messages",
                                    "resend_requests", "game_inputs", "nested_json"])
def test_bad_input_gets_a_clear_message_never_a_crash(target):
    strategy, check = getattr(T, target)
    given(strategy)(SUITE(check))()


# --- the JSON API -------------------------------------------------------------------------
PATHS = ["/api/state", "/api/status", "/api/catalogue", "/api/move", "/api/new-game", "/api/undo",
         "/api/corners", "/api/player-links", "/api/frame.jpg", "/api/games", "/api/games/1/export.json",
         "/api/games/1/export.pgn", "/api/games/99/export.json", "/api/enrol", "/enrol", "/", "/calibrate",
         "/seat/x", "/api/state?seat=1&token=x", "/api/state?seat=-9", "/api/nothing"]
json_value = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=30)),
                          lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                  st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                          max_leaves=12)
field_names = st.sampled_from(["text", "game", "variant", "points", "seat", "token", "names", "x"])
request = st.tuples(
    st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
    st.sampled_from(PATHS),
    st.one_of(st.dictionaries(field_names, json_value, max_size=4), json_value,
              st.binary(max_size=60), T.deep.map(str.encode)),
    st.sampled_from(["none", "admin", "player", "wrong"]),
)


def test_the_json_api_answers_every_request_without_a_5xx(tmp_path):
    from support import running_service
    from web import create_app

    with running_service(tmp_path / "data") as service:
        app = create_app(service)
        app.extensions["referee_limits"]["pace"].per_s = 1e9  # fuzzing is not a flood
        client = app.test_client()
        tokens = {"none": None, "admin": service.admin_token, "player": player_token(service.admin_token, 0), "wrong": "w" * 16}

        @SUITE
        @given(request)
        def check(req):
            method, path, body, who = req
            headers = {"Authorization": f"Bearer {tokens[who]}"} if tokens[who] else {}
            client.environ_base["REMOTE_ADDR"] = f"10.{len(path)}.{hash(who) % 250}.{len(str(body)) % 250}"
            kw = {"data": body} if isinstance(body, bytes) else {"json": body}
            reply = client.open(path, method=method, headers=headers, **kw)
            assert reply.status_code < 500, (reply.status_code, reply.get_data(as_text=True)[:300])
            if reply.status_code >= 400 and path.startswith("/api/"):
                T._clear(reply.get_json()["error"])

        check()
