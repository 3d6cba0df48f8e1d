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

from .i18n import N_, Said, language


class ConfigError(Said):
    """A config problem; the message names the file and the key. `said(_)` words it in a
    language (controller/i18n.py), str() in English."""


@dataclass
class GameSettings:
    name: str = "connect4"
    variant: str = ""  # empty: the game's first variant
    rulings: dict = field(default_factory=dict)  # per-game rulings that are settings
    # the players' names by seat (["Léa", "Tom"]): the first game's, kept by the next ones
    # until a new game names others (controller/players.py)
    players: list = field(default_factory=list)


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


# a value of the wrong type, per the type the key takes
WRONG_TYPE = {int: N_("{where}: expected an integer, got {value!r}"),
              float: N_("{where}: expected a number, got {value!r}"),
              str: N_("{where}: expected a string, got {value!r}"),
              bool: N_("{where}: expected true or false, got {value!r}"),
              list: N_("{where}: expected a list, got {value!r}"),
              dict: N_("{where}: expected a table, got {value!r}")}


def _coerce(value, tp, where: str):
    if tp is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if tp is int and isinstance(value, bool) or not isinstance(value, tp):
        raise ConfigError(WRONG_TYPE[tp], where=where, value=value)
    if tp is float and not math.isfinite(value):  # TOML allows nan and inf
        raise ConfigError(N_("{where}: expected a finite number, got {value!r}"), where=where, value=value)
    if tp is str and "\0" in value:  # a path or a name with one was "embedded null byte", no key named
        raise ConfigError(N_("{where}: contains a NUL character (\\u0000); expected text without one"),
                          where=where)
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
        raise ConfigError(N_("{path}: [{section}] must be a table"), path=path, section=name)
    hints = typing.get_type_hints(cls)
    known = {f.name for f in fields(cls)}
    out = cls()
    for key, value in raw.items():
        where = f"{path}: [{name}] {key}"
        if key not in known:
            raise ConfigError(N_("{path}: unknown key [{section}] {key}; expected one of {keys}"), path=path,
                              section=name, key=key, keys=", ".join(sorted(known)))
        setattr(out, key, _coerce(value, hints[key], where))
    return out


def parse(text: str, path: str = "referee.toml") -> Config:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(N_("{path}: not valid TOML ({error})"), path=path, error=exc) from exc
    hints = typing.get_type_hints(Config)
    sections = [f.name for f in fields(Config) if f.name != "path"]
    config = Config(path=path)
    for name, value in raw.items():
        if name not in sections:
            raise ConfigError(N_("{path}: unknown section [{section}]; expected one of {sections}"), path=path,
                              section=name, sections=", ".join(sections))
        setattr(config, name, _section(hints[name], value, path, name))
    validate(config)
    return config


def load(path: str | Path) -> Config:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(N_("{path}: no such config file (copy referee.example.toml to start)"),
                          path=path) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(N_("{path}: cannot be read ({error})"), path=path, error=exc) from exc
    return parse(text, str(path))


def file_language(path: str | Path) -> str | None:
    """The [table] language a config file names, if the file reads as TOML and names one
    this version speaks; None otherwise. The commands say what they print in it, the
    file's own errors too (before the file is checked)."""
    try:
        table = tomllib.loads(Path(path).read_text(encoding="utf-8")).get("table")
        return language(table.get("language"), "") if isinstance(table, dict) else None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError):
        return None


def _one_of(path, key, value, allowed):
    if value not in allowed:
        raise ConfigError(N_("{path}: {key} is {value!r}; expected one of {allowed}"), path=path, key=key,
                          value=value, allowed=", ".join(map(repr, allowed)))


def validate(config: Config) -> None:
    """Values that have the right type but cannot work."""
    p = config.path
    from .games import GAMES, game_class  # late: games are loaded only when named

    try:
        config.table.language = language(config.table.language, "[table] language")
    except ValueError as exc:
        raise ConfigError(N_("{path}: {error}"), path=p, error=exc) from None
    _one_of(p, "[game] name", config.game.name, list(GAMES))
    variants = game_class(config.game.name).variants
    if config.game.variant:
        _one_of(p, "[game] variant", config.game.variant, list(variants))
    try:
        game = game_class(config.game.name)(config.game.variant or None, config.game.rulings, config.table.language)
    except ValueError as exc:
        raise ConfigError(N_("{path}: [game] rulings: {error}"), path=p, error=exc) from None
    if config.game.players:
        from .players import checked
        from .table import seats_of  # late: the table brings in vision

        try:
            config.game.players = checked(config.game.players, seats_of(game), game._)
        except ValueError as exc:
            raise ConfigError(N_("{path}: [game] players: {error}"), path=p, error=exc) from None
    pins: dict[int, str] = {}
    for f in fields(GpioSettings):
        value = getattr(config.gpio, f.name)
        if f.type in ("int", int) and not isinstance(value, bool):
            if not 0 <= value <= 27:
                raise ConfigError(N_("{path}: [gpio] {key} is {value}; expected a BCM pin number 0-27"),
                                  path=p, key=f.name, value=value)
            if value in pins:
                raise ConfigError(N_("{path}: [gpio] {key} uses pin {value}, which [gpio] {other} already uses; "
                                     "expected a pin of its own"), path=p, key=f.name, value=value, other=pins[value])
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
            raise ConfigError(N_("{path}: [camera] {error}"), path=p, error=exc) from None
    for (section, key), (low, high, low_allowed) in LIMITS.items():
        value = getattr(getattr(config, section), key)
        if value < low or (value == low and not low_allowed) or value > high:
            raise ConfigError(N_("{path}: [{section}] {key} is {value}; expected {low} to {high}") if low_allowed
                              else N_("{path}: [{section}] {key} is {value}; expected more than {low}, at most {high}"),
                              path=p, section=section, key=key, value=value, low=low, high=high)
    _check_web(config.web, p)
    try:
        player = shlex.split(config.voice.player)
    except ValueError as exc:  # an unclosed quote
        player = exc
    if not isinstance(player, list) or not player:
        raise ConfigError(N_("{path}: [voice] player is {value!r}; expected \"auto\", \"off\" or a command such "
                             "as \"aplay -q\""), path=p, value=config.voice.player)
    _validate_hall(config.hall, p)
    colours = config.camera.colours
    if not 2 <= len(colours) <= 3 or not all(
            isinstance(c, str) and len(c) == 7 and c[0] == "#" and all(h in "0123456789abcdefABCDEF" for h in c[1:])
            for c in colours):
        raise ConfigError(N_("{path}: [camera] colours is {value!r}; expected two or three \"#rrggbb\" colours: "
                             "first player, second player, and optionally the blocker"), path=p, value=colours)
    from .devices.link import parse_usb_id  # late: the link module brings in pyserial

    try:
        parse_usb_id(config.die_module.usb_id)
    except ValueError as exc:
        raise ConfigError(N_("{path}: [die_module] {error}"), path=p, error=exc) from None


def _check_web(web: WebSettings, p: str) -> None:
    if not 0 <= web.port <= 65535:
        raise ConfigError(N_("{path}: [web] port is {value}; expected 1-65535 (0: any free port)"), path=p,
                          value=web.port)
    try:
        ipaddress.ip_address(web.host)
    except ValueError:
        # a name (localhost, the Pi's name) is fine; digits and dots are an address
        if re.fullmatch(r"[0-9.]+", web.host) or not HOSTNAME.fullmatch(web.host):
            raise ConfigError(N_("{path}: [web] host is {value!r}; expected an IP address of this machine "
                                 "(\"0.0.0.0\": every network, \"127.0.0.1\": this machine only) or a host name"),
                              path=p, value=web.host) from None
    token = web.admin_token
    if token and (len(token) < MIN_TOKEN or not token.isprintable() or token != token.strip()):
        raise ConfigError(N_("{path}: [web] admin_token is {length} characters; expected at least {most} "
                             "printable characters without spaces at the ends (a short token is soon guessed; "
                             "leave it out and a new one is made and printed at each start)"),
                          path=p, length=len(token), most=MIN_TOKEN)
    if not token.isascii():  # the page sends it in the Authorization header, which carries no other
        raise ConfigError(N_("{path}: [web] admin_token holds {characters}; expected ASCII letters, digits and "
                             "punctuation only (the page sends the token in an HTTP header, where a browser refuses "
                             "any other character)"), path=p,
                          characters=", ".join(repr(c) for c in dict.fromkeys(token) if not c.isascii()))


TABLE_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _validate_hall(hall: HallSettings, p: str) -> None:
    if not 1 <= hall.port <= 65535:
        raise ConfigError(N_("{path}: [hall] port is {value}; expected 1-65535"), path=p, value=hall.port)
    if hall.table and not TABLE_NAME.fullmatch(hall.table):
        raise ConfigError(N_("{path}: [hall] table is {value!r}; expected 1-64 letters, digits, - or _ "
                             "(it is a part of the MQTT topic)"), path=p, value=hall.table)
    if hall.password and not hall.username:
        raise ConfigError(N_("{path}: [hall] password is set but username is not; expected both or neither"),
                          path=p)
    if hall.ca_file and not Path(hall.ca_file).is_file():
        raise ConfigError(N_("{path}: [hall] ca_file {value!r}: no such file"), path=p, value=hall.ca_file)
    if hall.ca_file and not hall.tls:
        raise ConfigError(N_("{path}: [hall] ca_file is set but tls is false; expected tls = true"), path=p)
    if hall.enabled:
        for key in ("broker", "table"):
            if not getattr(hall, key):
                raise ConfigError(N_("{path}: [hall] {key} is empty; expected it set when [hall] enabled = true"),
                                  path=p, key=key)


def default() -> Config:
    config = Config()
    validate(config)
    return config
