"""The hall's own journal (SQLite): every event each table sent, once, in its order.

An event is kept only when it follows the last one kept for its table (its `prev` is at
most that table's last seq, its `seq` beyond it); an older one is a duplicate and is
dropped, a newer one shows a gap and is left for the table to send again in order. So
the record of each table is complete and in journal order, and a restarted hall goes on
from it. Rounds are marks in time (`referee hall round N`): round N holds the games
whose `game_started` the table journalled at or after mark N and before mark N+1.
"""
from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    last_seq INTEGER NOT NULL DEFAULT 0,   -- every event up to here is kept
    known_seq INTEGER NOT NULL DEFAULT 0,  -- the newest seq the table is known to have
    online TEXT NOT NULL DEFAULT '',
    state TEXT,                            -- its last retained snapshot (JSON)
    updated REAL
);
CREATE TABLE IF NOT EXISTS events (
    table_name TEXT NOT NULL,
    seq INTEGER NOT NULL,
    game_id INTEGER,
    t REAL NOT NULL,           -- when the table journalled it
    received REAL NOT NULL,    -- when the hall kept it
    kind TEXT NOT NULL,
    data TEXT NOT NULL,        -- the whole event as the table sent it (JSON)
    PRIMARY KEY (table_name, seq)
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(table_name, game_id, seq);
CREATE INDEX IF NOT EXISTS alarms ON events(kind, received);
CREATE TABLE IF NOT EXISTS games (
    table_name TEXT NOT NULL,
    game_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    started REAL NOT NULL,
    result TEXT,
    PRIMARY KEY (table_name, game_id)
);
CREATE TABLE IF NOT EXISTS rounds (number INTEGER PRIMARY KEY, marked REAL NOT NULL);
"""


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

    def close(self) -> None:
        self._db.close()

    def _table(self, name: str) -> tuple[int, int]:
        self._db.execute("INSERT OR IGNORE INTO tables(name) VALUES (?)", (name,))
        return self._db.execute("SELECT last_seq, known_seq FROM tables WHERE name=?", (name,)).fetchone()

    # --- what arrives ---------------------------------------------------------------------
    def add(self, table: str, event: dict) -> str:
        """Keep one event of `table`: "kept", "duplicate", or "gap" (not kept: an event
        before it is missing)."""
        seq, prev = int(event["seq"]), int(event.get("prev", 0))
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                last, known = self._table(table)
                if seq > known:
                    self._db.execute("UPDATE tables SET known_seq=? WHERE name=?", (seq, table))
                if seq <= last:
                    verdict = "duplicate"
                elif prev > last:
                    verdict = "gap"
                else:
                    verdict = "kept"
                    self._keep(table, seq, event)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return verdict

    def _keep(self, table: str, seq: int, event: dict) -> None:
        kind, game_id = event["type"], event.get("game_id")
        self._db.execute("INSERT INTO events(table_name, seq, game_id, t, received, kind, data) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (table, seq, game_id, float(event.get("t", 0.0)), time.time(), kind, json.dumps(event)))
        self._db.execute("UPDATE tables SET last_seq=? WHERE name=?", (seq, table))
        if kind == "game_started":
            self._db.execute("INSERT OR REPLACE INTO games(table_name, game_id, game, variant, started) "
                             "VALUES (?, ?, ?, ?, ?)",
                             (table, game_id, event.get("game", "?"), event.get("variant", ""), event.get("t", 0.0)))
        elif kind == "game_over":
            self._db.execute("UPDATE games SET result=? WHERE table_name=? AND game_id=?",
                             (event.get("reason", "over"), table, game_id))
        elif kind == "undo":  # an undo after the end opens the game again
            self._db.execute("UPDATE games SET result=NULL WHERE table_name=? AND game_id=?", (table, game_id))

    def set_state(self, table: str, state: dict) -> None:
        with self._lock:
            self._table(table)
            self._db.execute("UPDATE tables SET state=?, updated=?, known_seq=MAX(known_seq, ?) WHERE name=?",
                             (json.dumps(state), time.time(), int(state.get("seq") or 0), table))

    def set_online(self, table: str, online: str) -> None:
        with self._lock:
            self._table(table)
            self._db.execute("UPDATE tables SET online=?, updated=? WHERE name=?", (online, time.time(), table))

    # --- what the page and the export read ------------------------------------------------
    def tables(self) -> list[dict]:
        with self._lock:
            rows = self._db.execute(
                "SELECT name, last_seq, known_seq, online, state, updated, (SELECT MAX(t) FROM events "
                "WHERE table_name=name AND kind='move') FROM tables ORDER BY name").fetchall()
        return [{"table": n, "last_seq": last, "known_seq": known, "online": online,
                 "state": json.loads(state) if state else None, "updated": updated, "last_move": moved}
                for n, last, known, online, state, updated, moved in rows]

    def behind(self) -> list[tuple[str, int]]:
        """Tables known to have events the hall has not kept: (table, last kept seq)."""
        with self._lock:
            return self._db.execute("SELECT name, last_seq FROM tables WHERE known_seq > last_seq").fetchall()

    def events(self, table: str, game_id: int | None = None) -> list[dict]:
        with self._lock:
            if game_id is None:
                rows = self._db.execute("SELECT data FROM events WHERE table_name=? ORDER BY seq", (table,))
            else:
                rows = self._db.execute("SELECT data FROM events WHERE table_name=? AND game_id=? ORDER BY seq",
                                        (table, game_id))
            return [json.loads(r[0]) for r in rows.fetchall()]

    def alarms(self, limit: int = 50) -> list[dict]:
        """The newest illegal-move reports of every table, newest first."""
        with self._lock:
            rows = self._db.execute("SELECT table_name, data FROM events WHERE kind='illegal' "
                                    "ORDER BY received DESC LIMIT ?", (limit,)).fetchall()
        return [{**json.loads(d), "table": t} for t, d in rows]

    def latencies(self) -> list[float]:
        """Seconds from each event's journalling at its table to its keeping here."""
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT received - t FROM events").fetchall()]

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
            rows = self._db.execute(f"SELECT table_name, game_id, game, variant, started, result FROM games {where} "
                                    "ORDER BY table_name, game_id", args).fetchall()
        return [dict(zip(("table", "game_id", "game", "variant", "started", "result"), r)) for r in rows]
