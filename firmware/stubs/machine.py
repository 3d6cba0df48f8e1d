"""A stand-in for MicroPython's `machine` module, for running the firmware off the board:
under CPython in the simulator (controller/demo_rig/module.py) and under the MicroPython unix
port in the firmware tests (on MICROPYPATH). Pins remember their level so a test or the
simulator can read what the firmware lit and drive what a player presses."""

PINS = {}

# A PWM's history keeps its most recent changes only: the demo's die module runs the
# firmware on this stub all season, and a melody per roll kept for good was the largest
# part of a season's memory growth (bench/soak.py, README "The soak").
HISTORY = 256


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, n, mode=IN, pull=None):
        self.n = n
        self.mode = mode
        self.level = 1 if pull == Pin.PULL_UP else 0
        PINS[n] = self

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = 1 if v else 0

    def drive(self, level):
        """What the outside world does to an input: a button pulls it to 0."""
        self.level = level


class PWM:
    def __init__(self, pin):
        self.pin = pin
        self.frequency = 0
        self.duty = 0
        self.history = []  # (frequency, duty) each time either changes, the last HISTORY

    def freq(self, f=None):
        if f is None:
            return self.frequency
        self.frequency = f
        self._changed()

    def duty_u16(self, d=None):
        if d is None:
            return self.duty
        if d != self.duty:
            self.duty = d
            self._changed()

    def _changed(self):
        self.history.append((self.frequency, self.duty))
        if len(self.history) > 2 * HISTORY:  # trimmed now and then, not at every change
            self.history = self.history[-HISTORY:]


class WDT:
    def __init__(self, timeout=5000):
        self.timeout = timeout
        self.fed = 0

    def feed(self):
        self.fed += 1


class Reset(Exception):
    """machine.reset() on the board restarts it; here the simulator catches this."""


def reset():
    raise Reset()


def unique_id():
    return b"\xe6\x61\x00\x00\x00\x00\x00\x01"
