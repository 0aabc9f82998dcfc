"""Games in one SQLite file: the server's default store, shared by the processes of one machine.

The statements and the schema are :mod:`tavli.server.sql_store`'s; what is SQLite's own is here:
the connection and the lock its threads share, WAL and durable commits, the wait for another
process that holds a new file, and the migrations of databases made by earlier versions.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, closing, contextmanager
from pathlib import Path

from tavli.server.errors import StoreUnavailable
from tavli.server.ladder_records import LADDER_TABLES
from tavli.server.sql_store import SQLITE, Cursor, SqlStore, schema_statements, table_statements
from tavli.server.startup import StartupError

_OPEN_PATIENCE_SECONDS = 30.0  # how long opening the database waits for another process holding it


# The tables of the games, as migration 7 found them.
_GAME_TABLES = ("games", "events", "request_ids", "bot_seats", "snapshots")


def _rebuilt_in_the_shared_schema(db: sqlite3.Connection) -> None:
    """Migration 7: every table of the games made again as :mod:`tavli.server.sql_store` defines
    it (the same shape as PostgreSQL's: column order, types and defaults), every row kept. SQLite
    alters no column, so the rows wait in temporary tables while the tables are made again."""
    for table in _GAME_TABLES:
        db.execute(f"CREATE TEMP TABLE kept_{table} AS SELECT * FROM main.{table}")
    for table in reversed(_GAME_TABLES):  # the tables that refer to another first
        db.execute(f"DROP TABLE main.{table}")
    for table in _GAME_TABLES:
        for statement in table_statements(SQLITE, table):
            db.execute(statement)
    for table in _GAME_TABLES:
        kept = {column for _, column, *_ in db.execute(f"PRAGMA temp.table_info(kept_{table})")}
        made = [column for _, column, *_ in db.execute(f"PRAGMA main.table_info({table})")]
        # A column the kept rows lack (a bot seat's client) takes its default.
        columns = ", ".join(column for column in made if column in kept)
        db.execute(f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM kept_{table}")
        db.execute(f"DROP TABLE kept_{table}")


def _made_by(*statements: str) -> Callable[[sqlite3.Connection], None]:
    """A migration that runs ``statements`` in turn."""

    def migrate(db: sqlite3.Connection) -> None:
        for statement in statements:
            db.execute(statement)

    return migrate


def _column_added(table: str, column: str, definition: str) -> Callable[[sqlite3.Connection], None]:
    """A migration that adds ``column`` to ``table`` where it is not there yet."""

    def migrate(db: sqlite3.Connection) -> None:
        if column not in {name for _, name, *_ in db.execute(f"PRAGMA main.table_info({table})")}:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")

    return migrate


# Each migration takes a database made by an earlier version from the schema version before it
# (PRAGMA user_version) to its own, in the one transaction that opens it first; a new database
# is made at the latest at once.
_MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    # 1: games, their events, and the answers of requests (databases made before versioning).
    _made_by(
        """CREATE TABLE IF NOT EXISTS games (
            name TEXT PRIMARY KEY,
            rules TEXT NOT NULL,
            token_hash_0 TEXT NOT NULL,
            token_hash_1 TEXT NOT NULL,
            dice_mode TEXT NOT NULL,
            dice_seed TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            event_count INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX IF NOT EXISTS games_by_creation ON games (created DESC, name)",
        """CREATE TABLE IF NOT EXISTS events (
            game TEXT NOT NULL REFERENCES games (name),
            sequence INTEGER NOT NULL,
            event TEXT NOT NULL,
            PRIMARY KEY (game, sequence)
        ) WITHOUT ROWID""",
        """CREATE TABLE IF NOT EXISTS requests (
            game TEXT NOT NULL,
            request_id TEXT NOT NULL,
            response BLOB NOT NULL,
            PRIMARY KEY (game, request_id)
        ) WITHOUT ROWID""",
    ),
    # 2: a summary per game; requests recorded by what they were, not by their answers (those
    # held seat tokens), with the time they were stored so that they expire.
    _made_by(
        "ALTER TABLE games ADD COLUMN summary BLOB NOT NULL DEFAULT x''",
        "DROP TABLE requests",
        *table_statements(SQLITE, "request_ids"),
    ),
    # 3: who sits at each seat (a JSON pair of objects; '' for games created before).
    _made_by("ALTER TABLE games ADD COLUMN players TEXT NOT NULL DEFAULT ''"),
    # 4: when the running clock of a game with clocks runs out (NULL: none runs), for the timer.
    _made_by(
        "ALTER TABLE games ADD COLUMN deadline REAL",
        "CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL",
    ),
    # 5: the seats given to the server's bots, with who plays each and until when.
    _made_by(*table_statements(SQLITE, "bot_seats")),
    # 6: each game's latest snapshot of its folded state (none for the games stored before).
    _made_by(*table_statements(SQLITE, "snapshots")),
    # 7: the schema PostgreSQL's store has too, with the client each bot seat plays for.
    _rebuilt_in_the_shared_schema,
    # 8: the ladder: accounts, their keys' hashes and events, challenges, ladder games, ratings.
    _made_by(*(statement for table in LADDER_TABLES for statement in table_statements(SQLITE, table))),
    # 9: whether a game's players may ask for hints (a database rebuilt by 7 has the column).
    _column_added("games", "hints_allowed", "INTEGER NOT NULL DEFAULT 0"),
    # 10: the event streams open now, each seen on its heartbeats: who is online.
    _made_by(*table_statements(SQLITE, "account_streams")),
)

SCHEMA_VERSION = len(_MIGRATIONS)


class SqliteStore(SqlStore):
    """Games in one SQLite file, in WAL mode, each action one transaction.

    ``synchronous=FULL`` makes every commit durable before the action is acknowledged, against a
    killed process and a lost machine alike. A write the disk refuses (full, read-only, failing)
    raises :class:`StoreUnavailable` with the cause, and changes nothing.
    """

    def __init__(self, path: str | Path) -> None:
        """:raises StartupError: if the file cannot be opened as a sound tavli database."""
        super().__init__(SQLITE)
        self.path = str(path)
        self._lock = threading.Lock()
        # Workers starting together open one new file at once: one of them makes and migrates
        # it, and the others find it locked (switching to WAL does not wait as queries do), so
        # they try again, for as long as a query would wait.
        deadline = time.monotonic() + _OPEN_PATIENCE_SECONDS
        while True:
            try:
                self._db = self._open()
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise StartupError(f"cannot open the database {self.path}: {error}") from None
                time.sleep(0.05)
            except sqlite3.DatabaseError as error:
                raise StartupError(f"cannot open the database {self.path}: {error}") from None

    def _open(self) -> sqlite3.Connection:
        """A connection to the file, checked and migrated; closed again if any of that fails."""
        db = sqlite3.connect(
            self.path, check_same_thread=False, isolation_level=None, timeout=_OPEN_PATIENCE_SECONDS
        )
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise StartupError(
                    f"the database {self.path} is damaged: {check[0] if check else 'no answer'}"
                )
            self._migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        with _transaction(db, "BEGIN IMMEDIATE"):
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            if version > SCHEMA_VERSION:
                raise StartupError(
                    f"the database {self.path} is of schema version {version}, newer than this server's"
                    f" {SCHEMA_VERSION}"
                )
            games = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'games'").fetchone()
            if version == 0 and games is None:  # new (one made before versioning has tables at 0)
                for statement in schema_statements(SQLITE):
                    db.execute(statement)
            else:
                for migration in _MIGRATIONS[version:]:
                    migration(db)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def listen(self, heard: Callable[[str, int], None]) -> None:
        pass  # SQLite tells nobody: processes sharing the file check it on every read

    def reachable(self) -> bool:
        return True  # a local file: what the disk refuses is answered action by action

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- the machinery -------------------------------------------------------------------------

    def _writing(self) -> AbstractContextManager[Cursor]:
        # IMMEDIATE: the write lock is taken at the start (waiting for another process's write),
        # so nothing read within the transaction can go stale before its write.
        return self._session("BEGIN IMMEDIATE")

    def _reading(self) -> AbstractContextManager[Cursor]:
        return self._session("BEGIN")

    @contextmanager
    def _session(self, begin: str) -> Iterator[Cursor]:
        with self._lock, _refused_as_unavailable(), _transaction(self._db, begin) as cursor:
            yield cursor


@contextmanager
def _refused_as_unavailable() -> Iterator[None]:
    """What the disk refuses becomes StoreUnavailable (a broken constraint stays what it is)."""
    try:
        yield
    except (sqlite3.OperationalError, sqlite3.DatabaseError) as error:
        if isinstance(error, sqlite3.IntegrityError):
            raise
        raise StoreUnavailable(f"the game store cannot be used now ({error}); nothing was done") from None


@contextmanager
def _transaction(db: sqlite3.Connection, begin: str) -> Iterator[sqlite3.Cursor]:
    """A cursor in one transaction begun with ``begin``: committed at the end, rolled back if
    the block raises.

    The cursor is closed within the transaction. Python's sqlite3 shares a statement between the
    cursors that run the same SQL, and a cursor freed later, on a thread put aside after the
    transaction, would reset the statement it last ran while another transaction runs it: that
    transaction's next row would be refused as API misuse."""
    db.execute(begin)
    try:
        with closing(db.cursor()) as cursor:
            yield cursor
        db.execute("COMMIT")
    except BaseException:
        _roll_back(db)
        raise


def _roll_back(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite has rolled back already when a statement failed that way
