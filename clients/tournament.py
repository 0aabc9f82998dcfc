"""``tavli arena --round-robin``: every pair of bots plays, then standings with ratings.

The bots named in ``--bots`` (two or more) are paired in the order named: 1-2, 1-3, ..., 2-3, ...
Each pairing plays ``--games`` results as the two-bot arena does (:mod:`tavli.clients.arena_command`):
the pairing's first bot sits at seat 0 in its results 1, 3, 5, ... and at seat 1 in the others,
and results 2k+1 and 2k+2 are played on the same seeded dice with the seats swapped (duplicate
play). Each pairing has dice of its own, ``arena-<seed>-p<pairing>-<pair>``, and bot seeds of its
own, all derived from ``--seed`` and the pairing's number, so that a tournament is the same
whatever order the threads finish in; ``--parallel`` plays results at once across the pairings.
An odd ``--games`` leaves a pairing's last result without its twin on the same dice (its first
bot then sits at seat 0 once more than the other).

A bot may be named more than once: the copies are told apart as ``heuristic``, ``heuristic#2``, ...
and play each other like any pair, a sanity check of the arena and of duplicate play (two copies of
a bot that plays without chance, such as ``heuristic``, win exactly one result of each pair on the
same dice; their ratings come out equal).

The standings give, per bot over all its pairings: results played, wins and their share, net
points (net wins in match play, a match counting +1 or -1) and per result with the half-width of a
95% confidence interval (normal approximation), and a rating with its standard error: FIBS
ratings for matches, Elo for money games (a game counts won or lost, a gammon as one win), both
fitted by maximum likelihood with their mean at 1500 (:mod:`tavli.clients.ratings` says how, and what
the error means). With clocks (the ``--clock-*`` options) every game of every pairing has them, and
the standings and each result say which results were lost on time.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from tavli.clients.arena_command import (
    ArenaConfig,
    ArenaResults,
    Errors,
    Outcome,
    PlaySettings,
    Progress,
    backgammons_words,
    ci95,
    clock_json,
    clock_words,
    play_result,
    review_words,
    tally,
)
from tavli.clients.client import TavliClient
from tavli.clients.ratings import START, HeadToHead, Rating, Ratings, fit_ratings, scale_for

VIRTUAL_WINS = 1.0
"""The virtual results each side of a pairing is counted as having won, for the ratings' fit."""


@dataclass(frozen=True, kw_only=True)
class TournamentConfig(PlaySettings):
    """A round robin: every pair of ``bots`` plays as :class:`~tavli.clients.arena_command.PlaySettings`
    say."""

    bots: tuple[str, ...]

    @property
    def labels(self) -> tuple[str, ...]:
        """The bots' names, a bot named again told apart as ``name#2``, ``name#3``, ..."""
        return told_apart(self.bots)

    @property
    def results(self) -> int:
        """The results to play in all: ``games`` for each pairing."""
        return self.games * len(self.pairings())

    def pairings(self) -> list[ArenaConfig]:
        """Each pair of bots, in the order named (1-2, 1-3, ..., 2-3, ...), numbered from 1."""
        labels = self.labels
        return [
            ArenaConfig(
                **self.settings(),
                bots=(self.bots[first], self.bots[second]),
                pairing=number,
                known_as=(labels[first], labels[second]),
            )
            for number, (first, second) in enumerate(combinations(range(len(self.bots)), 2), start=1)
        ]


def told_apart(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` with the second, third, ... of a name labelled ``name#2``, ``name#3``, ..."""
    seen: dict[str, int] = {}
    labels = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        labels.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(labels)


# --- the standings ------------------------------------------------------------------------------


@dataclass
class Standing:
    """One bot over all its pairings."""

    bot: str
    rating: Rating
    games: int = 0  # results played
    wins: int = 0
    points: list[int] = field(default_factory=list)  # net points of each result (+1 or -1 for a match)
    time_losses: int = 0  # results lost on time
    errors: Errors = field(default_factory=Errors)  # where the results were reviewed

    @property
    def win_share(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ppg(self) -> float:
        return sum(self.points) / self.games if self.games else 0.0

    def as_json(self, *, clocked: bool = False, reviewed: bool = False) -> dict[str, Any]:
        """The standing as the JSON output gives it; ``time_losses`` only where the games had clocks,
        ``error_rate`` and ``pr`` only where the results were reviewed."""
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_share": round(self.win_share, 4),
            "points": sum(self.points),
            "ppg": round(self.ppg, 4),
            "ppg_ci95": round(ci95(self.points), 4),
            "rating": round(self.rating.rating, 1),
            "rating_error": round(self.rating.error, 1),
            **({"time_losses": self.time_losses} if clocked else {}),
            **(self.errors.as_json() if reviewed else {}),
        }


@dataclass
class TournamentResults:
    """Each pairing's results, as the two-bot arena tallies them, and the standings over them."""

    config: TournamentConfig
    pairings: list[ArenaResults]
    seconds: float

    @property
    def rating_system(self) -> str:
        """ "FIBS" for match play, "Elo" for money play."""
        return "FIBS" if self.config.match_length else "Elo"

    @property
    def games_per_second(self) -> float:
        return self.config.results / self.seconds if self.seconds > 0 else 0.0

    def head_to_heads(self) -> list[HeadToHead]:
        """Each pairing's wins, its first bot's and its second's."""
        records = []
        for pairing in self.pairings:
            first, second = pairing.config.labels
            records.append(
                HeadToHead(first, second, pairing.tallies[first].wins, pairing.tallies[second].wins)
            )
        return records

    def ratings(self) -> Ratings:
        """The bots' ratings fitted to every pairing's wins (see :mod:`tavli.clients.ratings`)."""
        scale = scale_for(self.config.match_length)
        return fit_ratings(self.head_to_heads(), scale, virtual_wins=VIRTUAL_WINS, players=self.config.labels)

    def standings(self) -> list[Standing]:
        """Each bot over all its pairings, the highest rated first (ties in the order named)."""
        ratings = self.ratings()
        standings = {label: Standing(label, ratings[label]) for label in self.config.labels}
        for pairing in self.pairings:
            for label, bot_tally in pairing.tallies.items():
                standing = standings[label]
                standing.games += bot_tally.games
                standing.wins += bot_tally.wins
                standing.points.extend(bot_tally.points)
                standing.time_losses += bot_tally.time_losses
                standing.errors.add(bot_tally.errors)
        return sorted(standings.values(), key=lambda standing: -standing.rating.rating)

    def as_json(self) -> dict[str, Any]:
        config = self.config
        return {
            "variant": config.game or config.variant,
            "match_length": config.match_length,
            "seed": config.seed,
            "transport": config.transport,
            "clock": clock_json(config.clock),
            "backgammons": config.backgammons,
            "round_robin": True,
            "bots": list(config.labels),
            "games_per_pairing": config.games,
            "rating": {
                "system": self.rating_system,
                "scale": round(scale_for(config.match_length), 3),
                "mean": START,
                "virtual_wins": VIRTUAL_WINS,
                "method": "maximum likelihood; error: standard error from the observed information",
            },
            "standings": [
                standing.as_json(clocked=config.clock is not None, reviewed=config.analyze is not None)
                for standing in self.standings()
            ],
            **({"analyzed_at_plies": config.analyze} if config.analyze is not None else {}),
            "pairings": [_pairing_json(pairing) for pairing in self.pairings],
            "games_per_second": round(self.games_per_second, 3),
        }

    def table(self) -> str:
        """The standings as a table, then each pairing's score."""
        config = self.config
        unit = "matches" if config.match_length else "games"
        lines = [self._title(), *_columns(self._standing_rows()), "", *_columns(self._pairing_rows())]
        lines.append(
            f"{config.results} {unit} in {self.seconds:.1f} s: {self.games_per_second:.2f} {unit}/s;"
            f" {self.rating_system} ratings fitted by maximum likelihood, mean {START:.0f},"
            " ± a standard error (relative to the mean)"
        )
        if config.analyze is not None:
            lines.append(review_words(config.analyze))
        return "\n".join(lines)

    def _title(self) -> str:
        config = self.config
        what = f"{config.match_length}-point matches" if config.match_length else "money games"
        unit = "matches" if config.match_length else "games"
        clocks = f", clocks: {clock_words(config.clock)}" if config.clock else ""
        return (
            f"{config.game or config.variant}{backgammons_words(config.backgammons)}, {what}, round robin of"
            f" {len(config.bots)} bots, {config.games} {unit} a pairing"
            f" (both ways, the same dice), seed {config.seed}, over {config.transport}{clocks}"
        )

    def _standing_rows(self) -> list[list[str]]:
        if self.config.match_length:
            unit, net, per_result = "matches", "net wins", "per match"
        else:
            unit, net, per_result = "games", "points", "ppg"
        on_time = ["lost on time"] if self.config.clock else []
        reviewed = ["error rate", "PR"] if self.config.analyze is not None else []
        rows = [
            [
                "bot",
                unit,
                "wins",
                "win share",
                *on_time,
                net,
                per_result,
                "95% ci",
                self.rating_system,
                "± error",
                *reviewed,
            ]
        ]
        for standing in self.standings():
            lost_on_time = [str(standing.time_losses)] if on_time else []
            rows.append(
                [
                    standing.bot,
                    str(standing.games),
                    str(standing.wins),
                    f"{standing.win_share:.1%}",
                    *lost_on_time,
                    str(sum(standing.points)),
                    f"{standing.ppg:+.3f}",
                    f"±{ci95(standing.points):.3f}",
                    f"{standing.rating.rating:.0f}",
                    f"±{standing.rating.error:.0f}",
                    *([f"{standing.errors.error_rate:.1f}", f"{standing.errors.pr:.1f}"] if reviewed else []),
                ]
            )
        return rows

    def _pairing_rows(self) -> list[list[str]]:
        per_result = "per match" if self.config.match_length else "ppg"
        rows = [["pairing", "score", f"{per_result} (first)", "95% ci"]]
        for pairing in self.pairings:
            first, second = pairing.config.labels
            ours, theirs = pairing.tallies[first], pairing.tallies[second]
            shown = ours.as_json(self.config.variant)
            rows.append(
                [
                    f"{first} vs {second}",
                    f"{ours.wins}-{theirs.wins}",
                    f"{shown['ppg']:+.3f}",
                    f"±{shown['ppg_ci95']:.3f}",
                ]
            )
        return rows


def _pairing_json(pairing: ArenaResults) -> dict[str, Any]:
    """A pairing as the two-bot arena's JSON, with its number and every result: its dice seed, who
    sat where, who won, what the winner won and, with clocks, whether the loser lost on time."""
    labels = pairing.config.labels
    results = []
    for index, outcome in enumerate(pairing.outcomes):
        seated = outcome.seated(labels)
        results.append(
            {
                "result": index + 1,
                "dice": outcome.dice_seed,
                "seats": list(seated),
                "winner": seated[outcome.winning_seat],
                "points": outcome.points,
                **({"lost_on_time": outcome.lost_on_time} if pairing.config.clock else {}),
            }
        )
    return {"pairing": pairing.config.pairing, **pairing.as_json(), "results": results}


def _columns(rows: list[list[str]]) -> list[str]:
    """``rows`` as lines of columns, the first left-aligned and the others right-aligned."""
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    return [
        "  ".join(
            cell.ljust(width) if index == 0 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(row, widths))
        )
        for row in rows
    ]


# --- playing ------------------------------------------------------------------------------------


def run_tournament(
    client: TavliClient, config: TournamentConfig, *, progress: Progress | None = None
) -> TournamentResults:
    """Play every pairing's results on ``client``'s server, ``config.parallel`` at once across the
    pairings, and tally them. ``progress``, if given, is told the results finished after each one.

    A pairing's ``seconds`` (and so its games per second) is the time from its first result's start
    to its last result's end, which other pairings' results shared.
    """
    pairings = config.pairings()
    if config.export is not None:
        config.export.mkdir(parents=True, exist_ok=True)
    played: dict[tuple[int, int], _Timed] = {}
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=config.parallel) as pool:
        futures = {
            pool.submit(_play_timed, client, pairing, index): (number, index)
            for number, pairing in enumerate(pairings)
            for index in range(config.games)
        }
        for future in as_completed(futures):
            played[futures[future]] = future.result()
            if progress is not None:
                progress(len(played))
    seconds = time.perf_counter() - started
    return TournamentResults(
        config, [_tallied(pairing, number, played) for number, pairing in enumerate(pairings)], seconds
    )


@dataclass(frozen=True)
class _Timed:
    outcome: Outcome
    started: float
    finished: float


def _play_timed(client: TavliClient, pairing: ArenaConfig, index: int) -> _Timed:
    started = time.perf_counter()
    outcome = play_result(client, pairing, index)
    return _Timed(outcome, started, time.perf_counter())


def _tallied(pairing: ArenaConfig, number: int, played: dict[tuple[int, int], _Timed]) -> ArenaResults:
    """Pairing ``number``'s results tallied in their order, timed from its first start to its last end."""
    timed = [played[number, index] for index in range(pairing.games)]
    span = max(each.finished for each in timed) - min(each.started for each in timed)
    return tally(pairing, [each.outcome for each in timed], span)
