"""The Pi's own pins (gpiozero): the status panel and the GPIO die.

Panel: a buzzer (TonalBuzzer for a passive piezo, Buzzer for an active one), three LEDs
(ready, illegal, busy) and the new-game button. It listens on the bus and plays a
distinct pattern per event. The bus calls listeners on the referee's thread, so a
pattern is only queued there; one player thread sounds it.

The alarm and the illegal LED are for the board: only an illegal move the camera saw
(event source "camera") leaves pieces where they must not be, so only that lights the
LED until the board is put right. A move typed on the page or the CLI that is refused
changes nothing on the board; it gets a short "refused" double beep and no LED.

GpioDie: the roll button, pip LEDs for two six-sided dice (four groups each) and an RGB
LED for the colour die; it borrows the panel's buzzer for its tick.

On a desk or in the demo, `[gpio] factory = "mock"` puts both on gpiozero's MockFactory
with PWM pins, where tests read back what the pins did.
"""
from __future__ import annotations

import queue
import random
import threading
import time

from gpiozero import LED, Button, Buzzer, Device, LEDBoard, RGBLED, TonalBuzzer
from gpiozero.tones import Tone

from firmware.die import BLINK_MS, PIP_GROUPS, RED, RED_YELLOW, STOP, YELLOW

from ..config import GpioSettings
from ..events import Bus, Event, Kind

# (frequency Hz or None for a rest, seconds). Distinct by rhythm as well as pitch, so an
# active buzzer (one pitch) still tells them apart: chirp one blip, refused two short
# beeps, alarm three pairs of beeps, fanfare three short and one long.
PATTERNS = {
    "tick": ((3520.0, 0.012),),
    "chirp": ((1318.5, 0.06), (1760.0, 0.06)),
    "refused": ((493.88, 0.07), (None, 0.07), (493.88, 0.07)),
    "alarm": ((880.0, 0.15), (None, 0.05), (440.0, 0.15), (None, 0.15)) * 3,
    "fanfare": ((523.25, 0.12), (None, 0.03), (659.26, 0.12), (None, 0.03), (783.99, 0.12),
                (None, 0.03), (1046.5, 0.35)),
}
ROLL_FRAMES = 6  # the GPIO die flickers through this many faces before the roll
FRAME_S = 0.06


def debounced(callback, seconds: float):
    """`callback` at most once per `seconds`. Buttons also get gpiozero's bounce_time, but
    not every pin factory implements it (the mock one does not), and a double count of a
    roll button is a wrong game, so the guard is here as well."""
    lock = threading.Lock()
    last = [float("-inf")]

    def pressed():
        now = time.monotonic()
        with lock:
            if now - last[0] < seconds:
                return
            last[0] = now
        callback()

    return pressed


def use_factory(settings: GpioSettings) -> None:
    """`factory = "mock"`: gpiozero's MockFactory with PWM pins (unless one is set)."""
    if settings.factory == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        if not isinstance(Device.pin_factory, MockFactory):
            Device.pin_factory = MockFactory(pin_class=MockPWMPin)


class Panel:
    def __init__(self, settings: GpioSettings, bus: Bus, on_new_game=None):
        use_factory(settings)
        self.settings = settings
        self.bus = bus
        if settings.buzzer_kind == "tonal":
            self.buzzer = TonalBuzzer(settings.buzzer, mid_tone=Tone("A5"), octaves=2)
        else:
            self.buzzer = Buzzer(settings.buzzer)
        self.led_ready = LED(settings.led_ready)
        self.led_illegal = LED(settings.led_illegal)
        self.led_busy = LED(settings.led_busy)
        self.button = Button(settings.new_game_button, bounce_time=settings.debounce_s)
        if on_new_game is not None:
            self.button.when_pressed = debounced(on_new_game, settings.debounce_s)
        self._busy = False
        self._patterns: queue.Queue = queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self._closed = threading.Event()
        self._player = threading.Thread(target=self._play_loop, name="buzzer", daemon=True)
        self._player.start()
        bus.subscribe(self.on_event)

    # --- what others call ------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        kind = event.kind
        if event.clears_alarm:
            self.led_illegal.off()
        if kind == Kind.MOVE:
            self.play("chirp")
        elif event.camera_alarm:
            self.led_illegal.on()
            self.play("alarm")
        elif kind == Kind.ILLEGAL:  # typed on the page or the CLI: the board is as it was
            self.play("refused")
        elif kind == Kind.RECORD and not event.data.get("kept"):  # the journal cannot keep the record
            self.play("alarm")
        elif kind == Kind.GAME_OVER:
            self.led_ready.off()
            self.play("fanfare")
        if kind == Kind.GAME_STARTED:
            self.led_ready.on()

    def play(self, pattern: str) -> None:
        """Queue a pattern by name; returns at once."""
        self._idle.clear()
        self._patterns.put(pattern)

    def ready(self, flag: bool) -> None:
        """Ready LED: a game is running (the service sets it on a resumed game too)."""
        self.led_ready.value = bool(flag)

    def busy(self, flag: bool) -> None:
        """Busy LED: the camera cannot read the board now (a hand or motion over it). The
        camera thread calls this on every status it reports, so it only touches the pin
        when the state changes."""
        flag = bool(flag)
        if flag != self._busy:
            self._busy = flag
            self.led_busy.value = flag

    def wait_quiet(self, timeout: float | None = None) -> bool:
        """Wait until every queued pattern has been played."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        self.bus.unsubscribe(self.on_event)
        self._closed.set()
        self._patterns.put(None)
        self._player.join(timeout=3)
        for device in (self.buzzer, self.led_ready, self.led_illegal, self.led_busy, self.button):
            device.close()

    # --- the player thread ------------------------------------------------------------
    def _play_loop(self) -> None:
        while not self._closed.is_set():
            name = self._patterns.get()
            if name is None:
                break
            for freq, seconds in PATTERNS[name]:
                self._sound(freq)
                if self._closed.wait(seconds):
                    break
            self._sound(None)
            if self._patterns.empty():
                self._idle.set()

    def _sound(self, freq: float | None) -> None:
        if isinstance(self.buzzer, TonalBuzzer):
            if freq is None:
                self.buzzer.stop()
            else:
                self.buzzer.play(Tone(frequency=freq))
        else:
            self.buzzer.value = freq is not None


class GpioDie:
    """The roll button and the faces on the Pi's own pins (`[gpio] die`)."""

    def __init__(self, settings: GpioSettings, on_press, panel: Panel | None = None):
        if settings.die not in ("pips", "rgb", "both"):
            raise ValueError(f"[gpio] die is {settings.die!r}; expected 'pips', 'rgb' or 'both' "
                             "for a GPIO die")
        use_factory(settings)
        s = settings
        self.panel = panel
        self.button = Button(s.roll_button, bounce_time=s.debounce_s)
        self.button.when_pressed = debounced(on_press, s.debounce_s)
        self.pips = self.rgb = None
        if s.die in ("pips", "both"):
            self.pips = (LEDBoard(s.die1_centre, s.die1_diagonal, s.die1_other_diagonal, s.die1_middle),
                         LEDBoard(s.die2_centre, s.die2_diagonal, s.die2_other_diagonal, s.die2_middle))
        if s.die in ("rgb", "both"):
            self.rgb = RGBLED(s.rgb_red, s.rgb_green, s.rgb_blue)
        self._rolls: queue.Queue = queue.Queue()
        self._idle = threading.Event()
        self._idle.set()
        self._closed = threading.Event()
        self._flicker = random.Random()  # the animation only; rolls come from dice.roll
        self._thread = threading.Thread(target=self._show_loop, name="gpio-die", daemon=True)
        self._thread.start()

    def show(self, roll) -> None:
        """Animate, then show the roll (controller.devices.dice.Roll); returns at once."""
        self._idle.clear()
        self._rolls.put(roll)

    def wait_shown(self, timeout: float | None = None) -> bool:
        return self._idle.wait(timeout)

    def close(self) -> None:
        self._closed.set()
        self._rolls.put(None)
        self._thread.join(timeout=3)
        for device in (self.button, self.rgb, *(self.pips or ())):
            if device is not None:
                device.close()

    def _show_loop(self) -> None:
        while not self._closed.is_set():
            roll = self._rolls.get()
            if roll is None:
                break
            codes = roll.codes
            colour = codes[0] >= RED
            for _ in range(ROLL_FRAMES):
                self._face(bytes([RED + self._flicker.randrange(4)]) if colour else
                           bytes([self._flicker.randint(1, 6), self._flicker.randint(1, 6)]))
                if self.panel:
                    self.panel.play("tick")
                if self._closed.wait(FRAME_S):
                    return
            self._face(codes)
            if self._rolls.empty():
                self._idle.set()

    def _face(self, codes: bytes) -> None:
        numbers = [c for c in codes if 1 <= c <= 6]
        if self.pips:
            for board, n in zip(self.pips, numbers + [0] * (2 - len(numbers))):
                board.value = PIP_GROUPS.get(n, (0, 0, 0, 0))
        if self.rgb:
            half = BLINK_MS / 1000
            colour = next((c for c in codes if c >= RED), None)
            if colour == RED:
                self.rgb.color = (1, 0, 0)
            elif colour == YELLOW:
                self.rgb.color = (1, 1, 0)
            elif colour == RED_YELLOW:
                self.rgb.blink(half, half, on_color=(1, 0, 0), off_color=(1, 1, 0))
            elif colour == STOP:
                self.rgb.blink(half, half, on_color=(1, 1, 1), off_color=(0, 0, 0))
            else:
                self.rgb.off()
