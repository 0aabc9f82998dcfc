"""Games in PostgreSQL, for replicas on any number of machines sharing one database.

psycopg 3 with its connection pool (README "Running on several machines" says why). The
statements and the schema are :mod:`tavli.server.sql_store`'s; what is PostgreSQL's own is here:
the pool, the transactions (reads see one snapshot of the database; writes take the rows they
change), which errors mean the database cannot be used now, the migrations, which the server
makes itself, each once, under an advisory lock so that replicas starting together wait for
one another, and LISTEN/NOTIFY: each committed write notifies the channel :data:`CHANNEL` with
the game's name, so that other replicas learn of it at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import psycopg
import structlog
from psycopg_pool import ConnectionPool, PoolTimeout

from tavli.server.errors import StoreUnavailable
from tavli.server.ladder_records import LADDER_TABLES
from tavli.server.sql_store import POSTGRESQL, Cursor, SqlStore, table_statements
from tavli.server.startup import StartupError

CHANNEL = "tavli_games"
"""The channel every write notifies, with ``NAME:EVENT_COUNT`` (the game and its log's length
after the write, or the account, "accounts/{handle}", and its events' count) as the payload."""

log = structlog.get_logger("tavli.server")

_SCHEMA_LOCK = 0x7461766C69  # the advisory lock migrations take: "tavli" in ASCII
_WAIT_SECONDS = 10.0  # for the database at start
_CALL_WAIT_SECONDS = 3.0  # for a connection from the pool before a call is refused UNAVAILABLE

# Each migration takes the schema from the version before it (tavli_schema.version) to its own;
# a new database goes through them all, in the one transaction that makes it.
_MIGRATIONS = (
    # 1: games, their events and the requests made with a request_id.
    [
        *table_statements(POSTGRESQL, "games"),
        *table_statements(POSTGRESQL, "events"),
        *table_statements(POSTGRESQL, "request_ids"),
    ],
    # 2: the seats given to the server's bots.
    table_statements(POSTGRESQL, "bot_seats"),
    # 3: each game's latest snapshot of its folded state.
    table_statements(POSTGRESQL, "snapshots"),
    # 4: the schema SQLite's store has too: a game's summary is always written, and has no default;
    # the client each bot seat plays for.
    [
        "ALTER TABLE games ALTER COLUMN summary DROP DEFAULT",
        "ALTER TABLE bot_seats ADD COLUMN IF NOT EXISTS client TEXT NOT NULL DEFAULT ''",
    ],
    # 5: the ladder: accounts, their keys' hashes and events, challenges, ladder games, ratings.
    [statement for table in LADDER_TABLES for statement in table_statements(POSTGRESQL, table)],
    # 6: whether a game's players may ask for hints.
    ["ALTER TABLE games ADD COLUMN IF NOT EXISTS hints_allowed INTEGER NOT NULL DEFAULT 0"],
    # 7: the event streams open now, each seen on its heartbeats: who is online.
    table_statements(POSTGRESQL, "account_streams"),
)

SCHEMA_VERSION = len(_MIGRATIONS)


class PostgresStore(SqlStore):
    """Games in a PostgreSQL database (see the module's words)."""

    def __init__(self, url: str, *, connections: int = 8) -> None:
        """:raises StartupError: if the database cannot be reached or migrated."""
        super().__init__(POSTGRESQL)
        self.url = url
        try:
            # One connection first, for the database's own words on what is wrong (the pool would
            # only say that it timed out).
            psycopg.connect(url, connect_timeout=int(_WAIT_SECONDS)).close()
        except psycopg.Error as error:
            raise StartupError(
                f"cannot use the database {without_password(url)}: {_first_line(error)}"
            ) from None
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
            raise StartupError(
                f"cannot use the database {without_password(url)}: {_first_line(error)}"
            ) from None

    def _migrate(self) -> None:
        with self._pool.connection() as connection, connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            connection.execute("CREATE TABLE IF NOT EXISTS tavli_schema (version INTEGER NOT NULL)")
            row = connection.execute("SELECT version FROM tavli_schema").fetchone()
            version = 0 if row is None else int(row[0])
            if version > SCHEMA_VERSION:
                raise StartupError(
                    f"the database is of schema version {version}, newer than this server's {SCHEMA_VERSION}"
                )
            for migration in _MIGRATIONS[version:]:
                for statement in migration:
                    connection.execute(statement)
            if row is None:
                connection.execute("INSERT INTO tavli_schema (version) VALUES (%s)", (SCHEMA_VERSION,))
            else:
                connection.execute("UPDATE tavli_schema SET version = %s", (SCHEMA_VERSION,))

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
        self._listener = threading.Thread(
            target=self._listen, args=(heard,), name="tavli-store-listener", daemon=True
        )
        self._listener.start()

    def _listen(self, heard: Callable[[str, int], None]) -> None:
        while not self._closing.is_set():
            try:
                with psycopg.connect(
                    self.url, autocommit=True, connect_timeout=int(_WAIT_SECONDS)
                ) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    while not self._closing.is_set():
                        for notification in connection.notifies(timeout=0.5):
                            name, _, count = notification.payload.rpartition(":")
                            heard(name, int(count))
            except (psycopg.Error, ValueError) as error:
                log.warning("cannot hear other replicas' writes; listening again", error=_first_line(error))
                self._closing.wait(1.0)

    # --- the machinery ---------------------------------------------------------------------------

    def _writing(self) -> AbstractContextManager[Cursor]:
        # READ COMMITTED: a write that finds the game's row changed by a write committed meanwhile
        # sees the new row (and its version check fails), rather than a serialization error.
        return self._session(psycopg.IsolationLevel.READ_COMMITTED, read_only=False)

    def _reading(self) -> AbstractContextManager[Cursor]:
        # REPEATABLE READ: every statement of the read sees the same snapshot (a game's record,
        # its events and its snapshot as of one moment); a read-only transaction never fails for it.
        return self._session(psycopg.IsolationLevel.REPEATABLE_READ, read_only=True)

    def _reading_one(self) -> AbstractContextManager[Cursor]:
        # A statement sent alone takes a snapshot of its own: one round trip to the database
        # rather than three (begin, the statement, commit). Every call of a replica asks for its
        # game's event count first, to see the writes other replicas answered.
        return self._session(None)

    @contextmanager
    def _session(
        self, isolation: psycopg.IsolationLevel | None, *, read_only: bool = True
    ) -> Iterator[Cursor]:
        """A pooled connection's cursor: in one transaction at ``isolation``, committed at the end
        of the block, or with each statement committed alone (``None``). What the database cannot
        do now (down, restarting, unreachable) becomes StoreUnavailable."""
        try:
            with self._pool.connection() as connection:
                connection.autocommit = isolation is None
                if isolation is None:
                    with connection.cursor() as cursor:
                        yield cursor
                    return
                connection.isolation_level = isolation
                connection.read_only = read_only
                with connection.transaction(), connection.cursor() as cursor:
                    yield cursor
        except (PoolTimeout, psycopg.OperationalError, psycopg.InterfaceError) as error:
            raise StoreUnavailable(
                f"the game store cannot be used now ({_first_line(error)}); nothing was done"
            ) from None

    def _written(self, cursor: Cursor, name: str, event_count: int) -> None:
        """Tell every listening replica, once this transaction commits, that ``name`` has grown."""
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{name}:{event_count}"))


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
    kept = {key: value for key, value in info.items() if key != "password"}
    return psycopg.conninfo.make_conninfo("", **kept)
