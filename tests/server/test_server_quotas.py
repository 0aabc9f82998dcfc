"""Each client's quotas, end to end: live games, calls a second, watches of one game; each refusal
RESOURCE_EXHAUSTED with the limit named, and health checks never counted."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavli.clients.client import TavliServerError
from tavli.server.quotas import QuotaLimits
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import RPC_TIMEOUT, connected, error_info, running_server


def test_a_client_with_as_many_live_games_as_allowed_creates_another_once_one_is_over() -> None:
    with (
        running_server(quotas=QuotaLimits(live_games_per_client=3)) as server,
        connected(server.port) as client,
    ):
        games = [client.create_game(variant="backgammon", match_length=1) for _ in range(3)]
        with pytest.raises(TavliServerError) as refused:
            client.create_game(variant="backgammon", match_length=1)
        assert (refused.value.status, refused.value.reason) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "TOO_MANY_GAMES",
        )
        assert "3 live games" in str(refused.value)
        # The first game ends (a resignation accepted ends a 1-point match): room for one more.
        seat_0, seat_1 = games[0]
        seat_0.roll()
        seat_0.resign("single")
        seat_1.game()  # the accept is decided on the state with the offer
        seat_1.accept()
        assert seat_1.game().phase == games_pb2.PHASE_MATCH_OVER
        client.create_game(variant="backgammon", match_length=1)


def test_a_client_past_its_calls_a_second_is_refused_and_health_still_answers() -> None:
    limits = QuotaLimits(calls_per_second=1.0, call_burst=5)
    with running_server(quotas=limits) as server, connected(server.port) as client:
        refusals = []
        for _ in range(10):
            try:
                client.game("games/none")
            except TavliServerError as error:
                refusals.append(error.reason)
        assert refusals[:5] == ["GAME_NOT_FOUND"] * 5 and "RATE_LIMITED" in refusals[5:]
        health = health_pb2_grpc.HealthStub(client.channel)
        for _ in range(20):
            answer = health.Check(health_pb2.HealthCheckRequest(), timeout=RPC_TIMEOUT)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_watches_of_one_game_are_bounded() -> None:
    with running_server(quotas=QuotaLimits(streams_per_game=2)) as server, connected(server.port) as client:
        # Verifiable dice: the game's log starts with the commitment, so each watch has an event.
        seat_0, _ = client.create_game(variant="backgammon", verifiable_dice=True)
        request = games_pb2.WatchGameRequest(name=seat_0.name)
        open_watches = [client.games.WatchGame(request, timeout=30) for _ in range(2)]
        for watch in open_watches:
            assert next(watch).event.kind == games_pb2.EVENT_KIND_DICE_COMMITTED
        third = client.games.WatchGame(request, timeout=RPC_TIMEOUT)
        with pytest.raises(grpc.RpcError) as refused:
            next(third)
        assert error_info(refused.value) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS", "tavli")
        for watch in open_watches:
            watch.cancel()


class _Peer:
    def __init__(self, peer: str, metadata: tuple[tuple[str, str], ...] = ()) -> None:
        self._peer = peer
        self._metadata = metadata

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return self._metadata

    def peer(self) -> str:
        return self._peer


def test_a_client_is_its_address_and_an_ipv6_client_its_64_block() -> None:
    from tavli.server.admission import client_of

    assert client_of(_Peer("ipv4:127.0.0.1:50432")) == "127.0.0.1"  # type: ignore[arg-type]
    assert client_of(_Peer("ipv6:[2001:db8:1:2::5]:443")) == "2001:db8:1:2::/64"  # type: ignore[arg-type]
    assert client_of(_Peer("ipv6:[2001:db8:1:2:ffff::9]:1")) == "2001:db8:1:2::/64"  # type: ignore[arg-type]
    assert client_of(_Peer("ipv6:[::1]:50051")) == "::/64"  # type: ignore[arg-type]
    assert client_of(_Peer("unix:/tmp/socket")) == "unix:/tmp/socket"  # type: ignore[arg-type]
    # a call the web port passed on, over the process's own socket, is the browser's
    behind_web = (("tavli-web-client", "198.51.100.4"),)
    assert client_of(_Peer("unix:/tmp/socket", behind_web)) == "198.51.100.4"  # type: ignore[arg-type]
    from_v6 = (("tavli-web-client", "2001:db8:1:2::5"),)
    assert client_of(_Peer("unix:/tmp/socket", from_v6)) == "2001:db8:1:2::/64"  # type: ignore[arg-type]
    # the same header from anywhere else is nobody's word
    assert client_of(_Peer("ipv4:127.0.0.1:50432", behind_web)) == "127.0.0.1"  # type: ignore[arg-type]
