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


def test_what_moved_while_the_camera_saw_nothing_is_not_counted():
    """Frames lost for seconds (a camera unplugged, a stretch of video dropped) or black
    (the lens covered): the next view says its motions are not counted (None), not 1,
    so the referee does not take "one motion" to bound what was played meanwhile; the
    view after it counts again. A source whose own pace is slow (stills 2 s apart) is
    no gap."""
    board = chess.Board()
    feed = Feed(board)
    feed.show(board, 1.0)
    for san in ("e4", "e5", "Nf3"):
        board.push_san(san)
    feed.t += 6.0  # no frames for 6 s
    feed.show(board, 1.0)
    assert feed.views[-1].motions is None
    board.push_san("Nc6")
    feed.lean_over(board)
    feed.show(board, 1.0)
    assert feed.views[-1].motions == 1
    black = render(position(board).labels, kinds=position(board).kinds, camera=CAMERA, light=0.0)
    for _ in range(20):  # 2 s of black frames while Bb5 is played
        feed.watcher.feed(feed.t, black)
        feed.t += 1 / FPS
    board.push_san("Bb5")
    feed.show(board, 1.0)
    assert feed.views[-1].motions is None

    slow = Feed(chess.Board())
    board = chess.Board()
    for san in (None, "d4", "d5", "c4"):
        if san:
            board.push_san(san)
        frame = render(position(board).labels, kinds=position(board).kinds, camera=CAMERA)
        for _ in range(4):  # each position photographed four times, 2 s apart
            view = slow.watcher.feed(slow.t, frame)
            slow.views += [view] if view is not None else []
            slow.t += 2.0
    assert [v.motions for v in slow.views][-3:] == [1, 1, 1]
