"""Issue 30 #4: French puts a space before ':' ';' '?' '!'. Every word a game gives in
French over seeded games (prompts, buttons, moves, alarms with their fixes, doubts,
corrections: the texts tests/controller/games/test_words.py reads) has it, including
where the code joins two clauses ('; ' through `words.semicolon`) or a text and its note
('{text}: {note}', a catalogue message). What a board file prints in its own language
(a Monopoly card's English text) is quoted as printed."""
from __future__ import annotations

import json
import re

import pytest

from controller.events import Bus
from controller.games.monopoly.board import CARDS_FILE
from controller.journal import Journal
from controller.referee import Referee
from controller.registry import ENTRIES
from table_players import told

STEPS = {"connect4": 40, "chess": 80, "labyrinth": 50, "smb": 80, "monopoly": 100}
# a mark glued to the word before it, at the end of a clause (not "5:00", not "e2:e4")
GLUED = re.compile(r"\S[:;?!](?=\s|$)")


def printed_cards() -> list[str]:
    decks = json.loads(CARDS_FILE.read_text(encoding="utf-8"))["decks"]
    return [card["text"].rstrip(".") for deck in decks.values() for card in deck if card.get("text")]


def glued(text: str, quoted=()) -> list[str]:
    for printed in quoted:
        text = text.replace(printed, "")
    return GLUED.findall(text)


def french_texts(name: str, seed: int) -> list[str]:
    """What a seeded French game says, with a player's mistake every few moves."""
    return told(Referee(Journal(":memory:"), Bus(), lang="fr"), name, seed, STEPS[name], mistake_every=4)


@pytest.mark.parametrize("name", list(ENTRIES))
def test_no_french_text_of_a_game_glues_a_colon_or_a_semicolon_to_its_word(name):
    texts = french_texts(name, seed=7)
    assert len(texts) > 40, "the game said too little to judge"
    quoted = printed_cards() if name == "monopoly" else ()
    bad = sorted({t for t in texts if glued(t, quoted)})
    assert bad == [], "\n".join(bad[:10])


def test_the_check_catches_what_the_issue_found():
    """Before: chess's refusal joined its reason with a plain ': ', the clauses with '; '."""
    assert glued("Birdo ne peut pas aller de e8 à h5: un cavalier se déplace en L")
    assert glued("À Équipe Mario de jouer (rouge); Mario est en échec")
    assert glued("est-ce {ask}? Les coups suivants le diront")
    assert not glued("Joueur 1 : lancez le dé ; une Boule de feu peut d'abord être jouée")
    assert not glued("cadence 5:00 ; e2e4")
