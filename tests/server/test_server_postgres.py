"""Replicas on PostgreSQL: any replica serves any call of any game, watchers on one replica see
what another wrote, and a replica that cannot reach the database says so."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavli.clients.client import Seat, TavliClient
from tavli.engine.rules import RuleSet
from tavli.server import convert
from tavli.server.keys import ServerKey
from tavli.server.postgres_store import PostgresStore
from tavli.server.tables import Tables
from tavli.v1 import games_service_pb2 as games_pb2
from tests.postgres import fresh_database, own_postgres_server
from tests.server_play import (
    REPO,
    RPC_TIMEOUT,
    Policy,
    error_info,
    play_to_end,
    serve_command,
    stop_process,
    tavli_serve,
)


def replicas(url: str, key: Path, count: int, log_folder: Path) -> list:
    return [
        tavli_serve("--db", url, "--key-file", str(key), stderr=log_folder / f"replica-{number}.log")
        for number in range(count)
    ]


def test_seats_on_different_replicas_play_whole_games(postgres_url: str, tmp_path: Path) -> None:
    url = fresh_database(postgres_url)
    served = replicas(url, tmp_path / "server.key", 2, tmp_path)
    clients = [TavliClient(grpc.insecure_channel(server.address), timeout=RPC_TIMEOUT) for server in served]
    try:
        for number in range(2):
            seat_0, seat_1 = clients[0].create_game(match_length=3, dice_seed=f"replicas-{number}")
            seats = (
                Seat(clients[0], seat_0.name, 0, seat_0.token, seat_0.last_seen),
                Seat(clients[1], seat_1.name, 1, seat_1.token, seat_1.last_seen),
            )
            final = play_to_end(seats, Policy(random.Random(number)))
            assert final.winner
            assert clients[1].game(final.name) == clients[0].game(final.name)
    finally:
        for client in clients:
            client.close()
        for server in served:
            server.process.send_signal(signal.SIGTERM)
            assert server.process.wait(timeout=30) == 0


def test_a_postgres_database_needs_a_key_file_and_a_reachable_server(tmp_path: Path) -> None:
    def run(*arguments: str) -> subprocess.CompletedProcess[str]:
        command = serve_command("--port", "0", *arguments)
        return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60, check=False)

    no_key = run("--db", "postgresql://nobody@127.0.0.1:1/none")
    assert no_key.returncode == 2
    assert "a PostgreSQL --db needs --key-file" in no_key.stderr
    unreachable = run(
        "--db", "postgresql://nobody:secret@127.0.0.1:1/none", "--key-file", str(tmp_path / "k")
    )
    assert unreachable.returncode == 2
    assert unreachable.stderr.startswith("tavli serve: cannot use the database")
    assert "secret" not in unreachable.stderr
    assert "Traceback" not in unreachable.stderr


def test_a_watcher_hears_of_another_replicas_writes_without_polling(postgres_url: str) -> None:
    async def scenario() -> None:
        url = fresh_database(postgres_url)
        stores = [PostgresStore(url), PostgresStore(url)]
        key = ServerKey(b"k" * 32)
        writer, reader = (Tables(store, key, shared=True) for store in stores)
        loop = asyncio.get_running_loop()
        heard: list[tuple[str, int]] = []

        def hear(name: str, count: int) -> None:
            heard.append((name, count))
            reader.heard_of_write(name, count)

        stores[1].listen(lambda name, count: loop.call_soon_threadsafe(hear, name, count))
        # The listener connects in a thread of its own: games are made until it hears one.
        for _ in range(300):
            probe = await writer.create(RuleSet(), dice_mode="system", dice_seed="", request=None)
            await asyncio.sleep(0.1)
            if any(name == probe.game.name for name, _ in heard):
                break
        created = await writer.create(RuleSet(match_length=3), dice_mode="system", dice_seed="", request=None)
        name, tokens = created.game.name, created.tokens
        await reader.get(name)
        # A poll an hour long: only a notification can bring the watcher the writer's events.
        watch = reader.watch(name, 0, poll=3600.0)
        opened = await writer.act(name, tokens[0], "", None, lambda match, seat: match.roll(seat))
        seen = [await asyncio.wait_for(anext(watch), 30) for _ in range(opened.version)]
        assert [message.event for message in seen] == [
            convert.event_message(sequence, event) for sequence, event in enumerate(opened.events)
        ]
        for _ in range(300):  # the notification comes in its own time: the watch may be first
            if (name, opened.version) in heard:
                break
            await asyncio.sleep(0.1)
        assert (name, opened.version) in heard
        await watch.aclose()
        for store in stores:
            await asyncio.to_thread(store.close)

    asyncio.run(scenario())


def _health(channel: grpc.Channel) -> int:
    stub = health_pb2_grpc.HealthStub(channel)
    return stub.Check(
        health_pb2.HealthCheckRequest(service="tavli.v1.GamesService"), timeout=RPC_TIMEOUT
    ).status


def _wait_for_health(channel: grpc.Channel, status: int, within: float = 30.0) -> None:
    deadline = time.monotonic() + within
    while _health(channel) != status:
        assert time.monotonic() < deadline, (
            f"health never became {health_pb2.HealthCheckResponse.ServingStatus.Name(status)}"
        )
        time.sleep(0.1)


def test_a_database_restart_is_unavailable_meanwhile_and_the_replica_reconnects(tmp_path: Path) -> None:
    with own_postgres_server() as database:
        served = tavli_serve(
            "--db",
            fresh_database(database.url),
            "--key-file",
            str(tmp_path / "k"),
            stderr=tmp_path / "serve.log",
        )
        channel = grpc.insecure_channel(served.address)
        client = TavliClient(channel, timeout=RPC_TIMEOUT)
        try:
            seat_0, seat_1 = client.create_game(match_length=1, dice_seed="restart")
            seat_0.roll()
            before = client.game(seat_0.name)
            assert _health(channel) == health_pb2.HealthCheckResponse.SERVING

            database.stop("immediate")  # as a crash: no goodbye to the connections
            _wait_for_health(channel, health_pb2.HealthCheckResponse.NOT_SERVING)
            with pytest.raises(grpc.RpcError) as refused:
                client.games.GetGame(games_pb2.GetGameRequest(name=seat_0.name), timeout=RPC_TIMEOUT)
            code, reason, _ = error_info(refused.value)
            assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")

            database.start()
            _wait_for_health(channel, health_pb2.HealthCheckResponse.SERVING)
            assert client.game(seat_0.name) == before  # nothing acknowledged lost
            seats = (
                Seat(client, seat_0.name, 0, seat_0.token, before),
                Seat(client, seat_1.name, 1, seat_1.token, before),
            )
            assert play_to_end(seats, Policy(random.Random(1))).winner
        finally:
            client.close()
            stop_process(served.process)


def test_client_side_round_robin_spreads_calls_and_goes_on_when_a_replica_stops(
    postgres_url: str, tmp_path: Path
) -> None:
    url = fresh_database(postgres_url)
    served = replicas(url, tmp_path / "server.key", 2, tmp_path)
    client = TavliClient.connect([server.address for server in served], timeout=RPC_TIMEOUT)
    try:
        seat_0, seat_1 = client.create_game(match_length=3, dice_seed="round-robin")
        for _ in range(20):
            client.game(seat_0.name)
        served[0].process.send_signal(signal.SIGTERM)  # it reports NOT_SERVING, then stops
        assert served[0].process.wait(timeout=30) == 0
        seats = (
            Seat(client, seat_0.name, 0, seat_0.token, seat_0.last_seen),
            Seat(client, seat_1.name, 1, seat_1.token, seat_1.last_seen),
        )
        assert play_to_end(seats, Policy(random.Random(3))).winner
    finally:
        client.close()
        for server in served:
            stop_process(server.process)
    served_calls = [
        sum(
            "GamesService/GetGame" in line
            for line in (tmp_path / f"replica-{number}.log").read_text().splitlines()
        )
        for number in range(2)
    ]
    assert all(served_calls), served_calls  # both replicas served reads before one stopped


def test_round_robin_takes_only_ip_addresses_with_ports() -> None:
    with pytest.raises(ValueError, match="not an IP address and port"):
        TavliClient.connect(["tavli.example:50051", "127.0.0.1:1"])
    with pytest.raises(ValueError, match="all as IPv4 or all as IPv6"):
        TavliClient.connect(["127.0.0.1:1", "[::1]:2"])
