"""tavli.engine type-checks under mypy --strict (its py.typed promises typed code to its users)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_engine_passes_mypy_strict(tmp_path: Path) -> None:
    # mypy does not follow the import hook of an editable install, so it checks the package as it
    # installs: tavli/ from proto/tavli, with tavli/engine being engine/.
    package = tmp_path / "tavli"
    package.mkdir()
    (package / "__init__.py").write_bytes((REPO / "proto" / "tavli" / "__init__.py").read_bytes())
    (package / "engine").symlink_to(REPO / "engine", target_is_directory=True)
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", "tavli.engine"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success" in checked.stdout
