"""Chess through the camera path: rendered frames -> Watcher (markers, motion gate,
SquareReader) -> Referee. Real master games in both styles, every special move, quick
replies, illegal moves with their messages and a knocked-over piece."""
import chess
import cv2
import numpy as np
import pytest

from chess_watching import assert_in_time, kinds_of, position, positions_of, table_at, watch
from controller.demo_rig.render_chess import Camera, Position, render
from controller.events import Settle
from support import master_game

GAMES = ["kasparov-deep-blue-1997-game1.pgn", "kasparov-deep-blue-1997-game2.pgn",
         "nepomniachtchi-liren-2023-game1.pgn"]


def assert_whole_game(pgn_name, style, plies=None):
    sans = master_game(plies, pgn_name)
    positions, _ = positions_of(sans)
    referee, events = watch(positions, style=style)
    assert kinds_of(events, "illegal") == []
    assert referee.history == sans
    assert_in_time(kinds_of(events, "move"))


@pytest.mark.parametrize("style", ["mario", "wood"])
@pytest.mark.parametrize("pgn_name", GAMES)
def test_first_forty_plies_of_a_master_game_every_move_right(pgn_name, style):
    assert_whole_game(pgn_name, style, plies=40)


@pytest.mark.slow
@pytest.mark.parametrize("style", ["mario", "wood"])
@pytest.mark.parametrize("pgn_name", GAMES)
def test_whole_master_games_every_move_right_no_false_alarm(pgn_name, style):
    assert_whole_game(pgn_name, style)


@pytest.mark.parametrize("where", ["above", "side_on"])
def test_dark_pieces_on_dark_squares_from_above_and_from_a_low_side(where):
    """A walnut set (dark pieces on dark squares, light on light), a camera on a stand
    straight above or low at the h-file side (tall pieces hide the squares behind them),
    hands over the board, its corners clicked, and two quick replies: every ply in order,
    decided in time (`assert_in_time`), with no alarm and nothing
    corrected."""
    sans = master_game(30, GAMES[1])
    positions, _ = positions_of(sans)
    camera = getattr(Camera, where)(seed=2)
    referee, events = watch(positions, style="walnut", quick=(9, 24), camera=camera, clicked=True)
    assert referee.history == sans
    assert [e for e in events if e.kind in ("illegal", "corrected")] == []
    assert_in_time(kinds_of(events, "move"))


def photographed(sans, seed=9, tall=1.4):
    """Each position of `sans` photographed once from a low side camera over a walnut set
    `tall` times the usual height, held 2 s (10 frames a second, sensor noise on each), as
    a folder is replayed: between photos the light drifts and the camera shifts a pixel or
    so. (referee, table, events)"""
    positions, _ = positions_of(sans)
    camera = Camera.side_on(seed=seed)
    referee, table, events = table_at(camera, clicked=True)
    rng = np.random.default_rng(seed)
    t, light = 0.0, 1.0
    for pos in positions:
        photo = render(pos.labels, style="walnut", kinds=pos.kinds, camera=camera, light=light, noise=0, tall=tall)
        shift = np.float32([[1, 0, rng.uniform(-1.5, 1.5)], [0, 1, rng.uniform(-1.5, 1.5)]])
        photo = cv2.warpAffine(photo, shift, camera.size, borderMode=cv2.BORDER_REPLICATE)
        for _ in range(20):
            events += table.feed(t, np.clip(photo + rng.normal(0, 2.5, photo.shape), 0, 255).astype(np.uint8))
            t += 0.1
        light = float(np.clip(light + rng.uniform(-0.08, 0.08), 0.75, 1.15))
    return referee, table, events


def test_a_piece_leaving_a_square_hidden_behind_another_is_seen_where_it_lands():
    """Photos of each position held 2 s (no hand in sight, as a folder is replayed) from
    a low side camera over a tall walnut set: the knight leaving b8 stands behind the
    bishop on c8 and changes nothing the camera sees there; the referee finds the move
    from where the knight lands (c6), with no alarm (it once said "c6 shows a green
    piece": only moves from squares seen to change were tried). A pawn on a dark square
    in front of another's (e5 before d5) leaves the plies unsure here, so the page shows
    the game as the unsure line until the folder ends."""
    sans = "e4 e5 Nf3 Nc6 Bb5".split()
    referee, table, events = photographed(sans)
    assert referee.history + referee.unsure == sans  # shown, recorded or not yet sure
    events += table.run(Settle())[1]  # the folder ends: the history shown stands
    assert [e for e in events if e.kind in ("illegal", "corrected")] == []
    assert referee.history == sans


def test_tall_pieces_from_a_low_side_a_dark_bishop_leaving_its_dark_square_is_followed():
    """The opening of a real game (Nepomniachtchi-Ding 2023, game 1) photographed as
    above, pieces 1.4 times taller. A dark piece leaving or reaching a dark square (4...Nf6,
    5...Be7: the body leans out of its square) changes it little, while the grain of the
    light squares, the photo shifted a pixel or two against the one the position was
    learned from, differed from itself several times more: compared unshifted, the dark
    square looked as it was, and the referee recorded other plies (here Nge7 for Nf6;
    over the whole game Na7 and Bc6 for Be7 and Bxc6). Laid back on its reference first
    (vision/change.py `_aligned`), it shows."""
    sans = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Bxc6 dxc6".split()
    referee, table, events = photographed(sans)
    events += table.run(Settle())[1]
    assert referee.history == sans
    assert [e for e in events if e.kind in ("illegal", "doubt")] == []


def test_a_board_without_markers_is_followed_from_its_clicked_corners():
    sans = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5".split()
    positions, _ = positions_of(sans)
    referee, events = watch(positions, style="wood", clicked=True)
    assert kinds_of(events, "illegal") == []
    assert referee.history == sans


SPECIAL = "d4 e5 d5 c5 dxc6 Nf6 cxb7 Bc5 Bg5 O-O Nc3 Qe7 Qd2 d6 O-O-O Nbd7 bxa8=Q Bb7".split()


@pytest.mark.parametrize("style", ["mario", "wood"])
def test_en_passant_castling_both_ways_promotion_and_quick_replies(style):
    positions, _ = positions_of(SPECIAL)
    # quick replies: dxc6 (en passant) and Nf6 arrive in one stable view, and so do Qd2 d6.
    # (c5 and dxc6 in one view would be ambiguous: c6 then dxc6 leaves the same board.)
    referee, events = watch(positions, style=style, quick=(5, 13), entries={17: "promote n"})
    assert kinds_of(events, "illegal") == []
    assert referee.history == ["d4", "e5", "d5", "c5", "dxc6", "Nf6", "cxb7", "Bc5", "Bg5", "O-O", "Nc3",
                               "Qe7", "Qd2", "d6", "O-O-O", "Nbd7", "bxa8=Q", "promote n", "Bb7"]
    assert chess.Board(referee.snapshot()["state"]["fen"]).piece_at(chess.A8).symbol() == "N"


@pytest.mark.parametrize("seed", [3, 5])
def test_castling_answered_at_once_while_the_hand_still_lies_over_the_king_is_not_a_rook_move(seed):
    """5. O-O and 5...Be7 at once (Nepomniachtchi-Ding 2023, game 1), the camera at an
    angle: the view read as Black's hand leaves shows the rook on g1... and White's arm
    still over e1 and f1. Only moves whose cells no hand is over were weighed, so h1-g1
    (and Kf1 later) looked decisive against nothing: Rg1 Be7 Kf1 was recorded for O-O Be7,
    and the game went wrong from there. Castling leaves g1 and h1 as the rook move does:
    a view that cannot tell them apart settles neither."""
    sans = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Bxc6 dxc6".split()
    positions, _ = positions_of(sans)
    referee, events = watch(positions, style="wood", camera=Camera(seed=seed), clicked=True, quick=(9,),
                            still_s=2.0, seed=seed)
    assert referee.history == sans
    assert [e for e in events if e.kind in ("illegal", "corrected")] == []


def scene(board: chess.Board, edit) -> Position:
    """The position on `board` with pieces moved by hand: edit {square: piece symbol or
    None}, whatever the rules say."""
    b = board.copy()
    for name, symbol in edit.items():
        sq = chess.parse_square(name)
        b.remove_piece_at(sq)
        if symbol:
            b.set_piece_at(sq, chess.Piece.from_symbol(symbol))
    return position(b)


def test_illegal_moves_are_flagged_in_words_and_wait_for_the_position_to_return():
    start = chess.Board()
    after_e4 = chess.Board()
    after_e4.push_san("e4")
    positions = [
        position(start),
        scene(start, {"b1": None, "b4": "N"}),  # Yoshi jumps like no knight can
        position(start),  # taken back
        position(after_e4),  # a legal move from the restored position
        scene(after_e4, {"d2": None, "d4": "P"}),  # red again, out of turn
    ]
    referee, events = watch(positions, still_s=2.5)  # a wrong board must stay a few seconds (CONFIRM_S)
    illegal = [e.data["reason"] for e in kinds_of(events, "illegal")]
    assert illegal == ["Yoshi cannot move from b1 to b4: a knight moves in an L, two squares one way "
                       "and one to the side",
                       "it is Bowser's team's turn: Coin cannot move now"]
    assert [e.data["cells"] for e in kinds_of(events, "illegal")] == [["b1", "b4"], ["d2", "d4"]]
    assert len(kinds_of(events, "restored")) == 1
    assert referee.history == ["e4"]


# wood 4 and walnut 4 in `make test-slow` only: walnut at an angle is played on for longer
# below, and wood 7 shows the wood (each run takes 20 to 30 s)
@pytest.mark.parametrize("style, seed", [pytest.param("wood", 4, marks=pytest.mark.slow), ("wood", 7),
                                         pytest.param("walnut", 4, marks=pytest.mark.slow), ("mario", 3)])
def test_a_real_illegal_move_played_on_keeps_the_record_and_the_alarm_is_updated_once(style, seed):
    """Nepomniachtchi-Ding 2023 to 15. Nxe7+, then Black ignores the check (15...b6??) and
    both play on five plies, each position held 2 s, a hand over the squares as it moves,
    the camera at an angle (the pawn on b6 half hides b7; e7 lies behind the knight on
    e6). Before, legal histories nobody played were found for the board as it stood:
    15. Nxe7+ taken back for Nd6, ...b6, Nb7, ...Rfe8 (four turns for two hands), for
    Nxe6, Be5 (the history leaving e7 better read otherwise), or, with the Mario set, for
    Ng3, ...b6, Bxc7 (e7 half seen: a take-back whose history leaves cells strained is no
    misread ply put right), or "recovered late" as Kh8 and the plies in another order
    than the views showed them made; and a view a hand still moved over called the board
    legal again."""
    sans = master_game(29, "nepomniachtchi-liren-2023-game1.pgn")  # to 15. Nxe7+
    positions, _ = positions_of(sans)
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    for uci in ("b7b6", "f4g3", "g4h5", "f2f3", "f7f6", "h2h3"):  # 15...b6?? then five more plies
        board.push(chess.Move.from_uci(uci))
        positions.append(position(board))
    referee, events = watch(positions, style=style, camera=Camera(seed=seed), clicked=True, quick=(9, 24), still_s=2.0,
                            seed=seed)
    assert referee.history == sans
    alarms = [e.data["reason"] for e in kinds_of(events, "illegal")]
    assert len(alarms) == 2 and alarms[1] == "play went on after an illegal move; the record stands at 15. Nxe7+"
    assert [e.kind for e in events if e.kind in ("corrected", "recovered", "restored")] == []


def test_an_illegal_move_made_before_the_check_was_settled_keeps_the_check_through_six_moves_played_on():
    """As in issue 27's held-out game, Black ignores the check for six moves (15...b6??,
    then ...Bh5, ...f6, ...a5, ...g6, ...Bf7 beside the knight), walnut at an angle. The
    camera saw 15. Nxe7+ on one still view only (a lead of 5.3, not yet decisive) before
    ...b6 came: the alarm is against 15. Nxe7+, so that is the record it stands at.
    Before, the record stood at 14...Ne6, and eight plies on a legal history no view
    showed (Nh4, Bxh4, Bg3, Bh5: e7 and h4 read otherwise, strain 43) "put the board
    right" and replaced the check; a third alarm followed."""
    sans = master_game(29, "nepomniachtchi-liren-2023-game1.pgn")  # to 15. Nxe7+
    positions, _ = positions_of(sans)
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    for uci in ("b7b6", "f4g3", "g4h5", "f2f3", "f7f6", "h2h3", "a6a5", "a2a3", "g7g6", "g1h2", "h5f7", "a1d1"):
        board.push(chess.Move.from_uci(uci))
        positions.append(position(board))
    referee, events = watch(positions, style="walnut", camera=Camera(seed=5), clicked=True, quick=(9, 24),
                            still_s=2.0, seed=5)
    assert referee.history == sans
    alarms = [e.data["reason"] for e in kinds_of(events, "illegal")]
    assert len(alarms) == 2 and alarms[1] == "play went on after an illegal move; the record stands at 15. Nxe7+"
    assert [e.kind for e in events if e.kind in ("corrected", "recovered", "restored")] == []


def test_castling_through_check_is_flagged():
    sans = "e4 b6 g3 Ba6 Nf3 Nc6 Bh3 Nf6".split()
    positions, _ = positions_of(sans)
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    positions.append(scene(board, {"e1": None, "h1": None, "g1": "K", "f1": "R"}))
    referee, events = watch(positions, style="wood", still_s=2.5)
    assert referee.history == sans
    assert [e.data["reason"] for e in kinds_of(events, "illegal")] == \
        ["Mario cannot castle through check: f1 is attacked by Magikoopa on a6"]


@pytest.mark.parametrize("style, camera", [("mario", Camera(seed=3)), ("walnut", Camera.above(seed=9))],
                         ids=["mario at an angle", "walnut above"])
def test_a_knight_put_where_it_cannot_go_is_flagged_not_explained_by_plies_nobody_made(style, camera):
    """After 1. e4 e5, a player puts Yoshi from g1 on h4, one hand motion: no knight goes
    there. Nf3 Qh4 Nxh4 leaves the same colours (the queen's square seen at a quarter
    behind d7), but those are three plies for one hand, and a hand waiting at the edge,
    counted for the view read meanwhile and again once it left, counts once: before, each
    ply left a motion over, and after two plies the three found room (recorded, said as
    recovered late, no alarm)."""
    sans = ["e4", "e5"]
    positions, _ = positions_of(sans)
    board = chess.Board()
    for san in sans:
        board.push_san(san)
    positions.append(scene(board, {"g1": None, "h4": "N"}))
    referee, events = watch(positions, style=style, still_s=2.5, camera=camera)
    assert referee.history == sans
    assert [e.data["reason"] for e in kinds_of(events, "illegal")] == [
        "Yoshi cannot move from g1 to h4: a knight moves in an L, two squares one way and one to the side"]
    assert kinds_of(events, "recovered") == []


def test_a_knocked_over_piece_is_a_board_that_does_not_match():
    board = chess.Board()
    board.push_san("e4")
    upright = position(board)
    fallen = Position(upright.labels, upright.kinds, fallen=("e1",))  # Mario falls over e2
    referee, events = watch([position(chess.Board()), upright, fallen, upright], still_s=2.5)
    reasons = [e.data["reason"] for e in kinds_of(events, "illegal")]
    assert len(reasons) == 1 and reasons[0].startswith("board does not match: ")
    assert "e2 shows a red piece where an empty square should be" in reasons[0]
    assert len(kinds_of(events, "restored")) == 1  # stood up again
    assert referee.history == ["e4"]
