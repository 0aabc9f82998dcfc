"""Clocks on the server: a seat that stalls loses on time with nobody calling, the delay and the
answerer's clock as Game shows them, the deadline across a killed server, one time loss however
many processes race to record it."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import TavliClient
from tavli.engine.clock import ClockRules
from tavli.engine.game import ActionError
from tavli.engine.rules import RuleSet
from tavli.server.keys import ServerKey
from tavli.server.postgres_store import PostgresStore
from tavli.server.sqlite_store import SqliteStore
from tavli.server.store import MemoryStore, Store
from tavli.server.tables import Tables
from tavli.v1 import games_service_pb2 as games_pb2
from tests.postgres import fresh_database
from tests.server_play import (
    RPC_TIMEOUT,
    all_events,
    connected,
    error_info,
    free_port,
    running_server,
    stop_process,
    tavli_serve,
)

TIME_RAN_OUT = games_pb2.EVENT_KIND_TIME_RAN_OUT


def seconds(stamp: object) -> float:
    return stamp.seconds + stamp.nanos / 1e9  # type: ignore[attr-defined]


def wait_for_time_loss(client: TavliClient, name: str, within: float = 15.0) -> games_pb2.GameEvent:
    """Watch game ``name`` until its time-loss event arrives (a watch only reads: it acts for nobody)."""
    deadline = time.monotonic() + within
    for answer in client.games.WatchGame(games_pb2.WatchGameRequest(name=name), timeout=within):
        if answer.event.kind == TIME_RAN_OUT:
            return answer.event
        assert time.monotonic() < deadline
    raise AssertionError("the watch ended without a time loss")


def test_a_seat_that_stalls_loses_the_match_on_time_with_nobody_calling() -> None:
    with running_server() as server, connected(server.port) as client:
        seat_0, _ = client.create_game(
            match_length=5, dice_seed="stall", clock=ClockRules(reserve=0.6, delay=0.3)
        )
        opened = seat_0.roll()
        staller = opened.to_act[0]
        assert opened.clocks.running == staller
        deadline = seconds(opened.clocks.deadline)
        assert deadline == pytest.approx(seconds(opened.clocks.turn_start_time) + 0.9)
        ran_out = wait_for_time_loss(client, seat_0.name)
        assert ran_out.seat == staller
        assert ran_out.reason == f"seat {staller - 1}'s time ran out"
        assert seconds(ran_out.event_time) == pytest.approx(deadline, abs=1e-6)
        game = client.game(seat_0.name)
        assert game.phase == games_pb2.PHASE_MATCH_OVER
        assert game.winner != staller
        assert max(game.score) == 5
        assert game.finished_games[-1].ended_by == games_pb2.GAME_END_TIME
        assert game.finished_games[-1].points == 5
        assert game.clocks.running == games_pb2.SEAT_UNSPECIFIED
        assert not game.clocks.HasField("deadline")


def test_in_money_play_the_staller_loses_the_game_at_the_cube_and_play_goes_on() -> None:
    with running_server() as server, connected(server.port) as client:
        seat_0, seat_1 = client.create_game(dice_seed="money", clock=ClockRules(reserve=2.0))
        seats = {games_pb2.SEAT_0: seat_0, games_pb2.SEAT_1: seat_1}
        game = seat_0.roll()
        if game.phase == games_pb2.PHASE_PLAYING:  # the starter plays its opening roll
            mover = seats[game.to_act[0]]
            game = mover.play(mover.legal_actions().plays[0].notation)
        doubler = seats[game.to_act[0]]
        doubler.game()
        game = doubler.double()
        taker = seats[game.to_act[0]]
        assert game.clocks.running == game.to_act[0]  # the answerer's clock runs
        taker.game()
        game = taker.take()
        ran_out = wait_for_time_loss(client, seat_0.name)
        game = client.game(seat_0.name)
        assert ran_out.seat == game.finished_games[-1].winner % 2 + 1
        assert game.finished_games[-1].points == 2  # the game at the cube's value
        assert game.game_number == 2 and game.phase == games_pb2.PHASE_OPENING
        assert [seconds(left) for left in game.clocks.remaining] == [2.0, 2.0]


def test_game_shows_the_delay_and_a_turn_within_it_costs_no_reserve() -> None:
    with running_server() as server, connected(server.port) as client:
        seat_0, seat_1 = client.create_game(
            match_length=3, dice_seed="delay", clock=ClockRules(reserve=60, delay=30)
        )
        game = seat_0.roll()
        seats = {games_pb2.SEAT_0: seat_0, games_pb2.SEAT_1: seat_1}
        mover = game.to_act[0]
        seats[mover].game()
        started = seconds(game.clocks.turn_start_time)
        assert seconds(game.clocks.delay_end_time) == pytest.approx(started + 30)
        assert seconds(game.clocks.deadline) == pytest.approx(started + 90)
        game = seats[mover].play(seats[mover].legal_actions().plays[0].notation)
        assert [seconds(left) for left in game.clocks.remaining] == [60, 60]
        assert game.clocks.running != mover


def test_an_action_after_the_deadline_is_refused_and_the_time_loss_is_stored_first() -> None:
    async def scenario() -> None:
        now = [1_800_000_000.0]
        tables = Tables(MemoryStore(), ServerKey(b"k" * 32), clock=lambda: now[0])
        created = await tables.create(
            RuleSet(match_length=3, clock=ClockRules(reserve=10)),
            dice_mode="system",
            dice_seed="",
            request=None,
        )
        name, tokens = created.game.name, created.tokens
        opened = await tables.act(name, tokens[0], "", None, lambda match, seat: match.roll(seat))
        mover = opened.state.game.turn
        now[0] += 11  # no timer runs here: the late action is the first to find out
        with pytest.raises(ActionError) as refused:
            await tables.act(name, tokens[mover], "", None, lambda match, seat: match.resign(seat, "single"))
        assert refused.value.reason == "OUT_OF_TIME"
        after = await tables.get(name)
        assert after.state.over and after.state.winner == 1 - mover
        assert after.events[-1].kind == "time-ran-out"

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_two_processes_racing_to_expire_one_clock_record_it_once(
    tmp_path: Path, database: str, request: pytest.FixtureRequest
) -> None:
    if database == "sqlite":
        stores: list[Store] = [
            SqliteStore(tmp_path / "games.sqlite3"),
            SqliteStore(tmp_path / "games.sqlite3"),
        ]
    else:
        url = fresh_database(request.getfixturevalue("postgres_url"))
        stores = [PostgresStore(url), PostgresStore(url)]

    async def scenario() -> None:
        now = [1_800_000_000.0]
        key = ServerKey(b"k" * 32)
        first, second = (Tables(store, key, clock=lambda: now[0], shared=True) for store in stores)
        rules = RuleSet(match_length=5, clock=ClockRules(reserve=5, delay=1))
        names = []
        for _ in range(8):
            created = await first.create(rules, dice_mode="system", dice_seed="", request=None)
            await first.act(
                created.game.name, created.tokens[0], "", None, lambda match, seat: match.roll(seat)
            )
            await second.get(created.game.name)  # both hold it in memory, as two workers would
            names.append(created.game.name)
        now[0] += 7
        assert sorted(stores[0].due(now[0], 100)) == sorted(names)
        answers = await asyncio.gather(*(tables.expire(name) for name in names for tables in (first, second)))
        assert sum(answer is not None for answer in answers) == len(names)  # one winner a game
        for name in names:
            events = stores[1].load(name)[1]  # type: ignore[index]
            assert [event["kind"] for event in events].count("time-ran-out") == 1
        assert stores[0].due(now[0] + 1000, 100) == []
        for store in stores:
            store.close()

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_killed_server_keeps_the_deadline_and_the_restarted_one_expires_it_once(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    port = free_port()
    server = tavli_serve("--db", str(database), port=port, stderr=tmp_path / "first.log")
    try:
        client = TavliClient(grpc.insecure_channel(f"127.0.0.1:{port}"), timeout=RPC_TIMEOUT)
        seat_0, _ = client.create_game(match_length=3, dice_seed="killed", clock=ClockRules(reserve=6))
        running = seat_0.roll()
        deadline = seconds(running.clocks.deadline)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)

        # Back before the deadline: the same deadline, still running.
        server = tavli_serve("--db", str(database), port=port, stderr=tmp_path / "second.log")
        again = client.game(seat_0.name)
        assert seconds(again.clocks.deadline) == deadline
        assert again.phase != games_pb2.PHASE_MATCH_OVER
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait(timeout=10)

        # Down while the deadline passes: the next server records it at once, dated at the deadline.
        time.sleep(max(0.0, deadline - time.time()) + 0.5)
        server = tavli_serve("--db", str(database), port=port, stderr=tmp_path / "third.log")
        ran_out = wait_for_time_loss(client, seat_0.name)
        assert seconds(ran_out.event_time) == pytest.approx(deadline, abs=1e-6)
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0
        server = tavli_serve("--db", str(database), port=port, stderr=tmp_path / "fourth.log")
        kinds = [event.kind for event in all_events(client, seat_0.name)]
        assert kinds.count(TIME_RAN_OUT) == 1
        assert client.game(seat_0.name).phase == games_pb2.PHASE_MATCH_OVER
        client.close()
    finally:
        stop_process(server.process)


@pytest.mark.slow
def test_two_workers_expire_each_clock_once(tmp_path: Path) -> None:
    server = tavli_serve(
        "--workers", "2", "--db", str(tmp_path / "games.sqlite3"), stderr=tmp_path / "serve.log"
    )
    try:
        clients = [
            TavliClient(
                grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)]),
                timeout=RPC_TIMEOUT,
            )
            for _ in range(4)
        ]
        names = []
        for number in range(6):
            seat_0, _ = clients[number % 4].create_game(
                match_length=3, dice_seed=f"w{number}", clock=ClockRules(reserve=1)
            )
            seat_0.roll()
            names.append(seat_0.name)
        for name in names:
            wait_for_time_loss(clients[0], name)
        time.sleep(1.5)  # both workers' timers have looked again
        for name in names:
            kinds = [event.kind for event in all_events(clients[1], name)]
            assert kinds.count(TIME_RAN_OUT) == 1, name
        for client in clients:
            client.close()
    finally:
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=30) == 0


@pytest.mark.parametrize(
    ("clock", "words"),
    [
        (games_pb2.ClockRules(), "a clock needs a reserve, a reserve per point or a move limit"),
        (games_pb2.ClockRules(reserve={"seconds": -5}), "the clock's reserve cannot be negative"),
        (
            games_pb2.ClockRules(delay={"seconds": 31 * 24 * 3600}, reserve={"seconds": 60}),
            "the clock's delay is between 0 and",
        ),
    ],
)
def test_clock_rules_that_make_no_sense_are_refused_in_words(clock: games_pb2.ClockRules, words: str) -> None:
    with running_server() as server, connected(server.port) as client:
        rules = games_pb2.RuleSet(variant=1, match_length=5, clock=clock)
        with pytest.raises(grpc.RpcError) as refused:
            client.games.CreateGame(games_pb2.CreateGameRequest(rule_set=rules), timeout=RPC_TIMEOUT)
        code, reason, _ = error_info(refused.value)
        assert code == grpc.StatusCode.INVALID_ARGUMENT
        assert reason in ("INVALID_RULE_SET", "INVALID_ARGUMENT")
        assert words in refused.value.details()


def test_a_time_loss_is_exported_and_imported_back_as_one() -> None:
    with running_server() as server, connected(server.port) as client:
        seat_0, _ = client.create_game(
            match_length=5, dice_seed="export", players=("Alice", "Bob"), clock=ClockRules(reserve=0.3)
        )
        staller = seat_0.roll().to_act[0]
        wait_for_time_loss(client, seat_0.name)
        exported = client.games.ExportMatch(
            games_pb2.ExportMatchRequest(name=seat_0.name), timeout=RPC_TIMEOUT
        ).mat
        loser = ("Alice", "Bob")[staller - 1]
        assert f'; [Game 1 Time "{loser} ran out of time"]' in exported
        imported, _ = client.import_match(exported)
        game = client.game(imported.name)
        assert game.phase == games_pb2.PHASE_MATCH_OVER
        assert game.finished_games[-1].ended_by == games_pb2.GAME_END_TIME
        assert game.winner != staller and max(game.score) == 5
