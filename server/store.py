"""Where games live between actions: SQLite by default, memory for tests.

A game is a record (rules, dice, times), its append-only event log, a summary of its state
(for listing games without replaying them) and a snapshot of its folded state at its latest
game's start (:mod:`tavli.server.snapshots`: loads fold the log from there). Every action is one transaction that appends its
events, rewrites the summary and, when it came with a request_id, records what the request was
and where it left the game; so a server killed at any moment restarts with every acknowledged
action, and a retried request is answered again. Appends name the log length they expect, so
two writers cannot both extend the same log: the loser's transaction fails with
:class:`StoreConflict` and leaves no trace.

A seat given to one of the server's bots is stored too (:class:`BotSeat`), written only at the
game's version its giver saw, with a lease: the process whose bot plays the seat holds it for a
few seconds at a time and renews it, each claim a conditional write, so that one process at a
time plays it and another takes it up once the holder has died and its lease has run out.

No secret is stored: seat tokens and the seeds of verifiable dice are derived from the server's
key (:mod:`tavli.server.keys`), which lives beside the database, not in it.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from tavli.server.errors import StoreUnavailable
from tavli.server.players import NOBODY, Players, SeatPlayer
from tavli.server.startup import StartupError


class StoreConflict(Exception):
    """The log grew since it was read: another writer acted first."""


class RequestIdTaken(Exception):
    """Another request with the same request_id was stored first."""


class BotSeatTaken(Exception):
    """A bot was given that seat first."""


@dataclass(frozen=True)
class GameRecord:
    """What a game is besides its events."""

    name: str
    rules: dict[str, Any]
    dice_mode: str  # "system", "seeded" or "verifiable"
    dice_seed: str = ""  # seeded games only: the seed their creator chose
    created: float = 0.0
    updated: float = 0.0
    # Games created before seat tokens were derived from the server's key keep the SHA-256 of
    # their tokens here; newer games have none.
    token_hashes: tuple[str, str] = ("", "")
    # Verifiable games created before their seeds were derived kept the seed in play here.
    legacy_seed: str = ""
    players: Players = NOBODY  # who sits at each seat, as the game was created with
    snapshot: Snapshot | None = None  # the folded state at the start of a game, if one is kept


@dataclass(frozen=True)
class Snapshot:
    """A game's folded state after its first ``at`` events, as written by :mod:`tavli.server.snapshots`."""

    at: int
    state: str


@dataclass(frozen=True)
class RequestRecord:
    """A request made with a request_id: what it was, and the version of the game it left."""

    scope: str  # "" for CreateGame, else the game's name
    request_id: str
    method: str
    seat: int  # -1 for CreateGame
    body_hash: str
    game: str
    version: int
    updated: float
    stored_at: float


@dataclass(frozen=True)
class Append:
    """One action's write: events appended at ``first_sequence`` and what else it changes."""

    name: str
    first_sequence: int
    events: list[dict[str, Any]]
    updated: float
    summary: bytes
    request: RequestRecord | None = None
    deadline: float | None = None  # when the running clock runs out after it; None: none runs
    snapshot: Snapshot | None = None  # a new snapshot to keep in place of the last; None: keep that


@dataclass(frozen=True)
class BotSeat:
    """A seat of game ``name`` played by the server's bot ``bot`` since ``since``."""

    name: str
    seat: int
    bot: str
    since: float


RETIRED = 1e300
"""The lease of a bot seat whose bot has left it for good: it runs out never (and the SQL stores'
index of leases leaves it out of every search for seats to take up)."""

NOT_WAITING = -1
"""The ``waiting_at`` of a bot seat not waiting for its opponent (:meth:`Store.let_go_of_bot_seat`)."""


class Store(Protocol):
    def create(
        self,
        record: GameRecord,
        events: list[dict[str, Any]],
        summary: bytes,
        request: RequestRecord | None,
        deadline: float | None = None,
    ) -> None:
        """Store a new game with its first events (and the deadline of its running clock).

        :raises RequestIdTaken: if ``request``'s id was stored first by another create.
        :raises StoreUnavailable: if the write cannot be made now.
        """
        ...

    def append(self, append: Append) -> None:
        """:raises StoreConflict, StoreUnavailable: as their names say; nothing is written then."""
        ...

    def load(self, name: str, first: int = 0) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        """Game ``name``'s record and its stored events from number ``first`` on (a process
        that has folded the log up to there reads only the rest); None if there is no game."""
        ...

    def load_latest(self, name: str) -> tuple[GameRecord, int, list[dict[str, Any]]] | None:
        """Game ``name``'s record, and its stored events from the one its snapshot follows on
        (from its first if it keeps none), with that event's number: what a cold load folds.
        None if there is no game."""
        ...

    def event_count(self, name: str) -> int: ...

    def listing(self, page_size: int, after: tuple[float, str] | None) -> list[tuple[GameRecord, bytes]]:
        """A page of games with their summaries, newest first, after the cursor ``(created, name)``."""
        ...

    def request(self, scope: str, request_id: str, not_before: float) -> RequestRecord | None:
        """The request stored with this id at ``not_before`` or later, if any."""
        ...

    def forget_requests(self, before: float) -> None:
        """Forget requests stored before ``before``."""
        ...

    def due(self, now: float, most: int) -> list[str]:
        """The games whose running clock ran out by ``now``, earliest first, at most ``most``."""
        ...

    def next_deadline(self, after: float) -> float | None:
        """The earliest deadline of a running clock later than ``after``, if any."""
        ...

    def seat_bot(self, seat: BotSeat, version: int, holder: str, lease_until: float) -> None:
        """Give ``seat`` to a bot, if game ``seat.name`` is still at ``version``; ``holder`` plays
        it, leased until ``lease_until``.

        :raises StoreConflict: if the game has moved on from ``version``.
        :raises BotSeatTaken: if a bot was given that seat first.
        :raises StoreUnavailable: if the write cannot be made now.
        """
        ...

    def bot_seats(self, name: str) -> list[BotSeat]:
        """The seats of game ``name`` given to bots, seat 0 first."""
        ...

    def claim_bot_seats(
        self, seats: Sequence[tuple[str, int]], holder: str, now: float, lease_until: float
    ) -> set[tuple[str, int]]:
        """Lease each bot seat of ``seats`` (a game's name and a seat) to ``holder`` until
        ``lease_until``, if ``holder`` holds it already (a renewal) or its lease ran out by
        ``now``, in one write; returns the seats ``holder`` holds."""
        ...

    def bot_seats_to_take(self, now: float, most: int) -> list[BotSeat]:
        """Bot seats nobody holds at ``now`` (their lease ran out or was let go of), at most
        ``most``, but not those waiting for an opponent who has not acted since."""
        ...

    def let_go_of_bot_seat(self, name: str, seat: int, holder: str, waiting_at: int = NOT_WAITING) -> None:
        """End ``holder``'s lease of a bot seat now, so that any process may take it up; with
        ``waiting_at``, the game's version at which the bot waits for its opponent: nobody
        takes it up until the game has moved on from there."""
        ...

    def retire_bot_seat(self, name: str, seat: int, holder: str) -> None:
        """The bot of a seat ``holder`` holds leaves it for good (its match is over): the seat is
        still named as the bot's, and nobody takes it up again."""
        ...

    def listen(self, heard: Callable[[str, int], None]) -> None:
        """Call ``heard(name, event_count)`` from another thread for each write any process
        commits, so that watchers learn of it at once; a store that cannot tell (SQLite) does
        nothing, and watchers learn of other processes' writes when they poll."""
        ...

    def reachable(self) -> bool:
        """Whether the store can be used now (a database server may be down)."""
        ...

    def close(self) -> None: ...


@dataclass
class MemoryStore:
    """A store that forgets everything when the process ends: for tests."""

    records: dict[str, GameRecord] = field(default_factory=dict)
    events: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    summaries: dict[str, bytes] = field(default_factory=dict)
    requests: dict[tuple[str, str], RequestRecord] = field(default_factory=dict)
    deadlines: dict[str, float] = field(default_factory=dict)
    bots: dict[tuple[str, int], _Leased] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def create(
        self,
        record: GameRecord,
        events: list[dict[str, Any]],
        summary: bytes,
        request: RequestRecord | None,
        deadline: float | None = None,
    ) -> None:
        with self.lock:
            if request is not None:
                if (request.scope, request.request_id) in self.requests:
                    raise RequestIdTaken(request.request_id)
                self.requests[(request.scope, request.request_id)] = request
            self.records[record.name] = record
            self.events[record.name] = list(events)
            self.summaries[record.name] = summary
            self._set_deadline(record.name, deadline)

    def append(self, append: Append) -> None:
        with self.lock:
            log = self.events[append.name]
            if len(log) != append.first_sequence:
                raise StoreConflict(append.name)
            key = None if append.request is None else (append.request.scope, append.request.request_id)
            if key is not None and key in self.requests:
                raise StoreConflict(append.name)
            log.extend(append.events)
            record = replace(self.records[append.name], updated=append.updated)
            self.records[append.name] = record if append.snapshot is None else replace(record, snapshot=append.snapshot)
            self.summaries[append.name] = append.summary
            self._set_deadline(append.name, append.deadline)
            if key is not None and append.request is not None:
                self.requests[key] = append.request

    def _set_deadline(self, name: str, deadline: float | None) -> None:
        if deadline is None:
            self.deadlines.pop(name, None)
        else:
            self.deadlines[name] = deadline

    def due(self, now: float, most: int) -> list[str]:
        with self.lock:
            due = sorted((deadline, name) for name, deadline in self.deadlines.items() if deadline <= now)
        return [name for _, name in due[:most]]

    def next_deadline(self, after: float) -> float | None:
        with self.lock:
            return min((deadline for deadline in self.deadlines.values() if deadline > after), default=None)

    def load(self, name: str, first: int = 0) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        with self.lock:
            record = self.records.get(name)
            return None if record is None else (record, self.events[name][first:])

    def load_latest(self, name: str) -> tuple[GameRecord, int, list[dict[str, Any]]] | None:
        with self.lock:
            record = self.records.get(name)
            if record is None:
                return None
            first = tail_start(record.snapshot)
            return record, first, self.events[name][first:]

    def event_count(self, name: str) -> int:
        with self.lock:
            return len(self.events.get(name, ()))

    def listing(self, page_size: int, after: tuple[float, str] | None) -> list[tuple[GameRecord, bytes]]:
        with self.lock:
            records = sorted(self.records.values(), key=lambda record: (-record.created, record.name))
            if after is not None:
                records = [record for record in records if (-record.created, record.name) > (-after[0], after[1])]
            return [(record, self.summaries[record.name]) for record in records[:page_size]]

    def request(self, scope: str, request_id: str, not_before: float) -> RequestRecord | None:
        with self.lock:
            record = self.requests.get((scope, request_id))
        return record if record is not None and record.stored_at >= not_before else None

    def forget_requests(self, before: float) -> None:
        with self.lock:
            for key in [key for key, record in self.requests.items() if record.stored_at < before]:
                del self.requests[key]

    def seat_bot(self, seat: BotSeat, version: int, holder: str, lease_until: float) -> None:
        with self.lock:
            if len(self.events.get(seat.name, ())) != version:
                raise StoreConflict(seat.name)
            if (seat.name, seat.seat) in self.bots:
                raise BotSeatTaken(seat.name)
            self.bots[(seat.name, seat.seat)] = _Leased(seat, holder, lease_until)

    def bot_seats(self, name: str) -> list[BotSeat]:
        with self.lock:
            return [self.bots[key].seat for key in sorted(self.bots) if key[0] == name]

    def claim_bot_seats(
        self, seats: Sequence[tuple[str, int]], holder: str, now: float, lease_until: float
    ) -> set[tuple[str, int]]:
        held = set()
        with self.lock:
            for key in seats:
                leased = self.bots.get(key)
                if leased is not None and (leased.holder == holder or leased.lease_until < now):
                    self.bots[key] = _Leased(leased.seat, holder, lease_until)
                    held.add(key)
        return held

    def bot_seats_to_take(self, now: float, most: int) -> list[BotSeat]:
        with self.lock:
            free = [
                leased
                for leased in self.bots.values()
                if leased.lease_until < now and leased.waiting_at != len(self.events[leased.seat.name])
            ]
        return [leased.seat for leased in sorted(free, key=lambda leased: leased.lease_until)[:most]]

    def let_go_of_bot_seat(self, name: str, seat: int, holder: str, waiting_at: int = NOT_WAITING) -> None:
        with self.lock:
            leased = self.bots.get((name, seat))
            if leased is not None and leased.holder == holder:
                self.bots[(name, seat)] = _Leased(leased.seat, holder, 0.0, waiting_at)

    def retire_bot_seat(self, name: str, seat: int, holder: str) -> None:
        with self.lock:
            leased = self.bots.get((name, seat))
            if leased is not None and leased.holder == holder:
                self.bots[(name, seat)] = _Leased(leased.seat, holder, RETIRED)

    def listen(self, heard: Callable[[str, int], None]) -> None:
        pass  # one process: nobody else writes

    def reachable(self) -> bool:
        return True

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class _Leased:
    """A bot seat in memory with its lease (as the SQL stores keep it in ``bot_seats``)."""

    seat: BotSeat
    holder: str
    lease_until: float
    waiting_at: int = NOT_WAITING


# Each migration takes the schema from the version before it (PRAGMA user_version) to its own;
# a database is migrated once, inside one transaction, whichever process opens it first.
_MIGRATIONS = (
    # 1: games, their events, and the answers of requests (databases made before versioning).
    """
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
    """,
    # 2: a summary per game; requests recorded by what they were, not by their answers (those
    # held seat tokens), with the time they were stored so that they expire.
    """
    ALTER TABLE games ADD COLUMN summary BLOB NOT NULL DEFAULT x'';
    DROP TABLE requests;
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
    """,
    # 3: who sits at each seat (a JSON pair of objects; '' for games created before).
    """
    ALTER TABLE games ADD COLUMN players TEXT NOT NULL DEFAULT '';
    """,
    # 4: when the running clock of a game with clocks runs out (NULL: none runs), for the timer.
    """
    ALTER TABLE games ADD COLUMN deadline REAL;
    CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;
    """,
    # 5: the seats given to the server's bots, with who plays each and until when.
    """
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
    """,
    # 6: each game's latest snapshot of its folded state (none for the games stored before).
    """
    CREATE TABLE IF NOT EXISTS snapshots (
        game TEXT PRIMARY KEY REFERENCES games (name),
        at INTEGER NOT NULL,
        state TEXT NOT NULL
    ) WITHOUT ROWID;
    """,
)

# The statements on snapshots, in SQLite's placeholders (PostgreSQL's store swaps them for its own).
SNAPSHOT_SQL = {
    "keep": (
        "INSERT INTO snapshots (game, at, state) VALUES (?, ?, ?)"
        " ON CONFLICT (game) DO UPDATE SET at = excluded.at, state = excluded.state"
    ),
    "read": "SELECT at, state FROM snapshots WHERE game = ?",
}

# The statements on bot seats, in SQLite's placeholders (PostgreSQL's store swaps them for its own).
BOT_SEAT_SQL = {
    "version": "SELECT 1 FROM games WHERE name = ? AND event_count = ?",
    "seat": (
        "INSERT INTO bot_seats (game, seat, bot, since, holder, lease_until) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (game, seat) DO NOTHING"
    ),
    "seats": "SELECT game, seat, bot, since FROM bot_seats WHERE game = ? ORDER BY seat",
    "claim": (
        "UPDATE bot_seats SET holder = ?, lease_until = ?, waiting_at = -1"
        " WHERE game = ? AND seat = ? AND (holder = ? OR lease_until < ?)"
    ),
    "to take": (
        "SELECT b.game, b.seat, b.bot, b.since FROM bot_seats b JOIN games g ON g.name = b.game"
        " WHERE b.lease_until < ? AND b.waiting_at <> g.event_count ORDER BY b.lease_until LIMIT ?"
    ),
    "let go": (
        "UPDATE bot_seats SET lease_until = 0, waiting_at = ? WHERE game = ? AND seat = ? AND holder = ?"
    ),
    "retire": f"UPDATE bot_seats SET lease_until = {RETIRED!r} WHERE game = ? AND seat = ? AND holder = ?",
}

EVENTS_FROM = "SELECT event FROM events WHERE game = ? AND sequence >= ? ORDER BY sequence"
"""A game's stored events from a number on (PostgreSQL's store swaps the placeholders for its own)."""

_OPEN_PATIENCE_SECONDS = 30.0  # how long opening the database waits for another process holding it

_GAME_COLUMNS = "name, rules, token_hash_0, token_hash_1, dice_mode, dice_seed, created, updated, players"
_REQUEST_COLUMNS = "scope, request_id, method, seat, body_hash, game, version, updated, stored_at"


class SqliteStore:
    """Games in one SQLite file, in WAL mode, each action one transaction.

    ``synchronous=FULL`` makes every commit durable before the action is acknowledged, against a
    killed process and a lost machine alike. A write the disk refuses (full, read-only, failing)
    raises :class:`StoreUnavailable` with the cause, and changes nothing.
    """

    def __init__(self, path: str | Path) -> None:
        """:raises StartupError: if the file cannot be opened as a sound tavli database."""
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
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=_OPEN_PATIENCE_SECONDS)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            check = self._db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise StartupError(f"the database {self.path} is damaged: {check[0] if check else 'no answer'}")
            self._migrate()
        except BaseException:
            self._db.close()
            raise
        return self._db

    def _migrate(self) -> None:
        with self._transaction():
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version > len(_MIGRATIONS):
                raise StartupError(
                    f"the database {self.path} is of schema version {version}, newer than this server's"
                    f" {len(_MIGRATIONS)}"
                )
            for number, migration in enumerate(_MIGRATIONS[version:], start=version + 1):
                for statement in migration.split(";"):
                    if statement.strip():
                        self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {number}")

    def create(
        self,
        record: GameRecord,
        events: list[dict[str, Any]],
        summary: bytes,
        request: RequestRecord | None,
        deadline: float | None = None,
    ) -> None:
        with self._using(), self._transaction():
            if request is not None and self._request_row(request.scope, request.request_id) is not None:
                raise RequestIdTaken(request.request_id)
            self._db.execute(
                f"INSERT INTO games ({_GAME_COLUMNS}, event_count, summary, deadline)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            self._insert_events(record.name, 0, events)
            if record.snapshot is not None:
                self._db.execute(SNAPSHOT_SQL["keep"], (record.name, record.snapshot.at, record.snapshot.state))
            if request is not None:
                self._insert_request(request)

    def append(self, append: Append) -> None:
        with self._using(), self._transaction():
            updated = self._db.execute(
                "UPDATE games SET event_count = event_count + ?, updated = ?, summary = ?, deadline = ?"
                " WHERE name = ? AND event_count = ?",
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
            if append.request is not None:
                if self._request_row(append.request.scope, append.request.request_id) is not None:
                    raise StoreConflict(append.name)
                self._insert_request(append.request)
            self._insert_events(append.name, append.first_sequence, append.events)
            if append.snapshot is not None:
                self._db.execute(SNAPSHOT_SQL["keep"], (append.name, append.snapshot.at, append.snapshot.state))

    def load(self, name: str, first: int = 0) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        with self._using():
            row = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE name = ?", (name,)).fetchone()
            if row is None:
                return None
            events = [json.loads(event) for (event,) in self._db.execute(EVENTS_FROM, (name, first))]
            snapshot = self._db.execute(SNAPSHOT_SQL["read"], (name,)).fetchone()
        return game_record(row, snapshot), events

    def load_latest(self, name: str) -> tuple[GameRecord, int, list[dict[str, Any]]] | None:
        with self._using():
            row = self._db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE name = ?", (name,)).fetchone()
            if row is None:
                return None
            record = game_record(row, self._db.execute(SNAPSHOT_SQL["read"], (name,)).fetchone())
            first = tail_start(record.snapshot)
            events = [json.loads(event) for (event,) in self._db.execute(EVENTS_FROM, (name, first))]
        return record, first, events

    def event_count(self, name: str) -> int:
        with self._using():
            row = self._db.execute("SELECT event_count FROM games WHERE name = ?", (name,)).fetchone()
        return 0 if row is None else int(row[0])

    def due(self, now: float, most: int) -> list[str]:
        with self._using():
            rows = self._db.execute(
                "SELECT name FROM games WHERE deadline <= ? ORDER BY deadline LIMIT ?", (now, most)
            ).fetchall()
        return [name for (name,) in rows]

    def next_deadline(self, after: float) -> float | None:
        with self._using():
            (deadline,) = self._db.execute("SELECT min(deadline) FROM games WHERE deadline > ?", (after,)).fetchone()
        return deadline

    def listing(self, page_size: int, after: tuple[float, str] | None) -> list[tuple[GameRecord, bytes]]:
        query = f"SELECT {_GAME_COLUMNS}, summary FROM games"
        parameters: tuple[Any, ...] = ()
        if after is not None:
            query += " WHERE created < ? OR (created = ? AND name > ?)"
            parameters = (after[0], after[0], after[1])
        query += " ORDER BY created DESC, name LIMIT ?"
        with self._using():
            rows = self._db.execute(query, (*parameters, page_size)).fetchall()
        return [(game_record(row[:-1]), bytes(row[-1])) for row in rows]

    def request(self, scope: str, request_id: str, not_before: float) -> RequestRecord | None:
        with self._using():
            record = self._request_row(scope, request_id)
        return record if record is not None and record.stored_at >= not_before else None

    def forget_requests(self, before: float) -> None:
        with self._using(), self._transaction():
            self._db.execute("DELETE FROM request_ids WHERE stored_at < ?", (before,))

    def seat_bot(self, seat: BotSeat, version: int, holder: str, lease_until: float) -> None:
        with self._using(), self._transaction():
            if self._db.execute(BOT_SEAT_SQL["version"], (seat.name, version)).fetchone() is None:
                raise StoreConflict(seat.name)
            inserted = self._db.execute(
                BOT_SEAT_SQL["seat"], (seat.name, seat.seat, seat.bot, seat.since, holder, lease_until)
            )
            if inserted.rowcount != 1:
                raise BotSeatTaken(seat.name)

    def bot_seats(self, name: str) -> list[BotSeat]:
        with self._using():
            return [BotSeat(*row) for row in self._db.execute(BOT_SEAT_SQL["seats"], (name,))]

    def claim_bot_seats(
        self, seats: Sequence[tuple[str, int]], holder: str, now: float, lease_until: float
    ) -> set[tuple[str, int]]:
        held = set()
        with self._using(), self._transaction():
            for name, seat in seats:
                claim = (holder, lease_until, name, seat, holder, now)
                claimed = self._db.execute(BOT_SEAT_SQL["claim"], claim)
                if claimed.rowcount:
                    held.add((name, seat))
        return held

    def bot_seats_to_take(self, now: float, most: int) -> list[BotSeat]:
        with self._using():
            return [BotSeat(*row) for row in self._db.execute(BOT_SEAT_SQL["to take"], (now, most))]

    def let_go_of_bot_seat(self, name: str, seat: int, holder: str, waiting_at: int = NOT_WAITING) -> None:
        with self._using(), self._transaction():
            self._db.execute(BOT_SEAT_SQL["let go"], (waiting_at, name, seat, holder))

    def retire_bot_seat(self, name: str, seat: int, holder: str) -> None:
        with self._using(), self._transaction():
            self._db.execute(BOT_SEAT_SQL["retire"], (name, seat, holder))

    def listen(self, heard: Callable[[str, int], None]) -> None:
        pass  # SQLite tells nobody: processes sharing the file check it on every read

    def reachable(self) -> bool:
        return True  # a local file: what the disk refuses is answered action by action

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # --- the machinery -------------------------------------------------------------------------

    def _insert_events(self, name: str, first: int, events: list[dict[str, Any]]) -> None:
        self._db.executemany(
            "INSERT INTO events (game, sequence, event) VALUES (?, ?, ?)",
            [(name, first + offset, json.dumps(event)) for offset, event in enumerate(events)],
        )

    def _insert_request(self, request: RequestRecord) -> None:
        self._db.execute(
            f"INSERT INTO request_ids ({_REQUEST_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
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

    def _request_row(self, scope: str, request_id: str) -> RequestRecord | None:
        row = self._db.execute(
            f"SELECT {_REQUEST_COLUMNS} FROM request_ids WHERE scope = ? AND request_id = ?", (scope, request_id)
        ).fetchone()
        return None if row is None else RequestRecord(*row)

    def _using(self) -> _Using:
        return _Using(self._lock)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Using:
    """The store's lock, held for a read or a write; what the disk refuses becomes StoreUnavailable."""

    def __init__(self, lock: threading.Lock) -> None:
        self.lock = lock

    def __enter__(self) -> None:
        self.lock.acquire()

    def __exit__(self, error_type: object, error: object, traceback: object) -> None:
        self.lock.release()
        if isinstance(error, sqlite3.OperationalError | sqlite3.DatabaseError) and not isinstance(
            error, sqlite3.IntegrityError
        ):
            raise StoreUnavailable(f"the game store cannot be used now ({error}); nothing was done") from None


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, error_type: object, error: object, traceback: object) -> None:
        if error_type is None:
            try:
                self.db.execute("COMMIT")
                return
            except sqlite3.Error:
                self._roll_back()
                raise
        self._roll_back()

    def _roll_back(self) -> None:
        if self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite has rolled back already when a statement failed that way


def tail_start(snapshot: Snapshot | None) -> int:
    """The number of the first event a cold load reads: the one ``snapshot`` follows (read to
    check that it does), or the log's first without one."""
    return 0 if snapshot is None else max(snapshot.at - 1, 0)


def game_record(row: tuple[Any, ...], snapshot: tuple[int, str] | None = None) -> GameRecord:
    """The record of a game read from a row of its columns (``_GAME_COLUMNS``, in any SQL store)
    and the row of its snapshot, if one is kept."""
    name, rules, hash_0, hash_1, dice_mode, dice_seed, created, updated, players = row
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
        None if snapshot is None else Snapshot(int(snapshot[0]), snapshot[1]),
    )


def players_column(players: Players) -> str:
    """Who sits at each seat as a SQL store keeps it: a JSON pair, or '' for nobody named."""
    return "" if players == NOBODY else json.dumps([player.as_dict() for player in players])


def _players_of_column(column: str) -> Players:
    if not column:
        return NOBODY
    seat_0, seat_1 = (SeatPlayer.from_dict(fields) for fields in json.loads(column))
    return seat_0, seat_1
