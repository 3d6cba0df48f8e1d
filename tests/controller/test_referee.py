"""The referee matches stable views against the rules: one fit is a move, no fit on a
surely read board is an illegal move put in words, unsure cells make it wait."""
from controller.events import Bus
from controller.journal import Journal
from controller.referee import Referee
from vision.view import BoardView, CellSight, Change


def setup(variant="classic"):
    events = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(Journal(":memory:"), bus)
    referee.new_game("connect4", variant)
    return referee, events


def view(referee, changes=(), unsure=(), t=10.0, moved_at=9.7):
    board = referee.game.board(referee.state)
    cells = {c: (lab, 0.95) for c, lab in board.items()}
    for cell, label in changes:
        cells[cell] = (label, 0.95)
    for cell in unsure:
        cells[cell] = (cells[cell][0], 0.3)
    return BoardView(cells, t=t, moved_at=moved_at)


def test_a_dropped_chip_is_accepted_with_its_delay():
    referee, events = setup()
    event = referee.observe(view(referee, [((3, 0), "p0")]))
    assert event.kind == "move" and event.data["notation"] == "4"
    assert event.data["decided_after_s"] == 0.3 and event.data["source"] == "camera"


def test_an_unchanged_board_says_nothing():
    referee, events = setup()
    assert referee.observe(view(referee)) is None


def test_a_floating_chip_is_illegal_and_the_referee_waits_until_it_is_put_right():
    referee, events = setup()
    event = referee.observe(view(referee, [((3, 2), "p0")]))
    assert event.kind == "illegal" and "floats at column 4, row 3" in event.data["reason"]
    assert referee.snapshot()["alarm"]["reason"] == event.data["reason"]
    # the same wrong board again: no second alarm
    assert referee.observe(view(referee, [((3, 2), "p0")])) is None
    # put right: the chip is taken out
    assert referee.observe(view(referee)).kind == "restored"
    assert referee.snapshot()["alarm"] is None and referee.history == []


def test_a_legal_move_from_the_position_clears_the_alarm():
    referee, _ = setup()
    referee.observe(view(referee, [((3, 2), "p0")]))
    event = referee.observe(view(referee, [((5, 0), "p0")]))
    assert event.kind == "move" and referee.snapshot()["alarm"] is None


def test_out_of_turn_and_two_chips_at_once():
    referee, _ = setup()
    e = referee.observe(view(referee, [((3, 0), "p1")]))
    assert e.kind == "illegal" and e.data["reason"] == "it is Mario's turn, not Luigi's"
    e = referee.observe(view(referee, [((3, 0), "p0"), ((4, 0), "p0")]))
    assert e.kind == "illegal" and "2 pieces went in at once" in e.data["reason"]


def test_an_unsure_move_is_waited_on_then_a_doubt_said_once_and_a_clear_view_resolves_it():
    referee, events = setup()
    referee.confirm_s = 0.5  # the live camera's clock
    # the new chip's own hole is read unsurely: the referee waits for the board to settle
    assert referee.observe(view(referee, [((3, 0), "p0")], unsure=[(3, 0)])) is None
    assert referee.tick(10.5, moved_at=9.7) is None and referee.doubt is None
    # still undecided after the board stood still a few seconds: said once, with the reading
    doubt = referee.tick(13.0, moved_at=9.7)
    assert doubt.kind == "doubt" and doubt.data["candidates"] == [{"notation": "4", "text": "Mario drops a chip in column 4"}]
    assert doubt.data["text"] == ("I can't tell yet what moved: is it Mario drops a chip in column 4? "
                                  "The next moves will tell")
    assert doubt.data["cells"] == ["column 4, row 1"] and referee.snapshot()["doubt"] == doubt.data
    assert referee.observe(view(referee, [((3, 0), "p0")], unsure=[(3, 0)], t=14.0)) is None
    assert referee.tick(20.0, moved_at=9.7) is None
    assert [e.kind for e in events].count("doubt") == 1 and referee.history == []
    # the hole is read clearly: the move, and the doubt is settled
    e = referee.observe(view(referee, [((3, 0), "p0")], unsure=[(6, 5)], t=21.0))
    assert referee.history == ["4"] and referee.snapshot()["doubt"] is None
    assert [x.kind for x in events][-2:] == ["move", "doubt_cleared"] and e.kind == "doubt_cleared"


def test_a_doubt_is_resolved_by_the_candidate_tapped_on_the_page():
    referee, events = setup()
    referee.confirm_s = 0.5
    referee.observe(view(referee, [((3, 0), "p0")], unsure=[(3, 0)]))
    doubt = referee.tick(13.0, moved_at=9.7)
    tapped = referee.enter(doubt.data["candidates"][0]["notation"], source="page")
    assert tapped.kind == "move" and referee.history == ["4"] and referee.doubt is None
    assert [e.kind for e in events][-2:] == ["move", "doubt_cleared"]
    # the board now agrees with the position: nothing more to say
    assert referee.observe(view(referee, t=14.0)) is None


def test_a_hand_moving_again_postpones_a_pending_alarm_and_never_cancels_it():
    """The watcher hands on no new view of a board that reads as before: a hand that
    passes over a wrong board and leaves it so must not silence the alarm for good."""
    referee, events = setup()
    referee.confirm_s = 0.5
    assert referee.observe(view(referee, [((3, 2), "p0")])) is None
    assert referee.tick(10.2, moved_at=10.1) is None  # the hand moved on: not yet
    assert referee.tick(10.5, moved_at=10.1) is None and referee.alarm is None  # still 0.4 s
    alarm = referee.tick(10.7, moved_at=10.1)  # still 0.6 s since the hand, the board as wrong
    assert alarm.kind == "illegal" and alarm.data["source"] == "camera"


def test_a_board_that_turns_unclear_drops_the_pending_alarm():
    referee, events = setup()
    referee.confirm_s = 0.5
    assert referee.observe(view(referee, [((3, 2), "p0")])) is None
    assert referee.observe(view(referee, [((3, 2), "p0")], unsure=[(3, 2)], t=10.3, moved_at=10.2)) is None
    assert referee.tick(12.0, moved_at=10.2) is None and referee.alarm is None


def test_one_illegal_board_is_one_alarm_and_the_referee_follows_again():
    referee, events = setup()
    alarm = referee.observe(view(referee, [((3, 2), "p0")]))
    assert alarm.kind == "illegal" and alarm.data["who"] == "Mario"
    assert alarm.data["seen"] == {"column 4, row 3": "p0"} and "column 4, row 3" in alarm.data["fix"]
    # the hand is still over the board, the reading wobbles: no new alarms
    assert referee.observe(view(referee, [((3, 2), "p0"), ((6, 5), "p1")], unsure=[(6, 5)])) is None
    assert referee.observe(view(referee, [((3, 2), "p0")])) is None
    # put right and played on: the referee follows at once
    assert referee.observe(view(referee, [((3, 0), "p0")])).kind == "move"
    assert referee.observe(view(referee, [((4, 0), "p1")])).kind == "move"
    assert [e.kind for e in events].count("illegal") == 1 and referee.history == ["4", "5"]


def test_a_blocker_removal_settling_a_column_is_one_move():
    referee, _ = setup("blocker")
    for m in "b1/2 7 7 7 7 7 1 2 1 2 1".split():
        referee.enter(m)
    # Luigi, to move, has column 7 at five chips: his drop lands in the top row
    assert referee.state.turn == 1 and referee.state.cols[6][4] == "1"
    board = referee.game.board(referee.state)
    after = dict(board)
    after[(6, 5)] = "p1"
    after[(0, 1)] = "empty"
    # the three chips on Mario's blocker fall to the bottom of the column
    col = [board[(0, r)] for r in range(6)]
    settled = [lab for lab in col if lab in ("p0", "p1")]
    for r in range(6):
        after[(0, r)] = settled[r] if r < len(settled) else "empty"
    event = referee.observe(BoardView({c: (lab, 0.9) for c, lab in after.items()}, t=1, moved_at=0.8))
    assert event.kind == "move" and event.data["notation"] == "7x"


def test_game_over_is_announced_and_recorded():
    referee, events = setup()
    for m in "1 2 1 2 1 2".split():
        referee.enter(m)
    referee.observe(view(referee, [((0, 3), "p0")]))
    assert events[-1].kind == "game_over" and events[-1].data["winner"] == 0
    assert referee.journal.open_game() is None


def test_only_the_player_who_dropped_into_the_top_row_may_remove_the_blocker():
    referee, _ = setup("blocker")
    for m in "b1/2 7 7 7 7 7 1 2 1 2 1 7".split():  # Luigi's chip lands in the top row
        referee.enter(m)
    assert referee.state.may_remove == 1 and referee.state.turn == 0
    refused = referee.enter("x", seat=0)
    assert refused.kind == "illegal" and refused.data["reason"] == "it is Luigi's turn, not Mario's"
    removed = referee.enter("x", seat=1)
    assert removed.kind == "move" and removed.data["seat"] == 1


def test_a_chess_view_that_cannot_tell_two_bishop_moves_apart_is_a_doubt_and_a_tap_resolves_it():
    """c8 is clearly vacated, but g4 and f5 are both half seen (a lamp's glare): the
    referee says once, after the board stood still, which it could be, raises no alarm,
    and takes the tapped move."""
    events = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(Journal(":memory:"), bus)
    referee.new_game("chess")
    for san in ("d4", "d5", "Nf3"):
        referee.enter(san)
    referee.confirm_s = 0.5
    board = referee.game.board(referee.state)
    cells = {c: (lab, 0.95) for c, lab in board.items()}
    # vision's change evidence per label (vision/change.py): every square as it was ...
    change = {c: Change({lab: 0.0, **{other: -8.0 for other in ("empty", "p0", "p1") if other != lab}}, None)
              for c, lab in board.items()}
    # ... but c8, clearly vacated, and g4 and f5, which may have changed or not
    cells["c8"], change["c8"] = ("empty", 0.95), Change({"p1": -8.0, "empty": 0.0, "p0": -3.0}, None)
    for sq in ("g4", "f5"):
        cells[sq], change[sq] = ("p1", 0.5), Change({"empty": 0.0, "p1": 0.0, "p0": -4.0}, None)
    sight = {c: CellSight(change=change) for c, change in change.items()}
    seen = BoardView(cells, t=20.0, moved_at=19.7, sight=sight, change_from=board)
    assert referee.observe(seen) is None
    assert referee.tick(20.6, moved_at=19.7) is None  # not yet: the next moves may tell
    doubt = referee.tick(23.0, moved_at=19.7)
    assert doubt.kind == "doubt" and {c["notation"] for c in doubt.data["candidates"]} == {"Bg4", "Bf5"}
    assert {"c8", "g4", "f5"} <= set(doubt.data["cells"])
    assert referee.observe(BoardView(cells, t=24.0, moved_at=19.7, sight=sight, change_from=board)) is None
    assert referee.tick(30.0, moved_at=19.7) is None
    assert [e.kind for e in events].count("doubt") == 1 and not [e for e in events if e.kind == "illegal"]
    assert referee.enter("Bg4", source="page").kind == "move" and referee.doubt is None
    assert referee.history[-1] == "Bg4"
