"""``tavli check-match`` over the real match records, against GNU Backgammon importing the same files.

    .venv/bin/python -m benchmarks.match_records [--rounds 5] [--copies 3]

The files are ``../shared/realmat/`` (177 records from other programs), each copied ``--copies``
times into a temporary folder so that a round reads several hundred files. Each round times whole
commands, process start included:

- ``tavli``: ``python -m tavli.clients.cli check-match --json FILE...`` (read, check every play,
  cube action and result, write a JSON line a file), on the compiled core, its files shared
  between a process a core (the command's default for this many);
- ``tavli 1 job``: the same in one process (``--jobs 1``);
- ``tavli pure``: the same as ``tavli`` with ``TAVLI_PURE=1``;
- ``gnubg``: Debian's ``/usr/games/gnubg -t -q`` fed ``import mat FILE`` for every file, one
  process for all of them (gnubg replays each record's moves and warns of some, as it imports).

The project's modules are compiled to bytecode first, as an install compiles them: without it, a
command started with ``PYTHONDONTWRITEBYTECODE`` set would compile every module from its source
each time. The sides take turns in an order that rotates from round to round. Prints files a second for each
side's fastest and slowest round, and each tavli side's speed against gnubg's (gnubg's time over
tavli's) from the fastest rounds and as the range over rounds; then the same in CPU time (the
command's processes' user and system time), which a machine shared with other work changes less
than the time on the clock.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REALMAT = REPO.parent / "shared" / "realmat"
GNUBG = "/usr/games/gnubg"
PACKAGES = (
    "proto/tavli",
    "engine",
    "clients",
)  # what check-match imports: tavli, tavli.engine, tavli.clients
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


def run_side(side: str, files: list[Path], folder: Path) -> tuple[float, float]:
    """Seconds the side's command takes over ``files``, on the clock and in CPU time."""
    environment = {key: value for key, value in os.environ.items() if key != "TAVLI_PURE"}
    if side == "gnubg":
        commands = "".join(f'import mat "{path}"\n' for path in files)
        command, stdin = [GNUBG, "-t", "-q", "--no-rc"], commands.encode()
        environment["HOME"] = str(folder)
    else:
        jobs = ["--jobs", "1"] if side == "tavli 1 job" else []
        command, stdin = (
            [sys.executable, "-m", "tavli.clients.cli", "check-match", "--json", *jobs, *map(str, files)],
            b"",
        )
        if side == "tavli pure":
            environment["TAVLI_PURE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        command, input=stdin, env=environment, capture_output=True, timeout=TIMEOUT, check=False
    )
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    if done.returncode not in (0, 1):  # 1: some files have problems
        raise SystemExit(f"{side} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-500:]}")
    return seconds, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--copies", type=int, default=3)
    arguments = parser.parse_args()
    for package in PACKAGES:
        compileall.compile_dir(REPO / package, quiet=1)
    sides = ["tavli", "tavli 1 job", "tavli pure", "gnubg"]
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        files = copy_files(folder, arguments.copies)
        clock: dict[str, list[float]] = {side: [] for side in sides}
        cpu: dict[str, list[float]] = {side: [] for side in sides}
        for round_number in range(arguments.rounds):
            turn = round_number % len(sides)
            for side in sides[turn:] + sides[:turn]:
                seconds, cpu_seconds = run_side(side, files, folder)
                clock[side].append(seconds)
                cpu[side].append(cpu_seconds)
    print(f"{len(files)} files a round, {arguments.rounds} rounds")
    for kind, times in (("files/s", clock), ("files/CPU s", cpu)):
        report(kind, times, len(files))


def report(kind: str, times: dict[str, list[float]], files: int) -> None:
    """Each side's files a second (or a CPU second) and each tavli side's speed against gnubg's."""
    for side, seconds in times.items():
        print(
            f"  {side:<11} {files / min(seconds):7.0f} {kind} (fastest round)  {files / max(seconds):7.0f} "
            "(slowest)"
        )
    for side in ("tavli", "tavli 1 job", "tavli pure"):
        ratios = [gnubg / ours for gnubg, ours in zip(times["gnubg"], times[side])]
        best = min(times["gnubg"]) / min(times[side])
        print(
            f"  {side} against gnubg ({kind}): {best:.2f}x (fastest rounds), "
            f"{min(ratios):.2f}-{max(ratios):.2f}x over rounds"
        )


if __name__ == "__main__":
    main()
