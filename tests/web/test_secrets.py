"""Issue 28 #4: a seat's secret is in nothing anyone else receives. A real Service
(journal, referee, the page's API through Flask's test client), the events as the page's
stream sends them, and the hall's messages from a real Mosquitto broker: every public
payload is read for every other seat's secrets, in every game.

The secrets, said here from the whole state (not from the code that hides them):
Labyrinth's cards a seat has not found yet (named as found: "finds Rosalina", or in a
list of targets), Super Mario Bros.' hands. Chess, Connect 4 and Monopoly have none a
seat holds (Monopoly's decks are hidden from everyone: only their counts are shown, and
a move not made yet draws "a card", never which)."""
from __future__ import annotations

import json
import queue
import random
import re
from dataclasses import replace


from controller.devices.dice import roll
from controller.events import NewGame
from controller.games import load_game
from controller.games.labyrinth.actions import MovePawn
from controller.games.words import printed
from support import Listener, admin, read, serving
from waiting import wait_for
from web import create_app
from web.payload import player_token


def public_payloads(service, client, heard: queue.Queue) -> dict[str, object]:
    """What anyone but a seat receives: the anonymous state (the TV, the hall's state),
    the moves in words, the events the page's stream sends since the last call."""
    out = {"anonymous /api/state": client.get("/api/state").get_json(),
           "/api/moves": client.get("/api/moves").get_json()}
    events = []
    while not heard.empty():
        events.append(heard.get_nowait().to_json(page=True))
    out["events"] = events
    return out


def seat_state(client, service, seat: int) -> dict:
    return client.get("/api/state", query_string={"seat": seat, "token": player_token(service.admin_token, seat)}).get_json()


def labyrinth_secrets(state, seat: int) -> list[re.Pattern]:
    """Seat's cards not found yet, as any payload would name them ("finds Bowser", not
    the "finds Bowser Jr." of another seat's card: a run that dealt those two apart
    failed so once)."""
    names = [printed(t) for cards in state.targets for t in cards]
    left = [printed(t) for t in state.targets[seat] if t not in state.found[seat]]
    patterns = []
    for name in left:
        longer = "|".join(re.escape(n[len(name):]) for n in names if n.startswith(name + " "))
        patterns.append(re.compile(rf"\b(finds|found) {re.escape(name)}\b" + (f"(?!{longer})" if longer else "")))
    return patterns


def leaks(payload, game, state, seat: int) -> list[str]:
    """The secrets of `seat` found in `payload` (JSON), in words."""
    text = json.dumps(payload)
    found = []
    if game.name == "labyrinth" and state.targets is not None:
        found += [p.pattern for p in labyrinth_secrets(state, seat) if p.search(text)]
        for snap in _snapshots(payload):
            players = (snap.get("state") or {}).get("players") or []
            if seat < len(players) and "targets" in players[seat]:
                found.append(f"seat {seat}'s targets {players[seat]['targets']}")
    if game.name == "smb":
        for snap in _snapshots(payload):
            hand = (snap.get("state") or {}).get("hand")
            mine = [printed(k) for k in state.hands[seat]]
            if hand is not None and hand == mine and mine:
                found.append(f"seat {seat}'s hand {hand}")
        if '"hands"' in text or '"deck"' in text:
            found.append("the hands or the deck")
    return found


def _snapshots(payload):
    if isinstance(payload, dict):
        if "prompt" in payload and "state" in payload:
            yield payload
        for v in payload.values():
            yield from _snapshots(v)
    elif isinstance(payload, list):
        for v in payload:
            yield from _snapshots(v)


def next_input(game, state, rng) -> str | None:
    """A legal input for the game waiting (a roll from the seeded die, a choice, a move)."""
    prompt = game.prompt(state)
    if game.outcome(state) is not None:
        return None
    if prompt.kind == "roll":
        return roll(prompt.die, rng).notation
    options = list(prompt.options)
    actions = list(game.legal_actions(state)) if hasattr(game, "legal_actions") else list(game.observable_actions(state))
    if game.name == "labyrinth":  # a player who goes for their card: the push that opens the way, the move
        finds = [a for a in actions if _finds(game, state, a)
                 or state.phase == "push" and any(_finds(game, game.apply(state, a), b)
                                                  for b in game.legal_actions(game.apply(state, a)))]
        if finds:
            return game.notation(state, finds[0])
    texts = [game.notation(state, a) for a in actions] + options
    return rng.choice(texts) if texts else None


def _finds(game, state, action) -> bool:
    """Does `action` put the pawn of the player to move on their card (the turn not yet ended)?"""
    return (isinstance(action, MovePawn) and state.phase == "move" and state.pawns[state.turn] != action.cell
            and state.tiles[action.cell].treasure in game.wanted(state, state.turn))


def test_every_public_payload_of_every_game_keeps_every_seat_s_secrets(tmp_path, broker):
    """Each game played 20 inputs from a seeded generator (a Labyrinth player goes for
    their card: the push that opens the way, then the move onto it); after each, every
    payload anyone else receives (the anonymous state, every other seat's state, the
    page's events, the moves in words) is read for every seat's secrets, then the
    hall's. (Before `seen_by`, the anonymous state named Green's card after "move d6".)"""
    rng = random.Random(28)
    for name in ("labyrinth", "smb", "monopoly", "chess", "connect4"):
        with serving(tmp_path / name, name, broker) as service:
            hall = Listener(broker.port)
            try:
                app = create_app(service)
                app.extensions["referee_limits"]["pace"].clock = iter(range(10**6)).__next__
                client = app.test_client()
                heard = service.bus.subscribe(queue.Queue())
                game = service.referee.game
                seats = len(service.snapshot()["seats"])
                for _ in range(20):
                    state = service.referee.state
                    text = next_input(game, state, rng)
                    if text is None:
                        break
                    client.post("/api/move", json={"text": text}, headers=admin(service))
                    state = service.referee.state
                    public = public_payloads(service, client, heard)
                    views = {v: seat_state(client, service, v) for v in range(seats)}
                    for seat in range(seats):
                        others = {**public, **{f"seat {v}'s /api/state": views[v] for v in views if v != seat}}
                        for where, payload in others.items():
                            assert not leaks(payload, game, state, seat), (name, text, where)
                wait_for(lambda: any(t.endswith("/state") and read(p).get("moves") if p.startswith("{") else False == service.snapshot()["moves"]
                                     for t, p in hall.messages), f"the hall's state of {name}", 10)
                final = service.referee.state
                for seat in range(seats):
                    for topic, text in hall.messages:
                        assert not leaks(read(text), game, final, seat), (name, topic)
            finally:
                hall.close()


def labyrinth_where_red_can_find(rng) -> tuple[dict, str, str, str]:
    """A Labyrinth deal where Red, after its first push, can move onto its own first
    target: (setup, the push, the move, the target)."""
    game = load_game("labyrinth")
    setup = game.new_setup(rng)
    state = game.start(setup)
    for push in game.legal_actions(state):
        after = game.play(state, push)
        for move in game.legal_actions(after):
            treasure = after.tiles[move.cell].treasure if isinstance(move, MovePawn) else None
            if not treasure:
                continue
            targets = {c: [t for t in cards if t != treasure] for c, cards in setup["targets"].items()}
            red = setup["players"][0]
            owner = next(c for c, cards in setup["targets"].items() if treasure in cards)
            if owner != red:  # Red's last card goes to the card's owner, each keeps their count
                targets[owner].append(targets[red].pop())
            targets[red].insert(0, treasure)
            return ({**setup, "targets": targets}, game.notation(state, push), game.notation(after, move), treasure)
    raise AssertionError("no deal lets Red find a target at once")


def test_labyrinth_s_secret_target_is_not_named_before_red_ends_the_turn(tmp_path, broker):
    """Issue 28 #4: the anonymous /api/state carried "words": {"end": "Red ends the turn
    on a6 and finds Rosalina (5 left)"} before Red ended the turn: the secret target,
    named to everyone (the TV, the other phones, the hall's retained state)."""
    setup, push, move, treasure = labyrinth_where_red_can_find(random.Random(7))
    finds = f"finds {printed(treasure)}"
    with serving(tmp_path / "data", "labyrinth", broker) as service:
        hall = Listener(broker.port)
        try:
            assert service.submit(NewGame("labyrinth", setup=setup)).ok
            client = create_app(service).test_client()
            heard = service.bus.subscribe(queue.Queue())
            for text in (push, move):
                assert client.post("/api/move", json={"text": text}, headers=admin(service)).status_code == 200
            red = seat_state(client, service, 0)
            assert finds in red["prompt"]["words"]["end"]  # Red's own phone may be told
            assert red["state"]["players"][0]["targets"] == [treasure]
            public = public_payloads(service, client, heard)
            public["Yellow's /api/state"] = seat_state(client, service, 1)
            wait_for(lambda: any(t.endswith("/state") and read(p).get("moves") if p.startswith("{") else False == service.snapshot()["moves"]
                                 for t, p in hall.messages), "the hall's state", 10)
            public["the hall"] = [read(p) for _, p in hall.messages]
            for where, payload in public.items():
                assert finds not in json.dumps(payload), where
                assert not any("targets" in snap["state"]["players"][0] for snap in _snapshots(payload)), where
            anonymous = public["anonymous /api/state"]
            assert anonymous["prompt"]["words"]["end"] == f"Red ends the turn on {anonymous['state']['players'][0]['cell']}"
            # ended, the find is the table's: everyone hears it
            assert client.post("/api/move", json={"text": "end"}, headers=admin(service)).status_code == 200
            said = [e.to_json() for e in iter(lambda: heard.get_nowait() if not heard.empty() else None, None)]
            assert any(finds in (e.get("text") or "") for e in said if e["type"] == "move")
        finally:
            hall.close()


def test_a_phone_cannot_learn_another_seat_s_hand_from_the_rules_answer(tmp_path):
    """Seat 3's phone typed "card 2 goomba" and the answer was the rules' ("Player 2
    holds no Goomba card", or a token to place): it could try each kind in turn and
    learn Player 2's hand. Whose input it is comes first; the answer is the same
    whatever Player 2 holds."""
    from controller.referee import Referee
    from controller.journal import Journal

    answers = []
    for hand in (["goomba", "blooper", "koopa"], ["hammer_bro", "piranha", "blooper"]):
        referee = Referee(Journal(":memory:"))
        referee.new_game("smb", settings={"players": 3}, setup={"players": 3, "deck": None, "seed": 1})
        referee.enter("roll red", source="die")
        referee.enter(f"move {referee.sure.targets[0]}")  # rolled and moved: hazard cards may come
        referee.sure = replace(referee.sure, hands=(("fireball",), tuple(hand), ("goomba",)))
        answers.append(referee.enter("card 2 goomba", seat=2).data.get("reason"))
    assert answers[0] == answers[1] == "it is Player 2's turn, not Player 3's"


def test_monopoly_s_next_card_is_named_in_no_words_of_a_move_not_made():
    """A token put on a Question Block or a Bowser's Fury space draws the deck's top
    card. The words of that move before it is made (a doubt's reading, a ply the camera
    shows unsure: the referee words them from `seen_by(state, None)`) named the card,
    and all it does, to everyone: the shuffled deck's order, which lets the table
    choose between two readings by the card they draw. They say a card is drawn; the
    move made is worded in full."""
    from controller.games.monopoly.actions import Put
    from controller.games.monopoly.board import DECKS
    from controller.journal import Journal
    from controller.referee import Referee
    from table_players import TextTable

    game = load_game("monopoly")
    referee = Referee(Journal(":memory:"))
    referee.new_game("monopoly", setup=game.new_setup(random.Random(1)))
    table, draws = TextTable(referee.game, 1), 0
    for _ in range(400):
        state = referee.sure
        for put in (a for a in referee.game.observable_actions(state) if isinstance(a, Put)):
            after = referee.game.apply(state, put)
            card = next((referee.game.b.cards[d][state.decks[d][0]] for d in DECKS
                         if len(after.decks[d]) == len(state.decks[d]) and after.decks[d] != state.decks[d]), None)
            if card is None:  # no card drawn by this move
                continue
            draws += 1
            heard = referee.game.describe(referee.game.seen_by(state, None), put)
            assert card.text.rstrip(". ") not in heard and "draws a" in heard, heard
            assert card.text.rstrip(". ") in referee.game.describe(state, put)  # once made, the table's
        if draws >= 3:
            break
        for text in table.inputs(referee.state):
            referee.enter(text)
    assert draws >= 3
