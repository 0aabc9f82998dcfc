"""Databases made by the stores before they shared one schema (SQLite's schema 6, PostgreSQL's
schema 3) are migrated to it keeping every row: each game, event, snapshot, bot seat and
request id reads back as it was written, and the store goes on writing. Every way to a schema
(a new database, a migrated one, SQLite or PostgreSQL) ends in the same shape.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tavli.server import postgres_store, sqlite_store
from tavli.server.ladder_records import AccountRecord, StoredEvent
from tavli.server.players import SeatPlayer
from tavli.server.postgres_store import PostgresStore
from tavli.server.sql_store import TABLES, SqlStore
from tavli.server.sqlite_store import SqliteStore
from tavli.server.store import RETIRED, Append, BotSeat, GameRecord, RequestRecord, Snapshot, Store
from tests.postgres import fresh_database

# The schemas as the stores made them before, written out here as they stand in those databases.
SQLITE_SCHEMA_6 = """
CREATE TABLE games (
    name TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    token_hash_0 TEXT NOT NULL,
    token_hash_1 TEXT NOT NULL,
    dice_mode TEXT NOT NULL,
    dice_seed TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    event_count INTEGER NOT NULL DEFAULT 0
, summary BLOB NOT NULL DEFAULT x'', players TEXT NOT NULL DEFAULT '', deadline REAL);
CREATE INDEX games_by_creation ON games (created DESC, name);
CREATE TABLE events (
    game TEXT NOT NULL REFERENCES games (name),
    sequence INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, sequence)
) WITHOUT ROWID;
CREATE TABLE request_ids (
    scope TEXT NOT NULL,
    request_id TEXT NOT NULL,
    method TEXT NOT NULL,
    seat INTEGER NOT NULL,
    body_hash TEXT NOT NULL,
    game TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated REAL NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (scope, request_id)
) WITHOUT ROWID;
CREATE INDEX request_ids_by_age ON request_ids (stored_at);
CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE TABLE bot_seats (
    game TEXT NOT NULL REFERENCES games (name),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    since REAL NOT NULL,
    holder TEXT NOT NULL,
    lease_until REAL NOT NULL,
    waiting_at INTEGER NOT NULL DEFAULT -1,
    PRIMARY KEY (game, seat)
) WITHOUT ROWID;
CREATE INDEX bot_seats_by_lease ON bot_seats (lease_until);
CREATE TABLE snapshots (
    game TEXT PRIMARY KEY REFERENCES games (name),
    at INTEGER NOT NULL,
    state TEXT NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = 6;
"""

POSTGRESQL_SCHEMA_3 = """
CREATE TABLE tavli_schema (version INTEGER NOT NULL);
INSERT INTO tavli_schema (version) VALUES (3);
CREATE TABLE games (
    name TEXT PRIMARY KEY,
    rules TEXT NOT NULL,
    token_hash_0 TEXT NOT NULL DEFAULT '',
    token_hash_1 TEXT NOT NULL DEFAULT '',
    dice_mode TEXT NOT NULL,
    dice_seed TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    players TEXT NOT NULL DEFAULT '',
    event_count BIGINT NOT NULL DEFAULT 0,
    summary BYTEA NOT NULL DEFAULT '',
    deadline DOUBLE PRECISION
);
CREATE INDEX games_by_creation ON games (created DESC, name);
CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;
CREATE TABLE events (
    game TEXT NOT NULL REFERENCES games (name),
    sequence BIGINT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, sequence)
);
CREATE TABLE request_ids (
    scope TEXT NOT NULL,
    request_id TEXT NOT NULL,
    method TEXT NOT NULL,
    seat INTEGER NOT NULL,
    body_hash TEXT NOT NULL,
    game TEXT NOT NULL,
    version BIGINT NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
    stored_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, request_id)
);
CREATE INDEX request_ids_by_age ON request_ids (stored_at);
CREATE TABLE bot_seats (
    game TEXT NOT NULL REFERENCES games (name),
    seat INTEGER NOT NULL,
    bot TEXT NOT NULL,
    since DOUBLE PRECISION NOT NULL,
    holder TEXT NOT NULL,
    lease_until DOUBLE PRECISION NOT NULL,
    waiting_at BIGINT NOT NULL DEFAULT -1,
    PRIMARY KEY (game, seat)
);
CREATE INDEX bot_seats_by_lease ON bot_seats (lease_until);
CREATE TABLE IF NOT EXISTS snapshots (
    game TEXT PRIMARY KEY REFERENCES games (name),
    at BIGINT NOT NULL,
    state TEXT NOT NULL
);
"""

PLAYERS = '[{"display_name": "Alice", "player_id": "a-1"}, {"display_name": "Bob"}]'

# The rows of a database in use: games of every kind (seeded, verifiable with a seed kept in
# play, with the token hashes of old games, with players named and not, with and without a
# running clock), their events, a snapshot, requests of a create and of an action, a bot seat
# held and waiting for its opponent and one retired.
ROWS: dict[str, list[dict[str, Any]]] = {
    "games": [
        {
            "name": "games/seeded",
            "rules": '{"variant": "backgammon", "match_length": 3}',
            "token_hash_0": "",
            "token_hash_1": "",
            "dice_mode": "seeded",
            "dice_seed": "the seed",
            "created": 100.5,
            "updated": 180.25,
            "event_count": 4,
            "summary": b"\x00\x01summary\xff",
            "players": PLAYERS,
            "deadline": 500.125,
        },
        {
            "name": "games/old",
            "rules": '{"variant": "long_nardi", "match_length": 1}',
            "token_hash_0": "a" * 64,
            "token_hash_1": "b" * 64,
            "dice_mode": "verifiable",
            "dice_seed": "c" * 64,
            "created": 90.0,
            "updated": 95.0,
            "event_count": 1,
            "summary": b"",
            "players": "",
            "deadline": None,
        },
    ],
    "events": [
        {"game": "games/seeded", "sequence": number, "event": f'{{"kind": "event {number}"}}'}
        for number in range(4)
    ]
    + [{"game": "games/old", "sequence": 0, "event": '{"kind": "opening"}'}],
    "request_ids": [
        {
            "scope": "",
            "request_id": "create-1",
            "method": "CreateGame",
            "seat": -1,
            "body_hash": "h1",
            "game": "games/seeded",
            "version": 1,
            "updated": 100.5,
            "stored_at": 100.5,
        },
        {
            "scope": "games/seeded",
            "request_id": "roll-1",
            "method": "RollDice",
            "seat": 0,
            "body_hash": "h2",
            "game": "games/seeded",
            "version": 4,
            "updated": 180.25,
            "stored_at": 180.25,
        },
    ],
    "bot_seats": [
        {
            "game": "games/seeded",
            "seat": 1,
            "bot": "heuristic",
            "since": 101.0,
            "holder": "worker-1",
            "lease_until": 0.0,
            "waiting_at": 4,
        },
        {
            "game": "games/old",
            "seat": 0,
            "bot": "random",
            "since": 91.0,
            "holder": "worker-2",
            "lease_until": RETIRED,
            "waiting_at": -1,
        },
    ],
    "snapshots": [{"game": "games/seeded", "at": 2, "state": '{"state": "after two", "after": {}}'}],
}


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def sqlite_at_schema_6(path: Path) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(SQLITE_SCHEMA_6)
        for table, rows in ROWS.items():
            for row in rows:
                db.execute(
                    f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                    tuple(row.values()),
                )
    db.close()


def postgresql_at_schema_3(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(POSTGRESQL_SCHEMA_3)
        for table, rows in ROWS.items():
            for row in rows:
                placeholders = ", ".join(["%s"] * len(row))
                connection.execute(
                    f"INSERT INTO {table} ({', '.join(row)}) VALUES ({placeholders})", tuple(row.values())
                )


def sqlite_rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    with sqlite3.connect(path) as db:
        read = {table: _rows(db.execute(f"SELECT * FROM {table} ORDER BY 1, 2")) for table in ROWS}
    db.close()
    return read


def postgresql_rows(url: str) -> dict[str, list[dict[str, Any]]]:
    with psycopg.connect(url) as connection:
        return {table: _rows(connection.execute(f"SELECT * FROM {table} ORDER BY 1, 2")) for table in ROWS}


def _rows(cursor: Any) -> list[dict[str, Any]]:
    names = [column[0] for column in cursor.description]
    return [
        {name: bytes(value) if isinstance(value, memoryview) else value for name, value in zip(names, row)}
        for row in cursor.fetchall()
    ]


ADDED_COLUMNS = {"games": {"hints_allowed": 0}, "bot_seats": {"client": ""}}
"""The columns the migrations add, with the value the rows stored before them take."""


def expected_rows() -> dict[str, list[dict[str, Any]]]:
    """:data:`ROWS` with the columns the migrations add, each table's in the order of its first two
    columns."""
    return {
        table: sorted(
            ({**row, **ADDED_COLUMNS.get(table, {})} for row in rows), key=lambda row: tuple(row.values())[:2]
        )
        for table, rows in ROWS.items()
    }


@pytest.fixture
def migrated_sqlite(sqlite_path: Path) -> Iterator[SqliteStore]:
    sqlite_at_schema_6(sqlite_path)
    store = SqliteStore(sqlite_path)
    try:
        yield store
    finally:
        store.close()


@pytest.fixture
def postgresql_url(postgres_url: str) -> str:
    return fresh_database(postgres_url)


@pytest.fixture
def migrated_postgresql(postgresql_url: str) -> Iterator[PostgresStore]:
    postgresql_at_schema_3(postgresql_url)
    store = PostgresStore(postgresql_url)
    try:
        yield store
    finally:
        store.close()


def test_a_sqlite_database_of_schema_6_keeps_every_row(
    migrated_sqlite: SqliteStore, sqlite_path: Path
) -> None:
    assert sqlite_rows(sqlite_path) == expected_rows()
    with sqlite3.connect(sqlite_path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (sqlite_store.SCHEMA_VERSION,)
        assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    db.close()
    assert_every_row_reads_back_and_the_store_goes_on(migrated_sqlite)


def test_a_postgresql_database_of_schema_3_keeps_every_row(
    migrated_postgresql: PostgresStore, postgresql_url: str
) -> None:
    assert postgresql_rows(postgresql_url) == expected_rows()
    with psycopg.connect(postgresql_url) as connection:
        assert connection.execute("SELECT version FROM tavli_schema").fetchall() == [
            (postgres_store.SCHEMA_VERSION,)
        ]
    assert_every_row_reads_back_and_the_store_goes_on(migrated_postgresql)


def assert_every_row_reads_back_and_the_store_goes_on(store: Store) -> None:
    seeded, old = store.load("games/seeded"), store.load("games/old")
    assert seeded is not None and old is not None
    assert seeded[0] == GameRecord(
        "games/seeded",
        {"variant": "backgammon", "match_length": 3},
        "seeded",
        "the seed",
        100.5,
        180.25,
        players=(SeatPlayer("Alice", "a-1"), SeatPlayer("Bob", "")),
        snapshot=Snapshot(2, '{"state": "after two", "after": {}}'),
    )
    assert seeded[1] == [{"kind": f"event {number}"} for number in range(4)]
    assert old[0] == GameRecord(
        "games/old",
        {"variant": "long_nardi", "match_length": 1},
        "verifiable",
        created=90.0,
        updated=95.0,
        token_hashes=("a" * 64, "b" * 64),
        legacy_seed="c" * 64,
    )
    assert old[1] == [{"kind": "opening"}]
    assert [(record.name, summary) for record, summary in store.listing(10, None)] == [
        ("games/seeded", b"\x00\x01summary\xff"),
        ("games/old", b""),
    ]
    assert store.request("", "create-1", not_before=0.0) == RequestRecord(
        "", "create-1", "CreateGame", -1, "h1", "games/seeded", 1, 100.5, 100.5
    )
    assert store.request("games/seeded", "roll-1", not_before=180.25) is not None
    assert store.due(1000.0, 10) == ["games/seeded"] and store.next_deadline(0.0) == 500.125
    assert store.bot_seats("games/seeded") == [BotSeat("games/seeded", 1, "heuristic", 101.0)]
    assert store.bot_seats("games/old") == [BotSeat("games/old", 0, "random", 91.0)]
    assert store.bot_seats_to_take(1e12, 10) == []  # one waits for its opponent, the other is retired

    # The store goes on: an action with its request_id, the waiting bot taken up after it.
    request = RequestRecord("games/seeded", "play-1", "PlayMove", 0, "h3", "games/seeded", 5, 200.0, 200.0)
    store.append(Append("games/seeded", 4, [{"kind": "play"}], 200.0, b"new summary", request, deadline=None))
    assert store.event_count("games/seeded") == 5
    assert store.request("games/seeded", "play-1", not_before=0.0) == request
    assert store.due(1000.0, 10) == []
    assert store.bot_seats_to_take(1e12, 10) == [BotSeat("games/seeded", 1, "heuristic", 101.0)]
    # and the ladder's tables are there.
    assert isinstance(store, SqlStore)
    store.add_account(AccountRecord("alice", "Alice", "bot", False, 300.0), "hash-of-a-key")
    assert store.account_of_key("hash-of-a-key") == AccountRecord("alice", "Alice", "bot", False, 300.0)
    store.tell([("alice", b"hello")], 301.0)
    assert store.events_after("alice", 0, 10) == [StoredEvent(1, 301.0, b"hello")]


SQLITE_BEFORE_VERSIONS = """
CREATE TABLE games (
    name TEXT PRIMARY KEY, rules TEXT NOT NULL, token_hash_0 TEXT NOT NULL, token_hash_1 TEXT NOT NULL,
    dice_mode TEXT NOT NULL, dice_seed TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
    event_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE events (
    game TEXT NOT NULL REFERENCES games (name), sequence INTEGER NOT NULL, event TEXT NOT NULL,
    PRIMARY KEY (game, sequence)
) WITHOUT ROWID;
CREATE TABLE requests (
    game TEXT NOT NULL, request_id TEXT NOT NULL, response BLOB NOT NULL, PRIMARY KEY (game, request_id)
) WITHOUT ROWID;
INSERT INTO games VALUES ('games/first', '{"variant": "backgammon"}', 'd', 'e', 'system', '', 1.0, 2.0, 2);
INSERT INTO events VALUES ('games/first', 0, '{"kind": "opening"}'), ('games/first', 1, '{"kind": "roll"}');
INSERT INTO requests VALUES ('games/first', 'roll-1', x'00');
"""


def test_a_sqlite_database_made_before_schema_versions_keeps_its_games(sqlite_path: Path) -> None:
    with sqlite3.connect(sqlite_path) as db:
        db.executescript(SQLITE_BEFORE_VERSIONS)
    db.close()
    store = SqliteStore(sqlite_path)
    try:
        loaded = store.load("games/first")
        assert loaded == (
            GameRecord("games/first", {"variant": "backgammon"}, "system", "", 1.0, 2.0, ("d", "e")),
            [{"kind": "opening"}, {"kind": "roll"}],
        )
        assert store.listing(10, None) == [(loaded[0], b"")]
        assert store.request("games/first", "roll-1", not_before=0.0) is None  # answers were not kept then
        store.append(Append("games/first", 2, [{"kind": "play"}], 3.0, b"summary"))
        assert store.event_count("games/first") == 3
    finally:
        store.close()
    assert sqlite_shape(sqlite_path) == sqlite_shape_of_a_new_database(sqlite_path.with_name("new.sqlite3"))


def sqlite_shape_of_a_new_database(path: Path) -> dict[str, Any]:
    SqliteStore(path).close()
    return sqlite_shape(path)


# --- one shape ------------------------------------------------------------------------------------


def sqlite_shape(path: Path) -> dict[str, Any]:
    """Each table's columns (name, type, not null, default's value, primary key place), foreign
    keys and indexes, as SQLite describes them."""
    with sqlite3.connect(path) as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        shape: dict[str, Any] = {}
        for table in sorted(tables):
            columns = []
            for _, name, declared, not_null, default, key in db.execute(f"PRAGMA table_info({table})"):
                value = None if default is None else db.execute(f"SELECT {default}").fetchone()[0]
                declared = "BYTES" if declared == "BLOB" else declared
                columns.append((name, declared, bool(not_null), value, key))
            references = sorted(
                (row[3], row[2], row[4]) for row in db.execute(f"PRAGMA foreign_key_list({table})")
            )
            shape[table] = {"columns": columns, "references": references}
        shape["indexes"] = sorted(
            (name, table)
            for name, table in db.execute(
                "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        )
    db.close()
    return shape


_KEY_COLUMNS = """
    SELECT k.column_name FROM information_schema.table_constraints c
    JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
    WHERE c.table_name = %s AND c.constraint_type = 'PRIMARY KEY' ORDER BY k.ordinal_position"""
_COLUMNS = """
    SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
    WHERE table_name = %s ORDER BY ordinal_position"""
_REFERENCES = """
    SELECT k.column_name, u.table_name, u.column_name FROM information_schema.table_constraints c
    JOIN information_schema.key_column_usage k USING (constraint_schema, constraint_name)
    JOIN information_schema.constraint_column_usage u USING (constraint_schema, constraint_name)
    WHERE c.table_name = %s AND c.constraint_type = 'FOREIGN KEY'"""
_INDEXES = """
    SELECT indexname, tablename FROM pg_indexes
    WHERE schemaname = 'public' AND indexname NOT LIKE '%%_pkey'"""


def postgresql_shape(url: str) -> dict[str, Any]:
    """The same as :func:`sqlite_shape`, as PostgreSQL describes it."""
    with psycopg.connect(url) as connection:
        tables = connection.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = 'public' AND table_name <> 'tavli_schema'"
        ).fetchall()
        shape: dict[str, Any] = {}
        for (table,) in sorted(tables):
            keys = [name for (name,) in connection.execute(_KEY_COLUMNS, (table,))]
            columns = []
            for name, declared, nullable, default in connection.execute(_COLUMNS, (table,)).fetchall():
                value = None if default is None else one_value(connection, f"SELECT {default}")
                declared = "BYTES" if declared == "bytea" else declared.upper()
                key = keys.index(name) + 1 if name in keys else 0
                columns.append((name, declared, nullable == "NO", value, key))
            references = sorted(connection.execute(_REFERENCES, (table,)).fetchall())
            shape[table] = {"columns": columns, "references": references}
        shape["indexes"] = sorted(connection.execute(_INDEXES).fetchall())
    return shape


def one_value(connection: psycopg.Connection[Any], query: str) -> Any:
    row = connection.execute(query).fetchone()
    assert row is not None
    return row[0]


def test_every_way_to_the_schema_ends_in_the_same_shape(tmp_path: Path, postgres_url: str) -> None:
    new_sqlite, old_sqlite = tmp_path / "new.sqlite3", tmp_path / "old.sqlite3"
    new_postgresql, old_postgresql = fresh_database(postgres_url), fresh_database(postgres_url)
    sqlite_at_schema_6(old_sqlite)
    postgresql_at_schema_3(old_postgresql)
    for store in (
        SqliteStore(new_sqlite),
        SqliteStore(old_sqlite),
        PostgresStore(new_postgresql),
        PostgresStore(old_postgresql),
    ):
        store.close()
    shape = sqlite_shape(new_sqlite)
    assert set(shape) == {*TABLES, "indexes"}
    assert shape["games"]["columns"][:2] == [
        ("name", "TEXT", True, None, 1),
        ("rules", "TEXT", True, None, 0),
    ]
    assert sqlite_shape(old_sqlite) == shape
    assert postgresql_shape(new_postgresql) == shape
    assert postgresql_shape(old_postgresql) == shape
