"""A stream's messages do not grow with the games played: after a stream's first message, a Game
carries only the finished games the stream has not sent yet (WatchGame and PlaySeat alike), and a
client that keeps the list ends with the game GetGame gives. What a watch folds for its watcher
alone is paid from its client's CPU budget, which slows it rather than anyone else."""

from __future__ import annotations

import asyncio
import queue
import random
import threading
from collections.abc import Iterator

import pytest

from tavli.clients.client import TavliClient, with_finished_games_sent
from tavli.engine.events import Event, OpeningThrown
from tavli.engine.match import Match
from tavli.engine.matfile import export_mat
from tavli.server.app import Running
from tavli.server.quotas import QuotaLimits, Quotas
from tavli.server.snapshots import played_log
from tavli.server.store import MemoryStore
from tavli.server.watch_feed import MOST_KEPT
from tavli.v1 import games_service_pb2 as pb
from tests.games import bot_match
from tests.server.test_game_history import MONEY, kept_games, tables_over
from tests.server_play import RPC_TIMEOUT, Policy, act_once, connected, running_server

MOST_MESSAGE_BYTES = 1024
"""What a stream's message after its first may take, however many games were played: a Game
without the match's history is about 500 bytes (the finished games of 200 games, 3,700)."""

SESSION_GAMES = 60


def session(games: int, seed: int = 11) -> Match:
    """A money session of ``games`` games, played by the tests' random players."""
    return bot_match(MONEY, seed=seed, games=games)


def under_way(events: int, seed: int) -> list[Event]:
    """The first ``events`` events of a money session: some games over, the next under way."""
    played = bot_match(MONEY, seed=seed, events=events).events
    assert not isinstance(played[-1], OpeningThrown)
    return played


@pytest.mark.parametrize("games", [2, 200])
def test_every_watch_message_after_the_first_is_as_small_after_two_hundred_games_as_after_two(
    games: int,
) -> None:
    whole = session(games)

    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, whole.events)
        )
        view = created.game
        watch = tables.watch(view.name, 0)
        seen = [await anext(watch) for _ in range(view.version)]
        await watch.aclose()
        assert len(whole.state.finished) == games
        assert max(message.ByteSize() for message in seen[1:]) <= MOST_MESSAGE_BYTES
        carried = [len(message.game.finished_games) for message in seen]
        assert sum(carried) == games  # each finished game sent once, with the event that finished it
        assert kept_games(seen)[-1] == view.message  # what GetGame gives

    asyncio.run(scenario())


def test_a_watch_from_the_middle_of_a_session_starts_whole_then_sends_what_each_event_finishes() -> None:
    played = under_way(1800, seed=11)

    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
        )
        view = created.game
        in_play = view.match.game_started[0] + 1
        assert len(view.state.finished) > 20 and in_play < view.version
        first = tables.watch(view.name, in_play)  # the first watcher: the feed starts at the game in play
        await anext(first)
        from_start = tables.watch(view.name, 0)
        states = kept_games([await anext(from_start) for _ in range(view.version)])
        await from_start.aclose()
        # From before the feed (folded for the watcher alone), and from within the game in play.
        for start in (view.version // 2, in_play):
            watch = tables.watch(view.name, start)
            seen = [await anext(watch) for _ in range(view.version - start)]
            await watch.aclose()
            assert seen[0].game == states[start]
            assert seen[0].game.omitted_finished_game_count == 0
            assert all(message.game.omitted_finished_game_count for message in seen[1:])
            assert kept_games(seen) == states[start:]
        await first.aclose()

    asyncio.run(scenario())


def test_what_a_watch_folds_for_its_watcher_alone_is_paid_for_message_by_message() -> None:
    played = under_way(300, seed=12)
    paid: list[float] = []

    async def pay(seconds: float) -> None:
        paid.append(seconds)

    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
        )
        view = created.game
        alone = view.match.game_started[0]
        assert 0 < alone < view.version
        shared = tables.watch(view.name, alone, pay=pay)  # the first watcher: the feed starts here
        for _ in range(view.version - alone):
            await anext(shared)
        await shared.aclose()
        assert paid == []  # the feed's messages are everyone's: nobody pays for them
        watch = tables.watch(view.name, 0, pay=pay)
        for _ in range(view.version):
            await anext(watch)
        await watch.aclose()
        assert len(paid) == alone + 1  # each message before the feed's first, and the end of them
        assert sum(paid) > 0

    asyncio.run(scenario())


def test_the_first_watcher_of_a_long_game_from_its_first_event_pays_for_what_it_folds() -> None:
    played = under_way(MOST_KEPT + 600, seed=14)
    paid: list[float] = []

    async def pay(seconds: float) -> None:
        paid.append(seconds)

    async def scenario() -> None:
        tables = tables_over(MemoryStore())
        created = await tables.create(
            MONEY, dice_mode="system", dice_seed="", request=None, played=played_log(MONEY, played)
        )
        view = created.game
        watch = tables.watch(view.name, 0, pay=pay)  # the first: its feed starts at the game in play
        for _ in range(view.version):
            await anext(watch)
        await watch.aclose()
        assert len(paid) == view.match.game_started[0] + 1

    asyncio.run(scenario())


def test_a_client_past_its_cpu_budget_waits_for_it_to_refill_before_more_is_folded() -> None:
    now = [0.0]
    quotas = Quotas(QuotaLimits(cpu_seconds_per_minute=6.0), clock=lambda: now[0])  # 0.1 s a second

    async def scenario() -> None:
        await quotas.pay_cpu("watcher", 5.0)  # within the budget: at once
        paying = asyncio.ensure_future(quotas.pay_cpu("watcher", 1.005))
        await asyncio.sleep(0.2)
        assert not paying.done()
        assert quotas.cpu_left("another") == 6.0  # nobody else's budget moved
        now[0] += 1.0  # a second's refill: 0.1 s of CPU
        await asyncio.wait_for(paying, 5)

    asyncio.run(scenario())


# --- end to end: the native port, Python's client --------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running_server() as running:
        yield running


@pytest.fixture()
def client(server: Running) -> Iterator[TavliClient]:
    with connected(server.port) as native:
        yield native


def test_a_native_watch_from_the_first_event_of_a_long_session_ends_with_what_get_game_gives(
    client: TavliClient,
) -> None:
    seat, _ = client.import_match(export_mat(session(SESSION_GAMES)))
    stored = client.game(seat.name)
    assert len(stored.finished_games) == SESSION_GAMES
    raw = client.games.WatchGame(pb.WatchGameRequest(name=seat.name), timeout=RPC_TIMEOUT * 6)
    seen = [next(raw) for _ in range(stored.event_count)]
    raw.cancel()
    assert seen[0].ByteSize() < MOST_MESSAGE_BYTES  # event 0: no game finished yet
    assert max(message.ByteSize() for message in seen[1:]) <= MOST_MESSAGE_BYTES
    assert kept_games(seen)[-1] == stored
    # Python's client keeps the list for its caller: each game it gives is whole.
    watch = client.watch(seat.name)
    given = [next(watch).game for _ in range(stored.event_count)]
    watch.close()
    assert given[-1] == stored
    assert all(not game.omitted_finished_game_count for game in given)


def test_a_seat_streams_views_stay_small_as_games_finish_and_its_client_keeps_every_game(
    client: TavliClient,
) -> None:
    seats = client.import_match(export_mat(session(SESSION_GAMES, seed=13)))
    name = seats[0].name
    stream = client.stream_seat(name, seats[0].token)
    assert stream.game() == client.game(name)  # the join's view is whole
    # Seat 1's stream, read as it comes: each view after the first.
    requests: queue.SimpleQueue[pb.PlaySeatRequest | None] = queue.SimpleQueue()
    requests.put(pb.PlaySeatRequest(join=pb.JoinSeat(name=name, seat_token=seats[1].token)))
    views: list[pb.PlaySeatResponse] = []
    call = client.games.PlaySeat(iter(requests.get, None), timeout=RPC_TIMEOUT * 6)
    reader = threading.Thread(target=lambda: views.extend(call))
    reader.start()
    policy = Policy(random.Random(5))
    game = seats[0].game()
    while len(game.finished_games) < SESSION_GAMES + 2:  # two games played to their end, live
        game = act_once(seats, game, policy)
    stored = client.game(name)
    for view in stream.views(timeout=RPC_TIMEOUT):
        if view.game.etag == stored.etag:
            break
    assert stream.game() == stored
    stream.close()
    requests.put(None)  # the client's side is done: the server ends the stream
    reader.join(RPC_TIMEOUT)
    assert views[-1].game.etag == stored.etag
    assert max(view.ByteSize() - view.legal_actions.ByteSize() for view in views[1:]) <= MOST_MESSAGE_BYTES
    kept = pb.Game()
    for view in views:
        game = pb.Game()
        game.CopyFrom(view.game)
        kept = with_finished_games_sent(game, kept)
    assert kept == stored
