"""Server memory against the number of live games: bytes per idle game.

    .venv/bin/python -m benchmarks.memory [--games 1000 10000 100000] [--turns 4] [--budget 300]

For each N, a fresh Python process builds the server's game layer in-process (``Tables`` over a
``MemoryStore``, as ``tavli serve --db :memory:`` has it, behind a ``GamesServicer`` called
directly with request messages, no network), creates N backgammon games the way a client does
(each request with a request_id, so the store keeps each answer for retries), plays ``--turns``
rolls and plays in each, and leaves them idle. It reports the resident set's growth over N (from
/proc/self/status, after a full collection), and the marginal bytes a game between one N and the
next (fixed costs drop out). For ``--tracemalloc-games`` N (1000 by default: tracemalloc makes it
~7x slower), another fresh process counts with tracemalloc what is still allocated over N, how
much of it is the bounded caches (legal plays, 4096 rolls; play messages' fields, 65536 steps;
Position ID halves, 8192 sides: none a cost per game) and which lines allocated the rest.

Bounded in time: each N gets what is left of ``--budget`` seconds. When the rate measured at a
smaller N says a larger one would not fit, the larger one is skipped and its bytes per game are
extrapolated from the largest N measured (memory per game does not depend on N, only the total
does), and the report says so.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import subprocess
import sys
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TARGET_BYTES = 20 * 1024  # the target: under 20 KB a live idle game


def rss_bytes() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def make_games(count: int, turns: int) -> tuple[Any, float]:
    """``count`` games, each played ``turns`` rolls and plays in; returns the servicer and the
    seconds it took."""
    return asyncio.run(_make_games(count, turns))


class _Context:
    """What the servicer asks of a call's context: who the client is, and its metadata (none)."""

    def peer(self) -> str:
        return "ipv4:127.0.0.1:1"

    def invocation_metadata(self) -> tuple[()]:
        return ()


async def _make_games(count: int, turns: int) -> tuple[Any, float]:
    from tavli.server.fair_queue import FairQueue
    from tavli.server.games_servicer import GamesServicer
    from tavli.server.keys import ServerKey
    from tavli.server.quotas import QuotaLimits, Quotas
    from tavli.server.store import MemoryStore
    from tavli.server.tables import Tables
    from tavli.v1 import games_service_pb2 as pb

    tables = Tables(MemoryStore(), ServerKey.fresh(), capacity=count + 1, allow_seeded_dice=True)
    quotas = Quotas(QuotaLimits(live_games_per_client=count + 10))
    servicer = GamesServicer(tables, quotas, FairQueue(quotas))
    context: Any = _Context()
    rng = random.Random(7)
    rule_set = pb.RuleSet(variant=1, match_length=0)
    started = time.perf_counter()
    for number in range(count):
        created = await servicer.CreateGame(
            pb.CreateGameRequest(
                rule_set=rule_set,
                dice_mode=pb.DICE_MODE_SEEDED,
                dice_seed=f"memory-{number}",
                request_id=str(uuid.uuid4()),
            ),
            context,
        )
        tokens = {pb.SEAT_0: created.seat0_token, pb.SEAT_1: created.seat1_token}
        game = created.game
        plays = 0
        while plays < turns:
            seat = pb.SEAT_0 if game.phase == pb.PHASE_OPENING else game.turn
            common = {"name": game.name, "seat_token": tokens[seat], "request_id": str(uuid.uuid4())}
            if game.phase in (pb.PHASE_OPENING, pb.PHASE_ROLLING):
                game = (await servicer.RollDice(pb.RollDiceRequest(etag=game.etag, **common), context)).game
            elif game.phase == pb.PHASE_PLAYING:
                answer = await servicer.ListLegalActions(
                    pb.ListLegalActionsRequest(name=game.name, seat=seat), context
                )  # sent as kept serialized
                listed = pb.ListLegalActionsResponse.FromString(answer)
                notation = rng.choice(listed.plays).notation
                request = pb.PlayMoveRequest(etag=listed.etag, notation=notation, **common)
                game = (await servicer.PlayMove(request, context)).game
                plays += 1
            else:
                raise RuntimeError(f"unexpected phase {game.phase}")
    return servicer, time.perf_counter() - started


def clear_bounded_caches() -> None:
    from tavli.engine.position import _side_bits
    from tavli.engine.variant import _checked_legal_plays
    from tavli.engine.wire import _play_around_position

    for cache in (_checked_legal_plays, _play_around_position, _side_bits):
        cache.cache_clear()


def child(count: int, turns: int, mode: str) -> dict[str, Any]:
    """Measure in this (fresh) process; returns what the parent prints."""
    make_games(10, turns)  # import everything, warm the protobuf classes
    clear_bounded_caches()
    gc.collect()
    if mode == "tracemalloc":
        tracemalloc.start(1)
        before = tracemalloc.take_snapshot()
        servicer, seconds = make_games(count, turns)
        gc.collect()
        after = tracemalloc.take_snapshot()
        total = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
        # The bounded caches hold as much whatever the number of games: their share is what
        # clearing them gives back.
        clear_bounded_caches()
        gc.collect()
        kept = tracemalloc.take_snapshot()
        without_cache = sum(stat.size_diff for stat in kept.compare_to(before, "filename"))
        tracemalloc.stop()
        return {
            "count": count,
            "seconds": seconds,
            "bytes": total,
            "cache_bytes": total - without_cache,
            "top": [
                (str(stat.traceback[0]).replace(str(REPO) + "/", ""), stat.size_diff)
                for stat in kept.compare_to(before, "lineno")[:10]
            ],
            "games": servicer.tables.in_memory(),
        }
    before_rss = rss_bytes()
    servicer, seconds = make_games(count, turns)
    gc.collect()
    return {
        "count": count,
        "seconds": seconds,
        "bytes": rss_bytes() - before_rss,
        "games": servicer.tables.in_memory(),
    }


def run_child(count: int, turns: int, mode: str, timeout: float) -> dict[str, Any] | None:
    command = [
        sys.executable,
        "-m",
        "benchmarks.memory",
        "--child",
        str(count),
        "--mode",
        mode,
        "--turns",
        str(turns),
    ]
    try:
        done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument(
        "--turns", type=int, default=4, help="plays made in each game before it idles (default 4)"
    )
    parser.add_argument("--budget", type=float, default=300.0, help="seconds for the whole run (default 300)")
    parser.add_argument(
        "--tracemalloc-games",
        type=int,
        nargs="*",
        default=[1_000],
        help="N for the tracemalloc count too (default 1000; it runs ~7x slower)",
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--mode", choices=("rss", "tracemalloc"), default="rss", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child is not None:
        print(json.dumps(child(arguments.child, arguments.turns, arguments.mode)))
        return

    deadline = time.monotonic() + arguments.budget
    print(f"in-process Tables + MemoryStore behind GamesServicer; {arguments.turns} plays a game, then idle")
    print(f"{'games':>7} {'mode':>11} {'seconds':>8} {'bytes/game':>10} {'vs 20 KB':>8}  marginal bytes/game")
    runs = [(count, "rss") for count in sorted(arguments.games)]
    runs += [(count, "tracemalloc") for count in arguments.tracemalloc_games]
    rate: dict[str, float] = {}  # seconds a game, measured as we go (tracemalloc is ~7x slower)
    measured: dict[str, list[dict[str, Any]]] = {"rss": [], "tracemalloc": []}
    for count, mode in runs:
        left = deadline - time.monotonic()
        expected = rate.get(mode, 0.0) * count * 1.3 + 3.0
        done = measured[mode]
        if mode in rate and expected > left:
            largest = done[-1]
            estimate = largest["bytes"] / largest["count"]
            how = f"as at {largest['count']} games"
            if len(done) > 1:  # fixed costs amortize further: add the marginal bytes a game to the largest N
                slope = (largest["bytes"] - done[-2]["bytes"]) / (largest["count"] - done[-2]["count"])
                estimate = (largest["bytes"] + (count - largest["count"]) * slope) / count
                how = f"from {largest['count']} games plus {slope:.0f} bytes a further game"
            print(
                f"{count:>7} {mode:>11} {'skipped':>8} {estimate:>10.0f} {estimate / TARGET_BYTES:>7.2f}x  "
                "extrapolated"
                f" {how} ({expected:.0f} s expected, {left:.0f} s left of --budget)"
            )
            continue
        result = run_child(count, arguments.turns, mode, timeout=max(5.0, left))
        if result is None:
            print(f"{count:>7} {mode:>11} {'timeout':>8}")
            continue
        rate[mode] = result["seconds"] / count
        per_game = result["bytes"] / count
        # The slope from the previous N: fixed costs (bounded caches, arenas) drop out.
        marginal = ""
        if done:
            previous = done[-1]
            marginal = f"{(result['bytes'] - previous['bytes']) / (count - previous['count']):>10.0f}"
        done.append(result)
        print(
            f"{count:>7} {mode:>11} {result['seconds']:>8.1f} {per_game:>10.0f} "
            f"{per_game / TARGET_BYTES:>7.2f}x  {marginal}",
            flush=True,
        )
    for result in measured["tracemalloc"]:
        count = result["count"]
        print(
            f"\nof which the bounded caches (legal plays, play messages, ID halves; not per game): "
            f"{result['cache_bytes'] / count:.0f} bytes a game at {count} games; without them "
            f"{(result['bytes'] - result['cache_bytes']) / count:.0f} bytes a game "
            f"({(result['bytes'] - result['cache_bytes']) / count / TARGET_BYTES:.2f}x 20 KB)"
        )
        print("where the rest was allocated (tracemalloc, bytes a game):")
        for where, size in result["top"]:
            print(f"  {size / count:>8.0f}  {where}")


if __name__ == "__main__":
    main()
