"""The Store contract, written once: every store (in memory, SQLite, PostgreSQL) passes the same tests.

What the game layer relies on: a new game stored with its first events; an append lands only at
the log's current length and otherwise changes nothing; a request_id is stored with the write it
came with, once; listing newest first with a stable cursor; each game's summary and running
clock's deadline as its last write left them; stored answers forgotten past their retention.
"""

from __future__ import annotations

import contextlib
import queue
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tavli.server.log_text import stored_as_text
from tavli.server.players import NOBODY, SeatPlayer
from tavli.server.postgres_store import PostgresStore
from tavli.server.sql_store import Cursor, SqlStore
from tavli.server.sqlite_store import SqliteStore
from tavli.server.store import (
    Append,
    BotSeat,
    BotSeatTaken,
    GameRecord,
    MemoryStore,
    RequestIdTaken,
    RequestRecord,
    Snapshot,
    Store,
    StoreConflict,
)
from tests.postgres import fresh_database


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Store]]:
    """Opens a store of one kind on one database, another each call, as another process would
    (the store in memory is one process's: each call gives it again); all closed at the end."""
    yield from stores_of(request.param, request, tmp_path)


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], SqlStore]]:
    """The same, for the SQL stores alone."""
    yield from stores_of(request.param, request, tmp_path)


def stores_of(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    opened: list[Store] = []
    memory = MemoryStore()
    url = fresh_database(request.getfixturevalue("postgres_url")) if kind == "postgresql" else ""

    def open_store() -> Store:
        made: Store
        if kind == "memory":
            made = memory
        elif kind == "sqlite":
            made = SqliteStore(tmp_path / "games.sqlite3")
        else:
            made = PostgresStore(url)
        opened.append(made)
        return made

    try:
        yield open_store
    finally:
        for made in opened:
            made.close()


@pytest.fixture
def store(opener: Callable[[], Store]) -> Store:
    return opener()


def record(name: str, created: float = 100.0, **fields: object) -> GameRecord:
    return GameRecord(
        name,
        {"variant": "backgammon", "match_length": 3},
        "system",
        created=created,
        updated=created,
        **fields,
    )  # type: ignore[arg-type]


def events(*kinds: str) -> list[dict[str, object]]:
    return [{"kind": kind, "side": 0} for kind in kinds]


def log(*kinds: str) -> list[str]:
    """:func:`events` as a new game's log is given to the store: each event's JSON text."""
    return stored_as_text(events(*kinds))


def answer(scope: str, request_id: str, game: str, version: int, stored_at: float = 100.0) -> RequestRecord:
    return RequestRecord(scope, request_id, "RollDice", 0, "hash", game, version, stored_at, stored_at)


def append(
    name: str, first: int, *kinds: str, request: RequestRecord | None = None, **fields: object
) -> Append:
    return Append(name, first, events(*kinds), updated=200.0, summary=b"after", request=request, **fields)  # type: ignore[arg-type]


def test_a_new_game_is_read_back_as_stored(store: Store) -> None:
    players = (SeatPlayer("Alice", "a-1"), SeatPlayer("Bob", ""))
    store.create(record("games/a", players=players, dice_seed=""), log("opening"), b"summary", None)
    loaded = store.load("games/a")
    assert loaded is not None
    stored, read = loaded
    assert stored == record("games/a", players=players)
    assert read == events("opening")
    assert store.event_count("games/a") == 1
    assert store.load("games/none") is None
    assert store.event_count("games/none") == 0


def test_a_game_is_never_stored_over_another_of_the_same_name(store: Store) -> None:
    store.create(record("games/a"), log("opening"), b"first", None, 500.0)
    with pytest.raises(StoreConflict):
        store.create(
            record("games/a", created=300.0), log("roll"), b"second", answer("", "c-2", "games/a", 1)
        )
    loaded = store.load("games/a")
    assert loaded is not None and loaded[0] == record("games/a") and loaded[1] == events("opening")
    assert store.listing(10, None) == [(record("games/a"), b"first")]
    assert store.request("", "c-2", not_before=0.0) is None  # the refused create left nothing
    assert store.next_deadline(after=0.0) == 500.0


def test_an_append_lands_only_at_the_logs_length(store: Store) -> None:
    store.create(record("games/a"), log("opening"), b"", None)
    store.append(append("games/a", 1, "roll", "play"))
    for stale in (0, 1, 2, 4):
        with pytest.raises(StoreConflict):
            store.append(append("games/a", stale, "double"))
    loaded = store.load("games/a")
    assert loaded is not None
    assert [event["kind"] for event in loaded[1]] == ["opening", "roll", "play"]
    assert loaded[0].updated == 200.0
    assert store.event_count("games/a") == 3


def test_a_log_is_read_from_any_event_on_with_the_record_as_last_written(store: Store) -> None:
    store.create(record("games/a"), log("opening"), b"", None)
    store.append(append("games/a", 1, "roll", "play", "double"))
    whole = ["opening", "roll", "play", "double"]
    for first in range(5):
        loaded = store.load("games/a", first)
        assert loaded is not None
        assert [event["kind"] for event in loaded[1]] == whole[first:]
        assert loaded[0].updated == 200.0
    assert store.load("games/none", 1) is None


def test_a_snapshot_is_kept_from_the_write_that_brings_it_until_one_brings_another(store: Store) -> None:
    first, second = Snapshot(1, '{"state": 1}'), Snapshot(3, '{"state": 3}')
    store.create(record("games/a", snapshot=first), log("opening"), b"", None)
    store.create(record("games/b"), log("opening"), b"", None)
    store.append(append("games/a", 1, "roll", "play"))
    assert snapshot_of(store, "games/a") == first
    store.append(append("games/a", 3, "double", snapshot=second))
    assert snapshot_of(store, "games/a") == second
    assert snapshot_of(store, "games/b") is None
    with pytest.raises(StoreConflict):
        store.append(append("games/a", 3, "take", snapshot=first))
    assert snapshot_of(store, "games/a") == second


def test_a_cold_load_reads_the_snapshot_and_the_events_from_the_one_it_follows_on(store: Store) -> None:
    store.create(record("games/a"), log("opening"), b"", None)
    store.append(append("games/a", 1, "roll", "play"))
    loaded = store.load_latest("games/a")
    assert loaded is not None
    stored, first, tail = loaded
    assert (stored.updated, stored.snapshot, first, tail) == (
        200.0,
        None,
        0,
        events("opening", "roll", "play"),
    )
    store.append(append("games/a", 3, "double", "take", snapshot=Snapshot(4, "{}")))
    loaded = store.load_latest("games/a")
    assert loaded is not None
    stored, first, tail = loaded
    assert (stored.snapshot, first, tail) == (Snapshot(4, "{}"), 3, events("double", "take"))
    assert store.load_latest("games/none") is None


def snapshot_of(store: Store, name: str) -> Snapshot | None:
    loaded = store.load(name)
    assert loaded is not None
    return loaded[0].snapshot


def test_a_sqlite_database_made_before_snapshots_keeps_its_games_and_keeps_snapshots(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = SqliteStore(path)
    store.create(record("games/a"), log("opening", "roll"), b"summary", None)
    store.close()
    with sqlite3.connect(path) as db:  # as schema 5 left it
        db.execute("DROP TABLE snapshots")
        db.execute("ALTER TABLE bot_seats DROP COLUMN client")
        db.execute("PRAGMA user_version = 5")
    store = SqliteStore(path)
    try:
        assert_migrated_keeping_the_game(store)
    finally:
        store.close()


def test_a_postgresql_database_made_before_snapshots_keeps_its_games_and_keeps_snapshots(
    postgres_url: str,
) -> None:
    url = fresh_database(postgres_url)
    store = PostgresStore(url)
    store.create(record("games/a"), log("opening", "roll"), b"summary", None)
    store.close()
    with psycopg.connect(url, autocommit=True) as connection:  # as schema 2 left it
        connection.execute("DROP TABLE snapshots")
        connection.execute("UPDATE tavli_schema SET version = 2")
    store = PostgresStore(url)
    try:
        assert_migrated_keeping_the_game(store)
    finally:
        store.close()


def assert_migrated_keeping_the_game(store: Store) -> None:
    loaded = store.load("games/a")
    assert loaded is not None
    assert loaded[0] == record("games/a") and loaded[1] == events("opening", "roll")
    assert store.listing(10, None)[0][1] == b"summary"
    store.append(append("games/a", 2, "play", snapshot=Snapshot(3, "{}")))
    assert snapshot_of(store, "games/a") == Snapshot(3, "{}")


def test_a_request_id_is_stored_with_its_write_once(store: Store) -> None:
    first = answer("", "create-1", "games/a", 1)
    store.create(record("games/a"), log("opening"), b"", first)
    assert store.request("", "create-1", not_before=0) == first
    with pytest.raises(RequestIdTaken):
        store.create(record("games/b"), log(), b"", answer("", "create-1", "games/b", 0))
    assert store.load("games/b") is None  # the refused create left nothing

    roll = answer("games/a", "roll-1", "games/a", 2)
    store.append(append("games/a", 1, "roll", request=roll))
    with pytest.raises(StoreConflict):  # the same id again, even at the right version
        store.append(append("games/a", 2, "play", request=answer("games/a", "roll-1", "games/a", 3)))
    assert store.event_count("games/a") == 2
    assert store.request("games/a", "roll-1", not_before=0) == roll
    assert store.request("games/b", "roll-1", not_before=0) is None  # ids are scoped to their game


def test_of_creates_racing_with_one_request_id_one_is_stored_and_the_others_told_so(
    opener: Callable[[], Store],
) -> None:
    stores = [opener(), opener()]  # two processes
    racers = 8
    start, outcomes = threading.Barrier(racers), [""] * racers

    def create(number: int) -> None:
        name = f"games/{number}"
        start.wait()
        try:
            stores[number % 2].create(record(name), log("opening"), b"", answer("", "create-1", name, 1))
            outcomes[number] = "stored"
        except RequestIdTaken:
            outcomes[number] = "taken"

    run_together(create, racers)
    assert sorted(outcomes) == ["stored"] + ["taken"] * (racers - 1)
    stored = [f"games/{number}" for number in range(racers) if outcomes[number] == "stored"]
    assert [f"games/{number}" for number in range(racers) if stores[1].load(f"games/{number}")] == stored
    kept = stores[0].request("", "create-1", not_before=0.0)
    assert kept is not None and [kept.game] == stored


def test_holders_claiming_the_same_seats_together_each_hold_a_seat_alone(opener: Callable[[], Store]) -> None:
    stores = [opener(), opener()]  # two processes
    stores[0].create(record("games/a"), log("opening"), b"", None)
    seats = [("games/a", 0), ("games/a", 1)]
    for _, seat in seats:
        stores[0].seat_bot(BotSeat("games/a", seat, "random", 1.0), 1, "nobody", 0.0)
    for round_ in range(20):
        now = 100.0 * (round_ + 1)  # the leases of the round before have run out
        held = claimed_together(stores, seats, now)
        assert held[0].isdisjoint(held[1]) and held[0] | held[1] == set(seats), held


def claimed_together(
    stores: list[Store], seats: list[tuple[str, int]], now: float
) -> list[set[tuple[str, int]]]:
    """What each store's holder holds after claiming ``seats`` at once, the second in the opposite order."""
    start = threading.Barrier(len(stores))
    held: list[set[tuple[str, int]]] = [set() for _ in stores]

    def claim(number: int) -> None:
        order = seats if number % 2 == 0 else seats[::-1]
        start.wait()
        held[number] = stores[number].claim_bot_seats(order, f"holder {number}", now, now + 50.0)

    run_together(claim, len(stores))
    return held


def run_together(target: Callable[[int], None], count: int) -> None:
    """Run ``target(number)`` for each number below ``count``, each in a thread of its own; what
    any of them raises is raised here."""
    with ThreadPoolExecutor(max_workers=count) as pool:
        list(pool.map(target, range(count)))


def test_a_load_reads_a_game_as_of_one_moment(
    sql_opener: Callable[[], SqlStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, writer = sql_opener(), sql_opener()  # two processes
    reader.create(record("games/a"), log("opening"), b"", None)
    reading = reader._reading

    @contextlib.contextmanager
    def reading_while_another_process_writes() -> Iterator[Cursor]:
        with reading() as cursor:
            yield WritingAfterTheFirstRead(cursor, lambda: writer.append(append("games/a", 1, "roll")))

    monkeypatch.setattr(reader, "_reading", reading_while_another_process_writes)
    loaded = reader.load("games/a")
    assert loaded is not None
    assert (loaded[0].updated, loaded[1]) == (100.0, events("opening"))  # the game before the write, whole
    monkeypatch.undo()
    loaded = reader.load("games/a")
    assert loaded is not None
    assert (loaded[0].updated, loaded[1]) == (200.0, events("opening", "roll"))


def test_a_writes_cursor_freed_late_on_another_thread_disturbs_no_other_write(
    sql_opener: Callable[[], SqlStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A thread may be put aside between a write's end and the freeing of its cursor while
    other threads write the same statements (SQLite's store once answered such a write with
    "bad parameter or other API misuse"): here every write's cursor is freed by a thread of its
    own, a moment after the write, while three threads append to games of their own."""
    store = sql_opener()
    writers, appends, events_each = 3, 100, 20
    for number in range(writers):
        store.create(record(f"games/{number}"), log("opening"), b"", None)
    writing, freed_late = store._writing, queue.SimpleQueue[Cursor | None]()

    @contextlib.contextmanager
    def writing_with_the_cursor_freed_late() -> Iterator[Cursor]:
        with writing() as cursor:
            yield cursor
        freed_late.put(cursor)

    def free_each_a_moment_late() -> None:
        while (cursor := freed_late.get()) is not None:
            time.sleep(random.random() / 1000)
            del cursor

    def write(number: int) -> None:
        for first in range(1, appends * events_each, events_each):
            store.append(append(f"games/{number}", first, *["roll"] * events_each))

    monkeypatch.setattr(store, "_writing", writing_with_the_cursor_freed_late)
    freer = threading.Thread(target=free_each_a_moment_late)
    freer.start()
    try:
        run_together(write, writers)
    finally:
        freed_late.put(None)
        freer.join()
    for number in range(writers):
        assert store.event_count(f"games/{number}") == 1 + appends * events_each


class WritingAfterTheFirstRead:
    """A cursor that has another process write, and commit, right after its first statement."""

    def __init__(self, cursor: Cursor, write: Callable[[], None]) -> None:
        self.cursor = cursor
        self.writes = [write]

    @property
    def rowcount(self) -> int:
        return self.cursor.rowcount

    def execute(self, statement: str, parameters: Sequence[Any], /) -> Any:
        self.cursor.execute(statement, parameters)
        while self.writes:
            self.writes.pop()()
        return self.cursor

    def executemany(self, statement: str, parameters: Iterable[Sequence[Any]], /) -> Any:
        raise AssertionError("a load writes nothing")

    def fetchone(self) -> Any:
        return self.cursor.fetchone()

    def fetchall(self) -> Any:
        return self.cursor.fetchall()


def test_stored_answers_are_forgotten_past_their_retention(store: Store) -> None:
    store.create(record("games/a"), log(), b"", answer("", "old", "games/a", 0, stored_at=10.0))
    store.append(append("games/a", 0, "roll", request=answer("games/a", "new", "games/a", 1, stored_at=50.0)))
    assert store.request("", "old", not_before=20.0) is None  # too old to answer again
    assert store.request("", "old", not_before=10.0) is not None  # stored at the limit: still answered
    assert store.request("", "old", not_before=10.000001) is None
    assert store.request("", "old", not_before=5.0) is not None
    store.forget_requests(before=20.0)
    assert store.request("", "old", not_before=0.0) is None
    assert store.request("games/a", "new", not_before=0.0) is not None


def test_listing_is_newest_first_with_a_stable_cursor(store: Store) -> None:
    for number, created in enumerate([5.0, 7.0, 7.0, 3.0, 9.0]):
        store.create(record(f"games/{number}", created=created), log(), f"summary {number}".encode(), None)
    pages, after = [], None
    while True:
        page = store.listing(2, after)
        if not page:
            break
        pages.append([stored.name for stored, _ in page])
        last = page[-1][0]
        after = (last.created, last.name)
    assert pages == [["games/4", "games/1"], ["games/2", "games/0"], ["games/3"]]
    assert {stored.name: summary for stored, summary in store.listing(10, None)}["games/2"] == b"summary 2"


def test_the_summary_is_the_last_writes(store: Store) -> None:
    store.create(record("games/a"), log(), b"before", None)
    store.append(append("games/a", 0, "roll"))
    assert store.listing(1, None)[0][1] == b"after"


def test_deadlines_are_the_last_writes_and_due_earliest_first(store: Store) -> None:
    store.create(record("games/a"), log(), b"", None, 500.0)
    store.create(record("games/b"), log(), b"", None, 300.0)
    store.create(record("games/c"), log(), b"", None)
    assert store.due(400.0, 10) == ["games/b"]
    assert store.due(600.0, 10) == ["games/b", "games/a"]
    assert store.due(600.0, 1) == ["games/b"]
    assert store.next_deadline(after=0.0) == 300.0
    assert store.next_deadline(after=300.0) == 500.0
    store.append(append("games/b", 0, "time-ran-out"))  # no clock runs after it
    store.append(append("games/a", 0, "play", deadline=800.0))
    assert store.due(600.0, 10) == []
    assert store.next_deadline(after=0.0) == 800.0
    with pytest.raises(StoreConflict):
        store.append(append("games/a", 0, "roll", deadline=50.0))  # a lost race moves no deadline
    assert store.next_deadline(after=0.0) == 800.0


def test_players_default_to_nobody(store: Store) -> None:
    store.create(record("games/a"), log(), b"", None)
    loaded = store.load("games/a")
    assert loaded is not None and loaded[0].players == NOBODY


def test_a_bot_seat_is_given_once_and_only_at_the_version_its_giver_saw(store: Store) -> None:
    store.create(record("games/a"), log("opening"), b"", None)
    seat = BotSeat("games/a", 1, "heuristic", 150.0, client="203.0.113.7")
    with pytest.raises(StoreConflict):
        store.seat_bot(seat, 0, "one", 200.0)  # the game has moved on from version 0
    assert store.bot_seats("games/a") == []
    store.seat_bot(seat, 1, "one", 200.0)
    with pytest.raises(BotSeatTaken):
        store.seat_bot(BotSeat("games/a", 1, "random", 160.0), 1, "two", 200.0)
    store.seat_bot(BotSeat("games/a", 0, "random", 160.0), 1, "two", 200.0)
    assert store.bot_seats("games/a") == [BotSeat("games/a", 0, "random", 160.0), seat]
    assert store.bot_seats("games/none") == []


def test_a_bot_seats_lease_goes_to_one_holder_until_it_runs_out(store: Store) -> None:
    store.create(record("games/a"), log("opening"), b"", None)
    store.seat_bot(BotSeat("games/a", 1, "heuristic", 150.0, client="203.0.113.7"), 1, "one", 200.0)
    assert store.bot_seats_to_take(190.0, 10) == []  # held
    assert not store.claim_bot_seats([("games/a", 1)], "two", 190.0, 300.0)
    assert store.claim_bot_seats([("games/a", 1)], "one", 190.0, 210.0)  # renewed by its holder
    assert store.bot_seats_to_take(205.0, 10) == []
    assert store.bot_seats_to_take(211.0, 10) == [
        BotSeat("games/a", 1, "heuristic", 150.0, client="203.0.113.7")
    ]
    assert store.claim_bot_seats([("games/a", 1)], "two", 211.0, 220.0)  # ran out: taken over
    assert not store.claim_bot_seats([("games/a", 1)], "one", 212.0, 230.0)  # the old holder has lost it
    assert not store.claim_bot_seats([("games/a", 0)], "two", 212.0, 230.0)  # no bot at that seat
    store.seat_bot(BotSeat("games/a", 0, "random", 150.0), 1, "one", 200.0)
    both = [("games/a", 0), ("games/a", 1)]
    assert store.claim_bot_seats(both, "one", 212.0, 230.0) == {("games/a", 0)}  # one write, each seat's own
    store.retire_bot_seat("games/a", 1, "one")  # not its holder: nothing happens
    assert store.bot_seats_to_take(1000.0, 10) != []
    store.retire_bot_seat("games/a", 1, "two")  # its match is over
    store.retire_bot_seat("games/a", 0, "one")
    assert store.bot_seats("games/a") == [  # still their bots'
        BotSeat("games/a", 0, "random", 150.0),
        BotSeat("games/a", 1, "heuristic", 150.0, client="203.0.113.7"),
    ]
    assert store.bot_seats_to_take(1e12, 10) == []
    store.append(append("games/a", 1, "roll"))
    assert store.bot_seats_to_take(1e12, 10) == []
    assert not store.claim_bot_seats([("games/a", 1)], "three", 1e12, 1e12 + 5)


def test_a_bot_let_go_of_is_taken_up_at_once_unless_it_waits_for_its_opponent(store: Store) -> None:
    store.create(record("games/a"), log("opening"), b"", None)
    seat = BotSeat("games/a", 1, "heuristic", 150.0)
    store.seat_bot(seat, 1, "one", 200.0)
    store.let_go_of_bot_seat("games/a", 1, "two")  # not its holder: nothing happens
    assert store.bot_seats_to_take(199.0, 10) == []
    store.let_go_of_bot_seat("games/a", 1, "one")  # a server stopping
    assert store.bot_seats_to_take(100.0, 10) == [seat]
    assert store.claim_bot_seats([("games/a", 1)], "two", 100.0, 300.0)
    store.let_go_of_bot_seat("games/a", 1, "two", waiting_at=1)  # its opponent keeps it waiting
    assert store.bot_seats_to_take(100.0, 10) == []
    store.append(append("games/a", 1, "roll"))  # the opponent acts
    assert store.bot_seats_to_take(100.0, 10) == [seat]
    assert store.bot_seats_to_take(100.0, 0) == []
