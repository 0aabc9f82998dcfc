"""Durability: `tavli serve` on a SQLite file, killed with SIGKILL mid-game, restarted on the same file,
keeps every acknowledged action; and on SIGTERM it shuts down gracefully.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import time
import uuid
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.engine.dice import verify_throws
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import (
    MOST_ACTIONS,
    RPC_TIMEOUT,
    Policy,
    all_events,
    connected,
    free_port,
    play_actions,
    play_until,
    stop_process,
    tavli_serve,
)


def seats_on(clients: tuple[TavliClient, TavliClient], **options: object) -> tuple[Seat, Seat]:
    seat_0, seat_1 = clients[0].create_game(**options)  # type: ignore[arg-type]
    return seat_0, Seat(clients[1], seat_1.name, 1, seat_1.token, seat_1.last_seen)


@pytest.mark.slow
def test_a_killed_server_restarts_with_every_acknowledged_action(tmp_path: Path) -> None:
    database = tmp_path / "tavli.sqlite3"
    port = free_port()
    server = tavli_serve("--db", str(database), port=port, stderr=tmp_path / "first.log")
    try:
        with connected(port) as first, connected(port) as second:
            clients = (first, second)
            games = {
                "seeded backgammon": seats_on(
                    clients, variant="backgammon", match_length=1, dice_seed="durable"
                ),
                "long nardi": seats_on(clients, variant="long-nardi", match_length=1),
                "verifiable backgammon": seats_on(
                    clients, variant="backgammon", match_length=2, verifiable_dice=True
                ),
                "money with the cube": seats_on(clients, variant="backgammon"),
            }
            policy = Policy(random.Random(14), double_rate=0.2)
            acknowledged: dict[str, games_pb2.Game] = {}
            for number, (label, seats) in enumerate(games.items()):
                play_actions(seats, policy, 10 + 7 * number)
                # Stop with dice on the table, so that the rolled dice must survive too.
                acknowledged[label] = play_until(seats, policy, games_pb2.PHASE_PLAYING)
            # One more acknowledged action, with a request_id to retry after the restart.
            label = "money with the cube"
            seats = games[label]
            mover = seats[0] if acknowledged[label].turn == games_pb2.SEAT_0 else seats[1]
            retried = games_pb2.PlayMoveRequest(
                name=mover.name,
                seat_token=mover.token,
                notation=mover.legal_actions().plays[0].notation,
                request_id=str(uuid.uuid4()),
            )
            answer = first.games.PlayMove(retried, timeout=RPC_TIMEOUT)
            acknowledged[label] = answer.game

            os.kill(server.process.pid, signal.SIGKILL)
            server.process.wait(timeout=10)

            # Restarted keeping one game in memory, so that playing them in turn reloads each.
            server = tavli_serve(
                "--db", str(database), "--games-in-memory", "1", port=port, stderr=tmp_path / "second.log"
            )
            # The same connections reconnect by themselves to the restarted server.
            for label, seats in games.items():
                assert first.game(seats[0].name) == acknowledged[label], label
                assert second.game(seats[0].name) == acknowledged[label], label
            assert first.games.PlayMove(retried, timeout=RPC_TIMEOUT) == answer
            assert first.game(mover.name).event_count == answer.game.event_count

            # Play goes on, the games taking turns of ten actions, until every match is over
            # (money play never ends by itself: it plays four turns). Only one game fits in
            # memory, so each turn loads its game from the database again.
            states = {label: seats[0].game() for label, seats in games.items()}
            money_turns = 0
            for _ in range(MOST_ACTIONS // 10):
                waiting = [
                    label for label, game in states.items() if game.phase != games_pb2.PHASE_MATCH_OVER
                ]
                if waiting == ["money with the cube"] and money_turns >= 4:
                    break
                for label in waiting:
                    money_turns += label == "money with the cube"
                    states[label] = play_actions(games[label], policy, 10)
            for label, game in states.items():
                assert game.event_count > acknowledged[label].event_count
                assert game == first.game(game.name), label
                if label != "money with the cube":
                    assert game.phase == games_pb2.PHASE_MATCH_OVER, label

            # The verifiable game's seeds, kept across the restart, still open its commitments.
            verifiable = all_events(first, games["verifiable backgammon"][0].name)
            commitments = {
                e.game_number: e.dice_commitment
                for e in verifiable
                if e.kind == games_pb2.EVENT_KIND_DICE_COMMITTED
            }
            seeds = {
                e.game_number: e.dice_seed for e in verifiable if e.kind == games_pb2.EVENT_KIND_SEED_REVEALED
            }
            assert seeds and sorted(seeds) == sorted(commitments)
            for number, seed in seeds.items():
                assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitments[number]
            first_game_throws = [(throw.seat0_die, throw.seat1_die) for throw in verifiable[1].opening_throws]
            assert first_game_throws and verify_throws(
                bytes.fromhex(seeds[1]), commitments[1], first_game_throws
            )
    finally:
        stop_process(server.process)


def test_sigterm_shuts_the_server_down_gracefully_within_the_grace_period(tmp_path: Path) -> None:
    database = tmp_path / "tavli.sqlite3"
    server = tavli_serve("--db", str(database), stderr=tmp_path / "serve.log")
    try:
        with connected(server.port) as client:
            seat_0, _ = client.create_game(variant="backgammon", dice_seed="term")
            acknowledged = seat_0.roll()
            # A call in flight when the signal comes: a watcher, which the grace period lets run.
            watch = client.games.WatchGame(games_pb2.WatchGameRequest(name=seat_0.name), timeout=30)
            assert next(watch).event.sequence == 0
            started = time.monotonic()
            os.kill(server.process.pid, signal.SIGTERM)
            assert server.process.wait(timeout=15) == 0
            took = time.monotonic() - started
            assert took < 5.0 + 3.0, f"took {took:.1f} s to stop; the grace period is 5 s"
            try:
                list(watch)
            except grpc.RpcError as error:
                assert error.code() in (grpc.StatusCode.CANCELLED, grpc.StatusCode.UNAVAILABLE)
        # Standard error is not a terminal: the log is JSON lines, and it tells the shutdown.
        lines = [
            json.loads(line) for line in (tmp_path / "serve.log").read_text().splitlines() if line.strip()
        ]
        events = [line["event"] for line in lines]
        assert events.index("stopping") < events.index("stopped")
        assert next(line for line in lines if line["event"] == "stopping")["grace_seconds"] == 5.0

        server = tavli_serve("--db", str(database), stderr=tmp_path / "again.log")
        with connected(server.port) as client:
            assert client.game(seat_0.name) == acknowledged
    finally:
        stop_process(server.process)
