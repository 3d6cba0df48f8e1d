"""The chess clock on the page, as a person sees it in a real headless Chromium at phone
size: big digits for each side, the side to move marked, nothing overflowing its box;
set from the admin's new-game form."""
import re

import pytest

from controller.events import Enter, NewGame
from support import WAIT_MS


def digits_fit(page) -> list:
    """Each clock's digits: (text, fits in its box, the box inside the screen)."""
    return page.eval_on_selector_all("#clocks .clock", """els => els.map(e => {
        const d = e.querySelector('.clock-time'), r = e.getBoundingClientRect();
        return [d.textContent, d.scrollWidth <= d.clientWidth, r.left >= 0 && r.right <= window.innerWidth,
                parseFloat(getComputedStyle(d).fontSize)];
    })""")


@pytest.mark.parametrize("control, shows", [("90+30", r"^1:(30|29):\d\d$"), ("3+2", r"^(3:0\d|2:5\d)$")])
def test_the_clock_digits_show_big_and_fit_a_phone(browser, served, control, shows):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(served.url + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert page.locator("#clocks").is_hidden()  # Connect 4 runs no clock
    assert served.service.submit(NewGame(game="chess", clock=control)).ok
    page.locator("#clocks").wait_for(state="visible", timeout=WAIT_MS)
    assert served.service.submit(Enter(text="e4")).ok  # Black's clock runs from White's first move
    page.wait_for_selector('#clocks .clock[data-seat="1"].running', timeout=WAIT_MS)
    assert page.locator('#clocks .clock[data-seat="0"]').get_attribute("class") == "clock"
    for text, fits, inside, size in digits_fit(page):
        assert re.match(shows, text) and fits and inside, (text, fits, inside)
        assert size >= 24  # legible: one and a half times the page's text, even h:mm:ss on a 360 px phone
    marks = page.eval_on_selector_all("#clocks .clock-name", "els => els.map(e => getComputedStyle(e, '::before').content)")
    assert "\u25B6" not in marks[0] and "\u25B6" in marks[1]  # the side to move: a triangle, not colour alone
    # the running side counts down between events, the other stands
    from playwright.sync_api import expect  # the browser fixture says when playwright is missing

    running = page.locator('#clocks .clock[data-seat="1"] .clock-time')
    expect(running).not_to_have_text(running.inner_text(), timeout=WAIT_MS)
    context.close()


def test_the_admin_starts_a_game_on_a_clock_and_a_bad_one_is_named(browser, served):
    context = browser.new_context(viewport={"width": 1024, "height": 900})
    page = context.new_page()
    page.goto(served.url + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    page.locator("#controls summary").click()
    page.fill("#admin-token", served.service.admin_token)
    page.click("#token-form button")
    page.locator("#admin-tools").wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator("#ng-clock").is_hidden()  # Connect 4 has no clock
    page.select_option("#ng-game", "chess")
    page.fill("#ng-clock", "3 minutes")
    page.click("#new-game-form button")
    page.wait_for_selector("#admin-error:text('is not a period')", timeout=WAIT_MS)
    page.fill("#ng-clock", "5 d3")
    page.click("#new-game-form button")
    page.locator("#clocks").wait_for(state="visible", timeout=WAIT_MS)
    assert page.locator("#clock-note").inner_text().startswith("5 d3")
    assert [t for t in page.locator("#clocks .clock-time").all_inner_texts()] == ["5:00", "5:00"]
    assert "delay 3 s" in page.locator("#rulings").inner_text()
    assert served.service.snapshot()["clock"]["control"] == "5 d3"
    context.close()


def test_a_flag_fall_shows_as_the_result_and_a_row_of_words_in_the_record(browser, served):
    context = browser.new_context(viewport={"width": 420, "height": 900})
    page = context.new_page()
    page.goto(served.url + "/")
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    assert served.service.submit(NewGame(game="chess", clock="5+0")).ok
    for text in ("e4", "e5", "flag red"):  # the clock's entry, as an arbiter types it
        assert served.service.submit(Enter(text=text)).ok, text
    page.locator("#result").wait_for(state="visible", timeout=WAIT_MS)
    assert "Mario's team's flag fell: Bowser's team wins on time" in page.locator("#result").inner_text()
    assert page.locator("#moves").inner_text().splitlines()[-1] == "Mario's team's flag fell: Bowser's team wins on time"
    assert page.locator("#moves .record-row .num").all_inner_texts() == ["1."]  # the flag is no ply
    assert page.locator("#clocks .clock.running").count() == 0
    assert page.locator("#clock-note").inner_text() == "5+0: game over"
    context.close()
