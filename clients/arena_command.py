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
- ``ppg`` with ``ppg_ci95``, the half-width of its 95% confidence interval (normal approximation);
- ``time_losses`` (with clocks): results lost on time (games; matches with --match-length).

With the ``--clock-*`` options every game the arena creates has clocks (README "Clocks"): a bot
that keeps its turn past its time loses, the match in match play, the game at the cube's value in
money play, as the server records it with nobody calling. An operator so stops a stuck bot, and
the results say how many it lost on time.

Each bot holds its seat on a PlaySeat stream, as bots are best seated: the server sends it every
state with its legal actions and plays, and answers its actions on the stream. With ``--unary``
the two bots take turns over the unary RPCs instead, their plays listed with the engine (the one
the server runs: a round trip a turn fewer), so that a benchmark can time both ways
(``ArenaConfig.transport``). Either way the server checks every play and cube action as it would a
person's.

With ``--round-robin``, ``--bots`` may name more than two bots: every pair of them plays
``--games`` results as above, and standings with ratings follow (:mod:`tavli.clients.tournament`).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Literal, Protocol, TextIO

from tavli.clients import bots
from tavli.clients.board_view import clock_time
from tavli.clients.client import GAME_RESULTS, MATCH_VARIANT_ENUMS, TavliClient, TavliServerError
from tavli.clients.rule_options import (
    GAMES,
    add_backgammons_option,
    add_clock_options,
    add_variant_option,
    backgammons_of,
    clock_of,
    clock_problem,
    rules_problem,
    table_options,
    variants_played,
)
from tavli.clients.seat_driver import play_match
from tavli.engine import GameResult
from tavli.engine.clock import ClockRules
from tavli.engine.matfile.reading import RecordFormat
from tavli.engine.matfile.sgf import sgf_refusal
from tavli.engine.rules import Backgammons, MatchVariant, RuleSet
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
            " With --round-robin, --bots names two or more bots: every pair plays --games results (both ways,"
            " on the same dice), then standings give each bot's results, wins, points per result with a 95%"
            " confidence interval and a rating with its standard error (FIBS ratings in match play, Elo in"
            " money play)."
            " With the --clock-* options every game has clocks: a bot whose time runs out"
            " loses (the match, or the game at the cube's value in money play), and the results count"
            " each bot's losses on time."
            f" Bots: {', '.join(bots.NAMES)}."
        ),
    )
    add_variant_option(
        parser,
        what="the game to play; portes, tavla and tavli, whose later games the winner opens, need"
        " --match-length",
        variants=MATCH_VARIANT_ENUMS,
    )
    parser.add_argument(
        "--bots",
        required=True,
        metavar="A,B[,C...]",
        help=(
            "the two bots, e.g. heuristic,random; two or more with --round-robin (a bot named twice plays "
            "itself)"
        ),
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        metavar="N",
        help=(
            "games to play, or matches with --match-length; with --round-robin, for each pair (default: "
            "%(default)s)"
        ),
    )
    parser.add_argument(
        "--round-robin",
        action="store_true",
        help=(
            "play every pair of the bots, each pair both ways on the same dice, then print standings with "
            "ratings"
        ),
    )
    parser.add_argument(
        "--match-length",
        type=int,
        default=0,
        metavar="L",
        help="play matches to L points (default: %(default)s, money games)",
    )
    add_backgammons_option(parser)
    parser.add_argument("--seed", type=int, help="seed for the dice and the bots (default: a random one)")
    parser.add_argument(
        "--parallel",
        type=int,
        default=1,
        metavar="K",
        help="games (or matches) played at once, across the pairs with --round-robin (default: %(default)s)",
    )
    add_clock_options(parser)
    parser.add_argument("--export", type=Path, metavar="DIR", help="write each game's match record to DIR")
    parser.add_argument(
        "--export-format",
        choices=["mat", "sgf"],
        default="mat",
        help="the records --export writes: .mat files, or GNU Backgammon's SGF (backgammon only;"
        " default: %(default)s)",
    )
    parser.add_argument(
        "--analyze",
        type=int,
        nargs="?",
        const=0,
        choices=(0, 1, 2),
        metavar="PLIES",
        help=(
            "review every result with GNU Backgammon's analysis at PLIES (0 if not given) and report each"
            " bot's error rate and PR (backgammon only)"
        ),
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument(
        "--unary",
        action="store_true",
        help="play over the unary RPCs, the seats taking turns, instead of a PlaySeat stream per seat",
    )
    parser.add_argument(
        "--server",
        metavar="HOST:PORT",
        help=(
            "use this server instead of starting one (started with --allow-seeded-dice: the arena seeds "
            "its dice)"
        ),
    )
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    names = [name.strip() for name in arguments.bots.split(",")]
    problem = _problem(arguments, names)
    if problem:
        print(f"tavli arena: {problem}", file=sys.stderr)
        return 2
    seed = arguments.seed if arguments.seed is not None else random.randrange(2**31)
    total, play = _what_to_play(arguments, names, seed)
    progress = _ProgressBar(total, sys.stderr) if sys.stderr.isatty() else None
    try:
        with _server(arguments.server) as address, TavliClient.connect(address) as client:
            results = play(client, progress.update if progress else None)
    except TavliServerError as error:
        print(
            f"tavli arena: the server refused: {error.message} ({error.reason or error.status.name})",
            file=sys.stderr,
        )
        return 1
    finally:
        if progress:
            progress.close()
    if arguments.json:
        print(json.dumps(results.as_json()))
    else:
        print(results.table())
    return 0


class _Printable(Protocol):
    def as_json(self) -> dict[str, Any]: ...
    def table(self) -> str: ...


Progress = Callable[[int], None]
"""Told the number of results finished after each one."""
_Play = Callable[[TavliClient, Progress | None], _Printable]


def _what_to_play(arguments: argparse.Namespace, names: list[str], seed: int) -> tuple[int, _Play]:
    """The number of results to play, and how to play them: the two-bot arena, or a round robin."""
    settings: dict[str, Any] = {
        "variant": GAMES[arguments.variant]["variant"],
        "game": arguments.variant,
        "games": arguments.games,
        "match_length": arguments.match_length,
        "seed": seed,
        "parallel": arguments.parallel,
        "export": arguments.export,
        "export_format": arguments.export_format,
        "transport": "unary" if arguments.unary else "stream",
        "clock": clock_of(arguments),
        "backgammons": _backgammons(arguments),
        "analyze": arguments.analyze,
    }
    if arguments.round_robin:
        from tavli.clients.tournament import TournamentConfig, run_tournament  # it builds on this module

        tournament = TournamentConfig(bots=tuple(names), **settings)
        return tournament.results, lambda client, progress: run_tournament(
            client, tournament, progress=progress
        )
    config = ArenaConfig(bots=(names[0], names[1]), **settings)
    return config.games, lambda client, progress: run_arena(client, config, progress=progress)


def _backgammons(arguments: argparse.Namespace) -> Backgammons:
    """How a backgammon scores: as ``--backgammons`` says, else as the game chosen has it."""
    return backgammons_of(arguments, GAMES[arguments.variant].get("backgammons"))


def _problem(arguments: argparse.Namespace, names: list[str]) -> str | None:
    if arguments.round_robin and len(names) < 2:
        return (
            f"--round-robin takes two bots or more, like heuristic,random,heuristic, not {arguments.bots!r}"
        )
    if not arguments.round_robin and len(names) > 2:
        return (
            f"--bots names {len(names)} bots: add --round-robin to play every pair of them,"
            " or name two, like heuristic,random"
        )
    if not arguments.round_robin and len(names) != 2:
        return f"--bots takes two bots, like heuristic,random, not {arguments.bots!r}"
    if arguments.games < 1 or arguments.parallel < 1 or arguments.match_length < 0:
        return "--games and --parallel must be at least 1, --match-length at least 0"
    options = {"match_length": arguments.match_length, **table_options(arguments.variant)}
    variant = GAMES[arguments.variant]["variant"]
    problem = rules_problem(variant, _backgammons(arguments), **options)
    if problem:
        return problem
    rules = RuleSet(variant=variant, backgammons=_backgammons(arguments), **options)
    for name in dict.fromkeys(names):
        if name not in bots.NAMES:
            return f"unknown bot {name!r}: choose from {', '.join(bots.NAMES)}"
        for played in rules.variants_played:
            refusal = bots.refusal(name, played)
            if refusal:
                return refusal
        try:
            bots.create(name)
        except bots.GnubgUnavailableError as error:
            return str(error)
    if arguments.export_format == "sgf":
        refusal = sgf_refusal(rules)
        if refusal:
            return f"--export-format sgf: {refusal}"
    return clock_problem(clock_of(arguments), arguments.match_length)


def clock_words(clock: ClockRules) -> str:
    """``clock`` as the title line says it: "reserve 60 s + 6 s a point, delay 8 s, move limit 30 s"."""
    reserve = [f"{clock.reserve:g} s"] if clock.reserve else []
    if clock.reserve_per_point:
        reserve.append(f"{clock.reserve_per_point:g} s a point")
    parts = [f"reserve {' + '.join(reserve)}"] if reserve else []
    if clock.delay:
        parts.append(f"delay {clock.delay:g} s")
    if clock.move_limit:
        parts.append(f"move limit {clock.move_limit:g} s")
    return ", ".join(parts)


def backgammons_words(backgammons: Backgammons) -> str:
    """What the title line adds for the ``backgammons`` option: nothing when they are counted."""
    return " (backgammons scored as gammons)" if backgammons == "AS_GAMMON" else ""


def clock_json(clock: ClockRules | None) -> dict[str, float] | None:
    """``clock``'s settings in seconds for the JSON output (None: no clocks)."""
    return None if clock is None else {setting: float(seconds) for setting, seconds in asdict(clock).items()}


# --- playing ------------------------------------------------------------------------------------


Transport = Literal["stream", "unary"]


@dataclass(frozen=True, kw_only=True)
class PlaySettings:
    """How every result of an arena or a round robin is played: ``games`` results (games, or
    matches when ``match_length`` > 0) of ``variant``; ``transport`` "stream" seats each bot on a
    PlaySeat stream, "unary" plays over unary calls.

    ``game``: the game chosen, as ``--variant`` names it (:data:`GAMES`; nackgammon, hypergammon,
    Portes and tavla set options beside the ``variant``); empty for the variant itself.
    ``clock``: the clocks of every game, or None for none. ``backgammons``: how a backgammon scores
    in every game (RuleSet's option). ``analyze``: the plies each result is reviewed at, or None
    for no review.
    """

    variant: MatchVariant
    games: int
    match_length: int = 0
    seed: int = 0
    parallel: int = 1
    export: Path | None = None
    export_format: RecordFormat = "mat"
    transport: Transport = "stream"
    clock: ClockRules | None = None
    backgammons: Backgammons = "COUNTED"
    game: str = ""
    analyze: int | None = None

    def settings(self) -> dict[str, Any]:
        """These settings alone, as keywords for another arena's or round robin's."""
        return {setting.name: getattr(self, setting.name) for setting in fields(PlaySettings)}


@dataclass(frozen=True, kw_only=True)
class ArenaConfig(PlaySettings):
    """Two bots' arena, played as :class:`PlaySettings` say.

    ``pairing``: 0 for the two-bot arena; in a round robin, the pairing's number (from 1), which
    gives it dice and bot seeds of its own. ``known_as``: the bots' labels there (a bot named twice
    in a round robin is told apart as ``name#2``), instead of :attr:`labels`' own.
    """

    bots: tuple[str, str]
    pairing: int = 0
    known_as: tuple[str, str] | None = None

    @property
    def labels(self) -> tuple[str, str]:
        """The bots' names, told apart when a bot plays itself."""
        if self.known_as is not None:
            return self.known_as
        first, second = self.bots
        return (first, second) if first != second else (first, f"{second}#2")

    def dice_seed(self, index: int) -> str:
        """The dice seed of result ``index`` (from 0): the same for each pair of results, 2k and 2k+1,
        which the bots play with their seats swapped. ``arena-<seed>-<pair>`` in the two-bot arena,
        ``arena-<seed>-p<pairing>-<pair>`` in a round robin's pairing."""
        if self.pairing:
            return f"arena-{self.seed}-p{self.pairing}-{index // 2}"
        return f"arena-{self.seed}-{index // 2}"

    def bot_seeds(self, index: int) -> tuple[int, int]:
        """The seeds of the two bots' fresh instances for result ``index``: the same results whatever
        order the threads finish in."""
        if not self.pairing:
            return (self.seed * 100_003 + index * 2, self.seed * 100_003 + index * 2 + 1)
        return (
            _seed_from(f"arena-{self.seed}-p{self.pairing}-{index}-0"),
            _seed_from(f"arena-{self.seed}-p{self.pairing}-{index}-1"),
        )

    def export_name(self, index: int) -> str:
        """The file result ``index``'s record is exported to (a .mat or .sgf file)."""
        if self.pairing:
            first, second = self.labels
            return f"{self.pairing:02d}-{index + 1:05d}-{first}-vs-{second}.{self.export_format}"
        return f"{index + 1:05d}-{self.bots[0]}-vs-{self.bots[1]}.{self.export_format}"


def _seed_from(text: str) -> int:
    """A 63-bit seed read from ``text``'s SHA-256: the same on every run and platform."""
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


_BIG_WINS = {
    GameResult.GAMMON: "gammons",
    GameResult.BACKGAMMON: "backgammons",
    GameResult.MARS: "mars",
    GameResult.MOTHER: "mothers",
}
"""The results worth more than a single game, by the names the tallies count them under."""


def _big_wins(variant: MatchVariant) -> list[GameResult]:
    """The results above a single that ``variant``'s games have, in :data:`_BIG_WINS`'s order: a
    gammon and a backgammon, a mars, a mother loss (Plakoto)."""
    had: set[GameResult] = set()
    for played in variants_played(variant):
        had.update(played.resign_levels)
        if played.pins:
            had.add(GameResult.MOTHER)
    return [result for result in _BIG_WINS if result in had]


@dataclass
class Errors:
    """A bot's errors over the results reviewed, as GNU Backgammon's analysis counts them: the
    equity lost (EMG) over its unforced moves and close or actual cube decisions."""

    lost: float = 0.0
    decisions: int = 0

    def add(self, other: Errors) -> None:
        self.lost += other.lost
        self.decisions += other.decisions

    @property
    def error_rate(self) -> float:
        """In thousandths of an EMG a decision."""
        return 1000 * self.lost / self.decisions if self.decisions else 0.0

    @property
    def pr(self) -> float:
        """XG's Performance Rating: 500 x the error a decision."""
        return self.error_rate / 2

    def as_json(self) -> dict[str, float]:
        return {"error_rate": round(self.error_rate, 2), "pr": round(self.pr, 2)}


@dataclass
class BotTally:
    games: int = 0
    wins: int = 0
    big_wins: Counter[GameResult] = field(default_factory=Counter)  # games won by more than a single
    points: list[int] = field(default_factory=list)  # net points of each result
    time_losses: int = 0  # results lost on time
    errors: Errors = field(default_factory=Errors)  # where the results were reviewed

    def as_json(
        self, variant: MatchVariant, *, clocked: bool = False, reviewed: bool = False
    ) -> dict[str, Any]:
        """The tally as the JSON output gives it; ``time_losses`` only where the games had clocks,
        ``error_rate`` and ``pr`` only where the results were reviewed."""
        total = sum(self.points)
        ppg = total / self.games if self.games else 0.0
        big = {_BIG_WINS[result]: self.big_wins[result] for result in _big_wins(variant)}
        return {
            "games": self.games,
            "wins": self.wins,
            **big,
            "points": total,
            "ppg": round(ppg, 4),
            "ppg_ci95": round(ci95(self.points), 4),
            **({"time_losses": self.time_losses} if clocked else {}),
            **(self.errors.as_json() if reviewed else {}),
        }


@dataclass
class ArenaResults:
    config: ArenaConfig
    tallies: dict[str, BotTally]
    seconds: float
    outcomes: list[Outcome] = field(default_factory=list)  # each result's, by index

    @property
    def games_per_second(self) -> float:
        return self.config.games / self.seconds if self.seconds > 0 else 0.0

    def as_json(self) -> dict[str, Any]:
        clocked = self.config.clock is not None
        return {
            "variant": self.config.game or self.config.variant,
            "match_length": self.config.match_length,
            "seed": self.config.seed,
            "transport": self.config.transport,
            "clock": clock_json(self.config.clock),
            "backgammons": self.config.backgammons,
            "bots": {
                label: tally.as_json(
                    self.config.variant, clocked=clocked, reviewed=self.config.analyze is not None
                )
                for label, tally in self.tallies.items()
            },
            **({"analyzed_at_plies": self.config.analyze} if self.config.analyze is not None else {}),
            "games_per_second": round(self.games_per_second, 3),
        }

    def table(self) -> str:
        """The tallies as a table. In matches, a result counts +1 won and -1 lost: its "points"
        and "ppg" are then net wins and net wins per match. With clocks, "lost on time" counts the
        results each bot lost on time."""
        big_wins = [_BIG_WINS[result] for result in _big_wins(self.config.variant)]
        if self.config.match_length:
            unit, net, per_result = "matches", "net wins", "per match"
        else:
            unit, net, per_result = "games", "points", "ppg"
        on_time = ["lost on time"] if self.config.clock else []
        reviewed = ["error rate", "PR"] if self.config.analyze is not None else []
        columns = ["bot", unit, "wins", *big_wins, *on_time, net, per_result, "95% ci", *reviewed]
        rows: list[list[object]] = [list(columns)]
        for label, tally in self.tallies.items():
            shown = tally.as_json(self.config.variant)
            big = [shown[name] for name in big_wins]
            lost_on_time = [tally.time_losses] if on_time else []
            rows.append(
                [
                    label,
                    tally.games,
                    tally.wins,
                    *big,
                    *lost_on_time,
                    shown["points"],
                    f"{shown['ppg']:+.3f}",
                    f"±{shown['ppg_ci95']:.3f}",
                    *([f"{tally.errors.error_rate:.1f}", f"{tally.errors.pr:.1f}"] if reviewed else []),
                ]
            )
        widths = [max(len(str(row[index])) for row in rows) for index in range(len(columns))]
        lines = [
            "  ".join(
                str(cell).ljust(width) if index == 0 else str(cell).rjust(width)
                for index, (cell, width) in enumerate(zip(row, widths))
            )
            for row in rows
        ]
        what = f"{self.config.match_length}-point matches" if self.config.match_length else "money games"
        config = self.config
        clocks = f", clocks: {clock_words(config.clock)}" if config.clock else ""
        variant = f"{config.game or config.variant}{backgammons_words(config.backgammons)}"
        lines.insert(0, f"{variant}, {what}, seed {config.seed}, over {config.transport}{clocks}")
        lines.append(
            f"{self.config.games} {unit} in {self.seconds:.1f} s: {self.games_per_second:.2f} {unit}/s"
        )
        if reviewed:
            lines.append(review_words(self.config.analyze))
        return "\n".join(lines)


def run_arena(client: TavliClient, config: ArenaConfig, *, progress: Progress | None = None) -> ArenaResults:
    """Play ``config.games`` results between the two bots on ``client``'s server and tally them.

    ``progress``, if given, is called with the number of results finished after each one.
    """
    outcomes: dict[int, Outcome] = {}
    if config.export is not None:
        config.export.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=config.parallel) as pool:
        futures = {pool.submit(play_result, client, config, index): index for index in range(config.games)}
        for future in as_completed(futures):
            outcomes[futures[future]] = future.result()
            if progress is not None:
                progress(len(outcomes))
    return tally(config, [outcomes[index] for index in range(config.games)], time.perf_counter() - started)


def tally(config: ArenaConfig, outcomes: list[Outcome], seconds: float) -> ArenaResults:
    """The two bots' tallies over ``outcomes`` (each result's, by index) played in ``seconds``."""
    labels = config.labels
    tallies = {label: BotTally() for label in labels}
    for outcome in outcomes:
        outcome.add_to(tallies, labels)
    return ArenaResults(config, tallies, seconds, list(outcomes))


@dataclass(frozen=True)
class Outcome:
    """One result: bot A's seat, the final state, and the dice seed it was played on."""

    a_seat: int
    game: games_pb2.Game
    match_length: int
    dice_seed: str = ""
    errors: tuple[Errors, Errors] | None = None  # each seat's, where the result was reviewed

    @property
    def deciding(self) -> games_pb2.FinishedGame:
        """The game that decided the result: the match's last, or in money play the first game won
        (a drawn Plakoto game decides nothing: play goes on)."""
        finished = self.game.finished_games
        if self.match_length:
            return finished[-1]
        return next(game for game in finished if game.winner != games_pb2.SEAT_UNSPECIFIED)

    @property
    def winning_seat(self) -> int:
        """The seat (0 or 1) that won the result: the match, or in money play the game."""
        if self.match_length:
            return _SEAT_INDEX[self.game.winner]
        return _SEAT_INDEX[self.deciding.winner]

    @property
    def lost_on_time(self) -> bool:
        """Whether the loser's time ran out: the match's last game, or the money game, ended on time."""
        return bool(self.deciding.ended_by == games_pb2.GAME_END_TIME)

    @property
    def points(self) -> int:
        """What the winner won: the game's points (cube included), or 1 for a match."""
        return 1 if self.match_length else int(self.deciding.points)

    def seated(self, labels: tuple[str, str]) -> tuple[str, str]:
        """The labels of the bots at seat 0 and seat 1, bot A's being ``labels[0]``."""
        return (labels[0], labels[1]) if self.a_seat == 0 else (labels[1], labels[0])

    def add_to(self, tallies: dict[str, BotTally], labels: tuple[str, str]) -> None:
        by_seat = self.seated(labels)
        for label in labels:
            tallies[label].games += 1
        for finished in self.game.finished_games:
            if finished.winner == games_pb2.SEAT_UNSPECIFIED:
                continue  # a drawn Plakoto game
            result = GAME_RESULTS[finished.result]
            if result in _BIG_WINS:
                tallies[by_seat[_SEAT_INDEX[finished.winner]]].big_wins[result] += 1
        winning_seat, points = self.winning_seat, self.points
        tallies[by_seat[winning_seat]].wins += 1
        tallies[by_seat[winning_seat]].points.append(points)
        tallies[by_seat[1 - winning_seat]].points.append(-points)
        if self.lost_on_time:
            tallies[by_seat[1 - winning_seat]].time_losses += 1
        for seat, errors in enumerate(self.errors or ()):
            tallies[by_seat[seat]].errors.add(errors)


def play_result(client: TavliClient, config: ArenaConfig, index: int) -> Outcome:
    """Play result ``index`` (from 0) of ``config``: bot A at seat 0 when ``index`` is even, at
    seat 1 when odd, on the dice seed the pair of results shares; export it if asked."""
    a_seat = index % 2
    # Fresh bots for every result, seeded from the arena's seed: the same results whatever
    # order the threads finish in.
    first_seed, second_seed = config.bot_seeds(index)
    first = bots.create(config.bots[0], seed=first_seed)
    second = bots.create(config.bots[1], seed=second_seed)
    seated = (first, second) if a_seat == 0 else (second, first)
    stream = config.transport == "stream"
    dice_seed = config.dice_seed(index)
    clocks: dict[str, Any] = {"clock": config.clock} if config.clock else {}
    played = play_match(
        client,
        seated,
        variant=config.variant,
        match_length=config.match_length,
        dice_seed=dice_seed,
        engine_plays=not stream,  # a stream brings the server's legal plays with every state
        stream=stream,
        backgammons=config.backgammons,
        **table_options(config.game),
        **clocks,
    )
    if config.export is not None:
        export = client.export_sgf if config.export_format == "sgf" else client.export_mat
        (config.export / config.export_name(index)).write_text(export(played.name), encoding="utf-8")
    errors = None if config.analyze is None else reviewed_errors(client, played.name, config.analyze)
    return Outcome(a_seat, played.game, config.match_length, dice_seed, errors)


def reviewed_errors(client: TavliClient, name: str, plies: int) -> tuple[Errors, Errors]:
    """Each seat's errors in the stored game ``name``, reviewed at ``plies`` by the server."""
    players = client.analyze_match(game=name, plies=plies).players
    seat_0, seat_1 = (
        Errors(player.chequer_error + player.cube_error, player.unforced_moves + player.cube_decisions)
        for player in players
    )
    return seat_0, seat_1


def review_words(plies: int | None) -> str:
    """What the error rate and PR columns are."""
    return (
        f"error rate: GNU Backgammon's, at {plies} plies, in thousandths of an EMG per unforced move or"
        " close or actual cube decision; PR (XG-style): half of it"
    )


def ci95(points: list[int]) -> float:
    """The half-width of the 95% confidence interval of the mean of ``points`` (normal approximation)."""
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
    """A one-line progress bar on a terminal: results done of the total, the rate so far, the time
    elapsed and the ETA (the results left at the rate so far)."""

    def __init__(self, total: int, out: TextIO) -> None:
        self.total = total
        self.out = out
        self.started = time.perf_counter()

    def update(self, done: int) -> None:
        self.out.write("\r" + self.line(done, time.perf_counter() - self.started))
        self.out.flush()

    def line(self, done: int, elapsed: float) -> str:
        """The bar after ``done`` results in ``elapsed`` seconds."""
        width = 30
        filled = width * done // self.total
        rate = done / max(elapsed, 1e-9)
        eta = (self.total - done) / rate if done else None
        bar = "#" * filled + "-" * (width - filled)
        left = clock_time(eta) if eta is not None else "?"
        return f"[{bar}] {done}/{self.total}  {rate:.1f}/s  elapsed {clock_time(elapsed)}  ETA {left} "

    def close(self) -> None:
        self.out.write("\n")
        self.out.flush()
