"""The referee's lifecycle (controller/lifecycle.py): each report is said once, after the
camera's clock, and put right in words; the phase says what a view is for."""
from controller.events import Kind
from controller.lifecycle import DOUBT_S, Lifecycle, Phase, Say
from vision.view import BoardView

DOUBT = {"text": "I can't tell yet what moved: is it e4 or e3? The next moves will tell",
         "candidates": [{"notation": "e4", "text": "e2-e4"}, {"notation": "e3", "text": "e2-e3"}], "cells": ["e4"]}
ALARM = {"reason": "a piece left b1 no move explains", "cells": ["b1"], "who": "White", "fix": "put it back",
         "seen": {"b1": "empty"}}


def kinds(says):
    return [say.kind for say in says]


def test_an_undecided_board_is_said_once_after_the_camera_s_clock_and_cleared_in_words_when_decided():
    life = Lifecycle().undecided(BoardView({}, t=10.0), DOUBT)
    assert life.confirming and life.doubt is None
    assert life.tick(10.0 + DOUBT_S - 0.1, 9.0, 0.5) == (life, [])  # not yet
    life = life.undecided(BoardView({}, t=11.0), DOUBT)  # the same board read again: the clock runs on
    life, says = life.tick(10.0 + DOUBT_S, 9.0, 0.5)
    assert says == [Say(Kind.DOUBT, DOUBT)] and life.doubt == DOUBT and not life.confirming
    # the same doubt again, before the sure position changes: never said twice
    again, says = life.undecided(BoardView({}, t=20.0), DOUBT).tick(30.0, 20.0, 0.5)
    assert says == [] and again.doubt == DOUBT
    life, says = life.decided("the board shows the position again", "settled: e4")
    assert says == [Say(Kind.DOUBT_CLEARED, {"text": "settled: e4"})] and life.doubt is None


def test_a_wrong_board_is_an_alarm_once_it_stays_which_replaces_the_doubt_and_a_legal_board_restores():
    life = Lifecycle(doubt=DOUBT)
    life, says = life.wrong(BoardView({}, t=5.0), ALARM, 0.5, "play went on")
    assert says == [] and life.suspect is not None and life.alarm is None
    hand = life.tick(5.4, 5.2, 0.5)  # a hand passed: still since it for less than confirm_s
    assert hand == (life, [])
    life, says = life.tick(5.8, 5.2, 0.5)
    assert kinds(says) == [Kind.DOUBT_CLEARED, Kind.ILLEGAL] and says[1].data == {"source": "camera", **ALARM}
    assert life.alarm == ALARM and life.doubt is None
    # the same wrong board is reported once; play going on from it, once more, in words
    assert life.wrong(BoardView({}, t=7.0), ALARM, 0.0, "play went on") == (life, [])
    more = {**ALARM, "reason": "another", "seen": {"b1": "empty", "c3": "white"}}
    went_on, says = life.wrong(BoardView({}, t=8.0), more, 0.0, "play went on after an illegal move")
    assert says[-1].data["reason"] == "play went on after an illegal move" and went_on.alarm["went_on"]
    life, says = life.explained()
    assert says == [Say(Kind.RESTORED, {}, "the board shows a legal position again")] and life.alarm is None


def test_the_phase_says_what_a_view_is_for():
    life = Lifecycle().await_start()
    assert life.awaiting_start and life.started().phase is Phase.FOLLOWING
    life, says = life.recorded(typed=None)  # a ply recorded: the camera follows
    assert life.phase is Phase.FOLLOWING and says == []
    asked = life.ask_put_back({"a1": "white"}, "e4 was taken back: take the pawn off e4", ["e4"])
    assert asked.phase is Phase.PUT_BACK and asked.doubt["text"].startswith("e4 was taken back")
    seen, says = asked.put_back_seen()
    assert seen.phase is Phase.FOLLOWING and seen.doubt is None and kinds(says) == [Kind.DOUBT_CLEARED]
    assert asked.anew().phase is Phase.FOLLOWING and asked.anew().put_back is None  # a new game, a rebuild


def test_a_move_typed_clears_a_standing_doubt_and_a_new_position_keeps_only_what_it_must():
    life = Lifecycle(doubt=DOUBT, alarm=ALARM, doubts_said=(DOUBT["text"],))
    typed, says = life.recorded(typed="entry entered e4")
    assert says == [Say(Kind.DOUBT_CLEARED, {"text": "entry entered e4"})]
    assert typed.doubt is None and typed.alarm is None and typed.doubts_said == ()
    # a take-back keeps a standing alarm; a new game or a rebuilt record does not
    assert life.anew(alarm_too=False).alarm == ALARM and life.anew().alarm is None
    assert life.anew().doubt is None and life.anew().doubts_said == ()
