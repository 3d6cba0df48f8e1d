"""Issue 30 #1: every text a person reads comes from one gettext catalogue per language
(controller/locales/<lang>/LC_MESSAGES/referee.po), and none lacks a message the code
says: the Python, the page's templates and its scripts are read by Babel's extractor."""
from __future__ import annotations

import random
import string

import pytest

from controller.events import Bus
from controller.i18n import DEFAULT, LANGUAGES, best, catalog, extract, language, page_texts, translated, translator
from controller.journal import Journal
from controller.referee import Referee


@pytest.fixture(scope="module")
def code_messages():
    return {m.id if isinstance(m.id, str) else m.id[0]: m for m in extract() if m.id}


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_of_the_code_is_in_the_catalogue_and_translated(lang, code_messages):
    cat = catalog(lang)
    missing = [key for key, m in code_messages.items() if cat.get(m.id) is None or not translated(cat.get(m.id))]
    assert not missing, f"{lang}: {len(missing)} messages missing or untranslated " \
                        f"(python -m controller.i18n update, then translate): {missing[:5]}"
    stale = [m.id for m in cat if m.id and (m.id if isinstance(m.id, str) else m.id[0]) not in code_messages]
    assert not stale, f"{lang}: messages no code says any more (python -m controller.i18n update): {stale[:5]}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != DEFAULT])
def test_each_translation_fills_only_the_placeholders_its_message_has(lang):
    """A translation may leave a placeholder out (English's pronoun), never invent one: an
    unknown {name} would raise KeyError where the referee speaks."""
    for m in catalog(lang):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        texts = [m.string] if isinstance(m.string, str) else list(m.string)
        allowed = set().union(*(fields(i) for i in ids)) | {"n"}
        for text in texts:
            assert fields(text) <= allowed, (lang, m.id, text)
            text.format(**{name: "x" for name in allowed})


def test_a_language_is_named_as_a_browser_or_a_person_writes_it():
    assert [language(c) for c in ("fr", "FR", "de-CH", "de_DE", " en ")] == ["fr", "fr", "de", "de", "en"]
    with pytest.raises(ValueError, match=r"\[table\] language is 'es'; expected one of en, fr, de"):
        language("es", "[table] language")
    assert best("es-ES,es;q=0.9,de;q=0.8,en;q=0.5") == "de"
    assert best("it-IT", fallback="fr") == "fr"
    assert best("en;q=0.2, fr;q=0.9") == "fr"


def test_a_count_takes_its_language_s_plural():
    fr, de = translator("fr"), translator("de")
    one = "no draw can be claimed: the position has occurred {n} time (a claim needs three) and the last " \
          "capture or pawn move was {moves} moves ago (a claim needs 50)"
    many = one.replace("{n} time ", "{n} times ")
    assert "1 fois" in fr.n(one, many, 1, moves=3) and "2 fois" in fr.n(one, many, 2, moves=3)
    assert "2-mal" in de.n(one, many, 2, moves=3)
    assert "2 times" in translator("en").n(one, many, 2, moves=3)


def test_the_page_gets_the_messages_its_scripts_say_from_the_same_catalogue():
    texts = page_texts("de")
    assert texts["lang"] == "de" and texts["plural"] == "(n != 1)"
    assert texts["messages"]["Illegal move"] == "Ungültiger Zug"
    assert "{who} drops a chip in column {col}" not in texts["messages"]  # the game's words come with its events


@pytest.mark.parametrize("lang, words", [
    ("en", ["Mario drops a chip in column 4", "Connect 4", "Luigi to move (green chip)"]),
    ("fr", ["Mario lâche un jeton dans la colonne 4", "Puissance 4", "À Luigi de jouer (jeton vert)"]),
    ("de", ["Mario wirft einen Chip in Spalte 4", "4 gewinnt", "Luigi ist am Zug (grüner Chip)"]),
])
def test_the_referee_records_and_shows_connect4_in_the_table_s_language(lang, words):
    referee = Referee(Journal(":memory:"), Bus(), lang=lang)
    referee.new_game("connect4", "blocker", rng=random.Random(1))
    move = referee.enter("4")
    snap = referee.snapshot()
    assert [move.data["text"], snap["title"], snap["prompt"]["text"]] == words
    illegal = referee.enter("9")
    assert illegal.kind == "illegal" and "'9'" in illegal.data["reason"]
    if lang != "en":
        assert "is not a Connect 4 move" not in illegal.data["reason"]


@pytest.mark.parametrize("lang, reason, winner, text", [
    ("en", "Mario is checkmated", "Bowser's team", "Bowser Jr. moves from d8 to h4: Mario is checkmated"),
    ("fr", "Mario est échec et mat", "Équipe Bowser", "Bowser Jr. va de d8 à h4 : Mario est échec et mat"),
    ("de", "Mario ist schachmatt", "Team Bowser", "Bowser Jr. zieht von d8 nach h4: Mario ist schachmatt"),
])
def test_a_chess_game_is_told_in_the_table_s_language(lang, reason, winner, text):
    referee = Referee(Journal(":memory:"), Bus(), lang=lang)
    referee.new_game("chess", rng=random.Random(1))
    for move in ("f3", "e5", "g4"):
        referee.enter(move)
    mate = referee.enter("Qh4")  # the fool's mate: Bowser's queen mates Mario
    outcome = referee.snapshot()["outcome"]
    assert (outcome["reason"], outcome["winner_name"]) == (reason, winner)
    assert mate.data["text"] == text


@pytest.mark.parametrize("lang, lines", [
    ("de", ["neue Partie: 4 gewinnt (klassisch)", "wirft einen Chip in Spalte 4", "ungültig: 9 - '9' ist kein Zug",
            "Ergebnis: Partie nicht beendet"]),
    ("fr", ["nouvelle partie : Puissance 4 (classique)", "lâche un jeton dans la colonne 4",
            "refusé : 9 - '9' n'est pas un coup de Puissance 4", "résultat : partie non terminée"]),
])
def test_the_terminal_speaks_the_table_s_language(lang, lines):
    """`referee play --lang`: each event's line and the result, as `replay` prints them too."""
    from support import run_cli as run

    out = run(["play", "--game", "connect4", "--variant", "classic", "--lang", lang], "4\n9\n")
    assert out.returncode == 0, out.stderr
    for line in lines:
        assert line in out.stdout, (line, out.stdout)
    assert "drops a chip" not in out.stdout
