"""A game's cost is bounded by what it is, not by its history: a long log is folded off the
event loop, and a process that is behind reads only the events it has not seen."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import tavli.engine.match
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.server.games_servicer import summary_of
from tavli.server.keys import ServerKey
from tavli.server.store import Append, GameRecord, MemoryStore
from tavli.server.tables import Tables
from tests.engine.test_matfile import bot_match

MONEY = RuleSet()


class CountingStore(MemoryStore):
    """A memory store that counts the events it has read out of game logs."""

    events_read: int = 0

    def load(self, name: str, first: int = 0) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        loaded = super().load(name, first)
        if loaded is not None:
            self.events_read += len(loaded[1])
        return loaded


def tables_over(store: MemoryStore, **options: Any) -> Tables:
    return Tables(store, ServerKey(b"k" * 32), summarize=summary_of, clock=lambda: 1_800_000_000.0, **options)


def another_process_appends(store: MemoryStore, name: str, match: Match, upto: int) -> None:
    """Extend game ``name``'s stored log with ``match``'s events up to ``upto``, as another
    process's actions would."""
    first = store.event_count(name)
    events = [event.to_dict() for event in match.events[first:upto]]
    store.append(Append(name, first, events, updated=1_800_000_000.0 + upto, summary=b""))


def test_a_stored_log_is_folded_off_the_event_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    folded_on: set[int] = set()
    fold = tavli.engine.match.apply

    def apply_noting_the_thread(*arguments: Any) -> Any:
        folded_on.add(threading.get_ident())
        return fold(*arguments)

    async def scenario() -> None:
        store = MemoryStore()
        played = bot_match(MONEY, seed=1, events=300).events
        created = await tables_over(store).create(MONEY, dice_mode="system", dice_seed="", request=None, played=played)
        monkeypatch.setattr(tavli.engine.match, "apply", apply_noting_the_thread)
        cold = await tables_over(store).get(created.game.name)
        assert cold.version == len(played)
        assert folded_on and threading.get_ident() not in folded_on

    asyncio.run(scenario())


@pytest.mark.parametrize("behind", [1, 500])
def test_a_process_that_is_behind_reads_only_the_events_it_has_not_seen(behind: int) -> None:
    whole = bot_match(MONEY, seed=2, events=1200)
    assert len(whole.events) >= 600 + behind

    async def scenario() -> None:
        store = CountingStore()
        played = whole.events[:600]
        writer = tables_over(store)
        created = await writer.create(MONEY, dice_mode="system", dice_seed="", request=None, played=played)
        name = created.game.name
        replica = tables_over(store, shared=True)
        assert (await replica.get(name)).version == 600
        store.events_read = 0

        another_process_appends(store, name, whole, 600 + behind)
        caught_up = await replica.get(name)

        assert store.events_read == behind
        assert caught_up.version == 600 + behind
        assert caught_up.state == Match.replay(MONEY, whole.events[: 600 + behind]).state
        assert caught_up.updated == 1_800_000_000.0 + 600 + behind

    asyncio.run(scenario())


def test_a_catch_up_leaves_the_view_it_started_from_as_it_was() -> None:
    whole = bot_match(MONEY, seed=3, events=400)

    async def scenario() -> None:
        store = MemoryStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=whole.events[:300]
        )
        name = created.game.name
        replica = tables_over(store, shared=True)
        before = await replica.get(name)
        another_process_appends(store, name, whole, 350)
        after = await replica.get(name)
        assert (before.version, len(before.events)) == (300, 300)
        assert before.state == Match.replay(MONEY, whole.events[:300]).state
        assert [event.to_dict() for event in after.events] == [event.to_dict() for event in whole.events[:350]]

    asyncio.run(scenario())

