"""The hall's own journal (SQLite): every event each table sent, once, in its order.

An event is kept only when it follows the last one kept from its table's journal (its
`prev` is at most that journal's last seq, its `seq` beyond it); an older one is a
duplicate and is dropped, a newer one shows a gap and is left for the table to send
again in order. So the record of each table is complete and in journal order, and a
restarted hall goes on from it. A second event with a seq already kept is compared with
the first: the same content (a resend) is a duplicate; other content is a conflict (two
publishers speak as one table: a forger on a broker that lets anyone publish). The first
stays, the other is kept beside it in `conflicts` (at most MAX_CONFLICTS a table) for
the page and the round's export to flag: a forged event never displaces one kept. A table that starts a new journal file (seq from 1
again) has it kept beside the first; the page shows the one it keeps now. Rounds are marks in time (`referee hall round N`): round N holds the games
whose `game_started` the table journalled at or after mark N and before mark N+1.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

from ..events import CLEARS_ALARM, Kind
from ..record import Record, fold

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    journal TEXT NOT NULL DEFAULT '',      -- the journal the table keeps now (its latest word)
    online TEXT NOT NULL DEFAULT '',
    state TEXT,                            -- its last retained snapshot (JSON)
    updated REAL
);
CREATE TABLE IF NOT EXISTS journals (
    table_name TEXT NOT NULL,
    journal TEXT NOT NULL,                 -- a table's journal file's id: a new file starts at seq 1
    last_seq INTEGER NOT NULL DEFAULT 0,   -- every event up to here is kept
    known_seq INTEGER NOT NULL DEFAULT 0,  -- the newest seq the table is known to have
    PRIMARY KEY (table_name, journal)
);
CREATE TABLE IF NOT EXISTS events (
    table_name TEXT NOT NULL,
    journal TEXT NOT NULL,
    seq INTEGER NOT NULL,
    game_id INTEGER,
    t REAL NOT NULL,           -- when the table journalled it
    received REAL NOT NULL,    -- when the hall kept it
    kind TEXT NOT NULL,
    data TEXT NOT NULL,        -- the whole event as the table sent it (JSON)
    PRIMARY KEY (table_name, journal, seq)
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(table_name, journal, game_id, seq);
CREATE INDEX IF NOT EXISTS alarms ON events(kind, received);
CREATE TABLE IF NOT EXISTS games (
    table_name TEXT NOT NULL,
    journal TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    started REAL NOT NULL,
    result TEXT,
    PRIMARY KEY (table_name, journal, game_id)
);
CREATE TABLE IF NOT EXISTS restores (
    table_name TEXT NOT NULL,
    journal TEXT NOT NULL,                 -- the journal id the table sends
    kept_as TEXT NOT NULL,                 -- the hall's id for the history since it went back
    PRIMARY KEY (table_name, journal)
);
CREATE TABLE IF NOT EXISTS rounds (number INTEGER PRIMARY KEY, marked REAL NOT NULL);
CREATE TABLE IF NOT EXISTS conflicts (
    table_name TEXT NOT NULL,
    journal TEXT NOT NULL,
    seq INTEGER NOT NULL,
    game_id INTEGER,           -- the game of the event kept
    received REAL NOT NULL,
    data TEXT NOT NULL,        -- the event that was not kept (JSON)
    UNIQUE (table_name, journal, seq, data)
);
"""
MAX_CONFLICTS = 100  # per table: a flood of forgeries is counted on the page, not all kept


def _content(event: dict) -> dict:
    """What two copies of one event must agree on: all but `prev`, which says only where
    the table's sending started again."""
    return {k: v for k, v in event.items() if k != "prev"}


# each table with its present journal's progress
PRESENT = "FROM tables JOIN journals ON table_name=name AND journals.journal=tables.journal"


class HallStore:
    def __init__(self, path: str | Path):
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # NORMAL, not the tables' FULL: a power cut may lose the newest events here, and
        # then the tables' retained states show the gap and they send them again
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self.went_back: dict[str, str] = {}  # table -> the last restore noticed, in words

    def close(self) -> None:
        self._db.close()

    def _kept_as(self, table: str, journal: str) -> str:
        """The hall's id of the history a table's journal continues: the journal's own
        id, or the history it was given when the journal went back (`restored`)."""
        row = self._db.execute("SELECT kept_as FROM restores WHERE table_name=? AND journal=?",
                               (table, journal)).fetchone()
        return row[0] if row else journal

    def _progress(self, table: str, journal: str) -> tuple[int, int]:
        self._db.execute("INSERT OR IGNORE INTO tables(name, journal) VALUES (?, ?)", (table, journal))
        self._db.execute("UPDATE tables SET journal=? WHERE name=? AND journal=''", (journal, table))
        self._db.execute("INSERT OR IGNORE INTO journals(table_name, journal) VALUES (?, ?)", (table, journal))
        return self._db.execute("SELECT last_seq, known_seq FROM journals WHERE table_name=? AND journal=?",
                                (table, journal)).fetchone()

    # --- what arrives ---------------------------------------------------------------------
    def add(self, table: str, event: dict) -> str:
        """Keep one event of `table`: "kept", "duplicate", "conflict" (not kept: another
        event with its seq was), "restored" (kept, as the first new event of a journal
        restored from an earlier copy: `went_back[table]` says so in words), or "gap"
        (not kept: an event before it is missing). Each journal a table has kept (a new data folder, a
        journal started beside a damaged one) is its own sequence."""
        seq, prev = int(event["seq"]), int(event.get("prev", 0))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                sent = str(event.get("journal", ""))
                journal = self._kept_as(table, sent)
                last, known = self._progress(table, journal)
                if seq > known:
                    self._db.execute("UPDATE journals SET known_seq=? WHERE table_name=? AND journal=?",
                                     (seq, table, journal))
                # a journal went back only where an event differs from the one kept with its
                # seq (a resend after a restart says the same, whatever a late state says)
                kept = self._kept_event(table, journal, seq, event) if seq <= last else None
                went_back = self._restored_at(table, sent, journal, last) if kept not in (None, True) else None
                if went_back is not None and seq > went_back:
                    self.went_back[table] = self._went_back(table, sent, journal, last, went_back)
                    journal, last = self._kept_as(table, sent), went_back
                if seq <= last:  # (the same journal: one that went back numbers on from below seq)
                    verdict = self._again(table, journal, seq, event, kept)
                elif prev > last:
                    verdict = "gap"
                else:
                    verdict = "restored" if went_back is not None and seq > went_back else "kept"
                    self._keep(table, journal, seq, event)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return verdict

    def _again(self, table: str, journal: str, seq: int, event: dict, row) -> str:
        """An event with a seq already kept (`row`, as `_kept_event` gives it): "duplicate"
        when it says the same, else "conflict" (recorded once, up to MAX_CONFLICTS a table)."""
        if row is None or row is True:
            return "duplicate"
        count = self._db.execute("SELECT COUNT(*) FROM conflicts WHERE table_name=?", (table,)).fetchone()[0]
        if count < MAX_CONFLICTS:
            self._db.execute("INSERT OR IGNORE INTO conflicts(table_name, journal, seq, game_id, received, data) "
                             "VALUES (?, ?, ?, ?, ?, ?)", (table, journal, seq, row[1], time.time(),
                                                           json.dumps(_content(event), sort_keys=True)))
        return "conflict"

    def _kept_event(self, table: str, journal: str, seq: int, event: dict):
        """The event kept with `seq`: None when there is none, True when it says the same
        as `event`, else its row (data, game_id)."""
        row = self._db.execute("SELECT data, game_id FROM events WHERE table_name=? AND journal=? AND seq=?",
                               (table, journal, seq)).fetchone()
        if row is None:
            return None
        return True if _content(json.loads(row[0])) == _content(event) else row

    def _keep(self, table: str, journal: str, seq: int, event: dict) -> None:
        kind, game_id = event["type"], event.get("game_id")
        self._db.execute("INSERT INTO events(table_name, journal, seq, game_id, t, received, kind, data) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (table, journal, seq, game_id, float(event.get("t", 0.0)),
                                                             time.time(), kind, json.dumps(event)))
        self._db.execute("UPDATE journals SET last_seq=? WHERE table_name=? AND journal=?", (seq, table, journal))
        key = (table, journal, game_id)
        if kind == Kind.GAME_STARTED:
            self._db.execute("INSERT OR REPLACE INTO games(table_name, journal, game_id, game, variant, started) "
                             "VALUES (?, ?, ?, ?, ?, ?)",
                             (*key, event.get("game", "?"), event.get("variant", ""), event.get("t", 0.0)))
        elif kind == Kind.GAME_OVER:
            self._db.execute("UPDATE games SET result=? WHERE table_name=? AND journal=? AND game_id=?",
                             (event.get("reason", "over"), *key))
        elif kind == Kind.UNDO:  # an undo after the end opens the game again
            self._db.execute("UPDATE games SET result=NULL WHERE table_name=? AND journal=? AND game_id=?", key)

    def set_state(self, table: str, state: dict) -> None:
        """The table's latest snapshot, on its card when its journal is the one the card
        follows, or one whose events are kept from later than the card's (a table on a
        new journal file): a state alone, under a journal id of its own, never takes a
        card over (on a broker anyone may publish to, anyone could send one)."""
        seq = int(state.get("seq") or 0)
        with self._lock:
            journal = self._kept_as(table, str(state.get("journal", "")))
            self._progress(table, journal)
            present = self._db.execute("SELECT journal FROM tables WHERE name=?", (table,)).fetchone()[0]
            if journal == present or self._newer(table, journal, present):
                self._db.execute("UPDATE tables SET state=?, updated=?, journal=? WHERE name=?",
                                 (json.dumps(state), time.time(), journal, table))
                self._db.execute("UPDATE journals SET known_seq=MAX(known_seq, ?) WHERE table_name=? AND journal=?",
                                 (seq, table, journal))

    def _restored_at(self, table: str, sent: str, journal: str, last: int) -> int | None:
        """The seq the table's journal `sent` went back to, when it did: its own state,
        received after the hall kept seq `last` of it, said it stood at an earlier seq
        (a journal restored from an earlier copy, which now numbers new events from
        there again); else None (an event that differs is then a second publisher's)."""
        row = self._db.execute("SELECT state, updated FROM tables WHERE name=? AND journal=?",
                               (table, journal)).fetchone()
        kept = self._db.execute("SELECT received FROM events WHERE table_name=? AND journal=? AND seq=?",
                                (table, journal, last)).fetchone()
        if row is None or row[0] is None or kept is None:
            return None
        state = json.loads(row[0])
        seq = int(state.get("seq") or 0)
        return seq if state.get("journal") == sent and seq < last and row[1] > kept[0] else None

    def _newer(self, table: str, journal: str, present: str) -> bool:
        """Are `journal`'s events kept, from later than the newest of `present`'s?"""
        newest = "SELECT MAX(t) FROM events WHERE table_name=? AND journal=?"
        mine = self._db.execute(newest, (table, journal)).fetchone()[0]
        theirs = self._db.execute(newest, (table, present)).fetchone()[0]
        return mine is not None and (theirs is None or mine > theirs)

    def _went_back(self, table: str, sent: str, journal: str, last: int, seq: int) -> str:
        """The table's journal `sent` is at `seq`, below the `last` the hall kept of it:
        restored from an earlier copy, it will number new events from seq + 1 again. The
        hall keeps its history up to `last` as it was, and follows the restored journal
        as a history of its own (`sent~N`), the first `seq` events shared: no event of
        the restored journal is ever spliced after the old one's."""
        n = self._db.execute("SELECT COUNT(*) FROM journals WHERE table_name=? AND journal LIKE ?",
                             (table, f"{sent}~%")).fetchone()[0] + 1
        apart = f"{sent}~{n}"
        self._db.execute("INSERT INTO events(table_name, journal, seq, game_id, t, received, kind, data) "
                         "SELECT table_name, ?, seq, game_id, t, received, kind, data FROM events "
                         "WHERE table_name=? AND journal=? AND seq<=?", (apart, table, journal, seq))
        self._db.execute("INSERT INTO games(table_name, journal, game_id, game, variant, started, result) "
                         "SELECT table_name, ?, game_id, game, variant, started, result FROM games "
                         "WHERE table_name=? AND journal=? AND game_id IN (SELECT game_id FROM events "
                         "WHERE table_name=? AND journal=?)", (apart, table, journal, table, apart))
        self._db.execute("INSERT INTO journals(table_name, journal, last_seq, known_seq) VALUES (?, ?, ?, ?)",
                         (table, apart, seq, seq))
        self._db.execute("INSERT OR REPLACE INTO restores(table_name, journal, kept_as) VALUES (?, ?, ?)",
                         (table, sent, apart))
        self._db.execute("UPDATE tables SET journal=? WHERE name=?", (apart, table))
        return (f"table {table}: its journal went back from seq {last} to seq {seq} (restored from an earlier "
                f"copy): the {last} events the hall kept stay as they were, and the restored journal's "
                f"events after seq {seq} are kept as a history of their own, never after the old one's")

    def set_online(self, table: str, online: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR IGNORE INTO tables(name) VALUES (?)", (table,))
            self._db.execute("UPDATE tables SET online=?, updated=? WHERE name=?", (online, time.time(), table))

    # --- what the page and the export read ------------------------------------------------
    def tables(self) -> list[dict]:
        with self._lock:
            rows = self._db.execute(
                "SELECT name, tables.journal, last_seq, known_seq, online, state, updated, (SELECT MAX(t) FROM "
                "events WHERE table_name=name AND events.journal=tables.journal AND kind=?) FROM tables "
                "LEFT JOIN journals ON table_name=name AND journals.journal=tables.journal ORDER BY name",
                (Kind.MOVE.value,)).fetchall()
        return [{"table": n, "journal": journal, "last_seq": last or 0, "known_seq": known or 0, "online": online,
                 "state": json.loads(state) if state else None, "updated": updated, "last_move": moved}
                for n, journal, last, known, online, state, updated, moved in rows]

    def present(self, table: str) -> tuple[str, int] | None:
        """(journal, last kept seq) of a table's present journal; None before its first event."""
        with self._lock:
            return self._db.execute(f"SELECT tables.journal, last_seq {PRESENT} WHERE name=?", (table,)).fetchone()

    def behind(self) -> list[tuple[str, str, int]]:
        """(table, journal, last kept seq) for each table's present journal that has
        events the hall has not kept. (An earlier journal's missing tail is gone with it.)"""
        with self._lock:
            return self._db.execute(f"SELECT name, tables.journal, last_seq {PRESENT} WHERE known_seq > last_seq").fetchall()

    def events(self, table: str, game_id: int | None = None, journal: str | None = None) -> list[dict]:
        """A table's events in order (of game `game_id` when given), from its present
        journal unless `journal` is given."""
        with self._lock:
            if journal is None:
                row = self._db.execute("SELECT journal FROM tables WHERE name=?", (table,)).fetchone()
                journal = row[0] if row else ""
            sql, args = "SELECT data FROM events WHERE table_name=? AND journal=?", [table, journal]
            if game_id is not None:
                sql, args = sql + " AND game_id=?", args + [game_id]
            return [json.loads(r[0]) for r in self._db.execute(sql + " ORDER BY seq", args).fetchall()]

    def record(self, table: str, game_id: int, journal: str | None = None) -> Record:
        """The plies of a table's game that stand (controller/record.py), as its referee
        holds them: a ply undone or retracted by a camera correction is not among them."""
        return fold(self.events(table, game_id, journal))

    def alarms(self, limit: int = 50) -> list[dict]:
        """The newest illegal-move reports of every table, newest first, each `fixed` once
        its table has gone on from it (the board put right, a move, an undo, a new game)."""
        clears = sorted(k.value for k in CLEARS_ALARM)  # events.py says which kinds put an alarm right
        with self._lock:
            rows = self._db.execute(
                "SELECT a.table_name, a.data, EXISTS (SELECT 1 FROM events b WHERE b.table_name=a.table_name "
                f"AND b.journal=a.journal AND b.seq>a.seq AND b.kind IN ({', '.join('?' * len(clears))})) "
                "FROM events a WHERE a.kind=? ORDER BY a.received DESC LIMIT ?",
                (*clears, Kind.ILLEGAL.value, limit)).fetchall()
        return [{**json.loads(d), "table": t, "fixed": bool(fixed)} for t, d, fixed in rows]

    def conflicts(self, limit: int = 20) -> list[dict]:
        """The newest conflicts, newest first: each the event kept and the one refused."""
        with self._lock:
            rows = self._db.execute(
                "SELECT c.table_name, c.journal, c.seq, c.game_id, c.received, e.data, c.data FROM conflicts c "
                "LEFT JOIN events e ON e.table_name=c.table_name AND e.journal=c.journal AND e.seq=c.seq "
                "ORDER BY c.received DESC LIMIT ?", (limit,)).fetchall()
        return [{"table": t, "journal": j, "seq": seq, "game_id": g, "received": r,
                 "kept": json.loads(kept) if kept else None, "refused": json.loads(refused)}
                for t, j, seq, g, r, kept, refused in rows]

    def conflicted_games(self) -> set[tuple[str, str, int]]:
        """(table, journal, game id) of every game with a conflict."""
        with self._lock:
            return set(self._db.execute("SELECT DISTINCT table_name, journal, game_id FROM conflicts").fetchall())

    # --- rounds -----------------------------------------------------------------------------
    def mark_round(self, number: int, at: float | None = None) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO rounds(number, marked) VALUES (?, ?)",
                             (number, time.time() if at is None else at))

    def rounds(self) -> dict[int, float]:
        with self._lock:
            return dict(self._db.execute("SELECT number, marked FROM rounds ORDER BY number").fetchall())

    def games(self, round_number: int | None = None) -> list[dict]:
        """Every game kept (of round `round_number` when given), by table and game id."""
        where, args = "", ()
        if round_number is not None:
            rounds = self.rounds()
            if round_number not in rounds:
                marked = ", ".join(map(str, rounds)) or "none"
                raise KeyError(f"round {round_number} was never marked (marked: {marked}); "
                               f"mark it with `referee hall round {round_number}`")
            later = [t for n, t in rounds.items() if n > round_number]
            where, args = "WHERE started >= ? AND started < ?", (rounds[round_number], min(later, default=1e18))
        with self._lock:
            rows = self._db.execute(f"SELECT table_name, journal, game_id, game, variant, started, result FROM games "
                                    f"{where} ORDER BY table_name, started, game_id", args).fetchall()
        return [dict(zip(("table", "journal", "game_id", "game", "variant", "started", "result"), r)) for r in rows]
