"""The die module's serial protocol, imported by both ends (the Pi and the RP2040).

Written in the subset of Python that MicroPython runs (no dataclasses, no typing, no
collections beyond lists), so the framing, checksums and resend rules cannot drift
apart between the host and the firmware. hardware.md documents every message.

Wire format. Each message is a frame:  COBS( type | seq | body | crc32 ) 0x00
  type   1 byte, the message kind (constants below)
  seq    1 byte, 1-255 for a message that must be acknowledged, 0 for one that is not
  body   0-48 bytes, little-endian fields per message kind
  crc32  4 bytes, little-endian CRC-32 (zlib's) of type|seq|body
COBS (Consistent Overhead Byte Stuffing) removes every 0x00 from the frame, so 0x00 only
ever ends a frame: a receiver that sees noise, a cut cable or a frame whose CRC fails
drops what it has and starts afresh at the next 0x00.

Reliability. A sequenced message is sent one at a time (stop and wait): the receiver
answers ACK(seq) and delivers it once (a repeat of the last seq is acknowledged again,
not delivered again); the sender resends after a timeout that follows the measured round
trip, at most TRIES times, and then stops until the next HELLO. HELLO (host) and INFO
(module) reset the sequence numbers on both sides; a message still waiting then goes out
again under a new seq. Because of that reset, the bodies of SHOW, TONE and PRESS carry
their own numbers, which survive reconnects: that is what makes a press count exactly
once and a face show once.
"""
import struct

try:
    from binascii import crc32
except ImportError:  # some CPython builds only have zlib's
    from zlib import crc32

try:
    from time import ticks_add, ticks_diff, ticks_ms
except ImportError:  # CPython: the same clock, without the wrap-around
    import time as _time

    def ticks_ms():
        return int(_time.monotonic() * 1000)

    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

PROTOCOL_VERSION = 1

# message kinds
HELLO = 0x01  # host -> module: (re)connect; body: protocol version u8, heartbeat ms u16
INFO = 0x02  # module -> host: who I am; reply to HELLO and sent at boot
HEARTBEAT = 0x03  # both ways, unsequenced; body: uptime ms u32, queued u8
ACK = 0x06  # both ways, unsequenced; body: the acknowledged seq u8
SHOW = 0x10  # host -> module: show a roll; body: number u16, count u8, face codes
TONE = 0x11  # host -> module: play a pattern; body: number u16, pattern u8
PRESS = 0x20  # module -> host: the roll button was pressed; body: press u32, source u8
MAINTENANCE = 0x30  # host -> module, unsequenced: reboot into the REPL; body b"REPL"

# INFO capability bits
CAP_BUTTON = 0x01
CAP_TILT = 0x02
CAP_PIPS = 0x04
CAP_RGB = 0x08
CAP_OLED = 0x10
CAP_PIEZO = 0x20

# TONE patterns (the firmware's tone table, die.TONES, plays them)
TONE_TICK = 1
TONE_CHIRP = 2
TONE_ALARM = 3
TONE_FANFARE = 4

# PRESS sources
SOURCE_BUTTON = 1
SOURCE_TILT = 2

MAX_BODY = 48
MAX_FRAME = MAX_BODY + 6 + 2  # type, seq, crc32, COBS overhead
TRIES = 12  # sends of one sequenced message before the sender gives up until HELLO
MIN_RTO_MS = 20
MAX_RTO_MS = 300


def cobs_encode(data):
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """The decoded bytes, or None when `data` is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        out.extend(data[i + 1:end])
        i = end
        if code < 255 and i < n:
            out.append(0)
    return bytes(out)


def encode(kind, seq, body=b""):
    """One frame on the wire, delimiter included."""
    if len(body) > MAX_BODY:
        raise ValueError("body too long")
    raw = bytes((kind, seq)) + bytes(body)
    return cobs_encode(raw + struct.pack("<I", crc32(raw) & 0xFFFFFFFF)) + b"\x00"


def decode(frame):
    """(kind, seq, body) from one frame without its delimiter, or None if it is damaged."""
    raw = cobs_decode(frame)
    if raw is None or len(raw) < 6:
        return None
    if struct.unpack("<I", raw[-4:])[0] != crc32(raw[:-4]) & 0xFFFFFFFF:
        return None
    return raw[0], raw[1], raw[2:-4]


class Stats:
    """What a link has seen; the bench and selftest print these."""

    def __init__(self):
        self.frames_in = 0
        self.frames_out = 0
        self.damaged = 0  # CRC or COBS failures and overlong frames
        self.resent = 0
        self.duplicates = 0  # sequenced messages received again (ack lost) and not delivered
        self.gave_up = 0

    def as_dict(self):
        return {"frames_in": self.frames_in, "frames_out": self.frames_out, "damaged": self.damaged,
                "resent": self.resent, "duplicates": self.duplicates, "gave_up": self.gave_up}


class Endpoint:
    """One end of the link: framing, acknowledgement, resend and duplicate suppression.

    It does no I/O and reads no clock of its own: `write(bytes)` sends, `deliver(kind,
    body)` receives, and the owner passes the time in ms to feed() and poll(), so the
    same object runs in the firmware's loop, in the host's thread and in tests.
    """

    def __init__(self, write, deliver, tries=TRIES, queue_limit=32):
        self.write = write
        self.deliver = deliver
        self.tries = tries
        self.queue_limit = queue_limit
        self.stats = Stats()
        self.queue = []  # [kind, body] waiting to be sent in order; the head may be in flight
        self.dropped = 0  # queued messages dropped because the queue was full
        self._buf = bytearray()
        self._skipping = False  # an overlong frame: ignore bytes until the next 0x00
        self.srtt = None
        self.head_sent = False  # the queue's head has gone out at least once (kept by reset)
        self.on_acked = None  # called with (kind, body) when a queued message is acknowledged
        self.accepting = True  # False: sequenced messages are neither acknowledged nor delivered
        self.reset()

    def reset(self):
        """Sequence numbers start again (HELLO / INFO); a message in flight goes again."""
        self.tx_seq = 0
        self.rx_seq = None
        self.in_flight = None  # seq of the queue's head while it waits for its ACK
        self.sent_at = 0
        self.sends = 0
        self.stalled = False

    # --- sending --------------------------------------------------------------------
    def send(self, kind, body=b""):
        """An unsequenced message, sent now and never resent."""
        self.write(encode(kind, 0, body))
        self.stats.frames_out += 1

    def enqueue(self, kind, body=b""):
        """A message delivered exactly once, in order, when the link allows."""
        if len(self.queue) >= self.queue_limit:
            self.queue.pop(1 if self.head_sent else 0)
            self.dropped += 1
        self.queue.append([kind, bytes(body)])

    def rto(self):
        if self.srtt is None:
            return 100
        return min(MAX_RTO_MS, max(MIN_RTO_MS, 3 * self.srtt))

    def poll(self, now):
        """Send the next queued message or resend the one in flight; call it often."""
        if self.stalled or not self.queue:
            return
        if self.in_flight is None:
            self.tx_seq = self.tx_seq % 255 + 1
            self.in_flight = self.tx_seq
            self.sends = 0
        elif ticks_diff(now, self.sent_at) < self.rto():
            return
        elif self.sends >= self.tries:
            self.stalled = True
            self.stats.gave_up += 1
            return
        else:
            self.stats.resent += 1
        kind, body = self.queue[0]
        self.head_sent = True
        self.write(encode(kind, self.in_flight, body))
        self.stats.frames_out += 1
        self.sends += 1
        self.sent_at = now

    def retry(self):
        """After giving up: try the message in flight again, TRIES more times."""
        self.stalled = False
        self.sends = 0

    def drop_head(self):
        """Forget the message at the head of the queue (sent or not); returns it."""
        self.in_flight = None
        self.head_sent = False
        return self.queue.pop(0)

    # --- receiving ------------------------------------------------------------------
    def feed(self, data, now):
        """Bytes from the wire: complete frames are checked, acknowledged and delivered."""
        for b in data:
            if b != 0:
                if self._skipping:
                    continue
                if len(self._buf) >= MAX_FRAME:
                    self._buf = bytearray()
                    self._skipping = True
                    self.stats.damaged += 1
                    continue
                self._buf.append(b)
                continue
            frame, self._buf, self._skipping = self._buf, bytearray(), False
            if frame:
                self._frame(frame, now)

    def _frame(self, frame, now):
        msg = decode(frame)
        if msg is None:
            self.stats.damaged += 1
            return
        kind, seq, body = msg
        self.stats.frames_in += 1
        if kind == ACK:
            if len(body) == 1 and self.in_flight is not None and body[0] == self.in_flight:
                if self.sends == 1:  # Karn: time only messages that went once
                    rtt = ticks_diff(now, self.sent_at)
                    self.srtt = rtt if self.srtt is None else (7 * self.srtt + rtt) // 8
                kind, body = self.queue.pop(0)
                self.in_flight = None
                self.head_sent = False
                if self.on_acked:
                    self.on_acked(kind, body)
            return
        if seq:
            if not self.accepting:  # not connected yet: the sender will send it again
                return
            self.send(ACK, bytes((seq,)))
            if seq == self.rx_seq:
                self.stats.duplicates += 1
                return
            self.rx_seq = seq
        self.deliver(kind, body)


# --- message bodies -------------------------------------------------------------------
def hello_body(heartbeat_ms):
    return struct.pack("<BH", PROTOCOL_VERSION, heartbeat_ms)


def parse_hello(body):
    """(protocol version, heartbeat ms), or None when the body is too short (a frame can
    pass its CRC and still not be ours): the receiver drops it."""
    if len(body) < 3:
        return None
    return struct.unpack("<BH", bytes(body[:3]))


def info_body(version, caps, uid, presses, boots, reply):
    """INFO: protocol u8, firmware major u8, minor u8, caps u8, uid 8 bytes, last press u32,
    boots u16, reply u8 (1: answers a HELLO, 0: sent unasked after boot)."""
    major, minor = version
    return struct.pack("<BBBB", PROTOCOL_VERSION, major, minor, caps) + bytes(uid[:8]) + \
        bytes(8 - len(uid[:8])) + struct.pack("<IHB", presses, boots & 0xFFFF, 1 if reply else 0)


INFO_SIZE = 19
PRESS_SIZE = 5


def parse_info(body):
    """The INFO fields as a dict, or None when the body is not INFO_SIZE bytes long (a
    frame with a good CRC from firmware that lays INFO out differently)."""
    if len(body) != INFO_SIZE:
        return None
    proto, major, minor, caps = struct.unpack("<BBBB", body[:4])
    presses, boots, reply = struct.unpack("<IHB", body[12:19])
    return {"protocol": proto, "version": "%d.%d" % (major, minor), "caps": caps,
            "uid": bytes(body[4:12]), "presses": presses, "boots": boots, "reply": bool(reply)}


def show_body(number, codes):
    return struct.pack("<HB", number & 0xFFFF, len(codes)) + bytes(codes)


def parse_show(body):
    """(number, face codes), or None when the body is shorter than its count says."""
    if len(body) < 3:
        return None
    number, count = struct.unpack("<HB", bytes(body[:3]))
    if len(body) < 3 + count:
        return None
    return number, bytes(body[3:3 + count])


def tone_body(number, pattern):
    return struct.pack("<HB", number & 0xFFFF, pattern)


def parse_tone(body):
    """(number, pattern), or None when the body is too short."""
    if len(body) < 3:
        return None
    return struct.unpack("<HB", bytes(body[:3]))


def press_body(number, source):
    return struct.pack("<IB", number, source)


def parse_press(body):
    """(press number, source), or None when the body is not PRESS_SIZE bytes long."""
    if len(body) != PRESS_SIZE:
        return None
    return struct.unpack("<IB", body)


def heartbeat_body(uptime_ms, queued):
    return struct.pack("<IB", uptime_ms & 0xFFFFFFFF, min(queued, 255))
