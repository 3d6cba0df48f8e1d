"""Issue 21 #7: setups and settings from outside the rules (a `--setup` file,
`--setting`, `[game] rulings`) of the wrong shape get one message naming the key and what
was expected, exit 2 (or stop `serve` before it starts), never a traceback; and
Monopoly refuses an unknown setting as every other game does."""
from __future__ import annotations

import io
import sys

import pytest

from controller.cli import main
from controller.config import ConfigError, parse
from controller.games import GAMES


def play(args: list[str], capsys, monkeypatch) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"")))
    code = main(["play", *args])
    return code, capsys.readouterr().err


ANY_GAME = [("[1, 2]", "setup is a list [1, 2]; expected an object"),
            ('{"players": [' * 40 + "]" * 40 + "}", "nests lists and objects more than 32 levels deep"),
            ('{"seed": 1e400}', "the number 1e400 is out of range")]
EACH_GAME = {  # a key the game reads, of the wrong type (or a key it does not read)
    "chess": ('{"fen": 5}', "chess setup 'fen' is a whole number 5; expected text"),
    "connect4": ('{"fen": "x"}', "connect4 setup has no key 'fen'; it takes none"),
    "labyrinth": ('{"rows": 5}', "labyrinth setup 'rows' is a whole number 5; expected a list of text or a list"),
    "smb": ('{"players": "two"}', "smb setup 'players' is text 'two'; expected a whole number"),
    "monopoly": ('{"decks": {"question_block": ["a"]}}',
                 "monopoly setup 'decks' 'question_block' item 1 is text 'a'; expected a whole number"),
}


@pytest.mark.parametrize("game, text, words", [(g, t, w) for g in sorted(GAMES) for t, w in ANY_GAME]
                         + [(g, *EACH_GAME[g]) for g in sorted(GAMES)])
def test_a_setup_of_the_wrong_shape_is_one_line_naming_the_file_and_key(game, text, words, tmp_path, capsys,
                                                                         monkeypatch):
    setup = tmp_path / "s.json"
    setup.write_text(text)
    code, err = play(["--game", game, "--setup", str(setup)], capsys, monkeypatch)
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"referee play: --setup {setup}: ") and words in err, err


@pytest.mark.parametrize("game, setting, words", [
    ("monopoly", "x=y", "monopoly has no setting 'x'; expected one of players, bowser"),
    ("monopoly", "bowser=maybe", "monopoly setting 'bowser' is text 'maybe'; expected one of true, false, 'on'"),
    ("smb", "board=5", "smb setting 'board' is a whole number 5; expected text"),
    ("smb", "players=1e400", "smb setting 'players' is text '1e400'; expected a whole number"),
    ("chess", "x=y", "chess has no setting 'x'"),
])
def test_a_setting_of_the_wrong_shape_is_one_line_naming_it(game, setting, words, capsys, monkeypatch):
    code, err = play(["--game", game, "--setting", setting], capsys, monkeypatch)
    assert code == 2 and err == f"referee play: {words}" + err[len(f"referee play: {words}"):]
    assert err.count("\n") == 1, err


def test_rulings_of_the_wrong_shape_stop_serve_with_the_key_and_the_file():
    with pytest.raises(ConfigError) as caught:
        parse('[game]\nname = "smb"\nrulings = {board = 5}\n', "/etc/referee.toml")
    assert str(caught.value) == ("/etc/referee.toml: [game] rulings: smb setting 'board' is a whole number 5; "
                                 "expected text")
    with pytest.raises(ConfigError, match=r"\[game\] rulings: monopoly has no setting 'typo'"):
        parse('[game]\nname = "monopoly"\nrulings = {typo = true}\n', "/etc/referee.toml")
