"""`referee simulate --game smb`: whole Super Mario Bros. games with random legal choices.

Each game goes through the same pure rules the referee uses (check, then apply, for
every action), with the die drawn by the referee's own die code (controller/devices/
dice.py: 2 red, 2 yellow, 1 red/yellow, 1 STOP, RULINGS 4) and every choice made at
random among the legal ones. After every action the bookkeeping is checked against what the rules promise (the 36 cards are all
somewhere, tokens lie only where tokens may lie and never more than there are, coins
are never negative, Mario stands on the board in play, a game that is not over always
has something legal to do); a broken promise is a rule error, counted and described.
"""
from __future__ import annotations

import random
import statistics
import time
from collections import Counter

from controller.devices import dice
from controller.games.smb.actions import Buy, Card, Fireball, Move, Roll
from controller.games.smb.rules import SuperMarioBros
from controller.games.smb.state import SMBState

PLAYERS = 4
MAX_ROLLS = 20000  # far beyond any real game: reaching it is reported as an error
P_CARD = 0.35  # chance that an opponent who may play a hazard card does so
P_FIREBALL = 0.5


class RuleError(AssertionError):
    pass


def choose(game: SuperMarioBros, state: SMBState, rng: random.Random, cards: bool):
    """The next action: a die roll when one is due, else a random legal choice."""
    legal = game.legal_actions(state)
    if not legal:
        raise RuleError(f"nothing is legal in phase {state.phase!r} and the game is not over")
    if state.phase != "roll":
        return rng.choice(legal)
    if cards:
        fire = [a for a in legal if isinstance(a, Fireball)]
        if fire and rng.random() < P_FIREBALL:
            return rng.choice(fire)
        plays = [a for a in legal if isinstance(a, Card)]
        seats = sorted({a.seat for a in plays})
        for seat in rng.sample(seats, len(seats)):
            if rng.random() < P_CARD:
                return rng.choice([a for a in plays if a.seat == seat])
    return Roll(dice.roll("smb", rng).faces[0].label)


def audit(game: SuperMarioBros, state: SMBState, deck: list[str]) -> None:
    """The promises the rules make about every state; RuleError names the broken one.
    `deck` is the 36-card mix, sorted."""
    held = [c for h in state.hands for c in h] + list(state.pile) + list(state.discard)
    if len(held) != len(deck) or (state.known_deck and sorted(held) != deck):
        raise RuleError(f"the cards no longer add up to the 36-card mix: {Counter(held)}")
    if min(state.coins) < 0:
        raise RuleError(f"negative coins: {state.coins}")
    if game.worlds.world_of(state.mario) != state.world:
        raise RuleError(f"Mario on {state.mario}, not on World {state.world}")
    kinds = Counter(k for _, k in state.tokens)
    for kind, n in kinds.items():
        if n > game.worlds.hazards[kind]["tokens"]:
            raise RuleError(f"{n} {kind} tokens on the path")
    for space, kind in state.tokens:
        sp = game.worlds.space(space)
        if space == state.mario and state.phase != "over":
            raise RuleError(f"a token under Mario on {space}")
        if sp.world != state.world or not sp.is_path or sp.features & {"link", "start", "princess", "king_bowser"}:
            raise RuleError(f"a {kind} token on {space}, where none may lie")
        only = game.worlds.hazards[kind].get("world")
        if only and only != sp.world:
            raise RuleError(f"a {kind} token on World {sp.world}")


def play_one(game: SuperMarioBros, rng: random.Random, cards: bool = True,
             max_turns: int | None = None) -> dict:
    state = game.start(game.new_setup(rng))
    deck = sorted(game.worlds.deck())
    coins_got = [0] * state.players
    played = bought = 0
    reached_bowser = jumped_bowser = False
    while state.outcome is None and state.rolls < MAX_ROLLS:
        if max_turns is not None and state.turns > max_turns:
            break
        action = choose(game, state, rng, cards)
        before = state
        state = game.play(state, action)
        audit(game, state, deck)
        seat = before.turn
        gained = state.coins[seat] - before.coins[seat]
        if gained > 0:
            coins_got[seat] += gained
        played += isinstance(action, (Card, Fireball))
        bought += isinstance(action, Buy)
        reached_bowser |= state.bowser
        if isinstance(action, Move) and state.outcome and not before.bowser:
            jumped_bowser = True
    if state.outcome is None and max_turns is None:
        raise RuleError(f"no winner after {state.rolls} rolls")
    return {"winner": state.outcome.winner if state.outcome else None, "turns": state.turns,
            "rolls": state.rolls, "coins": sum(coins_got), "cards_played": played,
            "extra_lives": bought, "lives_lost": sum(state.lives_lost),
            "reshuffles": state.reshuffles, "bowser_phase": reached_bowser, "jumped_bowser": jumped_bowser}


def simulate(games: int, seed: int, players: int = PLAYERS, cards: bool = True,
             max_turns: int | None = None) -> dict:
    """Play `games` games from one seed; figures, and rule errors with the game's seed."""
    game = SuperMarioBros(settings={"players": players})
    master = random.Random(seed)
    results, errors = [], []
    t0 = time.perf_counter()
    for i in range(games):
        game_seed = master.getrandbits(64)
        try:
            results.append(play_one(game, random.Random(game_seed), cards, max_turns))
        except Exception as exc:  # a rule error or a crash: either is a finding, reported
            errors.append(f"game {i + 1} (seed {game_seed}): {type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - t0
    finished = [r for r in results if r["winner"] is not None]

    def spread(key):
        values = [r[key] for r in results] or [0]
        return {"mean": round(statistics.fmean(values), 2), "median": statistics.median(values),
                "max": max(values)}
    return {
        "game": "smb", "games": games, "seed": seed, "players": players, "cards": cards,
        "finished": len(finished), "rule_errors": len(errors), "errors": errors[:10],
        "turns": spread("turns"), "rolls": spread("rolls"), "coins_collected": spread("coins"),
        "cards_played": spread("cards_played"), "extra_lives_bought": spread("extra_lives"),
        "lives_lost": spread("lives_lost"), "reshuffles": spread("reshuffles"),
        "bowser_phase_share": round(sum(r["bowser_phase"] for r in results) / max(1, len(results)), 3),
        "jumped_bowser_share": round(sum(r["jumped_bowser"] for r in results) / max(1, len(results)), 3),
        "wins_by_seat": {f"Player {s + 1}": sum(1 for r in finished if r["winner"] == s) for s in range(players)},
        "seconds": round(seconds, 2),
    }


def run(args) -> dict:
    """Entry point of `referee simulate --game smb --games N --seed S [--cards off] [--turns T]`."""
    return simulate(args.games, args.seed, getattr(args, "players", None) or PLAYERS,
                    cards=getattr(args, "cards", "on") != "off", max_turns=getattr(args, "turns", None))
