"""What the page and `referee play` show of the referee's game: its snapshot.

Made from the game's `seen_by`, so no other seat's secret is in it, nor in its words;
the players' names are put into the referee's words here (controller/players.py).
"""
from __future__ import annotations

from .games.base import IllegalAction, NotationError
from .players import labels, named_data
from .record import Ply


def snapshot(referee, viewer: int | None = None) -> dict:
    """The game as `viewer` (a seat, or None: anyone) may see it."""
    game, _ = referee.game, referee._
    if game is None:
        return {"game": None}
    outcome = game.outcome(referee.sure)
    unsure = referee.unsure
    seats = game.seats(referee.state)
    visible = game.seen_by(referee.state, viewer)

    def words(data):  # the players' names in the referee's words
        return named_data(data, seats, referee.players, _)

    prompt = prompt_json(game, visible)
    if referee.players:
        prompt = {**words(prompt), "words": {k: words({"text": v})["text"] for k, v in prompt["words"].items()}}
    return {
        "game": game.name,
        "title": game.title,
        "variant": game.variant,
        "variant_title": game._(game.variant),  # the variant's name in the table's language
        "game_id": referee.game_id,
        "position": referee.position,  # a page answer names it: a stale one is refused (Enter.at)
        "seats": labels(seats, referee.players, _),  # "Léa (Mario's team)", or the seat's own words
        "players": list(referee.players),
        "prompt": prompt,
        "moves": list(referee.history) + unsure,
        "unsure": len(unsure),
        "record": record_json(referee, labels(seats, referee.players, _)),
        "alarm": words(referee.alarm),
        "doubt": words(referee.doubt),
        "outcome": words(outcome.to_json()) if outcome else None,
        "rulings": [{"key": r.key, "value": r.value, "text": r.text} for r in game.rulings()],
        "clock": referee.clock.snapshot(_),  # None: a game without a clock
        "state": game.snapshot(visible, viewer),
    }


def record_json(referee, seats: list) -> list[dict]:
    """The plies that stand, then the unsure ones shown after them: each with its
    notation, its words and its seat (the page never matches words to moves itself)."""
    game = referee.game
    out, state = referee.record.to_json(seats), game.seen_by(referee.sure, None)  # words anyone may hear
    for action in referee.shown.actions if referee.shown is not None else ():
        ply = Ply(game.notation(state, action), game.describe(state, action), game.actor(state, action))
        out.append(ply.to_json(seats, unsure=True))
        state = game.apply(state, action)
    return out


def prompt_json(game, visible) -> dict:
    """The prompt as seen (`seen_by`), with each option in words for the page's
    buttons ("moves Mario to the ground (w1-07)" rather than "move w1-07"); an option
    the game cannot put into words keeps its notation. Options are moves not made yet:
    their words never name a secret (Labyrinth's "end" named the target it would find)."""
    prompt = game.prompt(visible)
    words, actors = {}, {}
    for option in dict.fromkeys(prompt.options + prompt.claims + prompt.anytime):
        try:
            action = game.parse(visible, option)
            words[option] = game.describe(visible, action)
            actors[option] = game.actor(visible, action)
        except (NotationError, IllegalAction):
            words[option] = option
    # `actors`: whose each option is (a phone shows a player only their own)
    return {**prompt.to_json(), "words": words, "actors": actors}
