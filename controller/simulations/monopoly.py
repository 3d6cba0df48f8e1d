"""`referee simulate --game monopoly`: whole games with random legal choices, and the
landing-frequency check against the exact Markov chain.

Two modes:
- Bowser or cards on (the default): `--games N` whole games through the full rules
  (`Monopoly.advance` on a draft of the state, the same code the referee uses), each stopped after
  `--turns T` turns (default 1000) if nobody has won. Figures: game length, who won,
  Bowser's win rate, landing frequency per space, and the coin invariant (Bank +
  players == 255) checked after every action.
- `--bowser off --cards off`: what is left of the rules is movement (dice, doubles,
  triple doubles, Jail, Go to Jail, Warp Pipes), which is a Markov chain. One token rolls
  `--turns T` times (default 1,000,000) through `roll_result` and `Board.walk` (the rules'
  own movement code), always trying for doubles in Jail; the share of rolls ending on each
  space is compared with the chain's exact stationary values, in standard errors that
  account for the chain's correlation (from its fundamental matrix).
"""
from __future__ import annotations

import random
import statistics
import time

import numpy as np

from controller.games.monopoly.actions import Bid, Choose, Items, Offer, Roll
from controller.games.monopoly.board import SPACES, Board, load_board
from controller.games.monopoly.rules import Monopoly
from controller.games.monopoly.turn import roll_result

CHAIN_TURNS = 1_000_000
GAME_TURNS = 1000


# --- the exact chain (written from the rule text, not from the rules module) ----------
def chain_states():
    """(space, doubles so far) for a free token, then ("jail", failed attempts)."""
    return [(p, d) for p in range(SPACES) for d in range(3)] + [("jail", k) for k in range(3)]


def transition_matrix(board: Board, warp_pipes: bool = True) -> np.ndarray:
    """P[i, j]: probability that one roll takes the token from state i to state j.
    `warp_pipes=False` builds a deliberately wrong chain (for showing the check bites)."""
    states = chain_states()
    index = {s: i for i, s in enumerate(states)}
    kinds = [s.kind for s in board.spaces]
    jail_space = kinds.index("jail")
    pipes = [i for i, k in enumerate(kinds) if k == "warp_pipe"]

    def rest(q: int, d: int):
        if kinds[q] == "warp_pipe" and warp_pipes:
            q = pipes[(pipes.index(q) + 1) % len(pipes)]
        if kinds[q] == "go_to_jail":
            return ("jail", 0)
        return (q, d)

    P = np.zeros((len(states), len(states)))
    for i, (where, k) in enumerate(states):
        for b in range(1, 7):
            for r in range(1, 7):
                doubles = b == r
                if where == "jail":
                    if doubles or k == 2:
                        nxt = rest((jail_space + b + r) % SPACES, 0)
                    else:
                        nxt = ("jail", k + 1)
                elif doubles and k == 2:
                    nxt = ("jail", 0)
                else:
                    nxt = rest((where + b + r) % SPACES, k + 1 if doubles else 0)
                P[i, index[nxt]] += 1 / 36
    return P


def exact_landing(board: Board, warp_pipes: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Stationary share of rolls ending on each space, and each share's asymptotic
    variance per roll (so a run of n rolls has standard error sqrt(var / n))."""
    P = transition_matrix(board, warp_pipes)
    n = len(P)
    A = np.vstack([P.T - np.eye(n), np.ones(n)])
    pi = np.linalg.lstsq(A, np.r_[np.zeros(n), 1.0], rcond=None)[0]
    Z = np.linalg.inv(np.eye(n) - P + np.outer(np.ones(n), pi))
    jail_space = [s.kind for s in board.spaces].index("jail")
    space_of = np.array([jail_space if w == "jail" else w for w, _ in chain_states()])
    share, var = np.zeros(SPACES), np.zeros(SPACES)
    for space in range(SPACES):
        f = (space_of == space).astype(float)
        mean = pi @ f
        fbar = f - mean
        share[space] = mean
        var[space] = 2 * pi @ (fbar * (Z @ fbar)) - pi @ (fbar * fbar)
    return share, var


# --- the simulated token (the rules' movement code) ----------------------------------
def landing_run(board: Board, rolls: int, seed: int) -> np.ndarray:
    """Counts of rolls ending on each space for one token, Bowser and cards off."""
    kinds = [s.kind for s in board.spaces]
    jail_space = board.first("jail")
    dice = np.random.default_rng(seed).integers(1, 7, size=(rolls, 2)).tolist()
    counts = [0] * SPACES
    pos, run, jail = board.first("go"), 0, -1
    for black, red in dice:
        what, run = roll_result(run, jail, black, red)
        if what == "stay":
            jail += 1
        elif what == "jail":
            pos, jail = jail_space, 0
        else:
            jail = -1
            pos = board.walk(pos, black + red)[0]
            kind = kinds[pos]
            if kind == "warp_pipe":
                pos = board.next_of("warp_pipe", pos)
            elif kind == "go_to_jail":
                pos, jail, run = jail_space, 0, 0
        counts[pos] += 1
    return np.array(counts)


def chain_check(board: Board, rolls: int, seed: int) -> dict:
    t0 = time.perf_counter()
    counts = landing_run(board, rolls, seed)
    seconds = time.perf_counter() - t0
    share, var = exact_landing(board)
    observed = counts / rolls
    never = share < 1e-12  # spaces no roll ends on (Go to Jail): any landing there is an error
    se = np.sqrt(np.where(never, 1.0, var) / rolls)
    z = np.where(never, np.where(observed > 0, np.inf, 0.0), (observed - share) / se)
    return {
        "mode": "landing-frequency check (Bowser and cards off): one token, exact Markov chain",
        "rolls": rolls, "seed": seed, "seconds": round(seconds, 2),
        "max_abs_z": round(float(np.max(np.abs(z))), 2),
        "within_3_standard_errors": bool(np.all(np.abs(z) < 3)),
        "spaces": [{"space": i, "name": board.spaces[i].name, "observed": round(float(observed[i]), 5),
                    "exact": round(float(share[i]), 5), "z": round(float(z[i]), 2)} for i in range(SPACES)],
    }


# --- whole games with random legal choices -------------------------------------------
def random_action(game: Monopoly, s, rng: random.Random):
    """A random legal input for the current prompt (dice drawn from `rng`)."""
    p = game.prompt(s)
    if p.kind == "move":  # tokens to put where the rules say
        return game.observable_actions(s)[-1]
    if p.kind == "roll":
        return Roll((rng.randint(1, 6), rng.randint(1, 6)))
    opts = p.options
    if s.need[0] in ("start", "jail", "roll") and s.offer is None and rng.random() < 0.01:
        offer = random_offer(s, rng)
        if offer is not None:
            return offer
    if s.need[0] == "auction" and rng.random() < 0.6 and len(opts) > 1:
        seat, low = opts[rng.randrange(len(opts) - 1)].split()[1:]
        seat = int(seat[1:])
        return Bid(seat, min(s.coins[seat], int(low) + rng.randint(0, 2)))
    if "buy" in opts and rng.random() < 0.8:
        return Choose("buy")
    return game.parse(s, rng.choice(opts))


def random_offer(s, rng: random.Random):
    me = s.turn
    others = [q for q in range(len(s.names)) if q != me and not s.out[q]]
    mine = [i for i, o in enumerate(s.owner) if o == me]
    if not others or not mine:
        return None
    to = rng.choice(others)
    return Offer(me, to, Items(deeds=(rng.choice(mine),)), Items(coins=min(s.coins[to], rng.randint(1, 6))))


def play_games(games: int, seed: int, bowser: bool, cards: bool, turns: int) -> dict:
    rng = random.Random(seed)
    game = Monopoly(settings={"bowser": bowser, "cards": cards, "confirm_tokens": False})
    lengths, winners, bowser_wins, unfinished, actions, bad = [], {}, 0, 0, 0, 0
    landings = np.zeros(SPACES, int)
    t0 = time.perf_counter()
    for _ in range(games):
        s = game.start(game.new_setup(rng)).draft()  # advanced in place: no frozen copy per action
        while s.outcome is None and s.turns < turns:
            action = random_action(game, s, rng)
            game.check(s, action)
            game.advance(s, action)
            actions += 1
            if s.landing is not None:
                landings[s.landing] += 1
            bad += not game.coins_ok(s)
        lengths.append(s.turns)
        if s.outcome is None:
            unfinished += 1
        elif s.outcome.winner is None:
            bowser_wins += 1
        else:
            winners[s.outcome.winner_name] = winners.get(s.outcome.winner_name, 0) + 1
    seconds = time.perf_counter() - t0
    spaces = game.b.spaces
    return {
        "mode": "whole games, random legal choices", "games": games, "seed": seed,
        "bowser": "on" if bowser else "off", "cards": "on" if cards else "off", "turn_cap": turns,
        "finished": games - unfinished, "unfinished": unfinished,
        "bowser_wins": bowser_wins, "bowser_win_rate": round(bowser_wins / games, 4),
        "player_wins": winners,
        "turns_mean": round(statistics.mean(lengths), 1), "turns_median": statistics.median(lengths),
        "turns_max": max(lengths), "actions": actions, "seconds": round(seconds, 2),
        "actions_per_second": round(actions / seconds) if seconds else None,
        "coin_invariant_violations": bad,
        "landing_frequency": {spaces[i].name: round(float(landings[i] / max(landings.sum(), 1)), 4)
                              for i in range(SPACES)},
    }


def run(args) -> dict:
    bowser, cards = args.bowser != "off", args.cards != "off"
    if not bowser and not cards:
        return chain_check(load_board(), args.turns or CHAIN_TURNS, args.seed)
    return play_games(args.games, args.seed, bowser, cards, args.turns or GAME_TURNS)
