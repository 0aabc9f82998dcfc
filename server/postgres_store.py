"""Games in PostgreSQL, for replicas on any number of machines sharing one database.

psycopg 3 with its connection pool (README "Running on several machines" says why). The schema
is created and migrated by the server itself, each migration once, under an advisory lock so
that replicas starting together wait for one another. Every write is one transaction: an append
lands only if the game's log still has the length it was read at (optimistic concurrency on the
etag), and a request_id is recorded in the same transaction as its action. Each committed write
notifies the channel :data:`CHANNEL` with the game's name, so that other replicas learn of it at
once (LISTEN/NOTIFY).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
import structlog
from psycopg_pool import ConnectionPool, PoolTimeout

from tavli.server.errors import StoreUnavailable
from tavli.server.startup import StartupError
from tavli.server.store import (
    BOT_SEAT_SQL,
    EVENTS_FROM,
    NOT_WAITING,
    SNAPSHOT_SQL,
    Append,
    BotSeat,
    BotSeatTaken,
    GameRecord,
    RequestIdTaken,
    RequestRecord,
    StoreConflict,
    game_record,
    players_column,
    tail_start,
)

CHANNEL = "tavli_games"
"""The channel every write notifies, with ``NAME:EVENT_COUNT`` (the game and its log's length
after the write) as the payload."""

log = structlog.get_logger("tavli.server")

_SCHEMA_LOCK = 0x7461766C69  # the advisory lock migrations take: "tavli" in ASCII
_WAIT_SECONDS = 10.0  # for the database at start
_CALL_WAIT_SECONDS = 3.0  # for a connection from the pool before a call is refused UNAVAILABLE

# Each migration takes the schema from the version before it to its own (tavli_schema.version).
_MIGRATIONS = (
    # 1: games, their events and the requests made with a request_id, as SQLite's schema 4.
    """
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
    """,
    # 2: the seats given to the server's bots, as SQLite's schema 5.
    """
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
    """,
    # 3: each game's latest snapshot of its folded state, as SQLite's schema 6.
    """
    CREATE TABLE IF NOT EXISTS snapshots (
        game TEXT PRIMARY KEY REFERENCES games (name),
        at BIGINT NOT NULL,
        state TEXT NOT NULL
    );
    """,
)

_BOT_SEAT_SQL = {purpose: statement.replace("?", "%s") for purpose, statement in BOT_SEAT_SQL.items()}
_EVENTS_FROM = EVENTS_FROM.replace("?", "%s")
_SNAPSHOT_SQL = {purpose: statement.replace("?", "%s") for purpose, statement in SNAPSHOT_SQL.items()}

_GAME_COLUMNS = "name, rules, token_hash_0, token_hash_1, dice_mode, dice_seed, created, updated, players"
_REQUEST_COLUMNS = "scope, request_id, method, seat, body_hash, game, version, updated, stored_at"


class PostgresStore:
    """Games in a PostgreSQL database (see the module's words)."""

    def __init__(self, url: str, *, connections: int = 8) -> None:
        """:raises StartupError: if the database cannot be reached or migrated."""
        self.url = url
        try:
            # One connection first, for the database's own words on what is wrong (the pool would
            # only say that it timed out).
            psycopg.connect(url, connect_timeout=int(_WAIT_SECONDS)).close()
        except psycopg.Error as error:
            raise StartupError(f"cannot use the database {without_password(url)}: {_first_line(error)}") from None
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=connections,
            open=False,
            timeout=_CALL_WAIT_SECONDS,
            kwargs={"connect_timeout": int(_CALL_WAIT_SECONDS)},
            name="tavli-store",
        )
        self._closing = threading.Event()
        self._listener: threading.Thread | None = None
        try:
            self._pool.open(wait=True, timeout=_WAIT_SECONDS)
            self._migrate()
        except (PoolTimeout, psycopg.Error) as error:
            self._pool.close()
            raise StartupError(f"cannot use the database {without_password(url)}: {_first_line(error)}") from None

    def _migrate(self) -> None:
        with self._pool.connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            connection.execute("CREATE TABLE IF NOT EXISTS tavli_schema (version INTEGER NOT NULL)")
            row = connection.execute("SELECT version FROM tavli_schema").fetchone()
            version = 0 if row is None else int(row[0])
            if version > len(_MIGRATIONS):
                raise StartupError(
                    f"the database is of schema version {version}, newer than this server's {len(_MIGRATIONS)}"
                )
            for migration in _MIGRATIONS[version:]:
                connection.execute(migration)
            if row is None:
                connection.execute("INSERT INTO tavli_schema (version) VALUES (%s)", (len(_MIGRATIONS),))
            else:
                connection.execute("UPDATE tavli_schema SET version = %s", (len(_MIGRATIONS),))

    # --- writes ----------------------------------------------------------------------------------

    def create(
        self,
        record: GameRecord,
        events: list[dict[str, Any]],
        summary: bytes,
        request: RequestRecord | None,
        deadline: float | None = None,
    ) -> None:
        with self._transaction() as connection:
            if request is not None and not self._insert_request(connection, request):
                raise RequestIdTaken(request.request_id)
            connection.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}, event_count, summary, deadline)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    record.name,
                    json.dumps(record.rules),
                    *record.token_hashes,
                    record.dice_mode,
                    record.dice_seed,
                    record.created,
                    record.updated,
                    players_column(record.players),
                    len(events),
                    summary,
                    deadline,
                ),
            )
            self._insert_events(connection, record.name, 0, events)
            if record.snapshot is not None:
                connection.execute(_SNAPSHOT_SQL["keep"], (record.name, record.snapshot.at, record.snapshot.state))
            _notify(connection, record.name, len(events))

    def append(self, append: Append) -> None:
        with self._transaction() as connection:
            updated = connection.execute(
                "UPDATE games SET event_count = event_count + %s, updated = %s, summary = %s, deadline = %s"
                " WHERE name = %s AND event_count = %s",
                (
                    len(append.events),
                    append.updated,
                    append.summary,
                    append.deadline,
                    append.name,
                    append.first_sequence,
                ),
            )
            if updated.rowcount != 1:
                raise StoreConflict(append.name)
            if append.request is not None and not self._insert_request(connection, append.request):
                raise StoreConflict(append.name)
            self._insert_events(connection, append.name, append.first_sequence, append.events)
            if append.snapshot is not None:
                connection.execute(_SNAPSHOT_SQL["keep"], (append.name, append.snapshot.at, append.snapshot.state))
            _notify(connection, append.name, append.first_sequence + len(append.events))

    def forget_requests(self, before: float) -> None:
        with self._transaction() as connection:
            connection.execute("DELETE FROM request_ids WHERE stored_at < %s", (before,))

    # --- bot seats -------------------------------------------------------------------------------

    def seat_bot(self, seat: BotSeat, version: int, holder: str, lease_until: float) -> None:
        with self._transaction() as connection:
            # The game's row is locked as an append locks it: no action lands between check and write.
            checked = connection.execute(_BOT_SEAT_SQL["version"] + " FOR UPDATE", (seat.name, version))
            if checked.fetchone() is None:
                raise StoreConflict(seat.name)
            inserted = connection.execute(
                _BOT_SEAT_SQL["seat"], (seat.name, seat.seat, seat.bot, seat.since, holder, lease_until)
            )
            if inserted.rowcount != 1:
                raise BotSeatTaken(seat.name)

    def bot_seats(self, name: str) -> list[BotSeat]:
        with self._transaction() as connection:
            rows = connection.execute(_BOT_SEAT_SQL["seats"], (name,)).fetchall()
        return [BotSeat(*row) for row in rows]

    def claim_bot_seats(
        self, seats: Sequence[tuple[str, int]], holder: str, now: float, lease_until: float
    ) -> set[tuple[str, int]]:
        held = set()
        with self._transaction() as connection:
            for name, seat in seats:
                claim = (holder, lease_until, name, seat, holder, now)
                claimed = connection.execute(_BOT_SEAT_SQL["claim"], claim)
                if claimed.rowcount:
                    held.add((name, seat))
        return held

    def bot_seats_to_take(self, now: float, most: int) -> list[BotSeat]:
        with self._transaction() as connection:
            rows = connection.execute(_BOT_SEAT_SQL["to take"], (now, most)).fetchall()
        return [BotSeat(*row) for row in rows]

    def let_go_of_bot_seat(self, name: str, seat: int, holder: str, waiting_at: int = NOT_WAITING) -> None:
        with self._transaction() as connection:
            connection.execute(_BOT_SEAT_SQL["let go"], (waiting_at, name, seat, holder))

    def retire_bot_seat(self, name: str, seat: int, holder: str) -> None:
        with self._transaction() as connection:
            connection.execute(_BOT_SEAT_SQL["retire"], (name, seat, holder))

    # --- reads -----------------------------------------------------------------------------------

    def load(self, name: str, first: int = 0) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        with self._transaction() as connection:  # one snapshot: the game and its events agree
            row = connection.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE name = %s", (name,)).fetchone()
            if row is None:
                return None
            events = connection.execute(_EVENTS_FROM, (name, first)).fetchall()
            snapshot = connection.execute(_SNAPSHOT_SQL["read"], (name,)).fetchone()
        return game_record(row, snapshot), [json.loads(event) for (event,) in events]

    def load_latest(self, name: str) -> tuple[GameRecord, int, list[dict[str, Any]]] | None:
        with self._transaction() as connection:  # one snapshot: the game and its events agree
            row = connection.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE name = %s", (name,)).fetchone()
            if row is None:
                return None
            record = game_record(row, connection.execute(_SNAPSHOT_SQL["read"], (name,)).fetchone())
            first = tail_start(record.snapshot)
            events = connection.execute(_EVENTS_FROM, (name, first)).fetchall()
        return record, first, [json.loads(event) for (event,) in events]

    def event_count(self, name: str) -> int:
        row = self._read_one("SELECT event_count FROM games WHERE name = %s", (name,))
        return 0 if row is None else int(row[0])

    def listing(self, page_size: int, after: tuple[float, str] | None) -> list[tuple[GameRecord, bytes]]:
        query = f"SELECT {_GAME_COLUMNS}, summary FROM games"
        parameters: tuple[Any, ...] = ()
        if after is not None:
            query += " WHERE created < %s OR (created = %s AND name > %s)"
            parameters = (after[0], after[0], after[1])
        query += " ORDER BY created DESC, name LIMIT %s"
        with self._transaction() as connection:
            rows = connection.execute(query, (*parameters, page_size)).fetchall()
        return [(game_record(row[:-1]), bytes(row[-1])) for row in rows]

    def request(self, scope: str, request_id: str, not_before: float) -> RequestRecord | None:
        row = self._read_one(
            f"SELECT {_REQUEST_COLUMNS} FROM request_ids WHERE scope = %s AND request_id = %s AND stored_at >= %s",
            (scope, request_id, not_before),
        )
        return None if row is None else RequestRecord(*row)

    def due(self, now: float, most: int) -> list[str]:
        with self._transaction() as connection:
            rows = connection.execute(
                "SELECT name FROM games WHERE deadline <= %s ORDER BY deadline LIMIT %s", (now, most)
            ).fetchall()
        return [name for (name,) in rows]

    def next_deadline(self, after: float) -> float | None:
        row = self._read_one("SELECT min(deadline) FROM games WHERE deadline > %s", (after,))
        return None if row is None else row[0]

    def reachable(self) -> bool:
        """Whether the database answers now (within two seconds)."""
        try:
            with self._pool.connection(timeout=2.0) as connection:
                connection.execute("SELECT 1")
        except (PoolTimeout, psycopg.Error):
            return False
        return True

    def close(self) -> None:
        self._closing.set()
        if self._listener is not None:
            self._listener.join()
        self._pool.close()

    # --- hearing of other replicas' writes ---------------------------------------------------------

    def listen(self, heard: Callable[[str, int], None]) -> None:
        """Call ``heard(name, event_count)`` for every write committed to the database, by this
        process or any other, from a thread of its own, until the store is closed (while the
        listening connection is down and made again, writes go unheard)."""
        self._listener = threading.Thread(target=self._listen, args=(heard,), name="tavli-store-listener", daemon=True)
        self._listener.start()

    def _listen(self, heard: Callable[[str, int], None]) -> None:
        while not self._closing.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True, connect_timeout=int(_WAIT_SECONDS)) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    while not self._closing.is_set():
                        for notification in connection.notifies(timeout=0.5):
                            name, _, count = notification.payload.rpartition(":")
                            heard(name, int(count))
            except (psycopg.Error, ValueError) as error:
                log.warning("cannot hear other replicas' writes; listening again", error=_first_line(error))
                self._closing.wait(1.0)

    # --- the machinery ---------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection in one transaction, committed at the end of the block; what the
        database cannot do now (down, restarting, unreachable) becomes StoreUnavailable."""
        try:
            with self._pool.connection() as connection, connection.transaction():
                yield connection
        except (PoolTimeout, psycopg.OperationalError, psycopg.InterfaceError) as error:
            raise StoreUnavailable(
                f"the game store cannot be used now ({_first_line(error)}); nothing was done"
            ) from None

    def _read_one(self, query: str, parameters: tuple[Any, ...]) -> tuple[Any, ...] | None:
        with self._transaction() as connection:
            return connection.execute(query, parameters).fetchone()

    @staticmethod
    def _insert_events(connection: psycopg.Connection[Any], name: str, first: int, events: list[dict[str, Any]]) -> None:
        with connection.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO events (game, sequence, event) VALUES (%s, %s, %s)",
                [(name, first + offset, json.dumps(event)) for offset, event in enumerate(events)],
            )

    @staticmethod
    def _insert_request(connection: psycopg.Connection[Any], request: RequestRecord) -> bool:
        """Record ``request``; False if its id was recorded first."""
        inserted = connection.execute(
            f"INSERT INTO request_ids ({_REQUEST_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (scope, request_id) DO NOTHING",
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
        return inserted.rowcount == 1


def _notify(connection: psycopg.Connection[Any], name: str, event_count: int) -> None:
    """Tell every listening replica, once this transaction commits, that ``name`` has grown."""
    connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{name}:{event_count}"))


def _first_line(error: BaseException) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def without_password(url: str) -> str:
    """The database ``url`` names, without any password, for messages and logs."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "a PostgreSQL database (its URL cannot be read)"
    if "password" not in info:
        return url
    return psycopg.conninfo.make_conninfo(**{key: value for key, value in info.items() if key != "password"})
