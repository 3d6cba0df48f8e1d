"""The page fixes of issue 30, each as a family meets it, in real headless Chromium over a
real service under waitress: the draw flow in words for each side, a typed refusal in
the game's words and cleared once the turn changes, the voice's Sound toggle and Say
again, the camera caption inside the picture, the Labyrinth marks, the TV page on an
800 px screen and the scores in view at 1280x800."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from controller.events import Enter, Event, Kind, NewGame
from support import running_service
from support import WAIT_MS, Served
from support import need
from game_pages import DESKTOP, OPENINGS, PHONE, on_first_screen, open_page, served  # noqa: F401
from waiting import wait
from web.payload import player_token


def phone_of(browser, served, seat: int):
    return open_page(browser, f"{served.url}/seat/{player_token(served.service.admin_token, seat)}", PHONE)


def faults(errors: list[str]) -> list[str]:
    """The page's own errors: the browser also logs the referee's 422 for a refused move."""
    return [e for e in errors if "status of 422" not in e]


def buttons(page) -> list[str]:
    return [b.inner_text() for b in page.locator("#choices button:not([disabled])").all()]


def test_the_draw_flow_is_in_words_for_each_side(browser, served):
    service = served.service
    assert service.submit(NewGame(game="chess")).ok
    assert service.submit(Enter("e4")).ok
    offerer, page1, errors1 = phone_of(browser, served, 1)
    other, page0, errors0 = phone_of(browser, served, 0)
    try:
        assert "offers a draw" in buttons(page1) and "offers a draw" in buttons(page0)
        page1.locator("#choices button", has_text="offers a draw").click()
        page1.wait_for_function("() => document.getElementById('prompt').textContent.includes('offers a draw')",
                                timeout=WAIT_MS)
        page0.wait_for_function("() => [...document.querySelectorAll('#choices button')]"
                                ".some((b) => b.textContent === 'accepts the draw')", timeout=WAIT_MS)
        # the offerer reads who may accept and is not offered to accept their own draw
        assert "Bowser's team offers a draw: Mario's team may accept it" in page1.locator("#prompt").inner_text()
        assert not any("accept" in b for b in buttons(page1)) and "resigns" in buttons(page1)
        assert "accepts the draw" in buttons(page0)
        page0.locator("#choices button", has_text="accepts the draw").click()
        page0.locator("#result").wait_for(state="visible", timeout=WAIT_MS)
        assert service.snapshot()["outcome"]["reason"] == "draw agreed"
        assert errors0 == [] and errors1 == []
    finally:
        offerer.close()
        other.close()


@pytest.mark.parametrize("game, typed, words", [
    ("labyrinth", "jump d4", "'jump d4' is not a Labyrinth move. Red: push the spare tile in at an arrow"),
    ("smb", "roll", "a roll says the face the die shows: red, yellow, red/yellow or stop"),
])
def test_a_refusal_is_in_the_games_words(browser, served, game, typed, words):
    service = served.service
    assert service.submit(NewGame(game=game)).ok
    context, page, errors = phone_of(browser, served, 0)
    try:
        page.locator("#move-text").fill(typed)
        page.locator("#move-form button").click()
        page.locator("#move-error").wait_for(state="visible", timeout=WAIT_MS)
        said = page.locator("#move-error").inner_text()
        assert said == "\u26A0 Not accepted: " + words
        assert "expected" not in said and "(arrow" not in said and "''" not in said
        assert faults(errors) == []
    finally:
        context.close()


def test_an_old_refusal_goes_when_the_turn_changes(browser, served):
    service = served.service
    assert service.submit(NewGame(game="connect4")).ok
    context, page, errors = phone_of(browser, served, 1)  # Luigi, out of turn
    try:
        page.locator("#move-text").fill("4")
        page.locator("#move-form button").click()
        page.locator("#move-error").wait_for(state="visible", timeout=WAIT_MS)
        assert "Not accepted" in page.locator("#move-error").inner_text()
        assert service.submit(Enter("3")).ok  # Mario plays: now it is Luigi's turn
        page.locator("#move-error").wait_for(state="hidden", timeout=WAIT_MS)
        assert faults(errors) == []
    finally:
        context.close()


def test_the_sound_toggle_plays_the_voices_words_and_say_again_asks_for_them(browser, served):
    need(shutil.which("espeak-ng") is not None, "espeak-ng is not installed (apt install espeak-ng)")
    service = served.service
    folder = Path(service.config.data.folder) / "speech"
    folder.mkdir(exist_ok=True)
    subprocess.run(["espeak-ng", "-w", str(folder / "000007.wav"), "Mario drops a chip in column 4"], check=True)
    said = Event(Kind.SAID, {"text": "Mario drops a chip in column 4", "wav": "000007.wav"})
    asked = []
    service.bus.subscribe(lambda e: asked.append(e.data) if e.kind == Kind.REPEAT else None)
    context, page, errors = open_page(browser, served.url + "/table", DESKTOP)
    try:
        assert not page.locator("#sound").is_checked()  # off until asked for
        page.evaluate("""() => { window.played = [];
                                 HTMLMediaElement.prototype.play = function () {
                                   window.played.push(this.src); return Promise.resolve(); }; }""")
        service.bus.publish(said)
        page.wait_for_timeout(300)
        assert page.evaluate("window.played") == []  # sound off: nothing plays
        page.locator("#sound").check()
        service.bus.publish(said)
        page.wait_for_function("() => window.played.length === 1", timeout=WAIT_MS)
        src = page.evaluate("window.played[0]")
        assert src == served.url + "/speech/000007.wav"
        reply = page.request.get(src)
        assert reply.status == 200 and reply.headers["content-type"] == "audio/wav" and reply.body()[:4] == b"RIFF"
        assert page.request.get(served.url + "/speech/journal.sqlite").status == 404
        page.locator("#say-again").click()
        page.wait_for_function("() => true")
        assert wait(lambda: asked == [{"by": "page"}])
        page.reload()
        page.wait_for_selector("#live.on", timeout=WAIT_MS)
        assert page.locator("#sound").is_checked()  # remembered on this TV
        assert errors == []
    finally:
        context.close()


CAPTION_JS = """() => { const f = document.getElementById('camera-words'), i = document.getElementById('camera');
  const a = f.getBoundingClientRect(), b = i.getBoundingClientRect();
  return {text: f.textContent, px: parseFloat(getComputedStyle(f).fontSize),
          inside: a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1,
          cut: f.scrollWidth > f.clientWidth + 1 || f.scrollHeight > f.clientHeight + 1}; }"""


def test_the_camera_caption_is_inside_the_picture_readable_and_whole_on_a_phone(browser, tmp_path):
    import cv2
    import numpy as np

    from controller.events import Corners

    frames = tmp_path / "frames"
    frames.mkdir()
    picture = np.zeros((360, 640, 3), np.uint8)
    picture[:, :, 1] = np.linspace(40, 200, 640, dtype=np.uint8)
    cv2.imwrite(str(frames / "table.png"), picture)
    with running_service(tmp_path / "data", camera_source=str(frames)) as service:
        assert wait(lambda: getattr(service.watcher, "last_frame", None) is not None)
        assert service.submit(Corners([(100, 300), (540, 300), (540, 60), (100, 60)])).ok
        service.watcher.feed(99.0, picture)  # the board located: there is a picture to show
        served = Served(service, heartbeat_s=0.2)
        try:
            context, page, errors = open_page(browser, served.url + "/", PHONE)
            for column in ("4", "3", "4", "3", "4", "3"):  # a long caption: the latest move's words
                assert service.submit(Enter(text=column)).ok
            page.wait_for_function("() => document.getElementById('camera-words').textContent"
                                   ".includes('drops a chip in column 3')", timeout=WAIT_MS)
            page.wait_for_function("() => document.getElementById('camera').naturalWidth > 0", timeout=WAIT_MS)
            seen = page.evaluate(CAPTION_JS)
            assert seen["text"] == "Read: Luigi drops a chip in column 3"  # whole, not cut at 70 characters
            assert seen["px"] >= 11 and seen["inside"] and not seen["cut"]
            assert errors == []
            context.close()
        finally:
            served.close()


def opening_on(browser, served, game: str, path: str, viewport: dict):
    """A new `game` after its opening inputs (a latest move, a prompt), its page at `path`."""
    assert served.service.submit(NewGame(game=game)).ok
    for text in OPENINGS[game]:
        assert served.service.submit(Enter(text=text)).ok
    return open_page(browser, served.url + path, viewport)


@pytest.mark.parametrize("game", list(OPENINGS))
def test_the_tv_page_fits_an_800_px_screen(browser, served, game):
    context, tv, errors = opening_on(browser, served, game, "/table", DESKTOP)
    try:
        height = tv.evaluate("document.documentElement.scrollHeight")
        assert height <= DESKTOP["height"], f"the TV page is {height} px tall on an 800 px screen"
        on_first_screen(tv, "#board svg.drawing", DESKTOP)
        # every player's score on the screen (measured in one step: the page redraws them)
        bottoms = tv.evaluate("() => [...document.querySelectorAll('.player-card')]"
                              ".map(c => c.getBoundingClientRect().bottom)")
        assert all(bottom <= DESKTOP["height"] for bottom in bottoms), bottoms
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("game", ["smb", "monopoly"])
def test_the_scores_are_in_view_on_a_laptop(browser, served, game):
    context, page, errors = opening_on(browser, served, game, "/", DESKTOP)
    try:
        # measured in one step: the page redraws the cards as the stream arrives
        cards = page.evaluate("() => [...document.querySelectorAll('.player-card')].map(c => "
                              "{ const r = c.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, "
                              "text: c.innerText}; })")
        assert len(cards) == len(served.service.snapshot()["seats"])
        for card in cards:
            assert 0 <= card["top"] and card["bottom"] <= DESKTOP["height"], \
                f"{card['text']!r} is at y={card['top']:.0f}, below a 1280x800 screen"
            assert "coin" in card["text"]
        assert errors == []
    finally:
        context.close()


OVERLAPS_JS = """([marks, words]) => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => [e, e.getBoundingClientRect()]);
  const out = [];
  for (const [m, a] of boxes(marks)) for (const [w, b] of boxes(words)) {
    const x = Math.min(a.right, b.right) - Math.max(a.left, b.left), y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (x > 1 && y > 1) out.push((m.dataset.token || m.dataset.pawn) + " over " + w.textContent);
  }
  return out; }"""


def test_monopoly_names_are_readable_beside_the_tokens(browser, served):
    context, page, errors = opening_on(browser, served, "monopoly", "/", DESKTOP)
    try:
        assert page.locator(".mono-name").count() > 40  # the names are drawn at this size
        assert page.locator(".mono-token, .mono-bowser").count() == 5
        assert page.evaluate(OVERLAPS_JS, [".mono-token, .mono-bowser", ".mono-name, .mono-kind"]) == []
        assert errors == []
    finally:
        context.close()


def test_labyrinth_pawns_and_treasures_cannot_be_mistaken(browser, served):
    service = served.service
    assert service.submit(NewGame(game="labyrinth")).ok
    context, page, errors = open_page(browser, served.url + "/", PHONE)
    try:
        pawns = page.locator("#board .pawn")
        assert pawns.count() == 4
        # a pawn is drawn as a pawn, never as a letter a treasure's mark could share
        assert page.locator("#board .pawn text").count() == 0
        assert page.locator("#board .lab-treasure").count() > 0
        heads = {p.get_attribute("data-pawn"): p.get_attribute("data-head") for p in pawns.all()}
        assert len(set(heads.values())) == 4  # each colour's head its own shape, for the colour-blind
        # put every pawn on a treasure's tile: it stands in a corner, clear of the mark
        rows = service.snapshot()["state"]["rows"]
        treasured = [f"{'abcdefg'[c]}{r + 1}" for r, row in enumerate(rows)
                     for c, t in enumerate(row.split(" ")) if ":" in t][:4]
        page.evaluate("""(cells) => { const s = JSON.parse(JSON.stringify(window.referee.snap));
                                       s.state.players.forEach((p, k) => { p.cell = cells[k]; });
                                       window.drawings.labyrinth(document.getElementById('board'), s, {}); }""",
                      treasured)
        assert page.evaluate(OVERLAPS_JS, ["#board .pawn", "#board .lab-mark"]) == []
        assert errors == []
    finally:
        context.close()
