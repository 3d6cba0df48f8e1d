"""Issue 30 #1: everything a person reads in the terminal is in the table's language: the
commands' help, a config file's errors (naming the file and the key), a time control
that is not one, and what `selftest`, `read` and `markers` print. The language is
`--lang`, else the [table] language of the command's config file, else English;
argparse's own words (usage:, error:) stay argparse's."""
from __future__ import annotations

import pytest

from controller.cli import main, table_language
from controller.config import ConfigError, load
from controller.games.time_control import TimeControl
from controller.i18n import translator


def config(tmp_path, text: str):
    path = tmp_path / "referee.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_language_is_lang_else_the_config_file_s_else_english(tmp_path):
    fr = config(tmp_path, '[table]\nlanguage = "fr"\n[camera]\nwidth = "wide"\n')  # the file is wrong, and French
    assert table_language(["serve", "--config", str(fr)]) == "fr"
    assert table_language(["serve", "--config", str(fr), "--lang", "de"]) == "de"
    assert table_language(["selftest", "--config", str(tmp_path / "none.toml")]) == "en"
    assert table_language(["demo", "--config", str(fr)]) == "en"  # the demo's table speaks --lang's, else English
    assert table_language(["demo", "--lang"]) == "en"  # argparse says what is missing


@pytest.mark.parametrize("lang, said", [
    ("fr", "{path}: [camera] width : un entier attendu, reçu 'wide'"),  # the place as it is written
    ("de", "{path}: [camera] width: eine ganze Zahl erwartet, erhalten 'wide'"),
])
def test_a_config_error_names_the_file_and_the_key_in_the_file_s_language(tmp_path, capsys, lang, said):
    path = config(tmp_path, f'[table]\nlanguage = "{lang}"\n[camera]\nwidth = "wide"\n')
    assert main(["serve", "--config", str(path)]) == 2
    assert capsys.readouterr().err == f"referee serve{' :' if lang == 'fr' else ':'} {said.format(path=path)}\n"
    with pytest.raises(ConfigError) as caught:  # the log keeps the English
        load(path)
    assert str(caught.value) == f"{path}: [camera] width: expected an integer, got 'wide'"


def test_an_error_inside_a_key_is_said_in_the_same_language(tmp_path, capsys):
    """A clock in [game] rulings that is not one: the key's words and the control's."""
    path = config(tmp_path, '[game]\nname = "chess"\nrulings = { clock = "5 x3" }\n')
    assert main(["serve", "--config", str(path), "--lang", "de"]) == 2
    assert capsys.readouterr().err == (
        f"referee serve: {path}: [game] rulings: Bedenkzeit '5 x3': '5 x3' ist keine Periode; erwartet Minuten und "
        "Inkrement wie 3+2, eine Verzögerung wie 5 d3 oder 5 b3, oder Züge/Minuten wie 40/90\n")


@pytest.mark.parametrize("text, words", [
    ("", "a time control is text such as \"3+2\", not ''"),
    ("5|5|5", "time control '5|5|5': at most two sides, red's | green's"),
    ("300/5", "time control '300/5': 300 moves in a period; expected 1-200"),
    ("2000", "time control '2000': '2000' is over 24 hours"),
    ("5+900", "time control '5+900': 900 s a move; expected at most 600"),
    ("5, 40/90", "time control '5, 40/90': only the last period may be for the rest of the game"),
    ("0+2", "time control '0+2': no time to start with"),
])
def test_each_time_control_typing_error_reads_in_every_language(text, words):
    with pytest.raises(ValueError) as caught:
        TimeControl.parse(text if text else 5)
    if not text:
        words = words.replace("''", "5")
    assert str(caught.value) == words
    for lang in ("fr", "de"):
        said = caught.value.said(translator(lang))
        assert said != words and said.split(" ")[0] in ("une", "cadence", "eine", "Bedenkzeit"), said


def test_play_says_a_bad_clock_in_the_table_s_language(capsys):
    assert main(["play", "--game", "chess", "--clock", "5 x3", "--lang", "fr"]) == 2
    assert capsys.readouterr().err.startswith("referee play : cadence '5 x3' : '5 x3' n'est pas une période ;")


@pytest.mark.parametrize("lang, heading, players", [
    ("fr", "Tout l'arbitre sur une table simulée", "les noms des joueurs par place"),
    ("de", "Der ganze Schiedsrichter an einem simulierten Tisch", "die Namen der Spieler nach Platz"),
])
def test_the_demo_s_help_is_in_the_language_asked_for(capsys, lang, heading, players):
    with pytest.raises(SystemExit):
        main(["demo", "--lang", lang, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert heading in out and players in out and "--players NAMES" in out


def test_selftest_speaks_the_config_s_language(tmp_path, capsys, mock_pins):
    path = config(tmp_path, '[table]\nlanguage = "de"\n[gpio]\nfactory = "mock"\n[die_module]\nport = "off"\n')
    assert main(["selftest", "--config", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ok    Kamera: 'synthetic' (der gezeichnete Tisch der Demo), nichts zu prüfen",
        "ok    Pins: Summer 18 (tonal), LEDs 23/24/25, Knopf Neue Partie 17 eingerichtet; ihr solltet ein Zirpen "
        "gehört und die drei LEDs leuchten gesehen haben",
        "ok    Würfelmodul: in den Einstellungen aus",
        "alle Prüfungen bestanden"]


def test_markers_and_read_speak_the_language_asked_for(tmp_path, capsys):
    sheet = tmp_path / "sheet.png"
    assert main(["markers", "--game", "connect4", "--out", str(sheet), "--lang", "fr"]) == 0
    assert capsys.readouterr().out == (f"{sheet} : marqueurs de connect4 : id 0 en bas à gauche, id 1 en bas à droite, "
                                       "id 2 en haut à droite, id 3 en haut à gauche\n")
    assert main(["read", str(sheet), "--game", "connect4", "--lang", "de"]) == 0  # the sheet: an empty board
    assert capsys.readouterr().out.splitlines()[-1] == "X erster Spieler, O zweiter Spieler, # Blocker, . leer, ? unsicher"
    assert main(["markers", "--game", "connect4", "--out", str(tmp_path / "no" / "such.png"), "--lang", "de"]) == 2
    assert capsys.readouterr().err == (f"referee markers: {tmp_path / 'no' / 'such.png'} kann nicht geschrieben werden "
                                       "(gibt es den Ordner, und ist die Endung ein Bildtyp wie .png?)\n")


def test_a_new_game_with_a_clock_that_is_not_one_is_refused_in_the_table_s_language(tmp_path):
    """The page's new-game form (the table's command): the refusal the page shows."""
    from controller.events import NewGame
    from support import running_service

    with running_service(tmp_path, language="de") as service:
        result = service.submit(NewGame(game="chess", clock="5 x3"))
    assert not result.ok and result.error.startswith("Bedenkzeit '5 x3': '5 x3' ist keine Periode;"), result.error


# --- the commands that had no language, and errors quoted inside a translated sentence ---
@pytest.mark.parametrize("argv, said", [
    (["roll", "--die", "dice", "--lang", "fr"],
     "referee roll : --die : dé 'dice' inconnu ; attendu l'un de "),
    (["roll", "--die", "smb", "-n", "0", "--lang", "de"],
     "referee roll: -n ist 0; erwartet eine Anzahl von mindestens 1\n"),
    (["hall", "--lang", "de"], "referee hall: --broker HOST wird gebraucht, um den Saal bereitzustellen\n"),
    (["hall", "round", "--lang", "fr"], "referee hall : round N : donnez le numéro de la ronde (1 ou plus)\n"),
])
def test_roll_and_hall_say_a_wrong_option_in_the_table_s_language(capsys, argv, said):
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(said)


def test_export_says_an_empty_journal_in_german(tmp_path, capsys):
    from controller.journal import Journal

    Journal(tmp_path / "journal.sqlite").close()
    assert main(["export", "--data", str(tmp_path), "--lang", "de"]) == 1
    assert capsys.readouterr().err == f"referee export: {tmp_path / 'journal.sqlite'} enthält keine Partie\n"


@pytest.mark.parametrize("lang, said", [
    ("de", "referee export: {path}: kein brauchbares Protokoll"),
    ("fr", "referee export : {path} : pas un journal utilisable"),
    ("en", "referee export: {path}: not a usable journal"),
])
def test_a_damaged_or_missing_journal_is_said_in_the_language_asked_for(tmp_path, capsys, lang, said):
    """The journal's own refusals (controller/journal.py JournalError) are worded where a
    person reads them: a file that is no journal, and a folder that holds none."""
    path = tmp_path / "journal.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100 + b"not a database" * 300)
    assert main(["export", "--data", str(tmp_path), "--lang", lang]) == 1
    err = capsys.readouterr().err
    assert err.startswith(said.format(path=path)), err
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    assert main(["export", "--data", str(empty), "--lang", "de"]) == 1
    assert capsys.readouterr().err == f"referee export: {empty / 'journal.sqlite'}: hier ist kein Protokoll\n"


@pytest.mark.parametrize("lang, said", [
    ("de", "referee play: die Schacheinstellung 'claimable_draws' ist 'x'; erwartet eines von "),
    ("fr", "referee play : le réglage d'échecs 'claimable_draws' vaut 'x' ; attendu l'un de "),
])
def test_a_chess_setting_that_is_not_one_is_worded_in_the_table_s_language(capsys, lang, said):
    assert main(["play", "--game", "chess", "--setting", "claimable_draws=x", "--lang", lang]) == 2
    assert capsys.readouterr().err.startswith(said)


def test_a_die_face_and_a_usb_id_are_worded_where_they_are_quoted(tmp_path, capsys):
    from controller.devices.dice import parse
    from controller.devices.link import parse_usb_id

    with pytest.raises(ValueError) as face:
        parse("smb", "roll x")
    assert str(face.value).startswith("'x' is not a face of the colour die")  # the log's English
    assert face.value.said(translator("fr")).startswith("'x' n'est pas une face du dé colour ; attendu l'une de ")
    with pytest.raises(ValueError) as usb:
        parse_usb_id("pico")
    assert usb.value.said(translator("de")).startswith("usb_id 'pico': erwartet vier Hex-Ziffern")
    path = config(tmp_path, '[table]\nlanguage = "fr"\n[die_module]\nusb_id = "pico"\n')
    assert main(["serve", "--config", str(path)]) == 2
    assert capsys.readouterr().err == (f"referee serve : {path} : [die_module] usb_id 'pico' : attendu quatre chiffres "
                                      "hexadécimaux, deux-points, quatre chiffres hexadécimaux, par ex. 2e8a:0005\n")


def test_bad_camera_corners_are_worded_in_the_config_file_s_language(tmp_path, capsys):
    """vision/locate.py imports nothing from controller; its CornersError words itself
    with the translator it is given, the same catalogue."""
    path = config(tmp_path, '[table]\nlanguage = "de"\n[camera]\ncorners = ["1,1", "1,1", "1,1", "1,1"]\n')
    assert main(["serve", "--config", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"referee serve: {path}: [camera] Ecken 1,1 1,1 1,1 1,1: entartet: die Punkte 1 und 2 liegen weniger als 8 "
        "Pixel auseinander; erwartet die vier Ecken des Bretts\n")


def test_every_option_of_every_command_is_helped_in_the_table_s_language():
    """The commands that had no language (export, roll, firmware, simulate, hall) too."""
    from controller.cli import build_parser

    english, german = build_parser(translator("en")), build_parser(translator("de"))
    for name, sp in english._subparsers._group_actions[0].choices.items():
        unhelped = [a.option_strings or a.dest for a in sp._actions if a.dest != "help" and not a.help]
        assert unhelped == [], name
        assert "--lang" in sp.format_help(), name
    roll = german._subparsers._group_actions[0].choices["roll"].format_help()
    assert "wie viele Würfe (Standard 1)" in roll and "die Sprache des Tisches" in roll


def test_firmware_flash_says_a_missing_port_in_french(tmp_path, capsys):
    port = tmp_path / "ttyACM9"
    assert main(["firmware", "flash", "--port", str(port), "--lang", "fr"]) == 1
    assert capsys.readouterr().err == (
        f"referee firmware : flash : port {port} : introuvable. Branchez le module du dé (un Raspberry Pi Pico "
        "avec MicroPython) sur un port USB, ou donnez --port /dev/ttyACM0.\n")


def test_a_picture_without_the_board_s_markers_is_said_in_the_language_asked_for(tmp_path, capsys):
    import cv2
    import numpy as np

    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), np.full((200, 300, 3), 128, np.uint8))
    assert main(["read", str(picture), "--game", "chess", "--lang", "de"]) == 2
    assert capsys.readouterr().err == (f"referee read: {picture}: die Marker des Bretts chess (IDs (4, 5, 6, 7)) "
                                       "sind nicht alle zu sehen; geben Sie stattdessen die Ecken an\n")
