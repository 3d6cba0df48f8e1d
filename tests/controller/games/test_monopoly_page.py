"""What the status page gets of a Monopoly game (controller/games/monopoly/page.py): the
players' coins, deeds and balance sheets, the Bank, where the tokens stand and where the
prompt asks to put them, and the printed ring for the drawing."""
from monopoly_table import LOC, arrange, new, play


def test_the_snapshot_draws_tokens_where_they_stand_and_rings_where_they_go():
    game, s = new(confirm_tokens=True, bowser=True)
    s = play(game, s, "roll 3 4")
    snap = game.snapshot(s)
    assert snap["on_table"]["bowser"] == 20 and snap["bowser"]["space"] == 23
    assert snap["to_put"] == [{"token": "bowser", "name": "Bowser", "space": 23, "space_name": "Kong Arena"}]
    s = play(game, s, "put bowser@23")
    assert game.snapshot(s)["on_table"]["bowser"] == 23


def test_the_balance_sheet_and_the_box_add_up():
    game, s = new()
    a = LOC[4]
    s = play(game, arrange(game, s, pos=[a - 7, 0, 0, 0]), "roll 3 4", "buy")
    snap = game.snapshot(s)
    me = snap["players"][0]
    price = game.b.spaces[a].price
    assert me["balance_sheet"] == {"received": {}, "paid": {"purchase": price}, "start": 30, "now": 30 - price}
    assert [d["space"] for d in me["deeds"]] == [a] and me["deeds"][0]["side"] == "Continue"
    assert snap["coins_total"] == snap["box_total"] == 255
    assert snap["ledger"][-1]["from"] == "Mario's Cap" and snap["ledger"][-1]["to"] == "the Bank"


def test_the_layout_is_the_board_files_ring():
    game, _ = new()
    spaces = game.layout()["spaces"]
    assert len(spaces) == 40 and spaces[0]["kind"] == "go"
    assert [s["name"] for s in spaces] == [s.name for s in game.b.spaces]
