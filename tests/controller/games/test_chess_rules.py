"""Mario chess rules (controller/games/chess/rules.py) as a user meets them: moves typed
into `referee play --game chess --json` (a real subprocess), and the draw rules that need
long games through the Game API directly."""
import json
import random
import subprocess
from collections import Counter
import sys

import chess
import pytest

from controller.games import load_game


def play(*lines: str) -> list[dict]:
    """Run `referee play --game chess --json` on these input lines; its JSON events."""
    out = subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "chess", "--json"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def moves(events):
    return [e["notation"] for e in events if e["type"] == "move"]


def illegal(events):
    return [e["reason"] for e in events if e["type"] == "illegal"]


def last_state(events):
    return [e for e in events if e["type"] == "state"][-1]


def test_castling_both_sides_en_passant_and_promotion_with_the_page_choice():
    events = play("d4", "e5", "d5", "c5", "d5c6",  # en passant, in UCI
                  "Nf6", "cxb7", "Bc5", "Bg5", "O-O",  # green castles kingside
                  "Nc3", "Qe7", "Qd2", "d6", "e1c1",  # red castles queenside, in UCI
                  "Nbd7", "bxa8",  # promotion without a piece: a queen
                  "promote n",  # the page's choice, before the next move
                  "Bb7", "promote q")  # too late: the next move was made
    assert moves(events) == ["d4", "e5", "d5", "c5", "dxc6", "Nf6", "cxb7", "Bc5", "Bg5", "O-O",
                             "Nc3", "Qe7", "Qd2", "d6", "O-O-O", "Nbd7", "bxa8=Q", "promote n", "Bb7"]
    texts = [e["text"] for e in events if e["type"] == "move"]
    assert texts[4] == "Coin moves from d5 to c6 and captures Green Shell en passant"
    assert texts[9] == "Bowser castles kingside"
    assert texts[14] == "Mario castles queenside"
    assert texts[16] == "Coin moves from b7 to a8 and captures Goomba, promoted to Luigi"
    assert texts[17] == "the piece promoted on a8 becomes Yoshi"
    board = chess.Board(last_state(events)["state"]["fen"])
    assert board.piece_at(chess.A8) == chess.Piece(chess.KNIGHT, chess.WHITE)
    assert board.piece_at(chess.C6) is None and board.piece_at(chess.D5) is None
    assert board.piece_at(chess.C1).symbol() == "K" and board.piece_at(chess.D1).symbol() == "R"
    assert board.piece_at(chess.G8).symbol() == "k" and board.piece_at(chess.F8).symbol() == "r"
    assert illegal(events) == ["'promote' changes a promoted piece only right after the promotion, "
                               "before the next move"]


def test_prompt_announces_check_and_whose_turn():
    events = play("e4", "f5", "Qh5")
    assert last_state(events)["prompt"]["text"] == "Bowser's team to move (green); Bowser is in check"
    assert last_state(events)["prompt"]["seat"] == 1


def test_illegal_input_through_the_cli_changes_nothing():
    events = play("b1b4", "e4", "d2d4", "e5", "O-O", "Nf3", "Nf6", "Bc4", "Bc5", "O-O")
    assert illegal(events) == [
        "Yoshi cannot move from b1 to b4: a knight moves in an L, two squares one way and one to the side",
        "it is Bowser's team's turn: Coin cannot move now",
        "Mario cannot castle kingside: Daisy on f1 is in the way"]
    assert moves(events) == ["e4", "e5", "Nf3", "Nf6", "Bc4", "Bc5", "O-O"]


def test_en_passant_only_right_after_the_double_step():
    events = play("e4", "a6", "e5", "d5", "a3", "a5", "exd6")
    assert illegal(events) == ["Coin cannot move from e5 to d6: a pawn moves diagonally only to capture "
                               "(en passant only right after the other pawn's two-square step)"]


def test_text_that_is_not_a_move_gets_a_usage_hint():
    events = play("hello", "e7e8k")
    assert illegal(events)[0] == "'hello' is not a chess move. Mario's team to move (red)"
    assert [e.get("usage", "") for e in events if e["type"] == "illegal"][0].startswith("expected UCI (e2e4, e7e8q), SAN")
    assert illegal(events)[1] == "'e7e8k': a pawn is promoted to q, r, b or n, never to a king"


def test_checkmate_and_stalemate_end_the_game():
    mate = play("f3", "e5", "g4", "Qh4#", "e4")
    over = [e for e in mate if e["type"] == "game_over"]
    assert over[0]["reason"] == "Mario is checkmated" and over[0]["winner"] == 1
    assert illegal(mate) == ["the game is over: Mario is checkmated"]
    # Sam Loyd's ten-move stalemate
    stale = play(*"e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6 Qe6".split())
    over = [e for e in stale if e["type"] == "game_over"]
    assert over[0]["reason"] == "draw: stalemate, Bowser's team has no legal move" and over[0]["winner"] is None


def test_resignation_and_agreed_draws_are_entered_as_text():
    events = play("e4", "resign")
    assert [e["reason"] for e in events if e["type"] == "game_over"] == ["Bowser's team resigns"]
    events = play("e4", "resign red")
    assert [e["winner"] for e in events if e["type"] == "game_over"] == [1]
    # green offers with its move; the offer stands over green's own move, and red's move
    # instead of an answer declines it
    events = play("e4", "offer draw", "e5", "Nf3", "accept draw")
    assert moves(events) == ["e4", "offer draw green", "e5", "Nf3"]
    assert illegal(events) == ["there is no draw offer to accept ('offer draw' first, or 'draw agreed' "
                               "when both players agree)"]
    events = play("e4", "offer draw", "e5", "accept draw")
    assert [e["reason"] for e in events if e["type"] == "game_over"] == ["draw agreed"]
    events = play("e4", "offer draw", "accept draw")
    assert moves(events) == ["e4", "offer draw green", "accept draw red"]
    assert [e["reason"] for e in events if e["type"] == "game_over"] == ["draw agreed"]
    events = play("draw agreed")
    assert [e["reason"] for e in events if e["type"] == "game_over"] == ["draw agreed"]


def test_threefold_is_claimed_and_fivefold_ends_the_game():
    dance = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2
    events = play(*dance, "claim draw")
    assert [e["reason"] for e in events if e["type"] == "game_over"] == \
        ["draw: threefold repetition, claimed by Mario's team"]
    events = play(*dance * 2)
    assert [e["reason"] for e in events if e["type"] == "game_over"] == \
        ["draw: the same position occurred five times"]
    assert len(moves(events)) == 16


def quiet_moves(game, state, n: int, seed: int):
    """`n` moves with no capture, no pawn move, no mate and no position seen a third time:
    the 50- and 75-move rules without a repetition to claim."""
    rng = random.Random(seed)
    seen = Counter([state.keys[-1]])
    played = []
    while len(played) < n:
        options = [m for m in state.board.legal_moves if not state.board.is_zeroing(m)]
        rng.shuffle(options)
        for move in options:
            after = game.apply(state, move)
            if seen[after.keys[-1]] < 2 and not after.board.is_checkmate() and not after.board.is_stalemate():
                break
        else:
            raise AssertionError("the quiet walk got stuck; pick another seed")
        seen[after.keys[-1]] += 1
        played.append(state.board.san(move))
        state = after
    return played, state


def test_fifty_moves_are_claimed_and_seventy_five_end_the_game():
    game = load_game("chess")
    state = game.start()
    for san in "e4 e5 d4 d5 c4 c5".split():
        state = game.play(state, game.parse(state, san))
    sans, at100 = quiet_moves(game, state, 100, seed=4)
    assert "50 moves by each side" in game.prompt(at100).text
    claimed = game.play(at100, game.parse(at100, "claim draw"))
    assert game.outcome(claimed).reason.startswith("draw: 50 moves by each side without a capture or a pawn move")
    _, at149 = quiet_moves(game, state, 149, seed=4)
    assert game.outcome(at149) is None
    _, at150 = quiet_moves(game, state, 150, seed=4)
    assert game.outcome(at150).reason == "draw: 75 moves by each side without a capture or a pawn move"
    # the same through the CLI, claimed at 100 plies
    events = play("e4", "e5", "d4", "d5", "c4", "c5", *sans, "claim draw")
    assert "50 moves" in [e["reason"] for e in events if e["type"] == "game_over"][0]


def test_a_dead_position_ends_the_game():
    """A seeded game that captures whenever it can, until neither side can mate."""
    game = load_game("chess")
    rng = random.Random(0)
    state = game.start()
    while game.outcome(state) is None:
        legal = list(state.board.legal_moves)
        captures = [m for m in legal if state.board.is_capture(m)]
        move = rng.choice(captures or legal)
        state = game.play(state, game.parse(state, move.uci()))
    assert game.outcome(state).reason == "draw: dead position, neither side has the material to checkmate"


def test_settings_choose_the_rulings_and_bad_ones_are_named():
    auto = load_game("chess", settings={"claimable_draws": "automatic"})
    state = auto.start()
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        state = auto.play(state, auto.parse(state, san))
    assert auto.outcome(state).reason == "draw: threefold repetition"
    rook = load_game("chess", settings={"default_promotion": "r"})
    assert rook.parse(rook.start(), "a7a8").promotion == chess.ROOK  # a pawn's step to the last rank
    assert {r.key: r.value for r in rook.rulings()}["default_promotion"] == "r"
    with pytest.raises(ValueError, match="chess setting 'claimable_draws' is 'never'"):
        load_game("chess", settings={"claimable_draws": "never"})
    with pytest.raises(ValueError, match="chess has no setting 'colour'"):
        load_game("chess", settings={"colour": "red"})


def test_the_promoter_picks_the_piece_from_their_own_phone():
    """After a promotion the other side is to move; the promoting player's phone may still
    choose the piece, and the other side's may not."""
    from controller.journal import Journal
    from controller.referee import Referee

    referee = Referee(Journal(":memory:"))
    referee.new_game("chess", setup={"fen": "8/4P3/8/8/8/k6p/8/4K3 w - - 0 1"})
    assert referee.enter("e8=Q", seat=0).kind == "move"
    refused = referee.enter("promote n", seat=1)
    assert refused.kind == "illegal" and "not Bowser's team's" in refused.data["reason"]
    chosen = referee.enter("promote n", seat=0)
    assert chosen.kind == "move" and referee.state.board.piece_at(60).symbol() == "N"
    assert referee.enter("resign green", seat=1).kind == "move"
