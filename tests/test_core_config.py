"""Config errors stop start-up with one message naming the file, the key and what is expected."""
from pathlib import Path

import pytest

from controller.cli import main
from controller.config import ConfigError, load, parse

EXAMPLE = Path(__file__).resolve().parents[1] / "referee.example.toml"


def test_the_example_config_loads():
    config = load(EXAMPLE)
    assert config.game.name == "connect4" and config.web.port == 8000


@pytest.mark.parametrize("text, words", [
    ("[camera]\nsorce = 'x'\n", ["[camera] sorce", "unknown key", "source"]),
    ("[cmaera]\n", ["unknown section [cmaera]", "camera"]),
    ("[web]\nport = 'eighty'\n", ["[web] port", "expected an integer", "'eighty'"]),
    ("[gpio]\nbuzzer = 23\n", ["[gpio] led_ready", "pin 23", "[gpio] buzzer"]),
    ("[gpio]\nled_busy = 40\n", ["[gpio] led_busy", "BCM pin number"]),
    ("[game]\nname = 'checkers'\n", ["[game] name", "'checkers'", "connect4"]),
    ("[game]\nvariant = 'speed'\n", ["[game] variant", "classic", "blocker"]),
    ("[web]\nport = 70000\n", ["[web] port", "1-65535"]),
    ("[camera]\ncorners = ['1,2']\n", ["[camera] corners", "four points"]),
    ("[gpio]\nbuzzer_kind = 'loud'\n", ["[gpio] buzzer_kind", "tonal"]),
    ("[web\n", ["not valid TOML"]),
    ("[camera]\nwidth = true\n", ["[camera] width", "expected an integer"]),
    ("[camera]\ncolours = ['red', 'green']\n", ["[camera] colours", "#rrggbb"]),
])
def test_each_error_names_file_key_and_expectation(text, words):
    with pytest.raises(ConfigError) as info:
        parse(text, "/etc/referee.toml")
    message = str(info.value)
    assert message.startswith("/etc/referee.toml: ")
    for w in words:
        assert w in message


def test_missing_file(tmp_path):
    with pytest.raises(ConfigError, match="no such config file"):
        load(tmp_path / "nope.toml")


def test_serve_stops_with_the_message(tmp_path, capsys):
    bad = tmp_path / "referee.toml"
    bad.write_text("[gpio]\nbuzzer = 23\n")
    assert main(["serve", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "[gpio] buzzer" in err and err.count("\n") == 1
