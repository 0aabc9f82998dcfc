"""Fevga as RULES.md ("More games of the tables family", "Fevga") says it is played.

The shared rule vectors come first, then one hand-made case for each rule and for each option's
other values, then perft counts from the start cross-checked by a brute-force enumerator written
here from the rule book, then properties of random positions.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from tavli.engine import (
    FEVGA,
    LONG_NARDI,
    OFF,
    GameResult,
    IllegalPlayError,
    Position,
    Step,
)
from tavli.engine.fevga import Fevga
from tavli.engine.game import ActionError, Phase
from tavli.engine.match import Match
from tavli.engine.matfile import check_mat, export_mat
from tavli.engine.rules import InvalidRuleSetError, RuleSet
from tavli.engine.variants import variant_with
from tests.engine.test_properties import long_nardi_positions
from tests.engine.test_refusals import (
    allowed_by_the_whole_play_rules,
    checked_refusals,
    checked_sequences,
    played_to,
)
from tests.games import bot_match

Dice = tuple[int, int]
ROLLS: list[Dice] = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]

QUARTER = "that would leave you holding all six points of your starting quarter"
FIRST_CHECKER = "until a checker has passed your opponent's start you move only your first checker"
UNBLOCK = "you must open one of the six points in front of your opponent's checkers"

START = FEVGA.start_position()


def results(variant: Fevga, position: Position, dice: Dice) -> set[Position]:
    return {play.position for play in variant.legal_plays(position, dice)}


def notations(variant: Fevga, position: Position, dice: Dice) -> set[str]:
    return set(variant.legal_plays(position, dice).notations())


def refusal(variant: Fevga, position: Position, dice: Dice, steps: list[tuple[int, int]]) -> str:
    with pytest.raises(IllegalPlayError) as refused:
        variant.check_play(position, dice, steps)
    why: str = refused.value.why
    return why


def _rows(vectors_dir: Path) -> list[dict[str, object]]:
    with open(vectors_dir / "fevga.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def _dice(row: dict[str, object]) -> Dice:
    dice = row["dice"]
    assert isinstance(dice, list)
    return (int(dice[0]), int(dice[1]))


def _kinds(row: dict[str, object]) -> set[str]:
    return set(str(row.get("kind", "")).split(","))


# --- The shared vectors ------------------------------------------------------------------------


def test_engine_agrees_with_every_fevga_vector(vectors_dir: Path) -> None:
    rows = _rows(vectors_dir)
    assert len(rows) >= 600
    disagreements = []
    for row in rows:
        position = Position.from_id(str(row["position_id"]))
        dice = _dice(row)
        found = sorted(FEVGA.legal_plays(position, dice).position_ids())
        if found != row["expected"]:
            disagreements.append((row["position_id"], dice, row.get("kind")))
    assert disagreements == []


def test_vectors_that_end_the_game_score_as_the_vectors_say(vectors_dir: Path) -> None:
    ending = [row for row in _rows(vectors_dir) if "ends_game" in row]
    assert len(ending) >= 10
    for row in ending:
        for position_id, (winner, points) in row["ends_game"].items():  # type: ignore[attr-defined]
            position = Position.from_id(position_id)
            result = FEVGA.result(position)
            assert winner == "me" and position.player[OFF] == 15
            assert result is not None and result.multiplier == points


def test_the_vectors_meet_every_rule_of_fevga(vectors_dir: Path) -> None:
    kinds = set().union(*(_kinds(row) for row in _rows(vectors_dir)))
    assert {"runner", "quarter", "unblock", "higher-die", "partial", "pass", "bear-off", "game-over"} <= kinds


def test_the_quarter_test_of_each_step_differs_only_where_the_vectors_say(vectors_dir: Path) -> None:
    each_step = Fevga(fevga_quarter_test="STEP")
    differing = []
    for row in _rows(vectors_dir):
        position = Position.from_id(str(row["position_id"]))
        dice = _dice(row)
        if sorted(each_step.legal_plays(position, dice).position_ids()) != row["expected"]:
            differing.append(row)
    assert len(differing) == 3
    assert all("quarter-after-play" in _kinds(row) for row in differing)


# --- The board ---------------------------------------------------------------------------------


def test_each_side_starts_with_all_fifteen_on_its_24_point() -> None:
    assert START == Position.from_points({24: 15}, {24: 15})
    assert START.position_id() == LONG_NARDI.start_position().position_id()


def test_both_sides_move_the_same_way_round() -> None:
    assert FEVGA.same_way_round
    assert [FEVGA.opponent_point(point) for point in (1, 12, 13, 24)] == [13, 24, 1, 12]


def test_a_single_opposing_checker_holds_a_point() -> None:
    position = Position.from_points({24: 14, 13: 1}, {22: 1, 24: 14})  # the opponent's 22 is my 10
    assert "13/10" not in notations(FEVGA, position, (3, 1)) | notations(FEVGA, position, (2, 1))
    assert refusal(FEVGA, position, (3, 2), [(13, 10), (10, 8)]) == (
        "the 3 is blocked by the opponent's checker on your 10-point"
    )


def test_nothing_is_hit_and_there_is_no_bar() -> None:
    assert not FEVGA.hits
    assert all(not step.hit for play in FEVGA.legal_plays(START, (6, 5)) for step in play.steps)
    assert refusal(FEVGA, START, (6, 5), [(25, 19)]).startswith("fevga has no bar")


# --- The first checker -------------------------------------------------------------------------


def test_from_the_start_double_six_plays_one_six_and_loses_the_rest() -> None:
    # 18/12 would land on the opponent's start; no other checker may move.
    assert notations(FEVGA, START, (6, 6)) == {"24/18"}


def test_from_the_start_double_four_plays_two_fours_only() -> None:
    assert notations(FEVGA, START, (4, 4)) == {"24/16"}


def test_from_the_start_double_five_passes_the_opponents_start_and_then_plays_any_five() -> None:
    assert notations(FEVGA, START, (5, 5)) == {"24/4", "24/9 24/19"}


def test_a_second_checker_may_not_move_before_the_first_has_passed() -> None:
    assert refusal(FEVGA, START, (6, 5), [(24, 18), (24, 19)]).startswith(FIRST_CHECKER)
    assert FEVGA.check_play(START, (6, 5), [(24, 18), (18, 13)]).notation() == "24/13"


def test_once_the_first_checker_passes_in_a_play_any_checker_may_go_on() -> None:
    position = Position.from_points({24: 14, 13: 1}, {20: 15})
    assert notations(FEVGA, position, (2, 1)) == {"13/10", "24/23 13/11"}


def test_a_first_checker_on_the_emptied_start_frees_the_others_into_the_start_quarter() -> None:
    position = Position.from_points({24: 14, 13: 1}, {20: 15})  # the opponent's 24 (my 12) is empty
    into = Fevga(first_checker="INTO_START_QUARTER")
    assert notations(into, position, (2, 1)) == {"13/10", "24/23 13/11", "24/22 13/12"}
    assert refusal(FEVGA, position, (2, 1), [(13, 12), (24, 22)]).startswith(FIRST_CHECKER)


# --- The starting quarter ----------------------------------------------------------------------

# Five of the six points of the starting quarter held, two checkers on the 20-point: 20/19 fills it.
NEAR_QUARTER = Position.from_points({24: 8, 23: 1, 22: 1, 21: 1, 20: 2, 10: 1, 5: 1}, {24: 15})


def test_a_play_may_not_leave_all_six_points_of_the_starting_quarter_held() -> None:
    assert refusal(FEVGA, NEAR_QUARTER, (4, 1), [(24, 20), (20, 19)]) == f"{QUARTER} after your play"
    assert "20/19 24/20" not in notations(FEVGA, NEAR_QUARTER, (4, 1))


def test_the_quarter_is_judged_after_the_play_so_a_step_through_it_is_allowed() -> None:
    assert FEVGA.check_play(NEAR_QUARTER, (4, 1), [(20, 19), (19, 15)]).notation() == "20/15"


def test_the_quarter_judged_at_each_step_refuses_the_step_that_fills_it() -> None:
    each_step = Fevga(fevga_quarter_test="STEP")
    assert refusal(each_step, NEAR_QUARTER, (4, 1), [(20, 19), (19, 15)]) == QUARTER
    assert each_step.check_play(NEAR_QUARTER, (4, 1), [(20, 16), (16, 15)]).notation() == "20/15"


def test_the_quarter_rule_can_force_the_lower_die_alone() -> None:
    # Every play of both dice, and the 5 alone (24/19), would hold all six points: the 4 alone is
    # the play, although the higher die is the 5.
    position = Position.from_points(
        {24: 4, 23: 3, 22: 2, 21: 1, 20: 2, 5: 3}, {1: 1, 2: 1, 3: 1, 4: 5, 5: 1, 6: 4, 13: 2}
    )
    assert notations(Fevga(fevga_primes="NONE"), position, (5, 4)) >= {"24/20 24/19", "24/19 23/19"}
    assert notations(FEVGA, position, (5, 4)) == {"24/20"}
    assert refusal(FEVGA, position, (5, 4), [(24, 19)]) == f"{QUARTER} after your play"
    assert refusal(FEVGA, position, (5, 4), [(24, 20), (24, 19)]) == f"{QUARTER} after your play"


def test_the_quarter_rule_can_force_a_pass() -> None:
    position = Position.from_points(
        {24: 5, 23: 1, 22: 1, 21: 3, 20: 1, 5: 4}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 3, 13: 3}
    )
    assert notations(Fevga(fevga_primes="NONE"), position, (5, 5)) == {"24/19(4)"}
    assert notations(FEVGA, position, (5, 5)) == {""}
    assert (
        refusal(FEVGA, position, (5, 5), [(24, 19)])
        == "no checker can move with this roll, so the turn passes"
    )


def test_no_prime_rule_lets_the_quarter_be_held() -> None:
    unrestricted = Fevga(fevga_primes="NONE")
    assert unrestricted.check_play(NEAR_QUARTER, (4, 1), [(24, 20), (20, 19)]).notation() == "24/19"


def test_the_long_nardi_prime_rule_forbids_six_in_a_row_with_no_opposing_checker_past() -> None:
    nardi_rule = Fevga(fevga_primes="NO_PRIME_UNLESS_PASSED")
    # The opponent's checkers are all on its 24-point (my 12), none past my 19-24 run.
    assert refusal(nardi_rule, NEAR_QUARTER, (4, 1), [(24, 20), (20, 19)]) == (
        "that play would build six points in a row with no opposing checker past them"
    )
    # With an opposing checker already past the run (its 3, my 15), the six are allowed.
    past = Position(NEAR_QUARTER.player, Position.from_points({}, {24: 14, 3: 1}).opponent)
    assert nardi_rule.check_play(past, (4, 1), [(24, 20), (20, 19)]).notation() == "24/19"
    assert refusal(FEVGA, past, (4, 1), [(24, 20), (20, 19)]) == f"{QUARTER} after your play"


# --- The unblocking duty -----------------------------------------------------------------------

# All fifteen opposing checkers on their 19-point (my 7), and the mover holding the six points in
# front of it (the opponent's 13-18, my 1-6), with nine checkers still on my 13-point.
PRIMED = Position.from_points({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 13: 9}, {19: 15})


def test_the_prime_to_open_is_the_six_points_in_front_of_the_opponents_one_point() -> None:
    assert FEVGA.prime_to_open(PRIMED) == (6, 5, 4, 3, 2, 1)
    assert FEVGA.prime_to_open(START) is None
    assert Fevga(fevga_primes="NONE").prime_to_open(PRIMED) is None


def test_a_play_that_leaves_the_prime_closed_is_refused_when_one_opens_it() -> None:
    assert refusal(FEVGA, PRIMED, (2, 1), [(13, 11), (11, 10)]).startswith(UNBLOCK)
    assert refusal(FEVGA, PRIMED, (2, 1), [(13, 11), (13, 12)]).startswith(UNBLOCK)
    assert FEVGA.check_play(PRIMED, (2, 1), [(13, 11), (6, 5)]).notation() == "13/11 6/5"
    assert all(not all(play.position.player[1:7]) for play in FEVGA.legal_plays(PRIMED, (2, 1)))


def test_the_duty_lapses_when_no_play_the_dice_allow_opens_the_prime() -> None:
    # 6-5: 6/1 would open it, but then the 6 cannot be played; both dice must be, and 13/2 does.
    assert notations(FEVGA, PRIMED, (6, 5)) == {"13/2"}
    assert refusal(FEVGA, PRIMED, (6, 5), [(6, 1)]) == "you must play both dice: 13/2 does"
    # 6-6: every 6 is blocked or would bear off too soon: the roll passes.
    assert notations(FEVGA, PRIMED, (6, 6)) == {""}


# --- Bearing off and results -------------------------------------------------------------------


def test_bearing_off_waits_for_all_checkers_in_the_home_board() -> None:
    position = Position.from_points({7: 1, 3: 14}, {24: 15})
    assert FEVGA.step(position, 3, 3, taken=(), dice=(4, 3)) == (
        "you cannot bear off while you have checkers outside your home board"
    )
    assert notations(FEVGA, position, (4, 3)) == {"7/off"}


def test_bearing_off_the_last_checker_ends_the_play() -> None:
    position = Position.from_points({2: 1}, {24: 15})
    legal = FEVGA.legal_plays(position, (6, 5))
    assert [play.position.player[OFF] for play in legal] == [15]
    assert FEVGA.result(legal[0].position) is GameResult.GAMMON


def test_a_win_is_single_when_the_loser_has_borne_one_off_and_a_gammon_when_none() -> None:
    assert FEVGA.result(Position.from_points({}, {24: 15})) is GameResult.GAMMON
    assert FEVGA.result(Position.from_points({}, {3: 14})) is GameResult.SINGLE
    assert FEVGA.result(Position.from_points({6: 1}, {3: 14})) is None
    assert GameResult.GAMMON.multiplier == 2


def test_resigning_offers_a_single_game_or_a_gammon_capped_by_what_can_be_lost() -> None:
    assert FEVGA.resign_levels == (GameResult.SINGLE, GameResult.GAMMON)
    assert FEVGA.most_to_lose(START) is GameResult.GAMMON
    assert FEVGA.most_to_lose(Position.from_points({3: 14}, {24: 15})) is GameResult.SINGLE


def test_fevga_has_no_cube_and_the_winner_of_the_opening_throw_rolls_again() -> None:
    rules = RuleSet(variant="fevga")
    assert not rules.cube and rules.opening == "WINNER_ROLLS_AGAIN"
    with pytest.raises(InvalidRuleSetError, match="fevga is played without a cube"):
        RuleSet(variant="fevga", cube=True)


# --- Games and matches -------------------------------------------------------------------------


class ScriptedDice:
    """The match's throws in order."""

    def __init__(self, *throws: Dice) -> None:
        self.throws = throws

    def roll(self, index: int) -> Dice:
        return self.throws[index]


def test_a_match_of_fevga_games_is_opened_by_the_last_winner_by_default() -> None:
    assert RuleSet(variant="fevga", match_length=5).match_openings == "WINNER_OPENS"
    assert RuleSet(variant="fevga").match_openings == "EVERY_GAME"  # money games: the opening throw
    assert RuleSet(variant="long-nardi", match_length=5).match_openings == "EVERY_GAME"
    assert (
        RuleSet(variant="fevga", match_length=5, match_openings="EVERY_GAME").match_openings == "EVERY_GAME"
    )


def test_a_fevga_match_plays_the_rules_and_the_gammon_and_the_winner_opens_the_next_game() -> None:
    match = Match(RuleSet(variant="fevga", match_length=5), dice=ScriptedDice((2, 5), (6, 5), (4, 4)))
    match.roll(0)  # side 1 wins the opening throw and rolls both dice afresh
    assert (match.state.game.turn, match.state.game.phase) == (1, Phase.ROLLING)
    match.roll(1)
    with pytest.raises(ActionError) as refused:
        match.play(1, "24/18 24/19")
    assert refused.value.message.startswith(FIRST_CHECKER)
    match.play(1, "24/13")
    match.resign(0, "gammon")
    match.accept(1)
    assert match.state.score == (0, 2)
    game = match.state.game
    assert (game.number, game.turn, game.phase) == (2, 1, Phase.ROLLING)
    match.roll(1)
    assert match.state.game.dice == (4, 4)


@pytest.mark.parametrize(("openings", "header"), [(None, None), ("EVERY_GAME", "EveryGame")])
def test_a_fevga_match_record_names_who_opens_only_where_it_is_not_the_last_winner(
    openings: str | None, header: str | None
) -> None:
    rules = RuleSet(variant="fevga", match_length=3, **({"match_openings": openings} if openings else {}))  # type: ignore[arg-type]
    match = Match(rules, dice=ScriptedDice((2, 5), (6, 5)))
    match.roll(0)
    match.roll(1)
    match.play(1, "24/13")
    match.resign(0, "single")
    match.accept(1)
    text = export_mat(match)
    assert '; [Variation "Fevga"]' in text
    assert ("; [MatchOpenings" in text) == (header is not None)
    if header is not None:
        assert f'; [MatchOpenings "{header}"]' in text
    checked = check_mat(text)
    assert not checked.problems
    assert checked.rules == rules


# --- The rule set's options --------------------------------------------------------------------


def test_the_rule_set_builds_each_set_of_options_once() -> None:
    assert RuleSet(variant="fevga").rules is FEVGA
    rules = RuleSet(variant="fevga", first_checker="INTO_START_QUARTER", fevga_quarter_test="STEP")
    assert isinstance(rules.rules, Fevga)
    assert (rules.rules.first_checker, rules.rules.fevga_quarter_test) == ("INTO_START_QUARTER", "STEP")
    assert (
        RuleSet(variant="fevga", first_checker="INTO_START_QUARTER", fevga_quarter_test="STEP").rules
        is rules.rules
    )
    assert variant_with("fevga", (("fevga_primes", "NONE"),)) is variant_with(
        "fevga", (("fevga_primes", "NONE"),)
    )


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (
            {"variant": "backgammon", "first_checker": "INTO_START_QUARTER"},
            "the first-checker rule is not a rule of backgammon",
        ),
        (
            {"variant": "long-nardi", "fevga_primes": "NONE"},
            "Fevga's rule on primes is not a rule of long nardi",
        ),
        (
            {"variant": "backgammon", "fevga_quarter_test": "STEP"},
            "starting-quarter test is not a rule of backgammon",
        ),
        (
            {"variant": "fevga", "fevga_primes": "NONE", "fevga_quarter_test": "STEP"},
            "applies only with the starting-quarter rule",
        ),
        (
            {"variant": "fevga", "first_checker": "SOMETIMES"},
            "first_checker is PAST_START or INTO_START_QUARTER",
        ),
        ({"variant": "fevga", "fevga_primes": "ALWAYS"}, "fevga_primes is START_QUARTER_AND_UNBLOCK or"),
    ],
)
def test_options_that_do_not_apply_are_refused_in_words(options: dict[str, str], words: str) -> None:
    with pytest.raises(InvalidRuleSetError, match=words):
        RuleSet(**options)  # type: ignore[arg-type]


# --- Perft counts, cross-checked by a brute-force enumerator written from the rule book ---------


_OPPONENTS_PATH = list(range(13, 25)) + list(range(1, 13))  # my points in the order the opponent passes them


def _brute_force_results(position: Position, dice: Dice, options: Fevga = FEVGA) -> set[Position]:
    """Every position a legal play leads to, found the slow way under ``options`` (only their
    values are read): every order of single steps, each judged from scratch (a board reached
    again with the same dice left is not walked again), then the rule on whole plays (the
    starting quarter, or six in a row), the maximum-use and higher-die rules, and last the
    unblocking duty."""
    player, opponent = position
    blocked = {point for point in range(1, 25) if opponent[point + 12 if point <= 12 else point - 12]}
    frees_from = 11 if options.first_checker == "PAST_START" else 12
    quarter_rule = options.fevga_primes == "START_QUARTER_AND_UNBLOCK"
    quarter_each_step = quarter_rule and options.fevga_quarter_test == "STEP"

    def moves(board: tuple[int, ...], die: int) -> Iterator[tuple[int, int]]:
        passed = board[0] > 0 or any(board[1 : frees_from + 1])
        first_checkers = [point for point in range(1, 24) if board[point]] or [24]
        for start in range(24, 0, -1):
            if not board[start] or (not passed and start not in first_checkers):
                continue
            end = start - die
            if end >= 1:
                fills_quarter = all(board[p] - (p == start) + (p == end) for p in range(19, 25))
                if end not in blocked and not (quarter_each_step and fills_quarter):
                    yield start, end
            elif not any(board[7:25]) and (end == 0 or not any(board[start + 1 : 7])):
                yield start, 0

    def six_in_a_row(board: tuple[int, ...]) -> bool:
        # A run along the opponent's path, at its indices last - 5 ... last, starts on the
        # opponent's point last - 4: it is allowed once an opposing checker is lower, or off.
        return not opponent[0] and any(
            all(board[_OPPONENTS_PATH[index]] for index in range(last - 5, last + 1))
            and not any(opponent[1 : last - 4])
            for last in range(5, 24)
        )

    def refused_as_a_whole(board: tuple[int, ...]) -> bool:
        if options.fevga_primes == "NO_PRIME_UNLESS_PASSED":
            return six_in_a_row(board)
        return quarter_rule and not quarter_each_step and all(board[19:25])

    plays: dict[tuple[int, ...], tuple[int, int]] = {}  # board: (dice used, the single die used)
    walked: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()  # the same steps in another order

    high, low = dice
    # Every way on from the position, one die at a time (a stack of boards still to go on from).
    to_walk = [(player, [high] * 4 if high == low else [high, low], 0, 0)]
    while to_walk:
        board, left, used, first_die = to_walk.pop()
        if (board, tuple(left)) in walked:
            continue
        walked.add((board, tuple(left)))
        known = plays.get(board)
        if known is None or used > known[0] or (used == known[0] == 1 and first_die > known[1]):
            plays[board] = (used, first_die)
        for index, die in enumerate(left):
            for start, end in moves(board, die):
                after = list(board)
                after[start] -= 1
                after[end] += 1
                to_walk.append(
                    (
                        tuple(after),
                        left[:index] + left[index + 1 :],
                        used + 1,
                        die if used == 0 else first_die,
                    )
                )
    allowed = {board: way for board, way in plays.items() if not refused_as_a_whole(board)}
    if not allowed:
        return {position}
    most = max(used for used, _ in allowed.values())
    chosen = {board: way for board, way in allowed.items() if way[0] == most}
    if most == 1 and high != low and any(die == high for _, die in chosen.values()):
        chosen = {board: way for board, way in chosen.items() if way[1] == high}
    on_board = [point for point in range(1, 25) if opponent[point]]
    if quarter_rule and len(on_board) == 1 and on_board[0] >= 7:
        prime = [q + 12 if q <= 12 else q - 12 for q in range(on_board[0] - 6, on_board[0])]
        if all(player[point] for point in prime):
            opening = {board for board in chosen if not all(board[point] for point in prime)}
            if opening:
                return {Position(board, opponent) for board in opening}
    return {Position(board, opponent) for board in chosen}


def _perft(find: object, position: Position, depth: int) -> int:
    """The number of play sequences of ``depth`` turns from ``position`` over every roll (each
    of the 21 rolls once), each turn's results found by ``find``."""
    if depth == 0:
        return 1
    total = 0
    for dice in ROLLS:
        for after in find(position, dice):  # type: ignore[operator]
            if FEVGA.result(after) is None:
                total += _perft(find, Position(after.opponent, after.player), depth - 1)
            else:
                total += 1
    return total


@pytest.mark.parametrize(
    ("depth", "expected"), [(1, 22), (2, 479), pytest.param(3, 21893, marks=pytest.mark.slow)]
)
def test_perft_from_the_start(depth: int, expected: int) -> None:
    assert _perft(lambda position, dice: results(FEVGA, position, dice), START, depth) == expected
    assert _perft(_brute_force_results, START, depth) == expected


# --- Properties of random positions ------------------------------------------------------------

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


OPTION_SETS = [
    FEVGA,
    Fevga(first_checker="INTO_START_QUARTER"),
    Fevga(fevga_quarter_test="STEP"),
    Fevga(fevga_primes="NO_PRIME_UNLESS_PASSED"),
    Fevga(fevga_primes="NONE"),
]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(long_nardi_positions, dice, st.sampled_from(OPTION_SETS))
# A board the 2 alone reaches and the 1 then the 2 reach too: the enumerator once let the one-die
# way replace the two-dice one when it met them in that order.
@example(Position.from_id("AQAAFAAAAAAAAA"), (1, 2), FEVGA)
def test_the_generator_agrees_with_the_brute_force_enumerator(
    position: Position, roll: Dice, options: Fevga
) -> None:
    high, low = max(roll), min(roll)
    assert results(options, position, roll) == _brute_force_results(position, (high, low), options)


@cache
def _vector_positions(vectors_dir: Path) -> list[Position]:
    return list(dict.fromkeys(Position.from_id(str(row["position_id"])) for row in _rows(vectors_dir)))


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(dice, st.sampled_from(OPTION_SETS), st.data())
def test_the_generator_agrees_with_the_brute_force_enumerator_on_the_vectors_positions(
    vectors_dir: Path, roll: Dice, options: Fevga, data: st.DataObject
) -> None:
    # The vectors' positions meet the first checker, the quarter and the unblocking duty; here
    # with every roll and every set of options.
    position = data.draw(st.sampled_from(_vector_positions(vectors_dir)))
    high, low = max(roll), min(roll)
    assert results(options, position, roll) == _brute_force_results(position, (high, low), options)


@settings(max_examples=150, deadline=None)
@given(long_nardi_positions, dice)
def test_every_legal_play_leads_to_a_valid_position_and_the_checked_path_accepts_it(
    position: Position, roll: Dice
) -> None:
    for play in FEVGA.legal_plays(position, roll):
        FEVGA.validate(play.position)
        assert sum(play.position.player) == 15 and play.position.opponent == position.opponent
        assert FEVGA.check_play(position, roll, list(play.steps)) == play
        assert FEVGA.parse_play(position, roll, play.notation() or "").position == play.position


@settings(max_examples=150, deadline=None)
@given(long_nardi_positions, dice, st.data())
def test_a_play_that_is_not_legal_is_refused_in_words(
    position: Position, roll: Dice, data: st.DataObject
) -> None:
    legal = FEVGA.legal_plays(position, roll)
    # One legal play with its last step moved to another checker of the side: legal only if it
    # leads where another legal play leads.
    plays_with_steps = [play for play in legal if play.steps]
    if not plays_with_steps:
        return
    play = data.draw(st.sampled_from(plays_with_steps))
    last = play.steps[-1]
    starts = [point for point in range(1, 25) if position.player[point] and point != last.start]
    if not starts:
        return
    start = data.draw(st.sampled_from(starts))
    end = max(start - last.die, OFF)
    steps = [*play.steps[:-1], Step(start, end, last.die)]
    try:
        made = FEVGA.check_play(position, roll, steps)
    except IllegalPlayError as refused:
        assert refused.why and refused.why != "that play is not legal"
    else:
        assert made.position in legal


fevga_games = st.builds(played_to, st.just(FEVGA), st.integers(0, 2**32 - 1), st.integers(0, 200))


@settings(max_examples=40, deadline=None)
@given(fevga_games)
def test_the_checked_path_allows_exactly_the_legal_plays_of_random_games(position: Position) -> None:
    # Every sequence of steps ``step`` allows, put through the rules for whole plays, the
    # maximum-use rule and the unblocking duty, leads where the generator's legal plays lead.
    for roll in ROLLS:
        legal = FEVGA.legal_plays(position, roll)
        allowed = allowed_by_the_whole_play_rules(FEVGA, roll, checked_sequences(FEVGA, position, roll))
        kept = {after for after in allowed.values() if FEVGA.refusal_of_duty(position, roll, after) is None}
        assert (kept or {position}) == {play.position for play in legal}, (position.position_id(), roll)


@settings(max_examples=40, deadline=None)
@given(fevga_games)
def test_every_refusal_of_a_step_is_a_sentence_for_a_player(position: Position) -> None:
    for roll in ROLLS:
        for refusal in checked_refusals(FEVGA, position, roll):
            assert refusal.strip() == refusal != ""
            assert not any(marker in refusal for marker in ("Error", "Step(", "Position", "None", "\n"))


def test_a_play_whose_first_checker_passes_the_start_is_read_back_from_its_notation() -> None:
    # The notation writes the highest start first (24/22 16/10); the play is legal only with the
    # first checker's step first, which frees the others: a play the engine lists is read back.
    position = Position.from_id("ABAA/z8AgAD/Pw")
    listed = {play.notation(): play for play in FEVGA.legal_plays(position, (6, 2))}
    assert set(listed) == {"24/22 16/10", "16/8"}
    assert FEVGA.parse_play(position, (6, 2), "24/22 16/10") == listed["24/22 16/10"]
    assert FEVGA.check_play(position, (6, 2), [(24, 22), (16, 10)]) == listed["24/22 16/10"]
    with pytest.raises(IllegalPlayError, match="you move only your first checker"):
        FEVGA.check_play(position, (6, 2), [(24, 22), (24, 18)])


@pytest.mark.parametrize("seed", range(4))
def test_random_matches_play_every_play_the_engine_lists(seed: int) -> None:
    match = bot_match(RuleSet(variant="fevga", match_length=3), seed=seed)
    assert match.state.over
