"""Games and matches through the state machine, as RULES.md says they are played.

Each scenario controls every throw with a scripted dice source. Positions deep in a game are set
with ``dataclasses.replace`` on the match state; everything else is played move by move. Seeded
random bots, choosing among the legal actions, play whole matches for the replay and "done when"
checks at the end of the file.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tavli.engine import BAR, GameResult, Position, Step
from tavli.engine.dice import SeededDice, derive_throw, verify_throws
from tavli.engine.events import (
    Beavered,
    DiceCommitted,
    Doubled,
    Event,
    OpeningThrown,
    Played,
    Rolled,
    SeedRevealed,
    Side,
    event_from_dict,
)
from tavli.engine.game import Action, ActionError, Phase, other
from tavli.engine.match import Match, open_commitment
from tavli.engine.play import Dice
from tavli.engine.rules import InvalidRuleSetError, RuleSet

# --- scripted dice and small helpers ------------------------------------------------------------


class ScriptedDice:
    """Throws in a fixed order: the ``index``-th throw of the match is ``throws[index]``.

    ``Match.roll`` asks for the next throw before the state machine judges the roll, so a scenario
    that checks a refused roll scripts a throw that is never used.
    """

    def __init__(self, *throws: Dice) -> None:
        self.throws = throws

    def roll(self, index: int) -> Dice:
        if index >= len(self.throws):
            raise AssertionError(f"the script has {len(self.throws)} throws; throw {index} was asked for")
        return self.throws[index]


MONEY = RuleSet()
# Side 0 wins the opening with 6-1 and plays it 13/7 8/7; side 1 is then on roll, cube centred.
SIDE_0_OPENS = (6, 1)
SIDE_1_OPENS = (1, 6)
POINT_ON_7 = "13/7 8/7"


def match_with(rules: RuleSet, *throws: Dice, **options: Any) -> Match:
    return Match(rules, dice=ScriptedDice(*throws), **options)


def side_1_on_roll(rules: RuleSet = MONEY, *later: Dice) -> Match:
    """A game in which side 0 has played its opening 6-1 and side 1 is to roll (or double)."""
    match = match_with(rules, SIDE_0_OPENS, *later)
    match.roll(0)
    match.play(0, POINT_ON_7)
    return match


def refused(action: Callable[..., object], *args: object, match: Match) -> ActionError:
    """The refusal of ``action(*args)``, checking that it changed neither the state nor the log."""
    state, logged = match.state, len(match.events)
    with pytest.raises(ActionError) as caught:
        action(*args)
    assert match.state == state
    assert len(match.events) == logged
    return caught.value


def set_game(match: Match, **changes: Any) -> None:
    """Move the game in play to a state built by hand (for positions deep in a game)."""
    if "position" in changes:
        match.rules.rules.validate(changes["position"])  # a position the variant can have
    match.state = replace(match.state, game=replace(match.state.game, **changes))


def set_score(match: Match, score: tuple[int, int]) -> None:
    match.state = replace(match.state, score=score)


def bearing_off_last_two(
    loser: dict[int, int], *, cube_value: int = 1, cube_owner: Side | None = None, rules: RuleSet = MONEY
) -> Match:
    """The match after side 0 rolls 2-1 and bears off its last two checkers from its 1-point,
    winning the game; ``loser`` is where side 1's checkers stand (the rest borne off)."""
    match = match_with(rules, SIDE_0_OPENS, (2, 1))
    match.roll(0)
    position = Position.from_points({1: 2}, loser)
    set_game(
        match,
        position=position,
        turn=0,
        phase=Phase.ROLLING,
        dice=None,
        cube_value=cube_value,
        cube_owner=cube_owner,
    )
    match.roll(0)
    match.play(0, "1/off(2)")
    return match


# --- the rule set ----------------------------------------------------------------------------------


def test_backgammon_defaults_to_the_cube_at_64_crawford_and_playing_the_opening_dice() -> None:
    rules = RuleSet()
    assert rules.variant == "backgammon"
    assert rules.match_length == 0 and not rules.is_match
    assert rules.cube is True and rules.uses_cube
    assert rules.cube_limit == 64
    assert rules.crawford is True
    assert (rules.jacoby, rules.beavers, rules.automatic_doubles) == (False, False, False)
    assert rules.automatic_doubles_limit == 1
    assert rules.opening == "PLAY_OPENING_DICE"
    assert rules.match_openings == "EVERY_GAME"
    assert rules.auto_play_forced is False
    assert rules.backgammons == "COUNTED"


def test_long_nardi_defaults_to_no_cube_and_the_winner_rolling_again() -> None:
    rules = RuleSet(variant="long-nardi", match_length=5)
    assert rules.cube is False and not rules.uses_cube
    assert rules.opening == "WINNER_ROLLS_AGAIN"
    assert rules.rules.name == "long-nardi"


def test_a_one_point_match_has_no_cube() -> None:
    assert not RuleSet(match_length=1).uses_cube
    assert RuleSet(match_length=3).uses_cube


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"variant": "long-nardi", "cube": True}, "long nardi is played without a cube"),
        ({"variant": "long-nardi", "opening": "PLAY_OPENING_DICE"}, "the winner rolls again"),
        ({"variant": "long-nardi", "jacoby": True}, "long nardi has none"),
        ({"match_length": 5, "beavers": True}, "beavers apply to money play, not to a match"),
        ({"match_length": 5, "jacoby": True}, "jacoby apply to money play, not to a match"),
        ({"match_length": 5, "automatic_doubles": True}, "automatic doubles apply to money play"),
        ({"cube_limit": 48}, "the cube limit is a power of two"),
        ({"cube_limit": -64}, "the cube limit is a power of two"),
        ({"automatic_doubles": True, "automatic_doubles_limit": 0}, "automatic doubles limit is at least 1"),
        ({"cube": False, "beavers": True}, "need the cube"),
        ({"match_length": -1}, "the match length is a whole number"),
        ({"match_openings": "WINNER_OPENS"}, "money games all start with the opening throw"),
        ({"opening": "LOSER_OPENS"}, "unknown opening"),
        ({"variant": "chess"}, "unknown variant 'chess'"),
        (
            {"variant": "long-nardi", "backgammons": "AS_GAMMON"},
            "long nardi has no backgammons to score as gammons: its biggest win, a mars, is worth 2 already",
        ),
        ({"backgammons": "TRIPLE"}, "backgammons are COUNTED or scored AS_GAMMON, not 'TRIPLE'"),
    ],
)
def test_rule_sets_that_contradict_themselves_are_refused_with_the_reason(
    options: dict[str, Any], problem: str
) -> None:
    with pytest.raises(InvalidRuleSetError) as refusal:
        RuleSet(**options)
    assert problem in str(refusal.value)


def test_a_cube_limit_of_zero_means_no_limit_and_powers_of_two_are_accepted() -> None:
    for limit in (0, 2, 8, 64, 1024):
        assert RuleSet(cube_limit=limit).cube_limit == limit


# --- the opening throw -------------------------------------------------------------------------------


def test_opening_ties_are_thrown_again_and_the_winner_plays_the_opening_dice() -> None:
    match = match_with(MONEY, (3, 3), (5, 5), (5, 2))
    events = match.roll(1)
    assert events == [OpeningThrown(((3, 3), (5, 5), (5, 2)), 1)]
    game = match.state.game
    assert (game.turn, game.phase, game.dice) == (0, Phase.PLAYING, (5, 2))
    assert match.state.throws == 3
    assert game.cube_value == 1 and game.cube_owner is None  # no automatic doubles by default
    match.play(0, "13/8 13/11")


def test_the_opening_dice_are_given_to_the_side_that_threw_higher_its_own_die_first() -> None:
    match = match_with(MONEY, (2, 5))
    match.roll(0)
    game = match.state.game
    assert (game.turn, game.phase, game.dice) == (1, Phase.PLAYING, (5, 2))
    assert game.position == RuleSet().rules.start_position()  # from side 1's own view
    match.play(1, "13/8 13/11")
    assert match.state.game.turn == 0


def test_with_winner_rolls_again_the_opening_winner_throws_both_dice_afresh() -> None:
    rules = RuleSet(opening="WINNER_ROLLS_AGAIN")
    match = match_with(rules, (4, 1), (6, 6))
    match.roll(1)
    game = match.state.game
    assert (game.turn, game.phase, game.dice) == (0, Phase.ROLLING, None)
    assert refused(match.roll, 1, match=match).reason == "NOT_YOUR_TURN"
    assert match.roll(0) == [Rolled(0, (6, 6))]  # a double is possible
    assert len(match.legal_plays()) > 1
    match.play(0, "24/18(2) 13/7(2)")


@pytest.mark.parametrize(("limit", "cube"), [(1, 2), (2, 4), (3, 8)])
def test_automatic_doubles_double_the_centred_cube_on_each_tied_opening_up_to_the_limit(
    limit: int, cube: int
) -> None:
    rules = RuleSet(automatic_doubles=True, automatic_doubles_limit=limit)
    match = match_with(rules, (2, 2), (4, 4), (1, 1), (6, 1))
    match.roll(0)
    game = match.state.game
    assert game.cube_value == cube
    assert game.cube_owner is None
    assert game.automatic_doubles == min(limit, 3)
    assert (game.turn, game.dice) == (0, (6, 1))


def test_automatic_doubles_stop_at_the_cube_limit() -> None:
    rules = RuleSet(automatic_doubles=True, automatic_doubles_limit=5, cube_limit=4)
    match = match_with(rules, (2, 2), (4, 4), (1, 1), (6, 1))
    match.roll(0)
    assert match.state.game.cube_value == 4


def test_without_automatic_doubles_a_tied_opening_leaves_the_cube_at_one() -> None:
    match = match_with(MONEY, (2, 2), (6, 1))
    match.roll(0)
    assert match.state.game.cube_value == 1


# --- turn order and refusals --------------------------------------------------------------------


def test_only_the_side_on_turn_rolls_and_plays_and_each_in_its_phase() -> None:
    match = match_with(MONEY, SIDE_0_OPENS, (3, 1))
    match.roll(0)

    error = refused(match.roll, 1, match=match)
    assert (error.reason, error.message) == ("NOT_YOUR_TURN", "it is not your turn")
    error = refused(match.play, 1, "13/7 8/7", match=match)
    assert (error.reason, error.message) == ("NOT_YOUR_TURN", "it is not your turn")
    error = refused(match.roll, 0, match=match)
    assert (error.reason, error.message) == ("WRONG_PHASE", "you have already rolled: play your roll")

    match.play(0, POINT_ON_7)
    error = refused(match.play, 1, "8/5 6/5", match=match)
    assert (error.reason, error.message) == ("WRONG_PHASE", "roll the dice first")
    error = refused(match.roll, 0, match=match)
    assert (error.reason, error.message) == ("NOT_YOUR_TURN", "it is not your turn")
    error = refused(match.double, 0, match=match)
    assert error.reason == "NOT_YOUR_TURN"

    assert match.roll(1) == [Rolled(1, (3, 1))]
    match.play(1, "8/5 6/5")
    assert match.state.game.turn == 0
    assert match.state.game.last_play is not None and match.state.game.last_play.side == 1


def test_nothing_but_the_opening_throw_can_start_a_game() -> None:
    match = match_with(MONEY, SIDE_0_OPENS)
    assert match.legal_actions(0) == [Action.ROLL] and match.legal_actions(1) == [Action.ROLL]
    error = refused(match.play, 0, "13/7 8/7", match=match)
    assert (error.reason, error.message) == (
        "WRONG_PHASE",
        "the game starts with the throw for who goes first",
    )
    assert refused(match.double, 1, match=match).reason == "WRONG_PHASE"
    error = refused(match.resign, 0, "single", match=match)
    assert error.reason == "RESIGNATION_UNAVAILABLE"
    assert "throw for who goes first" in error.message


def test_an_illegal_play_is_refused_with_the_rules_reason_and_an_unreadable_one_as_invalid() -> None:
    match = match_with(MONEY, SIDE_0_OPENS)
    match.roll(0)
    error = refused(match.play, 0, "24/18", match=match)
    assert (error.reason, error.message) == ("ILLEGAL_PLAY", "you must play both dice: 24/23 24/18 does")
    error = refused(match.play, 0, "6/1 6/5", match=match)
    assert (error.reason, error.message) == ("ILLEGAL_PLAY", "6/1 is 5 pips, which your 6-1 cannot make")
    error = refused(match.play, 0, "24/18 24/23 13/12", match=match)
    assert (error.reason, error.message) == (
        "ILLEGAL_PLAY",
        "13/12 is one move too many: your 6-1 is used up",
    )
    error = refused(match.play, 0, "thirteen to seven", match=match)
    assert error.reason == "INVALID_PLAY" and "cannot read" in error.message
    match.play(0, "8/7 13/7")  # any equivalent way of writing the play


def test_a_pending_double_blocks_everything_but_its_answer() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    match.double(1)
    assert match.state.game.phase is Phase.DOUBLED
    assert match.legal_actions(1) == []
    assert match.legal_actions(0) == [Action.TAKE, Action.DROP]

    error = refused(match.roll, 0, match=match)
    assert (error.reason, error.message) == ("DOUBLE_PENDING", "a double is waiting for your answer")
    error = refused(match.roll, 1, match=match)
    assert (error.reason, error.message) == (
        "DOUBLE_PENDING",
        "a double is waiting for your opponent's answer",
    )
    error = refused(match.take, 1, match=match)
    assert (error.reason, error.message) == (
        "DOUBLE_PENDING",
        "a double is waiting for your opponent's answer",
    )
    assert refused(match.double, 1, match=match).reason == "DOUBLE_PENDING"
    assert refused(match.play, 0, "13/7 8/7", match=match).reason == "DOUBLE_PENDING"


def test_taking_or_accepting_with_nothing_offered_is_refused() -> None:
    match = side_1_on_roll()
    for action in (match.take, match.drop, match.beaver):
        error = refused(action, 0, match=match)
        assert (error.reason, error.message) == ("WRONG_PHASE", "there is no double to answer")
    for action in (match.accept, match.reject):
        error = refused(action, 0, match=match)
        assert (error.reason, error.message) == ("WRONG_PHASE", "there is no resignation to answer")


def test_a_pending_resignation_blocks_everything_but_its_answer() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    match.resign(1, "single")
    assert match.state.game.phase is Phase.RESIGNING
    assert match.legal_actions(1) == []
    assert match.legal_actions(0) == [Action.ACCEPT, Action.REJECT]
    error = refused(match.roll, 1, match=match)
    assert (error.reason, error.message) == (
        "RESIGNATION_PENDING",
        "your resignation is waiting for your opponent's answer",
    )
    error = refused(match.double, 0, match=match)
    assert (error.reason, error.message) == (
        "RESIGNATION_PENDING",
        "a resignation is waiting for your answer",
    )
    error = refused(match.accept, 1, match=match)
    assert error.reason == "RESIGNATION_PENDING"
    error = refused(match.resign, 0, "single", match=match)
    assert error.reason == "RESIGNATION_UNAVAILABLE"
    assert error.message == "a resignation is already waiting for an answer"


def test_no_action_is_taken_once_the_match_is_over() -> None:
    match = side_1_on_roll(RuleSet(match_length=1), (3, 1))
    match.resign(1, "single")
    match.accept(0)
    assert match.state.over and match.state.winner == 0
    assert match.state.game.phase is Phase.MATCH_OVER
    assert match.legal_actions(0) == [] and match.legal_actions(1) == []
    for action, args in (
        (match.roll, (0,)),
        (match.play, (1, "13/7")),
        (match.double, (1,)),
        (match.resign, (1, "single")),
        (match.accept, (0,)),
    ):
        error = refused(action, *args, match=match)
        assert (error.reason, error.message) == ("MATCH_OVER", "the match is over")


# --- the cube ------------------------------------------------------------------------------------


def test_a_taken_double_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    assert Action.DOUBLE in match.legal_actions(1)
    assert match.double(1) == [Doubled(1)]
    match.take(0)
    game = match.state.game
    assert (game.cube_value, game.cube_owner, game.phase, game.turn) == (2, 0, Phase.ROLLING, 1)
    match.roll(1)  # the doubler goes on to roll


def test_only_the_cube_owner_may_redouble() -> None:
    match = side_1_on_roll(MONEY, (3, 1), (3, 1))
    match.double(1)
    match.take(0)
    match.roll(1)
    match.play(1, "8/5 6/5")
    assert Action.DOUBLE in match.legal_actions(0)
    match.roll(0)
    match.play(0, "8/5 6/5")
    assert Action.DOUBLE not in match.legal_actions(1)
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == (
        "CUBE_UNAVAILABLE",
        "you cannot double: your opponent owns the cube",
    )


def test_a_redouble_taken_passes_the_cube_back_at_four() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    match.double(1)
    match.take(0)
    match.roll(1)
    match.play(1, "8/5 6/5")
    match.double(0)
    match.take(1)
    assert (match.state.game.cube_value, match.state.game.cube_owner) == (4, 1)


def test_doubling_is_only_before_rolling() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    match.roll(1)
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == (
        "CUBE_UNAVAILABLE",
        "you can double only on your turn, before you roll",
    )


def test_a_dropped_double_loses_the_value_before_the_double() -> None:
    match = side_1_on_roll(MONEY, (3, 1), SIDE_0_OPENS)
    match.double(1)
    match.drop(0)
    (game,) = match.state.finished
    assert (game.winner, game.points, game.result, game.ended_by, game.cube_value) == (
        1,
        1,
        GameResult.SINGLE,
        "drop",
        1,
    )
    assert match.state.score == (0, 1)


def test_a_dropped_redouble_loses_the_cube_as_it_stood() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    match.double(1)
    match.take(0)
    match.roll(1)
    match.play(1, "8/5 6/5")
    match.double(0)
    match.drop(1)
    assert match.state.finished[-1].points == 2
    assert match.state.score == (2, 0)


def test_a_beaver_doubles_the_doubled_cube_and_the_beaverer_owns_it_without_an_answer() -> None:
    rules = RuleSet(beavers=True)
    match = side_1_on_roll(rules, (3, 1))
    match.double(1)
    assert Action.BEAVER in match.legal_actions(0)
    assert match.beaver(0) == [Beavered(0)]
    game = match.state.game
    assert (game.cube_value, game.cube_owner, game.phase, game.turn) == (4, 0, Phase.ROLLING, 1)
    assert match.legal_actions(0) == [Action.RESIGN]  # nothing to answer
    match.roll(1)


def test_a_beaver_is_refused_where_beavers_are_not_played() -> None:
    match = side_1_on_roll(MONEY)
    match.double(1)
    assert Action.BEAVER not in match.legal_actions(0)
    error = refused(match.beaver, 0, match=match)
    assert (error.reason, error.message) == ("BEAVER_UNAVAILABLE", "beavers are not played in this game")
    error = refused(match.beaver, 1, match=match)
    assert error.reason == "DOUBLE_PENDING"


def test_a_beaver_is_refused_past_the_cube_limit() -> None:
    rules = RuleSet(beavers=True, cube_limit=4)
    match = side_1_on_roll(rules)
    set_game(match, cube_value=2, cube_owner=1)
    match.double(1)
    assert Action.BEAVER not in match.legal_actions(0)
    error = refused(match.beaver, 0, match=match)
    assert (error.reason, error.message) == (
        "BEAVER_UNAVAILABLE",
        "a beaver would take the cube past its limit of 4",
    )
    match.take(0)
    assert match.state.game.cube_value == 4


def test_nobody_doubles_a_cube_at_its_limit_of_64() -> None:
    match = side_1_on_roll(MONEY)
    set_game(match, cube_value=64, cube_owner=1)
    assert Action.DOUBLE not in match.legal_actions(1)
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == (
        "CUBE_UNAVAILABLE",
        "you cannot double: the cube is already at its limit of 64",
    )


def test_a_cube_without_limit_goes_past_64() -> None:
    match = side_1_on_roll(RuleSet(cube_limit=0))
    set_game(match, cube_value=64, cube_owner=1)
    match.double(1)
    match.take(0)
    assert match.state.game.cube_value == 128


def test_no_cube_means_no_double() -> None:
    match = side_1_on_roll(RuleSet(cube=False))
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == (
        "CUBE_UNAVAILABLE",
        "you cannot double: this game is played without the cube",
    )


def test_a_one_point_match_refuses_the_double() -> None:
    match = side_1_on_roll(RuleSet(match_length=1))
    assert Action.DOUBLE not in match.legal_actions(1)
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == (
        "CUBE_UNAVAILABLE",
        "you cannot double: a 1-point match has no cube",
    )


def test_no_double_when_the_cubes_value_already_wins_the_match() -> None:
    rules = RuleSet(match_length=5)
    match = side_1_on_roll(rules)
    set_score(match, (0, 3))
    set_game(match, cube_value=2, cube_owner=1)
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == (
        "CUBE_UNAVAILABLE",
        "you cannot double: the cube's value already gives you the match",
    )
    set_game(match, cube_value=1, cube_owner=None)
    match.double(1)  # 3 + 1 does not reach 5: the double is allowed


def test_a_five_point_match_with_the_crawford_game_and_a_post_crawford_double() -> None:
    rules = RuleSet(match_length=5)
    match = match_with(rules, SIDE_0_OPENS, SIDE_0_OPENS, SIDE_0_OPENS, SIDE_1_OPENS, SIDE_0_OPENS)

    # Game 1: side 1 doubles, side 0 takes; side 1 resigns a gammon at 2: 4 points to side 0.
    match.roll(0)
    match.play(0, POINT_ON_7)
    assert not match.state.game.crawford
    match.double(1)
    match.take(0)
    match.resign(1, "gammon")
    match.accept(0)
    assert match.state.score == (4, 0)

    # Game 2 is the Crawford game: not even the trailer may double.
    game = match.state.game
    assert (game.number, game.crawford) == (2, True) and match.state.crawford_played
    match.roll(0)
    match.play(0, POINT_ON_7)
    assert Action.DOUBLE not in match.legal_actions(1)
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == ("CUBE_UNAVAILABLE", "you cannot double: the Crawford game")
    match.resign(0, "single")
    match.accept(1)
    assert match.state.score == (4, 1)

    # Game 3 is post-Crawford: the trailer may double; the leader's 1-cube already wins the match.
    game = match.state.game
    assert (game.number, game.crawford) == (3, False)
    match.roll(0)
    match.play(0, POINT_ON_7)
    assert Action.DOUBLE in match.legal_actions(1)
    match.double(1)
    match.take(0)
    assert (match.state.game.cube_value, match.state.game.cube_owner) == (2, 0)
    match.resign(0, "single")
    match.accept(1)
    assert match.state.score == (4, 3)

    # Game 4: the leader still cannot double; it gives up a single game.
    match.roll(1)
    match.play(1, POINT_ON_7)
    error = refused(match.double, 0, match=match)
    assert error.message == "you cannot double: the cube's value already gives you the match"
    match.resign(0, "single")
    match.accept(1)
    assert match.state.score == (4, 4)
    assert not match.state.game.crawford  # the Crawford game happens once

    # Game 5: at 4-4 neither side may double; side 1 gives up and the match ends.
    match.roll(0)
    match.play(0, POINT_ON_7)
    error = refused(match.double, 1, match=match)
    assert error.message == "you cannot double: the cube's value already gives you the match"
    match.resign(1, "single")
    match.accept(0)
    assert match.state.score == (5, 4)
    assert match.state.winner == 0 and match.state.over
    assert [game.points for game in match.state.finished] == [4, 1, 2, 1, 1]
    assert [game.winner for game in match.state.finished] == [0, 1, 1, 1, 0]


def test_without_the_crawford_rule_the_game_after_match_point_minus_one_has_the_cube() -> None:
    rules = RuleSet(match_length=5, crawford=False)
    match = match_with(rules, SIDE_0_OPENS, SIDE_0_OPENS)
    match.roll(0)
    match.play(0, POINT_ON_7)
    set_score(match, (3, 0))
    match.resign(1, "single")
    match.accept(0)
    assert match.state.score == (4, 0)
    assert not match.state.game.crawford and not match.state.crawford_played
    match.roll(0)
    match.play(0, POINT_ON_7)
    assert Action.DOUBLE in match.legal_actions(1)


def test_the_crawford_game_follows_the_first_side_to_reach_match_point_minus_one() -> None:
    rules = RuleSet(match_length=3)
    match = side_1_on_roll(rules, SIDE_1_OPENS)
    match.double(1)
    match.drop(0)  # 0-1: nobody at 2 yet
    assert not match.state.game.crawford
    match.roll(0)
    match.play(1, POINT_ON_7)
    match.resign(0, "single")
    match.accept(1)  # 0-2: side 1 at match point minus one
    assert match.state.score == (0, 2)
    assert match.state.game.crawford


# --- resignations -------------------------------------------------------------------------------


@pytest.mark.parametrize(("level", "points"), [("single", 2), ("gammon", 4), ("backgammon", 6)])
def test_a_resignation_is_worth_its_multiplier_times_the_cube(level: str, points: int) -> None:
    match = side_1_on_roll(MONEY)
    match.double(1)
    match.take(0)
    match.resign(1, level)  # type: ignore[arg-type]
    match.accept(0)
    (game,) = match.state.finished
    assert (game.winner, game.points, game.result.value, game.ended_by) == (0, points, level, "resignation")


def test_a_backgammon_offer_is_capped_to_a_gammon_without_contact_or_a_checker_in_the_winners_home() -> None:
    match = side_1_on_roll(MONEY)
    # Side 1 (on turn) has passed every one of side 0's checkers and has none in side 0's home.
    position = Position.from_points({12: 5, 10: 5, 8: 5}, {6: 5, 5: 5, 4: 5})
    set_game(match, position=position)
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.GAMMON)
    match.accept(0)
    assert match.state.finished[-1].points == 2


def test_a_backgammon_offer_stands_while_a_checker_is_in_the_winners_home_board() -> None:
    match = side_1_on_roll(MONEY)
    position = Position.from_points({20: 1, 10: 14}, {6: 5, 4: 5, 3: 5})
    set_game(match, position=position)
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.BACKGAMMON)


def test_a_backgammon_offer_stands_while_there_is_contact() -> None:
    match = side_1_on_roll(MONEY)
    # Side 1's checker on its 15-point has yet to pass side 0's checkers on side 0's 12-point (its 13).
    position = Position.from_points({15: 1, 10: 14}, {12: 2, 5: 13})
    set_game(match, position=position)
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.BACKGAMMON)


def test_a_side_that_has_borne_off_can_resign_only_a_single_game() -> None:
    match = side_1_on_roll(MONEY)
    position = Position.from_points({20: 1, 6: 13}, {6: 5, 4: 5, 3: 5})  # one of side 1's is off
    set_game(match, position=position)
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.SINGLE)


def test_the_opponent_not_on_turn_may_resign_too_and_its_offer_is_capped_from_its_own_view() -> None:
    match = side_1_on_roll(MONEY)
    # Side 1 on turn; side 0 has borne off one checker.
    position = Position.from_points({24: 2, 13: 13}, {6: 14})
    set_game(match, position=position)
    match.resign(0, "gammon")
    assert match.state.game.resignation == (0, GameResult.SINGLE)
    assert match.state.game.resumes is Phase.ROLLING


def test_with_jacoby_and_a_centred_cube_only_a_single_game_can_be_resigned() -> None:
    match = side_1_on_roll(RuleSet(jacoby=True))
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.SINGLE)
    match.accept(0)
    assert match.state.finished[-1].points == 1


def test_with_jacoby_a_turned_cube_lets_gammons_and_backgammons_be_resigned() -> None:
    match = side_1_on_roll(RuleSet(jacoby=True))
    match.double(1)
    match.take(0)
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.BACKGAMMON)
    match.accept(0)
    assert match.state.finished[-1].points == 6


def test_a_rejected_offer_may_be_made_again_only_after_a_roll_has_been_played() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    match.resign(1, "gammon")
    match.reject(0)
    game = match.state.game
    assert (game.phase, game.resignation, game.turn) == (Phase.ROLLING, None, 1)
    assert Action.RESIGN not in match.legal_actions(1)
    error = refused(match.resign, 1, "single", match=match)
    assert (error.reason, error.message) == (
        "RESIGNATION_UNAVAILABLE",
        "your last offer was rejected: you may offer again after a roll has been played",
    )
    assert Action.RESIGN in match.legal_actions(0)  # the other side is not barred
    match.roll(1)
    error = refused(match.resign, 1, "single", match=match)  # rolled is not yet played
    assert error.reason == "RESIGNATION_UNAVAILABLE"
    match.play(1, "8/5 6/5")
    match.resign(1, "single")
    assert match.state.game.resignation == (1, GameResult.SINGLE)


def test_a_rejected_offer_during_a_play_resumes_the_play_with_the_same_dice() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    match.roll(1)
    match.resign(1, "single")
    match.reject(0)
    game = match.state.game
    assert (game.phase, game.dice, game.turn) == (Phase.PLAYING, (3, 1), 1)
    match.play(1, "8/5 6/5")


def test_no_resignation_while_a_double_waits_for_its_answer() -> None:
    match = side_1_on_roll(MONEY)
    match.double(1)
    error = refused(match.resign, 0, "single", match=match)
    assert (error.reason, error.message) == ("DOUBLE_PENDING", "a double is waiting for your answer")
    error = refused(match.resign, 1, "single", match=match)
    assert (error.reason, error.message) == (
        "DOUBLE_PENDING",
        "you cannot resign while your double waits for an answer",
    )


def test_a_backgammon_resignation_cannot_be_a_mars() -> None:
    match = side_1_on_roll(MONEY)
    error = refused(match.resign, 1, "mars", match=match)
    assert error.reason == "RESIGNATION_UNAVAILABLE"
    assert error.message == "a resignation is for a single, gammon, backgammon, not 'mars'"


# --- scoring a finished game ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loser", "result"),
    [
        ({6: 14}, GameResult.SINGLE),  # the loser has borne one off
        ({12: 5, 6: 10}, GameResult.GAMMON),  # none off, none in the winner's home board
        ({20: 1, 6: 14}, GameResult.BACKGAMMON),  # none off, one in the winner's home board
        ({25: 1, 6: 14}, GameResult.BACKGAMMON),  # none off, one on the bar
    ],
)
def test_the_last_checker_off_wins_a_single_gammon_or_backgammon_times_the_cube(
    loser: dict[int, int], result: GameResult
) -> None:
    match = bearing_off_last_two(loser, cube_value=2, cube_owner=1)
    (game,) = match.state.finished
    assert (game.winner, game.result, game.ended_by) == (0, result, "play")
    assert game.points == result.multiplier * 2
    assert match.state.score == (result.multiplier * 2, 0)
    assert match.state.game.number == 2 and match.state.game.phase is Phase.OPENING


def test_jacoby_counts_a_gammon_single_while_the_cube_is_centred() -> None:
    match = bearing_off_last_two({12: 5, 6: 10}, rules=RuleSet(jacoby=True))
    (game,) = match.state.finished
    assert (game.result, game.points) == (GameResult.GAMMON, 1)


def test_jacoby_counts_a_gammon_once_the_cube_has_been_turned() -> None:
    match = bearing_off_last_two({12: 5, 6: 10}, rules=RuleSet(jacoby=True), cube_value=2, cube_owner=1)
    assert match.state.finished[-1].points == 4


def test_without_jacoby_a_gammon_counts_double_with_the_cube_centred() -> None:
    match = bearing_off_last_two({12: 5, 6: 10})
    assert match.state.finished[-1].points == 2


def test_money_play_keeps_running_totals_over_several_games() -> None:
    match = match_with(MONEY, SIDE_0_OPENS, SIDE_1_OPENS, (5, 3))
    # Game 1: side 1 doubles, side 0 drops: 1 to side 1.
    match.roll(0)
    match.play(0, POINT_ON_7)
    match.double(1)
    match.drop(0)
    # Game 2: side 0 resigns a gammon: 2 to side 1.
    match.roll(0)
    match.play(1, POINT_ON_7)
    match.resign(0, "gammon")
    match.accept(1)
    # Game 3: side 1 resigns a backgammon: 3 to side 0.
    match.roll(1)
    match.play(0, "8/3 6/3")
    match.resign(1, "backgammon")
    match.accept(0)
    state = match.state
    assert state.score == (3, 3)
    assert [(game.winner, game.points) for game in state.finished] == [(1, 1), (1, 2), (0, 3)]
    assert [game.ended_by for game in state.finished] == ["drop", "resignation", "resignation"]
    assert state.winner is None and not state.over
    assert (state.game.number, state.game.phase) == (4, Phase.OPENING)


# --- backgammons scored as gammons ----------------------------------------------------------------

AS_GAMMON = RuleSet(backgammons="AS_GAMMON")
# Side 1's checkers when side 0 bears off its last: a backgammon on the board, and the gammon and
# single game it is not.
BACKGAMMONED = ({20: 1, 6: 14}, {25: 1, 6: 14})


@pytest.mark.parametrize("loser", BACKGAMMONED, ids=["in-the-winners-home", "on-the-bar"])
def test_as_gammon_scores_a_backgammon_as_a_gammon_twice_the_turned_cube(loser: dict[int, int]) -> None:
    match = bearing_off_last_two(loser, rules=AS_GAMMON, cube_value=4, cube_owner=1)
    (game,) = match.state.finished
    assert (game.winner, game.result, game.points, game.ended_by) == (0, GameResult.GAMMON, 8, "play")
    assert match.state.score == (8, 0)


@pytest.mark.parametrize(
    ("loser", "result", "points"),
    [({12: 5, 6: 10}, GameResult.GAMMON, 4), ({6: 14}, GameResult.SINGLE, 2)],
)
def test_as_gammon_leaves_gammons_and_single_games_as_they_are(
    loser: dict[int, int], result: GameResult, points: int
) -> None:
    match = bearing_off_last_two(loser, rules=AS_GAMMON, cube_value=2, cube_owner=0)
    assert (match.state.finished[-1].result, match.state.finished[-1].points) == (result, points)


def test_as_gammon_scores_a_backgammon_as_a_gammon_in_match_play_too() -> None:
    rules = RuleSet(match_length=7, backgammons="AS_GAMMON")
    match = bearing_off_last_two({20: 1, 6: 14}, rules=rules, cube_value=2, cube_owner=1)
    game = match.state.finished[-1]
    assert (game.result, game.points) == (GameResult.GAMMON, 4)
    assert match.state.score == (4, 0) and not match.state.over
    counted = bearing_off_last_two({20: 1, 6: 14}, rules=RuleSet(match_length=7), cube_value=2, cube_owner=1)
    assert (counted.state.finished[-1].result, counted.state.score) == (GameResult.BACKGAMMON, (6, 0))


def test_as_gammon_a_backgammon_that_reaches_the_match_length_wins_the_match_at_twice_the_cube() -> None:
    rules = RuleSet(match_length=5, backgammons="AS_GAMMON")
    match = match_with(rules, SIDE_0_OPENS, (2, 1))
    match.roll(0)
    set_score(match, (2, 3))
    set_game(
        match,
        position=Position.from_points({1: 2}, {25: 1, 6: 14}),
        turn=0,
        phase=Phase.ROLLING,
        dice=None,
        cube_value=2,
        cube_owner=1,
    )
    match.roll(0)
    match.play(0, "1/off(2)")
    assert match.state.over and match.state.winner == 0
    assert match.state.score == (6, 3)
    assert match.state.finished[-1].points == 4


def test_as_gammon_with_jacoby_a_backgammon_counts_single_while_the_cube_is_centred() -> None:
    rules = RuleSet(backgammons="AS_GAMMON", jacoby=True)
    match = bearing_off_last_two({20: 1, 6: 14}, rules=rules)
    assert (match.state.finished[-1].result, match.state.finished[-1].points) == (GameResult.GAMMON, 1)


def test_as_gammon_with_jacoby_a_backgammon_counts_twice_the_cube_once_it_is_turned() -> None:
    rules = RuleSet(backgammons="AS_GAMMON", jacoby=True)
    match = bearing_off_last_two({20: 1, 6: 14}, rules=rules, cube_value=2, cube_owner=1)
    assert (match.state.finished[-1].result, match.state.finished[-1].points) == (GameResult.GAMMON, 4)


def test_as_gammon_caps_a_backgammon_resignation_to_a_gammon_where_a_backgammon_could_be_lost() -> None:
    match = side_1_on_roll(AS_GAMMON)
    match.double(1)
    match.take(0)
    # Side 1 has a checker in side 0's home board: under COUNTED a backgammon offer would stand.
    set_game(match, position=Position.from_points({20: 1, 10: 14}, {6: 5, 4: 5, 3: 5}))
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.GAMMON)
    match.accept(0)
    (game,) = match.state.finished
    assert (game.winner, game.result, game.points, game.ended_by) == (0, GameResult.GAMMON, 4, "resignation")


def test_as_gammon_still_caps_a_resignation_to_a_single_game_once_a_checker_is_off() -> None:
    match = side_1_on_roll(AS_GAMMON)
    set_game(match, position=Position.from_points({20: 1, 6: 13}, {6: 5, 4: 5, 3: 5}))
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.SINGLE)


def test_as_gammon_with_jacoby_and_a_centred_cube_a_resignation_is_of_a_single_game() -> None:
    match = side_1_on_roll(RuleSet(backgammons="AS_GAMMON", jacoby=True))
    match.resign(1, "backgammon")
    assert match.state.game.resignation == (1, GameResult.SINGLE)


def test_the_rule_set_says_what_a_game_can_be_lost_by() -> None:
    assert RuleSet().resign_levels == (GameResult.SINGLE, GameResult.GAMMON, GameResult.BACKGAMMON)
    assert AS_GAMMON.resign_levels == (GameResult.SINGLE, GameResult.GAMMON)
    assert RuleSet(variant="long-nardi").resign_levels == (GameResult.SINGLE, GameResult.MARS)


def test_a_rule_set_counts_a_finished_position_by_its_backgammons_option() -> None:
    position = Position.from_points({}, {20: 1, 6: 14})  # the player has borne off all 15
    assert RuleSet().result(position) is GameResult.BACKGAMMON
    assert AS_GAMMON.result(position) is GameResult.GAMMON
    assert AS_GAMMON.result(RuleSet().rules.start_position()) is None


# --- who opens later games ------------------------------------------------------------------------


def test_with_winner_opens_later_games_start_with_the_previous_winner_rolling_both_dice() -> None:
    rules = RuleSet(match_length=3, match_openings="WINNER_OPENS")
    match = match_with(rules, SIDE_0_OPENS, (4, 4))
    match.roll(0)
    match.play(0, POINT_ON_7)
    match.double(1)
    match.drop(0)  # side 1 wins game 1
    game = match.state.game
    assert (game.number, game.phase, game.turn, game.dice) == (2, Phase.ROLLING, 1, None)
    assert refused(match.roll, 0, match=match).reason == "NOT_YOUR_TURN"
    assert match.roll(1) == [Rolled(1, (4, 4))]  # both dice, and a double may open
    assert sum(isinstance(event, OpeningThrown) for event in match.events) == 1
    match.play(1, "24/20(2) 13/9(2)")


def test_every_game_starts_with_the_opening_throw_by_default() -> None:
    rules = RuleSet(match_length=3)
    match = match_with(rules, SIDE_0_OPENS, SIDE_0_OPENS)
    match.roll(0)
    match.play(0, POINT_ON_7)
    match.double(1)
    match.drop(0)
    assert match.state.game.phase is Phase.OPENING
    match.roll(1)
    assert match.state.game.turn == 0


def test_long_nardi_with_winner_opens_lets_the_previous_winner_start() -> None:
    rules = RuleSet(variant="long-nardi", match_length=3, match_openings="WINNER_OPENS")
    match = match_with(rules, (2, 5), (6, 5))
    match.roll(0)
    assert (match.state.game.turn, match.state.game.phase) == (1, Phase.ROLLING)
    match.resign(0, "single")
    match.accept(1)
    game = match.state.game
    assert (game.number, game.turn, game.phase) == (2, 1, Phase.ROLLING)
    match.roll(1)
    assert match.state.game.dice == (6, 5)


# --- forced plays played by the engine ----------------------------------------------------------


def test_auto_play_forced_plays_a_pass_for_the_side_that_cannot_enter() -> None:
    match = side_1_on_roll(RuleSet(auto_play_forced=True), (5, 3))
    # Side 1 on the bar against side 0's closed board.
    closed = {point: 2 for point in range(1, 7)}
    set_game(match, position=Position.from_points({25: 1, 6: 14}, closed | {8: 3}))
    events = match.roll(1)
    assert events == [Rolled(1, (5, 3)), Played(1, (), "", forced=True)]
    game = match.state.game
    assert (game.turn, game.phase) == (0, Phase.ROLLING)


def test_auto_play_forced_plays_the_only_legal_play() -> None:
    match = side_1_on_roll(RuleSet(auto_play_forced=True), (6, 1))
    # Side 1 has one checker left, on the bar; only side 0's 6-point is open to it.
    five_closed = {point: 2 for point in range(1, 6)}
    set_game(match, position=Position.from_points({25: 1}, five_closed | {8: 5}))
    events = match.roll(1)
    entering = (Step(BAR, 19, 6, False), Step(19, 18, 1, False))
    assert events == [Rolled(1, (6, 1)), Played(1, entering, "bar/18", forced=True)]
    assert match.state.game.turn == 0


def test_auto_play_forced_leaves_a_choice_to_the_player() -> None:
    match = side_1_on_roll(RuleSet(auto_play_forced=True), (3, 1))
    assert match.roll(1) == [Rolled(1, (3, 1))]
    assert match.state.game.phase is Phase.PLAYING


def test_without_auto_play_a_pass_is_played_by_the_player() -> None:
    match = side_1_on_roll(MONEY, (5, 3))
    closed = {point: 2 for point in range(1, 7)}
    set_game(match, position=Position.from_points({25: 1, 6: 14}, closed | {8: 3}))
    match.roll(1)
    assert [play.notation() for play in match.legal_plays()] == [""]
    match.play(1, "")
    assert match.events[-1] == Played(1, (), "")


# --- long nardi -----------------------------------------------------------------------------------


NARDI = RuleSet(variant="long-nardi", match_length=5)


def test_long_nardi_opening_winner_throws_both_dice_and_there_is_no_cube() -> None:
    match = match_with(NARDI, (3, 3), (2, 6), (6, 6))
    match.roll(0)
    game = match.state.game
    assert (game.turn, game.phase, game.dice) == (1, Phase.ROLLING, None)
    assert Action.DOUBLE not in match.legal_actions(1)
    error = refused(match.double, 1, match=match)
    assert (error.reason, error.message) == (
        "CUBE_UNAVAILABLE",
        "you cannot double: this game is played without the cube",
    )
    match.roll(1)
    match.play(1, "24/18(2)")  # 6-6 on the first turn lets two checkers leave the head


def test_a_long_nardi_game_won_before_the_loser_bears_off_is_a_mars_worth_two() -> None:
    match = match_with(NARDI, (5, 2), (2, 1))
    match.roll(0)
    set_game(match, position=Position.from_points({1: 1}, {24: 10, 20: 5}))
    match.roll(0)
    match.play(0, "1/off")
    (game,) = match.state.finished
    assert (game.winner, game.result, game.points, game.ended_by) == (0, GameResult.MARS, 2, "play")
    assert match.state.score == (2, 0)


def test_a_long_nardi_game_won_after_the_loser_bears_off_one_is_a_single_point() -> None:
    match = match_with(NARDI, (5, 2), (2, 1))
    match.roll(0)
    set_game(match, position=Position.from_points({1: 1}, {6: 14}))
    match.roll(0)
    match.play(0, "1/off")
    assert (match.state.finished[-1].result, match.state.finished[-1].points) == (GameResult.SINGLE, 1)


def test_long_nardi_resignations_are_a_single_or_a_mars_capped_once_a_checker_is_off() -> None:
    match = match_with(NARDI, (5, 2), (5, 2))
    match.roll(0)
    error = refused(match.resign, 1, "gammon", match=match)
    assert (error.reason, error.message) == (
        "RESIGNATION_UNAVAILABLE",
        "a resignation is for a single, mars, not 'gammon'",
    )
    match.resign(1, "mars")
    assert match.state.game.resignation == (1, GameResult.MARS)
    match.accept(0)
    assert match.state.score == (2, 0)

    match.roll(0)
    # Side 0 is on turn; side 1 has borne off a checker and can lose only a single game.
    set_game(match, position=Position.from_points({6: 15}, {6: 14}))
    match.resign(1, "mars")
    assert match.state.game.resignation == (1, GameResult.SINGLE)
    match.accept(0)
    assert match.state.score == (3, 0)


# --- seeded bots ------------------------------------------------------------------------------------

# How often a bot picks each action when it may take it (per decision).
WEIGHTS = {
    Action.ROLL: 40,
    Action.PLAY: 40,
    Action.DOUBLE: 3,
    Action.TAKE: 6,
    Action.DROP: 2,
    Action.BEAVER: 1,
    Action.RESIGN: 0.15,
    Action.ACCEPT: 1,
    Action.REJECT: 1,
}
SIDES: tuple[Side, Side] = (0, 1)
LEVELS = {"backgammon": ("single", "gammon", "backgammon"), "long-nardi": ("single", "mars")}


def bot_action(match: Match, rng: random.Random) -> None:
    """One legal action by one side, chosen at random (weighted) among everything either may do."""
    choices = [(side, action) for side in SIDES for action in match.legal_actions(side)]
    assert choices, "someone can always act while the match goes on"
    side, action = rng.choices(choices, weights=[WEIGHTS[action] for _, action in choices])[0]
    if action is Action.ROLL:
        match.roll(side)
    elif action is Action.PLAY:
        match.play(side, rng.choice(match.legal_plays()))
    elif action is Action.RESIGN:
        match.resign(side, rng.choice(LEVELS[match.rules.variant]))  # type: ignore[arg-type]
    else:
        getattr(match, action.value)(side)


def play_out(
    match: Match,
    rng: random.Random,
    *,
    games: int | None = None,
    watch: Callable[[Match], None] | None = None,
) -> None:
    """Bots play until the match ends (or ``games`` games have finished in money play)."""
    for _ in range(200_000):
        if match.state.over or (games is not None and len(match.state.finished) >= games):
            return
        if watch is not None:
            watch(match)
        bot_action(match, rng)
    raise AssertionError("the bots did not finish the match")


# The options that apply to a match, in every combination; the cube setting takes turns.
BACKGAMMON_MATCHES = [
    RuleSet(
        match_length=7,
        crawford=crawford,
        opening=opening,
        match_openings=openings,
        auto_play_forced=auto,
        **cube,
    )
    for number, (crawford, opening, openings, auto) in enumerate(
        itertools.product(
            (True, False),
            ("PLAY_OPENING_DICE", "WINNER_ROLLS_AGAIN"),
            ("EVERY_GAME", "WINNER_OPENS"),
            (False, True),
        )
    )
    for cube in [({}, {"cube_limit": 4}, {"cube_limit": 0}, {"cube": False})[number % 4]]
]
NARDI_MATCHES = [
    RuleSet(variant="long-nardi", match_length=5, match_openings=openings, auto_play_forced=auto)
    for openings, auto in itertools.product(("EVERY_GAME", "WINNER_OPENS"), (False, True))
]
# For the "done when" check: the defaults, and each match option away from its default at least once.
DONE_WHEN_MATCHES = [
    RuleSet(match_length=7),
    RuleSet(match_length=7, crawford=False),
    RuleSet(match_length=7, opening="WINNER_ROLLS_AGAIN", match_openings="WINNER_OPENS"),
    RuleSet(match_length=7, cube_limit=4, auto_play_forced=True),
    RuleSet(match_length=7, cube=False, match_openings="WINNER_OPENS", auto_play_forced=True),
    RuleSet(match_length=7, backgammons="AS_GAMMON"),
    RuleSet(variant="long-nardi", match_length=5),
    RuleSet(variant="long-nardi", match_length=5, match_openings="WINNER_OPENS", auto_play_forced=True),
]
# The options that apply to money play, in every combination.
MONEY_SESSIONS = [
    RuleSet(
        jacoby=jacoby,
        beavers=beavers,
        automatic_doubles=automatic,
        automatic_doubles_limit=limit,
        opening=opening,
        auto_play_forced=auto,
    )
    for jacoby, beavers, (automatic, limit), opening, auto in itertools.product(
        (False, True),
        (False, True),
        ((False, 1), (True, 1), (True, 3)),
        ("PLAY_OPENING_DICE", "WINNER_ROLLS_AGAIN"),
        (False, True),
    )
] + [
    RuleSet(cube=False),
    RuleSet(cube_limit=8, beavers=True),
    RuleSet(backgammons="AS_GAMMON"),
    RuleSet(backgammons="AS_GAMMON", jacoby=True, beavers=True),
    RuleSet(variant="long-nardi"),
    RuleSet(variant="long-nardi", auto_play_forced=True),
]


def rule_id(rules: RuleSet) -> str:
    defaults = RuleSet(variant=rules.variant, match_length=rules.match_length)
    changed = [
        f"{name}={getattr(rules, name)}"
        for name in (
            "cube",
            "cube_limit",
            "crawford",
            "jacoby",
            "beavers",
            "automatic_doubles",
            "automatic_doubles_limit",
            "opening",
            "match_openings",
            "auto_play_forced",
            "backgammons",
        )
        if getattr(rules, name) != getattr(defaults, name)
    ]
    return f"{rules.variant}-{rules.match_length or 'money'}" + ("-" + ",".join(changed) if changed else "")


def crawford_games(rules: RuleSet, points: list[tuple[int, int]]) -> list[bool]:
    """Which games should be Crawford games, from each game's points (winner, points)."""
    flags = []
    score = [0, 0]
    reached = False
    for winner, won in points:
        crawford = rules.crawford and not reached and max(score) == rules.match_length - 1
        reached = reached or crawford
        flags.append(crawford)
        score[winner] += won
    return flags


@pytest.mark.parametrize("rules", DONE_WHEN_MATCHES, ids=rule_id)
def test_done_when_two_seeded_bots_finish_a_match_with_a_winner_at_the_length(rules: RuleSet) -> None:
    match = Match(rules, dice=SeededDice(f"done when {rule_id(rules)}"))
    crawford_seen: dict[int, bool] = {}
    crawford_refusals = 0

    def watch(match: Match) -> None:
        nonlocal crawford_refusals
        game = match.state.game
        crawford_seen[game.number] = game.crawford
        if game.crawford and game.phase is Phase.ROLLING and rules.uses_cube:
            error = refused(match.double, game.turn, match=match)
            assert error.message == "you cannot double: the Crawford game"
            crawford_refusals += 1
        if rules.variant == "long-nardi" and game.phase is Phase.ROLLING:
            assert refused(match.double, game.turn, match=match).reason == "CUBE_UNAVAILABLE"

    play_out(match, random.Random(rule_id(rules)), watch=watch)
    state = match.state
    assert state.over and state.winner is not None
    assert state.score[state.winner] >= rules.match_length
    assert state.score[other(state.winner)] < rules.match_length
    assert sum(state.score) == sum(game.points for game in state.finished)
    assert state.finished[-1].winner == state.winner
    if rules.uses_cube:
        expected = crawford_games(rules, [(game.winner, game.points) for game in state.finished])
        assert [crawford_seen[game.number] for game in state.finished] == expected
        assert crawford_refusals > 0 or not any(expected)
    if rules.variant == "long-nardi":
        assert all(
            game.cube_value == 1 and game.result in (GameResult.SINGLE, GameResult.MARS)
            for game in state.finished
        )
    assert all(
        game.result in rules.resign_levels and game.points <= 2 * game.cube_value
        for game in state.finished
        if rules.backgammons == "AS_GAMMON"
    )
    if not rules.uses_cube:
        assert not any(isinstance(event, Doubled) for event in match.events)
    if rules.auto_play_forced:
        assert any(isinstance(event, Played) and event.forced for event in match.events)
    else:
        assert not any(isinstance(event, Played) and event.forced for event in match.events)


def crawford_watch(
    rules: RuleSet, doubles: dict[int, int], crawford_seen: dict[int, bool]
) -> Callable[[Match], None]:
    """A watch for play_out that counts the doubles of each game and checks its Crawford flag."""

    def watch(match: Match) -> None:
        state, game = match.state, match.state.game
        if game.number not in crawford_seen:
            # The first game after a side first reaches 4 of 5, and only that one.
            first_at_4 = max(state.score) == rules.match_length - 1 and not any(crawford_seen.values())
            assert game.crawford == first_at_4
            crawford_seen[game.number] = game.crawford
            assert state.crawford_played == any(crawford_seen.values())
        if game.phase is Phase.ROLLING:
            refusal = cube_refusal_reason(match, game.turn)
            if game.crawford:
                assert refusal == "you cannot double: the Crawford game"
            elif state.score[game.turn] + game.cube_value >= rules.match_length:
                assert refusal == "you cannot double: the cube's value already gives you the match"
        if game.phase is Phase.DOUBLED:  # the bots' next action answers it
            doubles[game.number] = doubles.get(game.number, 0) + 1

    return watch


def test_seeded_bots_play_a_five_point_match_through_a_crawford_game_to_a_post_crawford_double() -> None:
    rules = RuleSet(match_length=5)
    for seed in range(30):
        match = Match(rules, dice=SeededDice(f"crawford {seed}"))
        doubles: dict[int, int] = {}  # game number: doubles made in it
        crawford_seen: dict[int, bool] = {}  # game number: its Crawford flag
        play_out(match, random.Random(seed), watch=crawford_watch(rules, doubles, crawford_seen))
        assert match.state.over
        crawford = [number for number, flag in crawford_seen.items() if flag]
        if crawford and any(number > crawford[0] for number in doubles):
            break
    else:
        pytest.fail("no seed gave a Crawford game followed by a double")
    (crawford_game,) = crawford
    assert crawford_game not in doubles
    assert match.state.finished[crawford_game - 1].cube_value == 1
    assert max(score for score in match.state.score) >= rules.match_length


def cube_refusal_reason(match: Match, side: Side) -> str | None:
    """Why ``side`` may not double now (``None`` if it may), as a refused double reports it."""
    if Action.DOUBLE in match.legal_actions(side):
        return None
    return refused(match.double, side, match=match).message


def try_every_action(match: Match, side: Side, action: Action) -> None:
    if action is Action.PLAY:
        match.play(side, "")
    elif action is Action.RESIGN:
        match.resign(side, "single")
    else:
        getattr(match, action.value)(side)


LEFT_OUT_CHECKS = [
    RuleSet(beavers=True, jacoby=True),
    RuleSet(match_length=3),
    RuleSet(variant="long-nardi", match_length=3),
]


@pytest.mark.parametrize("rules", LEFT_OUT_CHECKS, ids=rule_id)
def test_every_action_left_out_of_the_legal_actions_is_refused_and_changes_nothing(rules: RuleSet) -> None:
    match = Match(rules, dice=SeededDice(f"left out {rule_id(rules)}"))

    def watch(match: Match) -> None:
        for side in SIDES:
            allowed = match.legal_actions(side)
            for action in Action:
                if action not in allowed:
                    refused(try_every_action, match, side, action, match=match)

    play_out(match, random.Random(rule_id(rules)), games=3, watch=watch)


# --- verifiable dice -----------------------------------------------------------------------------


def throws_of(events: list[Event]) -> list[Dice]:
    """Every throw the events record, in order (each pair of an opening throw is one throw)."""
    throws: list[Dice] = []
    for event in events:
        if isinstance(event, OpeningThrown):
            throws.extend(event.throws)
        elif isinstance(event, Rolled):
            throws.append(event.dice)
    return throws


def test_verifiable_dice_are_committed_before_each_game_and_revealed_after_it() -> None:
    rules = RuleSet(match_length=3)
    match = Match(rules, verifiable=True)
    assert isinstance(match.events[0], DiceCommitted)
    play_out(match, random.Random(11))
    assert match.state.over

    commitments = [event for event in match.events if isinstance(event, DiceCommitted)]
    reveals = [event for event in match.events if isinstance(event, SeedRevealed)]
    games = len(match.state.finished)
    assert [event.game for event in commitments] == list(range(1, games + 1))
    assert [event.game for event in reveals] == list(range(1, games + 1))
    assert len({event.commitment for event in commitments}) == games

    starts = [index for index, event in enumerate(match.events) if isinstance(event, DiceCommitted)]
    ends = [index for index, event in enumerate(match.events) if isinstance(event, SeedRevealed)]
    throws_before = 0
    for commitment, reveal, start, end in zip(commitments, reveals, starts, ends, strict=True):
        assert start < end
        game_throws = throws_of(match.events[start:end])
        assert game_throws
        assert commitment.first_throw == throws_before
        seed = bytes.fromhex(reveal.seed)
        # Each game has its own seed; its throws are numbered from 0 within the game.
        assert verify_throws(seed, commitment.commitment, game_throws)
        assert not any(
            verify_throws(seed, other_game.commitment, game_throws)
            for other_game in commitments
            if other_game is not commitment
        )
        throws_before += len(game_throws)
    assert throws_before == match.state.throws


def test_the_commitment_open_after_any_event_is_read_back_from_that_event() -> None:
    match = Match(RuleSet(match_length=3), verifiable=True)
    play_out(match, random.Random(12))
    events = match.events
    for end in range(len(events) + 1):
        assert open_commitment(events, end) == open_commitment(events[:end])
    kinds = {type(open_commitment(events, end)) for end in range(len(events) + 1)}
    assert kinds == {DiceCommitted, type(None)}


def test_a_verification_fails_for_a_changed_throw_or_a_wrong_seed() -> None:
    dice = SeededDice("the seed")
    throws = [dice.roll(index) for index in range(6)]
    assert verify_throws(dice.seed, dice.commitment, throws)
    assert verify_throws(dice.seed, dice.commitment, throws[2:], first_index=2)
    changed = [*throws[:-1], (throws[-1][0] % 6 + 1, throws[-1][1])]
    assert not verify_throws(dice.seed, dice.commitment, changed)
    assert not verify_throws(b"another seed", dice.commitment, throws)
    assert derive_throw(dice.seed, 3) == throws[3]


# --- replay and the log -------------------------------------------------------------------------


def assert_replays(match: Match) -> None:
    replayed = Match.replay(match.rules, match.events)
    assert replayed.state == match.state
    assert replayed.events == match.events
    stored = json.loads(json.dumps([event.to_dict() for event in match.events]))
    read_back = [event_from_dict(data) for data in stored]
    assert read_back == match.events
    assert Match.replay(match.rules, read_back).state == match.state


@pytest.mark.parametrize("rules", BACKGAMMON_MATCHES + NARDI_MATCHES, ids=rule_id)
def test_a_bot_match_replays_from_its_log_to_the_same_state(rules: RuleSet) -> None:
    match = Match(rules, dice=SeededDice(f"replay {rule_id(rules)}"), verifiable=rules.match_length == 7)
    play_out(match, random.Random(f"replay {rule_id(rules)}"))
    assert match.state.over
    assert_replays(match)


@pytest.mark.parametrize("rules", MONEY_SESSIONS, ids=rule_id)
def test_a_bot_money_session_replays_from_its_log_to_the_same_state(rules: RuleSet) -> None:
    match = Match(rules, dice=SeededDice(f"money {rule_id(rules)}"))
    play_out(match, random.Random(f"money {rule_id(rules)}"), games=4)
    assert len(match.state.finished) == 4 and not match.state.over
    assert sum(match.state.score) == sum(game.points for game in match.state.finished)
    assert all(game.result in rules.resign_levels for game in match.state.finished)
    assert_replays(match)


def test_a_replay_can_go_on_with_new_dice() -> None:
    match = side_1_on_roll(MONEY, (3, 1))
    replayed = Match.replay(MONEY, match.events, dice=ScriptedDice(SIDE_0_OPENS, (3, 1)))
    replayed.roll(1)
    replayed.play(1, "8/5 6/5")
    assert replayed.state.game.turn == 0


def test_a_log_with_an_action_the_rules_forbid_does_not_replay() -> None:
    match = side_1_on_roll(MONEY)
    with pytest.raises(ActionError) as refusal:
        Match.replay(MONEY, [*match.events, Played(0, (Step(13, 7, 6, False),), "13/7")])
    assert refusal.value.reason == "NOT_YOUR_TURN"


@pytest.mark.parametrize(
    "rules",
    [
        RuleSet(),
        RuleSet(variant="long-nardi", match_length=3),
        RuleSet(variant="plakoto", match_length=5),  # its games here end in draws: no winner
    ],
)
def test_a_stored_log_applied_as_stored_reaches_the_states_the_rules_give_without_reading_a_play_again(
    rules: RuleSet, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tavli.engine import game
    from tests.games import bot_match

    logged = bot_match(rules, seed=11, events=400).events
    checked = [game.new_match(rules)]
    for event in logged:
        checked.append(game.apply(checked[-1], event))

    def read_again(*arguments: Any) -> Any:
        raise AssertionError("a stored play was read against the legal plays again")

    monkeypatch.setattr(game, "read_play", read_again)
    state = game.new_match(rules)
    for event, expected in zip(logged, checked[1:]):
        state = game.apply_stored(state, event)
        assert state == expected
