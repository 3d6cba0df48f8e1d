"""The languages' machinery (controller/i18n.py) beyond what tests/controller/
test_languages.py checks of the catalogues and of the referee speaking them: an error
worded from a catalogue message is English in the log and the table's language where a
person reads it, a parameter that is itself such an error in the same language; a
message a catalogue lacks reads in English, with its values, never as a key; a language
nobody speaks here is refused with the ones there are."""
import pytest

from controller.config import ConfigError
from controller.i18n import N_, LanguageError, said, translator


def refused_language() -> LanguageError:
    with pytest.raises(LanguageError) as caught:
        translator("es")
    return caught.value


def test_an_error_is_english_in_the_log_and_in_the_table_s_language_where_read():
    error = refused_language()
    assert isinstance(error, ValueError)
    assert str(error) == "language is 'es'; expected one of en, fr, de (en: English, fr: Français, de: Deutsch)"
    assert said(error, translator("fr")) == \
        "language vaut 'es' ; attendu l'une de en, fr, de (en: English, fr: Français, de: Deutsch)"
    assert said(error, translator("de")).startswith("language ist 'es'; erwartet eine von en, fr, de")
    assert said(error, translator("en")) == str(error)
    assert said(OSError("disk full"), translator("fr")) == "disk full"  # not a catalogue message: as it is


def test_an_error_inside_an_error_is_worded_in_the_same_language():
    inner = refused_language()
    outer = ConfigError(N_("{path}: not valid TOML ({error})"), path="referee.toml", error=inner)
    assert str(outer) == f"referee.toml: not valid TOML ({inner})"
    assert outer.said(translator("fr")) == f"referee.toml : TOML non valide ({said(inner, translator('fr'))})"


def test_a_message_no_catalogue_has_reads_in_english_with_its_values():
    fr, de = translator("fr"), translator("de")
    assert fr("a message nobody translated: {n} chips", n=3) == "a message nobody translated: 3 chips"
    assert de.n("{n} new {what}", "{n} new {what}s", 1, what="chip") == "1 new chip"
    assert de.n("{n} new {what}", "{n} new {what}s", 2, what="chip") == "2 new chips"
    assert N_("Connect 4") == "Connect 4" and fr(N_("Connect 4")) == "Puissance 4"
