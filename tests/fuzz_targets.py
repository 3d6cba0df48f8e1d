"""What the fuzzers feed and what must hold, shared by tests/test_fuzz.py (a few hundred
seeded examples each, in the suite) and bench/fuzz.py (long runs).

Each target is (strategy, check): `check(example)` raises AssertionError when the
property fails; any other exception escaping is a crash. The property is the house rule:
bad input never crashes anything, and it gets a clear message (not empty, not a
traceback, naming what was wrong) and no 5xx.
"""
from __future__ import annotations

import atexit
import json
import random
import string
import tempfile
from types import SimpleNamespace

from hypothesis import strategies as st

from controller import bounded_json
from controller.config import ConfigError, parse
from controller.events import Bus
from controller.games import GAMES, load_game
from controller.journal import Journal
from controller.referee import Referee
from firmware import protocol
from vision.locate import CornersError, parse_corners

# --- text ------------------------------------------------------------------------------
# Moves are short words of letters, digits and a few signs: mix those with anything.
NOTATION_ALPHABET = string.ascii_letters + string.digits + " -+=#/:x,.!?()@\t\n\x00é♞"
notation_text = st.one_of(st.text(alphabet=NOTATION_ALPHABET, max_size=24), st.text(max_size=40))


def _clear(message: str) -> None:
    assert message and message.strip(), "an empty message"
    assert "Traceback" not in message, message


_referees: dict[str, Referee] = {}


def referee_for(game: str) -> Referee:
    """One referee per game, reused across examples (a fuzzed move that is legal simply
    moves the game on; a finished game is started again)."""
    r = _referees.get(game)
    if r is None or r.game.outcome(r.state) is not None:
        r = Referee(Journal(":memory:"), Bus())
        r.new_game(game, rng=random.Random(1))
        _referees[game] = r
    return r


def check_notation(game: str, text: str) -> None:
    """Any text typed for any game: a move, or an `illegal` event saying why."""
    event = referee_for(game).enter(text, source="fuzz")
    assert event.kind in ("move", "illegal", "game_over"), event
    if event.kind == "illegal":
        _clear(event.data["reason"])


notation = (st.tuples(st.sampled_from(sorted(GAMES)), notation_text), lambda x: check_notation(*x))


# --- config ----------------------------------------------------------------------------
SECTIONS = ["game", "camera", "gpio", "die_module", "data", "web", "nonsense"]
KEYS = ["name", "variant", "rulings", "source", "width", "height", "fps", "corners", "still_s", "colours",
        "factory", "buzzer", "led_busy", "die", "debounce_s", "port", "usb_id", "heartbeat_s",
        "missed_heartbeats", "folder", "host", "admin_token", "threads", "typo"]
toml_value = st.one_of(
    st.integers(-2**63, 2**63 - 1).map(str),
    st.sampled_from(["nan", "inf", "-inf", "1e308", "-0.0", "0", "65536", "true", "[]", "{}",
                     '["1,1", "1,1", "1,1", "1,1"]', '[[1, 2], "x"]', '"999.1.1.1"', '"#zzzzzz"']),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(max_size=20).map(lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"')
                             .encode("unicode_escape").decode("ascii").replace("\\\\\\\\", "\\\\") + '"'),
)
config_text = st.one_of(
    st.lists(st.tuples(st.sampled_from(SECTIONS), st.sampled_from(KEYS), toml_value), max_size=6).map(
        lambda items: "".join(f"[{s}]\n{k} = {v}\n" for s, k, v in items)),
    st.text(max_size=80),
)


def check_config(text: str) -> None:
    """Any referee.toml: a config, or one ConfigError naming the file."""
    try:
        parse(text, "/etc/referee.toml")
    except ConfigError as exc:
        message = str(exc)
        _clear(message)
        assert message.startswith("/etc/referee.toml: "), message
        assert "\n" not in message.split("(", 1)[0], message


config = (config_text, check_config)


# --- corners -----------------------------------------------------------------------------
coordinate = st.one_of(st.floats(), st.integers(-10**12, 10**12), st.sampled_from([0, 1, 1e308, -1e308]))
corners_value = st.one_of(
    st.lists(st.lists(coordinate, min_size=0, max_size=3), max_size=5),
    st.lists(st.tuples(coordinate, coordinate), min_size=4, max_size=4),
    st.text(alphabet="0123456789,. -e+naif", max_size=40),
    st.lists(st.text(alphabet="0123456789,.-e", max_size=12), max_size=5),
)


def check_corners(value) -> None:
    try:
        points = parse_corners(value, (1280, 720))
    except CornersError as exc:
        _clear(str(exc))
        assert "corners" in str(exc)
        return
    assert points.shape == (4, 2)
    assert ((points >= 0) & (points <= [1280, 720])).all()


corners = (corners_value, check_corners)


# --- serial frames ---------------------------------------------------------------------------
KINDS = [protocol.HELLO, protocol.INFO, protocol.HEARTBEAT, protocol.ACK, protocol.SHOW, protocol.TONE,
         protocol.PRESS, 0, 0xFF]  # MAINTENANCE "REPL" reboots the module: its own test
frame = st.tuples(st.sampled_from(KINDS), st.integers(0, 255), st.binary(max_size=protocol.MAX_BODY))
wire = st.lists(st.one_of(frame, st.binary(max_size=30)), max_size=20)


def check_wire(chunks) -> None:
    """Frames with a good CRC but any body, and noise, into both ends' receivers: the
    firmware module's (MicroPython's code, run here) and the host's parsers. Nothing
    raises; every bad frame is dropped and counted."""
    from die_firmware import boot, clean, hello

    clean()
    fw, io, _ = boot()
    hello(fw, io, 0)
    delivered = []
    host = protocol.Endpoint(lambda data: None, lambda kind, body: delivered.append((kind, body)))
    for chunk in chunks:
        data = protocol.encode(*chunk) if isinstance(chunk, tuple) else chunk
        host.feed(data, 0)
        io.inbox.extend(data)
        fw.step(0)
    for kind, body in delivered:
        if kind == protocol.INFO:
            protocol.parse_info(body)
        elif kind == protocol.PRESS:
            protocol.parse_press(body)
    clean()


serial_frames = (wire, check_wire)


# --- JSON from strangers: values of every type, nested, and numbers out of range -------------
OUT_OF_RANGE = "1e400"  # a string value with this text is written as the bare number
hostile = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(),
                    st.text(max_size=12), st.just(OUT_OF_RANGE))
json_value = st.recursive(hostile, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                           st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                          max_leaves=10)
deep = st.tuples(st.integers(1, 40_000), st.sampled_from("[{"), st.booleans()).map(
    lambda t: (t[1] if t[1] == "[" else '{"a":') * t[0] + ("1" + ("]" if t[1] == "[" else "}") * t[0] if t[2] else ""))


def dumps(value) -> bytes:
    """JSON as a stranger may write it: NaN and Infinity as Python writes them, and
    OUT_OF_RANGE strings as the bare number."""
    return json.dumps(value).replace(f'"{OUT_OF_RANGE}"', OUT_OF_RANGE).encode()


def check_nested(raw: str) -> None:
    """Any nesting: parsed as json would, or a JsonError naming the depth; never a
    RecursionError."""
    try:
        bounded_json.loads(raw, "the text", 1_000_000)
    except bounded_json.JsonError as exc:
        _clear(str(exc))
        assert str(exc).startswith("the text "), exc


nested_json = (st.one_of(deep, json_value.map(lambda v: dumps(v).decode())), check_nested)


# --- the hall's MQTT messages, both sides ---------------------------------------------------
EVENT_KEYS = ["type", "seq", "prev", "journal", "game_id", "t", "game", "variant", "settings", "setup", "reason",
              "notation", "text", "seat", "ply"]
event_like = st.tuples(  # a table's next event (or one already kept: a duplicate or a conflict), then junk
    st.sampled_from(["move", "game_started", "game_over", "illegal", "undo"]), st.integers(1, 30),
    st.booleans(), st.dictionaries(st.sampled_from(EVENT_KEYS), json_value, max_size=2),
).map(lambda t: {"type": t[0], "seq": t[1], "prev": t[1] - 1 if t[2] else 0, "journal": "j1", "game_id": 1,
                 "t": 1e9, "notation": "e4", **t[3]})
hall_message = st.tuples(
    st.sampled_from(["events", "state", "online"]),
    st.one_of(event_like.map(dumps), st.one_of(json_value.map(dumps), deep.map(str.encode), st.binary(max_size=40),
                                               st.sampled_from([b"online", b"offline"]))))

_tmp = tempfile.TemporaryDirectory(prefix="fuzz-hall-")
atexit.register(_tmp.cleanup)
_hall = {}


def the_hall():
    """One hall (not connected: messages go in where its network thread hands them)."""
    if "hall" not in _hall:
        from controller.hall.receiver import Hall
        from web.hall import create_hall_app

        _hall["hall"] = Hall(_tmp.name + "/hall", "127.0.0.1", 1)
        _hall["page"] = create_hall_app(_hall["hall"], "fuzz-token-fuzz-token").test_client()
    return _hall["hall"], _hall["page"]


def check_hall_message(example) -> None:
    """Any payload on a table's topic: taken or dropped, never raising on the network
    thread; what was kept is of the right types, and the hall's page still answers."""
    leaf, payload = example
    hall, page = the_hall()
    hall._receive(f"referee/t1/{leaf}", payload)
    for event in hall.store.events("t1"):
        assert isinstance(event["seq"], int) and isinstance(event["type"], str), event
    for path in ("/api/hall", "/api/hall/tables/t1", "/"):
        reply = page.get(path)
        assert reply.status_code < 500, (path, reply.get_data(as_text=True)[:300])


hall_messages = (hall_message, check_hall_message)

resend_request = st.one_of(
    st.fixed_dictionaries({"after": json_value, "journal": st.one_of(st.just("j1"), json_value)}).map(dumps),
    json_value.map(dumps), deep.map(str.encode), st.binary(max_size=30))


def the_publisher():
    if "publisher" not in _hall:
        from controller.config import HallSettings
        from controller.hall.publisher import Publisher

        Journal(_tmp.name + "/table.sqlite").close()
        _hall["publisher"] = Publisher(_tmp.name + "/table.sqlite", HallSettings(
            enabled=True, broker="127.0.0.1", port=1, table="t1"))
        _hall["publisher"].journal_id = "j1"
    return _hall["publisher"]


def check_resend_request(payload: bytes) -> None:
    """Any payload on referee/T/resend: a resend from a whole seq >= 0 of this journal,
    or dropped; never raising on the table's network thread."""
    publisher = the_publisher()
    publisher._on_message(None, None, SimpleNamespace(payload=payload, topic="referee/t1/resend"))
    while not publisher._todo.empty():
        kind, after = publisher._todo.get()
        assert kind == "resend" and isinstance(after, int) and after >= 0, (kind, after)


resend_requests = (resend_request, check_resend_request)


# --- setups and settings of every game --------------------------------------------------------
SETTING_KEYS = ["players", "bowser_red", "board", "bowser", "cards", "confirm_tokens", "solo_battle_reward",
                "board_file", "claimable_draws", "default_promotion", "targets", "finish", "x"]
SETUP_KEYS = ["fen", "players", "names", "deck", "seed", "decks", "rows", "spare", "targets", "first",
              "from_table", "x"]
game_input = st.tuples(
    st.sampled_from(sorted(GAMES)),
    st.one_of(st.dictionaries(st.sampled_from(SETTING_KEYS), json_value, max_size=3), json_value),
    st.one_of(st.dictionaries(st.sampled_from(SETUP_KEYS), json_value, max_size=3), json_value))


def check_game_input(example) -> None:
    """Any settings and setup for any game: a game that starts, or one ValueError that
    names what was wrong; never another exception."""
    name, settings, setup = example
    try:
        game = load_game(name, None, settings)
        game.start(setup)
    except ValueError as exc:
        _clear(str(exc))
        assert "\n" not in str(exc), exc


game_inputs = (game_input, check_game_input)
