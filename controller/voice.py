"""The referee speaks: each recorded move, alarm (with its fix), doubt, correction and
result, said once and short, by espeak-ng, in the table's language.

The voice listens on the bus like the devices do. The bus calls it on the referee's
thread, so there it only puts the words into a short queue; one speaker thread writes
each announcement as a WAV (espeak-ng, into the data folder's `speech/`, the latest KEEP
kept), tells the page about it (a `said` event: a phone or the TV may play it), and
plays it through the speaker (aplay on the Pi's ALSA; paplay or sox's play elsewhere).

What the game has overtaken is not said: an alarm the board was put right after, a doubt
settled, a move taken back or corrected, anything of a game that was replaced; and when
more than MAX_WAITING announcements wait, the oldest go. A press of the die module's
button when no roll is due, or the page's "Say again", repeats the last announcement
(a `repeat` event).

Without espeak-ng the voice says so once (the log and a notice on the page) and the
referee goes on; a speaker that fails is said once too, and the WAVs are still written.
"""
from __future__ import annotations

import logging
import re
import shutil
import subprocess
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .events import Bus, Event, Kind
from .i18n import N_, translator

log = logging.getLogger("referee")

# the espeak-ng voice of each table language (`espeak-ng --voices=LANG` lists them)
VOICES = {"en": "en", "fr": "fr-fr", "de": "de"}
HEARD = frozenset({Kind.MOVE, Kind.ILLEGAL, Kind.DOUBT, Kind.CORRECTED, Kind.GAME_OVER})
MAX_WAITING = 4  # announcements waiting behind the one being said; past this the oldest go
KEEP = 300  # WAVs kept in speech/ (a few KB each); older ones are deleted
WAV = re.compile(r"[0-9]{6}\.wav")  # a kept announcement's file name (the page asks for these)
PLAYERS = (["aplay", "-q"], ["paplay"], ["play", "-q"])  # the first found plays the WAVs
SYNTH_TIMEOUT_S = 10
FAILED = N_("the voice failed ({error}); the referee goes on without it")


@dataclass
class Announcement:
    text: str
    kind: Kind
    game_id: int | None
    heard: float  # the clock when the event reached the voice
    repeat: bool = False


def overtakes(new: Event, old: Announcement) -> bool:
    """Has `new` made the waiting `old` announcement wrong or pointless?"""
    if old.repeat:
        return False
    if new.game_id != old.game_id or new.kind == Kind.GAME_STARTED:
        return True
    if old.kind == Kind.ILLEGAL:  # the board was put right, or a newer alarm says it better
        return new.clears_alarm or new.kind == Kind.ILLEGAL
    if old.kind == Kind.DOUBT:
        return new.kind in (Kind.MOVE, Kind.DOUBT, Kind.DOUBT_CLEARED, Kind.CORRECTED, Kind.ILLEGAL)
    return False


class Waiting:
    """The announcements not yet said, oldest first, without those the game overtook."""

    def __init__(self) -> None:
        self.items: list[Announcement] = []
        self.dropped = 0

    def overtaken_by(self, event: Event) -> None:
        kept = [a for a in self.items if not overtakes(event, a)]
        back = 1 if event.kind == Kind.UNDO else len(event.data.get("retracted") or ()) \
            if event.kind == Kind.CORRECTED else 0
        if back:  # moves taken back or corrected before they were said
            for a in [a for a in kept if a.kind == Kind.MOVE][-back:]:
                kept.remove(a)
        self.dropped += len(self.items) - len(kept)
        self.items = kept

    def add(self, item: Announcement) -> None:
        self.items.append(item)
        while len(self.items) > MAX_WAITING:
            self.items.pop(0)
            self.dropped += 1


@dataclass
class Voice:
    """`speak`: the voice on or off ([voice] enabled); `folder`: the data folder;
    `game`: the running game (for how its moves are said), asked on the bus's thread;
    `clock`: time.monotonic, or a test's."""

    bus: Bus
    folder: Path
    language: str = "en"
    volume: int = 100  # espeak-ng's amplitude, 0-200
    speed: int = 160  # words per minute
    game: Callable = lambda: None
    player: list | None = None  # None: the first of PLAYERS found; []: no speaker
    clock: Callable[[], float] = time.monotonic
    waiting: "Waiting" = field(default_factory=lambda: Waiting())
    latencies: deque = field(default_factory=lambda: deque(maxlen=200))  # heard -> playing, s
    last: tuple | None = None  # (announcement, wav path) of the last one said

    def __post_init__(self) -> None:
        self.folder = Path(self.folder) / "speech"
        self.espeak = shutil.which("espeak-ng")
        self.voice = VOICES.get(self.language, self.language)
        self._ = translator(self.language)  # its own words, in the table's language (the catalogue's)
        self._told: set[str] = set()  # problems said once
        self._wake = threading.Condition()
        self._closed = False
        self._thread = None
        if self.espeak is None:
            self._tell(N_("espeak-ng is not installed: the referee does not speak (apt install espeak-ng)"))
            return
        if self.player is None:
            self.player = next((p for p in PLAYERS if shutil.which(p[0])), [])
            if not self.player:
                self._tell(N_("no sound player (aplay, paplay or play) was found: the referee's words are "
                              "written as WAV files in {folder} only"), folder=self.folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        names = sorted(p.name for p in self.folder.iterdir() if WAV.fullmatch(p.name))
        self._number = int(names[-1][:6]) + 1 if names else 0  # a restart never overwrites one a page plays
        self.bus.subscribe(self.hear)
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()

    @property
    def speaking(self) -> bool:
        return self._thread is not None

    def _tell(self, message: str, **values) -> None:
        """A problem of the voice (a catalogue's message), said once: on the log in
        English, on the page in the table's language."""
        if message in self._told:
            return
        self._told.add(message)
        log.warning("voice: %s", message.format(**values))
        self.bus.publish(Event(Kind.NOTICE, {"text": self._(message, **values)}))

    # --- on the bus's thread: words only --------------------------------------------------
    def words(self, event: Event) -> str | None:
        d = event.data
        if event.kind == Kind.MOVE:
            game = self.game()
            return game.spoken(d) if game is not None else d.get("text")
        if event.kind == Kind.ILLEGAL:
            return self._("{reason}. {fix}", reason=d.get("reason", ""), fix=d["fix"]) if d.get("fix") \
                else d.get("reason")
        if event.kind == Kind.GAME_OVER:
            return self._("Game over: {reason}", reason=d.get("reason", ""))
        return d.get("text") if event.kind in HEARD else None

    def hear(self, event: Event) -> None:
        if event.kind in (Kind.NOTICE, Kind.SAID, Kind.LINK) or event.kind.value.startswith("hall_"):
            return
        if event.kind == Kind.REPEAT:
            if self.last is None:
                return
            item = Announcement(self.last[0].text, Kind.REPEAT, None, self.clock(), repeat=True)
        else:
            text = self.words(event)
            item = Announcement(text.strip(), event.kind, event.game_id, self.clock()) if text else None
        with self._wake:
            if event.kind != Kind.REPEAT:
                self.waiting.overtaken_by(event)
            if item is not None:
                self.waiting.add(item)
            self._wake.notify()

    # --- the speaker's thread ----------------------------------------------------------------
    def _run(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self.waiting.items or self._closed)
                if self._closed:
                    return
                item = self.waiting.items.pop(0)
            try:
                self._say(item)
            except Exception as exc:  # the voice must never stop the referee
                self._tell(FAILED, error=f"{type(exc).__name__}: {exc}")

    def _say(self, item: Announcement) -> None:
        if item.repeat and self.last is not None and self.last[1].exists():
            wav = self.last[1]
        else:
            wav = self._synthesise(item.text)
            if wav is None:
                return
            self.last = (item, wav)
            self._tidy()
        self.bus.publish(Event(Kind.SAID, {"text": item.text, "wav": wav.name, "repeat": item.repeat}))
        if self.player:
            started = self.clock()
            try:
                proc = subprocess.Popen([*self.player, str(wav)], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            except OSError as exc:
                self._tell(FAILED, error=exc)
                return
            self.latencies.append(started - item.heard)
            _, err = proc.communicate()  # one at a time: announcements never talk over each other
            if proc.returncode != 0:
                self._tell(FAILED, error=f"{self.player[0]}: {err.decode(errors='replace').strip()[-200:]}")

    def _synthesise(self, text: str) -> Path | None:
        wav = self.folder / f"{self._number % 1_000_000:06d}.wav"
        self._number += 1
        done = subprocess.run([self.espeak, "-v", self.voice, "-a", str(self.volume), "-s", str(self.speed),
                               "-w", str(wav)], input=text.encode("utf-8"), capture_output=True,
                              timeout=SYNTH_TIMEOUT_S)
        if done.returncode != 0 or not wav.exists():
            self._tell(FAILED, error=f"espeak-ng: {done.stderr.decode(errors='replace').strip()[-200:]}")
            return None
        return wav

    def _tidy(self) -> None:
        names = sorted(p for p in self.folder.iterdir() if WAV.fullmatch(p.name))
        for old in names[:-KEEP]:
            old.unlink(missing_ok=True)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=SYNTH_TIMEOUT_S)
            self.bus.unsubscribe(self.hear)
