"""Each message crossing the broker checked field by field (controller/hall/message.py):
what the hall and a table may rely on, and a message that is not one named by its field."""
import json

import pytest

from controller.hall import message as check


def event(**fields) -> bytes:
    return json.dumps({"type": "move", "seq": 3, "prev": 2, "journal": "a1b2c3", "game_id": 1, "t": 1.7e9,
                       "notation": "e4", **fields}).encode()


def test_an_event_as_a_table_sends_it_passes_with_what_it_carries():
    data = check.event(event())
    assert (data["type"], data["seq"], data["prev"], data["notation"]) == ("move", 3, 2, "e4")
    bare = check.event(json.dumps({"type": "undo", "seq": 1, "t": 5.0}).encode())
    assert (bare["prev"], bare["journal"]) == (0, "")  # an older table's: from the start, its only journal


@pytest.mark.parametrize("fields, field", [
    ({"type": "Move!"}, "type"), ({"seq": 0}, "seq"), ({"seq": 2 ** 60}, "seq"), ({"seq": True}, "seq"),
    ({"prev": 3}, "prev"), ({"journal": "../x"}, "journal"), ({"game_id": [1]}, "game_id"),
    ({"t": -1}, "t"), ({"t": "now"}, "t"),
    ({"type": "game_started", "game": 5}, "game"), ({"type": "game_started", "game": "chess", "setup": [1]}, "setup"),
    ({"type": "game_over", "reason": "x" * 5000}, "reason"),
])
def test_an_event_with_a_field_out_of_its_type_or_range_is_refused_naming_it(fields, field):
    with pytest.raises(check.BadMessage, match=f"'{field}'"):
        check.event(event(**fields))


def test_what_is_not_an_object_or_too_large_is_refused():
    with pytest.raises(check.BadMessage, match="not a JSON object"):
        check.event(b"[1, 2]")
    with pytest.raises(check.BadMessage):
        check.event(event(text="x" * check.MAX_EVENT_BYTES))
    with pytest.raises(check.BadMessage):
        check.state(b"{" * 40 + b"}" * 40)


def test_a_state_is_checked_where_the_hall_reads_it():
    data = check.state(json.dumps({"game": "chess", "moves": ["e4"], "record": [], "seq": 4}).encode())
    assert (data["journal"], data["seq"]) == ("", 4)
    for key, value in (("moves", "e4"), ("record", {"notation": "e4"}), ("seats", 2), ("prompt", []),
                       ("outcome", "won"), ("game_id", 0)):
        with pytest.raises(check.BadMessage, match=f"'{key}'"):
            check.state(json.dumps({key: value}).encode())


def test_online_and_a_resend_request():
    assert check.online(b"offline") == "offline"
    with pytest.raises(check.BadMessage):
        check.online(b"maybe")
    assert check.resend(b'{"after": 7, "journal": "j1"}', "j1") == 7
    assert check.resend(b'{"after": 7}', "j1") == 7  # no journal named: the one the table keeps now
    assert check.resend(b'{"after": 7, "journal": "j0"}', "j1") is None  # a journal it no longer keeps
    with pytest.raises(check.BadMessage, match="'after'"):
        check.resend(b'{"after": -1}', "j1")
