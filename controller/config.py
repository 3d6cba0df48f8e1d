"""referee.toml -> typed settings.

Each section is a dataclass; its fields are the keys a user may write, with their types
and defaults. Loading checks every key against them, and every error is one message that
names the file, the key and what is expected, so start-up stops before anything runs on
a wrong setting. `referee.example.toml` in the repository shows every key.
"""
from __future__ import annotations

import ipaddress
import math
import re
import shlex
import tomllib
import typing
from dataclasses import dataclass, field, fields
from pathlib import Path

from vision.view import STILL_S


class ConfigError(Exception):
    """A config problem; the message names the file and the key."""


@dataclass
class GameSettings:
    name: str = "connect4"
    variant: str = ""  # empty: the game's first variant
    rulings: dict = field(default_factory=dict)  # per-game rulings that are settings


@dataclass
class TableSettings:
    # the table's language: what the referee says on the page, the TV, the terminal and
    # in the journal ("en", "fr" or "de"; each phone may choose its own page language)
    language: str = "en"


@dataclass
class CameraSettings:
    # "synthetic" (the demo's rendered table), "picamera2", a device index ("0"),
    # a video file or URL, or a folder of images
    source: str = "synthetic"
    width: int = 1280
    height: int = 720
    fps: float = 30.0
    # four corner points "x,y" of the playing area when the board has no markers
    corners: list = field(default_factory=list)
    still_s: float = STILL_S  # how long the board must be still before it is read
    # chip or piece colours as "#rrggbb": first player, second player
    colours: list = field(default_factory=lambda: ["#d22328", "#1e9e3c"])


@dataclass
class GpioSettings:
    # "mock" (gpiozero's MockFactory with PWM pins, for the demo) or "auto" (the Pi's)
    factory: str = "auto"
    buzzer: int = 18
    buzzer_kind: str = "tonal"  # "tonal" (passive piezo, TonalBuzzer) or "active" (Buzzer)
    led_ready: int = 23
    led_illegal: int = 24
    led_busy: int = 25
    new_game_button: int = 17
    debounce_s: float = 0.05  # buttons: presses closer together than this are one press
    # The GPIO die: "off", "pips" (two six-sided dice, four LED groups each), "rgb" (an RGB
    # LED for the colour die) or "both". Pins of parts not fitted are not used, but every
    # pin below is still checked: give each its own number (the defaults do).
    die: str = "off"
    roll_button: int = 27
    die1_centre: int = 5
    die1_diagonal: int = 6
    die1_other_diagonal: int = 12
    die1_middle: int = 13
    die2_centre: int = 16
    die2_diagonal: int = 19
    die2_other_diagonal: int = 20
    die2_middle: int = 21
    rgb_red: int = 22
    rgb_green: int = 26
    rgb_blue: int = 4


@dataclass
class DieModuleSettings:
    # "auto" (find it by USB vendor/product id), a port such as "/dev/ttyACM0",
    # "sim" (the firmware simulator on a pseudo-terminal) or "off"
    port: str = "auto"
    usb_id: str = "2e8a:0005"  # Raspberry Pi Pico running MicroPython
    heartbeat_s: float = 1.0
    missed_heartbeats: int = 3


@dataclass
class DataSettings:
    folder: str = "data"


@dataclass
class WebSettings:
    host: str = "0.0.0.0"
    port: int = 8000
    admin_token: str = ""
    threads: int = 8  # each open status page holds one thread for its event stream


@dataclass
class HallSettings:
    # Publish this table's public record to a hall's MQTT broker (docs/hall.md)
    enabled: bool = False
    broker: str = ""  # host name or address of the broker (Mosquitto)
    port: int = 1883  # 8883 is the usual port with TLS
    table: str = ""  # this table's name in the hall: letters, digits, - and _
    username: str = ""  # broker credentials (mosquitto_passwd); empty: anonymous
    password: str = ""
    tls: bool = False
    ca_file: str = ""  # with tls: the CA certificate that signed the broker's (empty: the system's)


@dataclass
class VoiceSettings:
    # The referee says each move, alarm, doubt, correction and result (espeak-ng, docs/voice.md)
    enabled: bool = True
    volume: int = 100  # espeak-ng's amplitude: 0 (silent) to 200 (twice the default)
    speed: int = 160  # words per minute, 80-450
    # what plays the words through the speaker: "auto" (aplay, else paplay, else sox's
    # play), "off" (no speaker: the WAVs for the page only) or a command the WAV's path ends
    player: str = "auto"


@dataclass
class Config:
    game: GameSettings = field(default_factory=GameSettings)
    table: TableSettings = field(default_factory=TableSettings)
    camera: CameraSettings = field(default_factory=CameraSettings)
    gpio: GpioSettings = field(default_factory=GpioSettings)
    die_module: DieModuleSettings = field(default_factory=DieModuleSettings)
    data: DataSettings = field(default_factory=DataSettings)
    web: WebSettings = field(default_factory=WebSettings)
    hall: HallSettings = field(default_factory=HallSettings)
    voice: VoiceSettings = field(default_factory=VoiceSettings)
    path: str = "(defaults)"


def _type_name(tp) -> str:
    return {int: "an integer", float: "a number", str: "a string", bool: "true or false",
            list: "a list", dict: "a table"}.get(tp, str(tp))


def _coerce(value, tp, where: str):
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if tp is int and isinstance(value, bool) or not isinstance(value, tp):
        raise ConfigError(f"{where}: expected {_type_name(tp)}, got {value!r}")
    if tp is float and not math.isfinite(value):  # TOML allows nan and inf
        raise ConfigError(f"{where}: expected a finite number, got {value!r}")
    if tp is str and "\0" in value:  # a path or a name with one was "embedded null byte", no key named
        raise ConfigError(f"{where}: contains a NUL character (\\u0000); expected text without one")
    return value


# Bounds of the numbers: (lowest, highest, whether the lowest itself is allowed). Past the
# top a value is a typo, and some would eat the Pi (a thread per web worker, a frame
# buffer per pixel) before anything could complain; a rate or a period of 0 means nothing.
LIMITS = {("camera", "width"): (16, 8192, True), ("camera", "height"): (16, 8192, True),
          ("camera", "fps"): (0, 240, False), ("camera", "still_s"): (0, 10, True),
          ("die_module", "heartbeat_s"): (0, 60, False), ("die_module", "missed_heartbeats"): (1, 100, True),
          ("gpio", "debounce_s"): (0, 2, True), ("web", "threads"): (2, 64, True),
          ("voice", "volume"): (0, 200, True), ("voice", "speed"): (80, 450, True)}
MIN_TOKEN = 16  # characters of a configured admin token (a generated one has 16)
HOSTNAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*")


def _section(cls, raw, path: str, name: str):
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: [{name}] must be a table")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    out = cls()
    for key, value in raw.items():
        where = f"{path}: [{name}] {key}"
        if key not in known:
            raise ConfigError(f"{path}: unknown key [{name}] {key}; expected one of {', '.join(sorted(known))}")
        setattr(out, key, _coerce(value, hints[key], where))
    return out


def parse(text: str, path: str = "referee.toml") -> Config:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc
    hints = typing.get_type_hints(Config)
    sections = [f.name for f in fields(Config) if f.name != "path"]
    config = Config(path=path)
    for name, value in raw.items():
        if name not in sections:
            raise ConfigError(f"{path}: unknown section [{name}]; expected one of {', '.join(sections)}")
        setattr(config, name, _section(hints[name], value, path, name))
    validate(config)
    return config


def load(path: str | Path) -> Config:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file (copy referee.example.toml to start)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read ({exc})") from exc
    return parse(text, str(path))


def _one_of(path, key, value, allowed):
    if value not in allowed:
        raise ConfigError(f"{path}: {key} is {value!r}; expected one of {', '.join(map(repr, allowed))}")


def validate(config: Config) -> None:
    """Values that have the right type but cannot work."""
    p = config.path
    from .games import GAMES, game_class  # late: games are loaded only when named

    from .i18n import language

    try:
        config.table.language = language(config.table.language, "[table] language")
    except ValueError as exc:
        raise ConfigError(f"{p}: {exc}") from None
    _one_of(p, "[game] name", config.game.name, list(GAMES))
    variants = game_class(config.game.name).variants
    if config.game.variant:
        _one_of(p, "[game] variant", config.game.variant, list(variants))
    try:
        game_class(config.game.name)(config.game.variant or None, config.game.rulings)
    except ValueError as exc:
        raise ConfigError(f"{p}: [game] rulings: {exc}") from None
    pins: dict[int, str] = {}
    for f in fields(GpioSettings):
        value = getattr(config.gpio, f.name)
        if f.type in ("int", int) and not isinstance(value, bool):
            if not 0 <= value <= 27:
                raise ConfigError(f"{p}: [gpio] {f.name} is {value}; expected a BCM pin number 0-27")
            if value in pins:
                raise ConfigError(f"{p}: [gpio] {f.name} uses pin {value}, which [gpio] {pins[value]} "
                                  "already uses; expected a pin of its own")
            pins[value] = f.name
    _one_of(p, "[gpio] factory", config.gpio.factory, ["auto", "mock"])
    _one_of(p, "[gpio] buzzer_kind", config.gpio.buzzer_kind, ["tonal", "active"])
    _one_of(p, "[gpio] die", config.gpio.die, ["off", "pips", "rgb", "both"])
    if config.camera.corners:
        from vision.locate import CornersError, parse_corners

        try:
            # width and height are the frame's size only for a live camera (a file has its own)
            live = config.camera.source == "picamera2" or config.camera.source.isdigit()
            parse_corners(config.camera.corners, (config.camera.width, config.camera.height) if live else None)
        except CornersError as exc:
            raise ConfigError(f"{p}: [camera] {exc}") from None
    for (section, key), (low, high, low_allowed) in LIMITS.items():
        value = getattr(getattr(config, section), key)
        if value < low or (value == low and not low_allowed) or value > high:
            span = f"{low} to {high}" if low_allowed else f"more than {low}, at most {high}"
            raise ConfigError(f"{p}: [{section}] {key} is {value}; expected {span}")
    _check_web(config.web, p)
    try:
        player = shlex.split(config.voice.player)
    except ValueError as exc:  # an unclosed quote
        player = exc
    if not isinstance(player, list) or not player:
        raise ConfigError(f"{p}: [voice] player is {config.voice.player!r}; expected \"auto\", \"off\" "
                          "or a command such as \"aplay -q\"")
    _validate_hall(config.hall, p)
    colours = config.camera.colours
    if not 2 <= len(colours) <= 3 or not all(
            isinstance(c, str) and len(c) == 7 and c[0] == "#" and all(h in "0123456789abcdefABCDEF" for h in c[1:])
            for c in colours):
        raise ConfigError(f"{p}: [camera] colours is {colours!r}; expected two or three \"#rrggbb\" "
                          "colours: first player, second player, and optionally the blocker")
    from .devices.link import parse_usb_id  # late: the link module brings in pyserial

    try:
        parse_usb_id(config.die_module.usb_id)
    except ValueError as exc:
        raise ConfigError(f"{p}: [die_module] {exc}") from None


def _check_web(web: WebSettings, p: str) -> None:
    if not 0 <= web.port <= 65535:
        raise ConfigError(f"{p}: [web] port is {web.port}; expected 1-65535 (0: any free port)")
    try:
        ipaddress.ip_address(web.host)
    except ValueError:
        # a name (localhost, the Pi's name) is fine; digits and dots are an address
        if re.fullmatch(r"[0-9.]+", web.host) or not HOSTNAME.fullmatch(web.host):
            raise ConfigError(f"{p}: [web] host is {web.host!r}; expected an IP address of this machine "
                              "(\"0.0.0.0\": every network, \"127.0.0.1\": this machine only) or a host name") from None
    token = web.admin_token
    if token and (len(token) < MIN_TOKEN or not token.isprintable() or token != token.strip()):
        raise ConfigError(f"{p}: [web] admin_token is {len(token)} characters; expected at least {MIN_TOKEN} "
                          "printable characters without spaces at the ends (a short token is soon guessed; "
                          "leave it out and a new one is made and printed at each start)")
    if not token.isascii():  # the page sends it in the Authorization header, which carries no other
        raise ConfigError(f"{p}: [web] admin_token holds {', '.join(repr(c) for c in dict.fromkeys(token) if not c.isascii())}"
                          "; expected ASCII letters, digits and punctuation only (the page sends the token in an "
                          "HTTP header, where a browser refuses any other character)")


TABLE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _validate_hall(hall: HallSettings, p: str) -> None:
    if not 1 <= hall.port <= 65535:
        raise ConfigError(f"{p}: [hall] port is {hall.port}; expected 1-65535")
    if hall.table and not TABLE_NAME.fullmatch(hall.table):
        raise ConfigError(f"{p}: [hall] table is {hall.table!r}; expected 1-64 letters, digits, - or _ "
                          "(it is a part of the MQTT topic)")
    if hall.password and not hall.username:
        raise ConfigError(f"{p}: [hall] password is set but username is not; expected both or neither")
    if hall.ca_file and not Path(hall.ca_file).is_file():
        raise ConfigError(f"{p}: [hall] ca_file {hall.ca_file!r}: no such file")
    if hall.ca_file and not hall.tls:
        raise ConfigError(f"{p}: [hall] ca_file is set but tls is false; expected tls = true")
    if hall.enabled:
        for key in ("broker", "table"):
            if not getattr(hall, key):
                raise ConfigError(f"{p}: [hall] {key} is empty; expected it set when [hall] enabled = true")


def default() -> Config:
    config = Config()
    validate(config)
    return config
