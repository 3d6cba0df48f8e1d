"""The die-module firmware (firmware/main.py) booted on stub `machine` pins with an
in-memory serial line, for its tests and the fuzz targets. Imported by
tests/firmware/test_firmware_module.py under pytest and, unchanged, under the MicroPython
unix port (tests/ is on its MICROPYPATH)."""
import os

try:
    from firmware import board, main, protocol
    from controller.demo_rig.module import stub_machine

    def fresh_machine():
        return stub_machine()
except ImportError:  # MicroPython
    import board
    import main
    import protocol

    def fresh_machine():
        import machine
        machine.PINS.clear()
        return machine

try:
    import tempfile
    DIR = tempfile.mkdtemp(prefix="fwtest-")
except ImportError:  # MicroPython runs these alone
    DIR = "/tmp"
STATE = DIR + "/test_die_state.txt"
MAINT = DIR + "/test_maintenance"


class Io:
    def __init__(self):
        self.inbox = bytearray()
        self.sent = []

    def read(self):
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data):
        self.sent.append(bytes(data))

    def wait(self, ms):
        pass

    def messages(self):
        """Every message the firmware sent, decoded."""
        out = []
        for chunk in self.sent:
            for frame in chunk.split(b"\x00"):
                if frame:
                    out.append(protocol.decode(frame))
        self.sent = []
        return out


def clean():
    for name in (STATE, STATE + ".new", MAINT):
        try:
            os.remove(name)
        except OSError:
            pass


def boot(machine=None, **settings):
    machine = machine or fresh_machine()
    cfg = dict(board.BOARD)
    cfg.update({"roll_ms": 0, "debounce_ms": 10})
    cfg.update(settings)
    io = Io()
    fw = main.Module(machine, io, cfg, main.Store(STATE, os), uid=b"TESTDIE1")
    fw.maintenance_file = MAINT
    return fw, io, machine


def hello(fw, io, now):
    io.inbox.extend(protocol.encode(protocol.HELLO, 0, protocol.hello_body(1000)))
    fw.step(now)
