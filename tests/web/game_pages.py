"""Each game's page in a real Chromium, as the browser tests open it: the phone and the
desktop a family uses, the opening inputs that leave a latest move and a prompt, one
service for a module (the `served` fixture), and the checks of what a person sees first."""
from __future__ import annotations

import pytest

from support import WAIT_MS, Served, running_service

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

# game -> (inputs that leave a latest move and a prompt, the seat the prompt is for)
OPENINGS = {
    "connect4": ["4", "3"],
    "chess": ["e4", "e5"],
    "labyrinth": ["push N2 r0"],  # then Red moves the pawn or presses 'end'
    "smb": ["roll red/yellow"],  # then a choice: which space Mario goes to
    "monopoly": ["roll 1 2", "put bowser@21", "put p0@3"],  # then Mario's Cap: buy or auction
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with running_service(tmp_path_factory.mktemp("games") / "data") as service:
        s = Served(service, heartbeat_s=0.2)
        yield s
        s.close()


def open_page(browser, url: str, viewport: dict):
    context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#live.on", timeout=WAIT_MS)
    page.wait_for_selector("#board svg.drawing", timeout=WAIT_MS)
    return context, page, errors


def fits_the_screen(page, viewport: dict) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide on a {viewport['width']} px screen"


def on_first_screen(page, selector: str, viewport: dict) -> None:
    """`selector` shown within the first screen. Found and measured in one step in the
    page, waited for until shown: the page redraws its board when the layout or the
    stream arrives, and an element found in one step and measured in the next may be
    gone between them (seen under load: the TV's Super Mario Bros. board "not shown",
    after waiting for it to be visible)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        box = page.wait_for_function("""sel => { const e = document.querySelector(sel);
                                                 const r = e && e.getBoundingClientRect();
                                                 return r && r.height > 0 ? {y: r.top, height: r.height} : null; }""",
                                     arg=selector, timeout=WAIT_MS).json_value()
    except PlaywrightTimeout:
        raise AssertionError(f"{selector} is not shown") from None
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], \
        f"{selector} is at y={box['y']:.0f}-{box['y'] + box['height']:.0f}, below the first screen"
