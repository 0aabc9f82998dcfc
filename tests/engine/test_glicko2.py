"""Glicko-2 against the worked example of Glickman's paper, and the shape of its answers."""

from __future__ import annotations

import pytest

from tavli.engine.glicko2 import START_DEVIATION, Rating, Result, rate

# The same code on either engine (ratings arithmetic, no board): run once.
pytestmark = pytest.mark.no_core


def test_the_papers_worked_example_comes_out_as_the_paper_has_it() -> None:
    # "Example of the Glicko-2 system", section "Example calculation": a 1500 (RD 200, volatility
    # 0.06) player beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300), tau 0.5.
    player = Rating(1500, 200, 0.06)
    results = [
        Result(Rating(1400, 30), 1.0),
        Result(Rating(1550, 100), 0.0),
        Result(Rating(1700, 300), 0.0),
    ]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_win_raises_a_rating_and_a_loss_lowers_it_and_both_narrow_the_deviation() -> None:
    start = Rating()
    won = rate(start, [Result(Rating(), 1.0)])
    lost = rate(start, [Result(Rating(), 0.0)])
    assert won.rating > start.rating > lost.rating
    assert won.rating - start.rating == pytest.approx(start.rating - lost.rating)
    assert won.deviation < START_DEVIATION and lost.deviation < START_DEVIATION


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    start = Rating(1500, 100)
    stronger = rate(start, [Result(Rating(1800, 60), 1.0)])
    weaker = rate(start, [Result(Rating(1200, 60), 1.0)])
    assert stronger.rating - start.rating > weaker.rating - start.rating > 0


def test_a_period_without_results_widens_the_deviation_only() -> None:
    start = Rating(1600, 80, 0.06)
    after = rate(start, [])
    assert after.rating == start.rating and after.volatility == start.volatility
    assert after.deviation == pytest.approx((80**2 + (0.06 * 173.7178) ** 2) ** 0.5)
