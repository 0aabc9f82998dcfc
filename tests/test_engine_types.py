"""engine/ type-checks under mypy --strict (its py.typed promises typed code to its users)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_engine_passes_mypy_strict() -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "engine"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success" in checked.stdout
