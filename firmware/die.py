"""What the die module shows and plays: pip LEDs, an RGB LED or an SSD1306 OLED, a piezo.

Every class takes the `machine` module (or the simulator's stub of it) and pin numbers
from board.py, and none of them sleeps: the main loop calls tick(now) every few ms, so
the serial link is served while a face blinks or a tune plays.

Face codes are the bytes of a SHOW message (controller/games/data/dice.json gives each
face its code): 1-6 a numbered face, 16 red, 17 yellow, 18 red/yellow, 19 STOP.
"""
try:
    from firmware import protocol
except ImportError:  # on the board the modules sit side by side
    import protocol

RED, YELLOW, RED_YELLOW, STOP = 16, 17, 18, 19
COLOUR_NAMES = {RED: "RED", YELLOW: "YELLOW", RED_YELLOW: "RED/YEL", STOP: "STOP"}

# A six-sided die's seven pips wired as four groups: centre, one diagonal pair, the other
# diagonal pair, the middle pair. Each face lights these groups.
PIP_GROUPS = {1: (1, 0, 0, 0), 2: (0, 1, 0, 0), 3: (1, 1, 0, 0), 4: (0, 1, 1, 0),
              5: (1, 1, 1, 0), 6: (0, 1, 1, 1)}
# Pip centres on a 3x3 grid for the OLED, per group as above.
PIP_SPOTS = ((1, 1),), ((0, 0), (2, 2)), ((2, 0), (0, 2)), ((0, 1), (2, 1))

# Tone patterns: (frequency Hz, ms), 0 Hz is a rest.
TONES = {
    protocol.TONE_TICK: ((2000, 8),),
    protocol.TONE_CHIRP: ((1760, 60), (2349, 60)),
    protocol.TONE_ALARM: ((880, 150), (440, 150), (880, 150), (440, 150), (880, 150), (440, 150)),
    protocol.TONE_FANFARE: ((523, 120), (659, 120), (784, 120), (1047, 300)),
}

BLINK_MS = 250  # STOP blinks and red/yellow alternates at this half period


class Piezo:
    """A passive piezo on a PWM pin, played without blocking."""

    def __init__(self, machine, pin):
        self.pwm = machine.PWM(machine.Pin(pin))
        self.notes = []
        self.until = 0
        self.pwm.duty_u16(0)

    def play(self, pattern, now):
        self.notes = list(TONES.get(pattern, ()))
        self.until = now
        self.tick(now)

    def tick(self, now):
        if protocol.ticks_diff(now, self.until) < 0:
            return
        if not self.notes:
            self.pwm.duty_u16(0)
            return
        freq, ms = self.notes.pop(0)
        if freq:
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)
        else:
            self.pwm.duty_u16(0)
        self.until = protocol.ticks_add(now, ms)


class LedFace:
    """Faces on LEDs: four pip groups per die (up to two dice) and an RGB LED."""

    def __init__(self, machine, pips=(), rgb=()):
        out = machine.Pin.OUT
        self.pips = [[machine.Pin(n, out) for n in die] for die in pips]
        self.rgb = [machine.Pin(n, out) for n in rgb]
        self.colour = 0
        self.off()

    def off(self):
        for pin in self.rgb:
            pin.value(0)
        for die in self.pips:
            for pin in die:
                pin.value(0)
        self.colour = 0

    def show(self, codes):
        self.off()
        numbers = [c for c in codes if 1 <= c <= 6]
        for die, n in zip(self.pips, numbers):
            for pin, on in zip(die, PIP_GROUPS[n]):
                pin.value(on)
        colours = [c for c in codes if c in COLOUR_NAMES]
        self.colour = colours[0] if colours else 0
        self.tick(0)

    def tick(self, now):
        """Colours that move: red/yellow alternates, STOP blinks."""
        if not self.rgb or not self.colour:
            return
        phase = (now // BLINK_MS) % 2
        r, g, b = self.rgb
        if self.colour == RED:
            lit = (1, 0, 0)
        elif self.colour == YELLOW:
            lit = (1, 1, 0)
        elif self.colour == RED_YELLOW:
            lit = (1, 0, 0) if phase == 0 else (1, 1, 0)
        else:  # STOP: white, blinking
            lit = (1, 1, 1) if phase == 0 else (0, 0, 0)
        r.value(lit[0])
        g.value(lit[1])
        b.value(lit[2])


class OledFace:
    """Faces on a 128x64 SSD1306: pips drawn as squares, colour faces as words."""

    def __init__(self, display):
        self.display = display  # an ssd1306.SSD1306_I2C (micropython-lib) or alike
        self.codes = b""
        self.phase = 0
        self.off()

    def off(self):
        self.display.fill(0)
        self.display.show()
        self.codes = b""

    def show(self, codes):
        self.codes = bytes(codes)
        self.phase = 0
        self.draw(0)

    def draw(self, phase):
        d = self.display
        d.fill(0)
        numbers = [c for c in self.codes if 1 <= c <= 6]
        for i, n in enumerate(numbers[:2]):
            x0 = 4 + i * 64
            d.rect(x0, 4, 56, 56, 1)
            for group, on in enumerate(PIP_GROUPS[n]):
                if on:
                    for col, row in PIP_SPOTS[group]:
                        d.fill_rect(x0 + 8 + col * 16, 12 + row * 16, 8, 8, 1)
        for c in self.codes:
            if c in COLOUR_NAMES:
                word = COLOUR_NAMES[c]
                if c == RED_YELLOW:
                    word = "RED" if phase == 0 else "YELLOW"
                if c != STOP or phase == 0:
                    d.text(word, max(0, 64 - 4 * len(word)), 28, 1)
        d.show()

    def tick(self, now):
        if any(c in (RED_YELLOW, STOP) for c in self.codes):
            phase = (now // BLINK_MS) % 2
            if phase != self.phase:
                self.phase = phase
                self.draw(phase)


class Switch:
    """A debounced input to ground (internal pull-up). A button counts a press when it
    has been down for `debounce_ms`; a tilt switch counts a shake when it has flipped
    at least `shakes` times and then lain still for `settle_ms`."""

    def __init__(self, machine, pin, kind="button", debounce_ms=20, shakes=4, settle_ms=300):
        self.pin = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self.kind = kind
        self.debounce_ms = debounce_ms
        self.shakes = shakes
        self.settle_ms = settle_ms
        self.level = self.pin.value()
        self.changed = 0
        self.stable = self.level
        self.flips = 0

    def poll(self, now):
        """True once per press (button) or per shake (tilt)."""
        level = self.pin.value()
        if level != self.level:
            self.level = level
            self.changed = now
            self.flips += 1
            return False
        quiet = protocol.ticks_diff(now, self.changed)
        if self.kind == "tilt":
            if self.flips >= self.shakes and quiet >= self.settle_ms:
                self.flips = 0
                return True
            if quiet >= self.settle_ms:
                self.flips = 0
            return False
        if level != self.stable and quiet >= self.debounce_ms:
            self.stable = level
            return level == 0
        return False
