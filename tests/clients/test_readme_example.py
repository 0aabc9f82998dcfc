"""The README's example of both seats played from one script runs as it is written."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.server_play import REPO, running_server

EXAMPLE = re.compile(r"  ```python\n(.*?)  ```\n", re.DOTALL)


def readme_example() -> str:
    (block,) = EXAMPLE.findall((REPO / "README.md").read_text())
    return "\n".join(line.removeprefix("  ") for line in block.splitlines())


def test_the_readme_example_plays_both_seats_to_the_end_of_the_match(tmp_path: Path) -> None:
    with running_server() as server:
        script = readme_example().replace('"127.0.0.1:50051"', repr(f"127.0.0.1:{server.port}"))
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    phase, score = done.stdout.split(" ", 1)
    assert phase == "PHASE_MATCH_OVER"
    # A 1-point match: one side's single game, gammon or backgammon.
    assert sorted(json.loads(score)) in ([0, 1], [0, 2], [0, 3])
