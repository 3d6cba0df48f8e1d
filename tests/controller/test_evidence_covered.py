"""Cells a still hand covers (`CellSight.covered`, vision/cover.py) are unseen to the
referee (controller/evidence.py): they weigh nothing, contradict nothing, show no change,
and the plies the rest of the view shows are followed."""
import chess

from controller.events import Bus
from controller.evidence import Evidence
from controller.journal import Journal
from controller.referee import Referee
from vision.view import BoardView, CellSight, Change

OPENING = ["d4", "Nf6", "Bg5", "Nc6", "Nc3", "e6"]


def label(piece) -> str:
    return "empty" if piece is None else ("p0" if piece.color == chess.WHITE else "p1")


def view_of(board: chess.Board, since: chess.Board, t: float, covered=(), misread=None) -> BoardView:
    """A plain view of `board` (change measured from `since`), but for the cells in
    `misread` ({cell: label}), read surely otherwise and looking changed: a hand on them."""
    cells = {chess.square_name(s): (label(board.piece_at(s)), 0.95) for s in chess.SQUARES}
    cells.update({c: (lab, 0.95) for c, lab in (misread or {}).items()})
    labels = ("empty", "p0", "p1")
    sight = {c: CellSight(change=Change({lab: 0.0, **{o: -8.0 for o in labels if o != lab}}, None),
                          covered=c in covered) for c, (lab, _) in cells.items()}
    return BoardView(cells, t=t, moved_at=t - 0.3,
                     change_from={c: label(since.piece_at(chess.parse_square(c))) for c in cells}, sight=sight)


def followed(covered) -> tuple[list, list]:
    """The opening shown plainly, then Bxf6 with a hand resting over h2-h5 read as pieces
    (h2 empty, h3 a light piece, h4 and h5 dark ones) for 2 s, then the hand gone: (the
    plies recorded, the alarms and doubts)."""
    events: list = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(Journal(":memory:"), bus)
    referee.confirm_s = 0.5
    referee.new_game("chess")
    board, t = chess.Board(), 0.0

    def hold(view_at, seconds):
        nonlocal t
        for _ in range(int(seconds / 0.25)):
            t += 0.25
            for event in (referee.observe(view_at(t)), referee.tick(t, moved_at=t - 0.3)):
                if event is not None:
                    events.append(event)

    hold(lambda at: view_of(board, board, at), 2.0)
    for san in OPENING:
        before = board.copy()
        board.push_san(san)
        hold(lambda at: view_of(board, before, at), 2.0)
    before = board.copy()
    board.push_san("Bxf6")
    hand = {"h2": "empty", "h3": "p0", "h4": "p1", "h5": "p1"}  # h2-h3 and a dark piece, to the eye
    hold(lambda at: view_of(board, before, at, covered=covered, misread=hand), 2.0)
    hold(lambda at: view_of(board, before, at + 0.5), 2.0)
    return referee.history, [e for e in events if e.kind in ("illegal", "doubt")]


def test_a_hand_resting_beside_a_capture_adds_no_plies_and_no_alarm():
    """The issue's game: Bxf6 came with a hand over h3-h5 and "h3, Nh5" was recorded at
    once (before issue 27 this view records h3 for Bxf6). Covered, the hand's cells say
    nothing: Bxf6 alone, no alarm, no doubt."""
    history, troubles = followed(covered=["h2", "h3", "h4", "h5"])
    assert history == OPENING + ["Bxf6"]
    assert troubles == []


def test_a_covered_cell_weighs_nothing_and_contradicts_nothing():
    board = chess.Board()
    board.push_san("e4")
    start = chess.Board()
    labels = {chess.square_name(s): label(board.piece_at(s)) for s in chess.SQUARES}
    view = view_of(board, start, 1.0, covered=["g7", "f8"], misread={"g7": "p0", "f8": "empty"})
    ev = Evidence(view, {c: label(start.piece_at(chess.parse_square(c))) for c in labels}, 0.6, False)
    assert ev.weight("g7") == 0.0 and ev.ll("g7", labels) == 0.0
    assert not ev.contradicts("g7", labels) and not ev.contradicts("f8", labels)
    assert ev.unexplained(labels) == set()
    assert not ev.maybe_changed(labels) & {"g7", "f8"}
