"""The die-module protocol (firmware/protocol.py), as both ends use it.

This file runs under pytest and, unchanged, under the MicroPython unix port
(tests/firmware/test_micropython.py runs it there), so it uses plain asserts and no
imports beyond what MicroPython has.
"""
try:
    from firmware import protocol
except ImportError:  # MicroPython: firmware/ is on MICROPYPATH
    import protocol


class Lcg:
    """A seeded generator that gives the same numbers on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = seed

    def next(self):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return self.x

    def chance(self, p):
        return self.next() % 10000 < p * 10000


def test_cobs_round_trip_has_no_zero_bytes():
    rng = Lcg(1)
    samples = [b"", b"\x00", b"\x00\x00", b"\x11\x00\x22", bytes(range(256)), b"\x01" * 254, b"\x01" * 255,
               b"\x01" * 600]
    for _ in range(200):
        samples.append(bytes(rng.next() % 4 for _ in range(rng.next() % 70)))
    for data in samples:
        enc = protocol.cobs_encode(data)
        assert 0 not in enc
        assert protocol.cobs_decode(enc) == data


def test_frame_round_trip_and_every_single_byte_error_is_caught():
    frame = protocol.encode(protocol.SHOW, 7, protocol.show_body(513, b"\x03\x05"))
    assert frame[-1] == 0 and 0 not in frame[:-1]
    kind, seq, body = protocol.decode(frame[:-1])
    assert (kind, seq) == (protocol.SHOW, 7)
    assert protocol.parse_show(body) == (513, b"\x03\x05")
    for i in range(len(frame) - 1):
        for flip in (0x01, 0x80, 0xFF):
            bad = bytearray(frame[:-1])
            bad[i] ^= flip
            assert protocol.decode(bytes(bad)) is None, (i, flip)


def test_crc_is_zlib_crc32():
    """Both ends must agree: MicroPython's binascii.crc32 and CPython's zlib.crc32."""
    frame = protocol.encode(protocol.ACK, 0, b"\x05")
    raw = protocol.cobs_decode(frame[:-1])
    try:
        import zlib
    except ImportError:
        return
    assert int.from_bytes(raw[-4:], "little") == zlib.crc32(raw[:-4])


class Wire:
    """Two endpoints joined by a lossy, garbage-spraying wire."""

    def __init__(self, seed, loss=0.0, garbage=0.0):
        self.rng = Lcg(seed)
        self.loss = loss
        self.garbage = garbage
        self.got = {"a": [], "b": []}
        self.to = {"a": bytearray(), "b": bytearray()}
        self.a = protocol.Endpoint(lambda d: self.send("b", d), lambda k, b: self.got["a"].append((k, b)),
                                  queue_limit=256)
        self.b = protocol.Endpoint(lambda d: self.send("a", d), lambda k, b: self.got["b"].append((k, b)),
                                  queue_limit=256)

    def send(self, to, data):
        if self.rng.chance(self.garbage):
            self.to[to].extend(bytes(self.rng.next() % 256 for _ in range(1 + self.rng.next() % 9)))
        if self.rng.chance(self.loss):
            return
        data = bytearray(data)
        for i in range(len(data)):
            if self.rng.chance(self.loss / 10):
                data[i] = self.rng.next() % 256
        self.to[to].extend(data)

    def run(self, ms, step=5, start=0):
        now = start
        while now < start + ms:
            for name, ep in (("a", self.a), ("b", self.b)):
                if self.to[name]:
                    data, self.to[name] = bytes(self.to[name]), bytearray()
                    ep.feed(data, now)
                if ep.stalled:  # what both owners do after a bounded run of resends
                    ep.retry()
                ep.poll(now)
            now += step
        return now


def test_messages_arrive_once_and_in_order_through_loss_and_garbage():
    wire = Wire(seed=42, loss=0.1, garbage=0.1)
    for n in range(200):
        wire.a.enqueue(protocol.TONE, protocol.tone_body(n, 1))
    for n in range(50):
        wire.b.enqueue(protocol.PRESS, protocol.press_body(n, 1))
    wire.run(60000)
    assert [protocol.parse_tone(b)[0] for k, b in wire.got["b"]] == list(range(200))
    assert [protocol.parse_press(b)[0] for k, b in wire.got["a"]] == list(range(50))
    assert wire.a.stats.resent > 0 and wire.b.stats.damaged > 0 and wire.a.stats.duplicates + \
        wire.b.stats.duplicates > 0


def test_receiver_resynchronises_after_garbage_and_an_overlong_frame():
    got = []
    ep = protocol.Endpoint(lambda d: None, lambda k, b: got.append(k))
    good = protocol.encode(protocol.HEARTBEAT, 0, protocol.heartbeat_body(1, 0))
    ep.feed(b"\x13\x37garbage" + good, 0)  # garbage glued to the front of a frame: lost
    ep.feed(b"\x00" + good, 0)  # the next frame after a delimiter is read
    ep.feed(b"\x01" * 500, 0)  # far too long to be a frame
    ep.feed(b"\x00" + good + good, 0)
    assert got == [protocol.HEARTBEAT] * 3
    assert ep.stats.damaged == 2


def test_resend_is_bounded_then_waits_for_retry():
    sent = []
    ep = protocol.Endpoint(sent.append, lambda k, b: None)
    ep.enqueue(protocol.SHOW, protocol.show_body(1, b"\x10"))
    for now in range(0, 100000, 10):
        ep.poll(now)
    assert len(sent) == protocol.TRIES and ep.stalled and ep.stats.gave_up == 1
    ep.retry()
    ep.poll(200000)
    assert len(sent) == protocol.TRIES + 1


def test_hello_reset_restarts_sequence_numbers_and_resends_the_waiting_message():
    sent = []
    ep = protocol.Endpoint(sent.append, lambda k, b: None)
    for n in range(3):
        ep.enqueue(protocol.TONE, protocol.tone_body(n, 1))
    ep.poll(0)
    ep.feed(protocol.encode(protocol.ACK, 0, bytes((1,))), 5)
    ep.poll(5)
    assert protocol.decode(sent[-1][:-1])[1] == 2
    ep.reset()
    ep.poll(6)
    kind, seq, body = protocol.decode(sent[-1][:-1])
    assert seq == 1 and protocol.parse_tone(body)[0] == 1


def test_a_repeated_message_is_acknowledged_again_but_delivered_once():
    sent, got = [], []
    ep = protocol.Endpoint(sent.append, lambda k, b: got.append(b))
    frame = protocol.encode(protocol.PRESS, 9, protocol.press_body(4, 1))
    ep.feed(frame + frame, 0)
    assert len(got) == 1 and len(sent) == 2 and ep.stats.duplicates == 1


def test_not_accepting_means_no_acknowledgement_so_the_sender_keeps_it():
    sent, got = [], []
    ep = protocol.Endpoint(sent.append, lambda k, b: got.append(b))
    ep.accepting = False
    ep.feed(protocol.encode(protocol.PRESS, 1, protocol.press_body(4, 1)), 0)
    assert sent == [] and got == []


def test_a_full_queue_drops_its_oldest_unsent_message_and_counts_it():
    ep = protocol.Endpoint(lambda d: None, lambda k, b: None, queue_limit=3)
    for n in range(3):
        ep.enqueue(protocol.TONE, protocol.tone_body(n, 1))
    ep.poll(0)  # number 0 is on the wire now and must stay
    ep.enqueue(protocol.TONE, protocol.tone_body(3, 1))
    assert [protocol.parse_tone(b)[0] for k, b in ep.queue] == [0, 2, 3] and ep.dropped == 1


def test_info_and_hello_bodies_round_trip():
    body = protocol.info_body((1, 2), protocol.CAP_BUTTON | protocol.CAP_PIPS, b"ABCDEFGH", 77, 3, True)
    info = protocol.parse_info(body)
    assert info["version"] == "1.2" and info["uid"] == b"ABCDEFGH" and info["presses"] == 77
    assert info["boots"] == 3 and info["reply"] and info["caps"] == 5
    assert protocol.parse_hello(protocol.hello_body(1000)) == (protocol.PROTOCOL_VERSION, 1000)


def test_info_and_press_bodies_of_the_wrong_size_parse_to_none_not_an_error():
    """A frame can pass its CRC and still not be ours (a Pico with other firmware has the
    same USB id): the parser says None and the receiver drops it."""
    info = protocol.info_body((1, 0), 0, b"ABCDEFGH", 1, 1, True)
    press = protocol.press_body(9, protocol.SOURCE_BUTTON)
    for size in range(len(info) + 3):
        if size != len(info):
            assert protocol.parse_info((info + b"xyz")[:size]) is None, size
    for size in range(len(press) + 3):
        if size != len(press):
            assert protocol.parse_press((press + b"xyz")[:size]) is None, size
    assert protocol.parse_press(bytearray(press)) == (9, protocol.SOURCE_BUTTON)



def test_hello_show_and_tone_bodies_too_short_parse_to_none_not_an_error():
    """Issue 13: HELLO, SHOW and TONE parsers raised on short bodies (reachable with a
    valid CRC); now None, which the module drops."""
    rng = Lcg(13)
    for parse, full in ((protocol.parse_hello, protocol.hello_body(1000)),
                        (protocol.parse_show, protocol.show_body(7, b"\x03\x05")),
                        (protocol.parse_tone, protocol.tone_body(7, 2))):
        for size in range(len(full)):
            assert parse(full[:size]) is None, (parse, size)
        assert parse(full) is not None
        for _ in range(200):  # random bodies: a result or None, never an exception
            body = bytes(rng.next() & 0xFF for _ in range(rng.next() % 8))
            got = parse(body)
            assert got is None or isinstance(got, tuple)
    assert protocol.parse_show(protocol.show_body(7, b"\x03\x05")[:4]) is None  # count says 2, 1 given

if __name__ == "__main__":
    import sys
    from micro_runner import run_all
    sys.exit(1 if run_all(globals()) else 0)
