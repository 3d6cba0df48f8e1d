"""The camera sees the board again 3 to 8 plies later (a bumped camera, a lost stretch of
video): the referee walks the legal plies from the position it is sure of to the board
the clear view shows (controller/recovery.py), follows on, says once which plies it
recovered late and raises no alarm. Labelled views (tests/support.py Camera); the real
photos, the real video and renders are in tests/rig/test_chess_lost.py."""
import chess
import pytest

from controller.journal import Journal
from controller.referee import Referee
from support import Camera, master_game, placement, referee_on


def followed_with_stretches_lost(sans, lost: dict, motions: bool = False, journal: Journal | None = None):
    """`sans` from the start, each position held 2 s; at ply i in `lost` the camera sees
    nothing for lost[i] plies (2 s each). Returns the referee, its events and the plies
    after which the camera saw the board."""
    referee, events = referee_on(journal or Journal(":memory:"))
    referee.new_game("chess")
    board, camera = chess.Board(), Camera(referee)
    camera.show(board, motions=0 if motions else None)
    i, seen = 0, []
    while i < len(sans):
        n = lost.get(i, 1)
        for san in sans[i:i + n]:
            board.push_san(san)
        camera.lose(2.0 * (n - 1))
        i += n
        seen.append(i)
        camera.show(board, motions=n if motions else None)
    referee.settle()
    return referee, events, seen


@pytest.mark.parametrize("motions", [False, True], ids=["motions not counted", "motions counted"])
@pytest.mark.parametrize("skip", [3, 5])  # 8: below
def test_a_real_game_seen_again_3_and_5_plies_later_is_followed_once_said(skip, motions):
    """Nepomniachtchi-Ding 2023, 30 plies, the camera blind for `skip` plies twice
    (from the 5th ply: Bb5 a6 Ba4 Nf6 O-O, the bishop passing b5 and castling filling
    f1 again; and from the 17th): every position the camera saw is reached, every ply
    it saw recorded in order, each lost stretch said once as recovered late, no alarm,
    no doubt (plies no view showed may be recorded in another order that reaches the
    same board: nothing seen tells). With the hand motions counted (a hand over the
    board all the while), the walk was not tried, the beam found no 5 plies, and
    "Mario cannot castle kingside" stood for the rest of the game."""
    sans = master_game(30)
    lost = {4: skip, 16: skip}
    referee, events, seen = followed_with_stretches_lost(sans, lost, motions=motions)
    assert len(referee.history) == len(sans)
    assert [placement(referee.history[:i]) for i in seen] == [placement(sans[:i]) for i in seen]
    unseen = {p for start, n in lost.items() for p in range(start, start + n)}
    assert [referee.history[i] for i in range(len(sans)) if i not in unseen] == \
        [sans[i] for i in range(len(sans)) if i not in unseen]
    recovered = [e for e in events if e.kind == "recovered"]
    assert len(recovered) == 2 and all(len(e.data["notation"]) >= skip - 1 for e in recovered)
    assert [e for e in events if e.kind in ("illegal", "doubt")] == []


def colours(sans) -> dict:
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    return {s: board.color_at(s) for s in chess.SQUARES}


def test_a_real_game_seen_again_8_plies_later_raises_no_alarm_and_keeps_every_colour():
    """The same game, the camera blind for 8 plies from the 5th (Bb5 a6 Ba4 Nf6 O-O Be7
    Bxc6 dxc6): a history of 8 legal plies that leaves every square's colour as the view
    shows it is found and said once as recovered late, and the plies after it are
    followed, with no alarm. Which piece stands where the colours cannot tell over 8
    plies (Rg1 ... Kf1 leaves what Ba4 ... O-O leaves: a known limit, docs/following.md);
    before, the walk spent its boards and the alarm came."""
    sans = master_game(14)
    referee, events, seen = followed_with_stretches_lost(sans, {4: 8})
    assert [e for e in events if e.kind == "illegal"] == []
    assert len([e for e in events if e.kind == "recovered"]) == 1
    assert len(referee.history) == len(sans)
    assert all(colours(referee.history[:i]) == colours(sans[:i]) for i in seen)


def test_a_knight_that_moves_twice_and_captures_is_found():
    """The Fried Liver: the camera sees 1. e4 e5, then nothing until 4... d5 (Nf3 Nc6 Bc4
    Nf6 Ng5 d5: the knight went g1-f3-g5, f3 empty before and after), then nothing until
    6... Kxf7 (exd5 Nxd5 Nxf7 Kxf7: the knight captures on f7 and is captured there):
    both stretches are found, the hand motions counted, and said once each."""
    sans = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "Ng5", "d5", "exd5", "Nxd5", "Nxf7", "Kxf7", "Qf3+", "Ke6"]
    referee, events, seen = followed_with_stretches_lost(sans, {2: 6, 8: 4}, motions=True)
    assert [placement(referee.history[:i]) for i in seen] == [placement(sans[:i]) for i in seen]
    assert referee.history[-2:] == ["Qf3+", "Ke6"] and len(referee.history) == len(sans)
    # said once per stretch, or once for both when the first was not yet sure at the second
    assert len([e for e in events if e.kind == "recovered"]) in (1, 2)
    assert [e for e in events if e.kind in ("illegal", "doubt")] == []


def test_a_stretch_found_late_as_other_pieces_is_corrected_once_when_a_later_move_shows_it(tmp_path):
    """The camera blind for 6 plies of an Italian game (O-O a6 Kh1 a5 d3 h6): Kf1 h6 d3 a5
    leaves the same colours in fewer plies (the camera tells whose a piece is, not which)
    and is found and recorded; Re1 is then recorded as Ke1, and ...d6. Re3 is no move of
    a king on e1: instead of an alarm for players who played legally, the referee looks
    again from the position before the stretch, finds the history whose pieces make every
    move seen since, and corrects the record once; the journal keeps the plies it
    retracted beside the correction, and a restart rebuilds the corrected record.
    Before, an alarm, and the record kept the king on e1."""
    sans = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "a6", "Kh1", "a5", "d3", "h6", "Re1", "d6", "Re3", "Nf6"]
    journal = Journal(str(tmp_path / "games.sqlite"))
    referee, events, seen = followed_with_stretches_lost(sans, {6: 6}, journal=journal)
    assert [e for e in events if e.kind in ("illegal", "doubt")] == []
    assert [placement(referee.history[:i]) for i in seen] == [placement(sans[:i]) for i in seen]
    assert referee.history[:6] == sans[:6] and referee.history[12:] == sans[12:]
    corrections = [e for e in events if e.kind == "corrected" and e.data["retracted"]]
    assert len(corrections) == 1
    # (unseen plies may come in any order that reaches the board: nothing seen tells)
    retracted = corrections[0].data["retracted"]
    assert set(retracted[:4]) == {"Kf1", "a5", "d3", "h6"} and retracted[4:] == ["Ke1", "d6"]
    now, was = corrections[0].data["text"].removeprefix("corrected: ").split(", not ")
    assert set(now.split(", ")) == set(sans[6:12]) and was.split(", ") == retracted[:4]
    # the stretch found first is said once; what it was in truth, by the correction alone
    assert len([e for e in events if e.kind == "recovered"]) == 1
    again = Referee(Journal(str(tmp_path / "games.sqlite")))
    assert again.resume() and again.history == referee.history


def test_an_illegal_move_after_a_stretch_found_late_stays_illegal_and_says_the_pieces_may_differ():
    """Nepomniachtchi-Ding 2023, the camera blind for Bb5 a6 Ba4 (found late, the right
    board), then ...Nf6 seen, then the knight on f3 goes straight to f5, which no knight
    may do: looked at again, no history from before the stretch makes it legal, so the
    alarm stands, once, the record before it kept, and it says the pieces found late
    might have been others (the colours cannot tell)."""
    sans = master_game(8)
    referee, events = referee_on(Journal(":memory:"))
    referee.new_game("chess")
    board, camera = chess.Board(), Camera(referee)
    camera.show(board)
    for san in sans[:4]:
        board.push_san(san)
        camera.show(board)
    for san in sans[4:7]:
        board.push_san(san)
    camera.lose(4.0)
    camera.show(board)
    board.push_san(sans[7])
    camera.show(board)
    board.push(chess.Move.from_uci("f3f5"))
    camera.show(board, hold=4.0)
    alarms = [e for e in events if e.kind == "illegal"]
    assert len(alarms) == 1
    assert "or the pieces found late after the camera lost the board" in alarms[0].data["reason"]
    assert placement(referee.history) == placement(sans) and referee.history[-1] == "Nf6"
    assert [e for e in events if e.kind == "recovered"] != []
    assert [e for e in events if e.kind == "corrected" and e.data["retracted"]] == []
