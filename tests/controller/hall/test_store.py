"""The hall's own journal (controller/hall/store.py, a real SQLite file): each table's
events kept once and in order, conflicts kept beside, games and rounds, the alarm list,
and each game's record as its referee holds it."""
import pytest

from controller.events import CLEARS_ALARM, Kind
from controller.hall.store import HallStore


def ev(seq: int, kind: str, game_id: int = 1, prev: int | None = None, t: float = 100.0, **data) -> dict:
    return {"type": kind, "seq": seq, "prev": seq - 1 if prev is None else prev, "journal": "j1",
            "game_id": game_id, "t": t + seq, **data}


def started(seq: int = 1, game_id: int = 1, t: float = 100.0) -> dict:
    return ev(seq, "game_started", game_id, t=t, game="chess", variant="standard", settings={}, setup={})


@pytest.fixture
def store(tmp_path):
    s = HallStore(tmp_path / "hall.sqlite")
    yield s
    s.close()


def test_events_are_kept_once_in_order_and_a_gap_waits_for_the_table_to_send_again(store, tmp_path):
    assert store.add("t1", started()) == "kept"
    assert store.add("t1", ev(3, "move", notation="e5")) == "gap"  # seq 2 is missing
    assert store.add("t1", ev(2, "move", notation="e4")) == "kept"
    assert store.add("t1", ev(2, "move", notation="e4", prev=0)) == "duplicate"  # a resend
    assert store.add("t1", ev(3, "move", notation="e5")) == "kept"
    assert [e["seq"] for e in store.events("t1")] == [1, 2, 3]
    assert store.behind() == []
    store.close()
    again = HallStore(tmp_path / "hall.sqlite")  # a restarted hall goes on from its journal
    assert again.add("t1", ev(4, "move", notation="Nf3")) == "kept"
    assert [e["notation"] for e in again.events("t1", 1) if e["type"] == "move"] == ["e4", "e5", "Nf3"]
    again.close()


def test_a_second_event_with_a_kept_seq_is_a_conflict_kept_beside_never_instead(store):
    store.add("t1", started())
    store.add("t1", ev(2, "move", notation="e4"))
    assert store.add("t1", ev(2, "move", notation="h4")) == "conflict"
    assert [e["notation"] for e in store.events("t1") if e["type"] == "move"] == ["e4"]
    [conflict] = store.conflicts()
    assert (conflict["kept"]["notation"], conflict["refused"]["notation"]) == ("e4", "h4")
    assert store.conflicted_games() == {("t1", "j1", 1)}


def test_the_record_is_what_the_referee_holds_after_an_undo_and_a_camera_correction(store):
    for e in [started(), ev(2, "move", notation="e4", text="Coin moves from e2 to e4", seat=0),
              ev(3, "move", notation="h6", text="Green Shell moves from h7 to h6", seat=1),
              ev(4, "corrected", text="corrected: ..., not ...", retracted=["h6"]),
              ev(5, "move", notation="f5", text="Green Shell moves from f7 to f5", seat=1),
              ev(6, "move", notation="Nf3", seat=0), ev(7, "undo", notation="Nf3")]:
        assert store.add("t1", e) == "kept"
    record = store.record("t1", 1)
    assert record.notations == ["e4", "f5"]
    assert [p.text for p in record.plies] == ["Coin moves from e2 to e4", "Green Shell moves from f7 to f5"]
    assert record.game == "chess"


def test_games_end_and_an_undo_after_the_end_opens_one_again(store):
    store.add("t1", started())
    store.add("t1", ev(2, "move", notation="e4"))
    store.add("t1", ev(3, "game_over", reason="Mario's team resigns"))
    assert [g["result"] for g in store.games()] == ["Mario's team resigns"]
    store.add("t1", ev(4, "undo", notation="resign red"))
    assert [g["result"] for g in store.games()] == [None]


def test_an_alarm_is_put_right_by_each_kind_events_py_says_clears_one_and_by_no_other(store):
    kinds = sorted(CLEARS_ALARM) + [Kind.DOUBT, Kind.NOTICE]
    for n, kind in enumerate(kinds):
        table = f"t{n}"
        store.add(table, started())
        store.add(table, ev(2, "illegal", source="camera", reason="a piece where none can be"))
        store.add(table, ev(3, kind.value, **({"game": "chess", "variant": "standard"} if kind == Kind.GAME_STARTED
                                               else {"notation": "e4"} if kind == Kind.MOVE else {})))
    fixed = {a["table"]: a["fixed"] for a in store.alarms()}
    assert fixed == {f"t{n}": kind in CLEARS_ALARM for n, kind in enumerate(kinds)}


def test_tables_say_their_last_move_and_rounds_hold_the_games_started_in_them(store):
    store.mark_round(1, at=50.0)
    store.add("t1", started(t=0.0))  # journalled at t=1: before round 1
    store.add("t1", ev(2, "move", notation="e4", t=0.0))
    store.mark_round(2, at=200.0)
    store.add("t1", started(3, game_id=2, t=100.0))  # t=103: in round 1
    [table] = store.tables()
    assert table["last_move"] == 2.0 and table["last_seq"] == 3
    assert [g["game_id"] for g in store.games(1)] == [2]
    assert store.games(2) == []
    with pytest.raises(KeyError, match="round 3 was never marked"):
        store.games(3)
