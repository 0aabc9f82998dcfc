"""``tavli check-match`` over the real match records, against GNU Backgammon importing the same files.

    .venv/bin/python -m benchmarks.match_records [--rounds 5] [--copies 3]

The files are ``../shared/realmat/`` (177 records from other programs), each copied ``--copies``
times into a temporary folder so that a round reads several hundred files. Each round times whole
commands, process start included:

- ``tavli``: ``python -m tavli.clients.cli check-match --json FILE...`` (read, check every play,
  cube action and result, write a JSON line a file), on the compiled core;
- ``tavli pure``: the same with ``TAVLI_PURE=1``;
- ``gnubg``: Debian's ``/usr/games/gnubg -t -q`` fed ``import mat FILE`` for every file, one
  process for all of them (gnubg replays each record's moves and warns of some, as it imports).

The sides take turns in an order that rotates from round to round. Prints files a second for each
side's fastest and slowest round, and each tavli side's speed against gnubg's (gnubg's time over
tavli's) from the fastest rounds and as the range over rounds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REALMAT = REPO.parent / "shared" / "realmat"
GNUBG = "/usr/games/gnubg"
TIMEOUT = 600


def copy_files(folder: Path, copies: int) -> list[Path]:
    """The real records copied ``copies`` times into ``folder``, under plain names."""
    sources = sorted(path for path in REALMAT.rglob("*") if path.is_file() and path.name != "README.md")
    files = []
    for copy in range(copies):
        for number, source in enumerate(sources):
            target = folder / f"{copy}-{number}.mat"
            shutil.copyfile(source, target)
            files.append(target)
    return files


def run_side(side: str, files: list[Path], folder: Path) -> float:
    """Seconds the side's command takes over ``files``."""
    environment = {key: value for key, value in os.environ.items() if key != "TAVLI_PURE"}
    if side == "gnubg":
        commands = "".join(f'import mat "{path}"\n' for path in files)
        command, stdin = [GNUBG, "-t", "-q", "--no-rc"], commands.encode()
        environment["HOME"] = str(folder)
    else:
        command, stdin = (
            [sys.executable, "-m", "tavli.clients.cli", "check-match", "--json", *map(str, files)],
            b"",
        )
        if side == "tavli pure":
            environment["TAVLI_PURE"] = "1"
    started = time.perf_counter()
    done = subprocess.run(
        command, input=stdin, env=environment, capture_output=True, timeout=TIMEOUT, check=False
    )
    seconds = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: some files have problems
        raise SystemExit(f"{side} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-500:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--copies", type=int, default=3)
    arguments = parser.parse_args()
    sides = ["tavli", "tavli pure", "gnubg"]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        files = copy_files(folder, arguments.copies)
        times: dict[str, list[float]] = {side: [] for side in sides}
        for round_number in range(arguments.rounds):
            turn = round_number % len(sides)
            for side in sides[turn:] + sides[:turn]:
                times[side].append(run_side(side, files, folder))
    print(f"{len(files)} files a round, {arguments.rounds} rounds")
    for side in sides:
        fastest, slowest = min(times[side]), max(times[side])
        print(
            f"  {side:<11} {len(files) / fastest:7.0f} files/s (fastest round)  {len(files) / slowest:7.0f} "
            "(slowest)"
        )
    for side in ("tavli", "tavli pure"):
        ratios = [gnubg / ours for gnubg, ours in zip(times["gnubg"], times[side])]
        best = min(times["gnubg"]) / min(times[side])
        print(
            f"  {side} against gnubg: {best:.2f}x (fastest rounds), {min(ratios):.2f}-{max(ratios):.2f}x "
            "over rounds"
        )


if __name__ == "__main__":
    main()
