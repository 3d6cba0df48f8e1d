"""The referee speaks (controller/voice.py): each move, alarm, doubt, correction and
result once, by the real espeak-ng, as a WAV the page may play; what the game overtook is
not said; the die's button and the page say the last words again; without espeak-ng the
voice says so once and the referee goes on."""
import shutil
import wave

import pytest

from controller.config import Config, ConfigError, parse
from controller.demo_rig.module import SimulatedModule
from controller.events import Bus, Enter, Event, Kind
from controller.games.chess.rules import Chess
from controller.journal import Journal
from controller.referee import Referee
from controller.service import Service
from controller.voice import MAX_WAITING, Announcement, Voice, Waiting
from support import need
from waiting import wait


def espeak():
    need(shutil.which("espeak-ng") is not None, "espeak-ng is not installed (apt install espeak-ng)")


@pytest.mark.parametrize("san, seat, said", [
    ("Nf3", 0, "Yoshi, knight, f3"),
    ("Nxe5+", 1, "Birdo, knight, takes e5, check"),
    ("Qxf7#", 0, "Luigi, queen, takes f7, checkmate"),
    ("Bc4", 0, "Daisy, bishop, c4"),  # the light-squared bishop
    ("Bg5", 0, "Peach, bishop, g5"),
    ("O-O-O", 1, "Bowser, castles queenside"),
    ("exd8=Q+", 0, "Coin, pawn, takes d8, becomes Luigi, check"),
])
def test_chess_moves_are_said_as_people_say_them(san, seat, said):
    assert Chess().spoken({"notation": san, "seat": seat, "text": "words"}) == said


@pytest.mark.parametrize("lang, san, seat, said", [
    ("fr", "Nxe5+", 0, "Yoshi, cavalier, prend en e5, échec"),
    ("fr", "exd8=Q#", 0, "Pièce, pion, prend en d8, devient Luigi, échec et mat"),
    ("fr", "O-O", 1, "Bowser, roque côté roi"),
    ("de", "Nxe5+", 1, "Birdo, Springer, schlägt auf e5, Schach"),
    ("de", "e5", 1, "Grüner Panzer, Bauer, e5"),
    ("de", "O-O-O", 0, "Mario, rochiert lang"),
])
def test_chess_is_said_in_the_table_s_language(lang, san, seat, said):
    """The piece names are the catalogue's, as the game's written words use them."""
    assert Chess(lang=lang).spoken({"notation": san, "seat": seat, "text": "words"}) == said


def test_an_alarm_and_the_result_are_said_in_the_table_s_language(tmp_path):
    voice = Voice(Bus(), tmp_path, language="de", player=[])
    try:
        assert voice.words(Event(Kind.GAME_OVER, {"reason": "Bowser ist schachmatt"}, 1)) == \
            "Partie vorbei: Bowser ist schachmatt"
        assert voice.words(Event(Kind.ILLEGAL, {"reason": "a", "fix": "b"}, 1)) == "a. b"
    finally:
        voice.close()


def test_what_is_not_a_move_on_the_board_is_said_in_its_words():
    assert Chess().spoken({"notation": "resign green", "seat": 1, "text": "Bowser's team resigns"}) == \
        "Bowser's team resigns"


def said_of(kind, game_id=1, **data):
    return Event(kind, data, game_id)


def item(kind, game_id=1, text="x"):
    return Announcement(text, kind, game_id, 0.0)


def test_what_the_game_overtook_is_not_said():
    w = Waiting()
    w.add(item(Kind.ILLEGAL))
    w.add(item(Kind.DOUBT))
    w.overtaken_by(said_of(Kind.RESTORED))  # the board put right: the alarm is over
    assert [a.kind for a in w.items] == [Kind.DOUBT]
    w.overtaken_by(said_of(Kind.MOVE))  # a move settles the doubt
    w.add(item(Kind.MOVE, text="first"))
    w.add(item(Kind.MOVE, text="second"))
    w.overtaken_by(said_of(Kind.UNDO))  # the last move taken back before it was said
    assert [a.text for a in w.items] == ["first"]
    w.overtaken_by(said_of(Kind.CORRECTED, retracted=["e4"]))
    assert w.items == []
    w.add(item(Kind.GAME_OVER))
    w.overtaken_by(said_of(Kind.GAME_STARTED, game_id=2))  # a new game: nothing of the old one
    assert w.items == [] and w.dropped == 5


def test_a_long_wait_keeps_the_newest():
    w = Waiting()
    for n in range(MAX_WAITING + 3):
        w.add(item(Kind.MOVE, text=str(n)))
    assert [a.text for a in w.items] == [str(n) for n in range(3, MAX_WAITING + 3)]


def test_each_move_and_the_result_are_said_once_as_a_wav(tmp_path):
    espeak()
    bus = Bus()
    said = []
    bus.subscribe(lambda e: said.append(e) if e.kind == Kind.SAID else None)
    referee = Referee(Journal(":memory:"), bus)
    voice = Voice(bus, tmp_path, player=[], game=lambda: referee.game)
    try:
        referee.new_game("chess")
        for move in ("e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"):
            referee.enter(move)
            assert wait(lambda: not voice.waiting.items)  # said before the next: none overtaken
        assert wait(lambda: len(said) == 8)
        texts = [e.data["text"] for e in said]
        assert texts[0] == "Coin, pawn, e4" and texts[-2] == "Luigi, queen, takes f7, checkmate"
        assert texts[-1] == "Game over: Bowser is checkmated"
        for e in said:
            with wave.open(str(tmp_path / "speech" / e.data["wav"])) as w:
                assert w.getnframes() > w.getframerate() // 4  # at least a quarter of a second of words
        bus.publish(Event(Kind.REPEAT, {"by": "page"}))
        assert wait(lambda: len(said) == 9)
        assert said[-1].data == {**said[-2].data, "repeat": True}
    finally:
        voice.close()


@pytest.mark.parametrize("kind, data, words", [
    (Kind.ILLEGAL, {"reason": "Yoshi cannot move from b1 to b4", "fix": "put Yoshi back on b1", "source": "camera"},
     "Yoshi cannot move from b1 to b4. put Yoshi back on b1"),
    (Kind.DOUBT, {"text": "I can't tell yet what moved: is it Nf3 or Nh3?", "candidates": []},
     "I can't tell yet what moved: is it Nf3 or Nh3?"),
    (Kind.CORRECTED, {"text": "corrected: Coin moves from e2 to e4, not Coin moves from e2 to e3", "retracted": []},
     "corrected: Coin moves from e2 to e4, not Coin moves from e2 to e3"),
])
def test_an_alarm_with_its_fix_a_doubt_and_a_correction_are_said(tmp_path, kind, data, words):
    espeak()
    bus = Bus()
    said = []
    bus.subscribe(lambda e: said.append(e.data["text"]) if e.kind == Kind.SAID else None)
    voice = Voice(bus, tmp_path, player=[])
    try:
        bus.publish(Event(kind, data, 1))
        assert wait(lambda: said)
        assert said == [words]
    finally:
        voice.close()


def test_without_espeak_the_voice_says_so_once_and_the_referee_goes_on(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # a machine without espeak-ng
    bus = Bus()
    notices = []
    bus.subscribe(lambda e: notices.append(e.data["text"]) if e.kind == Kind.NOTICE else None)
    referee = Referee(Journal(":memory:"), bus)
    voice = Voice(bus, tmp_path)
    referee.new_game("connect4")
    assert referee.enter("4").kind == Kind.MOVE
    assert not voice.speaking and len(notices) == 1 and "espeak-ng is not installed" in notices[0]


def test_the_die_button_pressed_when_no_roll_is_due_repeats_the_last_words(tmp_path, mock_pins):
    espeak()
    config = Config(path="(test)")
    config.game.name = "chess"
    config.gpio.factory = "mock"
    config.die_module.heartbeat_s = 0.2
    config.data.folder = str(tmp_path)
    config.voice.player = "off"
    service = Service(config, camera=False, die_module=SimulatedModule(roll_ms=400))
    said = []
    service.bus.subscribe(lambda e: said.append(e.data) if e.kind == Kind.SAID else None)
    service.start()
    try:
        assert wait(lambda: service.status()["die_module"] == "up")
        assert service.submit(Enter("Nf3")).ok
        assert wait(lambda: said)
        assert said[0]["text"] == "Yoshi, knight, f3"
        service.die_simulator.press()
        assert wait(lambda: len(said) == 2)
        assert said[1] == {**said[0], "repeat": True}
    finally:
        service.stop()


@pytest.mark.parametrize("text, key", [("[voice]\nvolume = 500\n", "[voice] volume"),
                                       ("[voice]\nspeed = \"fast\"\n", "[voice] speed"),
                                       ("[voice]\nplayer = \"\"\n", "[voice] player"),
                                       ("[voice]\nloud = true\n", "[voice] loud")])
def test_a_wrong_voice_setting_is_named(text, key):
    with pytest.raises(ConfigError, match=key.replace("[", r"\[").replace("]", r"\]")):
        parse(text, "referee.toml")
