"""The compiled core across the family: legal-play enumeration of Plakoto, Fevga and long nardi
against backgammon's in one process, and whole random games of each, pure and compiled.

    .venv/bin/python -m benchmarks.family_core [--positions 4000] [--repeats 5] [--games 100]
        [--pure-games 10] [--rounds 5]

Enumeration: a corpus a game, ``--positions`` positions of seeded random games (the core picks the
plays, so the corpus is cheap), each with the roll its mover then played. Each position is timed
``--repeats`` times running, the fastest kept, the games taking turns position by position: a
shared machine's bursts of load, longer than a position's few microseconds, are left out. Each
position's plays are listed by the uncached ``generate_plays``, counted (``len``), then also with
every play's Position ID (``position_ids()``, pins and all, as the server and ``tavli plays``
answer). Prints positions per second and each game's ratio to backgammon's (target >= 0.8x).

Whole games: the loop of ``test_engine_speed.random_game`` (reused, not copied), ``--games`` seeded
games on the compiled core and ``--pure-games`` on the pure engine (the core switched off in this
process), each game timed in each of ``--rounds`` rounds and its fastest kept, the two engines in
turn round by round. Prints games per second, turns a game and compiled / pure.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext

from benchmarks.test_engine_speed import random_game
from tavli.engine import core
from tavli.engine.play import Dice
from tavli.engine.position import Position
from tavli.engine.variant import Variant
from tavli.engine.variants import BACKGAMMON, FEVGA, LONG_NARDI, PLAKOTO

SEED = 2024
FAMILY = (BACKGAMMON, LONG_NARDI, PLAKOTO, FEVGA)

Corpus = list[tuple[Position, Dice]]


@contextmanager
def pure() -> Iterator[None]:
    """The engine with its compiled core switched off."""
    compiled = core.compiled
    core.compiled = None
    try:
        yield
    finally:
        core.compiled = compiled


def corpus(variant: Variant, count: int) -> Corpus:
    """``count`` positions of seeded random games, each with the roll its mover then played."""
    rng = random.Random(SEED)
    positions: Corpus = []
    while len(positions) < count:
        position = variant.start_position()
        while len(positions) < count:
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            dice = (max(first, second), min(first, second))
            positions.append((position, dice))
            plays = variant.generate_plays(position, dice)
            after = plays[rng.randrange(len(plays))].position
            if variant.result(after) is not None:
                break
            position = after.swapped()
    return positions


def count_plays(variant: Variant, positions: Corpus) -> int:
    return sum(len(variant.generate_plays(position, dice)) for position, dice in positions)


def count_position_ids(variant: Variant, positions: Corpus) -> int:
    return sum(len(variant.generate_plays(position, dice).position_ids()) for position, dice in positions)


def enumeration(
    corpora: dict[str, Corpus], lister: Callable[[Variant, Corpus], int], repeats: int
) -> dict[str, float]:
    """Seconds each game's corpus takes, the fastest of ``repeats`` for each position, summed."""
    variants = {variant.name: variant for variant in FAMILY}
    seconds = dict.fromkeys(corpora, 0.0)
    for index in range(min(len(positions) for positions in corpora.values())):
        for name, positions in corpora.items():
            position = positions[index : index + 1]
            fastest = float("inf")
            for _ in range(repeats):
                began = time.perf_counter()
                lister(variants[name], position)
                fastest = min(fastest, time.perf_counter() - began)
            seconds[name] += fastest
    return seconds


def whole_games(variant: Variant, games: int, pure_games: int, rounds: int) -> tuple[float, float, int]:
    """Games per second on the core and on the pure engine, each game seeded by its number and
    timed in every round (the core's and the pure engine's in turn), its fastest kept; and the
    turns of the core's games."""
    fastest = {True: [float("inf")] * games, False: [float("inf")] * pure_games}
    turns = 0
    for _ in range(rounds):
        for compiled, timings in fastest.items():
            with nullcontext() if compiled else pure():
                for game, best in enumerate(timings):
                    rng = random.Random(SEED + game)
                    began = time.perf_counter()
                    played = random_game(variant, rng)
                    timings[game] = min(best, time.perf_counter() - began)
                    turns += played if compiled else 0
    return games / sum(fastest[True]), pure_games / sum(fastest[False]), turns // (games * rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--positions", type=int, default=4000, help="positions a game's corpus (default 4000)"
    )
    parser.add_argument("--repeats", type=int, default=5, help="timings of each position (default 5)")
    parser.add_argument("--games", type=int, default=100, help="whole games on the core (default 100)")
    parser.add_argument(
        "--pure-games", type=int, default=10, help="whole games on the pure engine (default 10)"
    )
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the games (default 5)")
    arguments = parser.parse_args()
    if core.compiled is None:
        raise SystemExit(f"the compiled core does not run here: {core.IMPLEMENTATION}")
    corpora = {variant.name: corpus(variant, arguments.positions) for variant in FAMILY}
    print(f"enumeration, {arguments.positions} positions a game, compiled core")
    print(f"{'game':<12} {'positions/s':>12} {'vs backgammon':>14} {'with IDs/s':>12} {'vs backgammon':>14}")
    plain = enumeration(corpora, count_plays, arguments.repeats)
    with_ids = enumeration(corpora, count_position_ids, arguments.repeats)
    for name in corpora:
        columns = [f"{name:<12}"]
        for seconds in (plain, with_ids):
            columns += [
                f"{arguments.positions / seconds[name]:>12.0f}",
                f"{seconds['backgammon'] / seconds[name]:>13.2f}x",
            ]
        print(" ".join(columns))
    print(
        f"\nwhole random games, {arguments.games} on the core and {arguments.pure_games} on the pure engine,"
        f" fastest of {arguments.rounds} rounds"
    )
    print(f"{'game':<12} {'compiled/s':>11} {'pure/s':>9} {'compiled/pure':>14} {'turns':>7}")
    for variant in FAMILY:
        compiled, reference, turns = whole_games(
            variant, arguments.games, arguments.pure_games, arguments.rounds
        )
        ratio = compiled / reference
        print(f"{variant.name:<12} {compiled:>11.1f} {reference:>9.1f} {ratio:>13.1f}x {turns:>7}")


if __name__ == "__main__":
    main()
