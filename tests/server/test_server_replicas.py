"""Replicas behind nginx: three `tavli serve` processes on one PostgreSQL database, every call
through nginx's grpc_pass (server/deploy/nginx.conf), games played whole with every action, seats
and watchers landing on different replicas."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Self

import grpc
import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.v1 import games_service_pb2 as games_pb2
from tests.nginx import nginx_available, nginx_in_front
from tests.postgres import fresh_database
from tests.server_play import (
    RPC_TIMEOUT,
    Policy,
    all_events,
    play_to_end,
    play_until,
    stop_process,
    tavli_serve,
)

REPLICAS = 3


@pytest.fixture
def replicas(postgres_url: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    if not nginx_available():
        pytest.fail("nginx is needed: install Debian's nginx package (./run test does, as root)")
    url = fresh_database(postgres_url)
    served = [
        tavli_serve(
            "--db",
            url,
            "--key-file",
            str(tmp_path / "server.key"),
            "--log-json",
            stderr=tmp_path / f"replica-{n}.log",
        )
        for n in range(REPLICAS)
    ]
    try:
        with nginx_in_front([server.address for server in served]) as address:
            yield address, served, tmp_path
    finally:
        for server in served:
            stop_process(server.process)


def _served_by(folder: Path) -> dict[int, int]:
    """GamesService calls logged by each replica."""
    calls = {}
    for number in range(REPLICAS):
        lines = [
            json.loads(line)
            for line in (folder / f"replica-{number}.log").read_text().splitlines()
            if line.startswith("{")
        ]
        calls[number] = sum(
            1 for line in lines if line.get("event") == "rpc" and "GamesService" in line.get("method", "")
        )
    return calls


def test_whole_games_through_nginx_with_every_action_and_watchers_on_other_replicas(replicas) -> None:  # type: ignore[no-untyped-def]
    address, _, folder = replicas
    clients = [TavliClient(grpc.insecure_channel(address), timeout=RPC_TIMEOUT) for _ in range(3)]
    try:
        for number, variant in enumerate(["backgammon", "long-nardi"]):
            seats = _seated(clients, variant=variant, match_length=3, dice_seed=f"nginx-{number}")
            with Watcher(clients[2], seats[0].name) as watcher:
                final = play_to_end(seats, Policy(random.Random(number), double_rate=0.3))
                assert final.winner
                watcher.wait_for(final.event_count)
            assert watcher.events == all_events(clients[1], final.name)

        # Money play, for the actions a match does not have: a beaver, resignations rejected and accepted.
        seats = _seated(clients, match_length=0, beavers=True, dice_seed="nginx-money")
        with Watcher(clients[2], seats[0].name) as watcher:
            game = play_until(seats, Policy(random.Random(7)), games_pb2.PHASE_ROLLING)
            on, off = seats[game.turn - 1], seats[2 - game.turn]
            _fresh(on).double()
            assert _fresh(off).beaver().cube_value == 4
            _fresh(on).resign("single")
            _fresh(off).reject()
            _fresh(off).resign("gammon")
            final = _fresh(on).accept()
            assert final.finished_games[-1].ended_by == games_pb2.GAME_END_RESIGNATION
            watcher.wait_for(final.event_count)
        assert watcher.events == all_events(clients[1], final.name)
    finally:
        for client in clients:
            client.close()
    calls = _served_by(folder)
    assert all(count > 0 for count in calls.values()), calls  # every replica served games' calls


def _seated(clients: list[TavliClient], **options: object) -> tuple[Seat, Seat]:
    """A new game whose seats act through different connections (and so, through nginx, replicas)."""
    seat_0, seat_1 = clients[0].create_game(**options)  # type: ignore[arg-type]
    return (
        Seat(clients[0], seat_0.name, 0, seat_0.token, seat_0.last_seen),
        Seat(clients[1], seat_1.name, 1, seat_1.token, seat_1.last_seen),
    )


def _fresh(seat: Seat) -> Seat:
    seat.game()  # the other seat acted: read the game (and its etag) first
    return seat


class Watcher:
    """A WatchGame stream read on a thread of its own, until it is closed."""

    def __init__(self, client: TavliClient, name: str) -> None:
        self.events: list[games_pb2.GameEvent] = []
        self._stream = client.games.WatchGame(games_pb2.WatchGameRequest(name=name), timeout=300)
        self._thread = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exception: object) -> None:
        self._stream.cancel()
        self._thread.join(timeout=30)

    def _read(self) -> None:
        try:
            for answer in self._stream:
                self.events.append(answer.event)
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.CANCELLED:  # type: ignore[attr-defined]
                raise

    def wait_for(self, count: int, within: float = 60.0) -> None:
        deadline = time.monotonic() + within
        while len(self.events) < count:
            assert time.monotonic() < deadline, f"the watcher saw {len(self.events)} of {count} events"
            time.sleep(0.02)
        assert [event.sequence for event in self.events] == list(range(count))
