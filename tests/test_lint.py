"""The code keeps the promises pyproject.toml makes of it: ruff's rules with its line length, and
ruff's formatting (the ruff version is pinned with the test tools)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def ruff(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments, "--no-cache", "."],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_ruff_finds_nothing() -> None:
    checked = ruff("check")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_code_is_formatted_as_ruff_formats_it() -> None:
    checked = ruff("format", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
