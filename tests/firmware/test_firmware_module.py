"""The die-module firmware's logic (firmware/main.py, die.py) on stub `machine` pins.

Runs under pytest and, unchanged, under the MicroPython unix port with
firmware/stubs/machine.py on MICROPYPATH (tests/firmware/test_micropython.py).
"""
import os

try:
    from firmware import board, die, main, protocol
except ImportError:  # MicroPython
    import board
    import die
    import main
    import protocol

from die_firmware import MAINT, STATE, boot, clean, hello


def press(fw, machine, now):
    pin = machine.PINS[fw.board["input_pin"]]
    pin.drive(0)
    fw.step(now)
    fw.step(now + 20)
    pin.drive(1)
    fw.step(now + 21)
    fw.step(now + 40)
    return now + 41


def kinds(msgs):
    return [m[0] for m in msgs]


def test_after_boot_only_info_goes_out_until_hello():
    clean()
    fw, io, machine = boot()
    fw.step(0)
    press(fw, machine, 1)
    msgs = io.messages()
    assert protocol.PRESS not in kinds(msgs) and kinds(msgs)[0] == protocol.INFO
    assert protocol.parse_info(msgs[0][2])["reply"] is False
    hello(fw, io, 100)
    msgs = io.messages()
    assert kinds(msgs)[0] == protocol.INFO and protocol.parse_info(msgs[0][2])["reply"]
    press_msgs = [m for m in msgs if m[0] == protocol.PRESS]
    assert press_msgs and protocol.parse_press(press_msgs[0][2])[0] == 1 and press_msgs[0][1] == 1


def test_a_press_stays_on_flash_until_acknowledged_and_survives_a_reboot():
    clean()
    fw, io, machine = boot()
    hello(fw, io, 0)
    press(fw, machine, 10)
    assert fw.store.pending == [1]
    fw2, io2, _ = boot(machine)  # reboot: RAM gone, the file kept
    assert fw2.store.pending == [1] and fw2.store.boots == 2
    hello(fw2, io2, 0)
    msgs = io2.messages()
    seq = [m for m in msgs if m[0] == protocol.PRESS][0][1]
    assert protocol.parse_press([m for m in msgs if m[0] == protocol.PRESS][0][2])[0] == 1
    io2.inbox.extend(protocol.encode(protocol.ACK, 0, bytes((seq,))))
    fw2.step(5)
    assert fw2.store.pending == [] and main.Store(STATE, os).pending == []
    clean()


def test_rolling_stops_when_no_face_comes_and_the_face_shows_when_it_does():
    clean()
    fw, io, machine = boot(roll_ms=400)
    pips = [machine.PINS[n] for group in board.BOARD["pips"] for n in group]
    now = press(fw, machine, 0)  # no HELLO yet: the Pi is not there
    frames = set()
    while now < main.ROLL_GIVE_UP_MS + 100:
        fw.step(now)
        frames.add(tuple(p.value() for p in pips))
        now += 10
    assert len(frames) > 2  # the faces flickered
    assert all(p.value() == 0 for p in pips)  # then went blank
    hello(fw, io, now)
    io.inbox.extend(protocol.encode(protocol.SHOW, 1, protocol.show_body(1, bytes((2, 5)))))
    fw.step(now + 5)
    assert [p.value() for p in pips] == list(die.PIP_GROUPS[2]) + list(die.PIP_GROUPS[5])
    clean()


def test_show_lights_the_pip_groups_of_both_dice():
    clean()
    fw, io, machine = boot()
    hello(fw, io, 0)
    io.inbox.extend(protocol.encode(protocol.SHOW, 1, protocol.show_body(1, bytes((3, 6)))))
    fw.step(5)
    pips = [[machine.PINS[n].value() for n in group] for group in board.BOARD["pips"]]
    assert pips == [list(die.PIP_GROUPS[3]), list(die.PIP_GROUPS[6])]
    assert kinds(io.messages()).count(protocol.ACK) == 1
    clean()


def test_colour_faces_on_the_rgb_led_alternate_and_blink():
    clean()
    fw, io, machine = boot()
    hello(fw, io, 0)
    rgb = [machine.PINS[n] for n in board.BOARD["rgb"]]

    def lit(now):
        fw.step(now)
        return tuple(p.value() for p in rgb)

    io.inbox.extend(protocol.encode(protocol.SHOW, 1, protocol.show_body(1, bytes((die.RED,)))))
    assert lit(10) == (1, 0, 0) and lit(10 + die.BLINK_MS) == (1, 0, 0)
    io.inbox.extend(protocol.encode(protocol.SHOW, 2, protocol.show_body(2, bytes((die.YELLOW,)))))
    assert lit(1000) == (1, 1, 0)
    io.inbox.extend(protocol.encode(protocol.SHOW, 3, protocol.show_body(3, bytes((die.RED_YELLOW,)))))
    assert {lit(2000), lit(2000 + die.BLINK_MS)} == {(1, 0, 0), (1, 1, 0)}
    io.inbox.extend(protocol.encode(protocol.SHOW, 4, protocol.show_body(4, bytes((die.STOP,)))))
    assert {lit(3000), lit(3000 + die.BLINK_MS)} == {(1, 1, 1), (0, 0, 0)}
    clean()


def test_the_same_show_or_tone_number_again_is_acted_on_once():
    clean()
    fw, io, machine = boot()
    hello(fw, io, 0)
    piezo = fw.piezo.pwm
    io.inbox.extend(protocol.encode(protocol.TONE, 1, protocol.tone_body(9, protocol.TONE_FANFARE)))
    fw.step(10)
    hello(fw, io, 20)  # a reconnect: sequence numbers start again, the number does not
    io.inbox.extend(protocol.encode(protocol.TONE, 1, protocol.tone_body(9, protocol.TONE_FANFARE)))
    for t in range(30, 2000, 5):
        fw.step(t)
    notes = [f for f, duty in piezo.history if duty]
    assert notes == [f for f, ms in die.TONES[protocol.TONE_FANFARE]]
    clean()


def test_tilt_switch_counts_one_roll_per_shake():
    clean()
    fw, io, machine = boot(input="tilt")
    hello(fw, io, 0)
    pin = machine.PINS[fw.board["input_pin"]]
    now = 10
    for i in range(8):  # a shake: the ball flips the switch back and forth
        pin.drive(i % 2)
        fw.step(now)
        now += 30
    for _ in range(20):  # then the die lies still
        fw.step(now)
        now += 30
    assert fw.store.presses == 1
    clean()


def test_maintenance_message_reboots_into_the_repl():
    clean()
    fw, io, machine = boot()
    hello(fw, io, 0)
    io.inbox.extend(protocol.encode(protocol.MAINTENANCE, 0, b"REPL"))
    try:
        fw.step(5)
        raise AssertionError("no reset")
    except machine.Reset:
        pass
    assert open(MAINT).read() == "1"
    clean()


class Screen:
    """Records what the firmware draws, with the calls an SSD1306 driver takes."""

    def __init__(self):
        self.calls = []

    def fill(self, c):
        self.calls = []

    def rect(self, x, y, w, h, c):
        self.calls.append(("rect",))

    def fill_rect(self, x, y, w, h, c):
        self.calls.append(("pip", x, y))

    def text(self, s, x, y, c):
        self.calls.append(("text", s))

    def show(self):
        pass


def test_oled_draws_pips_for_two_dice_and_words_for_colours():
    screen = Screen()
    face = die.OledFace(screen)
    face.show(bytes((3, 5)))
    assert len([c for c in screen.calls if c[0] == "pip"]) == 3 + 5
    assert len([c for c in screen.calls if c[0] == "rect"]) == 2
    face.show(bytes((die.STOP,)))
    shown = []
    for now in (0, die.BLINK_MS, 2 * die.BLINK_MS):
        face.tick(now)
        shown.append([c[1] for c in screen.calls if c[0] == "text"])
    assert shown == [["STOP"], [], ["STOP"]]  # STOP blinks
    face.show(bytes((die.RED_YELLOW,)))
    words = set()
    for now in (10000, 10000 + die.BLINK_MS):
        face.tick(now)
        words.add(tuple(c[1] for c in screen.calls if c[0] == "text"))
    assert words == {("RED",), ("YELLOW",)}



def test_short_hello_show_and_tone_bodies_are_dropped_and_counted_not_a_crash():
    """Issue 13: a frame with a valid CRC but a short body must not stop the firmware."""
    clean()
    fw, io, machine = boot()
    hello(fw, io, 0)
    before = fw.link.stats.damaged
    now = 100
    for kind in (protocol.HELLO, protocol.SHOW, protocol.TONE):
        for size in range(3):
            io.inbox.extend(protocol.encode(kind, 0, b"\x01" * size))
            fw.step(now)
            now += 10
    assert fw.link.stats.damaged == before + 9
    hello(fw, io, now)  # still serving
    assert fw.heartbeat_ms == 1000
    clean()

def test_a_season_of_tones_keeps_only_the_piezos_recent_history():
    """The demo's die module runs this firmware on the stub pins all season: the piezo's
    record of changes keeps the latest notes, not every note since the start."""
    clean()
    fw, io, machine = boot()
    hello(fw, io, 0)
    piezo = fw.piezo.pwm
    now = 10
    for n in range(1, 200):
        io.inbox.extend(protocol.encode(protocol.TONE, n, protocol.tone_body(n, protocol.TONE_FANFARE)))
        for t in range(now, now + 2000, 5):
            fw.step(t)
        now += 2000
    assert len(piezo.history) <= 2 * machine.HISTORY
    fanfare = [f for f, ms in die.TONES[protocol.TONE_FANFARE]]
    notes = [f for f, duty in piezo.history if duty]
    assert notes[-len(fanfare):] == fanfare and len(notes) > len(fanfare)
    clean()


if __name__ == "__main__":
    import sys
    from micro_runner import run_all
    sys.exit(1 if run_all(globals()) else 0)
