"""What a long log costs the server's own process, whose interpreter its event loop shares: an
imported record's log is written as the heavy work's process gave it (only its game in play is
read), a cold load builds the game's message off the event loop, and a watch from far back folds
the log up to where it starts off the event loop."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import tavli.server.watch_feed
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.keys import ServerKey
from tavli.server.snapshots import Played, played_log
from tavli.server.sqlite_store import SqliteStore
from tavli.server.store import MemoryStore, Snapshot, Store
from tavli.server.tables import Tables
from tests.games import bot_match

MONEY = RuleSet()


@pytest.fixture(scope="module")
def session() -> Match:
    """A money session of 30 games (some 1,700 events) stopped halfway through its last game."""
    events = bot_match(MONEY, seed=21, games=30).events
    last_game = Match.replay(MONEY, events[:-1]).game_started[0]
    return Match.replay(MONEY, events[: (last_game + len(events)) // 2])


def tables_over(store: Store) -> Tables:
    return Tables(store, ServerKey(b"k" * 32), clock=lambda: 1_800_000_000.0)


class JsonCounter:
    """Counts the JSON texts decoded (``json.loads``) and encoded (``json.dumps``) in this process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: Counter[str] = Counter()
        for name in ("loads", "dumps"):
            monkeypatch.setattr(json, name, self._counted(name, getattr(json, name)))

    def _counted(self, name: str, work: Any) -> Any:
        def counted(*arguments: Any, **options: Any) -> Any:
            self.calls[name] += 1
            return work(*arguments, **options)

        return counted


def test_an_imported_log_is_stored_as_it_came_and_only_its_game_in_play_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session: Match
) -> None:
    played = played_log(MONEY, session.events)
    assert played.snapshot is not None
    in_play = len(session.events) - played.snapshot.at
    assert 0 < in_play < len(session.events) // 10

    async def scenario() -> str:
        counter = JsonCounter(monkeypatch)
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played
        )
        monkeypatch.undo()
        # The events of the game in play (and the one its snapshot follows) are read; a few texts
        # more are the snapshot and the game's columns. None is encoded again.
        assert counter.calls["loads"] <= in_play + 5
        assert counter.calls["dumps"] <= 5
        return created.game.name

    store = SqliteStore(tmp_path / "games.sqlite3")
    name = asyncio.run(scenario())
    loaded = store.load(name)
    assert loaded is not None
    assert loaded[1] == [json.loads(event) for event in played.events]
    assert tables_state(store, name) == session.state


def test_an_imported_log_whose_snapshot_does_not_follow_it_is_read_and_folded_whole(
    tmp_path: Path, session: Match
) -> None:
    played = played_log(MONEY, session.events)
    assert played.snapshot is not None
    misplaced = Played(played.events, Snapshot(played.snapshot.at - 1, played.snapshot.state))
    store = SqliteStore(tmp_path / "games.sqlite3")

    async def scenario() -> str:
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=misplaced
        )
        assert created.game.state == session.state
        return created.game.name

    assert tables_state(store, asyncio.run(scenario())) == session.state


def test_a_cold_load_builds_the_game_message_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, session: Match
) -> None:
    store = SqliteStore(tmp_path / "games.sqlite3")
    built_on: set[int] = set()

    async def scenario() -> None:
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, session.events)
        )
        build = convert.serialized_game

        def built_noting_the_thread(*arguments: Any, **options: Any) -> Any:
            built_on.add(threading.get_ident())
            return build(*arguments, **options)

        monkeypatch.setattr(convert, "serialized_game", built_noting_the_thread)
        cold = await tables_over(store).get(created.game.name)  # a restarted server's first read
        assert cold.message == created.game.message  # what GetGame answers, built already
        assert built_on and threading.get_ident() not in built_on

    asyncio.run(scenario())


def tables_state(store: SqliteStore, name: str) -> Any:
    """The state of game ``name`` as a restarted server loads it from ``store``."""

    async def loaded() -> Any:
        return (await tables_over(store).get(name)).state

    return asyncio.run(loaded())


def test_a_watch_from_before_the_feed_folds_the_log_up_to_it_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch, session: Match
) -> None:
    folded_on: Counter[bool] = Counter()  # events folded for watches, on the loop's thread or not
    fold = tavli.server.watch_feed.apply_stored

    def folded_noting_the_thread(*arguments: Any) -> Any:
        folded_on[threading.get_ident() == loop_thread] += 1
        return fold(*arguments)

    loop_thread = threading.get_ident()
    middle = len(session.events) // 2
    read = 3

    async def scenario() -> None:
        store = MemoryStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, session.events)
        )
        tables = tables_over(store)
        view = await tables.history(created.game.name)
        live = tables.watch(view.name, view.version - 1)  # the feed starts at the game in play
        await anext(live)
        assert middle < view.match.game_started[0]
        monkeypatch.setattr(tavli.server.watch_feed, "apply_stored", folded_noting_the_thread)
        watch = tables.watch(view.name, middle)
        seen = [await anext(watch) for _ in range(read)]
        await watch.aclose()
        await live.aclose()
        assert [message.event.sequence for message in seen] == list(range(middle, middle + read))

    asyncio.run(scenario())
    assert folded_on == {False: middle + 1, True: read - 1}


def test_a_games_first_watcher_from_before_the_game_in_play_starts_the_feed_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch, session: Match
) -> None:
    folded_on: Counter[bool] = Counter()  # events folded for watches, on the loop's thread or not
    fold = tavli.server.watch_feed.apply_stored

    def folded_noting_the_thread(*arguments: Any) -> Any:
        folded_on[threading.get_ident() == loop_thread] += 1
        return fold(*arguments)

    loop_thread = threading.get_ident()
    read = 3

    async def scenario() -> int:
        store = MemoryStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, session.events)
        )
        tables = tables_over(store)
        view = await tables.history(created.game.name)
        start = view.match.game_started[0] - 5  # the feed starts here: a fold of the log up to it
        monkeypatch.setattr(tavli.server.watch_feed, "apply_stored", folded_noting_the_thread)
        watch = tables.watch(view.name, start)
        seen = [await anext(watch) for _ in range(read)]
        await watch.aclose()
        assert [message.event.sequence for message in seen] == list(range(start, start + read))
        return view.version

    version = asyncio.run(scenario())
    assert folded_on == {False: version}  # up to the start, then each event of the feed once
