"""Whole random Fevga games per second with the pure-Python engine (Fevga has no compiled core),
against long nardi's games on the same board, pure and compiled, timed side by side.

    .venv/bin/python -m benchmarks.fevga_games [--games 20] [--rounds 5]

A game is the loop of ``test_engine_speed.random_game`` (reused, not copied): roll, list the legal
plays with ``generate_plays``, pick one at random, swap sides, until the game ends. Each side plays
``--games`` games from one seeded generator (the same games in every round) and keeps its fastest
round. Long nardi pure runs in a child process with ``TAVLI_PURE=1``; the compiled side runs here
when the core is built. Prints games per second, turns a game, and Fevga's speed as a ratio to each
long nardi side: a ratio, not a time, is what a shared machine can measure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SEED = 2024


def fastest(games: int, rounds: int, game: Callable[[random.Random], int]) -> tuple[float, float]:
    """The most games per second over ``rounds`` rounds of ``games`` seeded games, and the turns a game."""
    best = float("inf")
    turns = 0
    for _ in range(rounds):
        rng = random.Random(SEED)
        began = time.perf_counter()
        turns = sum(game(rng) for _ in range(games))
        best = min(best, time.perf_counter() - began)
    return games / best, turns / games


def measure(variant_name: str, games: int, rounds: int) -> dict[str, float | str]:
    from benchmarks.test_engine_speed import random_game
    from tavli.engine import VARIANTS, core

    variant = VARIANTS[variant_name]
    per_second, turns = fastest(games, rounds, lambda rng: random_game(variant, rng))
    engine = "pure" if variant.compiled_rules is None or core.compiled is None else "compiled"
    return {"games_per_second": per_second, "turns": turns, "engine": engine}


def in_child(variant_name: str, games: int, rounds: int, *, pure: bool) -> dict[str, float | str]:
    environment = dict(os.environ, TAVLI_PURE="1" if pure else "0")
    code = (
        "import json, sys; from benchmarks.fevga_games import measure;"
        f" print(json.dumps(measure({variant_name!r}, {games}, {rounds})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    )
    measured: dict[str, float | str] = json.loads(done.stdout.strip().splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    sides = {
        "fevga (pure)": in_child("fevga", arguments.games, arguments.rounds, pure=True),
        "long nardi (pure)": in_child("long-nardi", arguments.games, arguments.rounds, pure=True),
        "long nardi (compiled)": in_child("long-nardi", arguments.games, arguments.rounds, pure=False),
    }
    for name, measured in sides.items():
        print(
            f"{name:24} {float(measured['games_per_second']):8.1f} games/s"
            f"  {float(measured['turns']):6.1f} turns a game  (engine: {measured['engine']})"
        )
    fevga = float(sides["fevga (pure)"]["games_per_second"])
    for name in ("long nardi (pure)", "long nardi (compiled)"):
        print(f"fevga / {name}: {fevga / float(sides[name]['games_per_second']):.2f} x its speed")


if __name__ == "__main__":
    main()
