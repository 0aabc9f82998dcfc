"""Writing and reading plays in standard notation, as RULES.md ("Writing a play") describes it.

Every position here is built by hand for the case it checks and validated first. From the mover's
side, the opponent's point n is the mover's point 25 - n, and no point holds checkers of both sides.
"""

from __future__ import annotations

import pytest

from tavli.engine import BACKGAMMON, OFF, IllegalPlayError, InvalidPlayError, Play, Position, Step
from tavli.engine.errors import AmbiguousPlayError


def position(player: dict[int, int], opponent: dict[int, int]) -> Position:
    """A backgammon position from ``{point: count}`` maps, checked to be one that can occur."""
    built = Position.from_points(player, opponent)
    BACKGAMMON.validate(built)
    return built


def notations(board: Position, dice: tuple[int, int]) -> set[str]:
    return {play.notation() for play in BACKGAMMON.legal_plays(board, dice)}


def refusal(board: Position, dice: tuple[int, int], text: str) -> str:
    """The reason the engine gives for refusing ``text``."""
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(board, dice, text)
    assert refused.value.text == text
    assert refused.value.dice == dice
    assert refused.value.position_id == board.position_id()
    return refused.value.why


START = BACKGAMMON.start_position()

# The mover has one checker on its 24-point; the opponent leaves a blot on the mover's 18-point
# (its own 7-point) and nothing on the 19, so 6-5 takes the checker to the 13 either way.
BLOT_ON_THE_WAY = position({24: 1, 6: 14}, {7: 1, 2: 14})
# The same with a second blot on the mover's 19-point (the opponent's 6): both routes hit.
BLOTS_ON_BOTH_WAYS = position({24: 1, 6: 14}, {7: 1, 6: 1, 2: 13})
# The mover has a checker on the bar; the opponent has a blot on the mover's 22-point (its 3).
ON_THE_BAR_WITH_A_BLOT_TO_HIT = position({25: 1, 13: 5, 6: 9}, {3: 1, 2: 14})
# The mover bears off: two checkers on the 5-point, one on the 3.
BEARING_OFF = position({5: 2, 3: 1}, {24: 2, 1: 13})


# Writing: Play.notation()


def test_the_opening_six_five_is_written_as_players_write_it() -> None:
    assert notations(START, (6, 5)) == {
        "24/18 13/8",
        "24/18 8/3",
        "13/8 13/7",
        "13/7 8/3",
        "8/3 8/2",
        "24/13",
        "13/2",
    }


def test_moves_are_written_from_the_highest_starting_point_down() -> None:
    steps = (Step(6, 5, 1), Step(8, 5, 3), Step(13, 7, 6))
    play = Play.trusted(steps, BACKGAMMON.position_after(START, steps))
    assert play.notation() == "13/7 8/5 6/5"


def test_two_moves_from_one_point_write_the_longer_last() -> None:
    # GNU Backgammon orders moves by start, then by end, both from high to low.
    assert "24/23 24/21" in notations(START, (3, 1))


def test_one_checkers_consecutive_steps_are_joined_into_one_move() -> None:
    play = BACKGAMMON.parse_play(START, (6, 1), "13/7 7/6")
    assert play.notation() == "13/6"
    assert len(play.steps) == 2


def test_repeated_moves_are_counted_in_brackets() -> None:
    assert "24/20(2) 13/9(2)" in notations(START, (4, 4))
    assert "13/7(4)" in notations(START, (6, 6))


def test_a_hit_is_marked_where_the_checker_lands() -> None:
    board = position({13: 5, 6: 10}, {18: 1, 1: 14})  # a blot on the mover's 7-point
    assert "13/7* 6/5" in notations(board, (6, 1))


def test_a_hit_on_the_way_names_the_point_hit() -> None:
    assert notations(BLOT_ON_THE_WAY, (6, 5)) == {"24/18*/13", "24/18* 6/1", "24/13"}


def test_a_checker_entering_from_the_bar_is_written_bar() -> None:
    assert notations(ON_THE_BAR_WITH_A_BLOT_TO_HIT, (5, 3)) == {
        "bar/17",
        "bar/22*/17",
        "bar/22* 13/8",
        "bar/22* 6/1",
        "bar/20 13/10",
        "bar/20 6/3",
    }


def test_a_checker_borne_off_is_written_off() -> None:
    assert notations(BEARING_OFF, (6, 2)) == {"5/3 5/off"}


def test_a_roll_that_cannot_be_played_is_written_as_nothing() -> None:
    closed_out = position({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})  # home board closed
    assert [play.notation() for play in BACKGAMMON.legal_plays(closed_out, (6, 5))] == [""]


def test_a_hit_on_a_repeated_move_is_counted_with_the_others() -> None:
    # GNU Backgammon compares moves by their points only and marks the hit once: 13/7*(4).
    board = position({13: 4, 6: 11}, {18: 1, 2: 14})
    assert "13/7*(4)" in notations(board, (6, 6))


# Reading: every way of writing a legal play names that play


@pytest.mark.parametrize(
    "text", ["13/7 8/7", "8/7 13/7", "8/7, 13/7", "13/7,8/7", "  13/7   8/7  ", "13/7 , 8/7", "8/7,13/7,"]
)
def test_a_play_may_be_written_in_any_order_with_spaces_or_commas(text: str) -> None:
    assert BACKGAMMON.parse_play(START, (6, 1), text).notation() == "13/7 8/7"


@pytest.mark.parametrize("text", ["24/13", "24/18/13", "24/19/13", "24/18 18/13", "18/13 24/18"])
def test_a_checker_taking_both_dice_may_be_written_with_or_without_the_point_between(text: str) -> None:
    assert BACKGAMMON.parse_play(START, (6, 5), text).notation() == "24/13"


@pytest.mark.parametrize(
    "text", ["24/18(2) 13/7(2)", "13/7(2) 24/18(2)", "24/18 24/18 13/7 13/7", "13/7 24/18(2) 13/7"]
)
def test_repeated_moves_may_be_written_with_a_count_or_one_by_one(text: str) -> None:
    assert BACKGAMMON.parse_play(START, (6, 6), text).notation() == "24/18(2) 13/7(2)"


def test_a_count_repeats_a_move_with_the_dice_it_names() -> None:
    play = BACKGAMMON.parse_play(START, (6, 6), "13/7(4)")
    assert play.notation() == "13/7(4)"
    assert [(step.start, step.end) for step in play.steps] == [(13, 7)] * 4


@pytest.mark.parametrize(
    "text", ["bar/22* 13/8", "bar/22 13/8", "25/22 13/8", "BAR/22* 13/8", "Bar/22 13/8", "13/8 bar/22*"]
)
def test_entering_may_be_written_bar_or_25_in_any_case_with_or_without_the_hit(text: str) -> None:
    assert BACKGAMMON.parse_play(ON_THE_BAR_WITH_A_BLOT_TO_HIT, (5, 3), text).notation() == "bar/22* 13/8"


@pytest.mark.parametrize("text", ["5/3 5/off", "5/off 5/3", "5/3 5/0", "5/OFF 5/3", "5/Off, 5/3"])
def test_bearing_off_may_be_written_off_or_0_in_any_case(text: str) -> None:
    play = BACKGAMMON.parse_play(BEARING_OFF, (6, 2), text)
    assert play.notation() == "5/3 5/off"
    assert Step(5, OFF, 6) in play.steps


@pytest.mark.parametrize("text", ["18/16* 13/8", "18/16 13/8"])
def test_a_hit_where_the_checker_lands_is_made_whether_marked_or_not(text: str) -> None:
    board = position({18: 1, 13: 5, 6: 9}, {9: 1, 2: 14})  # a blot on the mover's 16-point
    play = BACKGAMMON.parse_play(board, (5, 2), text)
    assert play.notation() == "18/16* 13/8"
    assert play.position.opponent[25] == 1


def test_a_hit_marked_on_the_way_picks_the_route_through_the_blot() -> None:
    play = BACKGAMMON.parse_play(BLOT_ON_THE_WAY, (6, 5), "24/18*/13")
    assert play.notation() == "24/18*/13"
    assert play.hits


def test_a_move_without_a_marked_hit_picks_the_clean_route_when_there_is_one() -> None:
    play = BACKGAMMON.parse_play(BLOT_ON_THE_WAY, (6, 5), "24/13")
    assert play.notation() == "24/13"
    assert not play.hits


def test_each_marked_route_through_a_blot_is_read_as_that_route() -> None:
    assert BACKGAMMON.parse_play(BLOTS_ON_BOTH_WAYS, (6, 5), "24/18*/13").notation() == "24/18*/13"
    assert BACKGAMMON.parse_play(BLOTS_ON_BOTH_WAYS, (6, 5), "24/19*/13").notation() == "24/19*/13"


def test_a_move_that_could_hit_either_of_two_blots_on_the_way_must_say_which() -> None:
    # Malformed input, not a refusal of the rules: the text names no single play.
    with pytest.raises(AmbiguousPlayError) as raised:
        BACKGAMMON.parse_play(BLOTS_ON_BOTH_WAYS, (6, 5), "24/13")
    assert raised.value.plays == ["24/18*/13", "24/19*/13"]
    assert str(raised.value) == "'24/13' could mean 24/18*/13 or 24/19*/13: say which you mean"


# Reading: text that is not a play at all


@pytest.mark.parametrize(
    ("text", "bad_part"),
    [
        ("13-7", "13-7"),
        ("13/7 8-7", "8-7"),
        ("13/", "13/"),
        ("/7", "/7"),
        ("13/7(9)", "13/7(9)"),
        ("13/7(0)", "13/7(0)"),
        ("7/13", "7/13"),
        ("13/13", "13/13"),
        ("off/3", "off/3"),
        ("13/bar", "13/bar"),
        ("26/20", "26/20"),
        ("13/7 hello", "hello"),
        ("hello", "hello"),
        ("*13/7", "*13/7"),
        ("13/7**", "13/7**"),
        ("Off", "Off"),
    ],
)
def test_text_that_is_not_standard_notation_is_a_syntax_error_naming_the_bad_part(
    text: str, bad_part: str
) -> None:
    with pytest.raises(InvalidPlayError) as unreadable:
        BACKGAMMON.parse_play(START, (6, 1), text)
    assert repr(bad_part) in str(unreadable.value)


def test_only_a_slash_separates_the_points_of_a_move() -> None:
    with pytest.raises(InvalidPlayError, match="like 13/7"):
        BACKGAMMON.parse_play(START, (6, 1), "13-7 8-7")


# Reading: readable plays the rules refuse, with the reason in a player's words


def test_entering_on_a_blocked_point_is_refused_naming_the_point() -> None:
    board = position({25: 1, 13: 5, 6: 9}, {5: 2, 2: 13})  # the opponent holds the mover's 20-point
    reason = refusal(board, (5, 3), "bar/20 13/10")
    assert reason == "the 5 cannot be played from the bar: your 20-point is blocked"


def test_no_other_checker_moves_while_one_is_on_the_bar() -> None:
    reason = refusal(ON_THE_BAR_WITH_A_BLOT_TO_HIT, (5, 3), "13/8 6/3")
    assert reason == "you must enter your checker from the bar first"


def test_two_checkers_on_the_bar_must_both_enter_before_any_other_moves() -> None:
    board = position({25: 2, 13: 5, 6: 8}, {3: 1, 2: 14})
    assert refusal(board, (5, 3), "bar/22 13/8") == "you must enter your checker from the bar first"
    assert BACKGAMMON.parse_play(board, (5, 3), "bar/22 bar/20").notation() == "bar/22* bar/20"


def test_both_dice_must_be_played_when_they_can_be() -> None:
    # The opponent holds the mover's 18-point: only 24/19/13 plays both dice.
    board = position({24: 1, 2: 7, 1: 7}, {7: 2, 21: 13})
    assert refusal(board, (6, 5), "24/19") == "you must play both dice: 24/13 does"


def test_all_four_dice_of_a_double_must_be_played_when_they_can_be() -> None:
    assert refusal(START, (6, 6), "13/7(2)") == "you must play all four 6s: 24/18(2) 13/7(2) does"


def test_higher_die_must_be_played_when_only_one_can_be() -> None:
    # The opponent holds the mover's 13-point, so the checker on the 24 can take one die, not both.
    board = position({24: 1, 2: 7, 1: 7}, {12: 2, 21: 13})
    assert [play.notation() for play in BACKGAMMON.legal_plays(board, (6, 5))] == ["24/18"]
    assert refusal(board, (6, 5), "24/19") == "you must play the higher die: 24/18 does"


def test_no_checker_bears_off_while_one_is_outside_the_home_board() -> None:
    board = position({8: 1, 6: 4, 3: 10}, {24: 2, 1: 13})
    assert (
        refusal(board, (6, 4), "6/off")
        == "you cannot bear off while you have checkers outside your home board or on the bar"
    )


def test_a_higher_die_bears_off_only_from_the_highest_point() -> None:
    expected = (
        "the 6 bears off from your 3-point only when no checker stands higher: you have one on your 5-point"
    )
    assert refusal(BEARING_OFF, (6, 2), "5/3 3/off") == expected


def test_a_move_from_an_empty_point_is_refused_naming_the_point() -> None:
    assert refusal(START, (6, 1), "12/6 8/7") == "you have no checker on your 12-point"


def test_a_move_longer_than_the_dice_is_refused_with_its_pips() -> None:
    assert refusal(START, (6, 1), "13/5") == "13/5 is 8 pips, which your 6-1 cannot make"


def test_a_move_after_the_dice_are_used_up_is_refused() -> None:
    assert refusal(START, (6, 1), "13/7 8/7 6/5") == "6/5 is one move too many: your 6-1 is used up"


def test_a_step_onto_a_held_point_is_refused_naming_the_point() -> None:
    # The opponent's two checkers on its 24-point hold the mover's 1-point.
    reason = refusal(START, (5, 1), "6/1 24/23")
    assert reason == "the 5 cannot be played from your 6-point: your 1-point is blocked"
