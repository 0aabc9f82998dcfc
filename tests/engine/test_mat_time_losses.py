"""Games lost on time in .mat files.

A game whose clock ran out is written as GNU Backgammon writes an accepted resignation, the
winner's ``Wins N points`` with the points the time loss gave it (in a match, what it needed for
the match; in money play, the cube's value), and named in a header tag of tavli's own,
``; [Game 2 Time "Bob ran out of time"]``. tavli reads it back as the same time loss; gnubg, which
has no clocks, reads it as a resignation and credits at most three times the cube.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tavli.engine.clock import ClockRules
from tavli.engine.dice import SeededDice
from tavli.engine.events import TimeRanOut
from tavli.engine.match import Match
from tavli.engine.matfile import check_mat, export_mat, import_mat
from tavli.engine.rules import RuleSet
from tests.gnubg_mat import gnubg_read, requires_gnubg

PLAYERS = ("Alice", "Bob")
START = 1_000.0


class _Time:
    """The time a match's clocks are told, moved on by hand."""

    def __init__(self) -> None:
        self.now = START


def clocked_match(match_length: int, seed: str = "time losses") -> tuple[Match, _Time]:
    """A match (0: a money session) with a minute's reserve for each seat and seeded dice."""
    time = _Time()
    rules = RuleSet(match_length=match_length, clock=ClockRules(reserve=60))
    return Match(rules, dice=SeededDice(seed), now=lambda: time.now), time


def run_out(match: Match, time: _Time) -> None:
    """Let the running clock run out, and the match record it."""
    assert match.deadline is not None
    time.now = match.deadline + 5
    assert len(match.expire(time.now)) == 1


def play_any(match: Match) -> None:
    match.play(match.state.game.turn, match.legal_plays()[0])


def drop_a_double(match: Match) -> None:
    """A game: the opening roll played, then a double the other side drops."""
    match.roll(0)
    play_any(match)
    doubler = match.state.game.turn
    match.double(doubler)
    match.drop(1 - doubler)  # type: ignore[arg-type]


# The moments a clock can run out at, each leading up to it from the start of a game.


def with_the_opening_roll_unplayed(match: Match) -> None:
    match.roll(0)


def before_a_roll(match: Match) -> None:
    match.roll(0)
    play_any(match)


def after_a_roll(match: Match) -> None:
    before_a_roll(match)
    match.roll(match.state.game.turn)


def while_a_double_waits(match: Match) -> None:
    before_a_roll(match)
    match.double(match.state.game.turn)


def while_a_resignation_waits(match: Match) -> None:
    """The side that offered to resign wins: its opponent's clock ran out before it answered."""
    after_a_roll(match)
    match.resign(match.state.game.turn, "single")


MOMENTS: list[Callable[[Match], None]] = [
    with_the_opening_roll_unplayed,
    before_a_roll,
    after_a_roll,
    while_a_double_waits,
    while_a_resignation_waits,
]


def match_lost_on_time() -> Match:
    """A 5-point match: game 1 ends with a drop, in game 2 the starter's time runs out."""
    match, time = clocked_match(5)
    drop_a_double(match)
    match.roll(0)
    run_out(match, time)
    return match


def money_game_lost_on_time() -> Match:
    """A money session: game 1 lost on time with the cube at 2, game 2 begun."""
    match, time = clocked_match(0)
    before_a_roll(match)
    doubler = match.state.game.turn
    match.double(doubler)
    match.take(1 - doubler)  # type: ignore[arg-type]
    match.roll(match.state.game.turn)
    run_out(match, time)
    before_a_roll(match)
    return match


# --- what is written -----------------------------------------------------------------------------


def test_a_match_lost_on_time_is_written_as_a_resignation_and_named_in_the_header() -> None:
    match = match_lost_on_time()
    assert [(game.winner, game.points, game.ended_by) for game in match.state.finished] == [
        (0, 1, "drop"),
        (0, 4, "time"),
    ]
    text = export_mat(match, players=PLAYERS)
    header, games = text.split(" 5 point match\n")
    assert header == '; [Game 2 Time "Bob ran out of time"]\n\n'
    game_2 = games.split(" Game 2\n")[1]
    assert game_2 == (
        " Alice : 1                      Bob : 0\n"
        "  1)                             21: \n"
        "      Wins 4 points and the match\n\n"
    )


def test_a_money_game_lost_on_time_scores_the_cube() -> None:
    match = money_game_lost_on_time()
    assert match.state.finished[0].points == 2
    text = export_mat(match, players=PLAYERS)
    assert text.startswith('; [Game 1 Time "Alice ran out of time"]\n\n 0 point match\n')
    game_1 = text.split(" Game 1\n")[1].split(" Game 2\n")[0]
    assert game_1.endswith(
        "  2)  Doubles => 2                Takes\n  3) 12:                         Wins 2 points\n\n"
    )


def test_the_time_tag_goes_with_the_other_header_tags() -> None:
    match, time = clocked_match(0)
    before_a_roll(match)
    run_out(match, time)
    before_a_roll(match)
    run_out(match, time)
    rules = RuleSet(jacoby=True, clock=ClockRules(reserve=60))
    again = Match.replay(rules, match.events)
    text = export_mat(again, players=PLAYERS, site="Club", transcriber="Carol")
    first, second = (PLAYERS[1 - game.winner] for game in match.state.finished)
    assert text.split("\n 0 point match")[0] == (
        '; [Site "Club"]\n'
        '; [Jacoby "On"]\n'
        f'; [Game 1 Time "{first} ran out of time"]\n'
        f'; [Game 2 Time "{second} ran out of time"]\n'
        '; [Transcriber "Carol"]\n'
    )


def test_a_name_s_double_quotes_are_written_as_single_ones_in_the_tag() -> None:
    text = export_mat(match_lost_on_time(), players=("Alice", 'Bob "the Bold"'))
    assert text.startswith("; [Game 2 Time \"Bob 'the Bold' ran out of time\"]\n")
    assert import_mat(text).match.state.finished[-1].ended_by == "time"


# --- read back -----------------------------------------------------------------------------------


@pytest.mark.parametrize("match_length", [5, 0], ids=["match", "money"])
@pytest.mark.parametrize("moment", MOMENTS)
def test_a_time_loss_comes_back_the_same(match_length: int, moment: Callable[[Match], None]) -> None:
    match, time = clocked_match(match_length)
    drop_a_double(match)
    moment(match)
    loser = match.state.clock.running if match.state.clock else None
    run_out(match, time)
    text = export_mat(match, players=PLAYERS)
    checked = check_mat(text)
    assert checked.problems == ()
    assert checked.games[-1].events[-1] == TimeRanOut(loser)  # type: ignore[arg-type]
    imported = import_mat(text)
    assert imported.match.state.finished == match.state.finished
    assert imported.match.state.finished[-1].ended_by == "time"
    assert imported.score == checked.score == match.state.score
    assert imported.winner == match.state.winner
    assert (imported.match.state.rules, imported.match.state.clock) == (imported.rules, None)


def test_a_match_lost_on_time_is_imported_over_with_its_score() -> None:
    match = match_lost_on_time()
    imported = import_mat(export_mat(match, players=PLAYERS))
    assert imported.headers == {"Game 2 Time": "Bob ran out of time"}
    assert (imported.score, imported.winner) == ((5, 0), 0)
    last = imported.match.state.finished[-1]
    assert (last.number, last.winner, last.points, last.ended_by) == (2, 0, 4, "time")
    assert imported.games[1].events[-1] == TimeRanOut(1)


def test_a_money_session_goes_on_after_a_game_lost_on_time() -> None:
    match = money_game_lost_on_time()
    imported = import_mat(export_mat(match, players=PLAYERS))
    assert imported.score == (0, 2)
    assert [(game.winner, game.points, game.ended_by) for game in imported.match.state.finished] == [
        (1, 2, "time")
    ]
    game = imported.match.state.game
    assert (game.number, game.phase, game.position) == (2, match.state.game.phase, match.state.game.position)


# --- problems ------------------------------------------------------------------------------------


def test_a_match_lost_on_time_that_writes_other_points_is_a_problem() -> None:
    text = export_mat(match_lost_on_time(), players=PLAYERS)
    (problem,) = check_mat(text.replace("Wins 4 points", "Wins 3 points")).problems
    assert (problem.game, problem.move, problem.side, problem.player) == (2, 1, 0, "Alice")
    assert (
        problem.reason
        == "player 1 ran out of time, which gives player 0 the 4 points it needed for the match"
    )
    assert problem.action == "Wins 3 points and the match"


def test_a_money_game_lost_on_time_that_writes_other_points_is_a_problem() -> None:
    text = export_mat(money_game_lost_on_time(), players=PLAYERS)
    (problem,) = check_mat(text.replace("Wins 2 points", "Wins 1 point")).problems
    assert problem.game == 1
    assert problem.reason == "player 0 ran out of time, which loses the game at the cube's value: 2 points"


def test_without_its_tag_a_time_loss_reads_as_a_resignation_worth_too_much() -> None:
    text = export_mat(match_lost_on_time(), players=PLAYERS)
    untagged = text.replace('; [Game 2 Time "Bob ran out of time"]\n', "")
    (problem,) = check_mat(untagged).problems
    assert problem.reason == "a resignation is worth at most 3 points with the cube at 1"


def test_a_tag_that_names_the_winner_is_a_problem() -> None:
    text = export_mat(match_lost_on_time(), players=PLAYERS)
    (problem,) = check_mat(text.replace("Bob ran out", "Alice ran out")).problems
    assert problem.game == 2
    assert problem.reason == "the header says Alice ran out of time, but Alice wins the game"


def test_a_tag_on_a_game_won_otherwise_is_a_problem() -> None:
    text = export_mat(match_lost_on_time(), players=PLAYERS)
    (problem,) = check_mat('; [Game 1 Time "Bob ran out of time"]\n' + text).problems
    assert (problem.game, problem.line) == (1, 6)
    assert (
        problem.reason
        == "the header says 'Bob ran out of time', but player 0 won the game by a dropped double"
    )


def test_a_tag_on_an_unfinished_last_game_is_a_problem() -> None:
    match, _ = clocked_match(5)
    drop_a_double(match)
    after_a_roll(match)
    text = export_mat(match, players=PLAYERS)
    (problem,) = check_mat('; [Game 2 Time "Bob ran out of time"]\n' + text).problems
    assert problem.game == 2
    assert problem.reason == "the header says 'Bob ran out of time', but nobody has won the game"


# --- GNU Backgammon ------------------------------------------------------------------------------


@requires_gnubg
def test_gnubg_reads_a_match_lost_on_time_as_a_resignation_of_three_times_the_cube(tmp_path: Path) -> None:
    path = tmp_path / "time.mat"
    path.write_text(export_mat(match_lost_on_time(), players=PLAYERS))
    reading = gnubg_read(path)
    assert reading is not None
    assert reading.warnings == ()
    assert (reading.games, reading.match_length, reading.players) == (2, 5, PLAYERS)
    # Alice wins game 2, but gnubg credits the resignation it sees at most 3 times the cube,
    # not the 4 points she needed: to gnubg the match is not over.
    assert reading.score == (1 + 3, 0)


@requires_gnubg
def test_gnubg_reads_a_money_game_lost_on_time_at_the_cube_s_value(tmp_path: Path) -> None:
    path = tmp_path / "time.mat"
    path.write_text(export_mat(money_game_lost_on_time(), players=PLAYERS))
    reading = gnubg_read(path)
    assert reading is not None
    assert reading.warnings == ()
    # (gnubg counts the games finished: game 2 is in play.)
    assert (reading.games, reading.match_length, reading.score) == (1, 0, (0, 2))
