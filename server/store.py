"""Where games live between actions: SQLite by default, memory for tests.

A game is a record (rules, seat token hashes, dice) and its append-only event log. Every action
is one transaction that appends its events, and the answer it gave when it came with a
request_id; so a server killed at any moment restarts with every acknowledged action, and a
retried request finds its first answer. Appends name the log length they expect, so two writers
cannot both extend the same log (the loser's transaction fails with :class:`StoreConflict`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol


class StoreConflict(Exception):
    """The log grew since it was read: another writer acted first."""


@dataclass(frozen=True)
class GameRecord:
    """What a game is besides its events."""

    name: str
    rules: dict[str, Any]
    token_hashes: tuple[str, str]
    dice_mode: str  # "system", "seeded" or "verifiable"
    dice_seed: str = ""  # seeded: the seed; verifiable: the secret seed of the game in play (hex)
    created: float = 0.0
    updated: float = 0.0


@dataclass(frozen=True)
class Append:
    """One action's write: events appended at ``first_sequence`` and what else it changes."""

    name: str
    first_sequence: int
    events: list[dict[str, Any]]
    updated: float
    dice_seed: str
    request_id: str = ""
    response: bytes = b""


class Store(Protocol):
    def create(self, record: GameRecord, events: list[dict[str, Any]], request_id: str, response: bytes) -> None:
        """Store a new game with its first events; the response is kept for ``request_id``."""
        ...

    def append(self, append: Append) -> None: ...

    def load(self, name: str) -> tuple[GameRecord, list[dict[str, Any]]] | None: ...

    def event_count(self, name: str) -> int: ...

    def list(self, page_size: int, after: tuple[float, str] | None) -> list[GameRecord]: ...

    def response(self, name: str, request_id: str) -> bytes | None: ...

    def close(self) -> None: ...


@dataclass
class MemoryStore:
    """A store that forgets everything when the process ends: for tests."""

    records: dict[str, GameRecord] = field(default_factory=dict)
    events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    responses: dict[tuple[str, str], bytes] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def create(self, record: GameRecord, events: list[dict[str, Any]], request_id: str, response: bytes) -> None:
        with self.lock:
            self.records[record.name] = record
            self.events[record.name] = list(events)
            if request_id:
                self.responses[("", request_id)] = response

    def append(self, append: Append) -> None:
        with self.lock:
            log = self.events[append.name]
            if len(log) != append.first_sequence:
                raise StoreConflict(append.name)
            log.extend(append.events)
            record = self.records[append.name]
            self.records[append.name] = replace(record, updated=append.updated, dice_seed=append.dice_seed)
            if append.request_id:
                self.responses[(append.name, append.request_id)] = append.response

    def load(self, name: str) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        with self.lock:
            record = self.records.get(name)
            return None if record is None else (record, list(self.events[name]))

    def event_count(self, name: str) -> int:
        with self.lock:
            return len(self.events.get(name, ()))

    def list(self, page_size: int, after: tuple[float, str] | None) -> list[GameRecord]:
        with self.lock:
            records = sorted(self.records.values(), key=lambda record: (-record.created, record.name))
        if after is not None:
            records = [record for record in records if (-record.created, record.name) > (-after[0], after[1])]
        return records[:page_size]

    def response(self, name: str, request_id: str) -> bytes | None:
        with self.lock:
            return self.responses.get((name, request_id))

    def close(self) -> None:
        pass


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    name TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    token_hash_0 TEXT NOT NULL,
    token_hash_1 TEXT NOT NULL,
    dice_mode TEXT NOT NULL,
    dice_seed TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    event_count INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_by_creation ON games (created DESC, name);
CREATE TABLE IF NOT EXISTS events (
    game TEXT NOT NULL REFERENCES games (name),
    sequence INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, sequence)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    game TEXT NOT NULL,
    request_id TEXT NOT NULL,
    response BLOB NOT NULL,
    PRIMARY KEY (game, request_id)
) WITHOUT ROWID;
"""


class SqliteStore:
    """Games in one SQLite file, in WAL mode, each action one transaction.

    ``synchronous=FULL`` makes every commit durable before the action is acknowledged, against a
    killed process and a lost machine alike.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def create(self, record: GameRecord, events: list[dict[str, Any]], request_id: str, response: bytes) -> None:
        with self._lock, self._transaction():
            self._db.execute(
                "INSERT INTO games (name, rules, token_hash_0, token_hash_1, dice_mode, dice_seed, created, updated,"
                " event_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    record.name,
                    json.dumps(record.rules),
                    *record.token_hashes,
                    record.dice_mode,
                    record.dice_seed,
                    record.created,
                    record.updated,
                    len(events),
                ),
            )
            self._db.executemany(
                "INSERT INTO events (game, sequence, event) VALUES (?, ?, ?)",
                [(record.name, sequence, json.dumps(event)) for sequence, event in enumerate(events)],
            )
            if request_id:
                self._db.execute(
                    "INSERT INTO requests (game, request_id, response) VALUES ('', ?, ?)", (request_id, response)
                )

    def append(self, append: Append) -> None:
        with self._lock, self._transaction():
            updated = self._db.execute(
                "UPDATE games SET event_count = event_count + ?, updated = ?, dice_seed = ?"
                " WHERE name = ? AND event_count = ?",
                (len(append.events), append.updated, append.dice_seed, append.name, append.first_sequence),
            )
            if updated.rowcount != 1:
                raise StoreConflict(append.name)
            self._db.executemany(
                "INSERT INTO events (game, sequence, event) VALUES (?, ?, ?)",
                [
                    (append.name, append.first_sequence + offset, json.dumps(event))
                    for offset, event in enumerate(append.events)
                ],
            )
            if append.request_id:
                self._db.execute(
                    "INSERT INTO requests (game, request_id, response) VALUES (?, ?, ?)",
                    (append.name, append.request_id, append.response),
                )

    def load(self, name: str) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT name, rules, token_hash_0, token_hash_1, dice_mode, dice_seed, created, updated"
                " FROM games WHERE name = ?",
                (name,),
            ).fetchone()
            if row is None:
                return None
            events = [
                json.loads(event)
                for (event,) in self._db.execute(
                    "SELECT event FROM events WHERE game = ? ORDER BY sequence", (name,)
                )
            ]
        return _record(row), events

    def event_count(self, name: str) -> int:
        with self._lock:
            row = self._db.execute("SELECT event_count FROM games WHERE name = ?", (name,)).fetchone()
        return 0 if row is None else int(row[0])

    def list(self, page_size: int, after: tuple[float, str] | None) -> list[GameRecord]:
        query = (
            "SELECT name, rules, token_hash_0, token_hash_1, dice_mode, dice_seed, created, updated FROM games"
        )
        parameters: tuple[Any, ...] = ()
        if after is not None:
            query += " WHERE created < ? OR (created = ? AND name > ?)"
            parameters = (after[0], after[0], after[1])
        query += " ORDER BY created DESC, name LIMIT ?"
        with self._lock:
            rows = self._db.execute(query, (*parameters, page_size)).fetchall()
        return [_record(row) for row in rows]

    def response(self, name: str, request_id: str) -> bytes | None:
        with self._lock:
            row = self._db.execute(
                "SELECT response FROM requests WHERE game = ? AND request_id = ?", (name, request_id)
            ).fetchone()
        return None if row is None else bytes(row[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, error_type: object, error: object, traceback: object) -> None:
        self.db.execute("COMMIT" if error_type is None else "ROLLBACK")


def _record(row: tuple[Any, ...]) -> GameRecord:
    name, rules, hash_0, hash_1, dice_mode, dice_seed, created, updated = row
    return GameRecord(name, json.loads(rules), (hash_0, hash_1), dice_mode, dice_seed, created, updated)
