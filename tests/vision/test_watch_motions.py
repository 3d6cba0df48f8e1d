"""The Watcher counts the motions over the board between the views it returns
(`BoardView.motions`, vision/watch.py): a burst of movement that ends in stillness is one;
a quick reply made in one motion is one."""
import chess

from controller.demo_rig.render_chess import Camera, Position, corners_in_frame, render
from controller.registry import entry

FPS = 10.0
CAMERA = Camera(seed=3)


def position(board: chess.Board) -> Position:
    return Position.from_placement({chess.square_name(sq): p.symbol() for sq, p in board.piece_map().items()})


class Feed:
    def __init__(self, board: chess.Board):
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners_in_frame(CAMERA))
        self.watcher = entry("chess").watcher(corners=corners, still_s=0.25)
        self.watcher.learn(position(board).labels)  # the start, from the first still view
        self.t, self.views = 0.0, []

    def show(self, board: chess.Board, seconds: float, light: float = 1.0):
        pos = position(board)
        frame = render(pos.labels, kinds=pos.kinds, camera=CAMERA, light=light)
        for _ in range(max(1, int(seconds * FPS))):
            view = self.watcher.feed(self.t, frame)
            if view is not None:
                self.views.append(view)
            self.t += 1 / FPS

    def lean_over(self, board: chess.Board):
        """Someone leans over the table: a shadow moves over the whole board for a moment
        (no part of it still, so nothing is read meanwhile)."""
        for light in (0.8, 0.65, 0.75):
            self.show(board, 1 / FPS, light=light)


def test_separate_motions_between_two_views_are_counted():
    board = chess.Board()
    feed = Feed(board)
    feed.show(board, 1.0)
    assert len(feed.views) == 1
    feed.lean_over(board)  # nothing moved on the board
    feed.show(board, 1.5)
    assert len(feed.views) == 1  # the same board: no view (re-read after REREAD_S, the same)
    feed.lean_over(board)
    board.push_san("e4")
    feed.lean_over(board)
    feed.show(board, 1.0)
    assert len(feed.views) == 2
    assert feed.views[-1].motions == 2
    assert feed.views[-1].covered == set()


def test_a_quick_reply_in_one_motion_is_one_motion():
    board = chess.Board()
    feed = Feed(board)
    feed.show(board, 1.0)
    feed.lean_over(board)
    board.push_san("e4")
    feed.lean_over(board)  # the other player already moves: no stillness between
    board.push_san("e5")
    feed.lean_over(board)
    feed.show(board, 1.0)
    assert len(feed.views) == 2
    assert feed.views[-1].motions == 1
