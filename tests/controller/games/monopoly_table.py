"""Monopoly games for the tests of controller/games/monopoly/: a game with its tokens
confirmed automatically, a state arranged on a draft (positions, deeds), inputs played
through the same text the referee journals, each step checking that no coin was made
or lost."""
from controller.games.monopoly.board import DECKS, load_board
from controller.games.monopoly.rules import Monopoly

B = load_board()
GO, JAIL = B.first("go"), B.first("jail")
FREE_PARKING, GO_TO_JAIL = B.first("free_parking"), B.first("go_to_jail")


def spaces(kind):
    return [s.index for s in B.spaces if s.kind == kind]


PIPES = spaces("warp_pipe")
LOC = [i for i in B.locations if i not in range(31, 40)]  # locations reached without passing GO


def card_index(deck, effect):
    return next(c.index for c in B.cards[deck] if c.effect == effect)


def new(players=4, first=None, **settings):
    """A game with tokens confirmed automatically; `first` = (deck, effect) on top."""
    game = Monopoly(settings={"confirm_tokens": False, "players": players, "bowser": False, **settings})
    decks = {d: list(range(16)) for d in DECKS}
    if first:
        deck, effect = first
        i = card_index(deck, effect)
        decks[deck] = [i] + [k for k in range(16) if k != i]
    return game, game.start({"decks": decks})


def arrange(game, s, run: bool = False, **fields):
    """`s` with fields replaced (lists given per seat or per space); with `run`, the
    rules then run on to the next input they need."""
    d = s.draft()
    for name, value in fields.items():
        setattr(d, name, value)
    d.table = game._expected(d)
    if run:
        game._run(d)
    return d.freeze()


def play(game, s, *inputs):
    for text in inputs:
        s = game.play(s, game.parse(s, text))
        assert game.coins_ok(s), f"coins made or lost after {text!r}"
    return s


def settle(game, s):
    """Answer what a test is not about (no buying, no bids, red die 1) until the next
    roll of the pair."""
    while game.prompt(s).kind != "roll" or s.need[0] != "roll":
        p = game.prompt(s)
        if p.kind == "roll":
            text = "roll 1"
        else:
            text = next(o for o in ("auction", "close", "done") if o in p.options)
        s = play(game, s, text)
    return s


def owner(s, **owned):
    """owner list from {seat: [spaces]}"""
    own = list(s.owner)
    for seat, where in owned.items():
        for i in where:
            own[i] = int(seat[1:])
    return own
