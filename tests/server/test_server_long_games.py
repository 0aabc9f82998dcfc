"""A long imported money session served through the server: after a restart it is loaded from its
snapshot, not folded from its first event, and imports leave the server answering others."""

from __future__ import annotations

import threading
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavli.clients.client import TavliClient
from tavli.engine.matfile import export_mat
from tavli.engine.rules import RuleSet
from tests.games import bot_match
from tests.server.test_game_history import FoldCounter
from tests.server_play import RPC_TIMEOUT, connected, running_server

MONEY = RuleSet()
IMPORT_TIMEOUT = 300.0


@pytest.fixture(scope="module")
def long_session() -> str:
    """A money session of 100 games as a .mat record: about 18,000 events, 240 KB."""
    return export_mat(bot_match(MONEY, seed=11, games=100, double=0.0))


@pytest.mark.slow
def test_a_long_session_is_loaded_after_a_restart_from_its_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, long_session: str
) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as running, connected(running.port) as client:
        seat_0, _ = client.import_match(long_session)
        imported = client.game(seat_0.name)
    assert imported.event_count > 15_000

    counter = FoldCounter(monkeypatch)
    with running_server(db=database) as running, connected(running.port) as client:
        loaded = client.game(seat_0.name)
        kept = running.store.load(seat_0.name)
    assert kept is not None and kept[0].snapshot is not None
    assert counter.folded == imported.event_count - kept[0].snapshot.at <= 2
    assert loaded == imported


@pytest.mark.slow
@pytest.mark.alone
def test_health_is_answered_all_through_concurrent_imports_of_long_sessions(long_session: str) -> None:
    with running_server() as running:
        # Four long imports at once take longer than a call is usually given on this machine.
        client = TavliClient.connect(f"127.0.0.1:{running.port}", timeout=IMPORT_TIMEOUT)
        imported: list[str] = []
        importers = [
            threading.Thread(target=lambda: imported.append(client.import_match(long_session)[0].name))
            for _ in range(4)
        ]
        for importer in importers:
            importer.start()
        answered = 0
        with grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            while any(importer.is_alive() for importer in importers):
                status = health.Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT).status
                assert status == health_pb2.HealthCheckResponse.SERVING
                answered += 1
        for importer in importers:
            importer.join()
        client.close()
        assert len(imported) == 4
        # Health is answered while the imports run, not after them: how fast is the benchmarks' to say.
        assert answered >= 20, f"{answered} health checks answered during four imports"
