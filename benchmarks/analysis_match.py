"""A whole match's review: ``tavli analyze`` against Debian's gnubg analysing the same file.

    .venv/bin/python -m benchmarks.analysis_match [--rounds 2] [--plies 0 2] [--file FILE]

The match is ``tests/data/mat/noisy_gnubg_3_point.mat`` (gnubg's noisy self-play, 3 points,
about 150 rolls and 150 chances to double) unless ``--file`` names another. Each round times,
at each ply, whole commands, process start included:

- ``tavli, N evaluators``: ``python -m tavli.clients.cli analyze --json --plies P --evaluators N
  FILE`` (its own in-memory server, its evaluator processes started with the first question)
  with N = 1 and 2;
- ``gnubg``: Debian's ``/usr/games/gnubg -t -q`` fed ``set threads 1``, the analysis settings at P
  plies, ``import mat``, ``analyse match`` (one thread, as tavli's evaluators have).

Prints each side's fastest round and its speed against gnubg's (gnubg's time over its own).
"""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MATCH = REPO / "tests" / "data" / "mat" / "noisy_gnubg_3_point.mat"
GNUBG = "/usr/games/gnubg"
TIMEOUT = 1800


def tavli_seconds(match: Path, plies: int, evaluators: int) -> float:
    command = [sys.executable, "-m", "tavli.clients.cli", "analyze", "--json"]
    command += ["--plies", str(plies), "--evaluators", str(evaluators), str(match)]
    return _timed(command, b"")


def gnubg_seconds(match: Path, plies: int) -> float:
    commands = [
        "set threads 1",
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        f'import mat "{match}"',
        "analyse match",
    ]
    with tempfile.TemporaryDirectory(prefix="gnubg-home-") as home:
        return _timed(
            [GNUBG, "-t", "-q", "--no-rc"], "".join(f"{line}\n" for line in commands).encode(), home
        )


def _timed(command: list[str], stdin: bytes, home: str | None = None) -> float:
    environment = {"HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"} if home else None
    started = time.perf_counter()
    subprocess.run(command, input=stdin, capture_output=True, check=True, timeout=TIMEOUT, env=environment)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 2], choices=(0, 1, 2))
    parser.add_argument("--file", type=Path, default=MATCH)
    arguments = parser.parse_args()
    match = arguments.file.resolve()
    for plies in arguments.plies:
        sides = {
            "gnubg": functools.partial(gnubg_seconds, match, plies),
            "tavli, 1 evaluator": functools.partial(tavli_seconds, match, plies, 1),
            "tavli, 2 evaluators": functools.partial(tavli_seconds, match, plies, 2),
        }
        best = {name: min(time() for _ in range(arguments.rounds)) for name, time in sides.items()}
        print(f"{match.name} at {plies} plies, fastest of {arguments.rounds} rounds:")
        for name, seconds in best.items():
            print(f"  {name:<20} {seconds:7.2f} s  {best['gnubg'] / seconds:5.2f}x gnubg's speed")


if __name__ == "__main__":
    main()
