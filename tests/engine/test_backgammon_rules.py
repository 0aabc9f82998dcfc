"""Backgammon's rules, one case each, on hand-built positions (RULES.md, "Shared vocabulary" and
"Backgammon"). Points are the mover's; the opponent's point n is the mover's 25 - n."""

from __future__ import annotations

import pytest

from tavli.engine import BACKGAMMON, BAR, GameResult, IllegalPlayError, InvalidPositionError, Position
from tavli.engine.play import Step
from tavli.engine.position import OFF
from tavli.engine.variant import is_better_way


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    return {play.notation() for play in BACKGAMMON.legal_plays(position, dice)}


def mover(points: dict[int, int], opponent_holds: dict[int, int]) -> Position:
    """A position from the mover's points and the opponent's checkers given on the mover's points."""
    opponent = {25 - point if point != BAR else BAR: count for point, count in opponent_holds.items()}
    position = Position.from_points(points, opponent)
    BACKGAMMON.validate(position)
    return position


def test_start_position_has_167_pips_a_side_and_gnubgs_id() -> None:
    start = BACKGAMMON.start_position()
    assert start.pip_count() == (167, 167)
    assert start.position_id() == "4HPwATDgc/ABMA"


def test_opening_three_one_has_sixteen_plays() -> None:
    assert "8/5 6/5" in plays(BACKGAMMON.start_position(), (3, 1))
    assert len(plays(BACKGAMMON.start_position(), (3, 1))) == 16


def test_both_dice_must_be_played_when_the_low_die_opens_the_way_for_the_high() -> None:
    # The 6 from the 10-point is blocked, but after the 1 the checker can go on with the 6.
    position = mover({10: 1, 2: 14}, {1: 2, 4: 2, 12: 11})
    assert plays(position, (6, 1)) == {"10/3"}
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (6, 1), "10/9")
    assert refused.value.why == "you must play both dice: 10/3 does"


def test_higher_die_must_be_played_when_only_one_can_be() -> None:
    # Either die can be played from the 10-point, but never both.
    position = mover({10: 1, 2: 14}, {1: 2, 3: 2, 12: 11})
    assert plays(position, (6, 1)) == {"10/4"}
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (6, 1), "10/9")
    assert refused.value.why == "you must play the higher die: 10/4 does"


def test_lower_die_is_played_when_the_higher_cannot_be() -> None:
    position = mover({10: 1, 2: 14}, {1: 2, 3: 2, 4: 2, 12: 9})
    assert plays(position, (6, 1)) == {"10/9"}


def test_a_double_is_played_as_far_as_it_can_be() -> None:
    # The checker on 18 runs to 8; the opponent's point on the mover's 3 stops the third 5.
    position = mover({18: 1, 2: 14}, {1: 2, 3: 2, 12: 11})
    assert plays(position, (5, 5)) == {"18/8"}
    assert BACKGAMMON.legal_plays(position, (5, 5)).dice_used == 2
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (5, 5), "18/13")
    assert refused.value.why == "you must play 2 of your 5s, as many as can be played: 18/8 does"


def test_checkers_on_the_bar_enter_before_any_other_moves() -> None:
    position = mover({BAR: 1, 13: 14}, {12: 15})
    assert all(play.startswith("bar/") for play in plays(position, (6, 5)))
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (6, 5), "13/7 13/8")
    assert refused.value.why == "you must enter your checker from the bar first"


def test_a_blocked_entry_is_refused_in_words() -> None:
    position = mover({BAR: 1, 13: 14}, {20: 2, 12: 13})
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (5, 3), "bar/20 13/10")
    assert refused.value.why == "the 5 cannot be played from the bar: your 20-point is blocked"
    assert plays(position, (5, 3)) == {"bar/22 13/8", "bar/17"}


def test_the_rest_of_the_roll_is_lost_while_checkers_remain_on_the_bar() -> None:
    # Two on the bar, only the 3 enters: the 5 is lost.
    position = mover({BAR: 2, 13: 13}, {20: 2, 12: 13})
    assert plays(position, (5, 3)) == {"bar/22"}


def test_a_closed_board_passes_the_turn() -> None:
    position = mover({BAR: 1, 13: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3})
    legal = BACKGAMMON.legal_plays(position, (6, 5))
    assert [play.notation() for play in legal] == [""]
    assert next(iter(legal)).position == position


def test_bearing_off_needs_every_checker_home() -> None:
    position = mover({8: 1, 7: 1, 6: 13}, {24: 15})
    assert not any("off" in play for play in plays(position, (6, 1)))
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (6, 1), "6/off 8/7")
    assert (
        refused.value.why
        == "you cannot bear off while you have checkers outside your home board or on the bar"
    )


def test_a_higher_die_bears_off_from_the_highest_point() -> None:
    position = mover({3: 1, 2: 2}, {24: 15})
    assert plays(position, (6, 5)) == {"3/off 2/off"}


def test_a_higher_die_cannot_bear_off_while_a_checker_stands_higher() -> None:
    position = mover({5: 1, 3: 1}, {24: 15})
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (6, 1), "3/off 5/4")
    assert refused.value.why == (
        "the 6 bears off from your 3-point only when no checker stands higher: you have one on your 4-point"
    )
    # 5/off with the 6, or the 1 first and the 6 from the 4-point: one checker running off.
    assert plays(position, (6, 1)) == {"5/off 3/2", "5/off"}


def test_a_side_is_not_obliged_to_bear_off() -> None:
    position = mover({6: 2, 5: 2}, {24: 15})
    assert "6/2 5/4" in plays(position, (4, 1))
    assert "6/5 6/2" in plays(position, (4, 1))


def test_a_checker_hit_during_bear_off_comes_home_before_bearing_off_resumes() -> None:
    position = mover({BAR: 1, 6: 4, 5: 4}, {1: 1, 12: 14})
    legal = plays(position, (6, 5))
    assert "bar/14" in legal
    assert not any("off" in play for play in legal)
    with pytest.raises(IllegalPlayError) as refused:
        BACKGAMMON.parse_play(position, (6, 5), "bar/20 6/off")
    assert (
        refused.value.why
        == "you cannot bear off while you have checkers outside your home board or on the bar"
    )


def test_hitting_a_blot_sends_it_to_the_bar() -> None:
    position = mover({13: 15}, {10: 1, 1: 14})
    play = BACKGAMMON.parse_play(position, (3, 1), "13/12 13/10")
    assert play.hits
    assert play.notation() == "13/12 13/10*"
    assert play.position.opponent[BAR] == 1 and play.position.opponent[15] == 0


@pytest.mark.parametrize(
    ("winner_off", "loser", "result"),
    [
        (15, {6: 14}, GameResult.SINGLE),
        (15, {6: 15}, GameResult.GAMMON),
        (15, {19: 1, 6: 14}, GameResult.BACKGAMMON),
        (15, {BAR: 1, 6: 14}, GameResult.BACKGAMMON),
    ],
)
def test_game_result_by_the_losers_checkers(
    winner_off: int, loser: dict[int, int], result: GameResult
) -> None:
    position = Position.from_points({}, loser)
    assert position.player[0] == winner_off
    assert BACKGAMMON.result(position) is result
    assert BACKGAMMON.result(position.swapped()) is result


def test_a_game_in_progress_has_no_result() -> None:
    assert BACKGAMMON.result(BACKGAMMON.start_position()) is None


@pytest.mark.parametrize(
    ("player", "opponent", "message"),
    [
        ({6: 15}, {19: 1, 6: 14}, "both sides have checkers on the player's 6-point"),
        ({}, {}, "both sides have borne off all their checkers"),
    ],
)
def test_impossible_positions_are_refused(
    player: dict[int, int], opponent: dict[int, int], message: str
) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        BACKGAMMON.validate(Position.from_points(player, opponent))


def test_sixteen_checkers_are_refused() -> None:
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        Position.from_points({6: 16}, {6: 15})


def test_a_way_to_a_board_gives_way_only_to_a_longer_one_or_of_one_die_to_a_higher_die() -> None:
    # Three ways to one board, a checker borne off from the 5-point with nothing above it: its two
    # dice (4 then 1), or one die, a 5 or a 6. The longer way is the one kept, whichever comes
    # first; of two one-die ways, the higher die's.
    two_dice = (Step(5, 1, 4, False), Step(1, OFF, 1, False))
    five, six = (Step(5, OFF, 5, False),), (Step(5, OFF, 6, False),)
    assert is_better_way(two_dice, six)
    assert not is_better_way(six, two_dice)
    assert is_better_way(six, five)
    assert not is_better_way(five, six)
    assert is_better_way(five, None)
