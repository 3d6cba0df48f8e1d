"""Monopoly through the referee: `referee play --json`, a game resumed from its journal
after the process was killed, and token placements checked as the camera reports them."""
import json
import os
import random
import signal
import subprocess
import sys
import textwrap

from controller.events import Bus
from controller.games.monopoly.rules import Monopoly
from controller.journal import Journal
from controller.referee import Referee
from controller.simulations.monopoly import random_action
from vision.view import BoardView


def run_play(stdin, *extra):
    return subprocess.run([sys.executable, "-m", "controller.cli", "play", "--game", "monopoly", "--json", *extra],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_play_json_rolls_tokens_choices_and_refusals():
    proc = run_play("roll 4 5\nroll 1 1   # tokens first\nput bowser@24\nput p0@9\nbid p1 2\nroll 4\n", "--seed", "2")
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(l) for l in proc.stdout.splitlines()]
    moves = [l for l in lines if l["type"] == "move"]
    assert [m["notation"] for m in moves] == ["roll 4 5", "put bowser@24", "put p0@9", "roll 4"]
    assert "Bowser moves 4 to Piranha Plant 3" in moves[0]["text"]
    assert "Super Star" in moves[3]["text"] and "pays Mario's Cap 4 coins" in moves[3]["text"]
    illegal = [l for l in lines if l["type"] == "illegal"]
    assert "waiting for the tokens" in illegal[0]["reason"] and "Bowser on Piranha Plant 3" in illegal[0]["reason"]
    assert "not the time" in illegal[1]["reason"]
    state = [l for l in lines if l["type"] == "state"][-1]
    assert state["state"]["players"][0]["coins"] == 34 and state["state"]["coins_total"] == 255
    assert state["state"]["players"][0]["balance_sheet"]["received"] == {"Super Star": 4}
    assert state["prompt"]["die"] == "monopoly" and state["prompt"]["seat"] == 1
    assert any(r["key"] == "bowser_waits_for_mover" and r["value"] is True for r in state["rulings"])


def test_a_game_resumes_after_the_process_is_killed(tmp_path):
    path = tmp_path / "journal.sqlite"
    script = textwrap.dedent(f"""
        import random, sys, time
        sys.path.insert(0, {os.getcwd()!r})
        from controller.journal import Journal
        from controller.referee import Referee
        from controller.simulations.monopoly import random_action
        referee = Referee(Journal({str(path)!r}))
        referee.new_game("monopoly", rng=random.Random(4))
        rng = random.Random(8)
        for _ in range(150):
            action = random_action(referee.game, referee.state, rng)
            referee.enter(referee.game.notation(referee.state, action))
        print("ready", flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        before = Journal(path)
        moves = [e.data["notation"] for e in before.events(1) if e.kind == "move"]
        before.close()
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    referee = Referee(Journal(path))
    assert referee.resume()
    # the same inputs replayed on a fresh game give the same state
    game = Monopoly()
    state = game.start(referee.setup)
    for text in moves:
        state = game.play(state, game.parse(state, text))
    assert referee.history == moves and len(moves) > 100
    assert referee.game.snapshot(referee.state) == game.snapshot(state)
    assert referee.game.coins_ok(referee.state)
    # and it goes on from there
    rng = random.Random(1)
    for _ in range(20):
        action = random_action(referee.game, referee.state, rng)
        assert referee.enter(referee.game.notation(referee.state, action)).kind == "move"


def camera_referee():
    events = []
    bus = Bus()
    bus.subscribe(events.append)
    referee = Referee(Journal(":memory:"), bus)
    referee.new_game("monopoly", setup={"players": 3, "decks": {"question_block": list(range(16)),
                                                                  "bowser_fury": list(range(16))}})
    return referee, events


def view(referee, moves=(), sure=0.95):
    cells = {c: [lab] for c, lab in referee.game.board(referee.state).items()}
    for token, src, dst in moves:
        cells[src] = ["+".join(t for t in cells[src][0].split("+") if t != token) or "empty"]
        now = [t for t in cells[dst][0].split("+") if t != "empty"] + [token]
        cells[dst] = ["+".join(sorted(now))]
    return BoardView({c: (v[0], sure) for c, v in cells.items()}, t=5.0, moved_at=4.5)


def test_tokens_seen_where_the_referee_expects_them_are_accepted():
    referee, events = camera_referee()
    referee.enter("roll 4 1")  # Bowser 20 -> 24; Mario's Cap 0 -> 5 (a Warp Pipe, then on to 15)
    assert referee.snapshot()["prompt"]["kind"] == "move"
    event = referee.observe(view(referee, [("bowser", 20, 24)]))
    assert event.kind == "move" and event.data["notation"] == "put bowser@24" and event.data["source"] == "camera"
    event = referee.observe(view(referee, [("p0", 0, 15)]))
    assert event.kind == "move" and event.data["notation"] == "put p0@15"
    assert referee.snapshot()["prompt"]["kind"] == "roll" and referee.snapshot()["prompt"]["seat"] == 1


def test_a_token_on_the_wrong_space_is_flagged_in_words():
    referee, events = camera_referee()
    referee.enter("roll 4 1")
    referee.observe(view(referee, [("bowser", 20, 24)]))
    event = referee.observe(view(referee, [("p0", 0, 12)]))
    assert event.kind == "illegal"
    assert event.data["reason"] == "Mario's Cap should be on Warp Pipe 2, not on Question Block 2"
    assert event.data["cells"] == ["Question Block 2"]
    # put right: the token moves on to the Warp Pipe
    assert referee.observe(view(referee, [("p0", 0, 15)])).kind == "move"


def test_both_tokens_moved_in_one_view_and_a_moved_bystander():
    referee, events = camera_referee()
    referee.enter("roll 4 1")
    event = referee.observe(view(referee, [("bowser", 20, 24), ("p0", 0, 15)]))
    assert event.kind == "move" and referee.history == ["roll 4 1", "put bowser@24", "put p0@15"]
    referee.enter("roll 2 1")  # Luigi's Flashlight: Bowser 24 -> 26, token 0 -> 3
    event = referee.observe(view(referee, [("bowser", 24, 26), ("p1", 0, 3), ("p2", 0, 7)]))
    assert event.kind == "illegal" and "Peach's Crown should be on GO, not on Bowser's Fury 1" in event.data["reason"]


def test_junk_and_out_of_turn_inputs_never_crash_the_referee():
    """Random inputs, legal or not, mixed with the legal ones that move the game on: each
    is a move or an illegal event with a reason, and the coins always add up."""
    referee = Referee(Journal(":memory:"))
    referee.new_game("monopoly", rng=random.Random(3))
    rng = random.Random(4)
    junk = ["roll 0 7", "roll 6", "roll 1 2 3", "bid p9 5", "bid p1 0", "bid p0 999", "partner p7",
            "sell 39", "sell 40", "continue 12", "offer p0>p0 1c for -", "offer p1>p8 s6 for -",
            "offer p0>p1 - for -", "offer p2>p1 999c for s1", "put p9@3", "put bowser@off",
            "put p0@44", "accept", "decline", "close", "bankrupt", "buy", "", "   ", "💥", "x" * 500]
    kinds = {"move": 0, "illegal": 0}
    for _ in range(1500):
        if rng.random() < 0.4:
            text = rng.choice(junk)
        else:
            action = random_action(referee.game, referee.state, rng)
            text = referee.game.notation(referee.state, action)
        event = referee.enter(text)
        kinds[event.kind] += 1
        if event.kind == "illegal":
            assert event.data["reason"]
        assert referee.game.coins_ok(referee.state)
        if referee.snapshot()["outcome"]:
            break
    assert kinds["move"] > 300 and kinds["illegal"] > 100


def test_a_token_taken_off_the_board_is_missed_in_words():
    referee, events = camera_referee()
    referee.enter("roll 4 1")
    referee.observe(view(referee, [("bowser", 20, 24)]))
    cells = {c: (lab, 0.95) for c, lab in referee.game.board(referee.state).items()}
    cells[0] = ("p1+p2", 0.95)  # Mario's Cap lifted off GO and not put down
    event = referee.observe(BoardView(cells, t=9.0, moved_at=8.5))
    assert event.kind == "illegal"
    assert event.data["reason"] == "Mario's Cap should be on Warp Pipe 2, but the camera does not see it there"
