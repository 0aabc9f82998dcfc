"""Long nardi as RULES.md ("Shared vocabulary" and "Long nardi") says it is played.

Each side numbers the points from its own view; the head is every side's 24-point, and the
opponent's head is the mover's 12-point (my point p is the opponent's p + 12 or p - 12).
The hand-written cases come first, one rule each; the cross-check against the independent
brute-force reference in ``tests/reference`` closes the file.
"""

from __future__ import annotations

import random

import pytest

from tavli.engine import LONG_NARDI, GameResult, IllegalPlayError, InvalidPositionError, Position, Step
from tavli.engine.position import Checkers
from tests.games import positions_from_games
from tests.kept_answers import kept_answers
from tests.reference.long_nardi_reference import legal_results

Dice = tuple[int, int]

SIX_IN_A_ROW = "that play would build six points in a row with no opposing checker past them"


def resulting_positions(position: Position, dice: Dice) -> set[Position]:
    """Every position a legal play with ``dice`` leads to (the mover still first)."""
    return {play.position for play in LONG_NARDI.legal_plays(position, dice)}


def after(position: Position, player: dict[int, int]) -> Position:
    """``position`` with the mover's checkers on ``player`` (the rest borne off), the opponent unmoved."""
    return Position(Position.from_points(player, {}).player, position.opponent)


def refusal(position: Position, dice: Dice, text: str) -> str:
    """The reason, in words, that the play ``text`` is not legal."""
    with pytest.raises(IllegalPlayError) as refused:
        LONG_NARDI.parse_play(position, dice, text)
    return refused.value.why


START = LONG_NARDI.start_position()
# The opponent opened with 6-5 (24/13 in its numbering, the mover's 1-point); the mover's first turn.
AFTER_OPPONENTS_OPENING = Position.from_points({24: 15}, {24: 14, 13: 1})


# --- The start and the head rule ---------------------------------------------------------------


def test_each_side_starts_with_all_fifteen_checkers_on_its_head() -> None:
    assert START == Position.from_points({24: 15}, {24: 15})


def test_each_side_starts_360_pips_from_home() -> None:
    assert START.pip_count() == (15 * 24, 15 * 24)


def test_pip_count_sums_the_point_numbers_of_each_sides_checkers() -> None:
    position = Position.from_points({24: 13, 18: 1, 3: 1}, {24: 14, 1: 1})
    assert position.pip_count() == (13 * 24 + 18 + 3, 14 * 24 + 1)


@pytest.mark.parametrize("position", [START, AFTER_OPPONENTS_OPENING], ids=["opening", "reply"])
def test_first_turn_6_6_takes_two_checkers_to_the_18_point_and_loses_the_other_sixes(
    position: Position,
) -> None:
    # The 18-point's next six lands on the opponent's head (the mover's 12-point).
    plays = LONG_NARDI.legal_plays(position, (6, 6))
    assert {play.position for play in plays} == {after(position, {24: 13, 18: 2})}
    assert plays.dice_used == 2


def test_first_turn_4_4_takes_two_checkers_off_the_head() -> None:
    assert resulting_positions(START, (4, 4)) == {after(START, {24: 13, 16: 2})}


def test_first_turn_3_3_takes_two_checkers_off_the_head_in_either_shape() -> None:
    assert resulting_positions(START, (3, 3)) == {
        after(START, {24: 13, 15: 1, 21: 1}),  # 24/15 24/21
        after(START, {24: 13, 18: 2}),  # 24/18(2)
    }


def test_first_turn_6_5_moves_one_checker_only() -> None:
    assert resulting_positions(START, (6, 5)) == {after(START, {24: 14, 13: 1})}
    assert refusal(START, (6, 5), "24/18 24/19") == "only one checker may leave the head this turn"


def test_first_turn_5_5_lets_only_one_checker_leave_the_head() -> None:
    # Only 6-6, 4-4 and 3-3 let two leave; the one checker runs all four fives.
    assert resulting_positions(START, (5, 5)) == {after(START, {24: 14, 4: 1})}


def test_no_more_than_two_checkers_leave_the_head_even_on_a_first_turn() -> None:
    assert refusal(START, (3, 3), "24/21(3)") == "only two checkers may leave the head, even on a first turn"


def test_after_the_first_turn_only_one_checker_may_leave_the_head_even_with_a_double() -> None:
    # 14 on the head is no first turn: 24/16(2) is not allowed, and the fourth 4 is lost
    # (16/12 lands on the opponent's head).
    position = Position.from_points({24: 14, 20: 1}, {24: 15})
    plays = LONG_NARDI.legal_plays(position, (4, 4))
    assert {play.position for play in plays} == {after(position, {24: 13, 16: 2})}
    assert plays.dice_used == 3
    assert refusal(position, (4, 4), "24/16(2)") == "only one checker may leave the head this turn"


# --- Blocking: a single checker holds a point ----------------------------------------------------


def test_a_single_opposing_checker_blocks_the_point_it_stands_on() -> None:
    assert refusal(START, (6, 6), "24/12") == "the 6 is blocked by the opponent's checker on your 12-point"


def test_a_checker_may_land_on_its_own_sides_checkers() -> None:
    position = Position.from_points({24: 14, 18: 1}, {24: 15})
    play = LONG_NARDI.parse_play(position, (6, 1), "24/18 18/17")
    assert play.position == after(position, {24: 13, 18: 1, 17: 1})


# --- Six in a row --------------------------------------------------------------------------------

# The mover holds 21 (twice) to 17; 24/22 with 21/20 would hold 22-17, the opponent's 10- to 5-points.
FIVE_IN_A_ROW = {24: 9, 21: 2, 20: 1, 19: 1, 18: 1, 17: 1}


def test_a_play_may_not_build_six_points_in_a_row_with_no_opposing_checker_past_them() -> None:
    # The opponent's only checkers are on its head, in front of the run.
    position = Position.from_points(FIVE_IN_A_ROW, {24: 15})
    assert refusal(position, (2, 1), "24/22 21/20") == SIX_IN_A_ROW
    built = after(position, {24: 8, 22: 1, 21: 1, 20: 2, 19: 1, 18: 1, 17: 1})
    assert built not in resulting_positions(position, (2, 1))


def test_an_opposing_checker_in_front_of_the_run_does_not_allow_it() -> None:
    # The opponent's 11-point (the mover's 23) is ahead of a run on its 5- to 10-points.
    position = Position.from_points(FIVE_IN_A_ROW, {24: 14, 11: 1})
    assert refusal(position, (2, 1), "24/22 21/20") == SIX_IN_A_ROW


def test_six_points_in_a_row_are_allowed_when_an_opposing_checker_is_past_them() -> None:
    # The opponent's 4-point (the mover's 16) is just past a run on its 5- to 10-points.
    position = Position.from_points(FIVE_IN_A_ROW, {24: 14, 4: 1})
    play = LONG_NARDI.parse_play(position, (2, 1), "24/22 21/20")
    assert play.position == after(position, {24: 8, 22: 1, 21: 1, 20: 2, 19: 1, 18: 1, 17: 1})


def test_six_points_in_a_row_are_allowed_when_an_opposing_checker_is_borne_off() -> None:
    position = Position.from_points(FIVE_IN_A_ROW, {24: 14})
    play = LONG_NARDI.parse_play(position, (2, 1), "24/22 21/20")
    assert play.position == after(position, {24: 8, 22: 1, 21: 1, 20: 2, 19: 1, 18: 1, 17: 1})


def test_a_play_that_builds_six_in_a_row_and_breaks_it_again_in_the_same_turn_is_legal() -> None:
    # 24/22 holds 22-17; 17/16 then leaves 22-18 and 16. The rule looks at the end of the play.
    position = Position.from_points(FIVE_IN_A_ROW, {24: 15})
    play = LONG_NARDI.parse_play(position, (2, 1), "24/22 17/16")
    assert play.position == after(position, {24: 8, 22: 1, 21: 2, 20: 1, 19: 1, 18: 1, 16: 1})
    assert LONG_NARDI.six_in_a_row(play.position) is None


def test_six_in_a_row_counts_across_the_movers_1_point_to_its_24_point() -> None:
    # For the opponent the mover's 24-point (its 12) and 1-point (its 13) are neighbours, so
    # 23-24-1-2-3-4 is a run; the opponent's checkers (the mover's 12 and 8) are all in front of it.
    position = Position.from_points({24: 3, 23: 1, 1: 3, 2: 3, 3: 3, 5: 2}, {24: 10, 20: 5})
    assert refusal(position, (2, 1), "5/4 5/3") == SIX_IN_A_ROW
    built = after(position, {24: 3, 23: 1, 1: 3, 2: 3, 3: 4, 4: 1})
    assert set(LONG_NARDI.six_in_a_row(built) or ()) == {23, 24, 1, 2, 3, 4}
    for result in resulting_positions(position, (2, 1)):
        assert LONG_NARDI.six_in_a_row(result) is None


def test_six_points_in_a_row_in_the_movers_own_numbering_across_its_12_point_are_no_run() -> None:
    # The mover's 15-13 are the opponent's 3-1 and its 12-10 the opponent's 24-22: not neighbours.
    position = Position.from_points({24: 9, 15: 1, 14: 1, 13: 2, 11: 1, 10: 1}, {20: 15})
    play = LONG_NARDI.parse_play(position, (2, 1), "24/22 13/12")
    assert play.position == after(position, {24: 8, 22: 1, 15: 1, 14: 1, 13: 1, 12: 1, 11: 1, 10: 1})
    assert LONG_NARDI.six_in_a_row(play.position) is None


def test_one_die_must_be_played_when_every_play_of_both_would_build_a_forbidden_run() -> None:
    # 17/11/6 is the only way to play both dice (17/12 is blocked, no checker may bear off while
    # one is on the 11-point) and it would hold 6-1 with the opponent all in front. 17/11 is the play.
    position = Position.from_points(
        {17: 1, 5: 3, 4: 3, 3: 3, 2: 3, 1: 2}, {24: 11, 22: 1, 21: 1, 20: 1, 19: 1}
    )
    plays = LONG_NARDI.legal_plays(position, (6, 5))
    assert {play.position for play in plays} == {after(position, {11: 1, 5: 3, 4: 3, 3: 3, 2: 3, 1: 2})}
    assert plays.dice_used == 1
    assert LONG_NARDI.parse_play(position, (6, 5), "17/11").dice_used == 1
    assert refusal(position, (6, 5), "17/6") == SIX_IN_A_ROW


# --- Maximum use of the roll ---------------------------------------------------------------------

# The mover's last checker outside its home board is on the 20-point; the opponent holds the mover's
# 9-point (its 21), so the 20-point checker cannot take both dice, and nothing else may move.
ONE_DIE_ONLY = {20: 1, 1: 14}


def test_both_dice_must_be_played_when_they_can_be() -> None:
    position = Position.from_points({24: 14, 20: 1}, {24: 15})
    assert refusal(position, (6, 5), "20/14").startswith("you must play both dice")


def test_higher_die_must_be_played_when_only_one_can_be() -> None:
    position = Position.from_points(ONE_DIE_ONLY, {21: 15})
    assert resulting_positions(position, (6, 5)) == {after(position, {14: 1, 1: 14})}
    assert refusal(position, (6, 5), "20/15") == "you must play the higher die: 20/14 does"


def test_lower_die_is_played_when_the_higher_cannot_be() -> None:
    # The opponent's 2-point is the mover's 14: the 6 is blocked.
    position = Position.from_points(ONE_DIE_ONLY, {21: 14, 2: 1})
    assert resulting_positions(position, (6, 5)) == {after(position, {15: 1, 1: 14})}


def test_a_roll_with_no_legal_step_passes_the_turn() -> None:
    # The opponent holds the mover's 23- to 18-points (its 11 to 6), every point the head can reach.
    position = Position.from_points({24: 15}, {11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 10})
    plays = LONG_NARDI.legal_plays(position, (6, 5))
    assert [play.position for play in plays] == [position]
    assert plays.dice_used == 0
    assert LONG_NARDI.parse_play(position, (6, 5), "").steps == ()


# --- Bearing off ---------------------------------------------------------------------------------


def test_a_die_of_exactly_the_checkers_point_bears_it_off() -> None:
    position = Position.from_points({5: 1, 2: 1}, {24: 15})
    play = LONG_NARDI.parse_play(position, (5, 2), "5/off 2/off")
    assert play.position == after(position, {})


def test_a_higher_die_bears_off_from_the_highest_occupied_point() -> None:
    position = Position.from_points({4: 1, 2: 2}, {24: 15})
    assert resulting_positions(position, (6, 5)) == {after(position, {2: 1})}


def test_a_higher_die_may_not_bear_off_while_a_checker_stands_higher() -> None:
    # The 6-point checker cannot move (the opponent holds the mover's 1- and 2-points), so
    # neither die may bear off the 3-point checker and the turn passes.
    position = Position.from_points({6: 1, 3: 1}, {13: 1, 14: 1, 20: 13})
    assert resulting_positions(position, (5, 4)) == {position}
    assert refusal(position, (5, 4), "3/off") == (
        "the 5 bears off from your 3-point only when no checker stands higher: you have one on your 6-point"
    )


def test_no_checker_may_bear_off_while_one_is_outside_the_home_board() -> None:
    # 8/7 leaves the checker outside, so the 2 may not bear off; 8/6 first brings it home.
    position = Position.from_points({8: 1, 2: 1}, {24: 15})
    assert refusal(position, (2, 1), "8/7 2/off") == (
        "you cannot bear off while you have checkers outside your home board"
    )
    assert LONG_NARDI.parse_play(position, (2, 1), "8/6 2/1").position == after(position, {6: 1, 1: 1})


def test_a_side_is_never_obliged_to_bear_off() -> None:
    position = Position.from_points({6: 1, 2: 1}, {24: 15})
    assert resulting_positions(position, (2, 1)) == {
        after(position, {3: 1, 2: 1}),  # 6/3: no checker borne off though 2/off could be played
        after(position, {4: 1, 1: 1}),
        after(position, {5: 1}),
    }


# --- Results -------------------------------------------------------------------------------------


def test_the_game_goes_on_while_both_sides_have_checkers_on_the_board() -> None:
    assert LONG_NARDI.result(START) is None
    assert LONG_NARDI.result(Position.from_points({1: 1}, {1: 1})) is None


def test_bearing_off_all_fifteen_when_the_loser_has_borne_off_one_wins_a_single_game() -> None:
    position = Position.from_points({}, {3: 14})
    assert LONG_NARDI.result(position) is GameResult.SINGLE
    assert LONG_NARDI.result(position.swapped()) is GameResult.SINGLE
    assert GameResult.SINGLE.multiplier == 1


def test_bearing_off_all_fifteen_when_the_loser_has_borne_off_none_wins_a_mars() -> None:
    position = Position.from_points({}, {24: 1, 18: 14})
    assert LONG_NARDI.result(position) is GameResult.MARS
    assert LONG_NARDI.result(position.swapped()) is GameResult.MARS
    assert GameResult.MARS.multiplier == 2


# --- Possible positions --------------------------------------------------------------------------


def test_a_checker_on_the_bar_is_no_long_nardi_position() -> None:
    position = Position.from_points({25: 1, 24: 14}, {24: 15})
    with pytest.raises(InvalidPositionError):
        LONG_NARDI.validate(position)
    with pytest.raises(InvalidPositionError):
        LONG_NARDI.legal_plays(position, (6, 5))


def test_both_sides_on_one_point_is_no_long_nardi_position() -> None:
    # The mover's 12-point is the opponent's 24, its head.
    position = Position.from_points({24: 14, 12: 1}, {24: 15})
    with pytest.raises(InvalidPositionError):
        LONG_NARDI.validate(position)
    with pytest.raises(InvalidPositionError):
        LONG_NARDI.parse_play(position, (6, 5), "24/13")


def test_the_start_position_is_a_long_nardi_position() -> None:
    LONG_NARDI.validate(START)
    LONG_NARDI.validate(AFTER_OPPONENTS_OPENING)


def test_a_position_id_counts_each_sides_checkers_on_its_own_points() -> None:
    assert Position.from_id(START.position_id()) == START
    assert Position.from_id(AFTER_OPPONENTS_OPENING.position_id()) == AFTER_OPPONENTS_OPENING
    assert START.player[25] == START.opponent[25] == 0


# --- Notation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "dice", "written"),
    [
        (START, (6, 5), {"24/13"}),
        (START, (6, 6), {"24/18(2)"}),
        (START, (3, 3), {"24/18(2)", "24/15 24/21"}),
        (Position.from_points({24: 14, 20: 1}, {24: 15}), (4, 4), {"24/16 20/16"}),
        (Position.from_points({4: 1, 2: 2}, {24: 15}), (6, 5), {"4/off 2/off"}),
    ],
    ids=["one-checker", "two-off-the-head", "both-3-3-shapes", "head-and-another", "bearing-off"],
)
def test_plays_are_written_from_the_highest_start_down_with_no_bar_and_no_hits(
    position: Position, dice: Dice, written: set[str]
) -> None:
    assert {play.notation() for play in LONG_NARDI.legal_plays(position, dice)} == written


def test_any_equivalent_writing_of_a_play_is_read_as_that_play() -> None:
    play = LONG_NARDI.parse_play(START, (6, 5), "24/13")
    for text in ("24/18/13", "24/19 19/13"):
        again = LONG_NARDI.parse_play(START, (6, 5), text)
        assert (again.position, again.notation()) == (play.position, "24/13")
    # The steps are those written: by the route named.
    assert LONG_NARDI.parse_play(START, (6, 5), "24/19 19/13").steps == (Step(24, 19, 5), Step(19, 13, 6))


def test_every_legal_play_of_a_game_reads_back_from_its_own_notation() -> None:
    rng = random.Random(7)
    position = START
    while LONG_NARDI.result(position) is None:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = list(LONG_NARDI.legal_plays(position, dice))
        for play in plays:
            text = play.notation()
            assert "*" not in text and "bar" not in text
            assert LONG_NARDI.parse_play(position, dice, text).position == play.position
        position = rng.choice(plays).position.swapped()


# --- Cross-check against the brute-force reference -----------------------------------------------

POSITIONS_PER_BLOCK = 5_000
BLOCKS = 4  # 20,000 positions in all, about 5 seconds a block (the reference takes most of it)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(BLOCKS))
def test_legal_plays_agree_with_the_brute_force_reference_on_random_games(block: int) -> None:
    disagreements = []
    checked = 0
    # The reference answers the same on both passes of ./run test: the pure engine's reads its
    # answers to the positions the compiled core's pass met (tests/kept_answers.py).
    references: dict[tuple[Checkers, Checkers, Dice], set[str]]
    # Random games: random legal plays from the start position, sides swapped after each play,
    # until a side has borne off all fifteen; then the next game.
    with kept_answers(("the long nardi reference's positions", block)) as references:
        for position, dice in positions_from_games(LONG_NARDI, seed=block, count=POSITIONS_PER_BLOCK):
            plays = LONG_NARDI.legal_plays(position, dice)
            listed = [play.position.position_id() for play in plays]
            assert len(listed) == len(set(listed)), (
                f"a position is listed twice: {position.position_id()} {dice}"
            )
            engine = set(listed)
            asked = (position.player, position.opponent, dice)
            if asked not in references:
                references[asked] = legal_results(list(position.player), list(position.opponent), dice)
            reference = references[asked]
            if engine != reference:
                disagreements.append(
                    f"{position.position_id()} {dice[0]}-{dice[1]}:"
                    f" engine only {sorted(engine - reference)}, reference only {sorted(reference - engine)}"
                )
            checked += 1
    assert checked == POSITIONS_PER_BLOCK
    assert not disagreements, f"{len(disagreements)} disagreements, first: " + "\n".join(disagreements[:5])
