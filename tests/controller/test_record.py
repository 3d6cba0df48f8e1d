"""The game's record folded from the journal's events (controller/record.py): what the
referee rebuilds from, and what the page, the API, the CLI, the hall and the exports show."""
from controller.events import Bus, Event, Kind
from controller.journal import Journal
from controller.record import STEPS, Ply, changes, fold
from controller.referee import Referee
from support import Camera, misread_then_corrected


def started(game: str = "connect4") -> Event:
    return Event(Kind.GAME_STARTED, {"game": game, "variant": "classic", "settings": {}, "setup": {"deal": 1}},
                 1, 1, 100.0)


def move(notation: str, seat: int = 0, t: float = 101.0, source: str = "camera") -> Event:
    return Event(Kind.MOVE, {"notation": notation, "text": f"drops in {notation}", "seat": seat,
                             "source": source}, 1, None, t)


def test_moves_stand_until_an_undo_or_a_correction_takes_them_back():
    record = fold([started(), move("4"), move("3", 1, 102.0), Event(Kind.ILLEGAL, {"reason": "no"}),
                   move("5", 0, 103.0), Event(Kind.UNDO, {"notation": "5"}), move("6", 0, 104.0),
                   move("2", 1, 105.0), Event(Kind.CORRECTED, {"text": "corrected: ...", "retracted": ["6", "2"]}),
                   move("7", 0, 106.0)])
    assert (record.game, record.variant, record.setup) == ("connect4", "classic", {"deal": 1})
    assert record.notations == ["4", "3", "7"]
    assert record.plies[1] == Ply("3", "drops in 3", 1, 102.0, "camera")


def test_a_correction_of_plies_only_shown_retracts_none_and_a_new_game_starts_afresh():
    shown_only = Event(Kind.CORRECTED, {"text": "corrected: 5, not 6", "retracted": []})
    assert fold([started(), move("4"), shown_only]).notations == ["4"]
    assert fold([started(), move("4"), started("chess")]).plies == []
    assert fold([started(), Event(Kind.UNDO, {})]).plies == []  # an undo with nothing to undo


def test_a_ply_reads_with_its_seats_name_and_its_words():
    ply = Ply("4", "Luigi drops a chip in column 4", 1, 5.0)
    assert ply.to_json(["Mario", "Luigi"]) == {"notation": "4", "text": "Luigi drops a chip in column 4", "seat": 1,
                                               "name": "Luigi", "t": 5.0, "unsure": False}
    assert ply.to_json(["Mario"])["name"] is None  # a seat the game does not have names no one


def test_events_as_json_from_another_table_fold_alike_and_what_cannot_be_read_is_passed_over():
    """The hall folds what tables sent: a kind this version does not know changes nothing,
    a move without its notation is kept as "?" (the rules refuse it on a rebuild), and a
    seat that is not a number is no seat."""
    events = [started().to_json(), move("4").to_json(), {"type": "from_a_newer_version", "seq": 3},
              {"type": "move", "seq": 4, "seat": "0"}, {"seq": 5}]
    record = fold(events)
    assert record.notations == ["4", "?"]
    assert record.plies[1].seat is None and record.plies[1].text == "?"


def test_a_position_the_admin_set_keeps_the_plies_before_it_and_goes_on_from_its_setup():
    """After an illegal move the players played on from, the admin sets the board as it
    stands: the plies before stay as recorded, no undo or correction reaches behind it,
    and the game goes on from the position set."""
    fen = {"fen": "8/8/8/8/8/8/8/K1k5 w - - 0 1"}
    record = fold([started(), move("4"), move("3", 1), Event(Kind.POSITION_SET, {"setup": fen, "text": "set"}),
                   Event(Kind.UNDO, {}), Event(Kind.CORRECTED, {"retracted": ["3", "4"]}), move("5")])
    assert record.setup == fen and record.base == 2
    assert record.notations == ["4", "3", "5"] and record.notations[record.base:] == ["5"]


def test_each_kind_that_changes_the_record_is_named_once():
    assert set(STEPS) == {Kind.GAME_STARTED, Kind.MOVE, Kind.UNDO, Kind.CORRECTED, Kind.POSITION_SET}
    assert changes(Kind.CORRECTED) and changes("move") and not changes(Kind.ILLEGAL) and not changes("doubt")


def test_the_referee_holds_what_the_journal_folds_to_live_and_rebuilt(tmp_path):
    """After a camera take-back the referee's record, kept event by event as it writes
    them, is the journal's fold, and a restart rebuilds the same, words and all."""
    journal = Journal(str(tmp_path / "journal.sqlite"))
    referee = Referee(journal, Bus())
    referee.confirm_s = 0.5
    referee.new_game("chess")
    sans = misread_then_corrected(Camera(referee))
    referee.settle()
    folded = fold(journal.events(referee.game_id))
    assert folded.notations == referee.history == sans
    assert referee.record.plies == folded.plies
    seats = referee.snapshot()["seats"]
    assert referee.snapshot()["record"] == folded.to_json(seats)
    again = Referee(Journal(str(tmp_path / "journal.sqlite")))
    assert again.resume() and again.record.plies == folded.plies
