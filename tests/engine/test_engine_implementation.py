"""Which engine code runs, and that every entry point says so: the compiled core unless
``TAVLI_PURE=1``, in this process and in the processes it starts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tavli.engine import core
from tests.server_play import REPO, stop_process, tavli_serve

COMPILED = "compiled core (Cython)"
PURE = "pure Python (TAVLI_PURE=1)"


def implementation_in(environment: dict[str, str]) -> str:
    command = [sys.executable, "-c", "from tavli.engine import core; print(core.IMPLEMENTATION)"]
    return subprocess.run(
        command, env=environment, capture_output=True, text=True, check=True, cwd=REPO
    ).stdout.strip()


def test_the_compiled_core_runs_unless_the_pure_engine_is_asked_for() -> None:
    without = {key: value for key, value in os.environ.items() if key != "TAVLI_PURE"}
    assert implementation_in(without) == COMPILED  # the project's install builds it
    assert implementation_in({**without, "TAVLI_PURE": "1"}) == PURE
    assert (core.compiled is None) == (os.environ.get("TAVLI_PURE") == "1")
    assert core.IMPLEMENTATION == (PURE if core.compiled is None else COMPILED)


def test_tavli_version_names_the_engine_in_use() -> None:
    command = [sys.executable, "-m", "tavli.clients.cli", "--version"]
    printed = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert printed.startswith("tavli ") and printed.strip().endswith(f"engine: {core.IMPLEMENTATION}")


def test_tavli_serve_logs_the_engine_in_use(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    served = tavli_serve("--db", ":memory:", stderr=log)
    try:
        serving = [json.loads(line) for line in log.read_text().splitlines() if '"serving"' in line]
    finally:
        stop_process(served.process)
    assert [line["engine"] for line in serving] == [core.IMPLEMENTATION]
