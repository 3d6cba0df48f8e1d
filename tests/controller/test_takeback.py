"""What the take-back keeps to weigh again (controller/takeback.py); that a misread ply is
taken back by the views that follow is tests/controller/test_beliefs.py's."""
from controller.beliefs import Still
from controller.takeback import BACK, MAX_STILLS, TakeBack


def still(moved_at, partial=False):
    return Still(moved_at, partial, ev=None)


def test_the_last_camera_plies_are_kept_and_a_typed_one_forgets_them_and_the_stills():
    back = TakeBack()
    for n in range(BACK + 2):
        back.recorded(f"before {n}", f"ply {n}", float(n), camera=True)
    assert [p.action for p in back.recent] == [f"ply {n}" for n in range(2, BACK + 2)]
    back.keep(still(1.0))
    back.recorded("before", "typed", None, camera=False)  # the players saw it: nothing before it goes back
    assert back.recent == [] and back.stills == []


def test_a_still_read_again_or_one_a_hand_moved_over_replaces_the_last_and_only_the_newest_are_kept():
    back = TakeBack()
    back.keep(still(1.0))
    back.keep(still(1.0))  # the same still board read again
    back.keep(still(2.0, partial=True))
    back.keep(still(3.0))  # replaces the view a hand still moved over
    assert [s.moved_at for s in back.stills] == [1.0, 3.0]
    for t in range(4, 4 + MAX_STILLS):
        back.keep(still(float(t)))
    assert len(back.stills) == MAX_STILLS and back.stills[-1].moved_at == 3.0 + MAX_STILLS


def test_a_take_back_keeps_the_plies_before_and_the_stills_an_alarm_forgets_the_plies_a_copy_is_its_own():
    back = TakeBack()
    for n in range(3):
        back.recorded(f"before {n}", f"ply {n}", float(n), camera=True)
    back.keep(still(2.5))
    after = back.without(2)
    assert [p.action for p in after.recent] == ["ply 0"] and after.stills == back.stills
    copy = back.copy()
    back.forget()
    back.keep(still(3.5))
    assert back.recent == [] and len(copy.recent) == 3 and len(copy.stills) == 1
