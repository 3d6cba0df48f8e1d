"""What the fuzzers feed and what must hold, shared by tests/test_fuzz.py (a few hundred
seeded examples each, in the suite) and bench/fuzz.py (long runs).

Each target is (strategy, check): `check(example)` raises AssertionError when the
property fails; any other exception escaping is a crash. The property is the house rule:
bad input never crashes anything, and it gets a clear message (not empty, not a
traceback, naming what was wrong) and no 5xx.
"""
from __future__ import annotations

import random
import string

from hypothesis import strategies as st

from controller.config import ConfigError, parse
from controller.events import Bus
from controller.games import GAMES
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
    from test_firmware_module import boot, clean, hello

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
