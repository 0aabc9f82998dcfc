"""Plakoto games and matches: the rule set's options, games ended by the mother rule and by a
draw, what the record says ended them, and who opens the next game."""

from __future__ import annotations

import pytest

from tavli.engine import GameResult, Position
from tavli.engine.game import ActionError, FinishedGame, Phase
from tavli.engine.match import Match
from tavli.engine.position import Pins
from tavli.engine.rules import InvalidRuleSetError, RuleSet
from tavli.engine.snapshot import snapshot_of, state_of_snapshot
from tavli.engine.variants import PLAKOTO
from tests.engine.test_game import match_with, refused, set_game

# Side 0 on roll with 2-1: 3/1 pins the opponent's mother; with side 0's own mother pinned, a draw.
MOTHER_TO_PIN = Position.from_points({10: 13, 3: 1, 2: 1}, {24: 1, 10: 14})
BOTH_MOTHERS = Position.with_pins(
    Position.from_points({24: 1, 10: 13, 3: 1}, {24: 1, 10: 12, 1: 2}).player,
    Position.from_points({24: 1, 10: 13, 3: 1}, {24: 1, 10: 12, 1: 2}).opponent,
    Pins((24,), ()),
)


def side_0_plays(rules: RuleSet, position: Position, dice: tuple[int, int], play: str) -> Match:
    match = match_with(rules, dice)
    set_game(match, position=position, turn=0, phase=Phase.ROLLING, dice=None)
    match.roll(0)
    match.play(0, play)
    return match


def test_plakoto_has_no_cube_the_winner_rolls_again_and_the_winner_opens_later_games_of_a_match() -> None:
    money = RuleSet(variant="plakoto")
    assert (money.cube, money.opening, money.match_openings) == (False, "WINNER_ROLLS_AGAIN", "EVERY_GAME")
    assert RuleSet(variant="plakoto", match_length=5).match_openings == "WINNER_OPENS"
    assert (
        RuleSet(variant="plakoto", match_length=5, match_openings="EVERY_GAME").match_openings == "EVERY_GAME"
    )
    assert RuleSet(variant="backgammon", match_length=5).match_openings == "EVERY_GAME"
    assert money.resign_levels == (GameResult.SINGLE, GameResult.GAMMON)
    assert (money.pinned_blocks_bear_off, money.mother_exception, money.mother_value) == (True, True, 2)


def test_by_default_the_opening_winner_rolls_again_and_the_option_plays_the_opening_dice() -> None:
    match = match_with(RuleSet(variant="plakoto"), (4, 1), (6, 6))
    match.roll(1)
    game = match.state.game
    assert (game.turn, game.phase, game.dice) == (0, Phase.ROLLING, None)
    match.roll(0)
    assert match.state.game.dice == (6, 6)  # thrown afresh: a double is possible
    match.play(0, "24/18(4)")
    match = match_with(RuleSet(variant="plakoto", opening="PLAY_OPENING_DICE"), (4, 1))
    match.roll(1)
    game = match.state.game
    assert (game.turn, game.phase, game.dice) == (0, Phase.PLAYING, (4, 1))


def test_the_options_that_move_checkers_choose_the_rules_instance() -> None:
    assert RuleSet(variant="plakoto").rules is PLAKOTO
    lenient = RuleSet(variant="plakoto", pinned_blocks_bear_off=False, mother_exception=False)
    assert (
        lenient.rules
        is RuleSet(variant="plakoto", pinned_blocks_bear_off=False, mother_exception=False).rules
    )
    assert not lenient.rules.pinned_blocks_bear_off and not lenient.rules.mother_exception  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        (
            {"variant": "backgammon", "mother_value": 3},
            "the mother's value is a rule of Plakoto; backgammon has no pins",
        ),
        (
            {"variant": "long-nardi", "pinned_blocks_bear_off": False},
            "a pinned checker stopping the bear-off is not a rule of long nardi",
        ),
        (
            {"variant": "backgammon", "mother_exception": False},
            "the mother exception is not a rule of backgammon",
        ),
        ({"variant": "plakoto", "mother_value": 4}, "a mother loss is worth 2 or 3 points, not 4"),
        ({"variant": "plakoto", "cube": True}, "plakoto is played without a cube"),
    ],
)
def test_options_that_do_not_apply_are_refused_in_words(options: dict[str, object], refusal: str) -> None:
    with pytest.raises(InvalidRuleSetError, match=refusal):
        RuleSet(**options)  # type: ignore[arg-type]


def test_a_pinned_mother_ends_the_game_worth_the_mother_value_and_its_winner_opens_the_next() -> None:
    for value in (2, 3):
        match = side_0_plays(
            RuleSet(variant="plakoto", match_length=7, mother_value=value), MOTHER_TO_PIN, (2, 1), "3/1"
        )
        assert match.state.finished == (FinishedGame(1, 0, GameResult.MOTHER, value, 1, "mother"),)
        assert match.state.score == (value, 0)
        assert (match.state.game.number, match.state.game.turn, match.state.game.phase) == (
            2,
            0,
            Phase.ROLLING,
        )


def test_a_mother_loss_can_win_the_match() -> None:
    match = side_0_plays(
        RuleSet(variant="plakoto", match_length=3, mother_value=3), MOTHER_TO_PIN, (2, 1), "2/1"
    )
    assert match.state.winner == 0 and match.state.game.phase is Phase.MATCH_OVER


def test_a_draw_scores_nothing_and_the_next_game_starts_with_the_opening_throw() -> None:
    match = side_0_plays(RuleSet(variant="plakoto", match_length=5), BOTH_MOTHERS, (2, 1), "3/1")
    assert match.state.finished == (FinishedGame(1, None, GameResult.DRAW, 0, 1, "draw"),)
    assert match.state.score == (0, 0) and match.state.winner is None
    assert (match.state.game.number, match.state.game.phase) == (2, Phase.OPENING)
    snapshot = snapshot_of(match.state)
    assert snapshot is not None and state_of_snapshot(match.rules, snapshot) == match.state


def test_a_play_may_not_go_on_after_the_mother_ends_the_game() -> None:
    match = match_with(RuleSet(variant="plakoto"), (2, 1))
    set_game(match, position=MOTHER_TO_PIN, turn=0, phase=Phase.ROLLING, dice=None)
    match.roll(0)
    error = refused(match.play, 0, "3/1 2/1", match=match)
    assert error.reason == "ILLEGAL_PLAY" and "the game ended with your last step" in error.message


def test_bearing_off_the_last_checker_wins_a_single_game_or_a_gammon() -> None:
    position = Position.from_points({1: 1}, {13: 15})
    match = side_0_plays(RuleSet(variant="plakoto", match_length=5), position, (2, 1), "1/off")
    assert match.state.finished == (FinishedGame(1, 0, GameResult.GAMMON, 2, 1, "play"),)


def test_a_resignation_is_of_a_single_game_or_a_gammon() -> None:
    match = match_with(RuleSet(variant="plakoto"), (2, 1))
    set_game(match, position=MOTHER_TO_PIN, turn=0, phase=Phase.ROLLING, dice=None)
    error = refused(match.resign, 0, "backgammon", match=match)
    assert "a resignation is for a single, gammon" in error.message
    match.resign(0, "gammon")
    match.accept(1)
    assert match.state.finished == (FinishedGame(1, 1, GameResult.GAMMON, 2, 1, "resignation"),)
    assert isinstance(error, ActionError)
