"""`tavli serve --workers N`: processes sharing one port keep every game correct through the store."""

from __future__ import annotations

import json
import random
import signal
import time
from pathlib import Path

import grpc

from tavli.clients.client import Seat, TavliClient
from tests.server.test_server_fair_checks import over_the_small_bound
from tests.server_play import Policy, play_to_end, tavli_serve


def _channels(address: str, count: int) -> list[TavliClient]:
    # A channel of its own each (no shared subchannel), so the kernel spreads them over the workers.
    return [
        TavliClient(
            grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]), timeout=20
        )
        for _ in range(count)
    ]


def _wait_until_both_serve(log: Path, within: float = 15.0) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
        if len({line["pid"] for line in lines if line.get("event") == "serving"}) == 2:
            return
        time.sleep(0.05)
    raise AssertionError("the second worker did not start serving")


def test_workers_share_games_through_the_store(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    served = tavli_serve("--workers", "2", "--db", str(tmp_path / "games.sqlite3"), "--log-json", stderr=log)
    _wait_until_both_serve(log)  # the first to listen answered; the channels are spread over both
    clients = _channels(served.address, 12)  # all on one worker: a chance of 1 in 2,048
    try:
        names = []
        for number in range(3):
            creator = clients[number]
            seat_0, seat_1 = creator.create_game(
                variant="backgammon", match_length=3, dice_seed=f"workers-{number}"
            )
            # Each seat acts through a channel of its own, likely served by the other worker.
            seats = (
                Seat(clients[(number + 1) % 6], seat_0.name, 0, seat_0.token, seat_0.last_seen),
                Seat(clients[(number + 2) % 6], seat_1.name, 1, seat_1.token, seat_1.last_seen),
            )
            final = play_to_end(seats, Policy(random.Random(number)))
            assert final.winner
            names.append(final.name)
        for name in names:
            seen = {
                (game.etag, tuple(game.score), game.phase)
                for game in (client.game(name) for client in clients)
            }
            assert len(seen) == 1
    finally:
        for client in clients:
            client.close()
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(timeout=30) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len({line["pid"] for line in lines if line.get("event") == "serving"}) == 2
    # The games' calls were served by both workers.
    served_by = {
        line["worker"] for line in lines if line.get("event") == "rpc" and "GamesService" in line["method"]
    }
    assert len(served_by) == 2


def test_each_worker_checks_and_imports_records_in_heavy_processes_of_its_own(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    served = tavli_serve("--workers", "2", "--db", str(tmp_path / "games.sqlite3"), "--log-json", stderr=log)
    _wait_until_both_serve(log)
    clients = _channels(served.address, 12)
    record = over_the_small_bound()  # checked in the heavy processes, not at once
    try:
        reports = [client.validate_match(record) for client in clients]
        imported = [client.import_match(record)[0].name for client in clients[:4]]
        assert {client.game(name).name for client in clients for name in imported} == set(imported)
    finally:
        for client in clients:
            client.close()
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(timeout=30) == 0
    assert all(report.games == 20 and not report.problems for report in reports)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    checked_by = {line["worker"] for line in lines if line.get("method", "").endswith("/ValidateMatch")}
    assert len(checked_by) == 2
    assert not [line for line in lines if line.get("level") == "error"]
