"""A match's decisions and statistics as GNU Backgammon's analysis counts them, without an evaluator:
which points of a match are decisions, and how their losses add up to each player's rates."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tavli.engine.events import Doubled, Played, Took
from tavli.engine.matfile import import_mat
from tavli.server.analysis import review
from tavli.server.analysis.values import CubeDecision

RECORD = Path(__file__).parent.parent / "data" / "mat" / "noisy_gnubg_3_point.mat"
# A money game with beavers in which Player 0 doubles and Player 1 beavers at once.
BEAVERED_RECORD = RECORD.parent / "beavered_money_game.mat"


def _decision(
    side: int, kind: review.DecisionKind, counted: bool, loss: float, luck: float = 0.0
) -> review.Decision:
    return review.Decision(1, 1, side, kind, counted, (), "", "", loss, -loss, luck)  # type: ignore[arg-type]


def test_every_roll_played_is_a_chequer_point_and_every_double_a_cube_point() -> None:
    match = import_mat(RECORD.read_text())
    points = review.decision_points(match.rules, match.events, plies=1)
    chequer = [point for point in points if isinstance(point, review.ChequerPoint)]
    doubles = [point for point in points if isinstance(point, review.CubePoint) and point.action == "double"]
    assert len(chequer) == sum(isinstance(event, Played) for event in match.events)
    assert len(doubles) == sum(isinstance(event, Doubled) for event in match.events) == 1
    assert doubles[0].answer == "take" and sum(isinstance(event, Took) for event in match.events) == 1
    assert all(point.context.plies == 1 for point in points)
    assert [point.opening for point in chequer].count(True) == 3  # one a game
    for point in chequer:
        assert point.plays[point.played].position is not None
        assert len({play.position for play in point.plays}) == len(point.plays)


def test_no_cube_point_in_the_crawford_game_or_for_the_side_without_the_cube() -> None:
    match = import_mat(RECORD.read_text())
    points = review.decision_points(match.rules, match.events, plies=0)
    for point in points:
        if isinstance(point, review.CubePoint):
            assert not point.context.crawford
            assert point.context.cube_owner != "opponent"


def test_statistics_are_gnubgs_rates_of_the_losses() -> None:
    decisions = [
        _decision(0, "chequer", True, 0.030, luck=0.2),
        _decision(0, "chequer", True, 0.010, luck=-0.1),
        _decision(0, "chequer", False, 0.0, luck=0.05),  # forced: a move, not an unforced one
        _decision(0, "cube", False, 0.020),  # a missed double that was not close still costs
        _decision(0, "cube", True, 0.040),
        _decision(1, "chequer", True, 0.0),
    ]
    left, right = review.statistics(("Ann", "Bob"), decisions)
    assert (left.moves, left.unforced_moves, left.cube_decisions) == (3, 2, 1)
    assert left.chequer_error_rate == pytest.approx(20.0)  # 1000 x 0.040 / 2
    assert left.cube_error_rate == pytest.approx(60.0)  # 1000 x 0.060 / 1
    assert left.error_rate == pytest.approx(1000 * 0.100 / 3)
    assert left.snowie_error_rate == pytest.approx(1000 * 0.100 / 4)  # both players' moves
    assert left.pr == pytest.approx(500 * 0.100 / 3)
    assert left.luck_rate == pytest.approx(1000 * 0.15 / 3)
    assert left.rating == "Beginner"  # 0.033 per decision, below gnubg's 0.035
    assert (right.name, right.error_rate, right.rating) == ("Bob", 0.0, "Supernatural")


@pytest.mark.parametrize(
    ("per_decision", "words"),
    [
        (0.0019, "Supernatural"),
        (0.004, "World class"),
        (0.011, "Advanced"),
        (0.034, "Beginner"),
        (0.2, "Awful!"),
    ],
)
def test_ratings_are_gnubgs_words(per_decision: float, words: str) -> None:
    (player, _) = review.statistics(("Ann", "Bob"), [_decision(0, "chequer", True, per_decision)])
    assert player.rating == words


def test_a_player_without_a_decision_has_no_rating() -> None:
    (player, _) = review.statistics(("Ann", "Bob"), [_decision(1, "chequer", True, 0.1)])
    assert (player.rating, player.error_rate, player.luck_rate) == ("N/A", 0.0, 0.0)


CUBE = review.CubePoint(1, 5, 0, ((0,) * 25, (0,) * 25), review.Context(), "double", "take")


@pytest.mark.parametrize(
    ("decision", "double", "answer"),
    [
        # double/take is right: no error either side; the doubler has double/take's equity
        (CubeDecision(0.5, 0.6, 1.0, "Double", "take", 0.4), ("Double", 0.0, 0.6), ("Take", 0.0, -0.6)),
        # no double was right: the double loses 0.1; the take was right
        (CubeDecision(0.5, 0.4, 1.0, "No double", "take", 0.3), ("No double", 0.1, 0.4), ("Take", 0.0, -0.4)),
        # double/pass: the take loses what the doubler gains by it, 1.2 - 1.0
        (CubeDecision(0.9, 1.2, 1.0, "Double", "pass", 0.8), ("Double", 0.0, 1.0), ("Pass", 0.2, -1.2)),
        # too good: doubling cashes 1.0 against 1.4 played on
        (
            CubeDecision(1.4, 1.6, 1.0, "Too good to double", "pass", 1.2),
            ("Too good", 0.4, 1.0),
            ("Pass", 0.6, -1.6),
        ),
    ],
)
def test_a_double_and_its_take_are_judged_from_one_cube_decision(
    decision: CubeDecision, double: tuple[str, float, float], answer: tuple[str, float, float]
) -> None:
    doubled, taken = review.reviewed(CUBE, decision)
    assert (doubled.side, doubled.played, doubled.best, doubled.counted) == (0, "Double", double[0], True)
    assert (doubled.loss, doubled.equity) == pytest.approx(double[1:])
    assert (taken.side, taken.played, taken.best, taken.counted) == (1, "Take", answer[0], True)
    assert (taken.loss, taken.equity) == pytest.approx(answer[1:])


def test_not_doubling_has_the_equity_of_playing_on() -> None:
    chance = review.CubePoint(1, 5, 0, CUBE.board, review.Context(), "no double")
    (held,) = review.reviewed(chance, CubeDecision(0.40, 0.45, 1.0, "Double", "take", 0.3))
    assert (held.equity, held.loss) == pytest.approx((0.40, 0.05))


def test_a_chequer_play_has_the_played_plays_equity_and_loses_against_the_best() -> None:
    match = import_mat(RECORD.read_text())
    points = review.decision_points(match.rules, match.events, plies=0)
    point = next(p for p in points if isinstance(p, review.ChequerPoint) and 0 < p.played < len(p.plays) - 1)
    equities = [0.1 * index - 0.05 for index in range(len(point.plays))]
    (decision,) = review.reviewed(point, (equities, 0.02))
    assert decision.equity == pytest.approx(equities[point.played])
    assert decision.loss == pytest.approx(max(equities) - equities[point.played])
    assert decision.best == point.plays[-1].notation() and decision.luck == 0.02


def test_a_chance_to_double_counts_only_when_close() -> None:
    chance = review.CubePoint(1, 5, 0, CUBE.board, review.Context(), "no double")
    (close,) = review.reviewed(chance, CubeDecision(0.40, 0.45, 1.0, "Double", "take", 0.3))
    assert close.counted and close.loss == pytest.approx(0.05) and close.best == "Double"
    (far,) = review.reviewed(chance, CubeDecision(0.10, -0.30, 1.0, "No double", "take", 0.1))
    assert not far.counted and far.loss == 0.0 and far.best == "No double"


def test_a_dead_cube_is_no_decision() -> None:
    chance = review.CubePoint(1, 5, 0, CUBE.board, review.Context(), "no double")
    assert review.reviewed(chance, None) == []


def test_a_beavered_double_waits_for_no_other_answer() -> None:
    match = import_mat(BEAVERED_RECORD.read_text())
    points = review.decision_points(match.rules, match.events, plies=0)
    (double,) = (
        point for point in points if isinstance(point, review.CubePoint) and point.action == "double"
    )
    assert (double.side, double.answer) == (0, "beaver")


@pytest.mark.parametrize(
    ("decision", "best", "loss"),
    [
        (CubeDecision(0.5, 0.4, 1.0, "No double", "beaver", 0.3), "Take", 0.0),
        # a double that should have been passed, beavered all the same: gnubg charges the take
        (CubeDecision(0.9, 1.2, 1.0, "Double", "pass", 0.8), "Pass", 0.2),
    ],
)
def test_a_beaver_counts_as_the_doublers_take_of_it_as_gnubg_counts_it(
    decision: CubeDecision, best: str, loss: float
) -> None:
    beavered = dataclasses.replace(CUBE, answer="beaver")
    doubled, taken = review.reviewed(beavered, decision)
    assert (doubled.side, doubled.played) == (0, "Double")
    assert (taken.side, taken.played, taken.best, taken.counted) == (0, "Take", best, True)
    assert (taken.loss, taken.equity) == pytest.approx((loss, 2 * decision.double_take))
    doubler, beaverer = review.statistics(("Ann", "Bob"), [doubled, taken])
    assert (doubler.cube_decisions, beaverer.cube_decisions) == (2, 0)
    assert doubler.cube_error == pytest.approx(doubled.loss + loss)
