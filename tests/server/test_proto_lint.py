"""The API's .proto files pass buf lint (proto/buf.yaml: STANDARD and COMMENTS).

buf comes from clients/node's devDependencies: ``./run test`` installs it (``npm ci`` in
clients/node); by hand, run ``npm ci`` in clients/node first.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
BUF = REPO / "clients" / "node" / "node_modules" / ".bin" / "buf"


def buf() -> str:
    if not BUF.exists():
        pytest.fail(
            f"buf is not installed at {BUF}: run ./run test (it installs it), or `npm ci` in clients/node"
        )
    return str(BUF)


def test_buf_lint_is_clean() -> None:
    completed = subprocess.run(
        [buf(), "lint", "proto"], cwd=REPO, capture_output=True, text=True, check=False, timeout=120
    )
    assert completed.returncode == 0, f"buf lint proto:\n{completed.stdout}{completed.stderr}"
    assert completed.stdout.strip() == "" and completed.stderr.strip() == ""


# buf breaking (proto/buf.yaml: FILE) has no baseline yet: nothing has been released. Once the
# first version is released (tagged), a test here will compare proto/ against it, e.g.
# `buf breaking proto --against '.git#tag=v0.1.0,subdir=proto'`, so that a change breaking the
# wire or generated-code compatibility of the released API fails.
