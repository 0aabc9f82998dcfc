"""What an operator relies on: health checking, reflection, one JSON log line per RPC without seat
tokens, TLS, and the message size limit.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tavli.clients.cli import main as tavli_main
from tavli.server.app import ServerConfig, create_server
from tavli.server.limits import FIELD_LIMITS, RequestLimits
from tavli.v1 import (
    board_pb2,
    games_service_pb2 as games_pb2,
    rules_service_pb2 as rules_pb2,
    rules_service_pb2_grpc,
)
from tests.server_play import RPC_TIMEOUT, connected, running_server, stop_process, tavli_serve

SERVICES = ("tavli.v1.RulesService", "tavli.v1.GamesService")
BG_START = "4HPwATDgc/ABMA"
BATCH = "tavli.v1.BatchValidatePlaysRequest.requests"


# --- health ---------------------------------------------------------------------------------------


def test_health_says_serving_for_the_server_and_each_service() -> None:
    with running_server() as server, grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", *SERVICES):
            answer = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=RPC_TIMEOUT)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING, service
        with pytest.raises(grpc.RpcError) as failure:
            health.Check(health_pb2.HealthCheckRequest(service="tavli.v1.NoSuchService"), timeout=RPC_TIMEOUT)
        assert failure.value.code() is grpc.StatusCode.NOT_FOUND


def test_stopping_turns_health_to_not_serving_then_closes_the_port() -> None:
    server = create_server(ServerConfig(host="127.0.0.1", port=0, db=None))
    stopper: threading.Thread | None = None
    try:
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            # A watch opened before the stop is a call in flight: the grace period lets it hear
            # the server go NOT_SERVING.
            statuses = health_pb2_grpc.HealthStub(channel).Watch(
                health_pb2.HealthCheckRequest(service=""), timeout=30
            )
            assert next(statuses).status == health_pb2.HealthCheckResponse.SERVING
            stopper = threading.Thread(target=server.stop, args=(2.0,))
            stopper.start()
            assert next(statuses).status == health_pb2.HealthCheckResponse.NOT_SERVING
            statuses.cancel()
            stopper.join(timeout=10)
            assert not stopper.is_alive()
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            with pytest.raises(grpc.RpcError) as failure:
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
            assert failure.value.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
    finally:
        if stopper is None:
            server.stop(0)


# --- reflection -----------------------------------------------------------------------------------


def reflect(channel: grpc.Channel, **question: str) -> reflection_pb2.ServerReflectionResponse:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    answers = stub.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(**question)]), timeout=RPC_TIMEOUT
    )
    return next(answers)


def test_reflection_lists_the_services_and_gives_their_files() -> None:
    with running_server() as server, grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        listed = {
            service.name for service in reflect(channel, list_services="").list_services_response.service
        }
        assert set(SERVICES) | {"grpc.health.v1.Health"} <= listed

        answer = reflect(channel, file_by_filename="tavli/v1/games_service.proto")
        files = [
            descriptor_pb2.FileDescriptorProto.FromString(blob)
            for blob in answer.file_descriptor_response.file_descriptor_proto
        ]
        games_file = next(file for file in files if file.name == "tavli/v1/games_service.proto")
        assert games_file.package == "tavli.v1"
        assert [service.name for service in games_file.service] == ["GamesService"]
        methods = {method.name for method in games_file.service[0].method}
        assert {"CreateGame", "PlayMove", "WatchGame", "ListGameEvents"} <= methods

        answer = reflect(channel, file_containing_symbol="tavli.v1.RulesService")
        names = {
            descriptor_pb2.FileDescriptorProto.FromString(blob).name
            for blob in answer.file_descriptor_response.file_descriptor_proto
        }
        assert "tavli/v1/rules_service.proto" in names


# --- the RPC log ----------------------------------------------------------------------------------


def test_every_rpc_logs_one_json_line_and_no_seat_token(tmp_path: Path) -> None:
    log_file = tmp_path / "serve.log"
    server = tavli_serve("--db", ":memory:", "--log-json", stderr=log_file)
    try:
        with connected(server.port) as client:
            seat_0, seat_1 = client.create_game(variant="backgammon", dice_seed="logged")
            seat_0.roll()
            client.game(seat_0.name)
            with pytest.raises(grpc.RpcError):
                client.games.RollDice(
                    games_pb2.RollDiceRequest(name=seat_0.name, seat_token="forged"), timeout=RPC_TIMEOUT
                )
            client.validate_play("backgammon", BG_START, (3, 1), "8/5 6/5")
            watch = client.games.WatchGame(games_pb2.WatchGameRequest(name=seat_0.name), timeout=RPC_TIMEOUT)
            next(watch)
            watch.cancel()
            made = {
                "/tavli.v1.GamesService/CreateGame": 1,
                "/tavli.v1.GamesService/RollDice": 2,
                "/tavli.v1.GamesService/GetGame": 1,
                "/tavli.v1.RulesService/ValidatePlay": 1,
                "/tavli.v1.GamesService/WatchGame": 1,
            }
        os.kill(server.process.pid, signal.SIGTERM)  # its log is complete once it has stopped
        assert server.process.wait(timeout=15) == 0
    finally:
        stop_process(server.process)

    text = log_file.read_text()
    for token in (seat_0.token, seat_1.token):
        assert token not in text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # every line is JSON
    rpc_lines = [line for line in lines if line.get("event") == "rpc"]
    counted: dict[str, int] = {}
    for line in rpc_lines:
        assert {"method", "code", "duration_ms", "game", "level", "timestamp"} <= set(line), line
        assert isinstance(line["duration_ms"], (int, float)) and line["duration_ms"] >= 0
        counted[line["method"]] = counted.get(line["method"], 0) + 1
    assert counted == made
    codes = sorted(line["code"] for line in rpc_lines if line["method"].endswith("RollDice"))
    assert codes == ["OK", "PERMISSION_DENIED"]
    for line in rpc_lines:
        if line["method"] in ("/tavli.v1.GamesService/RollDice", "/tavli.v1.GamesService/GetGame"):
            assert line["game"] == seat_0.name
    assert any(line.get("event") == "serving" for line in lines)


# --- TLS --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1, and its key."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed, and neither is the cryptography package")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            openssl,
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            str(key),
            "-out",
            str(cert),
            "-days",
            "1",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return cert, key


def test_a_tls_server_answers_a_secure_channel_and_refuses_a_plain_one(certificate) -> None:
    cert, key = certificate
    with running_server(tls_cert=cert, tls_key=key) as server:
        credentials = grpc.ssl_channel_credentials(root_certificates=cert.read_bytes())
        with grpc.secure_channel(f"localhost:{server.port}", credentials) as channel:
            rules = rules_service_pb2_grpc.RulesServiceStub(channel)
            answer = rules.ConvertPosition(
                rules_pb2.ConvertPositionRequest(
                    variant=board_pb2.VARIANT_BACKGAMMON, position=board_pb2.Position(position_id=BG_START)
                ),
                timeout=RPC_TIMEOUT,
            )
            assert answer.position_id == BG_START
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            with pytest.raises(grpc.RpcError) as failure:
                rules_service_pb2_grpc.RulesServiceStub(channel).ConvertPosition(
                    rules_pb2.ConvertPositionRequest(), timeout=3
                )
            assert failure.value.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


def test_tavli_serve_needs_both_the_certificate_and_the_key(certificate, capsys) -> None:
    cert, _ = certificate
    assert tavli_main(["serve", "--tls-cert", str(cert)]) == 2
    assert "--tls-key" in capsys.readouterr().err


# --- the message size limit -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_server() -> Iterator[rules_service_pb2_grpc.RulesServiceStub]:
    with (
        # Batches up to 2,000 items: the message size is the limit these tests are about.
        running_server(max_message_bytes=64 * 1024, limits=RequestLimits(fields={**FIELD_LIMITS, BATCH: 2_000}))
        as server,
        grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel,
    ):
        yield rules_service_pb2_grpc.RulesServiceStub(channel)


def batch_of(count: int) -> rules_pb2.BatchValidatePlaysRequest:
    item = rules_pb2.ValidatePlayRequest(
        variant=board_pb2.VARIANT_BACKGAMMON,
        position=board_pb2.Position(position_id=BG_START),
        dice=[3, 1],
        notation="8/5 6/5",
    )
    return rules_pb2.BatchValidatePlaysRequest(requests=[item] * count)


def test_a_request_within_the_limit_is_answered(small_server) -> None:
    answer = small_server.BatchValidatePlays(batch_of(500), timeout=RPC_TIMEOUT)
    assert len(answer.responses) == 500 and all(response.legal for response in answer.responses)


def test_a_request_over_the_limit_is_resource_exhausted(small_server) -> None:
    request = batch_of(2_000)
    assert request.ByteSize() > 64 * 1024
    with pytest.raises(grpc.RpcError) as failure:
        small_server.BatchValidatePlays(request, timeout=RPC_TIMEOUT)
    assert failure.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED


def test_an_answer_over_the_limit_is_resource_exhausted_not_internal(small_server) -> None:
    request = batch_of(1_800)  # within the limits, but its answer is not
    assert request.ByteSize() < 64 * 1024
    with pytest.raises(grpc.RpcError) as failure:
        small_server.BatchValidatePlays(request, timeout=RPC_TIMEOUT)
    assert failure.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
