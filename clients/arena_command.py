"""``tavli arena``: two bots play each other through the server, and the results are tallied.

Each result is one game of money play, or with ``--match-length`` one whole match. Bot A sits at
seat 0 in results 1, 3, 5, ... and at seat 1 in the others; each pair of results is played on the
same seeded dice (``arena-<seed>-<pair>``) with the seats swapped, so that luck of the dice
largely cancels out. Without ``--server`` an in-memory server is started in this process on a
free loopback port and stopped at the end.

What is counted, per bot:
- ``games``: results played (games; matches with --match-length), ``wins``: results won;
- ``gammons``, ``backgammons`` (long nardi: ``mars``): games won by that much (in matches,
  counted over every game of the matches);
- ``points``: net points, what the bot won less what it lost (cube included); with
  --match-length a match counts +1 won and -1 lost, so ``ppg`` is then 2 x (share won) - 1
  (the table calls them ``net wins`` and ``per match`` then);
- ``ppg`` with ``ppg_ci95``, the half-width of its 95% confidence interval (normal approximation).

Each bot holds its seat on a PlaySeat stream, as bots are best seated: the server sends it every
state with its legal actions and plays, and answers its actions on the stream. With ``--unary``
the two bots take turns over the unary RPCs instead, their plays listed with the engine (the one
the server runs: a round trip a turn fewer), so that a benchmark can time both ways
(``ArenaConfig.transport``). Either way the server checks every play and cube action as it would a
person's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TextIO

from tavli.clients import bots
from tavli.clients.client import RESULT_LEVELS, TavliClient, TavliServerError, VariantName
from tavli.clients.seat_driver import play_match
from tavli.engine import BACKGAMMON, VARIANTS, GameResult
from tavli.v1 import games_service_pb2 as games_pb2

_SEAT_INDEX = {games_pb2.SEAT_0: 0, games_pb2.SEAT_1: 1}


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "arena",
        help="play bots against each other through the server",
        description=(
            "Play two bots against each other through the server and print per bot: games, wins,"
            " gammons, backgammons (long nardi: mars), net points and points per game with a 95%"
            " confidence interval. Seats alternate between games; each pair of games is played on"
            " the same seeded dice. With --match-length each result is a whole match, won +1 and"
            " lost -1: the table then shows matches, wins, the gammons and backgammons of all their"
            " games, net wins and net wins per match with a 95% confidence interval."
            f" Bots: {', '.join(bots.NAMES)}."
        ),
    )
    parser.add_argument(
        "--variant", choices=sorted(VARIANTS), default=BACKGAMMON.name, help="the game to play (default: %(default)s)"
    )
    parser.add_argument("--bots", required=True, metavar="A,B", help="the two bots, e.g. heuristic,random")
    parser.add_argument(
        "--games", type=int, default=100, metavar="N",
        help="games to play, or matches with --match-length (default: %(default)s)",
    )
    parser.add_argument(
        "--match-length", type=int, default=0, metavar="L",
        help="play matches to L points (default: %(default)s, money games)",
    )
    parser.add_argument("--seed", type=int, help="seed for the dice and the bots (default: a random one)")
    parser.add_argument(
        "--parallel", type=int, default=1, metavar="K",
        help="games (or matches) played at once (default: %(default)s)",
    )
    parser.add_argument("--export", type=Path, metavar="DIR", help="write each game's .mat record to DIR")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument(
        "--unary",
        action="store_true",
        help="play over the unary RPCs, the seats taking turns, instead of a PlaySeat stream per seat",
    )
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help="use this server instead of starting one (started with --allow-seeded-dice: the arena seeds its dice)",
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    names = [name.strip() for name in arguments.bots.split(",")]
    problem = _problem(arguments, names)
    if problem:
        print(f"tavli arena: {problem}", file=sys.stderr)
        return 2
    seed = arguments.seed if arguments.seed is not None else random.randrange(2**31)
    config = ArenaConfig(
        variant=arguments.variant,
        bots=(names[0], names[1]),
        games=arguments.games,
        match_length=arguments.match_length,
        seed=seed,
        parallel=arguments.parallel,
        export=arguments.export,
        transport="unary" if arguments.unary else "stream",
    )
    progress = _ProgressBar(arguments.games, sys.stderr) if sys.stderr.isatty() else None
    try:
        with _server(arguments.server) as address, TavliClient.connect(address) as client:
            results = run_arena(client, config, progress=progress.update if progress else None)
    except TavliServerError as error:
        print(f"tavli arena: the server refused: {error.message} ({error.reason or error.code.name})", file=sys.stderr)
        return 1
    finally:
        if progress:
            progress.close()
    if arguments.json:
        print(json.dumps(results.as_json()))
    else:
        print(results.table())
    return 0


def _problem(arguments: argparse.Namespace, names: list[str]) -> str | None:
    if len(names) != 2:
        return f"--bots takes two bots, like heuristic,random, not {arguments.bots!r}"
    for name in names:
        if name not in bots.NAMES:
            return f"unknown bot {name!r}: choose from {', '.join(bots.NAMES)}"
        refusal = bots.refusal(name, VARIANTS[arguments.variant])
        if refusal:
            return refusal
        try:
            bots.create(name)
        except bots.GnubgUnavailableError as error:
            return str(error)
    if arguments.games < 1 or arguments.parallel < 1 or arguments.match_length < 0:
        return "--games and --parallel must be at least 1, --match-length at least 0"
    return None


# --- playing ------------------------------------------------------------------------------------


Transport = Literal["stream", "unary"]


@dataclass(frozen=True)
class ArenaConfig:
    """What to play: ``games`` results (games, or matches when ``match_length`` > 0), and how:
    ``transport`` "stream" seats each bot on a PlaySeat stream, "unary" plays over unary calls."""

    variant: VariantName
    bots: tuple[str, str]
    games: int
    match_length: int = 0
    seed: int = 0
    parallel: int = 1
    export: Path | None = None
    transport: Transport = "stream"

    @property
    def labels(self) -> tuple[str, str]:
        """The bots' names, told apart when a bot plays itself."""
        first, second = self.bots
        return (first, second) if first != second else (first, f"{second}#2")


_BIG_WINS = {GameResult.GAMMON: "gammons", GameResult.BACKGAMMON: "backgammons", GameResult.MARS: "mars"}
"""The results worth more than a single game, by the names the tallies count them under."""


def _big_wins(variant: str) -> list[GameResult]:
    """The results above a single that ``variant`` has, least first: a gammon and a backgammon, or a mars."""
    return [result for result in VARIANTS[variant].resign_levels if result in _BIG_WINS]


@dataclass
class BotTally:
    games: int = 0
    wins: int = 0
    big_wins: Counter[GameResult] = field(default_factory=Counter)  # games won by more than a single
    points: list[int] = field(default_factory=list)  # net points of each result

    def as_json(self, variant: str) -> dict[str, Any]:
        total = sum(self.points)
        ppg = total / self.games if self.games else 0.0
        big = {_BIG_WINS[result]: self.big_wins[result] for result in _big_wins(variant)}
        return {
            "games": self.games,
            "wins": self.wins,
            **big,
            "points": total,
            "ppg": round(ppg, 4),
            "ppg_ci95": round(_ci95(self.points), 4),
        }


@dataclass
class ArenaResults:
    config: ArenaConfig
    tallies: dict[str, BotTally]
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.config.games / self.seconds if self.seconds > 0 else 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "variant": self.config.variant,
            "match_length": self.config.match_length,
            "seed": self.config.seed,
            "transport": self.config.transport,
            "bots": {label: tally.as_json(self.config.variant) for label, tally in self.tallies.items()},
            "games_per_second": round(self.games_per_second, 3),
        }

    def table(self) -> str:
        """The tallies as a table. In matches, a result counts +1 won and -1 lost: its "points"
        and "ppg" are then net wins and net wins per match."""
        big_wins = [_BIG_WINS[result] for result in _big_wins(self.config.variant)]
        if self.config.match_length:
            unit, net, per_result = "matches", "net wins", "per match"
        else:
            unit, net, per_result = "games", "points", "ppg"
        columns = ["bot", unit, "wins", *big_wins, net, per_result, "95% ci"]
        rows: list[list[object]] = [list(columns)]
        for label, tally in self.tallies.items():
            shown = tally.as_json(self.config.variant)
            big = [shown[name] for name in big_wins]
            rows.append([label, tally.games, tally.wins, *big, shown["points"], f"{shown['ppg']:+.3f}",
                         f"±{shown['ppg_ci95']:.3f}"])
        widths = [max(len(str(row[index])) for row in rows) for index in range(len(columns))]
        lines = [
            "  ".join(str(cell).ljust(width) if index == 0 else str(cell).rjust(width)
                      for index, (cell, width) in enumerate(zip(row, widths)))
            for row in rows
        ]
        what = f"{self.config.match_length}-point matches" if self.config.match_length else "money games"
        config = self.config
        lines.insert(0, f"{config.variant}, {what}, seed {config.seed}, over {config.transport}")
        lines.append(f"{self.config.games} {unit} in {self.seconds:.1f} s: {self.games_per_second:.2f} {unit}/s")
        return "\n".join(lines)


def run_arena(client: TavliClient, config: ArenaConfig, *, progress: Any = None) -> ArenaResults:
    """Play ``config.games`` results between the two bots on ``client``'s server and tally them.

    ``progress``, if given, is called with the number of results finished after each one.
    """
    labels = config.labels
    tallies = {label: BotTally() for label in labels}
    lock = threading.Lock()
    finished = 0
    if config.export is not None:
        config.export.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=config.parallel) as pool:
        futures = [pool.submit(_play_one, client, config, index) for index in range(config.games)]
        for future in as_completed(futures):
            outcome = future.result()
            with lock:
                outcome.add_to(tallies, labels)
                finished += 1
            if progress is not None:
                progress(finished)
    return ArenaResults(config, tallies, time.perf_counter() - started)


@dataclass(frozen=True)
class _Outcome:
    """One result: bot A's seat, the final state."""

    a_seat: int
    game: games_pb2.Game
    match_length: int

    def add_to(self, tallies: dict[str, BotTally], labels: tuple[str, str]) -> None:
        by_seat = (labels[0], labels[1]) if self.a_seat == 0 else (labels[1], labels[0])
        for label in labels:
            tallies[label].games += 1
        for finished in self.game.finished_games:
            winner = tallies[by_seat[_SEAT_INDEX[finished.winner]]]
            result = GameResult(RESULT_LEVELS[finished.result])
            if result in _BIG_WINS:
                winner.big_wins[result] += 1
        if self.match_length:
            winning_seat, points = _SEAT_INDEX[self.game.winner], 1
        else:
            first = self.game.finished_games[0]
            winning_seat, points = _SEAT_INDEX[first.winner], int(first.points)
        tallies[by_seat[winning_seat]].wins += 1
        tallies[by_seat[winning_seat]].points.append(points)
        tallies[by_seat[1 - winning_seat]].points.append(-points)


def _play_one(client: TavliClient, config: ArenaConfig, index: int) -> _Outcome:
    a_seat = index % 2
    # Fresh bots for every result, seeded from the arena's seed: the same results whatever
    # order the threads finish in.
    first = bots.create(config.bots[0], seed=config.seed * 100_003 + index * 2)
    second = bots.create(config.bots[1], seed=config.seed * 100_003 + index * 2 + 1)
    seated = (first, second) if a_seat == 0 else (second, first)
    stream = config.transport == "stream"
    played = play_match(
        client,
        seated,
        variant=config.variant,
        match_length=config.match_length,
        dice_seed=f"arena-{config.seed}-{index // 2}",
        engine_plays=not stream,  # a stream brings the server's legal plays with every state
        stream=stream,
    )
    if config.export is not None:
        name = f"{index + 1:05d}-{config.bots[0]}-vs-{config.bots[1]}.mat"
        (config.export / name).write_text(client.export_mat(played.name), encoding="utf-8")
    return _Outcome(a_seat, played.game, config.match_length)


def _ci95(points: list[int]) -> float:
    count = len(points)
    if count < 2:
        return 0.0
    mean = sum(points) / count
    variance = sum((value - mean) ** 2 for value in points) / (count - 1)
    return 1.96 * math.sqrt(variance / count)


# --- the server and the terminal ----------------------------------------------------------------


@contextlib.contextmanager
def _server(address: str | None) -> Iterator[str]:
    """``address``, or an in-memory server started here on a free loopback port for the while."""
    if address:
        yield address
        return
    from tavli.server.app import embedded_server

    with embedded_server() as embedded:
        yield embedded


class _ProgressBar:
    """A one-line progress bar on a terminal."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total = total
        self.out = out
        self.started = time.perf_counter()

    def update(self, done: int) -> None:
        width = 30
        filled = width * done // self.total
        rate = done / max(time.perf_counter() - self.started, 1e-9)
        bar = "#" * filled + "-" * (width - filled)
        self.out.write(f"\r[{bar}] {done}/{self.total}  {rate:.1f}/s")
        self.out.flush()

    def close(self) -> None:
        self.out.write("\n")
        self.out.flush()
