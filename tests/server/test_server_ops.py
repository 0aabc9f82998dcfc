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
from grpc_reflection.v1alpha import reflection_pb2

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

SERVICES = (
    "tavli.v1.RulesService",
    "tavli.v1.AnalysisService",
    "tavli.v1.GamesService",
    "tavli.v1.BotsService",
    "tavli.v1.LadderService",
)
REPO = Path(__file__).resolve().parents[2]
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

REFLECTION_SERVICES = ("grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection")
RULES_FILE = REPO / "proto" / "tavli" / "v1" / "rules_service.proto"


@pytest.fixture(scope="module")
def reflection_port() -> Iterator[int]:
    with running_server() as server:
        yield server.port


def reflect(
    channel: grpc.Channel, *questions: reflection_pb2.ServerReflectionRequest, service: str
) -> list[reflection_pb2.ServerReflectionResponse]:
    """The answers to ``questions``, asked on one stream of ``service`` (either version: their
    messages are the same)."""
    ask = channel.stream_stream(
        f"/{service}/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    return list(ask(iter(questions), timeout=RPC_TIMEOUT))


def ask(port: int, service: str, **question: str) -> reflection_pb2.ServerReflectionResponse:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        (answer,) = reflect(channel, reflection_pb2.ServerReflectionRequest(**question), service=service)
    return answer


def files_of(answer: reflection_pb2.ServerReflectionResponse) -> list[descriptor_pb2.FileDescriptorProto]:
    assert answer.WhichOneof("message_response") == "file_descriptor_response", answer
    blobs = answer.file_descriptor_response.file_descriptor_proto
    return [descriptor_pb2.FileDescriptorProto.FromString(blob) for blob in blobs]


def comment_above(source: Path, declaration: str) -> str:
    """The ``//`` lines just above the line that starts with ``declaration``, as protoc keeps
    them (without the slashes, each line with its newline)."""
    lines = source.read_text().splitlines()
    at = next(index for index, line in enumerate(lines) if line.strip().startswith(declaration))
    comment: list[str] = []
    while lines[at - 1 - len(comment)].strip().startswith("//"):
        comment.insert(0, lines[at - 1 - len(comment)].strip().removeprefix("//") + "\n")
    return "".join(comment)


@pytest.mark.parametrize("service", REFLECTION_SERVICES)
def test_reflection_lists_every_service_under_both_versions(reflection_port: int, service: str) -> None:
    listed = {
        entry.name for entry in ask(reflection_port, service, list_services="").list_services_response.service
    }
    assert listed == {*SERVICES, "grpc.health.v1.Health", *REFLECTION_SERVICES}


@pytest.mark.parametrize("service", REFLECTION_SERVICES)
def test_reflection_gives_a_file_with_its_dependencies(reflection_port: int, service: str) -> None:
    files = files_of(ask(reflection_port, service, file_by_filename="tavli/v1/games_service.proto"))
    games_file = files[0]
    assert games_file.name == "tavli/v1/games_service.proto" and games_file.package == "tavli.v1"
    assert [service.name for service in games_file.service] == ["GamesService"]
    assert {"CreateGame", "PlayMove", "WatchGame", "ListGameEvents"} <= {
        m.name for m in games_file.service[0].method
    }
    assert set(games_file.dependency) <= {file.name for file in files}  # every dependency comes along
    assert "google/protobuf/timestamp.proto" in {file.name for file in files}


@pytest.mark.parametrize("service", REFLECTION_SERVICES)
@pytest.mark.parametrize(
    ("symbol", "file_name"),
    [
        ("tavli.v1.RulesService", "tavli/v1/rules_service.proto"),
        ("tavli.v1.RulesService.ListLegalPlays", "tavli/v1/rules_service.proto"),  # a method
        ("tavli.v1.GamesService.WatchGame", "tavli/v1/games_service.proto"),
        ("tavli.v1.ValidatePlayRequest", "tavli/v1/rules_service.proto"),
        ("tavli.v1.ValidatePlayRequest.notation", "tavli/v1/rules_service.proto"),  # a field
        ("tavli.v1.ValidatePlayRequest.play", "tavli/v1/rules_service.proto"),  # a oneof
        ("tavli.v1.SeatAction.PlayMove", "tavli/v1/games_service.proto"),  # a nested message
        ("tavli.v1.Variant", "tavli/v1/board.proto"),  # an enum
        ("tavli.v1.VARIANT_BACKGAMMON", "tavli/v1/board.proto"),  # its value, as protobuf names it
        ("tavli.v1.Variant.VARIANT_BACKGAMMON", "tavli/v1/board.proto"),  # as some tools name it
        ("grpc.health.v1.Health.Check", "grpc_health/v1/health.proto"),
        ("grpc.reflection.v1.ServerReflection", "grpc/reflection/v1/reflection.proto"),
        ("grpc.reflection.v1alpha.ServerReflection", "grpc_reflection/v1alpha/reflection.proto"),
    ],
)
def test_reflection_finds_the_file_declaring_a_symbol(
    reflection_port: int, service: str, symbol: str, file_name: str
) -> None:
    assert files_of(ask(reflection_port, service, file_containing_symbol=symbol))[0].name == file_name


@pytest.mark.parametrize("service", REFLECTION_SERVICES)
def test_reflection_serves_the_comments_of_the_proto_files(reflection_port: int, service: str) -> None:
    rules_file = files_of(
        ask(reflection_port, service, file_containing_symbol="tavli.v1.RulesService.ListLegalPlays")
    )[0]
    methods = [method.name for method in rules_file.service[0].method]
    path = [6, 0, 2, methods.index("ListLegalPlays")]  # service 0, its method ListLegalPlays
    (location,) = [location for location in rules_file.source_code_info.location if location.path == path]
    expected = comment_above(RULES_FILE, "rpc ListLegalPlays(")
    assert expected.startswith(" Lists every legal play")
    assert location.leading_comments == expected


def test_the_v1_reflection_file_declares_the_v1_service(reflection_port: int) -> None:
    (v1_file,) = files_of(
        ask(reflection_port, REFLECTION_SERVICES[0], file_containing_symbol=REFLECTION_SERVICES[0])
    )
    assert v1_file.package == "grpc.reflection.v1"
    (method,) = v1_file.service[0].method
    assert (method.input_type, method.output_type) == (
        ".grpc.reflection.v1.ServerReflectionRequest",
        ".grpc.reflection.v1.ServerReflectionResponse",
    )
    assert {message.name for message in v1_file.message_type} >= {"ServerReflectionRequest", "ErrorResponse"}


@pytest.mark.parametrize("service", REFLECTION_SERVICES)
def test_unknown_names_are_not_found_answers_and_the_stream_goes_on(
    reflection_port: int, service: str
) -> None:
    Request = reflection_pb2.ServerReflectionRequest
    questions = [
        Request(file_containing_symbol="tavli.v1.NoSuchThing"),
        Request(file_containing_symbol="tavli.v1.RulesService.NoSuchMethod"),
        Request(file_containing_symbol=""),
        Request(file_by_filename="tavli/v1/no_such.proto"),
        Request(file_by_filename="../../etc/passwd"),
        Request(all_extension_numbers_of_type="tavli.v1.NoSuchThing"),
        Request(
            file_containing_extension=reflection_pb2.ExtensionRequest(
                containing_type="tavli.v1.Play", extension_number=7
            )
        ),
        Request(),  # no question at all
        Request(file_containing_symbol="tavli.v1.RulesService.ListLegalPlays"),
    ]
    with grpc.insecure_channel(f"127.0.0.1:{reflection_port}") as channel:
        answers = reflect(channel, *questions, service=service)
    assert len(answers) == len(questions)
    *refusals, found = answers
    codes = [answer.error_response.error_code for answer in refusals]
    assert codes == [grpc.StatusCode.NOT_FOUND.value[0]] * 7 + [grpc.StatusCode.INVALID_ARGUMENT.value[0]]
    assert all(
        answer.original_request == question for answer, question in zip(answers, questions, strict=True)
    )
    assert "tavli.v1.NoSuchThing" in refusals[0].error_response.error_message
    assert files_of(found)[0].name == "tavli/v1/rules_service.proto"


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
            join = games_pb2.JoinSeat(name=seat_1.name, seat_token=seat_1.token)
            seat_stream = client.games.PlaySeat(
                iter([games_pb2.PlaySeatRequest(join=join)]), timeout=RPC_TIMEOUT
            )
            next(seat_stream)  # the seat's view on joining
            seat_stream.cancel()
            made = {
                "/tavli.v1.GamesService/CreateGame": 1,
                "/tavli.v1.GamesService/RollDice": 2,
                "/tavli.v1.GamesService/GetGame": 1,
                "/tavli.v1.RulesService/ValidatePlay": 1,
                "/tavli.v1.GamesService/WatchGame": 1,
                "/tavli.v1.GamesService/PlaySeat": 1,
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
        assert {"method", "status", "duration_ms", "game", "level", "timestamp"} <= set(line), line
        assert isinstance(line["duration_ms"], (int, float)) and line["duration_ms"] >= 0
        counted[line["method"]] = counted.get(line["method"], 0) + 1
    assert counted.pop("/grpc.health.v1.Health/Check", 0) >= 1  # the wait for the server, logged too
    assert counted == made
    statuses = sorted(line["status"] for line in rpc_lines if line["method"].endswith("RollDice"))
    assert statuses == ["OK", "PERMISSION_DENIED"]
    for line in rpc_lines:
        if line["method"].rpartition("/")[2] in ("RollDice", "GetGame", "WatchGame", "PlaySeat"):
            assert line["game"] == seat_0.name, line  # a seat stream's, from its join
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
        running_server(
            max_message_bytes=64 * 1024, limits=RequestLimits(fields={**FIELD_LIMITS, BATCH: 2_000})
        ) as server,
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
