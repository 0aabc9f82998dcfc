"""What checking a match record costs (RulesService.ValidateMatch, GamesService.ImportMatch), in
CPU seconds a MiB, and against a baseline checked in the same run.

    .venv/bin/python -m benchmarks.record_check_cost [--rounds 5] [--games 1300]

Three sides, each checked by the engine's ``check_mat`` (what the server runs on its checking
threads), timed by the process's CPU clock, in turns that rotate from round to round:

- ``real records``: every record of ``../shared/realmat/`` (records from other programs), one
  after another;
- ``money session``: one money session of ``--games`` games between two random players that
  double, take and drop by chance (about 1 MiB at the default), as a long imported session is;
- ``baseline``: ``tests/data/mat/gnubg_3_point.mat``, checked 100 times.

Prints each side's seconds a MiB as the range over rounds, and each side's cost a byte against
the baseline's (the ratio of the fastest rounds, and its range over rounds).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from tavli.engine.match import RuleSet
from tavli.engine.matfile import check_mat, export_mat
from tavli.engine.matfile.reading import decode

REPO = Path(__file__).resolve().parents[1]
REALMAT = REPO.parent / "shared" / "realmat"
BASELINE = REPO / "tests" / "data" / "mat" / "gnubg_3_point.mat"
BASELINE_TIMES = 100
MIB = 1 << 20


def real_records() -> list[str]:
    files = sorted(path for path in REALMAT.rglob("*") if path.is_file() and path.name != "README.md")
    return [decode(path.read_bytes()) for path in files]


def money_session(games: int) -> str:
    from tests.games import bot_match  # the tests' random players

    return export_mat(bot_match(RuleSet(), seed=25, games=games))


def checked_all(texts: list[str]) -> Callable[[], None]:
    def check() -> None:
        for text in texts:
            try:
                check_mat(text)
            except ValueError:
                pass  # a record the engine cannot read costs what reading it costs

    return check


def cpu_seconds(work: Callable[[], None]) -> float:
    started = time.process_time()
    work()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=1300)
    arguments = parser.parse_args()
    real = real_records()
    session = money_session(arguments.games)
    baseline = [BASELINE.read_text()] * BASELINE_TIMES
    sides = {
        "real records": (checked_all(real), sum(len(text.encode()) for text in real)),
        "money session": (checked_all([session]), len(session.encode())),
        "baseline": (checked_all(baseline), sum(len(text.encode()) for text in baseline)),
    }
    names = list(sides)
    per_mib: dict[str, list[float]] = {name: [] for name in names}
    for round_number in range(arguments.rounds):
        order = names[round_number % len(names) :] + names[: round_number % len(names)]
        for name in order:
            work, size = sides[name]
            per_mib[name].append(cpu_seconds(work) / size * MIB)
    print(
        f"{arguments.rounds} rounds; sizes: "
        + ", ".join(f"{name} {size:,} bytes" for name, (_, size) in sides.items())
    )
    base = per_mib["baseline"]
    for name in names:
        seconds = per_mib[name]
        ratios = [each / against for each, against in zip(seconds, base)]
        print(
            f"{name:14} {min(seconds):.2f}-{max(seconds):.2f} s a MiB;"
            f" {min(seconds) / min(base):.2f} x the baseline's cost a byte"
            f" (rounds {min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()
