"""Config errors stop start-up with one message naming the file, the key and what is expected."""
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import ConfigError, load, parse

EXAMPLE = Path(__file__).resolve().parents[2] / "referee.example.toml"


def test_the_example_config_loads_and_shows_the_defaults():
    """Every value in the example is the default, except the two lines it marks."""
    from dataclasses import asdict

    from controller.config import Config

    config, default = asdict(load(EXAMPLE)), asdict(Config())
    differ = {(s, k) for s in default if isinstance(default[s], dict)
              for k in default[s] if config[s][k] != default[s][k]}
    assert differ == {("game", "variant"), ("camera", "source")}
    assert "(default" in EXAMPLE.read_text()


@pytest.mark.parametrize("text, words", [
    ("[camera]\nsorce = 'x'\n", ["[camera] sorce", "unknown key", "source"]),
    ("[cmaera]\n", ["unknown section [cmaera]", "camera"]),
    ("[web]\nport = 'eighty'\n", ["[web] port", "expected an integer", "'eighty'"]),
    ("[gpio]\nbuzzer = 23\n", ["[gpio] led_ready", "pin 23", "[gpio] buzzer"]),
    ("[gpio]\nled_busy = 40\n", ["[gpio] led_busy", "BCM pin number"]),
    ("[game]\nname = 'checkers'\n", ["[game] name", "'checkers'", "connect4"]),
    ("[table]\nlanguage = 'es'\n", ["[table] language", "'es'", "en", "fr", "de"]),
    ("[game]\nvariant = 'speed'\n", ["[game] variant", "classic", "blocker"]),
    ("[web]\nport = 70000\n", ["[web] port", "1-65535"]),
    ("[camera]\ncorners = ['1,2']\n", ["[camera] corners", "four points"]),
    ("[camera]\ncorners = ['a,b', '1,2', '3,4', '5,6']\n", ["[camera] corners", "four points"]),
    ("[camera]\nfps = 0\n", ["[camera] fps", "more than 0"]),
    ("[camera]\nstill_s = -1.0\n", ["[camera] still_s", "0 to 10"]),
    ("[gpio]\ndebounce_s = -1.0\n", ["[gpio] debounce_s", "0 to 2"]),
    ("[die_module]\nheartbeat_s = 0\n", ["[die_module] heartbeat_s", "more than 0"]),
    ("[die_module]\nmissed_heartbeats = 0\n", ["[die_module] missed_heartbeats", "1 to 100"]),
    ("[die_module]\nusb_id = 'zz'\n", ["[die_module] usb_id 'zz'", "four hex digits"]),
    ("[game]\nrulings = {nonsense = 1}\n", ["[game] rulings", "'nonsense'"]),
    ("[game]\nname = 'chess'\nrulings = {nonsense = 1}\n", ["[game] rulings", "nonsense"]),
    ("[gpio]\nbuzzer_kind = 'loud'\n", ["[gpio] buzzer_kind", "tonal"]),
    ("[web\n", ["not valid TOML"]),
    ("[camera]\nwidth = true\n", ["[camera] width", "expected an integer"]),
    ("[camera]\ncolours = ['red', 'green']\n", ["[camera] colours", "#rrggbb"]),
    # issue 13: values of the right type that cannot work
    ("[camera]\nfps = nan\n", ["[camera] fps", "finite number", "nan"]),
    ("[camera]\nstill_s = nan\n", ["[camera] still_s", "finite number"]),
    ("[camera]\nstill_s = inf\n", ["[camera] still_s", "finite number", "inf"]),
    ("[die_module]\nheartbeat_s = nan\n", ["[die_module] heartbeat_s", "finite number"]),
    ("[camera]\nwidth = 99999999999999999\n", ["[camera] width", "16 to 8192"]),
    ("[camera]\nheight = 0\n", ["[camera] height", "16 to 8192"]),
    ("[web]\nthreads = 100000000\n", ["[web] threads", "2 to 64"]),
    ("[web]\nadmin_token = 'a'\n", ["[web] admin_token", "1 characters", "at least 16", "leave it out"]),
    ("[web]\nhost = '999.1.1.1'\n", ["[web] host", "'999.1.1.1'", "0.0.0.0"]),
    # issue 28: accepted by the config, then refused in the Authorization header the page uses
    ("[web]\nadmin_token = 'pässwörd-of-the-club'\n", ["[web] admin_token holds 'ä', 'ö'", "ASCII"]),
    # issue 28: "embedded null byte", no key named
    ('[data]\nfolder = "data\\u0000x"\n', ["[data] folder", "NUL character"]),
    ('[camera]\nsource = "shots\\u0000"\n', ["[camera] source", "NUL character"]),
    ("[web]\nhost = 'no such host!'\n", ["[web] host", "host name"]),
    ("[camera]\ncorners = ['1,1', '1,1', '1,1', '1,1']\n", ["[camera] corners", "degenerate"]),
    ("[camera]\ncorners = ['0,0', '1e308,0', '1e308,1e308', '0,1e308']\n", ["[camera] corners", "out of the frame"]),
    # issue 30: the players' names by seat
    ("[game]\nplayers = ['Léa', 'Tom', 'Zoé']\n", ["[game] players", "3 names for 2 seats"]),
    ("[game]\nplayers = ['Léa', 'a name far too long to be said aloud']\n", ["[game] players", "1-24 printable"]),
    ("[game]\nplayers = 'Léa'\n", ["[game] players", "expected a list"]),
])
def test_each_error_names_file_key_and_expectation(text, words):
    with pytest.raises(ConfigError) as info:
        parse(text, "/etc/referee.toml")
    message = str(info.value)
    assert message.startswith("/etc/referee.toml: ")
    for w in words:
        assert w in message


def test_the_players_names_in_the_file_name_the_first_game_s_seats(tmp_path):
    from controller.service import Service

    config = parse("[game]\nname = 'connect4'\nplayers = [' Léa ', 'Tom']\n[data]\nfolder = '%s'\n" % tmp_path)
    assert config.game.players == ["Léa", "Tom"]
    service = Service(config, camera=False, devices=False)
    try:
        assert service.referee.players == ["Léa", "Tom"]
    finally:
        service.stop()


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load(tmp_path / "nope.toml")


def test_serve_stops_with_the_message(tmp_path, capsys):
    bad = tmp_path / "referee.toml"
    bad.write_text("[gpio]\nbuzzer = 23\n")
    assert main(["serve", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "[gpio] buzzer" in err and err.count("\n") == 1


def test_an_empty_config_loads_and_serve_says_what_the_camera_source_must_be(tmp_path, capsys):
    """Issue 13: an empty config said "camera 'synthetic' needs the frames"."""
    empty = tmp_path / "referee.toml"
    empty.write_text("")
    assert load(empty).camera.source == "synthetic"
    assert main(["serve", "--config", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(empty) in err and "[camera] source" in err and "picamera2" in err
