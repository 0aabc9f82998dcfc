"""engine/ is a pure library: no gRPC, no protobuf, nothing of the server."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

# The same code on either engine (it reads the engine's source): run once.
pytestmark = pytest.mark.no_core

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = ("grpc", "google", "structlog", "tavli.server", "tavli.clients", "tavli.v1")


def forbidden(name: str) -> bool:
    return any(name == package or name.startswith(package + ".") for package in FORBIDDEN)


def test_engine_imports_nothing_of_the_service() -> None:
    offending = []
    for source in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            offending += [f"{source.name}: {name}" for name in names if forbidden(name)]
    assert offending == []
    assert len(list(ENGINE.rglob("*.py"))) >= 5
