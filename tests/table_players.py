"""The demo's simulated players (controller/demo_rig/players/) at a text table: each
input the next player makes, in the game's notation (rolls drawn from a seeded die), and
the wrong board a player's mistake would show the camera. For tests that need a whole
game's worth of states and words fast, without rendering frames."""
from __future__ import annotations

import random

from controller.devices import dice
from controller.registry import entry


class TextTable:
    def __init__(self, game, seed: int):
        self.game = game
        self.rng = random.Random(seed)
        self.player = entry(game.name).player_class()(game, self.rng, seed)

    def inputs(self, state) -> list[str]:
        """What is typed, rolled or done at the table next: a hazard card before a roll
        now and then (its token is put down next), else the roll or the move."""
        prompt = self.game.prompt(state)
        if prompt.kind == "roll":
            card = self.player.before_roll(state)
            return [card or dice.roll(prompt.die, self.rng).notation]
        action = self.player.choose(state, prompt)
        return [action if isinstance(action, str) else self.game.notation(state, action)]

    def wrong_board(self, state) -> dict | None:
        """What the camera sees after a player's mistake at the next move (a piece put
        where the rules do not allow), or None when this move allows none."""
        game = self.game
        prompt = game.prompt(state)
        if prompt.kind == "roll":
            return None
        action = self.player.choose(state, prompt)
        if isinstance(action, str) or action not in list(game.observable_actions(state)):
            return None
        scene = self.player.wrong(state, action, game.apply(state, action))
        board = game.board(state)
        if scene is None:
            return None
        if game.name == "chess":
            return {**board, **scene.labels}
        if game.name == "labyrinth":
            return {**board, **{"pawn:" + p["colour"]: p["cell"] for p in scene["players"]}}
        return {**board, **{c: lab for c, lab in scene.items() if c in board}}


def told(referee, name: str, seed: int, steps: int, mistake_every: int = 5) -> list[str]:
    """Play a seeded game of `name` on `referee` for up to `steps` inputs, with a camera
    alarm from a player's mistake every `mistake_every` moves; every text the players
    read: prompts, the buttons' words, then each event's text, reason and fix (the
    events published on the referee's bus; the referee's language is the game's)."""
    from vision.view import BoardView

    events = []
    referee.bus.subscribe(events.append)
    referee.new_game(name, rng=random.Random(seed))
    table = TextTable(referee.game, seed)
    texts = []
    for step in range(steps):
        if referee.game.outcome(referee.state):
            break
        snap = referee.snapshot()
        texts += [snap["prompt"]["text"], *snap["prompt"]["words"].values()]
        wrong = table.wrong_board(referee.state) if step % mistake_every == 2 else None
        if wrong:
            right = referee.game.board(referee.state)
            referee.observe(BoardView({c: (lab, 0.99) for c, lab in wrong.items()}))
            referee.observe(BoardView({c: (lab, 0.99) for c, lab in right.items()}))
        for text in table.inputs(referee.state):
            referee.enter(text)
    texts.append(referee.snapshot()["prompt"]["text"])
    return texts + [e.data[k] for e in events for k in ("text", "reason", "fix") if isinstance(e.data.get(k), str)]
