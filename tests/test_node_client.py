"""The Node.js client (clients/node) plays a game of backgammon and one of long nardi against the server.

It needs Node.js and the client's packages: ``./run test`` installs them (``npm ci`` in
clients/node); by hand, run ``npm ci`` in clients/node first.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from tavli.server.app import Running, ServerConfig, create_server
from tavli.v1 import games_service_pb2 as games_pb2, games_service_pb2_grpc

REPO = Path(__file__).resolve().parents[1]
NODE_CLIENT = REPO / "clients" / "node"
SETUP_HINT = "run ./run test (it installs them), or `npm ci` in clients/node"


def node_executable() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js (node) is not on PATH: the Node client's test needs Node.js 20 or later")
    if not (NODE_CLIENT / "node_modules" / "@grpc" / "grpc-js").is_dir():
        pytest.fail(f"the Node client's packages are not installed in {NODE_CLIENT / 'node_modules'}: {SETUP_HINT}")
    return node


@pytest.fixture
def server() -> Iterator[Running]:
    running = create_server(ServerConfig(host="127.0.0.1", port=0, db=None, allow_seeded_dice=True))
    try:
        yield running
    finally:
        running.stop(None)


def test_node_client_plays_both_variants_to_the_end(server: Running) -> None:
    node = node_executable()
    address = f"127.0.0.1:{server.port}"
    try:
        completed = subprocess.run(
            [node, "play.js", address, "--seed", "pytest"],
            cwd=NODE_CLIENT,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"play.js did not finish in {error.timeout} s; it printed:\n{error.stdout}\n{error.stderr}")
    output = f"stdout:\n{completed.stdout}\nstderr:\n{completed.stderr}"
    assert completed.returncode == 0, output

    # play.js names each game it played; the server must show both over.
    names = re.findall(r"^(backgammon|long nardi) .*?: (games/\S+) won by seat [01]:", completed.stdout, re.M)
    assert [variant for variant, _ in names] == ["backgammon", "long nardi"], output
    with grpc.insecure_channel(address) as channel:
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        backgammon = games.GetGame(games_pb2.GetGameRequest(name=names[0][1]), timeout=10).game
        long_nardi = games.GetGame(games_pb2.GetGameRequest(name=names[1][1]), timeout=10).game

    # The money game: its first game finished, with a winner and at least a point.
    assert len(backgammon.finished_games) == 1, backgammon
    first = backgammon.finished_games[0]
    assert first.winner in (games_pb2.SEAT_0, games_pb2.SEAT_1)
    assert first.points >= 1 and sum(backgammon.score) == first.points

    # The 1-point match: over, won by the winner of its only game.
    assert long_nardi.phase == games_pb2.PHASE_MATCH_OVER, long_nardi
    assert len(long_nardi.finished_games) == 1
    assert long_nardi.winner == long_nardi.finished_games[0].winner != games_pb2.SEAT_UNSPECIFIED
    assert sorted(long_nardi.score) == [0, 1]
