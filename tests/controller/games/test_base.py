"""What every game gets from the Game protocol (controller/games/base.py) unless it says
otherwise, on the real games: a board put right in words (move back, take off, put
back, one label for another), check then apply as the one path of an action, what one
view may show happened (lazily, never past a game's end), a variant or settings or a
setup that is no such thing refused with words naming it, and the defaults a game
without secrets, dice or an out-of-turn actor relies on."""
import pytest

from controller.games.base import IllegalAction, NotationError
from controller.games.chess.rules import Chess
from controller.games.connect4 import Connect4
from controller.i18n import translator


@pytest.fixture
def c4():
    game = Connect4("classic")
    return game, game.start(None)


def after(game, state, *texts):
    for text in texts:
        state = game.play(state, game.parse(state, text))
    return state


def test_a_wrong_board_is_put_right_in_the_game_s_words(c4):
    """Mario's chip seen in column 2 instead of column 1 goes back; Luigi's chip on a
    hole that should be empty comes off; a missing chip is put back; one colour for the
    other is named; a board as it should be needs nothing."""
    game, state = c4
    state = after(game, state, "1", "3")  # Mario's chip at (0, 0), Luigi's at (2, 0)
    board = game.board(state)
    moved = {**board, (0, 0): "empty", (1, 0): "p0"}
    assert game.fix(state, moved) == "move Mario's chip from column 2, row 1 back to column 1, row 1"
    assert game.fix(state, {**board, (5, 0): "p1"}) == "take Luigi's chip off column 6, row 1"
    assert game.fix(state, {**board, (2, 0): "empty"}) == "put Luigi's chip back on column 3, row 1"
    assert game.fix(state, {**board, (2, 0): "p0"}) == "put Luigi's chip on column 3, row 1, not Mario's chip"
    assert game.fix(state, board) == "put the board back as it was"
    fr = Connect4("classic", lang="fr")
    assert "colonne 2" in fr.fix(state, moved) and fr.fix(state, moved) != game.fix(state, moved)


def test_an_action_is_checked_before_it_is_applied(c4):
    """`play` is the one path: an illegal action raises with the rule broken and gives
    no new state; text that is no action is a NotationError."""
    game, state = c4
    full = after(game, state, *["4"] * 6)
    with pytest.raises(IllegalAction):
        game.play(full, game.parse(full, "4"))
    with pytest.raises(NotationError):
        game.parse(state, "nine")
    assert game.board(after(game, state, "4"))[(3, 0)] == "p0"


def test_what_one_view_may_show_happened_is_built_lazily_and_never_past_the_end():
    """Chess lets two plies happen between two still views: first every single ply, then
    every pair, the second only when asked; a ply that ends the game is followed by
    nothing (the king taking the last rook draws: no king's move after it is
    considered, though the kings could still move)."""
    game = Chess()
    state = game.start(None)
    lengths = game.sequences(state)
    singles = next(lengths)
    assert len(singles) == 20 and all(len(actions) == 1 for actions, _ in singles)
    assert len(next(lengths)) == 400
    with pytest.raises(StopIteration):
        next(lengths)
    last_rook = game.start({"fen": "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"})
    singles, pairs = game.sequences(last_rook)
    ends = [actions for actions, s in singles if game.outcome(s) is not None]
    assert [game.notation(last_rook, a[0]) for a in ends] == ["Kxd2"]  # two bare kings: a draw
    assert pairs and not [actions for actions, _ in pairs if actions[0] == ends[0][0]]


def test_a_variant_settings_or_setup_that_is_no_such_thing_is_refused_with_words():
    with pytest.raises(ValueError, match=r"connect4 has no variant 'giant'; expected one of classic, blocker"):
        Connect4("giant")
    with pytest.raises(ValueError, match=r"connect4 settings are .*; expected KEY = VALUE pairs"):
        Connect4("classic", settings=[1, 2])
    game = Connect4("classic")
    assert game.checked_setup(None) == {}
    with pytest.raises(ValueError, match="connect4 setup"):
        game.checked_setup({"fen": 5})
    assert Connect4(None).variant == "classic"  # no variant: the first
    assert Connect4("blocker", lang="de").title == translator("de")("Connect 4") == "4 gewinnt"


def test_the_defaults_of_a_game_without_secrets_dice_or_out_of_turn_players(c4):
    """Everyone sees the whole state; nothing is a roll; the voice says a move's words;
    `said_by` takes text as typed; a game with one board has no sheet to print."""
    game, state = c4
    assert game.seen_by(state, None) is state and game.seen_by(state, 1) is state
    assert not game.is_roll(game.parse(state, "4"))
    assert game.spoken({"text": "Mario drops a chip in column 4", "notation": "4"}) == "Mario drops a chip in column 4"
    assert game.spoken({"notation": "4"}) == "4"
    assert game.said_by(state, "4", 1) == "4"
    assert game.public_setup({"anything": 1}) == {} and game.reader_options(state) == {}
    with pytest.raises(ValueError, match="one board sheet"):
        game.sheet(2)
    assert game.not_one_seats(state, game.parse(state, "4")) == \
        "'4' is not one player's to enter: the referee enters it (admin)"
