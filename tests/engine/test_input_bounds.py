"""Bounds on what the engine reads from outside: written plays, XGIDs and the cube's value.

Whatever a client writes, the engine answers with one of its own errors, in words, and quickly: no
repeat count or number so long that converting it fails, no text so long that reading it costs,
no cube so high that the API's 32-bit fields cannot carry it or the points it scores.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings, strategies as st

from tavli.engine import BACKGAMMON, GameOverError, InvalidPlayError, InvalidPositionError, Position
from tavli.engine.dice import SeededDice
from tavli.engine.errors import InvalidMatchIdError
from tavli.engine.game import Action, ActionError, Phase, other
from tavli.engine.match import Match
from tavli.engine.notation import MAX_NOTATION_LENGTH, parse_moves
from tavli.engine.play import Dice
from tavli.engine.rules import CUBE_CEILING, InvalidRuleSetError, RuleSet
from tavli.engine.xgid import MAX_XGID_LENGTH, Xgid, parse_xgid

START = BACKGAMMON.start_position()
UINT32_MAX = 2**32 - 1


# --- written plays -----------------------------------------------------------------------------


def test_a_move_repeats_one_to_four_times() -> None:
    assert BACKGAMMON.parse_play(START, (6, 6), "13/7(2) 24/18(2)").notation() == "24/18(2) 13/7(2)"
    assert BACKGAMMON.parse_play(START, (6, 6), "13/7(02) 24/18(2)").notation() == "24/18(2) 13/7(2)"
    for count in ("0", "5", "10", "1" * 100):
        with pytest.raises(InvalidPlayError, match=rf"a move repeats one to four times, not {count}$"):
            BACKGAMMON.parse_play(START, (6, 6), f"13/7({count})")


def test_a_repeat_count_of_five_thousand_digits_is_an_unreadable_play_not_a_crash() -> None:
    text = "24/23(" + "1" * 5000 + ")"
    words = "cannot read a play of 5,007 characters: a play is written in at most 128"
    with pytest.raises(InvalidPlayError, match=words):
        BACKGAMMON.parse_play(START, (1, 1), text)
    with pytest.raises(InvalidPlayError, match="at most 128"):
        parse_moves(text)


def test_the_same_count_refused_through_a_match_is_an_invalid_play_and_changes_nothing() -> None:
    match = Match(RuleSet(), dice=SeededDice(b"bounds"))
    match.roll(0)
    side = match.state.game.turn
    state, logged = match.state, len(match.events)
    with pytest.raises(ActionError) as refused:
        match.play(side, "24/23(" + "1" * 5000 + ")")
    assert refused.value.reason == "INVALID_PLAY"
    assert "5,007 characters" in refused.value.message
    assert (match.state, len(match.events)) == (state, logged)


def test_a_legal_play_padded_to_megabytes_is_refused_by_its_length() -> None:
    padded = "8/5 6/5" + " " * 3_500_000
    with pytest.raises(InvalidPlayError, match="cannot read a play of 3,500,007 characters"):
        BACKGAMMON.parse_play(START, (3, 1), padded)


def test_a_play_padded_up_to_the_bound_is_read_and_one_character_more_is_not() -> None:
    at_the_bound = "8/5 6/5".ljust(MAX_NOTATION_LENGTH)
    assert BACKGAMMON.parse_play(START, (3, 1), at_the_bound).notation() == "8/5 6/5"
    with pytest.raises(InvalidPlayError, match="129 characters"):
        BACKGAMMON.parse_play(START, (3, 1), at_the_bound + " ")


def test_overlong_text_is_refused_before_any_other_work() -> None:
    # With both checks due, the length is the one met first: neither the position (a game already
    # won) nor the dice are looked at.
    finished = Position.from_points({}, {6: 15})
    with pytest.raises(GameOverError):
        BACKGAMMON.parse_play(finished, (3, 1), "8/5 6/5")
    with pytest.raises(InvalidPlayError, match="characters"):
        BACKGAMMON.parse_play(finished, (3, 1), "8/5 6/5" + " " * 200)
    with pytest.raises(InvalidPlayError, match="characters"):
        BACKGAMMON.parse_play(START, (7, 9), "x" * 200)


def test_point_numbers_have_at_most_two_digits() -> None:
    with pytest.raises(InvalidPlayError, match="'100' is not a point"):
        parse_moves("100/99")
    with pytest.raises(InvalidPlayError, match="there is no point 26"):
        parse_moves("26/20")
    with pytest.raises(InvalidPlayError, match="is not a point"):
        parse_moves("9" * 100 + "/1")


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789/()*, barof", max_size=MAX_NOTATION_LENGTH + 40))
def test_any_text_is_read_as_moves_on_real_points_or_refused_as_unreadable(text: str) -> None:
    try:
        moves = parse_moves(text)
    except InvalidPlayError as error:
        assert str(error).startswith("cannot read")
        return
    assert len(text) <= MAX_NOTATION_LENGTH
    for move in moves:
        assert all(0 <= point <= 25 for point in move.points)
        assert list(move.points) == sorted(move.points, reverse=True)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["13/7", "bar/22", "6/off", "24/18*", "8/5/3"]), st.from_regex(r"\A[0-9]{1,300}\Z"))
def test_any_repeat_count_is_read_only_from_one_to_four(move: str, count: str) -> None:
    text = f"{move}({count})"
    if len(text) > MAX_NOTATION_LENGTH:
        with pytest.raises(InvalidPlayError, match="characters: a play is written in at most 128"):
            parse_moves(text)
    elif count.lstrip("0") in ("1", "2", "3", "4"):
        assert len(parse_moves(text)) == int(count)
    else:
        with pytest.raises(InvalidPlayError, match=f"a move repeats one to four times, not {count}$"):
            parse_moves(text)


# --- XGIDs -----------------------------------------------------------------------------------------

# XGID fields after the board, in order: cube, cube owner, turn, dice, bottom score, top score,
# rules, match length, max cube.
BOARD = "-b----E-C---eE---c-e----B-"
FIELDS = ["0", "0", "1", "52", "0", "0", "0", "7", "10"]
NUMERIC = {
    "cube": 0,
    "cube owner": 1,
    "turn": 2,
    "bottom score": 4,
    "top score": 5,
    "Crawford/Jacoby": 6,
    "match length": 7,
    "max cube": 8,
}


def xgid_with(index: int, value: str) -> str:
    fields = list(FIELDS)
    fields[index] = value
    return "XGID=" + ":".join([BOARD, *fields])


def test_the_xgid_used_here_is_valid() -> None:
    xgid = parse_xgid(xgid_with(0, "0"))
    assert (xgid.match_length, xgid.score, xgid.cube_value, xgid.max_cube) == (7, (0, 0), 1, 1024)


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_a_numeric_xgid_field_of_five_thousand_digits_is_refused_by_the_xgid_length(name: str) -> None:
    text = xgid_with(NUMERIC[name], "1" * 5000)
    words = f"not an XGID: {len(text):,} characters, and an XGID has at most 128"
    with pytest.raises(InvalidMatchIdError, match=words):
        parse_xgid(text)


def test_an_xgid_up_to_its_bound_is_read_and_one_character_more_is_not() -> None:
    short = xgid_with(NUMERIC["match length"], "7")
    padded = xgid_with(NUMERIC["match length"], "7".rjust(MAX_XGID_LENGTH - len(short) + 1, "0"))
    assert len(padded) == MAX_XGID_LENGTH
    assert parse_xgid(padded).match_length == 7
    with pytest.raises(InvalidMatchIdError, match="129 characters, and an XGID has at most 128"):
        parse_xgid(xgid_with(NUMERIC["match length"], "0" + padded.split(":")[8]))


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("cube", "9" * 40, "there is no cube 9999999999999999999999999999999999999999: at most 15"),
        ("cube", "16", "there is no cube 16: at most 15"),
        ("max cube", "1" * 20, "there is no max cube 11111111111111111111: at most 15"),
        ("cube owner", "1" * 30, "there is no cube owner 111111111111111111111111111111"),
        ("turn", "-" + "1" * 30, "there is no turn -111111111111111111111111111111"),
        ("bottom score", "99999999", "there is no bottom score 99999999: at most 32767"),
        ("top score", "32768", "there is no top score 32768: at most 32767"),
        ("match length", "9" * 50, "there is no match length " + "9" * 50 + ": at most 32767"),
        ("Crawford/Jacoby", "1" * 30, "there is no Crawford/Jacoby 111111111111111111111111111111"),
    ],
)
def test_an_absurd_numeric_xgid_field_is_refused_once_in_words(name: str, value: str, words: str) -> None:
    text = xgid_with(NUMERIC[name], value)
    with pytest.raises(InvalidMatchIdError) as refused:
        parse_xgid(text)
    assert str(refused.value) == f"XGID {text!r}: {words}"


def test_the_largest_scores_and_match_length_a_match_id_holds_are_read() -> None:
    fields = ["0", "0", "1", "52", "32766", "32765", "0", "32767", "10"]
    xgid = parse_xgid("XGID=" + ":".join([BOARD, *fields]))
    assert (xgid.match_length, xgid.score) == (32767, (32765, 32766))


def test_an_xgid_built_with_a_match_length_no_match_id_holds_is_refused() -> None:
    with pytest.raises(InvalidMatchIdError, match="a match length is 0 .money play. to 32767, not 40000"):
        Xgid(position=START, player_on_roll=1, match_length=40000)
    with pytest.raises(InvalidMatchIdError, match="a score is two whole numbers from 0 to 32767"):
        Xgid(position=START, player_on_roll=1, match_length=7, score=(0, 10**50))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(NUMERIC.values())), st.from_regex(r"\A-?[0-9]{1,120}\Z"))
def test_any_number_in_any_numeric_xgid_field_is_read_or_refused_as_a_malformed_xgid(
    index: int, value: str
) -> None:
    try:
        parse_xgid(xgid_with(index, value))
    except InvalidPositionError as error:  # InvalidMatchIdError is one
        assert "XGID" in str(error)
        assert str(error).count("XGID '") <= 1


# --- the cube's ceiling ------------------------------------------------------------------------------


def test_the_ceiling_leaves_room_for_a_backgammon_in_the_apis_32_bit_fields() -> None:
    assert CUBE_CEILING == 2**24
    assert 3 * CUBE_CEILING <= UINT32_MAX


def test_a_cube_limit_above_the_ceiling_is_capped_to_it() -> None:
    for limit in (2**25, 2**31, 2**32, 2**100):
        rules = RuleSet(cube_limit=limit)
        assert (rules.cube_limit, rules.highest_cube) == (CUBE_CEILING, CUBE_CEILING)
    assert RuleSet(cube_limit=CUBE_CEILING).cube_limit == CUBE_CEILING
    assert (RuleSet(cube_limit=64).cube_limit, RuleSet(cube_limit=64).highest_cube) == (64, 64)


def test_no_limit_keeps_its_zero_and_stops_at_the_ceiling() -> None:
    rules = RuleSet(cube_limit=0)
    assert (rules.cube_limit, rules.highest_cube) == (0, CUBE_CEILING)


def test_a_cube_limit_above_the_ceiling_that_is_no_power_of_two_is_still_refused() -> None:
    with pytest.raises(InvalidRuleSetError, match="the cube limit is a power of two"):
        RuleSet(cube_limit=3 * 2**30)


UNLIMITED_BEAVERS = RuleSet(beavers=True, cube_limit=0)


def opened(rules: RuleSet) -> Match:
    """A money game after the throw for who starts and its play: the other side is to roll."""
    match = Match(rules, dice=SeededDice(b"the cube's ceiling"))
    match.roll(0)
    side = match.state.game.turn
    match.play(side, match.legal_plays()[0])
    assert match.state.game.phase is Phase.ROLLING
    return match


def roll_and_play(match: Match) -> None:
    side = match.state.game.turn
    match.roll(side)
    if match.state.game.phase is Phase.PLAYING:
        match.play(side, match.legal_plays()[0])
    assert match.state.game.phase is Phase.ROLLING and match.state.game.turn == other(side)


def double_and_beaver(match: Match) -> None:
    """The side on turn doubles and the other beavers; the doubler then rolls and plays, so the
    beaverer, who owns the cube, is on turn."""
    doubler = match.state.game.turn
    assert Action.DOUBLE in match.legal_actions(doubler)
    match.double(doubler)
    assert Action.BEAVER in match.legal_actions(other(doubler))
    match.beaver(other(doubler))
    roll_and_play(match)


def test_twelve_beavers_take_an_unlimited_cube_to_the_ceiling_and_no_one_doubles_past_it() -> None:
    match = opened(UNLIMITED_BEAVERS)
    for beavers in range(1, 13):
        double_and_beaver(match)
        assert match.state.game.cube_value == 4**beavers
    game = match.state.game
    assert (game.cube_value, game.cube_owner) == (CUBE_CEILING, game.turn)
    assert Action.DOUBLE not in match.legal_actions(game.turn)
    assert match.legal_actions(game.turn) == [Action.ROLL, Action.RESIGN]
    state = match.state
    with pytest.raises(ActionError) as refused:
        match.double(game.turn)
    assert (refused.value.reason, refused.value.message) == (
        "CUBE_UNAVAILABLE",
        (
            "you cannot double: the cube is already at 16,777,216, "
            "the highest value a cube can take even without a limit"
        ),
    )
    assert match.state == state


def test_a_beaver_past_the_ceiling_is_neither_listed_nor_allowed_but_the_take_is() -> None:
    match = opened(UNLIMITED_BEAVERS)
    for _ in range(11):
        double_and_beaver(match)
    assert match.state.game.cube_value == 2**22
    doubler = match.state.game.turn
    match.double(doubler)
    match.take(other(doubler))  # 2**23, owned by the taker, who doubles on its turn
    roll_and_play(match)
    doubler = match.state.game.turn
    match.double(doubler)  # to 2**24: the ceiling itself may be reached
    answerer = other(doubler)
    assert match.legal_actions(answerer) == [Action.TAKE, Action.DROP]
    state, logged = match.state, len(match.events)
    with pytest.raises(ActionError) as refused:
        match.beaver(answerer)
    assert (refused.value.reason, refused.value.message) == (
        "BEAVER_UNAVAILABLE",
        (
            "a beaver would take the cube past 16,777,216, "
            "the highest value a cube can take even without a limit"
        ),
    )
    assert (match.state, len(match.events)) == (state, logged)
    match.take(answerer)
    assert (match.state.game.cube_value, match.state.game.cube_owner) == (CUBE_CEILING, answerer)


def test_a_limit_capped_to_the_ceiling_refuses_as_a_limit_does() -> None:
    match = opened(RuleSet(beavers=True, cube_limit=2**40))
    for _ in range(12):
        double_and_beaver(match)
    with pytest.raises(ActionError) as refused:
        match.double(match.state.game.turn)
    assert refused.value.message == "you cannot double: the cube is already at its limit of 16777216"


def test_the_points_of_a_game_at_the_ceiling_fit_in_32_bits() -> None:
    match = opened(UNLIMITED_BEAVERS)
    for _ in range(12):
        double_and_beaver(match)
    resigner = other(match.state.game.turn)
    match.resign(resigner, "backgammon")
    match.accept(other(resigner))
    finished = match.state.finished[-1]
    assert finished.cube_value == CUBE_CEILING
    assert finished.points == finished.result.multiplier * CUBE_CEILING <= 3 * CUBE_CEILING <= UINT32_MAX


def test_automatic_doubles_of_an_unlimited_cube_stop_at_the_ceiling() -> None:
    class Throws:
        def roll(self, index: int) -> Dice:
            return ((1, 1), (2, 2), (3, 3), (6, 1))[index]

    rules = RuleSet(automatic_doubles=True, automatic_doubles_limit=10, cube_limit=0)
    match = Match(rules, dice=Throws())
    match.state = replace(match.state, game=replace(match.state.game, cube_value=CUBE_CEILING // 2))
    match.roll(0)  # three ties: the first takes the cube to the ceiling, the others cannot
    assert (match.state.game.cube_value, match.state.game.automatic_doubles) == (CUBE_CEILING, 1)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 99), min_size=20, max_size=150), st.binary(min_size=1, max_size=8))
def test_with_an_unlimited_cube_no_sequence_of_actions_passes_the_ceiling(
    choices: list[int], seed: bytes
) -> None:
    # Mostly the cube's actions, whenever they are listed; a cube action not listed is refused.
    match = Match(UNLIMITED_BEAVERS, dice=SeededDice(seed))
    for choice in choices:
        if match.state.over:
            break
        game = match.state.game
        side = other(game.turn) if game.phase is Phase.DOUBLED else game.turn
        actions = [action for action in match.legal_actions(side) if action is not Action.RESIGN]
        for cube_action in (Action.DOUBLE, Action.BEAVER):
            if cube_action not in actions:
                with pytest.raises(ActionError):
                    getattr(match, cube_action.value)(side)
        preferred = [action for action in actions if action in (Action.DOUBLE, Action.BEAVER)]
        action = preferred[0] if preferred and choice < 90 else actions[choice % len(actions)]
        if action is Action.PLAY:
            plays = match.legal_plays()
            match.play(side, plays[choice % len(plays)])
        else:
            getattr(match, action.value)(side)
        assert match.state.game.cube_value <= CUBE_CEILING
        assert all(game.points <= 3 * CUBE_CEILING for game in match.state.finished)


def test_a_match_is_at_most_as_long_as_a_match_id_can_say() -> None:
    assert RuleSet(match_length=32_767).match_length == 32_767
    with pytest.raises(InvalidRuleSetError, match="at most 32767 points"):
        RuleSet(match_length=32_768)


def test_a_money_total_past_32_bits_is_still_shown() -> None:
    from tavli.server import convert
    from tavli.v1 import games_service_pb2

    match = opened(UNLIMITED_BEAVERS)
    while max(match.state.score) <= UINT32_MAX:
        for _ in range(12):
            double_and_beaver(match)
        resigner = other(match.state.game.turn)
        match.resign(resigner, "backgammon")
        match.accept(other(resigner))
        match.roll(0)
        if match.state.game.phase is Phase.PLAYING:
            match.play(match.state.game.turn, match.legal_plays()[0])
    game = games_service_pb2.Game.FromString(
        convert.serialized_game(
            "games/x",
            match.rules,
            match.state,
            event_count=0,
            dice_commitment="",
            dice_mode="system",
            created=0,
            updated=0,
        )
    )
    assert list(game.score) == list(match.state.score) and max(game.score) > UINT32_MAX
