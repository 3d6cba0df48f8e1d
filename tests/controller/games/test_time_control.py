"""Time controls as clubs write them (controller/games/time_control.py): every written
form is read as the clock it means or refused in words naming the part that is wrong,
written back and said in words, and its arithmetic is FIDE's (the period a move is in,
the time a period adds when its last move is made, what a move costs under an increment
or a delay, when the flag may fall). The running clock is tests/controller/test_clock.py."""
import re

import pytest

from controller.games import load_game
from controller.games.time_control import Period, TimeControl, allowance, charged
from controller.i18n import translator


@pytest.mark.parametrize("text, written, sides", [
    ("5+0", "5+0", [[(None, 300, None, 0)]] * 2),
    ("5", "5+0", [[(None, 300, None, 0)]] * 2),
    ("3+2", "3+2", [[(None, 180, "increment", 2)]] * 2),
    ("5 b3", "5 b3", [[(None, 300, "bronstein", 3)]] * 2),
    ("5d3", "5 d3", [[(None, 300, "delay", 3)]] * 2),
    ("5 D3", "5 d3", [[(None, 300, "delay", 3)]] * 2),
    ("40/90, 30+30", "40/90, 30+30", [[(40, 5400, None, 0), (None, 1800, "increment", 30)]] * 2),
    ("40/90+30, 30+30", "40/90+30, 30+30", [[(40, 5400, "increment", 30), (None, 1800, "increment", 30)]] * 2),
    ("40/120, 20/60", "40/120, 20/60", [[(40, 7200, None, 0), (20, 3600, None, 0)]] * 2),
    ("10+5 | 5+5", "10+5 | 5+5", [[(None, 600, "increment", 5)], [(None, 300, "increment", 5)]]),
    ("G/30", "30+0", [[(None, 1800, None, 0)]] * 2),
    ("0:30+1", "0:30+1", [[(None, 30, "increment", 1)]] * 2),
    ("1.5+0", "1.5+0", [[(None, 90, None, 0)]] * 2),
    ("3+0.5", "3+0.5", [[(None, 180, "increment", 0.5)]] * 2),
])
def test_time_controls_are_read_as_clubs_write_them(text, written, sides):
    control = TimeControl.parse(text)
    assert control.text() == written
    assert [[(p.moves, p.seconds, p.kind, p.bonus) for p in side] for side in control.sides] == sides
    assert TimeControl.parse(control.text()) == control  # what is written back reads as the same clock


@pytest.mark.parametrize("text, words", [
    ("5+", "'5+' is not a period"), ("3 min", "'3 min' is not a period"), ("", "'' is not a period"),
    ("0:75", "'0:75' is not a period"),  # 75 seconds is written 1:15
    ("40/90, 30, 10", "only the last period may be for the rest of the game"),
    ("1 | 2 | 3", "at most two sides"), ("2000+0", "'2000+0' is over 24 hours"),
    ("5+900", "900 s a move; expected at most 600"), ("0/5", "0 moves in a period; expected 1-200"),
    ("201/5", "201 moves in a period"), ("0+5", "no time to start with"),
])
def test_a_control_that_is_not_one_is_named(text, words):
    with pytest.raises(ValueError, match=re.escape(f"time control {text!r}: {words}")):
        TimeControl.parse(text)
    if text:  # (an empty clock ruling is a game without a clock)
        with pytest.raises(ValueError, match=re.escape(words)):  # the game refuses it in the same words
            load_game("chess", None, {"clock": text})


def test_a_control_that_is_not_text_is_refused_saying_what_one_looks_like():
    with pytest.raises(ValueError, match=r'a time control is text such as "3\+2", not 5'):
        TimeControl.parse(5)


def test_each_control_is_said_in_words():
    _ = translator("en")
    assert TimeControl.parse("3+2").words(_) == "3 min for the game, 2 s added after each move"
    assert TimeControl.parse("5 b3").words(_) == \
        "5 min for the game, Bronstein delay 3 s (the time used on a move given back, up to that)"
    assert TimeControl.parse("5 d3").words(_).endswith("delay 3 s (the clock waits that long each move before it counts)")
    assert TimeControl.parse("40/120, 20/60").words(_) == "2 h for 40 moves; then 1 h for 20 moves, repeated"
    assert TimeControl.parse("0:30+1").words(_) == "30 s for the game, 1 s added after each move"
    assert TimeControl.parse("1+0 | 3+0").words(_) == "red: 1 min for the game; green: 3 min for the game"


def test_each_move_is_played_in_its_period_and_a_last_period_with_a_count_repeats():
    control = TimeControl.parse("40/120, 20/60")
    assert [control.period(0, made).seconds for made in (0, 39, 40, 59, 60, 99)] == [7200, 7200, 3600, 3600, 3600, 3600]
    # the time comes the moment the last move of a period is made (FIDE 6.9), and again every 20 moves
    added = {made: control.added_after(0, made) for made in range(1, 121) if control.added_after(0, made)}
    assert added == {40: 3600, 60: 3600, 80: 3600, 100: 3600, 120: 3600}
    sudden = TimeControl.parse("40/90, 30")
    assert [sudden.added_after(0, made) for made in (39, 40, 41, 80)] == [0, 1800, 0, 0]  # then the rest of the game


def test_time_odds_give_each_side_its_own_start_and_periods():
    control = TimeControl.parse("10+5 | 2/1, 5")
    assert (control.start(0), control.start(1)) == (600, 60)
    assert control.added_after(0, 2) == 0 and control.added_after(1, 2) == 300
    assert control.period(1, 2).moves is None and control.period(0, 2).bonus == 5


@pytest.mark.parametrize("period, used, cost, may_think", [
    (Period(None, 300), 7.0, 7.0, 100.0),  # sudden death: what was used
    (Period(None, 180, "increment", 2), 7.0, 5.0, 100.0),
    (Period(None, 180, "increment", 2), 1.0, -1.0, 100.0),  # a quick move gains time
    (Period(None, 300, "bronstein", 3), 7.0, 4.0, 100.0),
    (Period(None, 300, "bronstein", 3), 1.0, 0.0, 100.0),  # given back at most what was used
    (Period(None, 300, "delay", 3), 7.0, 4.0, 103.0),  # the delay runs before the clock, and before the flag
    (Period(None, 300, "delay", 3), 1.0, 0.0, 103.0),
])
def test_a_move_costs_the_clock_what_its_bonus_leaves(period, used, cost, may_think):
    assert charged(period, used) == pytest.approx(cost)
    assert allowance(period, 100.0) == pytest.approx(may_think)


@pytest.mark.parametrize("text, low", [("90+30", 60.0), ("3+2", 18.0), ("1+0", 10.0), ("0:20", 20 / 3)])
def test_a_side_is_warned_at_a_tenth_of_its_time_within_ten_seconds_and_a_minute(text, low):
    assert TimeControl.parse(text).low(0) == pytest.approx(low)
