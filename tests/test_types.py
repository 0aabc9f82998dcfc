"""tavli type-checks under mypy --strict, every package of it (its py.typed promises typed code to
its users), with pyproject.toml's settings: the generated API code is checked as protoc writes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = {"engine": "engine", "server": "server", "clients": "clients", "v1": "proto/tavli/v1"}
"""Each subpackage of tavli, by the folder it is installed from."""


@pytest.mark.slow
def test_every_package_passes_mypy_strict(tmp_path: Path) -> None:
    # mypy does not follow the import hook of an editable install, so it checks the package as it
    # installs: tavli/ from proto/tavli, with tavli/engine being engine/ and so on.
    package = tmp_path / "tavli"
    package.mkdir()
    (package / "__init__.py").write_bytes((REPO / "proto" / "tavli" / "__init__.py").read_bytes())
    for name, folder in PACKAGES.items():
        (package / name).symlink_to(REPO / folder, target_is_directory=True)
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(REPO / "pyproject.toml"),
        "--no-incremental",
    ]
    for name in PACKAGES.keys() - {"v1"}:
        command += ["-p", f"tavli.{name}"]
    checked = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "Success" in checked.stdout
