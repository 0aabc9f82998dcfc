"""The ladder's records in SQL: a member's games at once bounded in the store itself, and an
account's events numbered with no gap."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tavli.server.ladder_records import AccountRecord, LadderGameRecord, StoredEvent
from tavli.server.sqlite_store import SqliteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "tavli.sqlite3")
    for handle in ("gnu", "gammon", "nardi"):
        opened.add_account(AccountRecord(handle, handle, "bot", True, 1.0), f"hash-{handle}")
    try:
        yield opened
    finally:
        opened.close()


def game(name: str, seats: tuple[str, str]) -> LadderGameRecord:
    return LadderGameRecord(name, seats, "backgammon", True, "", 10.0)


def test_a_member_is_given_no_more_games_at_once_than_it_may_have(store: SqliteStore) -> None:
    assert store.add_ladder_game(game("games/a", ("gnu", "gammon")), most_at_once=1)
    assert not store.add_ladder_game(game("games/b", ("nardi", "gnu")), most_at_once=1)
    assert store.ladder_game("games/b") is None
    assert store.add_ladder_game(game("games/c", ("nardi", "gnu")), most_at_once=2)
    assert store.end_ladder_game(
        game("games/a", ("gnu", "gammon")), "played", 0, 20.0, lambda seat, rating: b""
    )
    assert not store.end_ladder_game(
        game("games/a", ("gnu", "gammon")), "played", 0, 21.0, lambda seat, rating: b""
    )
    assert store.add_ladder_game(game("games/d", ("gammon", "nardi")), most_at_once=2)
    assert [found.game for found in store.games_in_progress("nardi")] == ["games/c", "games/d"]


def test_an_accounts_events_are_numbered_from_one_with_no_gap(store: SqliteStore) -> None:
    store.tell([("gnu", b"a"), ("gammon", b"b"), ("gnu", b"c")], 5.0)
    store.tell([("gnu", b"d")], 6.0)
    assert store.events_after("gnu", 0, 10) == [
        StoredEvent(1, 5.0, b"a"),
        StoredEvent(2, 5.0, b"c"),
        StoredEvent(3, 6.0, b"d"),
    ]
    assert store.events_after("gnu", 2, 10) == [StoredEvent(3, 6.0, b"d")]
    assert store.events_after("gammon", 0, 10) == [StoredEvent(1, 5.0, b"b")]
