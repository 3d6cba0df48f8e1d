"""Chess endings through the camera path: rendered frames -> Watcher -> Referee. The
game ends (or, for a claimable draw, does not) the moment the camera sees the last move,
as shared/RULINGS.md section 1 says. Games that end late start from a FEN near the end,
so only a few positions are rendered."""
import chess
import pytest

from chess_watching import assert_in_time, kinds_of, position, positions_of, watch


def from_fen(fen: str, sans) -> list:
    """The rendered positions of `fen`, then after each SAN move."""
    board = chess.Board(fen)
    out = [position(board)]
    for san in sans:
        board.push_san(san)
        out.append(position(board))
    return out


def assert_ends(events, sans, reason):
    """No false alarm, every move recorded in time, and exactly one game_over, after the
    last move, with `reason`."""
    assert kinds_of(events, "illegal") == []
    moves = kinds_of(events, "move")
    assert [e.data["notation"] for e in moves] == sans
    assert_in_time(moves)
    over = kinds_of(events, "game_over")
    assert len(over) == 1 and over[0].data["reason"] == reason
    assert events.index(over[0]) > events.index(moves[-1])


def test_fools_mate_seen_by_the_camera_ends_the_game_for_bowsers_team():
    sans = "f3 e5 g4 Qh4#".split()
    positions, _ = positions_of(sans)
    referee, events = watch(positions)
    assert_ends(events, sans, "Mario is checkmated")
    assert kinds_of(events, "game_over")[0].data["winner"] == 1  # seat 1: Bowser's team


STYLES = pytest.mark.parametrize("style", ["mario", "wood"])


@STYLES
@pytest.mark.parametrize("fen, sans, reason", [
    ("k7/8/8/2Q5/8/8/8/7K w - - 0 1", ["Qb6"], "draw: stalemate, Bowser's team has no legal move"),
    # Peach (a bishop) takes Bowser's last piece but the king: K+B v K cannot mate
    ("4k3/8/8/8/8/2n5/3B4/4K3 w - - 0 1", ["Bxc3"],
     "draw: dead position, neither side has the material to checkmate"),
    # halfmove clock 148: Nc3 makes 149 plies, not yet the end; Nc6 makes 150
    ("rn2k3/pppp4/8/8/8/8/PPPP4/RN2K3 w - - 148 120", ["Nc3", "Nc6"],
     "draw: 75 moves by each side without a capture or a pawn move"),
], ids=["stalemate", "dead-position", "75-moves"])
def test_an_ending_seen_by_the_camera_ends_the_game_from_a_position(style, fen, sans, reason):
    referee, events = watch(from_fen(fen, sans), style=style, setup={"fen": fen})
    assert_ends(events, sans, reason)


@STYLES
@pytest.mark.parametrize("fen, sans", [
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 60", ["Ra2", "Kd8"]),
    ("8/8/4k3/8/8/2R5/8/4K3 w - - 0 60", ["Rc4", "Kd5"]),
    ("4k3/8/8/8/8/8/8/Q3K3 w - - 0 60", ["Qa2", "Kf8"]),
])
def test_a_bare_ending_learned_from_its_position_is_followed(style, fen, sans):
    """Few pieces, each side seen on one square colour only at the start: the reader
    borrows a side's look from the other square colour."""
    positions = from_fen(fen, sans)
    referee, events = watch(positions, style=style, setup={"fen": fen})
    assert kinds_of(events, "illegal") == []
    assert referee.history == sans


KNIGHTS = "Nf3 Nf6 Ng1 Ng8".split()


def test_threefold_repetition_goes_on_until_a_player_claims_the_draw_on_the_page():
    # the start position's third occurrence is at ply 8; play goes on, and at ply 10 the
    # position after Nf3 Nf6 occurs for the third time: the claim is typed then.
    sans = KNIGHTS * 2 + KNIGHTS[:2]
    positions, _ = positions_of(sans)
    referee, events = watch(positions, entries={10: "claim draw"})
    assert kinds_of(events, "illegal") == []
    assert referee.history == sans + ["claim draw"]
    moves = kinds_of(events, "move")
    assert_in_time([e for e in moves if e.data["source"] == "camera"])
    over = kinds_of(events, "game_over")
    assert len(over) == 1 and over[0].data["reason"].startswith("draw: threefold repetition, claimed by ")
    assert events.index(over[0]) > events.index(moves[-1])  # not before the claim


def test_fivefold_repetition_ends_the_game_without_a_claim():
    sans = KNIGHTS * 4
    positions, _ = positions_of(sans)
    referee, events = watch(positions)
    assert_ends(events, sans, "draw: the same position occurred five times")
