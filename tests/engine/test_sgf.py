"""GNU Backgammon's SGF match records: written as gnubg saves them, read back through the rules.

Seeded bot matches go out as SGF and come back as the same match; Debian's gnubg loads our files at
the same score with no warning; matches gnubg plays against itself and saves are read by tavli at
gnubg's score with every play legal; a .mat file turned into SGF and back is the same match.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tavli.engine.events import Beavered, Doubled, Dropped, Played, ResignationAccepted, TimeRanOut, Took
from tavli.engine.match import Match
from tavli.engine.matfile import (
    MatFileError,
    check_mat,
    check_match_record,
    check_sgf,
    export_mat,
    export_sgf,
    import_mat,
    import_match_record,
    import_sgf,
    record_format,
)
from tavli.engine.matfile.sgf import SgfFormatError, read_sgf
from tavli.engine.rules import RuleSet
from tests.engine.test_mat_time_losses import PLAYERS, clocked_match, drop_a_double, run_out
from tests.games import ROLL_THEN_RESIGN, bot_match, roll_then_resign
from tests.gnubg_mat import GnubgReading, _quoted, _reading, _run_gnubg, requires_gnubg

OPENING_31 = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[Ann]PB[Bob]RU[Crawford]\n;W[31hefe]"


@pytest.mark.parametrize(
    ("start", "expected"),
    [("", "sgf"), ("\ufeff", "sgf"), ("\r\n \t", "sgf"), ("\ufeff\n", "sgf"), ("( ", "mat"), ("x", "mat")],
)
def test_a_record_is_told_sgf_by_its_opening_game_tree(start: str, expected: str) -> None:
    assert record_format(start + OPENING_31) == expected


def test_either_format_is_checked_and_imported_as_its_own_reader_does() -> None:
    match = bot_match(RuleSet(match_length=5), 21, double=0.4)
    mat, sgf = export_mat(match), export_sgf(match)
    assert check_match_record(mat) == check_mat(mat)
    assert check_match_record(sgf.encode()) == check_sgf(sgf)
    assert check_match_record(sgf).record.format == "sgf" and check_mat(mat).record.format == "mat"
    assert import_match_record("\ufeff" + sgf).events == import_match_record(mat).events == match.events


# --- gnubg as the judge --------------------------------------------------------------------------


def gnubg_loads(path: Path) -> GnubgReading | None:
    """Load an SGF match with gnubg: how it read it (see tests.gnubg_mat.gnubg_read)."""
    output = _run_gnubg(
        [
            "set player 0 name tavli,unread-0",
            "set player 1 name tavli,unread-1",
            f"load match {_quoted(path)}",
            "show player",
            "show score",
        ]
    )
    return _reading(output)


def gnubg_selfplay_sgf(path: Path, *, length: int, seed: int) -> Path:
    """Have gnubg play a match against itself at 0 ply and save it to ``path`` as SGF."""
    _run_gnubg(
        [
            "set rng mersenne",
            f"set seed {seed}",
            "set player both gnubg",
            "set player both chequerplay evaluation plies 0",
            "set player both cubedecision evaluation plies 0",
            "set display off",
            f"new match {length}",
            f"save match {_quoted(path)}",
            "show score",
        ]
    )
    if not path.is_file():
        raise RuntimeError(f"gnubg saved no match to {path}")
    return path


# --- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_a_match_with_every_cube_action_comes_back_the_same(seed: int) -> None:
    rules = RuleSet(match_length=7)
    match = bot_match(rules, seed, double=0.2, take=0.5, resign=0.05)
    text = export_sgf(match, players=("Ann", "Bob"))
    imported = import_sgf(text)
    assert imported.rules == rules
    assert imported.players == ("Ann", "Bob")
    assert imported.score == match.state.score
    assert _played_the_same(imported.events, match.events)


def _played_the_same(read: list[object], played: list[object]) -> bool:
    """The same actions, each game's opening throw compared by its dice only (SGF keeps no ties)."""
    kinds = (Doubled, Took, Dropped, Beavered, ResignationAccepted)

    def actions(events: list[object]) -> list[object]:
        return [event for event in events if isinstance(event, (*kinds, Played))]

    return actions(read) == actions(played)


def test_a_money_session_with_beavers_and_jacoby_comes_back_the_same() -> None:
    rules = RuleSet(jacoby=True, beavers=True)
    match = bot_match(rules, 3, games=6, double=0.3, take=0.6, beaver=0.5)
    assert any(isinstance(event, Beavered) for event in match.events)
    imported = import_sgf(export_sgf(match))
    assert imported.rules == rules
    assert imported.score == match.state.score
    assert _played_the_same(imported.events, match.events)


@pytest.mark.parametrize("seed", range(4))
def test_a_mat_file_turned_into_sgf_and_back_is_the_same_match(seed: int) -> None:
    match = bot_match(RuleSet(match_length=5), 100 + seed, double=0.2, take=0.5, resign=0.05)
    mat = export_mat(match, players=("Ann", "Bob"))
    from_mat = import_mat(mat)
    through_sgf = import_sgf(export_sgf(from_mat.match, players=from_mat.players))
    assert export_mat(through_sgf.match, players=through_sgf.players) == mat


def test_the_crawford_game_is_marked_as_gnubg_marks_it() -> None:
    match = bot_match(RuleSet(match_length=3), 7, double=0.3, take=0.3)
    trees = export_sgf(match).split("(;")[1:]
    crawford = [tree for tree in trees if "CrawfordGame" in tree.split("\n")[0]]
    assert match.state.crawford_played
    assert len(crawford) == 1
    assert all("RU[Crawford" in tree for tree in trees)


def test_names_with_brackets_and_backslashes_come_back_the_same() -> None:
    names = ("Ann [the first]", "Bob \\ Co")
    text = export_sgf(bot_match(RuleSet(match_length=3), 7), players=names)
    assert "PW[Ann [the first\\]]" in text
    assert import_sgf(text).players == names


def test_a_play_is_written_with_gnubg_letters_from_the_movers_side() -> None:
    text = OPENING_31 + "\n;B[52lqln])\n"  # white 8/5 6/5, black 13/8 13/11: white's numbering
    imported = import_sgf(text)
    plays = [event.notation for event in imported.events if isinstance(event, Played)]
    assert plays == ["8/5 6/5", "13/11 13/8"]
    written = export_sgf(imported.match, players=("Ann", "Bob"))
    assert written.split("\n", 1)[1] == text.split("\n", 1)[1]


# --- what gnubg writes and tavli refuses ---------------------------------------------------------


def test_an_illegal_play_is_reported_with_its_game_move_side_and_line() -> None:
    text = OPENING_31 + "\n;B[52lqln]\n;W[66xrxrxrxr])\n"  # four checkers from the 24 point: two stand
    check = check_sgf(text)
    assert len(check.problems) == 1
    problem = check.problems[0]
    assert (problem.game, problem.move, problem.side, problem.line) == (1, 2, 0, 4)
    assert problem.player == "Ann"
    assert str(problem).startswith("game 1, move 2, player 0 (Ann), line 4: ")


@pytest.mark.parametrize("result", ["W+1", "B+2"])
def test_a_result_that_contradicts_the_drop_is_a_problem(result: str) -> None:
    text = OPENING_31.replace("RU[Crawford]", f"RU[Crawford]RE[{result}]") + "\n;B[double]\n;W[drop])\n"
    (problem,) = check_sgf(text).problems
    assert (problem.game, problem.line) == (1, 4)


def test_analysis_and_comments_are_read_past() -> None:
    text = (
        OPENING_31.replace("]\n;W", "]GS[0 0 0]\n;W")
        + "A[ver 3][hefe E 0 0.5 0.1 0 0 0 0]LU[0.1]BM[1]C[a \\] comment]\n;B[double]DA[x]\n;W[drop]"
    )
    text = text.replace("RU[Crawford]", "RU[Crawford]RE[B+1]") + ")\n"
    imported = import_sgf(text)
    assert imported.score == (0, 1)
    assert isinstance(imported.events[-1], Dropped)


def test_variations_are_skipped_as_gnubg_skips_them() -> None:
    text = OPENING_31 + "(;B[52lqln])(;B[52xsxa]))\n"
    imported = import_sgf(text)
    plays = [event.notation for event in imported.events if isinstance(event, Played)]
    assert plays == ["8/5 6/5", "13/11 13/8"]  # black's first variation, the second one skipped


@pytest.mark.parametrize(
    ("word", "start"),
    [("Nackgammon", "NACKGAMMON"), ("Hypergammon1", "HYPERGAMMON_1"), ("Hypergammon3", "HYPERGAMMON_3")],
)
def test_gnubgs_variants_are_read_as_their_starts(word: str, start: str) -> None:
    match = bot_match(RuleSet(match_length=3, start=start), 4)  # type: ignore[arg-type]
    text = export_sgf(match)
    assert f"RU[Crawford:{word}]" in text and "TR[" not in text  # as gnubg names it, and only so
    imported = import_sgf(text)
    assert imported.rules == match.rules and _played_the_same(imported.events, match.events)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no SGF game"),
        ("(;FF[4]GM[1]SZ[19];B[aa])", "another game"),
        ("(;)", "backgammon's is GM[6]"),
        ("(;FF[4]GM[6]MI[length:3", "ends inside a property value"),
        ("(;FF[4]GM[6]MI[length:3]", "a ')' is missing"),
        ("(;FF[4]GM[6]MI[length:3];W[71hede])", "two dice from 1 to 6"),
        ("(;FF[4]GM[6]MI[length:3];W[31h!de])", "two letters"),
    ],
)
def test_a_file_that_is_no_sgf_match_is_refused_in_words(text: str, words: str) -> None:
    with pytest.raises(MatFileError, match=re.escape(words)):
        import_sgf(text)


@pytest.mark.parametrize(
    "text",
    [
        "(;FF[4]GM[6]MI[length:" + "9" * 5000 + "];W[31hefe])",
        "(;FF[4]GM[6]MI[length:\u00b2][ws:\u0663];W[31hefe])",
        OPENING_31.replace("RU[Crawford]", "RE[W+0]") + ")",
        OPENING_31.replace("RU[Crawford]", "RE[W+" + "9" * 5000 + "]") + ")",
        OPENING_31.replace("RU[Crawford]", "RE[W+\u00b2]") + ")",
        "(;FF[4]GM[6]MI[length:3][ws:7][bs:99];W[31hefe])",
        ")(",
        "(;FF[4]GM[6]MI[length:3];W[];B[11];W[double];W[double];B[drop];W[take])",
    ],
)
def test_a_hostile_file_is_refused_or_reported_in_words(text: str) -> None:
    try:
        check = check_sgf(text.encode("utf-8"))
    except MatFileError as error:
        assert str(error)
    else:
        assert check.problems
        assert all(problem.message for problem in check.problems)


def test_a_deeply_nested_main_line_is_read_without_recursion() -> None:
    text = "(;FF[4]GM[6]MI[length:3]" + "(" * 100_000 + ";W[31hefe]" + ")" * 100_001
    plays = [event.notation for event in import_sgf(text).events if isinstance(event, Played)]
    assert plays == ["8/5 6/5"]


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(match_length=5, crawford=False),
        RuleSet(cube_limit=8, backgammons="AS_GAMMON"),
        RuleSet(beavers=True, jacoby=True),
        RuleSet(match_length=3, cube=False),
    ],
)
def test_rules_gnubg_has_no_word_for_come_back_the_same(rules: RuleSet) -> None:
    match = bot_match(rules, 11, games=3, double=0.3, take=0.5)
    imported = import_sgf(export_sgf(match))
    assert imported.rules == rules
    assert imported.score == match.state.score


@pytest.mark.parametrize("match_length", [5, 0])
def test_a_game_lost_on_time_comes_back_as_a_time_loss(match_length: int) -> None:
    match, time = clocked_match(match_length)
    drop_a_double(match)
    match.roll(match.state.game.turn)
    run_out(match, time)
    text = export_sgf(match, players=PLAYERS)
    assert "R]TL[" in text
    imported = import_sgf(text)
    assert _played_the_same(imported.events, match.events)
    assert isinstance(match.events[-1], TimeRanOut)
    assert imported.events[-1] == match.events[-1]  # the same side ran out of time
    assert imported.score == match.state.score


def test_long_nardi_cannot_be_written_and_says_why() -> None:
    match = bot_match(RuleSet(variant="long-nardi", match_length=1), 1, events=4)
    with pytest.raises(SgfFormatError, match="long nardi"):
        export_sgf(match)


def test_a_hostile_run_of_brackets_costs_no_more_than_its_length() -> None:
    text = "(;FF[4]GM[6]" + "C[" + "\\]" * 100_000 + "]" + ")"
    (game,) = read_sgf(text).games
    assert game.entries == ()


# --- gnubg as the judge --------------------------------------------------------------------------


# Seeded matches that between them double, take, drop, resign, reach the Crawford game and beaver.
GNUBG_MATCHES = [(RuleSet(match_length=5), seed) for seed in range(200, 204)] + [
    (RuleSet(jacoby=True, beavers=True), 3),
    (RuleSet(match_length=3, start="NACKGAMMON"), 5),
    (RuleSet(match_length=3, start="HYPERGAMMON_2"), 6),
]


def gnubg_match(rules: RuleSet, seed: int) -> Match:
    if rules.is_match:
        return bot_match(rules, seed, double=0.25, take=0.5, resign=0.05)
    return bot_match(rules, seed, games=6, double=0.3, take=0.6, beaver=0.5)


def test_the_matches_given_to_gnubg_hold_every_action() -> None:
    matches = [gnubg_match(rules, seed) for rules, seed in GNUBG_MATCHES]
    kinds = {type(event) for match in matches for event in match.events}
    assert {Doubled, Took, Dropped, Beavered, ResignationAccepted} <= kinds
    assert any(match.state.crawford_played for match in matches)


@requires_gnubg
@pytest.mark.slow
@pytest.mark.parametrize(("rules", "seed"), GNUBG_MATCHES)
def test_gnubg_loads_our_sgf_at_the_same_score_with_no_warning(
    rules: RuleSet, seed: int, tmp_path: Path
) -> None:
    match = gnubg_match(rules, seed)
    path = tmp_path / "match.sgf"
    path.write_text(export_sgf(match, players=("Ann [A]", "Bob")), encoding="utf-8")
    reading = gnubg_loads(path)
    assert reading is not None
    assert reading.players == ("Ann [A]", "Bob")
    assert reading.games == len(match.state.finished) + (not match.state.over and rules.is_match)
    assert reading.score == match.state.score
    assert reading.match_length == rules.match_length
    assert reading.warnings == ()


@pytest.mark.parametrize(("opening", "roller_resigns"), ROLL_THEN_RESIGN)
def test_a_roll_left_unplayed_before_a_resignation_is_kept(opening: bool, roller_resigns: bool) -> None:
    match = roll_then_resign(opening=opening, roller_resigns=roller_resigns)
    text = export_sgf(match)
    assert "DI[" in text
    assert import_sgf(text).events == match.events


@requires_gnubg
@pytest.mark.slow
@pytest.mark.parametrize("roller_resigns", [False, True])
def test_gnubg_loads_a_resignation_after_an_unplayed_opening_roll(
    roller_resigns: bool, tmp_path: Path
) -> None:
    # Only after the opening roll: gnubg steps back to the first move of a file that holds one game
    # of one move, whatever that game holds after it, and then reports no game in progress.
    match = roll_then_resign(opening=True, roller_resigns=roller_resigns)
    path = tmp_path / "match.sgf"
    path.write_text(export_sgf(match), encoding="utf-8")
    reading = gnubg_loads(path)
    assert reading is not None
    assert (reading.games, reading.score, reading.warnings) == (1, match.state.score, ())


@requires_gnubg
@pytest.mark.slow
@pytest.mark.parametrize("run", range(3))
def test_tavli_reads_gnubgs_own_sgf_at_gnubgs_score(run: int, tmp_path: Path) -> None:
    seed = random.randrange(1, 2**31)
    path = gnubg_selfplay_sgf(tmp_path / "selfplay.sgf", length=3, seed=seed)
    reading = gnubg_loads(path)
    assert reading is not None
    check = check_sgf(path.read_bytes())
    assert check.problems == (), f"seed {seed}"
    assert len(check.games) == reading.games, f"seed {seed}"
    assert check.score == reading.score, f"seed {seed}"
    assert max(check.score) >= 3, f"seed {seed}"
