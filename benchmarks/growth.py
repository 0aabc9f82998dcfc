"""How the cost of listing legal plays grows with the number of plays in the position.

    .venv/bin/python -m benchmarks.growth [--repeats 7]

Buckets the perft corpora by their number of distinct legal plays (1, 2-5, 6-20, 21-60, 61+) and
times, bucket by bucket, the engine's uncached ``generate_plays`` and gnubg-nn's ``moves`` on the
same positions (backgammon), and the engine alone on long nardi. The two sides of each bucket are
timed alternately, ``--repeats`` times each, and the fastest of each is kept, so that a burst of
load on a shared machine hits neither more than the other. Prints, per bucket: the positions, the
mean plays per position, the time per position and per play (microseconds, for the shape of the
curve within this run only), the per-play cost relative to the 2-5 bucket, and the engine's speed
as a fraction of gnubg-nn's. Then the backgammon corpus again, split by kind of turn as the
generator tells them apart, with each kind's share of the engine's time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from tavli.engine import BACKGAMMON, BAR, LONG_NARDI, Position, Variant
from tests.engine.test_perft import read_perft

BUCKETS = [(1, 1, "1"), (2, 5, "2-5"), (6, 20, "6-20"), (21, 60, "21-60"), (61, 10**6, "61+")]
Rows = list[tuple[Position, tuple[int, int], int]]


def corpus(name: str) -> Rows:
    return [(Position.from_id(pid), (max(dice), min(dice)), count) for pid, dice, count in read_perft(name)]


def bucketed(rows: Rows) -> list[tuple[str, Rows]]:
    return [(label, [row for row in rows if low <= row[2] <= high]) for low, high, label in BUCKETS]


def fastest(functions: list[Callable[[], object]], repeats: int) -> list[float]:
    """The fastest of ``repeats`` timings of each function, the functions timed in turn."""
    best = [float("inf")] * len(functions)
    for _ in range(repeats):
        for index, function in enumerate(functions):
            started = time.perf_counter()
            function()
            best[index] = min(best[index], time.perf_counter() - started)
    return best


# Each run lets go of each answer at once, as the engine benchmarks do: a run that kept them all
# would also time the garbage collector walking them.


def engine_run(variant: Variant, rows: Rows) -> Callable[[], object]:
    def run() -> None:
        for position, dice, _ in rows:
            variant.generate_plays(position, dice)

    return run


def gnubg_run(rows: Rows) -> Callable[[], object]:
    import gnubg_nn

    boards = [([list(p.opponent[1:26]), list(p.player[1:26])], dice) for p, dice, _ in rows]

    def run() -> None:
        for board, dice in boards:
            gnubg_nn.moves(board, dice[0], dice[1])

    return run


def report(title: str, variant: Variant, rows: Rows, repeats: int, *, with_gnubg: bool) -> None:
    print(f"\n{title}")
    header = (
        f"{'plays':>6} {'positions':>9} {'mean plays':>10} {'us/position':>11} {'us/play':>8} "
        f"{'per-play vs 2-5':>15}"
    )
    if with_gnubg:
        header += f" {'gnubg us/pos':>12} {'gnubg us/play':>13} {'engine speed vs gnubg':>21}"
    print(header)
    measured = []
    for label, selected in bucketed(rows):
        runs = [engine_run(variant, selected)] + ([gnubg_run(selected)] if with_gnubg else [])
        plays = sum(count for _, _, count in selected)
        measured.append((label, len(selected), plays, fastest(runs, repeats) if selected else []))
    reference = next(
        (times[0] / plays for label, _, plays, times in measured if label == "2-5" and times), None
    )
    for label, positions, plays, times in measured:
        if not times:
            print(f"{label:>6} {0:>9}")
            continue
        per_play = times[0] / plays
        line = (
            f"{label:>6} {positions:>9} {plays / positions:>10.1f} {times[0] / positions * 1e6:>11.1f}"
            f" {per_play * 1e6:>8.2f} {per_play / reference if reference else float('nan'):>14.2f}x"
        )
        if with_gnubg:
            line += (
                f" {times[1] / positions * 1e6:>12.1f} {times[1] / plays * 1e6:>13.2f}"
                f" {times[1] / times[0]:>20.3f}x"
            )
        print(line)


KINDS = ["field", "field double", "bar", "bar double", "home", "home double"]


def kind_of(position: Position, dice: tuple[int, int]) -> str:
    """The kind of turn, as the generator tells them apart: checkers to enter from the bar, enough
    checkers outside the home board that no step can bear off (the field), or fewer (home: bearing
    off, or about to); doubles apart."""
    player = position.player
    double = dice[0] == dice[1]
    if player[BAR]:
        kind = "bar"
    elif sum(player[7:25]) >= (4 if double else 2):
        kind = "field"
    else:
        kind = "home"
    return f"{kind} double" if double else kind


def report_kinds(rows: Rows, repeats: int) -> None:
    print("\nbackgammon by kind of turn, engine generate_plays vs gnubg-nn moves")
    print(
        f"{'kind':>12} {'positions':>9} {'mean plays':>10} {'us/play':>8} {'gnubg us/play':>13}"
        f" {'engine speed vs gnubg':>21} {'share of engine time':>20}"
    )
    measured = []
    for kind in KINDS:
        selected = [row for row in rows if kind_of(row[0], row[1]) == kind]
        plays = sum(count for _, _, count in selected)
        runs = [engine_run(BACKGAMMON, selected), gnubg_run(selected)]
        measured.append((kind, len(selected), plays, fastest(runs, repeats)))
    total = sum(times[0] for _, _, _, times in measured)
    for kind, positions, plays, (engine, gnubg) in measured:
        print(
            f"{kind:>12} {positions:>9} {plays / positions:>10.1f} {engine / plays * 1e6:>8.2f}"
            f" {gnubg / plays * 1e6:>13.2f} {gnubg / engine:>20.3f}x {engine / total:>19.0%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7, help="timings of each side per bucket (default 7)")
    arguments = parser.parse_args()
    backgammon = corpus("perft-backgammon.txt")
    report(
        "backgammon (tests/data/perft-backgammon.txt), engine generate_plays vs gnubg-nn moves",
        BACKGAMMON,
        backgammon,
        arguments.repeats,
        with_gnubg=True,
    )
    report_kinds(backgammon, arguments.repeats)
    report(
        "long nardi (tests/data/perft-long-nardi.txt), engine generate_plays",
        LONG_NARDI,
        corpus("perft-long-nardi.txt"),
        arguments.repeats,
        with_gnubg=False,
    )


if __name__ == "__main__":
    main()
