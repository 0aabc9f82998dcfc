"""Ratings of players from their results against each other: FIBS ratings for match play, Elo for money play.

Both are one model at two scales. A player rated ``D`` points above its opponent wins a result with

    P(win) = 1 / (10^(-D / scale) + 1)

- match play, an ``L``-point match: ``scale = 2000 / sqrt(L)``, the FIBS formula (its probability
  that the underdog wins, ``P_upset = 1 / (10^(D * sqrt(L) / 2000) + 1)``, is this for ``-D``);
- money play, a game: ``scale = 400``, Elo's. A game is won or lost whatever its points: Elo knows
  no margins, so a gammon, a backgammon or a cube of 8 counts as one win like a single game. (The
  points themselves are in the standings: net points per game with its confidence interval.)

FIBS updates both players after each match: the winner gains ``4 * K * sqrt(L) * (1 - P(winner
wins))`` and the loser loses as much, where ``K = max(1, 5 - experience / 100)`` boosts the changes
of a player with less than 400 points of match lengths finished (:func:`fibs_rating_change`).
Those updates depend on the order of the results, which in an arena playing results at once is the
order the threads finish in, and they follow the latest results more than the earlier ones. The
ratings given here are fitted instead (:func:`fit_ratings`): the maximum-likelihood ratings under
the model above, the ratings under which the results seen are the most likely, found by Newton's
method. FIBS's update is a step of stochastic gradient ascent on this same likelihood (its gradient
for the winner is ``ln 10 / scale * (1 - P)``), so the fit is where its updates drift to, without
their noise and without the experience boost (which only speeds up a newcomer's first matches).

- Virtual results: each pairing counts ``virtual_wins`` (1 unless told) extra results won by each
  side, Laplace's rule of succession (Coulom's BayesElo counts two virtual draws a pairing, the same
  weight). Without them a bot that wins every result would be rated infinitely high; with them
  40 wins to 0 gives 41 to 1, and their weight fades as the results grow.
- Anchor: the model fixes only the differences; the ratings are placed so that their mean is
  ``anchor`` (1500, where FIBS starts everyone).
- Error: each rating's standard error, from the inverse of the observed information (the negative
  Hessian of the log-likelihood at the fit, the virtual results included): its pseudo-inverse, as
  the mean is fixed, so that an error is that of a rating relative to the field's mean. (With two
  players each error is half the error of their difference; :meth:`Ratings.difference_error`
  gives a difference's error.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

START = 1500.0
"""Where FIBS starts every player, and the ratings' mean here."""
ELO_SCALE = 400.0
"""Elo's scale: 400 points more, ten times the odds of winning."""
FIBS_EXPERIENCED = 400
"""The experience (sum of the lengths of the matches finished) from which FIBS's boost K is 1."""

_LN10 = math.log(10.0)


def fibs_scale(match_length: int) -> float:
    """The rating points that multiply the odds by ten in a ``match_length``-point match: 2000 / sqrt(L)."""
    if match_length < 1:
        raise ValueError(f"a match is played to 1 point or more, not {match_length}")
    return 2000.0 / math.sqrt(match_length)


def scale_for(match_length: int) -> float:
    """The scale for results of ``match_length``: FIBS's for matches, Elo's for money games (0)."""
    return fibs_scale(match_length) if match_length else ELO_SCALE


def win_probability(rating: float, opponent: float, scale: float) -> float:
    """The chance that a player rated ``rating`` wins a result against one rated ``opponent``."""
    return 1.0 / (math.pow(10.0, (opponent - rating) / scale) + 1.0)


def upset_probability(difference: float, match_length: int) -> float:
    """FIBS: the chance that the underdog, rated ``difference`` points lower (either sign is taken
    as its size), wins a ``match_length``-point match."""
    return 1.0 / (math.pow(10.0, abs(difference) * math.sqrt(match_length) / 2000.0) + 1.0)


def fibs_rating_change(
    rating: float, opponent: float, match_length: int, *, won: bool, experience: int = FIBS_EXPERIENCED
) -> float:
    """FIBS's change to a player rated ``rating`` after a ``match_length``-point match against one
    rated ``opponent``: ``+4 K sqrt(L) (1 - P(win))`` won, ``-4 K sqrt(L) P(win)`` lost, with
    ``K = max(1, 5 - experience / 100)`` (``experience``: the lengths of the player's matches finished
    before this one; 400 or more, as unless told, makes K 1)."""
    boost = max(1.0, 5.0 - experience / 100.0)
    chance = win_probability(rating, opponent, fibs_scale(match_length))
    step = 4.0 * boost * math.sqrt(match_length)
    return step * (1.0 - chance) if won else -step * chance


@dataclass(frozen=True)
class HeadToHead:
    """The results between two players: how many each won."""

    first: str
    second: str
    first_wins: int
    second_wins: int


@dataclass(frozen=True)
class Rating:
    """A fitted rating and its standard error."""

    rating: float
    error: float


@dataclass(frozen=True)
class Ratings:
    """The fitted ratings, by player in the order they were first named, with their covariances."""

    players: tuple[str, ...]
    ratings: tuple[float, ...]
    covariance: tuple[tuple[float, ...], ...]  # in rating points squared
    scale: float

    def __getitem__(self, player: str) -> Rating:
        index = self.players.index(player)
        return Rating(self.ratings[index], math.sqrt(max(self.covariance[index][index], 0.0)))

    def difference_error(self, first: str, second: str) -> float:
        """The standard error of ``first``'s rating less ``second``'s."""
        i, j = self.players.index(first), self.players.index(second)
        variance = self.covariance[i][i] + self.covariance[j][j] - 2 * self.covariance[i][j]
        return math.sqrt(max(variance, 0.0))

    def as_dict(self) -> dict[str, Rating]:
        return {player: self[player] for player in self.players}


def fit_ratings(
    results: Sequence[HeadToHead],
    scale: float,
    *,
    virtual_wins: float = 1.0,
    anchor: float = START,
    players: Sequence[str] = (),
) -> Ratings:
    """The maximum-likelihood ratings of the players in ``results`` under ``P(win) = 1 / (10^(-D /
    scale) + 1)``, with ``virtual_wins`` more results won by each side of each head-to-head, their
    mean at ``anchor``, and their covariance (see the module's docstring).

    ``players`` gives their order (else the order ``results`` first names them). ``virtual_wins``
    0 is the plain maximum likelihood, which runs off to infinity when a player wins every result.

    :raises ValueError: if the results do not link every player to every other (then the
        differences between the groups are not fixed by them), or a player meets itself.
    """
    names = list(
        dict.fromkeys([*players, *(name for record in results for name in (record.first, record.second))])
    )
    index = {name: number for number, name in enumerate(names)}
    count = len(names)
    wins = [[0.0] * count for _ in range(count)]  # wins[i][j]: results i won against j
    met: set[tuple[int, int]] = set()
    for record in results:
        i, j = index[record.first], index[record.second]
        if i == j:
            raise ValueError(f"{record.first} cannot be rated against itself")
        wins[i][j] += record.first_wins
        wins[j][i] += record.second_wins
        met.add((min(i, j), max(i, j)))
    for i, j in met:
        wins[i][j] += virtual_wins
        wins[j][i] += virtual_wins
    strengths = _maximum_likelihood(wins)  # natural log-odds units, mean 0
    covariance = _pseudo_inverse(_information(wins, strengths))
    points = scale / _LN10  # rating points per natural log-odds unit
    return Ratings(
        players=tuple(names),
        ratings=tuple(anchor + strength * points for strength in strengths),
        covariance=tuple(tuple(value * points * points for value in row) for row in covariance),
        scale=scale,
    )


def _log_likelihood(wins: list[list[float]], strengths: list[float]) -> float:
    total = 0.0
    for i, row in enumerate(wins):
        for j, won in enumerate(row):
            if won:
                total -= won * math.log1p(math.exp(strengths[j] - strengths[i]))
    return total


def _gradient(wins: list[list[float]], strengths: list[float]) -> list[float]:
    count = len(wins)
    gradient = [0.0] * count
    for i in range(count):
        for j in range(count):
            played = wins[i][j] + wins[j][i]
            if i != j and played:
                gradient[i] += wins[i][j] - played * _logistic(strengths[i] - strengths[j])
    return gradient


def _information(wins: list[list[float]], strengths: list[float]) -> list[list[float]]:
    """The observed information: the negative Hessian of the log-likelihood at ``strengths``."""
    count = len(wins)
    information = [[0.0] * count for _ in range(count)]
    for i in range(count):
        for j in range(count):
            played = wins[i][j] + wins[j][i]
            if i != j and played:
                chance = _logistic(strengths[i] - strengths[j])
                weight = played * chance * (1.0 - chance)
                information[i][j] -= weight
                information[i][i] += weight
    return information


def _maximum_likelihood(
    wins: list[list[float]], *, tolerance: float = 1e-10, rounds: int = 200
) -> list[float]:
    """Newton's method, each step halved until the likelihood does not fall (it is concave)."""
    strengths = [0.0] * len(wins)
    likelihood = _log_likelihood(wins, strengths)
    for _ in range(rounds):
        inverse = _pseudo_inverse(_information(wins, strengths))
        gradient = _gradient(wins, strengths)
        step = [sum(value * slope for value, slope in zip(row, gradient)) for row in inverse]
        size = 1.0
        while True:
            tried = _centred([strength + size * change for strength, change in zip(strengths, step)])
            tried_likelihood = _log_likelihood(wins, tried)
            if tried_likelihood >= likelihood - 1e-12 or size < 1e-6:
                break
            size /= 2
        strengths, likelihood = tried, tried_likelihood
        if max((abs(change) * size for change in step), default=0.0) < tolerance:
            break
    return strengths


def _pseudo_inverse(information: list[list[float]]) -> list[list[float]]:
    """The pseudo-inverse of an information matrix whose only null direction is "all ratings up by
    the same": ``inv(A + J/n) - J/n``, J all ones.

    :raises ValueError: if another direction is null (the results leave players unlinked).
    """
    count = len(information)
    shifted = [[value + 1.0 / count for value in row] for row in information]
    inverse = _inverse(shifted)
    return [[value - 1.0 / count for value in row] for row in inverse]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting, for the few players of an arena."""
    count = len(matrix)
    rows = [
        list(row) + [1.0 if column == number else 0.0 for column in range(count)]
        for number, row in enumerate(matrix)
    ]
    largest = max((abs(value) for row in matrix for value in row), default=1.0) or 1.0
    for column in range(count):
        pivot = max(range(column, count), key=lambda row: abs(rows[row][column]))
        if abs(rows[pivot][column]) < 1e-12 * largest:
            raise ValueError(
                "the results do not link every player to every other: their ratings are not comparable"
            )
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for row in range(count):
            if row != column and rows[row][column]:
                factor = rows[row][column]
                rows[row] = [
                    value - factor * pivot_value for value, pivot_value in zip(rows[row], rows[column])
                ]
    return [row[count:] for row in rows]


def _centred(values: list[float]) -> list[float]:
    mean = sum(values) / len(values) if values else 0.0
    return [value - mean for value in values]


def _logistic(value: float) -> float:
    if value >= 0:
        return 1.0 / (1.0 + math.exp(-value))
    exponential = math.exp(value)
    return exponential / (1.0 + exponential)
