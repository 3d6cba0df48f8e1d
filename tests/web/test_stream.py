"""The page's event stream (web/stream.py): how many streams there may be, in all and
from one address; a client that stops reading is ended, not waited for; and what each
message says (the event as JSON, with whether it raises or clears the camera's alarm)."""
import json
import queue

from controller.events import Bus, Event, Kind
from web.stream import QUEUE_LIMIT, Streams, _CLOSE, event_stream


def test_streams_are_capped_in_all_and_per_address_and_come_back_when_released():
    bus, streams = Bus(), Streams(limit=4)
    assert streams.per_address == 2  # never more than half
    mine = [streams.open(bus, "10.0.0.1"), streams.open(bus, "10.0.0.1")]
    assert all(isinstance(q, queue.Queue) for q in mine)
    assert "from 10.0.0.1" in streams.open(bus, "10.0.0.1")
    others = [streams.open(bus, "10.0.0.2"), streams.open(bus, "10.0.0.3")]
    assert streams.open(bus, "10.0.0.4", "start the hall with more threads") == (
        "too many open pages (4); close one, or start the hall with more threads")
    streams.release(bus, mine[0])
    assert streams.count() == 3 and isinstance(streams.open(bus, "10.0.0.4"), queue.Queue)
    bus.publish(Event(Kind.NOTICE, {"text": "hello"}))
    assert others[0].get_nowait().data["text"] == "hello"
    assert mine[0].empty()  # a released stream hears nothing more


def test_a_client_that_lets_events_pile_up_is_ended():
    bus, streams = Bus(), Streams(limit=2)
    q = streams.open(bus, "10.0.0.1")
    for n in range(QUEUE_LIMIT + 1):
        bus.publish(Event(Kind.NOTICE, {"text": str(n)}))
    assert q.qsize() == 1 and q.get_nowait() is _CLOSE


def test_each_event_is_one_message_saying_what_it_means_to_the_page_then_a_heartbeat():
    q: queue.Queue = queue.Queue()
    q.put(Event(Kind.ILLEGAL, {"source": "camera", "reason": "two kings"}, 1, 5))
    q.put(Event(Kind.MOVE, {"notation": "e4"}, 1, 6))
    lines = event_stream(q, heartbeat_s=0.05)
    assert next(lines).startswith("retry: 2000")
    alarm, move = (json.loads(next(lines).removeprefix("data: ")) for _ in range(2))
    assert (alarm["type"], alarm["camera_alarm"], alarm["clears_alarm"]) == ("illegal", True, False)
    assert (move["type"], move["camera_alarm"], move["clears_alarm"], move["seq"]) == ("move", False, True, 6)
    assert next(lines) == ": keep-alive\n\n"  # nothing for a heartbeat: a comment, so a gone client is noticed
    q.put(_CLOSE)
    assert list(lines) == []


def test_a_stream_ends_when_its_client_is_gone_and_close_all_waits_for_every_one():
    q: queue.Queue = queue.Queue()
    assert list(event_stream(q, heartbeat_s=1.0, gone=lambda: True)) == ["retry: 2000\n: connected\n\n"]
    bus, streams = Bus(), Streams(limit=2)
    opened = streams.open(bus, "10.0.0.1")
    assert not streams.close_all(timeout=0.05)  # nobody released it yet
    assert opened.get_nowait() is _CLOSE
    streams.release(bus, opened)
    assert streams.close_all(timeout=0.05)
