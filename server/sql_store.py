"""The store contract in SQL, written once for SQLite and PostgreSQL.

The schema and every statement are written here, once, in SQLite's ``?`` placeholders; a
:class:`Dialect` says the little that differs in their text (PostgreSQL's ``%s``, its name for
bytes, SQLite's tables without row ids, the row lock PostgreSQL takes where SQLite's write
transaction holds the whole file already). :class:`SqlStore` keeps the contract over them; what
is each driver's own stays in its store, thin: connections, locks, transactions, which errors
mean the database cannot be used now, migrations from its own past schemas
(:mod:`tavli.server.sqlite_store`) and LISTEN/NOTIFY (:mod:`tavli.server.postgres_store`).

Every write is one transaction: an append lands only if the game's log still has the length it
was read at, and a request_id is inserted in the same transaction as its action, refused by its
primary key if it was stored first (whichever process stored it). A read is one transaction too,
so a game's record, its events and its snapshot are read as of one moment.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from tavli.server.ladder_records import LADDER_INDEXES, LADDER_STATEMENTS, LADDER_TABLES, LadderRecords
from tavli.server.log_text import stored_as_text
from tavli.server.players import NOBODY, Players, SeatPlayer
from tavli.server.store import (
    NOT_WAITING,
    RETIRED,
    Append,
    BotSeat,
    BotSeatTaken,
    GameRecord,
    RequestIdTaken,
    RequestRecord,
    Snapshot,
    StoreConflict,
    tail_start,
)


@dataclass(frozen=True)
class Dialect:
    """What differs between the SQL texts a driver takes."""

    placeholder: str  # what stands for a parameter
    bytes_type: str  # the column type of a byte string
    without_rowid: str  # SQLite's clause for a table kept in its primary key's order
    row_lock: str  # what locks the rows a SELECT reads until the transaction ends

    def text(self, statement: str) -> str:
        """``statement`` as this driver takes it."""
        formatted = statement.format(
            bytes=self.bytes_type, without_rowid=self.without_rowid, row_lock=self.row_lock
        )
        return formatted.replace("?", self.placeholder)


SQLITE = Dialect(placeholder="?", bytes_type="BLOB", without_rowid=" WITHOUT ROWID", row_lock="")
POSTGRESQL = Dialect(placeholder="%s", bytes_type="BYTEA", without_rowid="", row_lock=" FOR UPDATE")


# --- the schema ---------------------------------------------------------------------------------

TABLES = {
    # A game's record, its log's length, the summary listings show and its running clock's deadline.
    "games": """
        CREATE TABLE IF NOT EXISTS games (
            name TEXT NOT NULL PRIMARY KEY,
            rules TEXT NOT NULL,
            token_hash_0 TEXT NOT NULL DEFAULT '',
            token_hash_1 TEXT NOT NULL DEFAULT '',
            dice_mode TEXT NOT NULL,
            dice_seed TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL,
            players TEXT NOT NULL DEFAULT '',
            event_count BIGINT NOT NULL DEFAULT 0,
            summary {bytes} NOT NULL,
            deadline DOUBLE PRECISION,
            hints_allowed INTEGER NOT NULL DEFAULT 0
        )""",
    "events": """
        CREATE TABLE IF NOT EXISTS events (
            game TEXT NOT NULL REFERENCES games (name),
            sequence BIGINT NOT NULL,
            event TEXT NOT NULL,
            PRIMARY KEY (game, sequence)
        ){without_rowid}""",
    # What a request made with a request_id was, and the version of the game it left.
    "request_ids": """
        CREATE TABLE IF NOT EXISTS request_ids (
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
        ){without_rowid}""",
    # The seats given to the server's bots, with who plays each and until when.
    "bot_seats": """
        CREATE TABLE IF NOT EXISTS bot_seats (
            game TEXT NOT NULL REFERENCES games (name),
            seat INTEGER NOT NULL,
            bot TEXT NOT NULL,
            since DOUBLE PRECISION NOT NULL,
            holder TEXT NOT NULL,
            lease_until DOUBLE PRECISION NOT NULL,
            waiting_at BIGINT NOT NULL DEFAULT -1,
            client TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (game, seat)
        ){without_rowid}""",
    # Each game's latest snapshot of its folded state (:mod:`tavli.server.snapshots`).
    "snapshots": """
        CREATE TABLE IF NOT EXISTS snapshots (
            game TEXT NOT NULL PRIMARY KEY REFERENCES games (name),
            at BIGINT NOT NULL,
            state TEXT NOT NULL
        ){without_rowid}""",
    **LADDER_TABLES,
}
"""Each table's definition, a table after those it refers to."""

INDEXES = {
    "games": (
        "CREATE INDEX IF NOT EXISTS games_by_creation ON games (created DESC, name)",
        "CREATE INDEX IF NOT EXISTS games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL",
    ),
    "request_ids": ("CREATE INDEX IF NOT EXISTS request_ids_by_age ON request_ids (stored_at)",),
    # RETIRED leases run out never: the index keeps them last, out of every search for seats to take up.
    "bot_seats": ("CREATE INDEX IF NOT EXISTS bot_seats_by_lease ON bot_seats (lease_until)",),
    **LADDER_INDEXES,
}


def table_statements(dialect: Dialect, table: str) -> list[str]:
    """The statements that make ``table`` and its indexes, as the schema has them."""
    return [dialect.text(TABLES[table]), *(dialect.text(index) for index in INDEXES.get(table, ()))]


def schema_statements(dialect: Dialect) -> list[str]:
    """The statements that make the whole schema in an empty database."""
    return [statement for table in TABLES for statement in table_statements(dialect, table)]


# --- the statements -----------------------------------------------------------------------------

_GAME_COLUMNS = (
    "name, rules, token_hash_0, token_hash_1, dice_mode, dice_seed, created, updated, players, hints_allowed"
)
_REQUEST_COLUMNS = "scope, request_id, method, seat, body_hash, game, version, updated, stored_at"

_STATEMENTS = {
    "create game": (
        f"INSERT INTO games ({_GAME_COLUMNS}, event_count, summary, deadline)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING"
    ),
    # Lands only at the log's length the action was decided at: the etag's check.
    "grow game": (
        "UPDATE games SET event_count = event_count + ?, updated = ?, summary = ?, deadline = ?"
        " WHERE name = ? AND event_count = ?"
    ),
    "add event": "INSERT INTO events (game, sequence, event) VALUES (?, ?, ?)",
    "game": f"SELECT {_GAME_COLUMNS} FROM games WHERE name = ?",
    "events from": "SELECT event FROM events WHERE game = ? AND sequence >= ? ORDER BY sequence",
    "event count": "SELECT event_count FROM games WHERE name = ?",
    "first page": f"SELECT {_GAME_COLUMNS}, summary FROM games ORDER BY created DESC, name LIMIT ?",
    "page after": (
        f"SELECT {_GAME_COLUMNS}, summary FROM games WHERE created < ? OR (created = ? AND name > ?)"
        " ORDER BY created DESC, name LIMIT ?"
    ),
    "due": "SELECT name FROM games WHERE deadline <= ? ORDER BY deadline LIMIT ?",
    "next deadline": "SELECT min(deadline) FROM games WHERE deadline > ?",
    "keep snapshot": (
        "INSERT INTO snapshots (game, at, state) VALUES (?, ?, ?)"
        " ON CONFLICT (game) DO UPDATE SET at = excluded.at, state = excluded.state"
    ),
    "snapshot": "SELECT at, state FROM snapshots WHERE game = ?",
    # Nothing is inserted if the id was stored first, by this process or any other.
    "record request": (
        f"INSERT INTO request_ids ({_REQUEST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (scope, request_id) DO NOTHING"
    ),
    "request": (
        f"SELECT {_REQUEST_COLUMNS} FROM request_ids WHERE scope = ? AND request_id = ? AND stored_at >= ?"
    ),
    "forget requests": "DELETE FROM request_ids WHERE stored_at < ?",
    # The game's row is locked as an append locks it: no action lands between this check and the seat's write.
    "game at version": "SELECT 1 FROM games WHERE name = ? AND event_count = ?{row_lock}",
    "seat bot": (
        "INSERT INTO bot_seats (game, seat, bot, since, client, holder, lease_until) VALUES (?, ?, ?, ?, ?, "
        "?, ?)"
        " ON CONFLICT (game, seat) DO NOTHING"
    ),
    "bot seats": "SELECT game, seat, bot, since, client FROM bot_seats WHERE game = ? ORDER BY seat",
    "claim bot seat": (
        "UPDATE bot_seats SET holder = ?, lease_until = ?, waiting_at = ?"
        " WHERE game = ? AND seat = ? AND (holder = ? OR lease_until < ?)"
    ),
    "bot seats to take": (
        "SELECT b.game, b.seat, b.bot, b.since, b.client FROM bot_seats b JOIN games g ON g.name = b.game"
        " WHERE b.lease_until < ? AND b.waiting_at <> g.event_count ORDER BY b.lease_until LIMIT ?"
    ),
    "set lease": (
        "UPDATE bot_seats SET lease_until = ?, waiting_at = ? WHERE game = ? AND seat = ? AND holder = ?"
    ),
}


class Cursor(Protocol):
    """What the SQL stores use of a DB-API cursor (sqlite3's and psycopg's both are one)."""

    @property
    def rowcount(self) -> int: ...

    def execute(self, statement: str, parameters: Sequence[Any], /) -> Any: ...

    def executemany(self, statement: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> Any: ...


class SqlStore(LadderRecords):
    """The store contract over a SQL database; a driver's store gives it its transactions.

    A subclass implements :meth:`_writing` and :meth:`_reading` (a cursor in one transaction,
    committed when the block ends, rolled back if it raises, and what the database cannot do
    now raised as :class:`~tavli.server.errors.StoreUnavailable`) and may hear of each write
    through :meth:`_written`.
    """

    waits: ClassVar[bool] = True

    def __init__(self, dialect: Dialect) -> None:
        assert not _STATEMENTS.keys() & LADDER_STATEMENTS.keys(), "a purpose is named once"
        statements = {**_STATEMENTS, **LADDER_STATEMENTS}
        self._sql = {purpose: dialect.text(statement) for purpose, statement in statements.items()}

    # --- what each driver gives ------------------------------------------------------------------

    def _writing(self) -> AbstractContextManager[Cursor]:
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Cursor]:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _written(self, cursor: Cursor, name: str, event_count: int) -> None:
        """Called in the transaction of each write that stores or grows game ``name``'s log,
        which holds ``event_count`` events after it (or account ``name``'s, "accounts/{handle}",
        which holds that many events)."""

    # --- games ---------------------------------------------------------------------------------

    def create(
        self,
        record: GameRecord,
        events: Sequence[str],
        summary: bytes,
        request: RequestRecord | None,
        deadline: float | None = None,
    ) -> None:
        with self._writing() as cursor:
            if request is not None and not self._recorded(cursor, request):
                raise RequestIdTaken(request.request_id)
            created = cursor.execute(
                self._sql["create game"],
                (
                    record.name,
                    json.dumps(record.rules),
                    *record.token_hashes,
                    record.dice_mode,
                    record.dice_seed,
                    record.created,
                    record.updated,
                    players_column(record.players),
                    int(record.hints_allowed),
                    len(events),
                    summary,
                    deadline,
                ),
            )
            if created.rowcount != 1:
                raise StoreConflict(record.name)
            self._add_events(cursor, record.name, 0, events)
            if record.snapshot is not None:
                self._keep_snapshot(cursor, record.name, record.snapshot)
            self._written(cursor, record.name, len(events))

    def append(self, append: Append) -> None:
        with self._writing() as cursor:
            grown = (
                len(append.events),
                append.updated,
                append.summary,
                append.deadline,
                append.name,
                append.first_sequence,
            )
            if cursor.execute(self._sql["grow game"], grown).rowcount != 1:
                raise StoreConflict(append.name)
            if append.request is not None and not self._recorded(cursor, append.request):
                raise StoreConflict(append.name)
            self._add_events(cursor, append.name, append.first_sequence, stored_as_text(append.events))
            if append.snapshot is not None:
                self._keep_snapshot(cursor, append.name, append.snapshot)
            self._written(cursor, append.name, append.first_sequence + len(append.events))

    def load(self, name: str, first: int = 0) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        with self._reading() as cursor:
            row = cursor.execute(self._sql["game"], (name,)).fetchone()
            if row is None:
                return None
            events = cursor.execute(self._sql["events from"], (name, first)).fetchall()
            snapshot = cursor.execute(self._sql["snapshot"], (name,)).fetchone()
        return game_record(row, snapshot), [json.loads(event) for (event,) in events]

    def load_latest(self, name: str) -> tuple[GameRecord, int, list[dict[str, Any]]] | None:
        with self._reading() as cursor:
            row = cursor.execute(self._sql["game"], (name,)).fetchone()
            if row is None:
                return None
            record = game_record(row, cursor.execute(self._sql["snapshot"], (name,)).fetchone())
            first = tail_start(record.snapshot)
            events = cursor.execute(self._sql["events from"], (name, first)).fetchall()
        return record, first, [json.loads(event) for (event,) in events]

    def event_count(self, name: str) -> int:
        row = self._read_one("event count", (name,))
        return 0 if row is None else int(row[0])

    def listing(self, page_size: int, after: tuple[float, str] | None) -> list[tuple[GameRecord, bytes]]:
        with self._reading() as cursor:
            if after is None:
                rows = cursor.execute(self._sql["first page"], (page_size,)).fetchall()
            else:
                created, name = after
                rows = cursor.execute(self._sql["page after"], (created, created, name, page_size)).fetchall()
        return [(game_record(row[:-1]), bytes(row[-1])) for row in rows]

    def due(self, now: float, most: int) -> list[str]:
        with self._reading() as cursor:
            rows = cursor.execute(self._sql["due"], (now, most)).fetchall()
        return [name for (name,) in rows]

    def next_deadline(self, after: float) -> float | None:
        row = self._read_one("next deadline", (after,))
        return None if row is None else row[0]

    # --- requests ------------------------------------------------------------------------------

    def request(self, scope: str, request_id: str, not_before: float) -> RequestRecord | None:
        row = self._read_one("request", (scope, request_id, not_before))
        return None if row is None else RequestRecord(*row)

    def forget_requests(self, before: float) -> None:
        with self._writing() as cursor:
            cursor.execute(self._sql["forget requests"], (before,))

    # --- bot seats -----------------------------------------------------------------------------

    def seat_bot(self, seat: BotSeat, version: int, holder: str, lease_until: float) -> None:
        with self._writing() as cursor:
            if cursor.execute(self._sql["game at version"], (seat.name, version)).fetchone() is None:
                raise StoreConflict(seat.name)
            given = (seat.name, seat.seat, seat.bot, seat.since, seat.client, holder, lease_until)
            if cursor.execute(self._sql["seat bot"], given).rowcount != 1:
                raise BotSeatTaken(seat.name)

    def bot_seats(self, name: str) -> list[BotSeat]:
        with self._reading() as cursor:
            rows = cursor.execute(self._sql["bot seats"], (name,)).fetchall()
        return [BotSeat(*row) for row in rows]

    def claim_bot_seats(
        self, seats: Sequence[tuple[str, int]], holder: str, now: float, lease_until: float
    ) -> set[tuple[str, int]]:
        held = set()
        with self._writing() as cursor:
            # In one order, so that two holders claiming seats together never wait on each other's rows.
            for name, seat in sorted(set(seats)):
                claim = (holder, lease_until, NOT_WAITING, name, seat, holder, now)
                if cursor.execute(self._sql["claim bot seat"], claim).rowcount:
                    held.add((name, seat))
        return held

    def bot_seats_to_take(self, now: float, most: int) -> list[BotSeat]:
        with self._reading() as cursor:
            rows = cursor.execute(self._sql["bot seats to take"], (now, most)).fetchall()
        return [BotSeat(*row) for row in rows]

    def let_go_of_bot_seat(self, name: str, seat: int, holder: str, waiting_at: int = NOT_WAITING) -> None:
        self._set_lease(name, seat, holder, 0.0, waiting_at)

    def retire_bot_seat(self, name: str, seat: int, holder: str) -> None:
        self._set_lease(name, seat, holder, RETIRED, NOT_WAITING)

    # --- the machinery -------------------------------------------------------------------------

    def _recorded(self, cursor: Cursor, request: RequestRecord) -> bool:
        """Record ``request``; False if its id was recorded first."""
        recorded = cursor.execute(
            self._sql["record request"],
            (
                request.scope,
                request.request_id,
                request.method,
                request.seat,
                request.body_hash,
                request.game,
                request.version,
                request.updated,
                request.stored_at,
            ),
        )
        return bool(recorded.rowcount == 1)

    def _add_events(self, cursor: Cursor, name: str, first: int, events: Iterable[str]) -> None:
        """Write ``events``, each as its JSON text, numbered from ``first``: one statement for all."""
        cursor.executemany(self._sql["add event"], _numbered(name, first, events))

    def _keep_snapshot(self, cursor: Cursor, name: str, snapshot: Snapshot) -> None:
        cursor.execute(self._sql["keep snapshot"], (name, snapshot.at, snapshot.state))

    def _set_lease(self, name: str, seat: int, holder: str, lease_until: float, waiting_at: int) -> None:
        with self._writing() as cursor:
            cursor.execute(self._sql["set lease"], (lease_until, waiting_at, name, seat, holder))


def _numbered(name: str, first: int, events: Iterable[str]) -> Iterator[tuple[str, int, str]]:
    for offset, event in enumerate(events):
        yield name, first + offset, event


def game_record(row: Sequence[Any], snapshot: Sequence[Any] | None = None) -> GameRecord:
    """The record of a game read from a row of its columns and the row of its snapshot, if one is kept."""
    name, rules, hash_0, hash_1, dice_mode, dice_seed, created, updated, players, hints_allowed = row
    legacy_seed = dice_seed if dice_mode == "verifiable" else ""
    return GameRecord(
        name,
        json.loads(rules),
        dice_mode,
        dice_seed if dice_mode == "seeded" else "",
        created,
        updated,
        (hash_0, hash_1),
        legacy_seed,
        _players_of_column(players),
        bool(hints_allowed),
        None if snapshot is None else Snapshot(int(snapshot[0]), snapshot[1]),
    )


def players_column(players: Players) -> str:
    """Who sits at each seat as the SQL stores keep it: a JSON pair, or '' for nobody named."""
    return "" if players == NOBODY else json.dumps([player.as_dict() for player in players])


def _players_of_column(column: str) -> Players:
    if not column:
        return NOBODY
    seat_0, seat_1 = (SeatPlayer.from_dict(fields) for fields in json.loads(column))
    return seat_0, seat_1
