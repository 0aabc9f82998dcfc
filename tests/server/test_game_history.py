"""A game's cost is bounded by what it is, not by its history: a long log is folded off the event
loop, from the snapshot kept at its latest game's start; a process that is behind reads only the
events it has not seen; a game holds a bounded number of events."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Iterable
from typing import Any

import pytest

import tavli.engine.match
import tavli.server.tables
import tavli.server.watch_feed
from tavli.clients.client import with_finished_games_sent
from tavli.engine.events import Dropped, Played, Side
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.errors import GameTooLong, RecordTooLong
from tavli.server.keys import ServerKey
from tavli.server.log_text import log_as_text
from tavli.server.snapshots import played_log
from tavli.server.store import Append, GameRecord, MemoryStore, Snapshot
from tavli.server.tables import FOLDED_ON_A_THREAD, Tables, game_in_play_start, rules_to_dict
from tavli.server.watch_feed import MOST_KEPT
from tavli.v1 import games_service_pb2 as pb
from tests.games import bot_match

MONEY = RuleSet()


class CountingStore(MemoryStore):
    """A memory store that counts the events it has read out of game logs."""

    events_read: int = 0

    def load(self, name: str, first: int = 0) -> tuple[GameRecord, list[dict[str, Any]]] | None:
        loaded = super().load(name, first)
        if loaded is not None:
            self.events_read += len(loaded[1])
        return loaded

    def load_latest(self, name: str) -> tuple[GameRecord, int, list[dict[str, Any]]] | None:
        loaded = super().load_latest(name)
        if loaded is not None:
            self.events_read += len(loaded[2])
        return loaded


def kept_games(messages: Iterable[pb.WatchGameResponse]) -> list[pb.Game]:
    """The game of each of a watch's ``messages`` as a client keeps it, whole (copies: the
    messages are the server's, shared by its watchers)."""
    kept = [pb.Game()]
    for message in messages:
        game = pb.Game()
        game.CopyFrom(message.game)
        kept.append(with_finished_games_sent(game, kept[-1]))
    return kept[1:]


def tables_over(store: MemoryStore, **options: Any) -> Tables:
    return Tables(store, ServerKey(b"k" * 32), clock=lambda: 1_800_000_000.0, **options)


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
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
        )
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
        created = await writer.create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
        )
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
            MONEY,
            dice_mode="system",
            dice_seed="",
            request=None,
            played=played_log(MONEY, whole.events[:300]),
        )
        name = created.game.name
        replica = tables_over(store, shared=True)
        before = await replica.get(name)
        another_process_appends(store, name, whole, 350)
        after = await replica.history(name)
        assert (before.version, len(before.events)) == (300, 300)
        assert before.state == Match.replay(MONEY, whole.events[:300]).state
        assert [event.to_dict() for event in after.events] == [
            event.to_dict() for event in whole.events[:350]
        ]

    asyncio.run(scenario())


class FoldCounter:
    """Counts the events folded (:func:`engine.game.apply` and :func:`engine.game.apply_stored`, as a
    match and a watch feed call them)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folded = 0
        for module, name in (
            (tavli.engine.match, "apply"),
            (tavli.engine.match, "apply_stored"),
            (tavli.server.watch_feed, "apply_stored"),
        ):
            monkeypatch.setattr(module, name, self._counted(getattr(module, name)))

    def _counted(self, fold: Any) -> Any:
        def counted(*arguments: Any) -> Any:
            self.folded += 1
            return fold(*arguments)

        return counted


@pytest.mark.parametrize("dice_mode", ["system", "verifiable"])
def test_a_cold_load_reads_and_folds_only_the_game_in_play_from_the_snapshot_kept(
    monkeypatch: pytest.MonkeyPatch, dice_mode: str
) -> None:
    whole = bot_match(MONEY, seed=5, games=8)

    async def scenario() -> None:
        store = CountingStore()
        played = played_log(MONEY, whole.events[:-3])
        created = await tables_over(store).create(
            MONEY, dice_mode=dice_mode, dice_seed="", request=None, played=played
        )
        name, stored = created.game.name, created.game
        record = store.records[name]
        assert record.snapshot is not None
        in_play = stored.version - record.snapshot.at
        assert 0 < in_play < len(whole.events) / 4

        counter = FoldCounter(monkeypatch)
        store.events_read = 0
        tables = tables_over(store)
        cold = await tables.get(name)
        assert counter.folded == in_play
        assert store.events_read == in_play + 1  # the snapshot's event, to check it follows it
        assert cold.state == stored.state
        assert cold.match.dice_commitment == stored.match.dice_commitment

        whole_log = await tables.history(name)  # the events before the snapshot, read when asked for
        # the record's log, then what the game added (a verifiable game's commitment)
        added = log_as_text(stored.events[len(played.events) :])
        assert log_as_text(whole_log.events) == [*played.events, *added]
        assert counter.folded == in_play

    asyncio.run(scenario())


def test_a_snapshot_that_does_not_follow_the_log_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = bot_match(MONEY, seed=6, games=5)

    async def scenario() -> None:
        store = MemoryStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events)
        )
        name = created.game.name
        kept = store.records[name].snapshot
        assert kept is not None
        moved = dataclasses.replace(kept, at=kept.at - 1)
        store.records[name] = dataclasses.replace(store.records[name], snapshot=moved)

        counter = FoldCounter(monkeypatch)
        cold = await tables_over(store).get(name)
        assert counter.folded == len(whole.events)
        assert cold.state == created.game.state

    asyncio.run(scenario())


def test_a_long_log_no_snapshot_shortens_is_folded_elsewhere_and_only_its_game_in_play_here(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = bot_match(MONEY, seed=7, events=FOLDED_ON_A_THREAD + 600)
    log = log_as_text(whole.events)
    start = game_in_play_start(rules_to_dict(MONEY), log)
    assert start is not None

    async def scenario() -> None:
        store = MemoryStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events)
        )
        name = created.game.name
        store.records[name] = dataclasses.replace(store.records[name], snapshot=None)  # kept none
        asked: list[list[str]] = []

        async def fold(rules: dict[str, Any], given: list[str]) -> Snapshot | None:
            asked.append(given)  # as the heavy work's processes would, with no fold counted here
            return start

        counter = FoldCounter(monkeypatch)
        cold = await tables_over(store, fold=fold).get(name)
        assert asked == [log]
        assert counter.folded == len(whole.events) - start.at  # the game in play alone
        assert cold.state == created.game.state

    asyncio.run(scenario())


def test_the_action_that_ends_a_game_keeps_the_next_games_start_as_the_snapshot() -> None:
    whole = bot_match(MONEY, seed=7, games=3)
    ends = next(
        at for at in range(len(whole.events)) if Match.replay(MONEY, whole.events[:at]).state.finished
    )
    last = whole.events[ends - 1]
    assert isinstance(last, Played | Dropped)

    def final_action(match: Match, seat: Side) -> object:
        return match.play(seat, last.steps) if isinstance(last, Played) else match.drop(seat)

    async def scenario() -> None:
        store = MemoryStore()
        tables = tables_over(store)
        created = await tables.create(
            MONEY,
            dice_mode="system",
            dice_seed="",
            request=None,
            played=played_log(MONEY, whole.events[: ends - 1]),
        )
        name = created.game.name
        assert store.records[name].snapshot is None
        after = await tables.act(name, created.tokens[last.side], "", None, final_action)
        kept = store.records[name].snapshot
        assert kept is not None and kept.at == ends
        assert after.state.game.number == 2
        cold = await tables_over(store).get(name)
        assert cold.state == after.state

    asyncio.run(scenario())


def test_a_watcher_joining_during_a_game_folds_from_that_games_start(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = bot_match(MONEY, seed=8, games=6)
    played = whole.events[:-4]

    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
        )
        game_start = created.game.match.game_started[0]
        counter = FoldCounter(monkeypatch)
        seen = []
        watch = tables.watch(created.game.name, len(played) - 2)
        async for message in watch:
            seen.append(message)
            if message.event.sequence == len(played) - 1:
                break
        await watch.aclose()
        assert counter.folded == len(played) - game_start
        assert [message.event for message in seen] == [
            convert.event_message(len(played) - 2, played[-2]),
            convert.event_message(len(played) - 1, played[-1]),
        ]
        for message, upto in zip(seen, (-1, None)):
            state = Match.replay(MONEY, played[:upto]).state
            assert message.game.position_id == state.game.position.position_id()
            assert (message.game.game_number, message.game.score) == (state.game.number, list(state.score))

    asyncio.run(scenario())


def test_a_record_with_more_events_than_a_game_holds_is_refused_saying_both_and_nothing_is_stored() -> None:
    played = bot_match(MONEY, seed=9, events=400).events

    async def scenario() -> None:
        store = MemoryStore()
        tables = tables_over(store, most_events=300)
        with pytest.raises(
            RecordTooLong, match=f"holds {len(played)} events, more than a game may hold \\(300\\)"
        ):
            await tables.create(
                MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
            )
        assert store.records == {}

    asyncio.run(scenario())


def test_an_action_past_the_events_a_game_holds_is_refused_and_changes_nothing() -> None:
    whole = bot_match(MONEY, seed=10, events=200)
    played = whole.events[:-1]
    last = whole.events[-1]
    assert isinstance(last, Played | Dropped)

    def last_action(match: Match, seat: Side) -> object:
        return match.play(seat, last.steps) if isinstance(last, Played) else match.drop(seat)

    async def scenario() -> None:
        store = MemoryStore()
        tables = tables_over(store, most_events=len(played))
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
        )
        name = created.game.name
        with pytest.raises(
            GameTooLong, match=f"holds {len(played)} events, and a game may hold at most {len(played)}"
        ):
            await tables.act(name, created.tokens[last.side], "", None, last_action)
        assert store.event_count(name) == len(played)
        assert (await tables.get(name)).version == len(played)
        roomier = tables_over(store, most_events=len(played) + 10)
        assert (await roomier.act(name, created.tokens[last.side], "", None, last_action)).version > len(
            played
        )

    asyncio.run(scenario())


def test_a_watch_from_the_first_event_of_a_game_loaded_from_its_snapshot_reads_the_log_before_it() -> None:
    whole = bot_match(MONEY, seed=10, games=5)

    async def scenario() -> None:
        store = CountingStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events)
        )
        name = created.game.name
        tables = tables_over(store)
        cold = await tables.get(name)
        assert store.events_read < len(whole.events) / 2
        watch = tables.watch(name, 0)
        seen = [await anext(watch) for _ in range(cold.version)]
        await watch.aclose()
        assert [message.event for message in seen] == [
            convert.event_message(sequence, event) for sequence, event in enumerate(whole.events)
        ]
        assert kept_games(seen)[-1] == cold.message

    asyncio.run(scenario())


def test_the_log_before_a_snapshot_is_read_and_decoded_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = bot_match(MONEY, seed=10, games=5)
    decoded_on: set[int] = set()
    decode = tavli.server.tables.event_from_dict

    def decode_noting_the_thread(*arguments: Any) -> Any:
        decoded_on.add(threading.get_ident())
        return decode(*arguments)

    async def scenario() -> None:
        store = MemoryStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events)
        )
        tables = tables_over(store)
        cold = await tables.get(created.game.name)
        monkeypatch.setattr(tavli.server.tables, "event_from_dict", decode_noting_the_thread)
        watch = tables.watch(cold.name, 0)
        assert (await anext(watch)).event.sequence == 0
        await watch.aclose()
        assert decoded_on and threading.get_ident() not in decoded_on

    asyncio.run(scenario())


def test_a_watch_from_the_first_event_of_a_long_game_folds_only_what_its_reader_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = bot_match(MONEY, seed=12, games=100)
    assert (
        len(whole.events) > MOST_KEPT
    )  # longer than a feed keeps: its first watcher starts it at the game in play
    read = 10

    async def scenario() -> None:
        store = CountingStore()
        created = await tables_over(store).create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events)
        )
        tables = tables_over(store)
        await tables.get(created.game.name)
        counter = FoldCounter(monkeypatch)
        watch = tables.watch(created.game.name, 0)
        seen = [await anext(watch) for _ in range(read)]
        await watch.aclose()
        assert [message.event.sequence for message in seen] == list(range(read))
        # a reader that stops after ten messages of a long game costs ten folds, not the whole log
        assert counter.folded == read

    asyncio.run(scenario())


def test_games_in_memory_are_bounded_by_their_events_and_one_let_go_of_is_read_again() -> None:
    whole = bot_match(MONEY, seed=13, games=5)
    events = len(whole.events)

    async def scenario() -> None:
        store = MemoryStore()
        tables = tables_over(store, events_in_memory=events * 3 // 2)
        first, second = [
            await tables.create(
                MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events)
            )
            for _ in range(2)
        ]
        assert tables.in_memory() == 1  # the two together hold more events than memory may
        assert (await tables.get(first.game.name)).message == first.game.message  # read again
        assert tables.in_memory() == 1
        assert (await tables.get(second.game.name)).version == events

    asyncio.run(scenario())
