"""The same beliefs follow every game the camera watches: plies need hands and a board
seen again after a lost stretch is found from the sure position in Connect 4 as in chess
(controller/beliefs.py, controller/referee.py), and in Labyrinth, where a turn is a push
and the pawn's walk, one hand."""
import random

from controller.events import Bus
from controller.journal import Journal
from controller.games.labyrinth.actions import MovePawn, Push
from controller.referee import Referee
from vision.view import BoardView

# Mario, Luigi, Mario, Luigi, all in column 4 (in an order the board shows)
DROPS = [((3, 0), "p0"), ((3, 1), "p1"), ((3, 2), "p0"), ((3, 3), "p1")]


def connect4() -> tuple[Referee, list]:
    events: list = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(Journal(":memory:"), bus)
    referee.new_game("connect4", "classic")
    return referee, events


def seen(referee: Referee, chips, t: float, motions: int | None) -> BoardView:
    """The board with `chips` dropped, read plainly, the hand gone 0.3 s before."""
    cells = {c: (lab, 0.95) for c, lab in referee.game.board(referee.game.start({})).items()}
    cells.update({c: (lab, 0.95) for c, lab in chips})
    return BoardView(cells, t=t, moved_at=t - 0.3, motions=motions)


def test_four_chips_after_one_hand_motion_are_refused_after_four_they_are_recovered_late():
    referee, events = connect4()
    referee.observe(seen(referee, [], 1.0, 0))
    referee.observe(seen(referee, DROPS, 3.0, 1))
    assert referee.history == [] and not [e for e in events if e.kind == "move"]

    referee, events = connect4()
    referee.observe(seen(referee, [], 1.0, 0))
    referee.observe(seen(referee, DROPS, 9.0, 4))
    assert referee.history == ["4", "4", "4", "4"]
    recovered = [e for e in events if e.kind == "recovered"]
    assert len(recovered) == 1 and recovered[0].data["notation"] == ["4", "4", "4", "4"]
    assert [e for e in events if e.kind == "illegal"] == []


def test_a_lost_stretch_is_found_from_the_time_since_when_motions_are_not_counted():
    """No watcher counts motions: the time since the sure position bounds the search (a
    ply a second at most): four chips eight seconds on are found, one second on not."""
    referee, events = connect4()
    referee.observe(seen(referee, [], 1.0, None))
    referee.observe(seen(referee, DROPS, 2.0, None))
    assert referee.history == []
    referee.observe(seen(referee, DROPS, 9.0, None))
    assert referee.history == ["4", "4", "4", "4"]
    assert len([e for e in events if e.kind == "recovered"]) == 1


def labyrinth_turns(turns: int, seed: int = 3):
    """A Labyrinth referee at the start, and the board after `turns` turns (a push, then
    the pawn's walk where it goes anywhere), with the actions in notation."""
    events: list = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(Journal(":memory:"), bus)
    referee.new_game("labyrinth", rng=random.Random(seed))
    game, state, rng, truth = referee.game, referee.state, random.Random(seed), []
    for _ in range(turns):
        push = rng.choice([a for a in [*game.legal_actions(state), *game.observable_actions(state)]
                           if isinstance(a, Push)])
        truth.append(game.notation(state, push))
        state = game.apply(state, push)
        walks = [a for a in game.legal_actions(state) if isinstance(a, MovePawn)
                 and game.board(game.apply(state, a)) != game.board(state)]
        if walks:
            walk = rng.choice(walks)
            truth.append(game.notation(state, walk))
            state = game.apply(state, walk)
    return referee, events, truth, game.board(state)


def plain(board: dict, t: float, motions: int) -> BoardView:
    return BoardView({c: (lab, 0.95) for c, lab in board.items()}, t=t, moved_at=t - 0.3, motions=motions)


def test_labyrinth_three_turns_after_one_hand_motion_are_refused_after_three_they_are_recovered_late():
    """Three turns (a push and a walk each; in this deal two pawns stay) seen at once:
    after one hand motion no history is taken; after three they are found from the sure
    position, recorded in order and said once."""
    referee, events, truth, board = labyrinth_turns(3)
    assert len(truth) == 4  # the pushes and the one walk this deal makes
    start = referee.game.board(referee.state)
    referee.observe(plain(start, 1.0, 0))
    referee.observe(plain(board, 3.0, 1))
    referee.observe(plain(board, 3.5, 0))
    assert referee.history == [] and not [e for e in events if e.kind == "move"]

    referee, events, truth, board = labyrinth_turns(3)
    referee.observe(plain(start, 1.0, 0))
    referee.observe(plain(board, 9.0, 3))
    referee.observe(plain(board, 9.5, 0))
    assert referee.history == truth
    recovered = [e for e in events if e.kind == "recovered"]
    assert len(recovered) == 1 and recovered[0].data["notation"] == truth
    assert [e for e in events if e.kind in ("illegal", "doubt")] == []


def test_a_connect4_game_seen_again_5_and_8_chips_later_is_followed():
    """Connect 4, a chip every 2 s, motions not counted; the camera sees nothing for 5
    chips after the 2nd and for 8 after the 9th: every board it saw is reached, the
    chips it saw recorded in order, each stretch said once as recovered late, no alarm."""
    referee, events = connect4()
    game = referee.game
    columns = [3, 3, 2, 4, 4, 2, 5, 1, 3, 0, 6, 6, 0, 5, 1, 4, 2, 6, 5, 0, 1]
    lost = {2: 5, 9: 8}
    state, t, i, seen_at = game.start({}), 1.0, 0, []
    boards = [game.board(state)]
    for col in columns:
        state = game.apply(state, game.parse(state, str(col + 1)))
        boards.append(game.board(state))
    referee.observe(seen(referee, [], t, None))
    while i < len(columns):
        n = lost.get(i, 1)
        i += n
        t += 2.0 * n
        seen_at.append(i)
        referee.observe(seen(referee, list(boards[i].items()), t, None))
    referee.settle()

    def board_after(notations):
        s = game.start({})
        for text in notations:
            s = game.apply(s, game.parse(s, text))
        return game.board(s)

    assert len(referee.history) == len(columns)
    assert all(board_after(referee.history[:i]) == boards[i] for i in seen_at)
    unseen = {p for start, n in lost.items() for p in range(start, start + n)}
    assert [h for k, h in enumerate(referee.history) if k not in unseen] == \
        [str(c + 1) for k, c in enumerate(columns) if k not in unseen]
    assert len([e for e in events if e.kind == "recovered"]) == 2
    assert [e for e in events if e.kind == "illegal"] == []
