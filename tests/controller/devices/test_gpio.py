"""The status panel and the GPIO die on gpiozero's MockFactory (PWM pins): what a player
hears and sees, read back from the pins."""
import dataclasses
import threading
import time

import pytest

from controller.config import GpioSettings
from controller.devices import dice
from controller.devices.gpio import PATTERNS, GpioDie, Panel
from controller.events import Bus, Event
from firmware.die import PIP_GROUPS


def settings(**kw):
    return dataclasses.replace(GpioSettings(factory="mock"), **kw)


def listen(pin):
    """Record every frequency the buzzer puts on the mock PWM pin (MockPWMPin keeps only
    the last one), so a test hears a whole pattern however busy the machine is."""
    heard = []
    set_frequency = pin._set_frequency

    def record(value):
        set_frequency(value)
        if value:
            heard.append(round(value, 1))

    pin._set_frequency = record
    return heard


def tones_heard(panel, pin, trigger):
    """The distinct notes of the pattern `trigger` starts, in order (rests dropped)."""
    heard = listen(pin)
    trigger()
    assert panel.wait_quiet(5), "pattern never ended"
    return [f for i, f in enumerate(heard) if i == 0 or heard[i - 1] != f]


def notes(name):
    """A pattern's notes with repeats merged, as tones_heard reports them."""
    out = []
    for f, _ in PATTERNS[name]:
        if f and (not out or out[-1] != round(f, 1)):
            out.append(round(f, 1))
    return out


@pytest.fixture
def panel(mock_pins):
    bus = Bus()
    p = Panel(settings(), bus)
    yield p, bus, mock_pins
    p.close()


@pytest.mark.parametrize("kind,source,pattern", [
    ("move", "camera", "chirp"),
    ("illegal", "camera", "alarm"),  # the board is wrong: pieces to put back
    ("illegal", "page", "refused"),  # a typo on the page: the board is as it was
    ("illegal", "entry", "refused"),
    ("game_over", "camera", "fanfare"),
])
def test_each_event_plays_its_own_pattern_on_the_tonal_buzzer(panel, kind, source, pattern):
    p, bus, pins = panel
    event = Event(kind, {"reason": "x", "source": source})
    assert tones_heard(p, pins.pin(18), lambda: bus.publish(event)) == notes(pattern)
    assert not pins.pin(18).state  # silent afterwards


def test_patterns_differ_from_each_other():
    assert len({tuple(notes(n)) for n in ("chirp", "refused", "alarm", "fanfare")}) == 4


def test_publishing_does_not_wait_for_the_pattern(panel):
    p, bus, pins = panel
    bus.publish(Event("illegal", {"reason": "chip out of turn", "source": "camera"}))
    assert not p.wait_quiet(0)  # the alarm is still sounding when publish has returned


def test_illegal_led_stays_on_until_the_board_is_put_right(panel):
    p, bus, pins = panel
    led = pins.pin(24)
    bus.publish(Event("illegal", {"reason": "x", "source": "camera"}))
    assert led.state
    bus.publish(Event("notice", {"text": "hand over the board"}))  # an event that clears nothing
    assert led.state
    bus.publish(Event("restored", {}))
    assert not led.state
    for clearing in ("move", "undo", "game_started"):
        bus.publish(Event("illegal", {"reason": "x", "source": "camera"}))
        bus.publish(Event(clearing, {}))
        assert not led.state, clearing


@pytest.mark.parametrize("source", ["page", "entry", "die", None])
def test_a_refused_entry_does_not_light_the_illegal_led_or_clear_a_standing_alarm(panel, source):
    p, bus, pins = panel
    led = pins.pin(24)
    data = {"reason": "no such move"} if source is None else {"reason": "no such move", "source": source}
    bus.publish(Event("illegal", data))
    assert not led.state
    bus.publish(Event("illegal", {"reason": "x", "source": "camera"}))
    bus.publish(Event("illegal", data))
    assert led.state  # the board is still wrong


def test_ready_led_is_on_while_a_game_runs_and_busy_led_follows_busy(panel):
    p, bus, pins = panel
    assert not pins.pin(23).state
    bus.publish(Event("game_started", {}))
    assert pins.pin(23).state
    bus.publish(Event("game_over", {"reason": "four in a row"}))
    assert not pins.pin(23).state
    p.busy(True)
    assert pins.pin(25).state
    p.busy(False)
    assert not pins.pin(25).state


def test_busy_touches_the_pin_only_when_the_camera_status_changes(panel):
    """The camera thread calls busy() on every status it reports (a hand over the board,
    then "ok" again): the LED follows, and repeats cost no pin writes."""
    p, bus, pins = panel
    pin = pins.pin(25)
    writes = []
    set_state = pin._set_state
    pin._set_state = lambda value: (writes.append(value), set_state(value))
    statuses = ["hand"] * 50 + ["motion"] * 50 + ["ok"] * 50 + ["hand"] * 3
    seen = []
    camera = threading.Thread(target=lambda: [(p.busy(s != "ok"), seen.append(pin.state)) for s in statuses])
    camera.start()
    camera.join(5)
    assert seen == [s != "ok" for s in statuses]
    assert [bool(w) for w in writes] == [True, False, True]


def test_active_buzzer_beeps_the_patterns_rhythm(mock_pins):
    bus = Bus()
    p = Panel(settings(buzzer_kind="active"), bus)
    try:
        pin = mock_pins.pin(18)
        pin.clear_states()
        bus.publish(Event("illegal", {"reason": "x", "source": "camera"}))
        assert p.wait_quiet(5)
        beeps = sum(1 for s in pin.states if s.state)
        assert beeps == 6  # three pairs of beeps; a chirp is one, a fanfare four
        pin.clear_states()
        bus.publish(Event("illegal", {"reason": "x", "source": "page"}))
        assert p.wait_quiet(5)
        assert sum(1 for s in pin.states if s.state) == 2  # refused: two short beeps
    finally:
        p.close()


def test_new_game_button_calls_back_once_per_press(mock_pins):
    pressed = threading.Event()
    count = []
    p = Panel(settings(), Bus(), on_new_game=lambda: (count.append(1), pressed.set()))
    try:
        pin = mock_pins.pin(17)
        pin.drive_low()
        assert pressed.wait(2)
        pin.drive_high()
        time.sleep(0.1)
        assert count == [1]
    finally:
        p.close()


def test_gpio_die_shows_both_dice_on_pips_after_an_animation_with_ticks(mock_pins):
    bus = Bus()
    panel = Panel(settings(), bus)
    die = GpioDie(settings(die="both"), on_press=lambda: None, panel=panel)
    try:
        roll = dice.parse("monopoly", "roll 3 6")
        buzzer = mock_pins.pin(18)
        buzzer.clear_states()
        die.show(roll)
        assert die.wait_shown(5)
        s = settings()
        die1 = [mock_pins.pin(n).state for n in (s.die1_centre, s.die1_diagonal, s.die1_other_diagonal, s.die1_middle)]
        die2 = [mock_pins.pin(n).state for n in (s.die2_centre, s.die2_diagonal, s.die2_other_diagonal, s.die2_middle)]
        assert [bool(v) for v in die1] == [bool(v) for v in PIP_GROUPS[3]]
        assert [bool(v) for v in die2] == [bool(v) for v in PIP_GROUPS[6]]
        panel.wait_quiet(5)
        assert sum(1 for st in buzzer.states if st.state) >= 3  # the ticks
    finally:
        die.close()
        panel.close()


@pytest.mark.parametrize("notation,levels", [
    ("roll red", ({1}, {0}, {0})),
    ("roll yellow", ({1}, {1}, {0})),
    ("roll red/yellow", ({1}, {0, 1}, {0})),  # red stays on, green comes and goes
    ("roll stop", ({0, 1}, {0, 1}, {0, 1})),  # white, blinking
])
def test_gpio_die_colour_face_on_the_rgb_led(mock_pins, notation, levels):
    die = GpioDie(settings(die="rgb"), on_press=lambda: None)
    try:
        die.show(dice.parse("smb", notation))
        assert die.wait_shown(5)
        s = settings()
        pins = [mock_pins.pin(n) for n in (s.rgb_red, s.rgb_green, s.rgb_blue)]
        for pin in pins:  # what each colour does from the moment the face is shown
            pin.clear_states()
        time.sleep(0.6)  # more than two blink half-periods
        for pin, want in zip(pins, levels):
            assert {round(st.state) for st in pin.states} == want
    finally:
        die.close()


def test_gpio_die_roll_button_is_debounced(mock_pins):
    presses = []
    die = GpioDie(settings(die="pips", debounce_s=0.05), on_press=lambda: presses.append(1))
    try:
        pin = mock_pins.pin(27)
        for _ in range(5):  # contact bounce within a few ms
            pin.drive_low()
            pin.drive_high()
        time.sleep(0.1)
        assert len(presses) == 1
    finally:
        die.close()


def test_gpio_die_off_says_so():
    with pytest.raises(ValueError, match=r"\[gpio\] die is 'off'"):
        GpioDie(settings(), on_press=lambda: None)
