"""The chess clock the camera runs (controller/clock.py; the controls as written:
tests/controller/games/test_time_control.py): the move seen is the clock pressed at the moment the
hand left, late decisions and corrections cost nothing, an alarm stops the clocks, a flag
fall is a result by FIDE 6.9, and a restart charges nobody. The table's time is the
test's own (the referee's clock is handed it): nothing sleeps."""
import json
import subprocess
import sys
from pathlib import Path

import chess
import pytest

from controller.beliefs import Line
from controller.clock import Clock, shown
from controller.events import Bus
from controller.games import load_game
from controller.games.time_control import TimeControl
from controller.journal import Journal
from controller.pgn import export_pgn
from controller.referee import Referee
from support import Camera, misread_then_corrected, referee_on

ROOT = Path(__file__).resolve().parents[2]


class Time:
    """The table's time, set by the test."""

    def __init__(self, t: float = 0.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def on_the_clock(control: str, journal=None, fen=None):
    referee, events = referee_on(journal or Journal(":memory:"))
    now = Time()
    referee.clock.now = now
    referee.new_game("chess", None, {"clock": control}, setup={"fen": fen} if fen else None)
    return referee, now, events


def under_the_camera(control: str = "5+0"):
    """A chess game on `control` whose clock keeps the views' time: (referee, events,
    the Camera showing it boards)."""
    referee, events = referee_on(Journal(":memory:"))
    camera = Camera(referee)
    referee.clock.now = lambda: camera.t
    referee.new_game("chess", None, {"clock": control})
    return referee, events, camera


def test_the_warning_and_the_control_are_in_the_table_s_language():
    bus = Bus()
    referee = Referee(Journal(":memory:"), bus, lang="fr")
    now = Time()
    referee.clock.now = now
    referee.new_game("chess", None, {"clock": "1+2"})
    play(referee, now, [(0.0, "e4")])
    assert referee.snapshot()["clock"]["words"] == "1 min pour la partie, 2 s ajoutées après chaque coup"
    now.t = 52.0
    warning = referee.clock.tick(referee)
    assert warning[0].data["text"] == "Équipe Bowser : plus que 8 secondes à la pendule"
    assert TimeControl.parse("40/90, 30").words(load_game("chess", lang="de")._) == \
        "90 min für 40 Züge; dann 30 min für die Partie"


def play(referee, now, timed_moves):
    """Moves typed at the given times: [(t, san), ...]; the move events."""
    out = []
    for t, san in timed_moves:
        now.t = t
        event = referee.enter(san)
        assert event.kind == "move", event.data
        out.append(event)
    return out


def test_referee_toml_sets_the_clock_and_names_a_bad_one():
    from controller.config import ConfigError, parse

    assert parse('[game]\nname = "chess"\nrulings = { clock = "3+2" }\n').game.rulings == {"clock": "3+2"}
    with pytest.raises(ConfigError, match=r"referee.toml: \[game\] rulings: time control '3 min': '3 min' is not"):
        parse('[game]\nname = "chess"\nrulings = { clock = "3 min" }\n')


def test_sudden_death_nobody_runs_before_the_first_move_then_the_hand_stops_each_side():
    referee, now, _ = on_the_clock("5+0")
    now.t = 40.0  # the players sit down and set up: no clock runs
    assert referee.snapshot()["clock"]["running"] is None and referee.clock.left() == [300, 300]
    e4, e5, nf3 = play(referee, now, [(50.0, "e4"), (62.5, "e5"), (70.0, "Nf3")])
    assert (e4.data["clock"], e4.data["clocks"]) == (300.0, [300.0, 300.0])
    assert (e5.data["clock"], e5.data["clocks"]) == (287.5, [300.0, 287.5])  # Black's from White's first move
    assert nf3.data["clocks"] == [292.5, 287.5]
    now.t = 80.0
    snap = referee.snapshot()["clock"]
    assert snap["running"] == 1 and snap["left"] == [292.5, 277.5]


def test_a_fischer_increment_is_added_from_the_first_move():
    referee, now, _ = on_the_clock("3+2")
    e4, e5, nf3 = play(referee, now, [(1.0, "e4"), (11.0, "e5"), (12.0, "Nf3")])
    assert e4.data["clock"] == 182.0 and e5.data["clock"] == 172.0 and nf3.data["clock"] == 183.0


def test_a_bronstein_delay_gives_back_the_time_used_up_to_the_delay():
    referee, now, _ = on_the_clock("5 b3")
    _, e5, nf3, nc6 = play(referee, now, [(0.0, "e4"), (2.0, "e5"), (12.0, "Nf3"), (14.5, "Nc6")])  # Black: 2 s, then 2.5 s; White 10 s
    assert e5.data["clock"] == 300.0 and nf3.data["clock"] == 293.0 and nc6.data["clock"] == 300.0


def test_a_simple_delay_waits_before_the_clock_counts_and_before_the_flag_falls():
    referee, now, _ = on_the_clock("0:10 d3")
    play(referee, now, [(0.0, "e4")])
    now.t = 2.5
    assert referee.clock.left()[1] == 10.0  # inside the delay: nothing counted yet
    now.t = 5.0
    assert referee.clock.left()[1] == 8.0
    assert referee.clock.due() == pytest.approx(13.0 - 10.0 / 3)  # the low-time warning: a third of a short control
    now.t = 12.9
    assert [e.kind for e in referee.clock.tick(referee)] == ["clock"]  # warned, not flagged: the delay
    now.t = 13.1
    flag = referee.clock.tick(referee)
    assert flag[0].data["notation"] == "flag green" and referee.snapshot()["outcome"]["winner"] == 0


def test_periods_add_their_time_when_the_last_move_of_a_period_is_made():
    """2/1, 1+0: two moves in a minute, then a minute for the rest (FIDE 6.9)."""
    referee, now, _ = on_the_clock("2/1, 1+0")
    moves = play(referee, now, [(0.0, "e4"), (10.0, "e5"), (20.0, "Nf3"), (30.0, "Nc6"), (35.0, "Bc4")])
    assert [m.data["clock"] for m in moves] == [60.0, 50.0, 110.0, 100.0, 105.0]


def test_time_odds_give_each_side_its_own_control():
    referee, now, _ = on_the_clock("1+0 | 3+0")
    assert referee.snapshot()["clock"]["left"] == [60.0, 180.0]
    e4, e5 = play(referee, now, [(0.0, "e4"), (30.0, "e5")])
    assert e5.data["clocks"] == [60.0, 150.0]
    assert "red: 1 min for the game; green: 3 min for the game" in referee.snapshot()["clock"]["words"]


def test_a_draw_offer_or_a_picked_promotion_presses_nothing_and_undo_gives_the_time_back():
    referee, now, _ = on_the_clock("5+0")
    play(referee, now, [(0.0, "e4"), (10.0, "e5")])
    now.t = 15.0
    offer = referee.enter("offer draw")
    assert "clock" not in offer.data and referee.snapshot()["clock"]["running"] == 0
    nf3 = play(referee, now, [(40.0, "Nf3")])[0]
    assert nf3.data["clocks"] == [270.0, 290.0]
    now.t = 100.0
    referee.undo()  # Nf3 undone: the clocks as after the move before it, White's running again from the undo
    now.t = 101.0
    assert referee.clock.left() == [299.0, 290.0]


def test_a_ply_decided_late_stops_the_clock_when_the_hand_left():
    """The camera's views: the hand leaves White's e4 at 2.1 s, Black's e5 at 4.1 s; a
    view read four times a second decides each a moment later. A quick reply (e4 and
    e5 seen in one view) stops both at the one hand time the camera knows."""
    referee, events, camera = under_the_camera()
    board = chess.Board()
    camera.show(board)
    board.push_san("e4")
    camera.show(board, hold=5.0)  # hand left at 2.1, decided 0.15 s later
    board.push_san("e5")
    camera.show(board)  # Black's hand left at 7.1
    board.push_san("Nf3")
    board.push_san("Nc6")
    camera.show(board)  # both in one view: the hands left by 9.1
    moves = [e for e in events if e.kind == "move"]
    assert [m.data["notation"] for m in moves] == ["e4", "e5", "Nf3", "Nc6"]
    assert all(m.data["decided_after_s"] > 0 for m in moves)
    assert [m.data["clocks"] for m in moves] == [[300, 300], [300, 295], [298, 295], [298, 295]]


def test_a_late_decision_costs_nothing():
    """A board that the referee could settle only from a view 20 s after the hand left
    (the table was cleared of hands late): the mover is charged to the hand's time."""
    from vision.view import BoardView

    referee, now, _ = on_the_clock("5+0")
    play(referee, now, [(0.0, "e4")])
    after = referee.game.apply(referee.sure, referee.game.parse(referee.sure, "e5"))
    cells = {c: (lab, 0.95) for c, lab in referee.game.board(after).items()}
    now.t = 30.0
    event = referee.observe(BoardView(cells, t=30.0, moved_at=8.0))
    assert event.data["notation"] == "e5" and event.data["decided_after_s"] == 22.0
    assert event.data["clocks"] == [300.0, 292.0]


def test_a_ply_taken_back_by_later_views_puts_the_clocks_right():
    """h6 recorded from a misread (hand at 4.1), then f5 and Nf3 shown (hands left by
    8.1), then more moves (as in test_beliefs): the correction takes h6's press back;
    Black is charged from e4 (2.1) to the view that showed f5 (8.1), White nothing for Nf3
    (the camera saw both in one view)."""
    referee, events, camera = under_the_camera()

    def h6_pressed():  # h6's press: White's clock ran
        assert referee.clock.left()[1] == 298.0 and referee.clock.left(7.0)[0] < 300.0

    game = misread_then_corrected(camera, h6_pressed)
    referee.settle()
    assert referee.history == game
    moves = {e.data["notation"]: e.data for e in events if e.kind == "move"}
    assert [e.data["retracted"] for e in events if e.kind == "corrected"] == [["h6"]]
    assert moves["f5"]["clocks"] == [300.0, 294.0] and moves["Nf3"]["clocks"] == [300.0, 294.0]


def test_an_alarm_stops_both_clocks_until_the_board_is_right():
    referee, events, camera = under_the_camera()
    board = chess.Board()
    camera.show(board)
    board.push_san("e4")
    camera.show(board)  # Black's clock runs from 2.1
    wrong = board.copy()
    wrong.remove_piece_at(chess.B8)
    wrong.set_piece_at(chess.B6, chess.Piece(chess.KNIGHT, chess.BLACK))  # Birdo cannot go there
    camera.show(wrong, hold=3.0)
    alarm = [e for e in events if e.kind == "illegal"]
    assert len(alarm) == 1 and referee.snapshot()["clock"]["running"] is None
    stopped = referee.clock.left()[1]
    camera.t += 100.0  # the players argue: nobody's time
    assert referee.clock.left()[1] == stopped
    restored_at = camera.t + 0.25  # the first view of the board put right
    camera.show(board)  # put right: "restored", Black's clock runs again
    assert [e.kind for e in events][-1] == "restored" and referee.snapshot()["clock"]["running"] == 1
    hand = camera.t + 0.1
    board.push_san("e5")
    camera.show(board)
    e5 = [e for e in events if e.kind == "move"][-1]
    assert e5.data["clock"] == pytest.approx(stopped - (hand - restored_at), abs=0.06)


@pytest.mark.parametrize("fen, winner, words", [
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 0, "Bowser's team's flag fell: Mario's team wins on time"),
    ("4k3/8/8/8/8/8/8/q3K3 w - - 0 1", None, "draw: Bowser's team's flag fell, but Mario's team cannot checkmate"),
    ("q3k3/8/8/8/8/8/8/N3K3 w - - 0 1", None, "draw: Bowser's team's flag fell"),  # a knight cannot mate a lone queen
    ("4k3/4p3/8/8/8/8/8/N3K3 w - - 0 1", 0, "Mario's team wins on time"),  # but can when a pawn may block
])
def test_a_flag_fall_loses_unless_the_opponent_cannot_mate(fen, winner, words, tmp_path):
    journal = Journal(str(tmp_path / "games.sqlite"))
    referee, now, events = on_the_clock("1+0", journal, fen)
    play(referee, now, [(0.0, "Kd2")])
    now.t = 45.0
    assert referee.clock.tick(referee) == []  # 15 s left: not yet low (a tenth of the minute, at least 10 s)
    now.t = 51.0
    warning = referee.clock.tick(referee)
    assert [e.kind for e in warning] == ["clock"] and warning[0].data["text"] == "Bowser's team: 9 seconds left on the clock"
    assert referee.clock.tick(referee) == []  # said once
    now.t = 60.5
    flag = referee.clock.tick(referee)
    over = [e for e in events if e.kind == "game_over"]
    assert flag[0].data["notation"] == "flag green" and flag[0].data["clocks"] == [60.0, 0.0]
    assert len(over) == 1 and over[0].data["winner"] == winner and words in over[0].data["reason"]
    assert referee.clock.tick(referee) == [] and referee.snapshot()["clock"]["running"] is None
    assert journal.games()[-1]["result"] == over[0].data["reason"]
    assert '[Result "' + ("1-0" if winner == 0 else "1/2-1/2") + '"]' in export_pgn(journal, referee.game_id)


def test_a_flag_waits_for_a_ply_shown_but_not_yet_recorded():
    """Black's e5 is shown, unsure (the camera waits for the next views): it may have been
    made in time, so the flag waits; once it is recorded at its hand's time, it was."""
    referee, now, _ = on_the_clock("0:10+0")
    play(referee, now, [(0.0, "e4")])
    referee.clock.warned.add(1)
    e5 = referee.game.parse(referee.sure, "e5")
    after = referee.game.apply(referee.sure, e5)
    referee.shown = Line((e5,), after, referee.game.board(after), 0.0, (9.0,))
    now.t = 11.0
    assert referee.unsure == ["e5"] and referee.clock.tick(referee) == []
    event = referee.settle()  # the views settle it: made at 9.0, in time
    assert event.data["clocks"] == [10.0, 1.0] and referee.snapshot()["outcome"] is None


def test_a_restart_rebuilds_the_clocks_from_the_journal_and_charges_nobody_for_the_time_down(tmp_path):
    path = str(tmp_path / "games.sqlite")
    referee, now, _ = on_the_clock("1+0", Journal(path))
    play(referee, now, [(0.0, "e4"), (10.0, "e5"), (25.0, "Nf3")])
    now.t = 66.0
    assert [e.kind for e in referee.clock.tick(referee)] == ["clock"]  # Black: 9 seconds left, said
    # the referee stops (a pulled plug); it starts again later, on another time base
    again = Referee(Journal(path))
    later = Time(5000.0)
    again.clock.keep_time(later)
    assert again.resume()
    later.t = 5003.0
    snap = again.snapshot()["clock"]
    assert snap["left"] == [45.0, 47.0] and snap["running"] == 1  # Black from the restart, down time free
    assert again.clock.tick(again) == []  # the warning was said before the restart
    nc6 = again.enter("Nc6")
    assert nc6.data["clocks"] == [45.0, 47.0]


def test_the_record_has_the_times_pgn_and_json_and_replay_prints_them(tmp_path):
    journal = Journal(str(tmp_path / "games.sqlite"))
    referee, now, _ = on_the_clock("90+30", journal)
    play(referee, now, [(0.0, "e4"), (65.0, "e5"), (3700.0, "Nf3")])
    pgn = export_pgn(journal, referee.game_id)
    assert '[TimeControl "5400+30"]' in pgn
    assert "1. e4 { [%clk 1:30:30] } 1... e5 { [%clk 1:29:25] } 2. Nf3 { [%clk 0:30:25] }" in pgn
    moves = [e for e in journal.export(referee.game_id)["events"] if e["type"] == "move"]
    assert [m["clock"] for m in moves] == [5430.0, 5365.0, 1825.0]
    assert shown(5365.0) == "1:29:25" and shown(59.96) == "0:59.9" and shown(-1) == "0:00.0"


def test_play_takes_clock_and_says_a_bad_one():
    run = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "chess", "--clock", "3+2",
                          "--json"], input="e4\ne5\n", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert run.returncode == 0, run.stderr
    moves = [json.loads(line) for line in run.stdout.splitlines() if '"type": "move"' in line]
    assert [m["clock"] for m in moves][0] == 182.0 and all("clocks" in m for m in moves)
    state = [json.loads(line) for line in run.stdout.splitlines() if '"type": "state"' in line][-1]
    assert state["clock"]["control"] == "3+2" and any(r["key"] == "clock" for r in state["rulings"])
    bad = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "chess", "--clock", "3 minutes"],
                         input="", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "'3 minutes' is not a period" in bad.stderr


def test_a_game_without_a_clock_has_none():
    referee = Referee(Journal(":memory:"))
    referee.new_game("chess")
    assert referee.snapshot()["clock"] is None
    assert "clock" not in referee.enter("e4").data
    assert Clock().due() is None


def test_the_table_keeps_the_camera_s_time_across_a_restart_and_its_frames_bring_the_flag(tmp_path):
    """A resumed game under a camera: the clock runs on the frames' times from the
    Table's start (not the time the referee was down), and a frame past the flag time
    brings the flag fall (the camera's thread sends the referee a Tick when it is due)."""
    import numpy as np

    from controller.config import CameraSettings, GameSettings
    from controller.table import Table

    path = str(tmp_path / "games.sqlite")
    referee, now, _ = on_the_clock("1+0", Journal(path))
    play(referee, now, [(1.0, "e4"), (11.0, "e5")])
    again = Referee(Journal(path))
    assert again.resume()
    table = Table(again, GameSettings(name="chess"), CameraSettings())
    frame = np.zeros((360, 640, 3), np.uint8)
    table.feed(2.0, frame)  # the camera's time: seconds since it opened
    assert again.clock.left()[0] == pytest.approx(58.0, abs=0.05) and again.clock.left()[1] == 50.0
    said = table.feed(55.0, frame)
    assert [e.kind for e in said] == ["clock"] and said[0].data["text"] == "Mario's team: 5 seconds left on the clock"
    flag = table.feed(60.5, frame)
    assert [e.data.get("notation") for e in flag if e.kind == "move"] == ["flag red"]
    assert again.snapshot()["outcome"]["reason"] == "Mario's team's flag fell: Bowser's team wins on time"
