"""The demo's simulated players (controller/demo_rig/players/), each found through its
game's registry entry: what `referee demo` relies on to play whole games unattended.
Seeded, a game's players choose only what its rules allow, turn after turn (a choice the
rules refused would stop the demo's game), and the film of a move on the table ends on
the position after it, as the game's camera reader reads it (a film ending anywhere else
would leave the referee waiting, or sound an alarm nobody caused)."""
import random

import pytest

from controller.devices import dice
from controller.games import load_game
from controller.registry import ENTRIES, entry

INPUTS = 40  # each game's inputs played (Connect 4 may end sooner)
SEED = 1


def seeded_game(name: str):
    """The game in the variant its demo plays, its players, and the start they set up."""
    game = load_game(name, entry(name).player_class().variant)
    rng = random.Random(SEED)
    player = entry(name).player_class()(game, rng, SEED)
    return game, player, rng, game.start(game.new_setup(rng))


def turns(game, player, rng, state, inputs: int = INPUTS):
    """(state, action) of each input at the table: a hazard card or a roll when one is
    due (rolls from a seeded die, as the die module gives them), else the players'
    choice; what they type on the page is parsed as the page does."""
    for _ in range(inputs):
        if game.outcome(state) is not None:
            return
        prompt = game.prompt(state)
        if prompt.kind == "roll":
            text = player.before_roll(state) or dice.roll(prompt.die, rng).notation
            action = game.parse(state, text)
        else:
            choice = player.choose(state, prompt)
            action = game.parse(state, choice) if isinstance(choice, str) else choice
        yield state, action
        state = game.apply(state, action)


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_players_choose_only_what_the_rules_allow(name):
    game, player, rng, start = seeded_game(name)
    played = list(turns(game, player, rng, start))
    for state, action in played:
        game.check(state, action)  # raises IllegalAction for a choice the rules refuse
    state, action = played[-1]
    assert len(played) == INPUTS or game.outcome(game.apply(state, action)) is not None


@pytest.mark.parametrize("name", list(ENTRIES))
def test_the_film_of_a_move_ends_on_the_position_after_it(name):
    game, player, rng, state = seeded_game(name)
    state, action = next((s, a) for s, a in turns(game, player, rng, state)
                         if game.board(game.apply(s, a)) != game.board(s))  # the first move on the table
    after = game.apply(state, action)
    frames = [frame for _, frame in player.film([player.scene(state), player.scene(after)],
                                                player.hint(state, action), still_s=0.2, lead_s=0.2)]
    watcher = entry(name).watcher(options=game.reader_options(after))
    watcher.read_frame(frames[0])
    watcher.reader.learn(watcher.plane(frames[0]), game.board(state))  # the camera knows the start
    read = watcher.read_frame(frames[-1]).labels()
    want = game.board(after)
    changed = {c for c, label in want.items() if game.board(state).get(c) != label}
    assert changed & set(read), "the reader reads none of the cells the move changed"
    assert {c: label for c, label in read.items() if want.get(c) != label} == {}, game.notation(state, action)
