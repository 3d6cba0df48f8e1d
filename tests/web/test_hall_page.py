"""The hall page as the organiser sees it: a table's referee publishes through a real
Mosquitto, the hall keeps it, and the page (waitress, headless Chromium) shows the
table's card, its moves and its alarm as they happen, without a reload."""
from __future__ import annotations

import pytest

from controller.events import Bus
from controller.journal import Journal
from controller.referee import Referee
from support import WAIT_MS, served_hall
from waiting import wait_for


@pytest.fixture
def hall_page(tmp_path, broker):
    journal = Journal(tmp_path / "t1.sqlite")
    referee = Referee(journal, Bus())
    referee.new_game("chess")
    with served_hall(tmp_path / "hall", broker, referee) as (url, hall):
        wait_for(lambda: hall.store.events("t1"), "table t1's first event at the hall", 10)
        yield url, referee
    journal.close()


def test_the_hall_shows_each_table_live_and_opens_one_in_full(browser, hall_page):
    url, referee = hall_page
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    card = page.locator('.card[data-table="t1"]')
    card.wait_for(timeout=WAIT_MS)
    assert "Mario's team" in card.inner_text()
    assert page.locator("#admin").is_hidden()  # read-only without the admin token
    page.evaluate("window.stillThisPage = 'yes'")
    referee.enter("e4")
    page.wait_for_function("() => document.querySelector('.card[data-table=\"t1\"]').innerText.includes('1 move, the last at')",
                           timeout=WAIT_MS)
    referee.enter("e4")  # black cannot play that: a typed mistake, in the alarm list
    page.wait_for_selector("#alarms li", timeout=WAIT_MS)
    assert page.locator("#alarms li").first.inner_text().startswith("t1: ")
    assert page.evaluate("window.stillThisPage") == "yes"
    card.click()
    page.locator("#full").wait_for(state="visible", timeout=WAIT_MS)
    # chess as a club writes it: by move number, the Mario words as the detail (issue 23)
    assert page.locator("#full-moves .num").all_inner_texts() == ["1."]
    assert page.locator("#full-moves .ply").all_inner_texts() == ["e4"]
    assert page.locator("#full-moves .ply").get_attribute("title") == "Coin moves from e2 to e4"
    assert "Illegal move" in page.locator("#full-events").inner_text()
    assert card.locator(".thumb svg").count() == 1  # the chess drawing (static/draw/chess.js), small
    assert page.locator("#full-board svg").count() == 1
    # issue 21: this broker lets anyone publish as a table, and the page says so
    page.wait_for_function("() => document.querySelector('#warnings').innerText.includes('hardware.md')",
                           timeout=WAIT_MS)
    assert page.locator("#warnings").is_visible()
    # the admin token is typed on the page (never in a URL) and kept in this browser
    page.fill("#admin-token", "wrong-token")
    page.locator("#token-form button").click()
    page.wait_for_function("() => document.querySelector('#token-state').innerText.includes('wrong admin token')",
                           timeout=WAIT_MS)
    assert page.locator("#admin").is_hidden()
    page.fill("#admin-token", "sesame")
    page.locator("#token-form button").click()
    page.locator("#admin").wait_for(state="visible", timeout=WAIT_MS)
    page.reload()
    page.locator("#admin").wait_for(state="visible", timeout=WAIT_MS)
    page.locator("#round-form button").click()
    page.wait_for_selector("#rounds li a", timeout=WAIT_MS)
    context.close()


def test_without_its_drawing_a_card_shows_the_moves_as_text(browser, hall_page):
    url, referee = hall_page
    context = browser.new_context()
    context.route("**/static/draw/*.js", lambda route: route.abort())
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    referee.enter("d4")
    page.wait_for_function("() => document.querySelector('.card[data-table=\"t1\"] .summary').innerText === 'd4'",
                           timeout=WAIT_MS)
    context.close()
