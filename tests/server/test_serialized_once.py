"""A stored version is serialized once, and each event folded once, in a process, however many
watch it: the builders and folds are counted here."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

import tavli.engine.match
import tavli.server.watch_feed
from tavli.engine.game import Phase
from tavli.engine.match import Match
from tavli.server import convert
from tavli.server.game_views import GameView
from tavli.server.snapshots import played_log
from tavli.server.store import MemoryStore
from tavli.server.tables import Tables
from tavli.v1 import games_service_pb2 as pb
from tests.games import bot_match
from tests.server.test_game_history import MONEY, another_process_appends, tables_over


class Calls:
    """Counts the calls of functions some modules call by name."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *names: tuple[Any, str]) -> None:
        self.count = 0
        for module, name in names:
            monkeypatch.setattr(module, name, self._counted(getattr(module, name)))

    def _counted(self, function: Any) -> Any:
        def counted(*arguments: Any, **options: Any) -> Any:
            self.count += 1
            return function(*arguments, **options)

        return counted


async def next_action(tables: Tables, view: GameView, tokens: tuple[str, str]) -> GameView:
    """The game after its next action: a roll, or the first legal play of the roll."""
    state = view.state
    seat = state.game.turn
    if state.game.phase is Phase.PLAYING:
        play = view.match.legal_plays()[0]
        return await tables.act(
            view.name, tokens[seat], view.etag, None, lambda match, side: match.play(side, play)
        )
    return await tables.act(view.name, tokens[seat], view.etag, None, lambda match, side: match.roll(side))


async def watching(tables: Tables, view: GameView, count: int) -> list[AsyncIterator[pb.WatchGameResponse]]:
    """``count`` watches of the game ``view`` shows from its first event, each read up to
    ``view``'s last event."""
    watches = [tables.watch(view.name, 0) for _ in range(count)]
    for watch in watches:
        async for message in watch:
            if message.event.sequence == view.version - 1:
                break
    return watches


@pytest.mark.parametrize("watchers", [1, 50])
def test_each_stored_version_is_built_once_for_its_answer_its_listing_its_seats_and_every_watcher(
    watchers: int,
) -> None:
    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(MONEY, dice_mode="system", dice_seed="", request=None)
        tokens = created.tokens
        view = await next_action(tables, created.game, tokens)
        watches = await watching(tables, view, watchers)
        for _ in range(12):
            built = convert.BUILT.games
            view = await next_action(tables, view, tokens)
            seen = [await anext(watch) for watch in watches]
            shown = [pb.PlaySeatResponse.FromString(view.seat_view(seat)) for seat in (0, 1)]
            listed = await tables.listing(10, None)
            assert view.version == seen[0].event.sequence + 1  # one event in each of these versions
            assert convert.BUILT.games - built == 1
            assert all(message is seen[0] for message in seen)
            assert seen[0].game == view.message == shown[0].game == shown[1].game
            assert listed[0].summary is view.summary and pb.Game.FromString(view.summary) == view.message
            for seat in (0, 1):  # each seat's answer serialized once, and shown as it is
                assert view.legal_actions(seat) is view.legal_actions(seat)
                assert shown[seat].legal_actions == pb.ListLegalActionsResponse.FromString(
                    view.legal_actions(seat)
                )
        for watch in watches:
            await watch.aclose()

    asyncio.run(scenario())


@pytest.mark.parametrize("watchers", [1, 50])
def test_each_event_is_checked_by_the_rules_once_and_folded_once_per_process_however_many_watch(
    monkeypatch: pytest.MonkeyPatch, watchers: int
) -> None:
    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(MONEY, dice_mode="system", dice_seed="", request=None)
        tokens = created.tokens
        view = await next_action(tables, created.game, tokens)
        watches = await watching(tables, view, watchers)
        checked = Calls(monkeypatch, (tavli.engine.match, "read_play"))
        folded = Calls(monkeypatch, (tavli.server.watch_feed, "apply_stored"))
        watched_from, plays = view.version, 0
        for _ in range(30):
            plays += view.state.game.phase is Phase.PLAYING
            view = await next_action(tables, view, tokens)
            for watch in watches:
                assert (await anext(watch)).event.sequence == view.version - 1
        assert plays > 10
        assert checked.count == plays  # when each play was decided, and never again
        assert folded.count == view.version - watched_from  # each event once, for every watcher
        for watch in watches:
            await watch.aclose()

    asyncio.run(scenario())


def test_a_process_that_is_behind_folds_what_it_had_not_seen_once_without_checking_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole = bot_match(MONEY, seed=4, events=300)

    async def scenario() -> None:
        store = MemoryStore()
        created = await tables_over(store).create(
            MONEY,
            dice_mode="system",
            dice_seed="",
            request=None,
            played=played_log(MONEY, whole.events[:100]),
        )
        name = created.game.name
        replica = tables_over(store, shared=True)
        watches = [replica.watch(name, 99) for _ in range(20)]
        for watch in watches:  # each has read the last event it holds, and waits for the next
            assert (await anext(watch)).event.sequence == 99
        waiting = [asyncio.ensure_future(anext(watch)) for watch in watches]
        checked = Calls(monkeypatch, (tavli.engine.match, "read_play"))
        folded = Calls(monkeypatch, (tavli.engine.match, "apply_stored"), (tavli.engine.match, "apply"))
        fed = Calls(monkeypatch, (tavli.server.watch_feed, "apply_stored"))

        another_process_appends(store, name, whole, 300)
        replica.heard_of_write(name, 300)
        first = await asyncio.gather(*waiting)
        for watch in watches:
            async for message in watch:
                if message.event.sequence == 299:
                    break

        assert all(message is first[0] for message in first)
        assert first[0].event == convert.event_message(100, whole.events[100])
        assert checked.count == 0
        assert folded.count == 200  # the table's copy caught up, once
        assert fed.count == 200  # the watchers' feed, once for all of them
        assert (await replica.get(name)).state == Match.replay(MONEY, whole.events).state
        for watch in watches:
            await watch.aclose()

    asyncio.run(scenario())
