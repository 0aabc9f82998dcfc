"""Whole random games from the start to the end, in one process: the engine against gnubg-nn's
generator and OpenSpiel's backgammon, with the compiled core and with the pure-Python engine.

    .venv/bin/python -m benchmarks.games [--games 20] [--repeats 5] [--rounds 3]

A game is the loop of ``test_engine_speed.random_game`` (reused, not copied): roll, list the
legal plays with ``generate_plays``, pick one at random, check the result, swap sides, until the
game ends. The same loop is driven by gnubg-nn's ``moves`` (the resulting position keys; one
picked, decoded with ``board_from_position_key``, the game over when the mover has no checker
left) and OpenSpiel's ``backgammon`` plays random chance and player actions to its terminal
state (``openspiel_games.play_random_game``). Ours plays backgammon and long nardi. Every side
plays ``--games`` games from one seeded generator (the same games in every round).

Each round starts two fresh processes, the compiled core and then ``TAVLI_PURE=1`` (the order
swapped every other round); in each, the four sides take turns, ``--repeats`` times each, and
each side's fastest is kept. Prints games per second (each side's fastest over the rounds, and
its slowest) and the turns a game, then the ratios as speeds (games per second over the
baseline's), from the fastest timings and as the range over the processes (each process's sides
timed side by side). gnubg-nn and OpenSpiel do not depend on ``TAVLI_PURE``: their figures are
the fastest over both kinds of process.
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
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SEED = 2024
SIDES = ("tavli backgammon", "tavli long nardi", "gnubg-nn backgammon", "openspiel backgammon")
BUILDS: dict[str, str | None] = {"compiled": None, "pure": "1"}  # TAVLI_PURE in each build's process


def gnubg_game(start: Any, rng: random.Random, *, most_turns: int) -> int:
    """One random game with gnubg-nn's generator from ``start``; returns its number of turns (also
    timed by ``test_engine_speed.test_gnubg_game_backgammon``)."""
    import gnubg_nn

    board = start
    for turn in range(most_turns):
        keys = gnubg_nn.moves(board, rng.randint(1, 6), rng.randint(1, 6))
        if keys:
            board = gnubg_nn.boardfromkey(rng.choice(keys))
            if not any(board[1]):  # the mover has borne off all its checkers
                return turn + 1
        board = (board[1], board[0])
    raise AssertionError(f"a random gnubg-nn game did not end in {most_turns} turns")


def sides(games: int) -> dict[str, Callable[[], int]]:
    """Each side's work: ``games`` seeded games; each returns the turns (OpenSpiel: player
    actions, a double two) they took."""
    from benchmarks.openspiel_games import load_game, play_random_game
    from benchmarks.test_engine_speed import MOST_TURNS, gnubg_board, random_game
    from tavli.engine import BACKGAMMON, LONG_NARDI

    start = gnubg_board(BACKGAMMON.start_position())
    openspiel = load_game()

    def played(game: Callable[[random.Random], int]) -> Callable[[], int]:
        def run() -> int:
            rng = random.Random(SEED)
            return sum(game(rng) for _ in range(games))

        return run

    return {
        "tavli backgammon": played(lambda rng: random_game(BACKGAMMON, rng)),
        "tavli long nardi": played(lambda rng: random_game(LONG_NARDI, rng)),
        "gnubg-nn backgammon": played(lambda rng: gnubg_game(start, rng, most_turns=MOST_TURNS)),
        "openspiel backgammon": played(lambda rng: play_random_game(openspiel, rng)),
    }


def measure(games: int, repeats: int) -> dict[str, Any]:
    """In this process: each side's fastest of ``repeats`` timings, the sides in turn."""
    from tavli.engine import core

    work = sides(games)
    best = {side: float("inf") for side in work}
    turns = {}
    for side, run in work.items():  # warm: imports, the caches of the first calls
        turns[side] = run()
    for _ in range(repeats):
        for side, run in work.items():
            started = time.perf_counter()
            run()
            best[side] = min(best[side], time.perf_counter() - started)
    return {"implementation": core.IMPLEMENTATION, "seconds": best, "turns": turns}


def child(build: str, games: int, repeats: int) -> dict[str, Any]:
    environment = {key: value for key, value in os.environ.items() if key != "TAVLI_PURE"}
    pure = BUILDS[build]
    if pure is not None:
        environment["TAVLI_PURE"] = pure
    command = [
        sys.executable,
        "-m",
        "benchmarks.games",
        "--child",
        "--games",
        str(games),
        "--repeats",
        str(repeats),
    ]
    done = subprocess.run(
        command, cwd=REPO, env=environment, capture_output=True, text=True, timeout=900, check=False
    )
    if done.returncode:
        raise SystemExit(f"the {build} process failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games a timing, every side (default 20)")
    parser.add_argument("--repeats", type=int, default=5, help="timings of each side a process (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="processes of each build, in turn (default 3)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child:
        print(json.dumps(measure(arguments.games, arguments.repeats)))
        return

    runs: list[tuple[str, dict[str, Any]]] = []
    for round_ in range(arguments.rounds):
        order = list(BUILDS) if round_ % 2 == 0 else list(reversed(list(BUILDS)))
        for build in order:
            result = child(build, arguments.games, arguments.repeats)
            runs.append((build, result))
            print(
                f"  round {round_ + 1}, {build} ({result['implementation']}): "
                + ", ".join(
                    f"{side} {arguments.games / seconds:.1f}" for side, seconds in result["seconds"].items()
                )
                + " games/s",
                flush=True,
            )

    def timings(side: str, build: str | None) -> list[float]:
        own = side.startswith("tavli")
        return [result["seconds"][side] for made, result in runs if not own or build is None or made == build]

    print(f"\n{arguments.games} games a timing, seed {SEED}; nproc {os.cpu_count()}")
    print(f"{'side':<21} {'engine':<9} {'games/s':>8} {'slowest':>8} {'turns a game':>12}")
    rows: list[tuple[str, str | None]] = [(side, engine) for side in SIDES[:2] for engine in BUILDS]
    rows += [(side, None) for side in SIDES[2:]]
    for side, engine in rows:
        seconds = timings(side, engine)
        turns = runs[0][1]["turns"][side] / arguments.games
        print(
            f"{side:<21} {engine or '-':<9} {arguments.games / min(seconds):>8.1f}"
            f" {arguments.games / max(seconds):>8.1f} {turns:>12.0f}"
        )
    print("\n(turns: OpenSpiel's are player actions, a double two; every side plays its own random games)")

    print("\nratios (same run; speed = games/s over the baseline's games/s)")
    comparisons = [
        (("tavli backgammon", "compiled"), ("gnubg-nn backgammon", None)),
        (("tavli backgammon", "compiled"), ("openspiel backgammon", None)),
        (("tavli backgammon", "pure"), ("gnubg-nn backgammon", None)),
        (("tavli backgammon", "pure"), ("openspiel backgammon", None)),
        (("tavli long nardi", "compiled"), ("tavli backgammon", "compiled")),
        (("tavli long nardi", "pure"), ("tavli backgammon", "pure")),
        (("tavli backgammon", "compiled"), ("tavli backgammon", "pure")),
        (("tavli long nardi", "compiled"), ("tavli long nardi", "pure")),
    ]
    for (side, build), (baseline, base_build) in comparisons:
        best = min(timings(baseline, base_build)) / min(timings(side, build))
        if base_build is None or base_build == build:  # the two sides were timed in the same processes
            paired = [r["seconds"][baseline] / r["seconds"][side] for made, r in runs if made == build]
            spread = f"{min(paired):.2f}-{max(paired):.2f}x process by process"
        else:  # the two builds' processes of the same round, one after the other
            ours = [r["seconds"][side] for made, r in runs if made == build]
            theirs = [r["seconds"][baseline] for made, r in runs if made == base_build]
            paired = [other / mine for mine, other in zip(ours, theirs)]
            spread = f"{min(paired):.2f}-{max(paired):.2f}x round by round"
        print(
            f"{side} ({build}) vs {baseline}{f' ({base_build})' if base_build else ''}:"
            f" {best:.2f}x the speed (fastest timings; {spread})"
        )


if __name__ == "__main__":
    main()
