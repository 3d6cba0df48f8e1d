"""Issue 30, done when: `referee demo --lang de` and `--lang fr` play each game with the
page, the terminal and the voice in that language. Each of the five games is played a
few turns at the fast demo table, as a person starts it (`referee demo --fast --lang L
--players ...`), in French and in German (`make test` runs each game in one of them, the
two taking turns; `make test-slow` the rest):
- every line the terminal prints, from its first (the status page's address) to its
  last (the summary, the folder kept), is in the language: no catalogue message that
  has a translation is printed in English, nor English words (tests/english_check.py);
- the page served says its language (<html lang>) and its words are in it, and so is
  every word the referee recorded (moves, alarms with their fixes, doubts, results),
  which the page and the exports show;
- the voice said the referee's words in it (each `said` event on the page's event
  stream, in the language), and each announcement is a WAV in the data folder's speech/;
- the players' names given with --players are the ones the page shows."""
from __future__ import annotations

import json
import re
import threading
import urllib.request
from html.parser import HTMLParser

import pytest

from english_check import english, unprinted
from support import play_demo

# game, turns shown on the table, seed (the seeds of test_demo_games.py; a few turns keep
# each run to seconds, most with the deliberate mistake and its alarm in words)
GAMES = [("connect4", 4, 1), ("smb", 3, 3), ("monopoly", 3, 5), ("chess", 4, 3), ("labyrinth", 3, 3)]
NAMES = ("Léa", "Jürgen")


class Texts(HTMLParser):
    """The texts a person reads on a page (not its scripts' or styles' source)."""

    def __init__(self):
        super().__init__()
        self.texts, self._skip, self.lang = [], 0, None

    def handle_starttag(self, tag, attrs):
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        self._skip -= tag in ("script", "style")

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def listen(url: str, said: list, page: dict) -> None:
    """Read the page (as a browser without a language of its own: the table's) and keep
    what the voice says, from the page's event stream, until the demo ends."""
    texts = Texts()
    texts.feed(urllib.request.urlopen(url + "/", timeout=10).read().decode())
    state = json.loads(urllib.request.urlopen(url + "/api/state", timeout=10).read())
    page.update(lang=texts.lang, texts=texts.texts, state=state)
    stream = urllib.request.urlopen(url + "/events", timeout=60)

    def read():
        try:
            for line in stream:
                if line.startswith(b"data: ") and (event := json.loads(line[6:]))["type"] == "said":
                    said.append(event)
        except OSError:  # the demo ended and its server went away
            pass

    threading.Thread(target=read, daemon=True).start()


# each game in one language in `make test`, the languages taking turns; in the other one
# too in `make test-slow` (a demo run takes 10 s: both for all five held the suite over
# its ten minutes)
RUNS = [pytest.param(game, turns, seed, lang, id=f"{game}-{lang}",
                     marks=() if (k + (lang == "de")) % 2 == 0 else pytest.mark.slow)
        for k, (game, turns, seed) in enumerate(GAMES) for lang in ("fr", "de")]


@pytest.mark.parametrize("game, turns, seed, lang", RUNS)
def test_the_demo_plays_each_game_with_the_page_the_terminal_and_the_voice_in_the_table_s_language(
        tmp_path, game, turns, seed, lang):
    told, said, page = [], [], {}
    record = play_demo(tmp_path, "--game", game, "--turns", str(turns), "--seed", str(seed), "--lang", lang,
                       "--players", ",".join(NAMES), told=told, watch=lambda url: listen(url, said, page))
    # the terminal: each line, and each part of one ("result: <the reason>"); its folder,
    # address and random token are not words ("pytest-of-root" is not English)
    lines = [re.sub(r"http://\S+|[\w-]{16}(?=\))", "X", line.replace(str(tmp_path), "FOLDER")).strip()
             for line in told]
    faults = [fault for line in lines for part in re.split(r" ?: ", re.sub(r"^\d+\. ", "", unprinted(line)))
              if (fault := english(line, lang) or english(part, lang))]
    assert not faults, "\n".join(faults + ["", "the terminal said:"] + told)
    assert told[0].startswith({"fr": "démo : ", "de": "Demo: "}[lang]), told[0]
    assert told[1].startswith({"fr": "page d'état : http://", "de": "Statusseite: http://"}[lang]), told[1]
    # the page served, and the words recorded (the page's and the exports')
    assert page["lang"] == lang
    words = [e[key] for e in record["events"] for key in ("text", "reason", "fix") if isinstance(e.get(key), str)]
    faults = [fault for text in page["texts"] + words if (fault := english(text, lang))]
    assert not faults, "\n".join(faults)
    assert record["events"][0]["players"] == list(NAMES)
    assert all(name in json.dumps(page["state"], ensure_ascii=False) for name in NAMES)  # the players' cards
    # the voice: said in the language, each announcement a WAV beside the journal
    assert said, "the voice said nothing"
    faults = [fault for s in said if (fault := english(s["text"], lang))]
    assert not faults, "\n".join(faults)
    assert all((tmp_path / "speech" / s["wav"]).stat().st_size > 1000 for s in said)
