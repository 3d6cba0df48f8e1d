"""The journal: an append-only SQLite event log, the source of truth.

Every event is committed (WAL, synchronous=FULL) before the bus announces it, so pulling
the plug loses nothing that anyone was told. On start the service finds the open game
and the referee replays its events. A file that is corrupt, not ours, or written by a
newer version is reported and left untouched; a new journal is started beside it.

The record is written first. The referee writes what one input decides in one
`transaction()` and changes its memory only if it commits: a write that fails (a full
disk, a read-only card) is a `RecordLost` naming the journal and why, and changes
nothing. Before each transaction the file is checked to still be the one opened: SQLite
writes on into a deleted or moved file, which nobody would ever read again (an `rm -rf`
of the data folder lost every later move silently). A deleted one is written again at
its place from the copy still open (nothing is lost) and said; one replaced by another
file is not written over: the record cannot be kept until a restart.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from .events import Event
from .i18n import N_, Phrase, Said
from .record import fold

SCHEMA_VERSION = 1
# Longest text kept in an event: a line typed from a phone is journalled and broadcast,
# so a stranger with a player link must not grow the record by megabytes per request.
MAX_TEXT = 500
APPLICATION_ID = 0x54524546  # "TREF": marks the file as a Tabletop Referee journal

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,
    game_id INTEGER REFERENCES games(id),
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game_id, seq);
"""


# SQLite's page cache, in KiB. The journal appends to the open game and reads one game at
# a time, so a small cache holds what is used; SQLite's default (2 MB) kept filling with
# the pages of games long over, about 3 KB more memory a game for the first 600 games of a
# season (bench/soak.py, docs/hardening.md "The soak"). 1,000 games of 20 events level off at 0.05 MB
# in use with 128 KB (0.46 MB with 512 KB); the file's pages stay in the OS's cache.
CACHE_KB = 128


class JournalError(Said):
    """A journal file that cannot be used; the message names the file and why, in the
    listener's language where a person reads it (`said(_)`)."""


class RecordLost(JournalError):
    """A write the journal could not keep (a full disk, a file deleted or replaced): the
    message says so in words, naming the file; nothing of it was written. The referee
    says it in the table's language (`said(_)`, controller/i18n.py); str() is the
    English, for the log."""


class Journal:
    def __init__(self, path: str | Path):
        self.path = str(path)
        # held for a whole transaction: the page's reads on this connection never see
        # what the referee has not committed
        self._lock = threading.RLock()
        self._depth = 0  # transactions open (one input's writes, and those inside it)
        self._began = False  # whether SQLite's transaction has begun (at the first write)
        self.commits = 0  # transactions committed (the record is kept when one is)
        self.notices: list[tuple[bool, str]] = []  # (kept?, what happened to the file), for the page
        self._db, self._file = self._connect()

    def _connect(self) -> tuple[sqlite3.Connection, tuple[int, int] | None]:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            self._verify(db)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute(f"PRAGMA cache_size=-{CACHE_KB}")
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            st = None if self.path == ":memory:" else os.stat(self.path)
        except (sqlite3.DatabaseError, JournalError, OSError) as exc:
            db.close()  # the file is left as it was, and not held open
            if isinstance(exc, JournalError):
                raise
            raise JournalError(N_("{path}: not a usable journal ({error})"), path=self.path, error=exc) from exc
        return db, (st.st_dev, st.st_ino) if st else None

    def _verify(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        app = db.execute("PRAGMA application_id").fetchone()[0]
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if version > SCHEMA_VERSION:
            raise JournalError(N_("{path}: written by a newer version (schema {version}, this referee reads "
                                  "up to {known})"), path=self.path, version=version, known=SCHEMA_VERSION)
        if tables and app != APPLICATION_ID:
            raise JournalError(N_("{path}: an SQLite file that is not a referee journal"), path=self.path)
        check = db.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise JournalError(N_("{path}: corrupt ({check})"), path=self.path, check=check)

    def close(self) -> None:
        self._db.close()

    # --- writing -------------------------------------------------------------------
    @contextmanager
    def transaction(self):
        """Everything written inside is committed together at the end, or none of it
        (RecordLost, naming the file and why, for a write that cannot be kept).
        Transactions inside one join it; one from another thread waits for its end (the
        journal's lock is held throughout, so a page reading the journal never sees what
        is not committed). SQLite's transaction begins at the first write: an input that
        writes nothing (a camera tick) costs no transaction and no check of the file."""
        with self._lock:
            self._depth += 1
            try:
                yield self
            except BaseException:
                self._depth -= 1
                if self._depth == 0:
                    self._end(commit=False)
                raise
            self._depth -= 1
            if self._depth == 0:
                self._end(commit=True)

    def _write(self, sql: str, args=()) -> sqlite3.Cursor:
        """One statement of the transaction open (begun here, at its first write, once
        the file is checked to still be the one open)."""
        if not self._began:
            self._still_there()
            self._run("BEGIN IMMEDIATE")
            self._began = True
        return self._run(sql, args)

    def _end(self, commit: bool) -> None:
        if not self._began:
            return
        try:
            if commit:
                self._run("COMMIT")
                self.commits += 1
        finally:
            if self._db.in_transaction:  # not committed: nothing of it is kept
                self._db.execute("ROLLBACK")
            self._began = False

    def _run(self, sql: str, args=()) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.OperationalError as exc:  # full, read-only, I/O error: said, never a traceback
            raise RecordLost(N_("the record cannot be kept: {why} (journal {path})"), why=exc, path=self.path) from None

    def check(self) -> None:
        """Between writes: the file is still the one open (as `_still_there`)."""
        with self._lock:
            if not self._began:
                self._still_there()

    def _still_there(self) -> None:
        """The file at `path` is still the one open, else: deleted, written again there
        from the open copy (said in `notices`); replaced by another, RecordLost."""
        if self._file is None:  # a journal in memory (tests, `referee play`)
            return
        try:
            st = os.stat(self.path)
        except OSError:
            st = None
        if st is not None and (st.st_dev, st.st_ino) == self._file:
            return
        if st is not None:
            raise RecordLost(N_("the record cannot be kept: journal {path} was replaced by another file while "
                                "serving; it is not written over (restart the referee to use it)"), path=self.path)
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            copy = sqlite3.connect(self.path + ".restoring")
            try:
                self._db.backup(copy)
            finally:
                copy.close()
            os.replace(self.path + ".restoring", self.path)
            old = self._db
            self._db, self._file = self._connect()
            old.close()
        except (OSError, sqlite3.Error, JournalError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise RecordLost(N_("the record cannot be kept: journal {path} was deleted or moved while serving, "
                                "and cannot be written again there ({why})"), path=self.path, why=reason) from None
        # (kept, the catalogue's message, its values): the referee says them in the table's language
        self.notices += [(False, N_("journal {path} was deleted or moved while serving"), {"path": self.path}),
                         (True, N_("journal {path} is written again from the copy kept open: nothing was lost"),
                          {"path": self.path})]

    def start_game(self, game: str, variant: str, first: Event) -> Event:
        """A new game and its first event (game_started), in one transaction: a power
        cut leaves both or neither. Returns the event with its game id and number."""
        with self.transaction():
            game_id = self._write("INSERT INTO games(game, variant, started) VALUES (?, ?, ?)",
                                  (game, variant, first.t)).lastrowid
            seq = self._write("INSERT INTO events(game_id, t, kind, data) VALUES (?, ?, ?, ?)",
                              (game_id, first.t, first.kind, json.dumps(first.data))).lastrowid
        return Event(first.kind, first.data, game_id, seq, first.t)

    def append(self, event: Event) -> Event:
        """Write the event (texts longer than MAX_TEXT cut, see `bounded`), committed
        with the transaction it is in; return it, as written, with its sequence number."""
        data = bounded(event.data)
        with self.transaction():
            cur = self._write("INSERT INTO events(game_id, t, kind, data) VALUES (?, ?, ?, ?)",
                              (event.game_id, event.t, event.kind, json.dumps(data)))
        return Event(event.kind, data, event.game_id, cur.lastrowid, event.t)

    def end_game(self, game_id: int, result: str) -> None:
        with self.transaction():
            self._write("UPDATE games SET ended=?, result=? WHERE id=?", (time.time(), result, game_id))

    def reopen_game(self, game_id: int) -> None:
        """An undo of the last move of a finished game opens it again."""
        with self.transaction():
            self._write("UPDATE games SET ended=NULL, result=NULL WHERE id=?", (game_id,))

    # --- reading -------------------------------------------------------------------
    def open_game(self) -> dict | None:
        """The newest game that has not ended, if any."""
        with self._lock:
            row = self._db.execute("SELECT id, game, variant, started FROM games WHERE ended IS NULL "
                                   "ORDER BY id DESC LIMIT 1").fetchone()
        return None if row is None else dict(zip(("id", "game", "variant", "started"), row))

    def games(self) -> list[dict]:
        with self._lock:
            rows = self._db.execute("SELECT id, game, variant, started, ended, result FROM games "
                                    "ORDER BY id").fetchall()
        return [dict(zip(("id", "game", "variant", "started", "ended", "result"), r)) for r in rows]

    def events(self, game_id: int) -> list[Event]:
        with self._lock:
            rows = self._db.execute("SELECT seq, t, kind, data FROM events WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [Event(kind, json.loads(data), game_id, seq, t) for seq, t, kind, data in rows]

    def export(self, game_id: int) -> dict:
        """The whole record of one game as JSON: every event, and the plies that stand
        (`record`: each with its notation, words, seat and time; controller/record.py)."""
        info = next((g for g in self.games() if g["id"] == game_id), None)
        if info is None:
            raise KeyError(f"no game {game_id} in {self.path}")
        events = self.events(game_id)
        return {**info, "events": [e.to_json() for e in events], "record": fold(events).to_json()}


def bounded(value):
    """`value` with every text longer than MAX_TEXT cut to it, saying how long it was (a
    move's notation is a few characters; only a pasted or hostile line is ever cut)."""
    if isinstance(value, str) and len(value) > MAX_TEXT:
        return f"{value[:MAX_TEXT]}... ({len(value)} characters, cut)"
    if isinstance(value, dict):
        return {k: bounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [bounded(v) for v in value]
    return value


def open_journal(folder: str | Path, name: str = "journal.sqlite",
                 create: bool = True) -> tuple[Journal, list[Phrase]]:
    """Open the data folder's journal. If it cannot be used, say so, leave it as it is,
    and go on with the newest usable journal started beside it (or a new one, unless
    `create` is False: then JournalError)."""
    folder = Path(folder)
    main = folder / name
    if not create and not main.exists():
        raise JournalError(N_("{path}: no journal here"), path=main)
    if folder.exists() and not folder.is_dir():
        raise JournalError(N_("data folder {folder}: is a file, not a folder; set [data] folder to a folder"),
                           folder=folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise JournalError(N_("data folder {folder}: cannot be made ({error})"), folder=folder,
                           error=exc.strerror) from None
    if main.is_dir():
        raise JournalError(N_("journal {path}: is a folder, not a file; move it away"), path=main)
    notes: list[Phrase] = []
    try:
        return Journal(main), notes
    except JournalError as exc:
        unusable = exc
        notes.append(Phrase(N_("{error}; it is left untouched"), error=exc))
    stem = main.stem
    for sibling in sorted(folder.glob(f"{stem}.after-*.sqlite"), reverse=True):
        try:
            journal = Journal(sibling)
        except JournalError as exc:
            notes.append(Phrase(N_("{error}; it is left untouched"), error=exc))
            continue
        notes.append(Phrase(N_("going on with {path}"), path=sibling))
        return journal, notes
    if not create:
        raise unusable
    fresh = folder / f"{stem}.after-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.sqlite"
    notes.append(Phrase(N_("started a new journal: {path}"), path=fresh))
    return Journal(fresh), notes
