"""A low camera from the side of the board, through the whole camera path (the Table:
Watcher -> Referee, learning after every accepted move): tall pieces stand in front of
the squares they leave behind. Bc8-g4 leaves c8 behind the queen on d8; a pawn promotes
and the new queen then moves on."""
import chess
import pytest

from controller.events import NewGame
from controller.config import CameraSettings, GameSettings
from controller.demo_rig.render_chess import Camera, Position, corners_in_frame, render_game
from controller.events import Bus
from controller.journal import Journal
from controller.referee import Referee
from controller.table import Table


def follow(sans, fen=None, seed=4):
    """Render the plies `sans` (from `fen`, or the start) with a side-on camera and
    referee them; returns the referee and every event."""
    board = chess.Board(fen) if fen else chess.Board()
    positions = []
    for san in [None] + list(sans):
        if san:
            board.push_san(san)
        positions.append(Position.from_placement({chess.square_name(sq): p.symbol()
                                                  for sq, p in board.piece_map().items()}))
    camera = Camera.side_on(seed=seed)
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners_in_frame(camera))
    referee = Referee(Journal(":memory:"), Bus())
    table = Table(referee, GameSettings(name="chess"), CameraSettings(corners=corners))
    result, events = table.run(NewGame(game="chess", setup={"fen": fen} if fen else None))
    assert result.ok, result.error
    for t, frame in render_game(positions, camera=camera, seed=seed):
        events += table.feed(t, frame)
    return referee, events


def test_a_bishop_leaving_c8_behind_the_queen_on_d8_is_seen():
    sans = ["d4", "d5", "Nf3", "Bg4", "e3", "e6"]
    referee, events = follow(sans)
    assert referee.history == sans
    assert [e for e in events if e.kind in ("illegal", "doubt")] == []
    assert all(e.data["decided_after_s"] <= 0.5 for e in events if e.kind == "move")


def test_a_promoted_queen_that_moves_on_is_followed():
    fen = "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1"
    sans = ["b8=Q+", "Kd7", "Qb5+", "Ke7", "Qe5+", "Kd7"]
    referee, events = follow(sans, fen=fen)
    assert referee.history == sans
    assert [e for e in events if e.kind in ("illegal", "doubt")] == []


def test_a_castled_king_and_rook_leaning_off_the_board_from_a_low_camera_are_no_hand():
    """A camera low at the side (under 30 degrees over the table) and a tall set: the king
    and rook castled on g8 and f8 lean over the squares behind them and far past the
    board's edge, a thing that reaches in from outside as an arm does, and stays. Before,
    it covered d8 to h8 for good, so 7...O-O was recorded as ...Rg8 (h8 emptied, g8
    filled: all the rest lay under the "hand"). Its squares read surely as castled, as
    one of the histories the referee keeps has them: it is part of the
    table at once, and castling is recorded."""
    from chess_watching import kinds_of, positions_of, watch

    sans = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6 Be3 Bg7 f3 O-O Qd2 Nc6".split()
    positions, _ = positions_of(sans)
    camera = Camera(height=5.0, back=5.0, bearing=90.0, seed=3)
    referee, events = watch(positions, style="wood", camera=camera, clicked=True, still_s=2.0, seed=3, tall=1.5)
    assert referee.history == sans
    assert kinds_of(events, "illegal") == []


def test_both_sides_castling_queenside_under_their_own_lean_from_the_side_are_followed():
    """From the h-file side, taller pieces: after O-O-O the king on c1 and the rook on d1
    lean over b1 and the squares behind them, a thing the cover takes for an arm lying
    over a1 to f1, and every square castling changed lies under it. No history held
    castling yet, so nothing told the lean from a hand: O-O-O and ...O-O-O stayed unseen,
    and 6. e3 Qe6 was recorded for 6. e3 e6 (the queen gone from d7 under the lean).
    Now the referee tells the watcher the boards one move on too, and b1, read red behind
    the red king, reads as a lean does."""
    from chess_watching import kinds_of, positions_of, watch

    sans = "d4 d5 Nc3 Nc6 Bf4 Bf5 Qd2 Qd7 O-O-O O-O-O e3 e6".split()
    positions, _ = positions_of(sans)
    referee, events = watch(positions, style="walnut", camera=Camera.side_on(seed=2), clicked=True, still_s=2.0,
                            seed=2, tall=1.5)
    assert referee.history == sans
    assert kinds_of(events, "illegal") == []


@pytest.mark.parametrize("style, bearing, seed, misread", [("wood", 90.0, 3, "17. Ba6 for Bc4"),
                                                           ("walnut", 270.0, 4, "15. Kd2 for Qd2")])
def test_a_low_side_camera_learns_what_every_history_agrees_on_while_the_next_ply_is_unsettled(
        style, bearing, seed, misread):
    """A low camera at the side, tall pieces: after a ply is recorded the next one is
    often made before every history the referee keeps is one again, and the camera
    learned a position only then. The change was measured from a position many plies
    old (from 4...d6 to 9. Nc3 once), against pieces and leans long gone, and a later ply
    was misread (Ba6 for Bc4, Kd2 for Qd2). Now a still, clear view teaches the recorded
    position at once but for the squares a close history has otherwise and those both
    its looks and its change read otherwise (a piece put where no history explains it is
    not learned as the square it should be: controller/following.py `_unsettled`)."""
    from chess_watching import kinds_of, positions_of, watch

    sans = "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6 Be3 Bg7 f3 O-O Qd2 Nc6 Bc4 Bd7".split()
    positions, _ = positions_of(sans)
    camera = Camera(height=5.0, back=5.0, bearing=bearing, seed=seed)
    referee, events = watch(positions, style=style, camera=camera, clicked=True, still_s=2.0, seed=seed, tall=1.5)
    assert referee.history == sans, misread
    assert kinds_of(events, "illegal") == []
