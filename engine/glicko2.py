"""Glicko-2 ratings, as Mark Glickman's paper "Example of the Glicko-2 system" (2013) sets them out.

A rating is a value, its deviation (how uncertain it is) and its volatility (how much it is
expected to move). :func:`rate` takes a player's rating and the results of one rating period,
each against an opponent's rating as it was, and returns the rating after the period. The ladder
makes every rated match a period of its own for both players (as lichess does), so a rating moves
after every match. Pure arithmetic: nothing here reads a clock or a store.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""The factor between the Glicko scale (ratings around 1500) and Glicko-2's own (around 0)."""

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change in a period (the paper suggests 0.3 to 1.2)."""

_TOLERANCE = 0.000001  # the paper's convergence tolerance for the volatility


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale (1500 to start), its deviation and its volatility."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True, slots=True)
class Result:
    """One match of a period: the opponent's rating before it and the score (1 won, 0 lost, 0.5 drawn)."""

    opponent: Rating
    score: float


def rate(player: Rating, results: Sequence[Result], *, tau: float = TAU) -> Rating:
    """``player``'s rating after a rating period with ``results``.

    A period without results only widens the deviation, as time without play does.
    """
    phi = player.deviation / SCALE
    if not results:
        return Rating(player.rating, SCALE * math.sqrt(phi**2 + player.volatility**2), player.volatility)
    mu = (player.rating - START_RATING) / SCALE
    weights = []
    for result in results:
        mu_j = (result.opponent.rating - START_RATING) / SCALE
        g_j = _g(result.opponent.deviation / SCALE)
        expected = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        weights.append((g_j, expected, result.score))
    variance = 1.0 / sum(g_j**2 * expected * (1.0 - expected) for g_j, expected, _ in weights)
    improvement = sum(g_j * (score - expected) for g_j, expected, score in weights)
    delta = variance * improvement
    sigma = _volatility(phi, player.volatility, variance, delta, tau)
    phi_star = math.sqrt(phi**2 + sigma**2)
    phi_new = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / variance)
    mu_new = mu + phi_new**2 * improvement
    return Rating(START_RATING + SCALE * mu_new, SCALE * phi_new, sigma)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def _volatility(phi: float, sigma: float, variance: float, delta: float, tau: float) -> float:
    """The new volatility: the root of the paper's f, found by its Illinois iteration (step 5)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        e_x = math.exp(x)
        return (
            e_x * (delta**2 - phi**2 - variance - e_x) / (2.0 * (phi**2 + variance + e_x) ** 2)
            - (x - a) / tau**2
        )

    low = a
    if delta**2 > phi**2 + variance:
        high = math.log(delta**2 - phi**2 - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _TOLERANCE:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


__all__ = ["START_DEVIATION", "START_RATING", "START_VOLATILITY", "TAU", "Rating", "Result", "rate"]
