"""The demo's terminal account (controller/account.py) over a real referee's events: the
game's title and players, each move in words, a camera alarm with its fix (a refused
typed move is not an alarm), the result and the summary."""
import io

from controller.account import Account
from controller.events import Bus, Event, Kind
from controller.journal import Journal
from controller.referee import Referee


def test_the_account_tells_the_game_in_words():
    out = io.StringIO()
    bus = Bus()
    account = bus.subscribe(Account(out))
    referee = Referee(Journal(":memory:"), bus)
    referee.new_game("connect4", players=["Léa", "Tom"])
    referee.enter("9")  # typed, refused: the phone's business, not the table's alarm
    bus.publish(Event(Kind.ILLEGAL, {"reason": "a chip floats at column 2, row 5", "source": "camera",
                                     "fix": "take Léa (Mario)'s chip off column 2, row 5"}, referee.game_id))
    for column in "1212121":
        referee.enter(column)
    assert out.getvalue().splitlines() == [
        "new game: Connect 4 (classic), players Léa, Tom",
        "      alarm: a chip floats at column 2, row 5",
        "      fix: take Léa (Mario)'s chip off column 2, row 5",
        "   1. Léa (Mario) drops a chip in column 1",
        "   2. Tom (Luigi) drops a chip in column 2",
        "   3. Léa (Mario) drops a chip in column 1",
        "   4. Tom (Luigi) drops a chip in column 2",
        "   5. Léa (Mario) drops a chip in column 1",
        "   6. Tom (Luigi) drops a chip in column 2",
        "   7. Léa (Mario) drops a chip in column 1",
        "result: Léa (Mario) wins: Léa (Mario) has four in a line",
    ]
    assert account.summary() == "summary: 1 game played, 7 moves recorded, 1 alarm raised"


def test_the_account_speaks_the_table_s_language():
    out = io.StringIO()
    bus = Bus()
    account = bus.subscribe(Account(out, lang="fr"))
    referee = Referee(Journal(":memory:"), bus, lang="fr")
    referee.new_game("connect4", players=["Léa", "Tom"])
    for column in "1212121":
        referee.enter(column)
    lines = out.getvalue().splitlines()
    assert lines[0] == "nouvelle partie : Puissance 4 (classique), joueurs Léa, Tom"
    assert lines[1] == "   1. Léa (Mario) lâche un jeton dans la colonne 1"
    assert lines[-1] == "résultat : Léa (Mario) gagne : Léa (Mario) aligne quatre jetons"
    assert account.summary() == "bilan : 1 partie jouée, 7 coups notés, 0 alarme donnée"
