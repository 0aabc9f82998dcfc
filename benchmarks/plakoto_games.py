"""Whole random Plakoto games per second, on the pure-Python engine, against backgammon's in the
same process (on the compiled core where it is built, and on the pure engine).

    .venv/bin/python -m benchmarks.plakoto_games [--games 20] [--repeats 3]

A game is the loop of ``test_engine_speed.random_game`` (reused, not copied): roll, list the legal
plays with ``generate_plays``, pick one at random, swap sides, until the game ends (by bearing off,
a pinned mother or a draw). Every side plays ``--games`` games from one seeded generator, the same
games in every repeat; each side's fastest repeat is kept. Prints games per second, the turns a
game and Plakoto's speed as a ratio to each backgammon side. Plakoto has no compiled core yet:
its plays, pins and mother rule are the pure engine's.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from benchmarks.test_engine_speed import random_game
from tavli.engine import core
from tavli.engine.backgammon import Backgammon
from tavli.engine.variant import Variant
from tavli.engine.variants import BACKGAMMON, PLAKOTO

SEED = 2024


class _PureBackgammon(Backgammon):
    """Backgammon without the compiled core, the pure engine's baseline."""

    compiled_rules = None


def _games(variant: Variant, games: int) -> Callable[[], int]:
    def play() -> int:
        rng = random.Random(SEED)
        return sum(random_game(variant, rng) for _ in range(games))

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    arguments = parser.parse_args()
    sides = {
        "plakoto (pure)": _games(PLAKOTO, arguments.games),
        "backgammon (pure)": _games(_PureBackgammon(), arguments.games),
        f"backgammon ({core.IMPLEMENTATION})": _games(BACKGAMMON, arguments.games),
    }
    fastest: dict[str, float] = {}
    turns: dict[str, int] = {}
    for _ in range(arguments.repeats):
        for name, side in sides.items():
            started = time.perf_counter()
            turns[name] = side()
            elapsed = time.perf_counter() - started
            fastest[name] = min(fastest.get(name, elapsed), elapsed)
    for name in sides:
        print(
            f"{name:<40} {arguments.games / fastest[name]:10.1f} games/s"
            f"  {turns[name] / arguments.games:6.1f} turns a game"
        )
    plakoto = arguments.games / fastest["plakoto (pure)"]
    for name in list(sides)[1:]:
        print(f"plakoto's speed / {name}: {plakoto / (arguments.games / fastest[name]):.3f}")


if __name__ == "__main__":
    main()
