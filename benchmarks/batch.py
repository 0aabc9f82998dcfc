"""``tavli plays --batch`` end to end, against a process answering the same queries with gnubg-nn.

    .venv/bin/python -m benchmarks.batch [--queries 4000] [--rounds 5]

Writes a batch file of ``--queries`` backgammon positions and rolls to a temporary folder (the
2,000 of ``tests/data/perft-backgammon.txt``, then positions and rolls as seeded games of random
legal plays reach them, each pair once) and times whole commands, process start included, each
writing its JSON lines to a file:

- ``tavli``: ``python -m tavli.clients.cli plays --batch FILE``, the compiled core;
- ``tavli pure``: the same command with ``TAVLI_PURE=1``, the pure-Python engine;
- ``gnubg-nn``: ``python benchmarks/gnubg_plays.py FILE``, a script that answers each query with
  ``gnubg_nn.moves`` and turns each resulting position key into a Position ID with gnubg-nn's own
  functions. gnubg-nn writes no notation, so its lines hold the Position IDs only: tavli's hold a
  play's notation besides (more work, and about twice the bytes).

The three take turns, ``--rounds`` each, in an order that rotates from round to round, and each
round also times each command on an empty batch file (its process start and imports alone). Prints
each side's fastest and slowest round, then ratios as speeds (the baseline's time over the measured
side's time), from the fastest rounds and as the range over the rounds (each round's sides timed
next to each other), with and without the process start. Last, a check that both commands found
the same resulting positions for every query (not a test: a sanity check of the comparison).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEED = 20261201
TIMEOUT = 600  # seconds a command may take at most; the pure engine needs a few


def write_queries(path: Path, count: int) -> int:
    """Write ``count`` queries ``<position-id> <die><die>`` to ``path``: the perft corpus first,
    then new pairs from seeded random games. Returns how many came from the corpus."""
    from tavli.engine import BACKGAMMON
    from tests.engine.test_perft import read_perft
    from tests.games import positions_from_games

    queries = [
        (position_id, (max(dice), min(dice))) for position_id, dice, _ in read_perft("perft-backgammon.txt")
    ]
    queries = queries[:count]
    from_corpus = len(queries)
    asked = set(queries)
    for position, dice in positions_from_games(BACKGAMMON, seed=SEED, count=100 * count):
        if len(queries) >= count:
            break
        query = (position.position_id(), (max(dice), min(dice)))
        if query not in asked:
            asked.add(query)
            queries.append(query)
    path.write_text(
        "".join(f"{position_id} {high}{low}\n" for position_id, (high, low) in queries), encoding="utf-8"
    )
    return from_corpus


def commands(batch: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Each side's command and environment, for ``batch``."""
    compiled = {key: value for key, value in os.environ.items() if key != "TAVLI_PURE"}
    tavli = [sys.executable, "-m", "tavli.clients.cli", "plays", "--batch", str(batch)]
    return {
        "tavli": (tavli, compiled),
        "tavli pure": (tavli, {**compiled, "TAVLI_PURE": "1"}),
        "gnubg-nn": ([sys.executable, str(REPO / "benchmarks" / "gnubg_plays.py"), str(batch)], compiled),
    }


def implementation(environment: dict[str, str]) -> str:
    """Which engine a process started with ``environment`` runs (``core.IMPLEMENTATION``)."""
    done = subprocess.run(
        [sys.executable, "-c", "from tavli.engine import core; print(core.IMPLEMENTATION)"],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


def run(command: list[str], environment: dict[str, str], output: Path) -> float:
    """Seconds ``command`` took from its start to its exit, its standard output to ``output``."""
    with output.open("wb") as out:
        started = time.perf_counter()
        done = subprocess.run(
            command,
            cwd=REPO,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.PIPE,
            timeout=TIMEOUT,
            check=False,
        )
        seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(
            f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr.decode(errors='replace')}"
        )
    return seconds


def agreement(ours: Path, theirs: Path) -> tuple[int, int, list[str]]:
    """Queries whose resulting Position IDs are the same set in both outputs, of how many, and the
    first few that differ."""
    same, total = 0, 0
    differing: list[str] = []
    with ours.open(encoding="utf-8") as left, theirs.open(encoding="utf-8") as right:
        for mine, other in zip(left, right, strict=True):
            a, b = json.loads(mine), json.loads(other)
            total += 1
            if {p["position_id"] for p in a.get("plays", [])} == {p["position_id"] for p in b["plays"]}:
                same += 1
            elif len(differing) < 3:
                differing.append(f"{a['position_id']} {a.get('dice')}: {a.get('error') or ''}")
    return same, total, differing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=4000, help="queries in the batch file (default 4000)")
    parser.add_argument("--rounds", type=int, default=5, help="times each command runs, in turn (default 5)")
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="tavli-batch-") as temporary:
        folder = Path(temporary)
        batch, empty = folder / "queries.txt", folder / "empty.txt"
        from_corpus = write_queries(batch, arguments.queries)
        empty.write_text("", encoding="utf-8")
        full, bare = commands(batch), commands(empty)
        sides = list(full)
        print(
            f"{arguments.queries} queries ({from_corpus} from perft-backgammon.txt, the rest from seeded "
            "random"
            f" games), {arguments.rounds} rounds; nproc {os.cpu_count()}"
        )
        for side, (_, environment) in full.items():
            if side.startswith("tavli"):
                print(f"  {side}: {implementation(environment)}")

        times: dict[str, list[float]] = {side: [] for side in sides}
        starts: dict[str, list[float]] = {side: [] for side in sides}
        outputs = {side: folder / f"{side.replace(' ', '-')}.jsonl" for side in sides}
        for round_ in range(arguments.rounds):
            order = sides[round_ % len(sides) :] + sides[: round_ % len(sides)]  # each side first in turn
            for side in order:
                starts[side].append(run(*bare[side], folder / "empty-out.jsonl"))
                times[side].append(run(*full[side], outputs[side]))
            print(
                f"  round {round_ + 1}: " + ", ".join(f"{side} {times[side][-1]:.2f} s" for side in sides),
                flush=True,
            )
        same, total, differing = agreement(outputs["tavli"], outputs["gnubg-nn"])
        bytes_out = {side: outputs[side].stat().st_size for side in sides}

    print(
        f"\n{'command':<11} {'fastest s':>9} {'slowest s':>9} {'start s':>8} {'queries/s':>10} "
        f"{'output MB':>9}"
    )
    for side in sides:
        fastest, start = min(times[side]), min(starts[side])
        print(
            f"{side:<11} {fastest:>9.2f} {max(times[side]):>9.2f} {start:>8.2f}"
            f" {arguments.queries / fastest:>10.0f} {bytes_out[side] / 1e6:>9.2f}"
        )
    print(
        "\n(start s: the fastest run of the same command on an empty batch file: process start and imports)"
    )
    print("\nratios (same run; speed = the baseline's time / the measured side's time)")
    for measured, baseline in (("tavli", "gnubg-nn"), ("tavli pure", "gnubg-nn"), ("tavli", "tavli pure")):
        best = min(times[baseline]) / min(times[measured])
        paired = [theirs / ours for ours, theirs in zip(times[measured], times[baseline])]
        ours, theirs = (min(times[side]) - min(starts[side]) for side in (measured, baseline))
        # A difference of two noisy timings: meaningless when the batch is too small to show above the start.
        work = f"{theirs / ours:.2f}x" if ours > 0.05 and theirs > 0 else "n/a (batch too small)"
        print(
            f"{measured} vs {baseline}: {best:.2f}x the speed (fastest rounds; "
            f"{min(paired):.2f}-{max(paired):.2f}x"
            f" round by round); without the process start {work}"
        )
    print(f"\ncheck: the same resulting positions in {same} of {total} queries (tavli vs gnubg-nn)")
    for line in differing:
        print(f"  differs: {line}")


if __name__ == "__main__":
    main()
