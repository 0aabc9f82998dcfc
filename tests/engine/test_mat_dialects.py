"""The dialects of .mat files other programs write, read by :func:`check_mat`, and the problems a
record can hold, each reported where it stands.

Every fixture is small and written by hand (the longer ones in ``tests/data/mat_dialects``): a few
legal opening moves and a cube action, or one game raced to a gammon. Each test asserts what the
engine made of the record (the plays, the cube, the result, the score), so that it fails if the
dialect were not read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tavli.engine.events import Beavered, Doubled, Dropped, Played, Rolled, Side, Took
from tavli.engine.game import FinishedGame, other
from tavli.engine.matfile import MatchCheck, MatFileError, Problem, check_mat, export_mat, import_mat
from tavli.engine.matfile.reading import read_record
from tavli.engine.play import Step
from tavli.engine.position import BAR, OFF
from tavli.engine.rules import RuleSet
from tavli.engine.variant import GameResult
from tests.games import bot_match
from tests.gnubg_mat import gnubg_read, requires_gnubg

DIALECTS = Path(__file__).resolve().parents[1] / "data" / "mat_dialects"


# --- building records and reading what was checked ---------------------------------------------------


def fixture(name: str) -> bytes:
    """A fixture file's bytes, as they are (line ends, byte-order mark and encoding kept)."""
    return (DIALECTS / name).read_bytes()


def fixture_text(name: str) -> str:
    return fixture(name).decode("utf-8")


def game(
    body: str, *, number: int = 1, score: tuple[int, int] = (0, 0), names: tuple[str, str] = ("Alice", "Bob")
) -> str:
    """`` Game n``, a score line in GNU Backgammon's layout and the move lines ``body``."""
    left = f" {names[0]} : {score[0]}"
    score_line = left.ljust(max(32, len(left) + 4)) + f"{names[1]} : {score[1]}"
    return f" Game {number}\n{score_line}\n{body}"


def mat(*games: str, length: int = 3, header: str = "") -> str:
    return f"{header}\n {length} point match\n\n" + "\n".join(games)


def clean(text: str | bytes) -> MatchCheck:
    """The record checked, asserting that it has no problem (the problems shown if it has)."""
    check = check_mat(text)
    assert check.problems == (), "\n".join(str(problem) for problem in check.problems)
    return check


def only_problem(text: str | bytes) -> Problem:
    problems = check_mat(text).problems
    assert len(problems) == 1, problems
    return problems[0]


def results(check: MatchCheck) -> list[FinishedGame | None]:
    return [checked.result for checked in check.games]


def plays(check: MatchCheck, side: Side, number: int = 1) -> list[Played]:
    """``side``'s plays in game ``number``, in turn."""
    (checked,) = [checked for checked in check.games if checked.number == number]
    return [event for event in checked.events if isinstance(event, Played) and event.side == side]


def place(problem: Problem) -> tuple[int | None, int | None, int | None, Side | None]:
    """Where a problem stands: its game, move number, file line and side."""
    return problem.game, problem.move, problem.line, problem.side


def line_of(text: str, marker: str) -> int:
    """The 1-based number of the only line of ``text`` holding ``marker``."""
    found = [number for number, line in enumerate(text.splitlines(), start=1) if marker in line]
    assert len(found) == 1, (marker, found)
    return found[0]


def single(winner: Side, points: int = 1, *, cube: int = 1, number: int = 1) -> FinishedGame:
    """A game ended by a drop: ``winner`` won ``points`` with the cube at ``cube``."""
    return FinishedGame(number, winner, GameResult.SINGLE, points, cube, "drop")


# Alice opens, Bob doubles at move 2 and Alice drops: Bob wins 1 point.
DROPPED = (
    "  1) 31: 8/5 6/5                  42: 8/4 6/4\n"
    "  2) 62: 24/18 13/11              Doubles => 2\n"
    "  3)  Drops                       Wins 1 point\n"
)

# Bob doubles, Alice takes and redoubles to 4, Bob drops: Alice wins 2 points.
REDOUBLE_DROPPED = (
    "  1) 31: 8/5 6/5                  Doubles => 2\n"
    "  2)  Takes                       42: 8/4 6/4\n"
    "  3)  Doubles => 4                Drops\n"
)

# Bob hits Alice's blot on his bar point; Alice, on the bar against his 6-point, cannot play 6-6;
# then she enters with the 3 of 3-1.
ON_THE_BAR = (
    "  1) 62: 24/18 13/11              61: 13/7* 8/7\n"
    "  2) {cannot:<29}42: 8/4 6/4\n"
    "  3) 31: {enter} 6/5                Doubles => 2\n"
    "  4)  Drops                       Wins 1 point\n"
)


def on_the_bar(*, enter: str = "bar/22", cannot: str = "66: Cannot Move") -> str:
    return mat(game(ON_THE_BAR.format(enter=enter, cannot=cannot)))


# --- headers ---------------------------------------------------------------------------------------


def test_tag_lines_are_read_into_the_header() -> None:
    check = clean(fixture("tags.mat"))
    assert check.record.tags == {
        "Site": "Tavli Club",
        "Player 1": "Alice",
        "Player 2": "Bob",
        "EventDate": "2026.05.01",
        "Crawford": "On",
        "Jacoby": "Off",
        "Variation": "Backgammon",
        "Transcriber": "A. Transcriber",
    }
    assert (check.rules.variant, check.rules.match_length, check.rules.crawford) == ("backgammon", 3, True)
    assert check.record.players == ("Alice", "Bob")
    assert results(check) == [single(1)]


@pytest.mark.parametrize("as_bytes", [True, False], ids=["bytes", "text"])
def test_a_byte_order_mark_is_passed_over(as_bytes: bool) -> None:
    data = fixture("bom.mat")
    assert data.startswith(b"\xef\xbb\xbf; [Site ")
    check = clean(data if as_bytes else data.decode("utf-8"))  # decoded as UTF-8, the mark is kept
    assert check.record.tags == {"Site": "Tavli Club", "Player 1": "Alice", "Player 2": "Bob"}
    assert check.score == (0, 1)


@pytest.mark.parametrize("as_bytes", [True, False], ids=["bytes", "text"])
def test_crlf_line_ends_are_read(as_bytes: bool) -> None:
    data = fixture("crlf.mat")
    assert data.count(b"\r\n") == data.count(b"\n") == 9
    check = clean(data if as_bytes else data.decode("ascii"))
    assert check.record.tags == {"Site": "Tavli Club"}
    assert [play.notation for play in plays(check, 1)] == ["8/4 6/4"]  # a right column, at a line's end
    assert results(check) == [single(1)]


def test_a_boxed_banner_before_the_match_line_is_passed_over() -> None:
    text = fixture_text("banner.mat")
    assert text.startswith("+----") and "| Tavli Club" in text
    check = clean(text)
    assert (check.rules.match_length, check.record.match_line, check.record.tags) == (3, 6, {})
    assert results(check) == [single(1)]


def test_a_file_may_start_with_the_match_line() -> None:
    text = fixture_text("no_header.mat")
    assert text.startswith(" 3 point match\n")
    check = clean(text)
    assert (check.rules.match_length, check.record.match_line, check.record.tags) == (3, 1, {})
    assert check.games[0].score == (0, 0) and results(check) == [single(1)]


@pytest.mark.parametrize(
    "match_line, length",
    [
        (" 7 point match", 7),
        ("25 Point Match", 25),
        ("5 POINT MATCH", 5),
        ("   11 point match", 11),
        (" 1 point match", 1),
    ],
)
def test_the_match_line_in_any_case_with_or_without_leading_spaces(match_line: str, length: int) -> None:
    body = "  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2)  Resigns                     Wins 1 point\n"
    check = clean(f"{match_line}\n\n{game(body)}")
    assert check.rules.match_length == length and check.rules.is_match
    assert check.score == (0, 1)


def test_a_0_point_match_is_a_money_session() -> None:
    check = clean(mat(game(DROPPED), game(DROPPED, number=2, score=(0, 1)), length=0))
    assert not check.rules.is_match
    assert check.score == (0, 2) and check.match().state.winner is None
    assert results(check) == [single(1), single(1, number=2)]


@pytest.mark.parametrize(
    "jacoby_tag, points",
    [('; [Jacoby "On"]\n', 1), ('; [Jacoby "Off"]\n', 2), ("", 2)],
    ids=["jacoby-on", "jacoby-off", "no-tag"],
)
def test_jacoby_decides_what_a_gammon_with_the_cube_unturned_is_worth_in_money_play(
    jacoby_tag: str, points: int
) -> None:
    text = fixture_text("money_gammon_jacoby.mat")
    assert '; [Jacoby "On"]\n' in text and "Wins 1 point" in text
    text = text.replace('; [Jacoby "On"]\n', jacoby_tag).replace("Wins 1 point", f"Wins {points} point")
    check = clean(text)
    assert check.rules.jacoby == (points == 1)
    (result,) = results(check)
    assert result == FinishedGame(1, 0, GameResult.GAMMON, points, 1, "play")
    assert check.score == (points, 0)


def test_with_jacoby_on_an_unturned_gammon_written_as_2_points_is_a_problem() -> None:
    text = fixture_text("money_gammon_jacoby.mat").replace("Wins 1 point", "Wins 2 points")
    problem = only_problem(text)
    assert place(problem) == (1, 10, line_of(text, "Wins 2"), 0)
    assert "winning 1 point" in problem.reason


def test_with_crawford_off_the_trailer_may_double_at_match_point_minus_one() -> None:
    check = clean(fixture("crawford_off.mat"))
    assert check.rules.crawford is False
    assert results(check) == [single(1), single(1, number=2), single(0, number=3)]
    assert [type(event) for event in check.games[2].events][-2:] == [Doubled, Dropped]
    assert check.score == (1, 2)


@pytest.mark.parametrize("crawford_tag", ['; [Crawford "On"]\n', ""], ids=["crawford-on", "no-tag"])
def test_with_crawford_on_a_double_in_the_crawford_game_is_a_problem(crawford_tag: str) -> None:
    text = fixture_text("crawford_off.mat").replace('; [Crawford "Off"]\n', crawford_tag)
    check = check_mat(text)
    assert check.rules.crawford is True
    (problem,) = check.problems
    # " Game 3", its score line, move 1 and move 2, where Alice doubles.
    assert place(problem) == (3, 2, line_of(text, " Game 3") + 3, 0)
    assert "Crawford" in problem.reason
    assert results(check)[:2] == [single(1), single(1, number=2)]


@pytest.mark.parametrize(
    "names",
    [
        ("nori,1752", "Bob"),
        ("nori,1752", "falafel,1801"),
        ("Anna Maria", "Bob van Dijk"),
        ("Anna Maria Smith-Jones (1543)", "Bob"),
        ("K\ufffdvin", "Zo\ufffd"),
    ],
    ids=["comma-rating", "two-ratings", "spaces", "long-with-rating", "replacement-character"],
)
def test_names_in_score_lines(names: tuple[str, str]) -> None:
    check = clean(mat(game(DROPPED, names=names)))
    assert check.record.players == names
    assert [play.notation for play in plays(check, 1)] == ["8/4 6/4"]  # the right column still found
    assert results(check) == [single(1)]


def test_a_latin_1_file_is_read_with_its_names() -> None:
    data = fixture("latin1.mat")
    assert b" K\xe9vin : 0" in data  # Latin-1, not UTF-8
    check = clean(data)
    assert check.record.players == ("Kévin", "Zoë")
    assert check.record.tags == {"Player 1": "Kévin", "Player 2": "Zoë"}
    assert import_mat(data).players == ("Kévin", "Zoë")


# --- moves -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("enter", ["25/22", "bar/22", "Bar/22", "BAR/22"])
def test_entering_from_the_bar_in_every_spelling(enter: str) -> None:
    check = clean(on_the_bar(enter=enter))
    hit = plays(check, 1)[0]
    assert hit.steps[0].hit
    entered = plays(check, 0)[2]
    assert entered.steps == (Step(BAR, 22, 3), Step(6, 5, 1))


@pytest.mark.parametrize("off", ["/off", "/0", "/Off", "/OFF"])
def test_bearing_off_in_every_spelling(off: str) -> None:
    text = fixture_text("money_gammon_jacoby.mat")
    assert text.count("/off") == 6
    check = clean(text.replace("/off", off))
    borne_off = [step for play in plays(check, 0) for step in play.steps if step.end == OFF]
    assert len(borne_off) == 15
    assert results(check)[0] == FinishedGame(1, 0, GameResult.GAMMON, 1, 1, "play")


@pytest.mark.parametrize("written", ["13/11(2) 6/4(2)", "13/11 13/11 6/4 6/4", "6/4(2) 13/11 13/11"])
def test_a_move_repeated_with_a_count(written: str) -> None:
    body = f"  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2) 22: {written:<25}Doubles => 2\n  3)  Drops\n"
    check = clean(mat(game(body)))
    double = plays(check, 0)[1]
    assert sorted((step.start, step.end) for step in double.steps) == [(6, 4), (6, 4), (13, 11), (13, 11)]


@pytest.mark.parametrize("written", ["13/4", "13/9/4", "13/8/4", "13/8 8/4", "13/9 9/4"])
def test_one_checker_written_in_one_hop_or_through_its_points(written: str) -> None:
    body = f"  1) 54: {written:<25}Doubles => 2\n  2)  Drops                       Wins 1 point\n"
    check = clean(mat(game(body)))
    (first, second) = plays(check, 0)[0].steps
    assert (first.start, first.end == second.start, second.end) == (13, True, 4)
    assert sorted((first.die, second.die)) == [4, 5]


@pytest.mark.parametrize("dice", [(2, 6), (6, 2)])
def test_dice_in_the_order_rolled(dice: tuple[int, int]) -> None:
    body = (
        f"  1) 31: 8/5 6/5                  {dice[0]}{dice[1]}: 24/18 13/11\n  2)  Doubles => 2          "
        "      Drops\n"
    )
    check = clean(mat(game(body)))
    assert Rolled(1, dice) in check.games[0].events
    assert [(step.start, step.end) for step in plays(check, 1)[0].steps] == [(24, 18), (13, 11)]


@pytest.mark.parametrize("opening", ["13", "31"])
def test_the_opening_dice_in_either_order(opening: str) -> None:
    check = clean(mat(game(f"  1) {opening}: 8/5 6/5                  Doubles => 2\n  2)  Drops\n")))
    assert plays(check, 0)[0].notation == "8/5 6/5"


def test_a_double_written_with_the_fewer_moves_that_could_be_played() -> None:
    # Bob's 6-6 makes his bar point and Alice's: Alice's 6s can only go 8/2, and she has two there.
    body = (
        "  1) 31: 8/5 6/5                  66: 24/18(2) 13/7(2)\n"
        "  2) 66: 8/2(2)                   Doubles => 2\n"
        "  3)  Drops                       Wins 1 point\n"
    )
    check = clean(mat(game(body)))
    assert plays(check, 0)[1].steps == (Step(8, 2, 6), Step(8, 2, 6))
    # And the last roll of a race, with three checkers left.
    last = plays(clean(fixture("money_gammon_jacoby.mat")), 0)[-1]
    assert last.steps == (Step(1, OFF, 3),) * 3


@pytest.mark.parametrize("cannot", ["66:", "66: Cannot Move", "66: cannot move", "66:        "])
def test_a_roll_that_cannot_be_played_written_empty_or_cannot_move(cannot: str) -> None:
    check = clean(on_the_bar(cannot=cannot))
    events = check.games[0].events
    index = events.index(Rolled(0, (6, 6)))
    assert events[index + 1] == Played(0, (), "")
    assert results(check) == [single(1)]


def test_numbered_lines_with_nothing_on_them() -> None:
    text = mat(game(DROPPED + "  4)\n 24)\n"), game(DROPPED + "  4)\n", number=2, score=(0, 1)))
    check = clean(text)
    assert results(check) == [single(1), single(1, number=2)]
    assert check.score == (0, 2)


@pytest.mark.parametrize(
    "ending",
    [
        "  3)  Drops                       Wins 1 point\n",
        "  3)  Drops\n                                  Wins 1 point\n",
        "  3)  Drops\n  4)                              Wins 1 point\n",
        "  3)  Drops\n      Wins 1 point\n",
        "  3)  Drops\nWins 1 point\n",
    ],
    ids=["right-column", "right-column-alone", "numbered-right", "left-column", "line-start"],
)
def test_the_win_line_in_either_column_or_at_the_line_start(ending: str) -> None:
    body = DROPPED.replace("  3)  Drops                       Wins 1 point\n", ending)
    text = mat(game(body), game(DROPPED, number=2, score=(0, 1)))
    check = clean(text)
    assert results(check) == [single(1), single(1, number=2)]


# --- the cube and resignations ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "double, take, drop",
    [("Doubles", "Takes", "Drops"), ("Double", "Take", "Drop"), ("Doubles", "Take", "Drop")],
)
def test_doubles_and_redoubles_to_8_in_either_spelling(double: str, take: str, drop: str) -> None:
    body = (
        f"  1) 31: 8/5 6/5                  {double} => 2\n"
        f"  2)  {take:<28}42: 8/4 6/4\n"
        f"  3)  {double} => 4{'':<{17 - len(double)}}{take}\n"
        f"  4) 62: 24/18 13/11              {double} => 8\n"
        f"  5)  {drop:<28}Wins 4 points\n"
    )
    check = clean(mat(game(body), length=7))
    cube = [event for event in check.games[0].events if isinstance(event, (Doubled, Took, Dropped))]
    assert cube == [Doubled(1), Took(0), Doubled(0), Took(1), Doubled(1), Dropped(0)]
    assert results(check) == [single(1, 4, cube=4)]
    assert check.score == (0, 4)


BEAVERED = "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Beavers => 4                42: 8/4 6/4\n"


def test_a_beaver_in_money_play_with_beavers_on() -> None:
    check = clean(mat(game(BEAVERED), length=0, header='; [Beaver "On"]\n'))
    assert check.rules.beavers
    assert Beavered(0) in check.games[0].events
    state = check.match().state.game
    assert (state.cube_value, state.cube_owner) == (4, 0)
    # The beaverer owns the cube at 4 and redoubles to 8; a drop gives 4 points.
    more = "  3)  Doubles => 8                Drops\n  4)  Wins 4 points\n"
    assert results(clean(mat(game(BEAVERED + more), length=0, header='; [Beaver "On"]\n'))) == [
        single(0, 4, cube=4)
    ]


def test_a_beaver_without_the_beaver_tag_is_a_problem() -> None:
    text = mat(game(BEAVERED), length=0)
    problem = only_problem(text)
    assert place(problem) == (1, 2, line_of(text, "Beavers"), 0)
    assert "beavers are not played" in problem.reason


@pytest.mark.parametrize(
    "points, level", [(1, GameResult.SINGLE), (2, GameResult.GAMMON), (3, GameResult.BACKGAMMON)]
)
def test_a_resignation_is_worth_the_points_its_wins_line_writes(points: int, level: GameResult) -> None:
    body = (
        f"  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2)  Resigns                     Wins {points} "
        "points\n"
    )
    check = clean(mat(game(body), length=5))
    assert results(check) == [FinishedGame(1, 1, level, points, 1, "resignation")]
    assert check.score == (0, points)


# --- results ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("result", ["Wins 2 points", "Wins 2 point", "Wins 2 Points", "wins 2 points"])
def test_the_wins_line_in_any_number_and_case(result: str) -> None:
    check = clean(mat(game(REDOUBLE_DROPPED + f"  4)  {result}\n")))
    assert results(check) == [single(0, 2, cube=2)]
    assert check.score == (2, 0)


@pytest.mark.parametrize(
    "result",
    ["Wins 2 points and the match", "Wins 2 points and wins the match", "Wins 2 point and the match"],
)
def test_the_wins_line_of_the_match(result: str) -> None:
    body = f"  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2)  Resigns                     {result}\n"
    check = clean(mat(game(body), length=2))
    assert results(check) == [FinishedGame(1, 1, GameResult.GAMMON, 2, 1, "resignation")]
    assert check.match().state.winner == 1


@pytest.mark.parametrize(
    "result",
    [
        "  4)                              Losses 2 point\n",
        "  4)  Wins 2 points               Losses 2 point\n",
        "  4)  Wins 2 points\n  5)                              Losses 2 points\n",
    ],
    ids=["alone", "with-wins", "on-the-next-line"],
)
def test_the_losers_losses_line_alone_or_with_the_winners(result: str) -> None:
    check = clean(mat(game(REDOUBLE_DROPPED + result)))
    assert results(check) == [single(0, 2, cube=2)]


@pytest.mark.parametrize("loser", [0, 1])
def test_a_losses_line_after_a_resignation_says_who_lost(loser: Side) -> None:
    resigns = "  2)  Resigns\n" if loser == 0 else "  2) 62: 24/18 13/11              Resigns\n"
    losses = (
        "  3)  Losses 2 points\n" if loser == 0 else "  3)                              Losses 2 points\n"
    )
    check = clean(mat(game("  1) 31: 8/5 6/5                  42: 8/4 6/4\n" + resigns + losses), length=5))
    assert results(check) == [FinishedGame(1, other(loser), GameResult.GAMMON, 2, 1, "resignation")]


@pytest.mark.parametrize("result", ["Wins 3 point and the match", "Wins 4 points and the match"])
def test_a_match_winning_game_written_as_the_points_that_were_enough(result: str) -> None:
    text = fixture_text("match_gammon_cube_2.mat")
    assert "Wins 3 point and the match" in text
    check = clean(text.replace("Wins 3 point and the match", result))
    assert results(check) == [FinishedGame(1, 0, GameResult.GAMMON, 4, 2, "play")]
    assert check.score == (4, 0)  # the points the game was worth, not the 3 written
    assert import_mat(text).winner == 0


def test_a_match_winning_game_written_as_fewer_points_than_the_match_needs_is_a_problem() -> None:
    text = fixture_text("match_gammon_cube_2.mat").replace("Wins 3 point", "Wins 2 points")
    problem = only_problem(text)
    assert place(problem) == (1, 11, line_of(text, "Wins 2"), 0)
    assert "winning 4 points" in problem.reason


# --- result lines read by their meaning ------------------------------------------------------------

# Alice (left) and Bob have each played once: the game is still on, and a result ends it.
OPENED = "  1) 31: 8/5 6/5                  42: 8/4 6/4\n"
# Backgammon Galaxy writes the winner's line after the loser's, 47 blanks on (at column 63).
GALAXY_GAP = " " * 47

# (the lines that end the game, who won): as Backgammon Galaxy writes them (the loser's Losses line,
# then the winner's Wins line in its own column), then the same with no move numbers, the loser's or
# the winner's line at the line's start.
RESULT_PAIRS = {
    "galaxy-left-wins": (
        "  2)                              Losses 1 point\n\n      Wins 1 point and the match\n",
        0,
    ),
    "galaxy-right-wins": (f"  2)  Losses 1 point{GALAXY_GAP}Wins 1 point and the match\n", 1),
    "losses-at-the-line-start-left-wins": ("Losses 1 point\n\n      Wins 1 point and the match\n", 0),
    "losses-at-the-line-start-right-wins": (f"Losses 1 point{GALAXY_GAP}Wins 1 point and the match\n", 1),
    "losses-after-a-blank-right-wins": (
        " Losses 1 point\n                                  Wins 1 point and the match\n",
        1,
    ),
    "wins-at-the-line-start-left-wins": (
        "Wins 1 point and the match\n                                  Losses 1 point\n",
        0,
    ),
    "wins-at-the-line-start-right-wins": ("Wins 1 point and the match\n      Losses 1 point\n", 1),
}


@pytest.mark.parametrize("the_match", [True, False], ids=["and-the-match", "a-game"])
@pytest.mark.parametrize("name", RESULT_PAIRS)
def test_a_result_at_the_line_start_is_the_side_the_games_other_result_line_names(
    name: str, the_match: bool
) -> None:
    ending, winner = RESULT_PAIRS[name]
    length = 1 if the_match else 3
    check = clean(
        mat(game(OPENED + (ending if the_match else ending.replace(" and the match", ""))), length=length)
    )
    assert results(check) == [FinishedGame(1, winner, GameResult.SINGLE, 1, 1, "resignation")]
    assert check.score == ((1, 0) if winner == 0 else (0, 1))
    assert check.match().state.winner == (winner if the_match else None)


@pytest.mark.slow
@requires_gnubg
@pytest.mark.parametrize(
    "name", [name for name in RESULT_PAIRS if not name.startswith("wins-at-the-line-start")]
)
def test_where_the_winners_line_stands_in_its_column_gnubg_scores_the_match_alike(
    name: str, tmp_path: Path
) -> None:
    # GNU Backgammon ignores Losses lines and takes a Wins line by its column; it guesses the left
    # player for a Wins line at the line's start, which these pairs leave out.
    ending, winner = RESULT_PAIRS[name]
    path = tmp_path / f"{name}.mat"
    path.write_text(mat(game(OPENED + ending), length=1))
    reading = gnubg_read(path)
    assert reading is not None
    check = clean(path.read_bytes())
    assert (reading.games, reading.score) == (len(check.games), check.score)
    assert check.score[winner] == 1


def test_only_a_result_at_the_line_start_without_a_move_number_is_in_neither_column() -> None:
    text = mat(game(OPENED + "Losses 1 point\n      Wins 1 point\n  3)  Wins 1 point\n   Wins 1 point\n"))
    written = [entry for entry in read_record(text).games[0].entries if entry.kind in ("win", "loss")]
    assert [entry.in_column for entry in written] == [False, True, True, False]


@pytest.mark.parametrize(
    "ending",
    [
        "  3)  Drops\nLosses 1 point\n",
        "  3)  Drops\nWins 1 point\n",
        "  3)  Drops\nLosses 1 point\n                                  Wins 1 point\n",
        "  3)  Drops\nWins 1 point\n      Losses 1 point\n",
    ],
    ids=["losses-alone", "wins-alone", "losses-then-wins", "wins-then-losses"],
)
def test_a_result_at_the_line_start_after_the_game_is_decided_is_the_winners(ending: str) -> None:
    body = DROPPED.replace("  3)  Drops                       Wins 1 point\n", ending)
    check = clean(mat(game(body), game(DROPPED, number=2, score=(0, 1))))
    assert results(check) == [single(1), single(1, number=2)]
    assert check.score == (0, 2)


@pytest.mark.parametrize("winner", [0, 1])
def test_a_lone_result_at_the_line_start_is_the_side_the_next_score_line_credits(winner: Side) -> None:
    # As GNU Gibbon's and a world championship's transcripts write a resignation: " Wins 2 points".
    after = (2, 0) if winner == 0 else (0, 2)
    check = clean(mat(game(OPENED + " Wins 2 points\n"), game(DROPPED, number=2, score=after), length=5))
    assert results(check)[0] == FinishedGame(1, winner, GameResult.GAMMON, 2, 1, "resignation")
    assert check.score == (after[0], after[1] + 1)


@pytest.mark.parametrize(
    "ending, length, next_score",
    [
        ("Wins 1 point and the match\n", 1, None),
        (" Wins 1 point\n", 3, None),
        ("Losses 1 point\n", 3, None),
        ("Wins 1 point\n", 5, (1, 1)),
        ("Wins 1 point\n", 5, (0, 2)),
    ],
    ids=[
        "the-match",
        "the-last-game",
        "losses",
        "next-score-credits-both",
        "next-score-credits-other-points",
    ],
)
def test_a_lone_result_at_the_line_start_of_a_game_still_on_does_not_say_who_lost(
    ending: str, length: int, next_score: tuple[int, int] | None
) -> None:
    games = [game(OPENED + ending)]
    if next_score is not None:
        games.append(game(DROPPED, number=2, score=next_score))
    text = mat(*games, length=length)
    problem = only_problem(text)
    assert place(problem) == (1, 1, line_of(mat(games[0]), "31: 8/5") + 1, None)  # the first game's lines
    assert problem.message.startswith(f"{ending.strip()}: the result does not say who lost")
    assert check_mat(text).games[0].result is None


# (the lines that end the game after OPENED, the match length, which of them is at fault, its side,
# the words of the reason)
CONTRADICTIONS = {
    "winners-in-both-columns": (
        "      Wins 1 point\n                                  Wins 1 point\n",
        3,
        2,
        1,
        "says player 0 won",
    ),
    "losses-and-wins-in-one-column": (
        "  2)  Losses 1 point\n      Wins 1 point\n",
        3,
        2,
        0,
        "says player 1 won",
    ),
    "a-third-line-names-the-other": (
        "Losses 1 point\n      Wins 1 point\n                                  Wins 1 point\n",
        3,
        3,
        1,
        "says player 0 won",
    ),
    "points-differ": ("Losses 1 point\n      Wins 2 points\n", 5, 2, 0, "says the game was worth 1 point"),
    "galaxy-points-differ": (
        f"  2)  Losses 2 points{GALAXY_GAP}Wins 1 point and the match\n",
        1,
        1,
        1,
        "says the game was worth 2 points",
    ),
    "the-match-short-of-the-length": (
        "Losses 1 point\n      Wins 1 point and the match\n",
        3,
        2,
        0,
        "player 0 has 1 of the 3 points of the match: the match is not won",
    ),
    "the-match-after-a-resignation-short": (
        "  2)  Resigns                     Wins 1 point and the match\n",
        3,
        1,
        1,
        "player 1 has 1 of the 3 points",
    ),
    "the-match-in-money-play": (
        "  2)  Resigns                     Wins 1 point and the match\n",
        0,
        1,
        1,
        "money play has no match",
    ),
}


@pytest.mark.parametrize("name", CONTRADICTIONS)
def test_result_lines_that_contradict_each_other_or_the_match_are_a_problem(name: str) -> None:
    ending, length, at_fault, side, words = CONTRADICTIONS[name]
    text = mat(game(OPENED + ending), length=length)
    problem = only_problem(text)
    assert place(problem) == (
        1,
        2 if ending.startswith("  2)") else 1,
        line_of(text, "31: 8/5") + at_fault,
        side,
    )
    assert words in problem.reason


def test_every_result_line_of_a_game_is_held_to_its_first() -> None:
    # Each line is compared with the first only (agreeing with it, it agrees with all before it), so
    # that a record of many result lines is checked in one pass; the last one disagrees.
    ending = "Losses 1 point\n" + "      Wins 1 point\n" * 20_000 + "      Wins 2 points\n"
    text = mat(game(OPENED + ending), length=5)
    problem = only_problem(text)
    assert place(problem) == (1, 1, line_of(text, "Wins 2 points"), 0)
    assert "line 7 says the game was worth 1 point" in problem.reason


def test_two_result_lines_that_name_a_winner_the_game_did_not_have_are_a_problem() -> None:
    # Bob doubled and Alice dropped: Bob won, though both lines say Alice did.
    ending = "  3)  Drops\n      Wins 1 point\n                                  Losses 1 point\n"
    text = mat(game(DROPPED.replace("  3)  Drops                       Wins 1 point\n", ending)))
    problem = only_problem(text)
    assert place(problem) == (1, 3, line_of(text, "      Wins 1 point"), 0)
    assert problem.reason == "player 1 won the game"


# --- problems, each where it stands ----------------------------------------------------------------


PLANTED = {
    # name: (the game's move lines, the marker of the line at fault, its move, its side, a phrase
    # of the reason)
    "three-question-marks": (
        "  1) 31: 8/5 6/5                  42: ???\n  2) 62: 24/18 13/11              Doubles => 2\n",
        "???",
        1,
        1,
        "not recorded",
    ),
    "question-marks-without-dice": (
        "  1) 31: 8/5 6/5                  ???\n  2) 62: 24/18 13/11              Doubles => 2\n",
        "???",
        1,
        1,
        "not recorded",
    ),
    "four-question-marks": (
        "  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2) 62: ????                     Doubles => 2\n",
        "????",
        2,
        0,
        "not recorded",
    ),
    "board-dump": (
        (
            "  1) 31: 8/5 6/5                  42: 8/4 6/4\n"
            "  2) 62: Illegal play (25;0;-2;0;0;0;0;5;0;3;0;0;0;-5;5;0;0;0;-3;0;-5;0;0;0;0;2;0;0)\n"
        ),
        "Illegal play",
        2,
        0,
        "board dump",
    ),
    "one-die-of-two": (
        "  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2) 64: 13/7                     Doubles => 2\n",
        "64: 13/7",
        2,
        0,
        "must play both dice",
    ),
    "onto-a-point-held": (
        "  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2) 53: 24/21 13/8               Doubles => 2\n",
        "24/21",
        2,
        0,
        "21-point is blocked",
    ),
    "wrong-side-rolls": (
        "  1) 31: 8/5 6/5\n  2) 62: 24/18 13/11\n",
        "62: 24/18",
        2,
        0,
        "not your turn",
    ),
    "double-without-the-cube": (
        (
            "  1) 31: 8/5 6/5                  Doubles => 2\n"
            "  2)  Takes                       42: 8/4 6/4\n"
            "  3) 62: 24/18 13/11              Doubles => 4\n"
        ),
        "Doubles => 4",
        3,
        1,
        "opponent owns the cube",
    ),
    "cube-value-wrong": (
        "  1) 31: 8/5 6/5                  Doubles => 4\n  2)  Takes\n",
        "Doubles => 4",
        1,
        1,
        "turns the cube to 2",
    ),
    "drop-without-a-double": (
        "  1) 31: 8/5 6/5                  42: 8/4 6/4\n  2)  Drops                       Wins 1 point\n",
        "Drops",
        2,
        0,
        "no double",
    ),
    "points-the-game-did-not-have": (
        "  1) 31: 8/5 6/5                  Doubles => 2\n  2)  Drops                       Wins 2 points\n",
        "Wins 2 points",
        2,
        1,
        "winning 1 point",
    ),
}


@pytest.mark.parametrize("name", PLANTED)
def test_a_planted_problem_is_reported_where_it_stands(name: str) -> None:
    body, marker, move, side, phrase = PLANTED[name]
    text = mat(game(body), game(DROPPED, number=2, score=(0, 0)))  # game 2 is checked from its own score line
    check = check_mat(text)
    (problem,) = check.problems
    line = line_of(mat(game(body)), marker)  # game 1's line: the text begins with it
    assert place(problem) == (1, move, line, side)
    assert phrase in problem.reason
    assert check.games[0].problem == problem
    assert results(check)[1] == single(1, number=2)


def test_a_score_line_that_contradicts_the_games_before() -> None:
    text = mat(game(DROPPED), game(DROPPED, number=2, score=(0, 2)))
    problem = only_problem(text)
    assert place(problem) == (2, None, line_of(text, "Bob : 2"), None)
    assert "the games before make it 0-1" in problem.reason


def test_a_game_that_ends_without_a_result_when_another_follows() -> None:
    text = mat(game("  1) 31: 8/5 6/5                  42: 8/4 6/4\n"), game(DROPPED, number=2))
    check = check_mat(text)
    (problem,) = check.problems
    # Reported at the game's last line: the one before " Game 2".
    assert place(problem) == (1, None, line_of(text, " Game 2") - 1, None)
    assert "without a result" in problem.reason
    assert results(check) == [None, single(1, number=2)]


def test_problems_in_several_games_are_all_reported_and_clean_games_checked_from_their_score_lines() -> None:
    text = fixture_text("several_problems.mat")
    check = check_mat(text)
    first, second = check.problems
    assert place(first) == (1, 2, line_of(text, "53: 24/21"), 0)
    assert "blocked" in first.reason
    assert place(second) == (3, 1, line_of(text, "42: ???"), 1)
    assert "not recorded" in second.reason
    assert [checked.problem for checked in check.games] == [first, None, second, None]
    # Game 2 at 0-1 and game 4 at 1-2 (after the Crawford game, so Alice may double) are the engine's.
    assert [checked.score for checked in check.games] == [(0, 0), (0, 1), (0, 2), (1, 2)]
    assert results(check) == [None, single(1, number=2), None, single(0, number=4)]
    assert check.score == (2, 2)


def test_import_mat_refuses_a_record_with_problems_giving_every_one() -> None:
    text = fixture_text("several_problems.mat")
    with pytest.raises(MatFileError) as caught:
        import_mat(text)
    assert caught.value.problems == check_mat(text).problems
    assert len(caught.value.problems) == 2
    assert (caught.value.game, caught.value.move_number) == (1, 2)


@pytest.mark.parametrize(
    "text, phrase",
    [
        ('; [Site "Tavli Club"]\n Game 1\n' + game(DROPPED).split("\n", 1)[1], "no ' N point match' line"),
        ("+------+\n| Tavli |\n+------+\n", "no ' N point match' line"),
        ("\n 3 point match\n\n", "holds no game"),
        ('; [Site "Tavli Club"]\n 5 point match\n Alice : 0        Bob : 0\n', "holds no game"),
    ],
    ids=["no-match-line", "banner-only", "match-line-only", "no-game-line"],
)
def test_a_text_with_no_match_line_or_no_game_is_refused(text: str, phrase: str) -> None:
    with pytest.raises(MatFileError, match=phrase):
        check_mat(text)
    with pytest.raises(MatFileError, match=phrase):
        import_mat(text)


# --- what tavli itself writes, at the edges -----------------------------------------------------


@pytest.mark.parametrize("throws", ["6-6", "3-1 4-2"])
def test_an_opening_line_the_rules_do_not_allow_is_a_problem_at_that_line(throws: str) -> None:
    text = mat(f' Game 1\n Alice : 0                      Bob : 0\n; [Opening "{throws}"]\n', length=5)
    check = check_mat(text)
    (problem,) = check.problems
    assert (problem.game, problem.line) == (1, 6) and "Opening line" in problem.reason


@pytest.mark.parametrize("long_name", ["Alexander the Great of Macedon", "x" * 64])
def test_a_long_name_exported_in_gnubgs_layout_reads_back(long_name: str) -> None:
    for seed in range(4):
        match = bot_match(RuleSet(match_length=3), seed=seed)
        text = export_mat(match, players=(long_name, "Bob"))
        assert f"{long_name} : 0Bob : 0" in text or f"{long_name} : 0 " in text  # gnubg's "%-31s"
        check = check_mat(text)
        assert check.problems == () and check.record.players == (long_name, "Bob")
        assert check.score == match.state.score
