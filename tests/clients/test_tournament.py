"""Round robins of bots (``tavli arena --round-robin``) and the ratings their standings give.

The rating maths (:mod:`clients.ratings`) is checked on cases worked by hand and on results drawn
from known ratings; the tournaments play through an in-memory server, as the arena tests do.
"""

from __future__ import annotations

import io
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from tavli.clients.arena_command import _ProgressBar
from tavli.clients.cli import main
from tavli.clients.ratings import (
    ELO_SCALE,
    HeadToHead,
    fibs_rating_change,
    fibs_scale,
    fit_ratings,
    upset_probability,
    win_probability,
)
from tavli.clients.tournament import told_apart
from tavli.engine.events import OpeningThrown, Rolled
from tavli.engine.matfile import import_mat

PARALLEL = "4"


def _tournament(capsys: pytest.CaptureFixture[str], *arguments: str) -> dict[str, Any]:
    assert main(["arena", "--round-robin", *arguments, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


# --- the FIBS formula and Elo ----------------------------------------------------------------------


def test_equal_ratings_win_half_the_time_at_any_match_length() -> None:
    for length in (1, 3, 7, 25):
        assert upset_probability(0, length) == 0.5
        assert win_probability(1500, 1500, fibs_scale(length)) == 0.5
    assert win_probability(1700, 1700, ELO_SCALE) == 0.5


def test_the_underdog_s_chances_match_the_fibs_formula_worked_by_hand() -> None:
    # 400 points lower in a 1-point match: 1 / (10^(400 * 1 / 2000) + 1) = 1 / (1.584893 + 1).
    assert upset_probability(400, 1) == pytest.approx(0.386863, abs=1e-6)
    assert upset_probability(-400, 1) == upset_probability(400, 1)  # the difference's size counts
    # ... and in a 9-point match: 1 / (10^(400 * 3 / 2000) + 1) = 1 / (3.981072 + 1).
    assert upset_probability(400, 9) == pytest.approx(0.200760, abs=1e-6)
    assert win_probability(1100, 1500, fibs_scale(9)) == pytest.approx(upset_probability(400, 9))
    # Elo: 400 points lower, one chance in eleven.
    assert win_probability(1100, 1500, ELO_SCALE) == pytest.approx(1 / 11)


def test_fibs_moves_both_players_by_4_sqrt_n_times_the_chance_the_result_was_not() -> None:
    assert fibs_rating_change(1500, 1500, 1, won=True) == pytest.approx(2.0)
    assert fibs_rating_change(1500, 1500, 1, won=False) == pytest.approx(-2.0)
    assert fibs_rating_change(1500, 1500, 9, won=True) == pytest.approx(6.0)
    # 1850 against 1750 in a 5-point match: the favourite gains 4 sqrt(5) P_upset winning ...
    upset = upset_probability(100, 5)
    assert fibs_rating_change(1850, 1750, 5, won=True) == pytest.approx(4 * math.sqrt(5) * upset)
    assert fibs_rating_change(1750, 1850, 5, won=False) == pytest.approx(-4 * math.sqrt(5) * upset)
    # ... and the underdog 4 sqrt(5) (1 - P_upset).
    assert fibs_rating_change(1750, 1850, 5, won=True) == pytest.approx(4 * math.sqrt(5) * (1 - upset))
    # A newcomer's changes are boosted: K = max(1, 5 - experience / 100).
    assert fibs_rating_change(1500, 1500, 1, won=True, experience=0) == pytest.approx(10.0)
    assert fibs_rating_change(1500, 1500, 1, won=True, experience=250) == pytest.approx(5.0)


# --- the fit ---------------------------------------------------------------------------------------


def test_two_players_are_fitted_to_their_win_share_with_the_error_worked_by_hand() -> None:
    ratings = fit_ratings([HeadToHead("a", "b", 30, 10)], ELO_SCALE)
    # One virtual win each: 31 to 11, 400 log10(31/11) points apart, 1500 between them.
    assert ratings["a"].rating - ratings["b"].rating == pytest.approx(400 * math.log10(31 / 11), abs=1e-6)
    assert (ratings["a"].rating + ratings["b"].rating) / 2 == pytest.approx(1500)
    # The difference's variance is 1 / (n p q) in natural log-odds; each rating's, from the mean, a quarter.
    n, p = 42, 31 / 42
    difference = math.sqrt(1 / (n * p * (1 - p))) * ELO_SCALE / math.log(10)
    assert ratings.difference_error("a", "b") == pytest.approx(difference, rel=1e-6)
    assert ratings["a"].error == pytest.approx(difference / 2, rel=1e-6)


def test_a_player_that_wins_every_result_gets_a_finite_rating() -> None:
    ratings = fit_ratings([HeadToHead("a", "b", 40, 0)], fibs_scale(1))
    assert ratings["a"].rating - ratings["b"].rating == pytest.approx(
        fibs_scale(1) * math.log10(41), abs=1e-6
    )
    assert math.isfinite(ratings["a"].error) and ratings["a"].error > 0


def _drawn(truth: dict[str, float], scale: float, per_pairing: int, seed: int) -> list[HeadToHead]:
    """Results drawn from the model at the ``truth`` ratings."""
    chance = random.Random(seed)
    records = []
    names = list(truth)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            p = win_probability(truth[first], truth[second], scale)
            wins = sum(chance.random() < p for _ in range(per_pairing))
            records.append(HeadToHead(first, second, wins, per_pairing - wins))
    return records


@pytest.mark.parametrize("scale", [ELO_SCALE, fibs_scale(5)], ids=["elo", "fibs-5"])
def test_the_fit_recovers_known_ratings_within_their_errors(scale: float) -> None:
    truth = {"weak": 1300.0, "middling": 1450.0, "good": 1550.0, "strong": 1700.0}  # mean 1500
    ratings = fit_ratings(_drawn(truth, scale, per_pairing=2000, seed=1), scale)
    for name, rating in truth.items():
        fitted = ratings[name]
        assert abs(fitted.rating - rating) < 3 * fitted.error, (name, fitted, rating)
    assert [name for name, _ in sorted(ratings.as_dict().items(), key=lambda item: item[1].rating)] == list(
        truth
    )


def test_the_errors_shrink_as_one_over_the_root_of_the_results() -> None:
    truth = {"a": 1400.0, "b": 1500.0, "c": 1600.0}
    few = fit_ratings(_drawn(truth, ELO_SCALE, per_pairing=100, seed=2), ELO_SCALE)
    many = fit_ratings(_drawn(truth, ELO_SCALE, per_pairing=10_000, seed=2), ELO_SCALE)
    for name in truth:
        assert many[name].error < few[name].error / 7  # about a tenth
        assert many[name].error > few[name].error / 14


def test_the_fit_does_not_depend_on_the_order_of_the_results() -> None:
    records = [HeadToHead("a", "b", 7, 3), HeadToHead("b", "c", 6, 4), HeadToHead("a", "c", 9, 1)]
    forwards = fit_ratings(records, ELO_SCALE, players=("a", "b", "c"))
    backwards = fit_ratings(records[::-1], ELO_SCALE, players=("a", "b", "c"))
    for name in "abc":
        assert forwards[name].rating == pytest.approx(backwards[name].rating)
        assert forwards[name].error == pytest.approx(backwards[name].error)


def test_players_the_results_do_not_link_are_refused() -> None:
    with pytest.raises(ValueError, match="do not link"):
        fit_ratings([HeadToHead("a", "b", 3, 1), HeadToHead("c", "d", 2, 2)], ELO_SCALE)


def test_a_bot_named_twice_is_told_apart() -> None:
    assert told_apart(("heuristic", "random", "heuristic", "heuristic")) == (
        "heuristic",
        "random",
        "heuristic#2",
        "heuristic#3",
    )


# --- tournaments -----------------------------------------------------------------------------------


def _dice(file: Path) -> list[tuple[int, int]]:
    """The dice of a .mat file's games, seat by seat as thrown: opening throws and rolls."""
    dice: list[tuple[int, int]] = []
    for event in import_mat(file.read_text(encoding="utf-8")).events:
        if isinstance(event, OpeningThrown):
            dice.extend(event.throws)
        elif isinstance(event, Rolled):
            dice.append(event.dice)
    return dice


def test_a_money_round_robin_plays_every_pair_both_ways_on_the_same_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = 10
    results = _tournament(
        capsys,
        "--bots",
        "heuristic,random,heuristic",
        "--games",
        str(games),
        "--seed",
        "7",
        "--parallel",
        PARALLEL,
        "--export",
        str(tmp_path),
    )
    assert capsys.readouterr().err == ""  # no progress bar: stderr is no terminal
    assert results["bots"] == ["heuristic", "random", "heuristic#2"]
    pairings = results["pairings"]
    assert [tuple(pairing["bots"]) for pairing in pairings] == [
        ("heuristic", "random"),
        ("heuristic", "heuristic#2"),
        ("random", "heuristic#2"),
    ]
    every_dice = set()
    for pairing in pairings:
        first, second = pairing["bots"]
        assert [result["result"] for result in pairing["results"]] == list(range(1, games + 1))
        for one, other in zip(pairing["results"][::2], pairing["results"][1::2]):
            assert one["dice"] == other["dice"]
            assert one["seats"] == [first, second] and other["seats"] == [second, first]
            every_dice.add(one["dice"])
        assert pairing["bots"][first]["wins"] + pairing["bots"][second]["wins"] == games
    assert len(every_dice) == 3 * games // 2  # each pairing has dice of its own
    # heuristic plays without chance: against itself on the same dice, each copy wins one of each pair.
    assert pairings[1]["bots"]["heuristic"]["wins"] == games // 2

    files = sorted(tmp_path.glob("*.mat"))
    assert len(files) == 3 * games
    assert files[0].name == "01-00001-heuristic-vs-random.mat"
    compared = 0
    for one, other in zip(files[::2], files[1::2]):
        dice, twin = _dice(one), _dice(other)
        shared = min(len(dice), len(twin))  # a game ends when it ends: the shorter's dice, the same
        assert shared > 0 and dice[:shared] == twin[:shared], (one.name, other.name)
        compared += shared
    assert compared > 10 * len(files) // 2

    standings = {standing["bot"]: standing for standing in results["standings"]}
    assert sum(standing["wins"] for standing in standings.values()) == 3 * games  # one winner a result
    assert all(standing["games"] == 2 * games for standing in standings.values())
    assert sum(standing["points"] for standing in standings.values()) == 0
    assert results["standings"][-1]["bot"] == "random"
    assert results["rating"]["system"] == "Elo"
    heuristic, random_bot = standings["heuristic"], standings["random"]
    assert heuristic["rating_error"] > 0 and random_bot["rating_error"] > 0
    assert heuristic["rating"] - random_bot["rating"] > 2 * (
        heuristic["rating_error"] + random_bot["rating_error"]
    )
    assert sum(standing["rating"] for standing in standings.values()) / 3 == pytest.approx(1500, abs=0.1)


def test_a_match_round_robin_rates_by_fibs_and_is_the_same_whatever_the_thread_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    arguments = ("--bots", "random,heuristic,random", "--games", "4", "--match-length", "3", "--seed", "8")
    at_once = _tournament(capsys, *arguments, "--parallel", PARALLEL)
    one_by_one = _tournament(capsys, *arguments, "--parallel", "1")
    assert [pairing["results"] for pairing in at_once["pairings"]] == [
        pairing["results"] for pairing in one_by_one["pairings"]
    ]
    assert at_once["standings"] == one_by_one["standings"]
    assert at_once["rating"]["system"] == "FIBS"
    assert at_once["rating"]["scale"] == pytest.approx(2000 / math.sqrt(3), abs=1e-3)
    assert at_once["standings"][0]["bot"] == "heuristic"
    assert sum(standing["wins"] for standing in at_once["standings"]) == 3 * 4
    for pairing in at_once["pairings"]:
        assert all(result["points"] == 1 for result in pairing["results"])  # a match counts one win


@pytest.mark.parametrize(
    "arguments",
    [("--variant", "plakoto"), ("--variant", "fevga"), ("--variant", "tavli", "--match-length", "3")],
)
def test_a_round_robin_plays_plakoto_fevga_and_the_tavli_match(
    capsys: pytest.CaptureFixture[str], arguments: tuple[str, ...]
) -> None:
    results = _tournament(
        capsys, *arguments, "--bots", "heuristic,random,random", "--games", "2", "--seed", "5"
    )
    assert results["variant"] == arguments[1]
    assert len(results["pairings"]) == 3
    for pairing in results["pairings"]:
        assert sum(tally["wins"] for tally in pairing["bots"].values()) == 2  # no result without a winner
    standings = {standing["bot"]: standing for standing in results["standings"]}
    assert sum(standing["wins"] for standing in standings.values()) == 3 * 2
    assert standings["heuristic"]["wins"] >= 3


def test_a_round_robin_plays_every_pairing_with_backgammons_as_gammon(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    results = _tournament(
        capsys,
        "--bots",
        "heuristic,random,random",
        "--games",
        "2",
        "--seed",
        "11",
        "--backgammons",
        "as-gammon",
        "--export",
        str(tmp_path),
    )
    assert results["backgammons"] == "AS_GAMMON"
    files = sorted(tmp_path.glob("*.mat"))
    assert len(files) == 3 * 2
    assert all(import_mat(file.read_text()).rules.backgammons == "AS_GAMMON" for file in files)
    assert (
        main(
            [
                "arena",
                "--round-robin",
                "--bots",
                "heuristic,random",
                "--games",
                "2",
                "--seed",
                "9",
                "--backgammons",
                "as-gammon",
            ]
        )
        == 0
    )
    assert capsys.readouterr().out.startswith(
        "backgammon (backgammons scored as gammons), money games, round robin of 2 bots"
    )


def test_two_bots_make_a_round_robin_of_one_pairing_printed_as_a_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "--round-robin", "--bots", "heuristic,random", "--games", "2", "--seed", "9"]) == 0
    table = capsys.readouterr().out
    assert "round robin of 2 bots" in table
    assert "Elo" in table and "± error" in table and "heuristic vs random" in table
    assert "2 games in" in table


def test_the_progress_bar_shows_the_results_done_and_an_eta_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bar = _ProgressBar(10, io.StringIO())
    assert bar.line(4, 8.0).startswith("[############------------------] 4/10  0.5/s  elapsed 0:08  ETA 0:12")
    assert "ETA ?" in bar.line(0, 1.0)

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert (
        main(
            [
                "arena",
                "--round-robin",
                "--bots",
                "random,random,random",
                "--games",
                "2",
                "--seed",
                "10",
                "--match-length",
                "1",
            ]
        )
        == 0
    )
    shown = terminal.getvalue()
    assert "6/6" in shown and "ETA" in shown and "elapsed" in shown


@pytest.mark.parametrize(
    ("bots_named", "more", "said"),
    [
        ("heuristic,random,random", [], "add --round-robin"),
        ("heuristic", ["--round-robin"], "--round-robin takes two bots or more"),
        ("heuristic,random,nobody", ["--round-robin"], "unknown bot 'nobody'"),
        ("random,gnubg,heuristic", ["--round-robin", "--variant", "long-nardi"], "backgammon only"),
        (
            "random,random",
            ["--round-robin", "--variant", "long-nardi", "--backgammons", "as-gammon"],
            "long nardi has no backgammons to score as gammons",
        ),
    ],
)
def test_bad_combinations_are_refused_in_words(
    bots_named: str, more: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "--bots", bots_named, "--games", "2", *more]) == 2
    assert said in capsys.readouterr().err
