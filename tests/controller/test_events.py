"""Events and commands are typed values: an event's kind is one of the known kinds (the
journal and JSON keep the plain word), it reads back from its JSON, and what it means to
the listeners (a camera alarm, an alarm over) is asked of it in one place."""
import ast
import json
from pathlib import Path

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


def _kind_words(node) -> list[str]:
    """The event kinds a compared value spells as plain strings ("move", ("move", "undo"))."""
    kinds = {k.value for k in Kind}
    items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
    return [i.value for i in items if isinstance(i, ast.Constant) and i.value in kinds]


def _is_an_events_kind(node) -> bool:
    """`event.kind`, `e.kind`, `data["type"]`, `e.get("type")`: an event's kind."""
    if isinstance(node, ast.Attribute):
        return node.attr == "kind" and isinstance(node.value, ast.Name) and node.value.id in ("e", "ev", "event")
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "type"
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "type")


def test_no_module_but_events_py_compares_an_event_kind_as_a_string():
    """`Kind` everywhere: a kind spelled as a string in a comparison is a second list of
    kinds that drifts (a kind renamed, a kind added that should count)."""
    root = Path(__file__).resolve().parents[2]
    found = []
    for folder in ("controller", "web", "vision"):
        for path in sorted((root / folder).rglob("*.py")):
            if path == root / "controller" / "events.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Compare):
                    sides = [node.left, *node.comparators]
                    if any(_is_an_events_kind(s) for s in sides) and any(_kind_words(s) for s in sides):
                        found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []
