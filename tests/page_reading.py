"""Reading a page as a person does, in Chromium: every text shown on the screen with the
size it is drawn at (an SVG label at its scale on the screen), the texts cut off by the
edge of the screen or of a box, the words broken across lines, and who is marked to
play. `faults_of(reading, ...)` turns a reading into the problems issue 23 names."""
from __future__ import annotations

import re

from words_check import faults

MIN_PX = 11

READ_JS = """
() => {
  const vw = document.documentElement.clientWidth;
  const out = {texts: [], clipped: [], broken: [], turns: [], labels: []};
  const shown = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.visibility !== "visible" || Number(cs.opacity) === 0) return false;
    }
    return true;
  };
  const clippers = (el) => {
    const out = [];
    for (let e = el.parentElement; e && e !== document.documentElement; e = e.parentElement) {
      const x = getComputedStyle(e).overflowX;
      if (x !== "visible") out.push(e);
    }
    return out;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent.replace(/\\s+/g, " ").trim();
    const el = n.parentElement;
    if (!text || !el || el.closest("script,style,title,noscript,template,select")) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (!rects.length || !shown(el)) continue;
    let px = parseFloat(getComputedStyle(el).fontSize);
    const inSvg = el instanceof SVGElement;
    if (inSvg) { const m = el.getScreenCTM(); px *= m ? Math.hypot(m.a, m.b) : 1; }
    const where = el.id || el.className && String(el.className.baseVal ?? el.className) || el.tagName.toLowerCase();
    out.texts.push({text, px: Math.round(px * 10) / 10, where: String(where).slice(0, 40), svg: inSvg});
    for (const r of rects) {
      if (r.right > vw + 1 || r.left < -1) { out.clipped.push(text + " (off the screen)"); break; }
      const box = clippers(el).find((c) => { const b = c.getBoundingClientRect();
                                              return r.right > b.right + 1 || r.left < b.left - 1; });
      if (box) { out.clipped.push(text + " (cut off by " + (box.id || box.getAttribute("class") || box.tagName) + ")"); break; }
    }
    if (!inSvg && rects.length > 1) {  // a word split over two lines ("Punc h-Out")
      const re = /[^\\s\\-\\u00B7/]{2,}/g;
      for (let m; (m = re.exec(n.textContent));) {
        const w = document.createRange();
        w.setStart(n, m.index); w.setEnd(n, m.index + m[0].length);
        const tops = new Set([...w.getClientRects()].filter((r) => r.width > 0.5).map((r) => Math.round(r.top)));
        if (tops.size > 1) out.broken.push(m[0]);
      }
    }
  }
  for (const e of document.querySelectorAll(".turn")) {
    if (e.getClientRects().length && shown(e)) out.turns.push(e.dataset.seat ?? "?");
  }
  for (const e of document.querySelectorAll("#board svg [data-label]")) out.labels.push(e.dataset.label);
  return out;
}
"""


def read(page) -> dict:
    """What a person sees is a painted frame: the page's layout observers (a drawing's
    labels fitted again to a board the alarm banner just made smaller) run before it, so
    the reading waits for two frames (read at once, it caught a label not yet hidden)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    return page.evaluate(READ_JS)


def faults_of(reading: dict, prompt_seat, die: bool) -> list[str]:
    """The problems in one reading: codes and wrong plurals in any text, text under
    MIN_PX, text cut off, words broken, two players to play (or another than the
    prompt's), the die module on a game without a die, a space named in words without its
    label on the board."""
    out = []
    for t in reading["texts"]:
        out += faults(t["text"])
        if t["px"] < MIN_PX:
            out.append(f"text {t['px']} px tall ({t['where']}): {t['text']!r}")
    out += [f"cut off: {c!r}" for c in reading["clipped"]]
    out += [f"a word broken over two lines: {w!r}" for w in reading["broken"]]
    turns = set(reading["turns"])
    if len(turns) > 1 or (turns and prompt_seat is not None and turns != {str(prompt_seat)}):
        out.append(f"marked to play: seats {sorted(turns)}; the prompt is for seat {prompt_seat}")
    whole = " ".join(t["text"] for t in reading["texts"])
    if not die and "Die module" in whole:
        out.append("the die module is shown on a game without a die")
    if reading["labels"]:
        drawn = set(reading["labels"])
        for n in re.findall(r"\bspace (\d+)", " ".join(t["text"] for t in reading["texts"]
                                                       if t["where"] in ("prompt", "alarm-text", "choice"))):
            if n not in drawn:
                out.append(f"space {n} is named but not labelled on the board")
    return sorted(set(out))
