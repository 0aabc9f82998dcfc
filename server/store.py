"""Where games live between actions: the store contract, and a store in memory for tests.

The server's stores are SQL (:mod:`tavli.server.sql_store`): SQLite by default
(:mod:`tavli.server.sqlite_store`), PostgreSQL for replicas (:mod:`tavli.server.postgres_store`).

A game is a record (rules, dice, times), its append-only event log, a summary of its state
(for listing games without replaying them) and a snapshot of its folded state at its latest
game's start (:mod:`tavli.server.snapshots`: loads fold the log from there). Every action is
one transaction that appends its events, rewrites the summary and, when it came with a
request_id, records what the request was and where it left the game; so a server killed at
any moment restarts with every acknowledged action, and a retried request is answered again.
Appends name the log length they expect, so two writers cannot both extend the same log: the
loser's transaction fails with :class:`StoreConflict` and leaves no trace.

A seat given to one of the server's bots is stored too (:class:`BotSeat`), written only at the
game's version its giver saw, with a lease: the process whose bot plays the seat holds it for a
few seconds at a time and renews it, each claim a conditional write, so that one process at a
time plays it and another takes it up once the holder has died and its lease has run out.

No secret is stored: seat tokens and the seeds of verifiable dice are derived from the server's
key (:mod:`tavli.server.keys`), which lives beside the database, not in it.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from tavli.server.players import NOBODY, Players


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
    hints_allowed: bool = False  # whether the players may ask for hints, as the game was created with
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
    """A seat of game ``name`` played by the server's bot ``bot`` since ``since``, for ``client``
    (the client that seated it, as the quotas name it; "" for a seat stored before clients were)."""

    name: str
    seat: int
    bot: str
    since: float
    client: str = ""


RETIRED = 1e300
"""The lease of a bot seat whose bot has left it for good: it runs out never (and the SQL stores'
index of leases leaves it out of every search for seats to take up)."""

NOT_WAITING = -1
"""The ``waiting_at`` of a bot seat not waiting for its opponent (:meth:`Store.let_go_of_bot_seat`)."""


class Store(Protocol):
    @property
    def waits(self) -> bool:
        """Whether its calls wait on a database: then a caller on the event loop makes them on a
        thread; an in-memory store's calls are short, and are made on the event loop itself."""
        ...

    def create(
        self,
        record: GameRecord,
        events: Sequence[str],
        summary: bytes,
        request: RequestRecord | None,
        deadline: float | None = None,
    ) -> None:
        """Store a new game with its first events, each as the JSON text the store keeps
        (:mod:`tavli.server.log_text`: an imported record's log comes so from the heavy work's
        process, and is written as it comes), and the deadline of its running clock.

        :raises RequestIdTaken: if ``request``'s id was stored first by another create.
        :raises StoreConflict: if a game of that name is stored already.
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

    waits: ClassVar[bool] = False

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
        events: Sequence[str],
        summary: bytes,
        request: RequestRecord | None,
        deadline: float | None = None,
    ) -> None:
        decoded = [json.loads(event) for event in events]  # not under the lock the loop takes
        with self.lock:
            if request is not None and (request.scope, request.request_id) in self.requests:
                raise RequestIdTaken(request.request_id)
            if record.name in self.records:
                raise StoreConflict(record.name)
            if request is not None:
                self.requests[(request.scope, request.request_id)] = request
            self.records[record.name] = record
            self.events[record.name] = decoded
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
            self.records[append.name] = (
                record if append.snapshot is None else replace(record, snapshot=append.snapshot)
            )
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
                records = [
                    record for record in records if (-record.created, record.name) > (-after[0], after[1])
                ]
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


def tail_start(snapshot: Snapshot | None) -> int:
    """The number of the first event a cold load reads: the one ``snapshot`` follows (read to
    check that it does), or the log's first without one."""
    return 0 if snapshot is None else max(snapshot.at - 1, 0)
