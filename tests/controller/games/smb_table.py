"""Super Mario Bros. games for the tests of controller/games/smb/: a game with the hands
and the top of the deck a test names, inputs played through the text the referee
journals, and a refusal's reason."""
from dataclasses import replace

import pytest

from controller.games.base import IllegalAction
from controller.games.smb.rules import SuperMarioBros
from support import deck_with


def new(players=2, hands=(), top=(), settings=None, **changes):
    game = SuperMarioBros(settings={"players": players, **(settings or {})})
    state = game.start({"players": players, "deck": deck_with(hands, top, players), "seed": 7})
    return game, replace(state, **changes)


def play(game, state, *texts):
    for text in texts:
        state = game.play(state, game.parse(state, text))
    return state


def illegal(game, state, text) -> str:
    with pytest.raises(IllegalAction) as err:
        game.play(state, game.parse(state, text))
    return err.value.reason


def moved_once(players=3, **kw):
    """Seat 0 has rolled and moved once (to w1-01); seats 1 and 2 hold hazards."""
    game, s = new(players=players, hands=[["fireball"], ["goomba", "blooper", "koopa"],
                                          ["goomba", "hammer_bro", "piranha"]], **kw)
    s = play(game, s, "roll red")
    return game, play(game, s, f"move {s.targets[0]}")
