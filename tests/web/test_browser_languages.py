"""Issue 30 #1: each game's page read in French and in German, in real headless Chromium,
on a phone (390 px) and a desktop (1280 px). The table speaks the language (its
`[table] language`) and the browser asks for it (Accept-Language, navigator.language):
the page says it in its <html lang>, nothing is wider than the screen or cut off (long
German words included), and no text on the screen is English: neither a message of the
catalogue left untranslated nor the referee's own words (English function words in a
French or German text). A phone may also pick another language than the table's."""
from __future__ import annotations


import pytest

from controller.events import Enter, NewGame
from controller.i18n import translator
from english_check import english
from page_reading import read
from support import running_service
from support import WAIT_MS, Served
from game_pages import DESKTOP, OPENINGS, PHONE, fits_the_screen

LANGS = ("fr", "de")


def untranslated(reading: dict, lang: str) -> list[str]:
    return [fault for t in reading["texts"] if (fault := english(t["text"], lang))]


@pytest.fixture(scope="module", params=LANGS)
def served(request, tmp_path_factory):
    lang = request.param
    with running_service(tmp_path_factory.mktemp(f"lang-{lang}") / "data", language=lang) as service:
        s = Served(service, heartbeat_s=0.2)
        s.lang = lang
        yield s
        s.close()


def open_in(browser, url: str, viewport: dict, locale: str):
    context = browser.new_context(viewport=viewport, locale=locale, has_touch=viewport is PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    page.wait_for_selector("#board svg.drawing", timeout=WAIT_MS)
    return context, page, errors


@pytest.mark.parametrize("game", list(OPENINGS))
def test_each_game_s_page_reads_in_the_table_s_language_on_a_phone_and_a_desktop(browser, served, game):
    service, lang = served.service, served.lang
    assert service.submit(NewGame(game=game)).ok
    for text in OPENINGS[game]:
        assert service.submit(Enter(text=text)).ok, text
    title = service.snapshot()["title"]
    assert title == translator(lang)(type(service.referee.game).title)
    for viewport in (PHONE, DESKTOP):
        context, page, errors = open_in(browser, served.url + "/", viewport, {"fr": "fr-FR", "de": "de-DE"}[lang])
        try:
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.locator("#title").inner_text() == title
            reading = read(page)
            fits_the_screen(page, viewport)
            problems = [f"cut off: {c}" for c in reading["clipped"]] + untranslated(reading, lang)
            assert not problems, f"{game} in {lang} at {viewport['width']} px: {problems}"
            assert errors == []
        finally:
            context.close()


def test_a_phone_may_choose_another_language_than_the_table_s(browser, served):
    """The picker sets this browser's language (a cookie): the page's own words follow it;
    the game's words stay the table's, as the journal recorded them."""
    service = served.service
    assert service.submit(NewGame(game="connect4")).ok
    other = "de" if served.lang == "fr" else "fr"
    context, page, errors = open_in(browser, served.url + "/", PHONE, "en-GB")  # a browser in English
    try:
        assert page.evaluate("document.documentElement.lang") == "en"  # the browser's language first
        page.select_option("#lang", other)
        page.wait_for_function(f"() => document.documentElement.lang === '{other}'", timeout=WAIT_MS)
        page.wait_for_selector("#live.on", timeout=WAIT_MS)
        assert page.locator("#controls summary").inner_text() == translator(other)("Referee controls")
        # the table's words, once the page has the new game's (a loaded machine may be a
        # moment behind the snapshot)
        page.wait_for_function("t => document.querySelector('#prompt').innerText === t",
                               arg=service.snapshot()["prompt"]["text"], timeout=WAIT_MS)
        page.reload()
        assert page.evaluate("document.documentElement.lang") == other  # kept for this browser
        assert errors == []
    finally:
        context.close()
