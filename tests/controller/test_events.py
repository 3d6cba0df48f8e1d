"""Events and commands are typed values: an event's kind is one of the known kinds (the
journal and JSON keep the plain word), it reads back from its JSON, and what it means to
the listeners (a camera alarm, an alarm over) is asked of it in one place."""
import json

import pytest

from controller.events import CLEARS_ALARM, Event, Kind
from controller.journal import Journal


def test_an_event_reads_back_from_its_json_and_the_journal_keeps_the_plain_word(tmp_path):
    journal = Journal(tmp_path / "j.sqlite")
    started = journal.start_game("connect4", "classic", Event("game_started", {"game": "connect4"}))
    moved = journal.append(Event(Kind.MOVE, {"notation": "4", "source": "camera"}, started.game_id))
    text = json.dumps(moved.to_json())
    assert '"type": "move"' in text
    again = Event.from_json(json.loads(text))
    assert again == moved and again.kind is Kind.MOVE
    # what the hall adds to an event (its place in the table's journal) is not its data
    assert Event.from_json({**moved.to_json(), "prev": 1, "journal": "abc"}).data == moved.data
    assert [e.kind for e in journal.events(started.game_id)] == [Kind.GAME_STARTED, Kind.MOVE]
    journal.close()


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        Event("teleport", {})
    with pytest.raises(ValueError):
        Event.from_json({"type": "teleport", "t": 1.0})


def test_which_events_raise_and_clear_the_camera_alarm():
    assert Event(Kind.ILLEGAL, {"source": "camera"}).camera_alarm
    assert not Event(Kind.ILLEGAL, {"source": "page"}).camera_alarm  # a typo: the board is as it was
    assert {k for k in Kind if Event(k, {}).clears_alarm} == set(CLEARS_ALARM) == {
        Kind.RESTORED, Kind.MOVE, Kind.UNDO, Kind.GAME_STARTED, Kind.POSITION_SET}
    # the page's script asks the event itself, from the stream's JSON
    page = Event(Kind.UNDO, {}).to_json(page=True)
    assert page["clears_alarm"] is True and page["camera_alarm"] is False
    assert "clears_alarm" not in Event(Kind.UNDO, {}).to_json()  # the journal's export is the event alone
