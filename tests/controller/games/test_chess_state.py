"""A chess position as a value (controller/games/chess/state.py): made lazily from its
parent and a move, yet the same as python-chess's board; repetition and automatic ends."""
import random
import threading

import chess

from controller.games.chess.actions import notation
from controller.games.chess.state import ChessState, first_move, position_key


def test_a_state_made_by_moves_sees_what_a_fresh_board_sees():
    """The camera's squares come from the parent and the squares the move changes; they
    must equal a board built from scratch, and the squares changed must be exactly those
    that differ (the recovery walk knows a move by them alone): along random games, and
    every move where either side may castle either way, take en passant or promote."""
    def check(state, move):
        changes, after = state.changes(move), state.after(move)
        cells = after.cells  # from the parent's and the move's, before its board is built
        fresh = ChessState(fen=after.board.fen())
        assert cells == fresh.cells
        assert changes == {sq: lab for sq, lab in fresh.cells.items() if state.cells[sq] != lab}
        return after

    rng = random.Random(3)
    for _ in range(4):
        state = ChessState()
        for _ply in range(120):
            moves = list(state.board.legal_moves)
            if not moves:
                break
            state = check(state, rng.choice(moves))
        assert chess.Board().fen() != state.board.fen()
    for fen in ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
                "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1",
                "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1"]:
        state = ChessState(fen=fen)
        for move in state.board.legal_moves:
            check(state, move)


def test_a_draw_offer_stands_until_the_other_side_moves():
    state = ChessState(draw_offer=0)
    after = state.after(chess.Move.from_uci("e2e4"))  # the offerer moves: the offer stands
    assert after.draw_offer == 0 and after.moves == ("e2e4",)
    assert after.after(chess.Move.from_uci("e7e5")).draw_offer is None  # the other side moved instead


def test_repetitions_count_the_same_position_and_a_capture_starts_afresh():
    state = ChessState()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        state = state.after(chess.Move.from_uci(uci))
    assert state.repetitions == 3
    assert state.after(chess.Move.from_uci("e2e4")).keys == (position_key(state.after(chess.Move.from_uci("e2e4")).board),)


def test_positions_differ_by_a_capturable_en_passant_square_only():
    plain = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1")
    capturable = chess.Board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    idle = chess.Board("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1")  # no pawn can take: the same as none
    assert position_key(plain) != position_key(capturable)
    assert position_key(idle) == position_key(chess.Board("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1"))


def test_ends_that_need_no_claim_and_the_first_move_of_a_set_position():
    mate = ChessState(fen="7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert mate.automatic_end[0] == 0 and mate.automatic_end[2] == {"king": "Bowser"}
    assert ChessState(fen="7k/8/6K1/8/8/8/8/8 b - - 0 1").automatic_end[1].startswith("draw: dead position")
    assert ChessState().automatic_end is None
    assert first_move(None) == (1, "white") and first_move("4k3/8/8/8/8/8/8/4K3 b - - 0 30") == (30, "black")


def test_naming_moves_of_one_position_from_two_threads_at_once_never_fails():
    """The demo's camera thread and the referee name moves of the same state at once
    (`notation`); python-chess writes SAN by playing the move on the board and taking it
    back, and a state's board is shared: one thread once read the other's move half made
    ("san() and lan() expect move to be legal") and the service stopped."""
    state = ChessState()
    for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5"):
        state = state.after(chess.Move.from_uci(uci))
    moves = list(state.board.legal_moves)
    expected = [chess.Board(state.board.fen()).san(m) for m in moves]
    errors, named = [], []

    def name_them():
        try:
            for _ in range(150):
                named.append([notation(state, m) for m in moves])
        except Exception as exc:  # noqa: BLE001 (what the other thread broke, reported below)
            errors.append(repr(exc))

    threads = [threading.Thread(target=name_them) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(names == expected for names in named)
