"""Plakoto (RULES.md, "Plakoto" and "Shared additions"): the shared vectors, a case for every rule
and option, perft counts cross-checked by a brute-force enumerator written here from the rule book,
and properties of random games."""

from __future__ import annotations

import json
import pickle
import random
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from tavli.engine import BACKGAMMON, GameOverError, IllegalPlayError, InvalidPositionError, Position
from tavli.engine.plakoto import Plakoto
from tavli.engine.play import Play
from tavli.engine.position import OFF, Pins
from tavli.engine.rules import RuleSet
from tavli.engine.variant import GameResult
from tavli.engine.variants import PLAKOTO, VARIANTS

VECTORS = Path(__file__).resolve().parents[3] / "shared" / "vectors" / "plakoto.jsonl"
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]


def board(mine: dict[int, int], theirs: dict[int, int], pins: str = "") -> Position:
    """A position from each side's ``{point: count}`` in its own numbering, with pins as written
    after a Position ID's colon."""
    bare = Position.from_points(mine, theirs)
    return Position.with_pins(bare.player, bare.opponent, Pins.from_text(pins) if pins else Pins())


def play_ids(variant: Plakoto, position: Position, dice: tuple[int, int]) -> set[str]:
    return set(variant.legal_plays(position, dice).position_ids())


# --- the shared vectors --------------------------------------------------------------------------


def _vectors() -> list[dict[str, Any]]:
    if not VECTORS.exists():
        pytest.skip(f"the shared vectors are not at {VECTORS}")
    with open(VECTORS, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def test_every_shared_vector_lists_exactly_the_expected_positions() -> None:
    vectors = _vectors()
    assert len(vectors) > 600
    wrong = []
    for vector in vectors:
        position = Position.from_id(str(vector["position_id"]))
        assert position.position_id() == vector["position_id"]  # pins written back as read
        dice = (vector["dice"][0], vector["dice"][1])
        found = sorted(PLAKOTO.legal_plays(position, dice).position_ids())
        if found != vector["expected"]:
            wrong.append((vector["position_id"], dice))
    assert wrong == []


def test_the_vectors_that_end_the_game_end_it_as_they_say() -> None:
    ended = 0
    for vector in _vectors():
        for position_id, (winner, points) in vector.get("ends_game", {}).items():
            result = PLAKOTO.result(Position.from_id(position_id))
            assert result is not None
            if winner == "draw":
                assert (result, points) == (GameResult.DRAW, 0)
            else:
                assert winner == "me"
                assert result.multiplier == points
            ended += 1
    assert ended > 100
    kinds = {kind for vector in _vectors() for kind in str(vector.get("kind", "")).split(",")}
    assert {"draw", "mother-win", "mother-exception", "no-bear-off-pinned", "release", "higher-die"} <= kinds


# --- Position IDs with pins ----------------------------------------------------------------------


def test_pins_are_written_after_a_colon_the_side_on_roll_first_each_ascending() -> None:
    position = board({24: 13, 18: 1, 9: 1}, {24: 12, 7: 1, 16: 1, 20: 1}, "o20,m9,o7")
    assert position.position_id().endswith(":m9,o7,o20")
    assert Position.from_id(position.position_id()) == position
    assert position.swapped().position_id().endswith(":m7,m20,o9")
    assert position.swapped().swapped() == position


def test_a_position_with_pins_differs_from_the_same_checkers_without() -> None:
    pinned = board({24: 14, 18: 1}, {24: 14, 7: 1}, "o7")
    bare = board({24: 14, 18: 1}, {24: 14, 7: 1})
    assert pinned != bare and bare != pinned
    assert len({pinned, bare}) == 2
    assert bare.pins == Pins() and not bare.pins
    assert board({24: 14, 18: 1}, {24: 14, 7: 1}, "o7") == pinned


def test_a_position_without_pins_is_the_bare_pair_and_one_with_pins_survives_pickling() -> None:
    assert type(board({24: 15}, {24: 15})) is Position
    pinned = board({24: 14, 18: 1}, {24: 14, 7: 1}, "o7")
    copied = pickle.loads(pickle.dumps(pinned))
    assert copied == pinned and hash(copied) == hash(pinned) and copied.pins == Pins((), (7,))
    player, opponent = pinned  # still the pair the rest of the engine unpacks
    assert (player, opponent) == (pinned.player, pinned.opponent)


@pytest.mark.parametrize(
    ("pins", "refusal"),
    [
        ("m7,m7", "written twice"),
        ("x7", "cannot read the pin"),
        ("m25", "cannot read the pin"),
        ("", "cannot read the pin"),
        ("m5", "where it has none"),
    ],
)
def test_pins_that_cannot_be_read_are_refused_in_words(pins: str, refusal: str) -> None:
    position_id = board({24: 14, 18: 1}, {24: 14, 7: 1}).position_id()
    with pytest.raises(InvalidPositionError, match=refusal):
        Position.from_id(f"{position_id}:{pins}")


@pytest.mark.parametrize(
    ("mine", "theirs", "pins", "refusal"),
    [
        ({24: 14, 18: 1}, {24: 14, 7: 1}, "m18,o7", "a point holds one pin"),
        ({24: 14, 18: 1}, {24: 14, 10: 1}, "m18", "pinned under no opposing checker"),
        ({24: 13, 18: 2}, {24: 14, 7: 1}, "m18", "only a lone checker is pinned"),
        ({24: 14, 18: 1}, {24: 14, 7: 1}, "", "neither is pinned"),
        ({24: 14, 1: 1}, {24: 14}, "m1", "no checker ever lands"),
    ],
)
def test_impossible_pins_are_refused_in_words(
    mine: dict[int, int], theirs: dict[int, int], pins: str, refusal: str
) -> None:
    with pytest.raises(InvalidPositionError, match=refusal):
        PLAKOTO.legal_plays(board(mine, theirs, pins), (3, 1))


def test_a_variant_without_pins_refuses_a_position_with_them() -> None:
    position = Position.from_id(board({24: 14, 18: 1}, {24: 14, 7: 1}, "o7").position_id())
    with pytest.raises(InvalidPositionError, match="backgammon has no pinned checkers"):
        BACKGAMMON.legal_plays(position, (3, 1))
    with pytest.raises(InvalidPositionError, match="long nardi has no pinned checkers"):
        VARIANTS["long-nardi"].check_valid(position)


# --- where a step may land -----------------------------------------------------------------------


def test_landing_on_a_lone_opposing_checker_pins_it() -> None:
    position = board({24: 15}, {24: 14, 7: 1})
    play = PLAKOTO.parse_play(position, (6, 1), "24/18 24/23")
    assert play.position.pins == Pins((), (7,))
    assert play.position.opponent[7] == 1  # pinned where it stands: there is no bar


def test_touching_down_on_a_lone_checker_pins_it_and_moving_on_frees_it() -> None:
    position = board({24: 15}, {24: 14, 7: 1})
    play = PLAKOTO.parse_play(position, (6, 1), "24/17")
    assert play.position.pins == Pins()
    assert [step.end for step in play.steps] == [18, 17]


def test_a_point_with_two_opposing_checkers_is_held() -> None:
    position = board({24: 15}, {24: 13, 7: 2})
    with pytest.raises(IllegalPlayError, match="your opponent holds your 18-point"):
        PLAKOTO.parse_play(position, (6, 1), "24/18 24/23")
    with pytest.raises(IllegalPlayError, match="your opponent holds your 18-point"):
        PLAKOTO.parse_play(position, (6, 6), "24/12")  # nor may one checker touch down there


def test_a_point_where_the_opponent_pins_one_of_mine_is_held_even_by_one_checker() -> None:
    position = board({24: 14, 18: 1}, {24: 14, 7: 1}, "m18")
    with pytest.raises(
        IllegalPlayError, match="your opponent holds your 18-point, pinning your checker there"
    ):
        PLAKOTO.parse_play(position, (6, 1), "24/18 24/23")


def test_landing_on_my_own_point_over_a_pinned_checker_keeps_it_pinned() -> None:
    position = board({24: 14, 18: 1}, {24: 14, 7: 1}, "o7")
    play = PLAKOTO.parse_play(position, (6, 1), "24/18 24/23")
    assert play.position.player[18] == 2 and play.position.pins == Pins((), (7,))


def test_a_pinned_checker_cannot_move() -> None:
    position = board({24: 14, 18: 1}, {24: 14, 7: 1}, "m18")
    with pytest.raises(IllegalPlayError, match="the checker on your 18-point is pinned"):
        PLAKOTO.parse_play(position, (3, 1), "18/15 24/23")
    assert all(step.start != 18 for play in PLAKOTO.legal_plays(position, (3, 1)) for step in play.steps)


def test_a_pinned_checker_is_freed_when_the_last_pinner_leaves_and_may_be_pinned_again() -> None:
    position = board({24: 14, 18: 1}, {24: 14, 7: 1}, "o7")
    freed = PLAKOTO.parse_play(position, (6, 1), "18/12 24/23").position
    assert freed.pins == Pins() and freed.opponent[7] == 1
    pinned_again = PLAKOTO.parse_play(position, (6, 6), "18/12 24/18(3)").position
    assert pinned_again.pins == Pins((), (7,))


def test_there_is_no_bar() -> None:
    with pytest.raises(IllegalPlayError, match="plakoto has no bar"):
        PLAKOTO.check_play(PLAKOTO.start_position(), (3, 1), [(25, 22)])


# --- bearing off ---------------------------------------------------------------------------------


def test_a_pinned_checker_stops_the_bear_off_by_default() -> None:
    position = board({6: 13, 5: 1, 3: 1}, {24: 14, 22: 1}, "m3")
    assert PLAKOTO.legal_plays(position, (6, 5)).position_ids() == [position.position_id()]  # a pass
    with pytest.raises(IllegalPlayError, match="a pinned checker stops you bearing off"):
        PLAKOTO.parse_play(position, (6, 5), "6/off 5/off")


def test_without_the_option_a_pinned_checker_at_home_lets_the_others_bear_off() -> None:
    position = board({6: 13, 5: 1, 3: 1}, {24: 14, 22: 1}, "m3")
    lenient = RuleSet(variant="plakoto", pinned_blocks_bear_off=False).rules
    play = lenient.parse_play(position, (6, 5), "6/off 5/off")
    assert play.position.player[OFF] == 2


def test_without_the_option_a_pinned_checker_still_stands_higher() -> None:
    position = board({6: 1, 4: 14}, {24: 14, 19: 1}, "m6")
    lenient = RuleSet(variant="plakoto", pinned_blocks_bear_off=False).rules
    assert lenient.legal_plays(position, (5, 5)).position_ids() == [position.position_id()]
    with pytest.raises(
        IllegalPlayError, match="only when no checker stands higher: you have one on your 6-point"
    ):
        lenient.parse_play(position, (5, 5), "4/off")


# --- the mother ----------------------------------------------------------------------------------


def test_pinning_the_mother_wins_and_ends_the_play_at_that_step() -> None:
    position = board({10: 13, 3: 1, 2: 1}, {24: 1, 10: 14})
    legal = PLAKOTO.legal_plays(position, (2, 1))
    lower_die_alone = PLAKOTO.parse_play(position, (2, 1), "2/1")
    assert lower_die_alone in legal  # it ends the game, so it counts as using both dice
    assert PLAKOTO.result(lower_die_alone.position) is GameResult.MOTHER
    assert PLAKOTO.mother_loser(lower_die_alone.position) == "opponent"
    assert PLAKOTO.parse_play(position, (2, 1), "3/1").steps[0].die == 2
    with pytest.raises(IllegalPlayError, match="the game ended with your last step: your opponent's mother"):
        PLAKOTO.parse_play(position, (2, 1), "3/1 2/1")
    with pytest.raises(GameOverError, match="your mother, your last checker on your 24-point, is pinned"):
        PLAKOTO.legal_plays(lower_die_alone.position.swapped(), (3, 1))


def test_the_mother_exception_lets_the_game_go_on_while_the_pinner_has_checkers_on_its_24_point() -> None:
    position = board({24: 2, 10: 12, 3: 1}, {24: 1, 10: 14})
    pinned = PLAKOTO.parse_play(position, (2, 1), "3/1 10/9").position
    assert pinned.pins == Pins((), (24,)) and PLAKOTO.result(pinned) is None
    position = board({24: 1, 10: 13, 3: 1}, {24: 1, 10: 14})
    last_leaves = PLAKOTO.parse_play(position, (6, 2), "24/18 3/1").position
    assert PLAKOTO.result(last_leaves) is GameResult.MOTHER


def test_without_the_mother_exception_a_pinned_mother_loses_at_once() -> None:
    position = board({24: 2, 10: 12, 3: 1}, {24: 1, 10: 14})
    strict = RuleSet(variant="plakoto", mother_exception=False).rules
    play = strict.parse_play(position, (2, 1), "3/1")
    assert strict.result(play.position) is GameResult.MOTHER
    assert play in strict.legal_plays(position, (2, 1)) and play not in PLAKOTO.legal_plays(position, (2, 1))


def test_two_pinned_mothers_are_a_draw() -> None:
    position = board({24: 1, 10: 13, 3: 1}, {24: 1, 10: 12, 1: 2}, "m24")
    play = PLAKOTO.parse_play(position, (2, 1), "3/1")
    assert PLAKOTO.result(play.position) is GameResult.DRAW
    assert PLAKOTO.mother_loser(play.position) == "both"
    with pytest.raises(GameOverError, match="both mothers are pinned"):
        PLAKOTO.legal_plays(play.position.swapped(), (3, 1))


def test_a_mother_loss_and_a_draw_score_by_the_rule_set() -> None:
    assert GameResult.MOTHER.multiplier == 2 and GameResult.DRAW.multiplier == 0


# --- perft, cross-checked by brute force ---------------------------------------------------------


def brute_force(variant: Plakoto, position: Position, dice: tuple[int, int]) -> set[str]:
    """The Position IDs every legal play leads to, enumerated from RULES.md alone: every order of
    the dice and of the checkers, one die at a time, then the maximum-use and higher-die rules."""
    mine = list(position.player)
    theirs = [position.opponent[25 - point] if 1 <= point <= 24 else 0 for point in range(26)]  # by my points
    my_pins = {point for point in position.pins.player}
    their_pins = {25 - point for point in position.pins.opponent}  # by my points
    whole = 4 if dice[0] == dice[1] else 2
    outcomes: list[tuple[int, tuple[int, ...], str]] = []  # (dice counted, dice used in order, Position ID)

    def position_id(mine: list[int], their_pins: set[int]) -> str:
        pins = Pins(tuple(sorted(my_pins)), tuple(sorted(25 - point for point in their_pins)))
        return Position.with_pins(tuple(mine), position.opponent, pins).position_id()

    def over(mine: list[int], their_pins: set[int]) -> bool:
        if mine[OFF] == 15:
            return True
        theirs_pinned = theirs[1] == 1 and 1 in their_pins
        mine_pinned = mine[24] == 1 and 24 in my_pins
        if theirs_pinned and mine_pinned:
            return True
        return theirs_pinned and (not variant.mother_exception or mine[24] == 0)

    # Every way on from the position, one die at a time (a stack of boards still to go on from).
    to_walk: list[tuple[list[int], set[int], list[int], tuple[int, ...]]] = [
        (mine, their_pins, [dice[0]] * 4 if dice[0] == dice[1] else list(dice), ())
    ]
    while to_walk:
        mine, their_pins, left, used = to_walk.pop()
        ended = bool(used) and over(mine, their_pins)
        outcomes.append((whole if ended else len(used), used, position_id(mine, their_pins)))
        if ended:
            continue
        for index, die in enumerate(left):
            rest = left[:index] + left[index + 1 :]
            for start in range(1, 25):
                if not mine[start] or start in my_pins:
                    continue
                end = start - die
                if end >= 1:
                    if theirs[end] >= 2 or end in my_pins:
                        continue
                elif not _may_bear_off(variant, mine, my_pins, start, end):
                    continue
                after = list(mine)
                after[start] -= 1
                after[max(end, 0)] += 1
                pins_after = set(their_pins)
                if end >= 1 and theirs[end] == 1:
                    pins_after.add(end)
                if not after[start]:
                    pins_after.discard(start)
                to_walk.append((after, pins_after, rest, used + (die,)))
    most = max(counted for counted, _, _ in outcomes)
    kept = [(used, found) for counted, used, found in outcomes if counted == most]
    if most == 1 and dice[0] != dice[1] and any(used[0] == max(dice) for used, _ in kept):
        kept = [(used, found) for used, found in kept if used[0] == max(dice)]
    return {found for _, found in kept}


def _may_bear_off(variant: Plakoto, mine: list[int], my_pins: set[int], start: int, end: int) -> bool:
    if any(mine[7:25]) or (variant.pinned_blocks_bear_off and my_pins):
        return False
    return end == 0 or not any(mine[start + 1 : 7])  # a higher die: only from the highest point


def perft(variant: Plakoto, position: Position, depth: int) -> int:
    """The plays over every roll (each of the 21 once) to ``depth`` turns, cross-checked at each node."""
    if depth == 0:
        return 1
    total = 0
    for dice in ROLLS:
        legal = variant.legal_plays(position, dice)
        assert set(legal.position_ids()) == brute_force(variant, position, dice), (position, dice)
        for play in legal:
            total += (
                1
                if depth == 1 or variant.result(play.position)
                else perft(variant, play.position.swapped(), depth - 1)
            )
    return total


@pytest.mark.parametrize(
    ("variant", "depth", "expected"),
    [
        (PLAKOTO, 1, 59),
        (PLAKOTO, 2, 3_474),
        (RuleSet(variant="plakoto", mother_exception=False).rules, 2, 3_474),
    ],
)
def test_perft_from_the_start_agrees_with_brute_force(variant: Plakoto, depth: int, expected: int) -> None:
    assert perft(variant, variant.start_position(), depth) == expected


# --- random games --------------------------------------------------------------------------------


def random_game(variant: Plakoto, seed: int, turns: int) -> list[Position]:
    """The positions (the side on roll first) of a game of random plays, from the start."""
    rng = random.Random(seed)
    position = variant.start_position()
    seen = [position]
    for _ in range(turns):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        play = rng.choice(list(variant.legal_plays(position, dice)))
        if variant.result(play.position) is not None:
            break
        position = play.position.swapped()
        seen.append(position)
    return seen


variants = st.sampled_from(
    [
        PLAKOTO,
        RuleSet(variant="plakoto", pinned_blocks_bear_off=False).rules,
        RuleSet(variant="plakoto", mother_exception=False).rules,
    ]
)


@settings(max_examples=12, deadline=None)
@given(variants, st.integers(0, 2**32), st.integers(10, 120), st.sampled_from(ROLLS))
def test_random_games_keep_every_rule(variant: Plakoto, seed: int, turns: int, dice: tuple[int, int]) -> None:
    position = random_game(variant, seed, turns)[-1]
    legal = variant.legal_plays(position, dice)
    assert set(legal.position_ids()) == brute_force(variant, position, dice)
    for play in legal:
        variant.validate(play.position)
        assert sum(play.position.player) == sum(play.position.opponent) == 15
        assert Position.from_id(play.position.position_id()) == play.position
        assert variant.check_play(position, dice, play.steps) == play
        assert variant.parse_play(position, dice, play.notation()).position == play.position
    _refuses_what_is_not_legal(variant, position, dice, legal)


def _refuses_what_is_not_legal(
    variant: Plakoto, position: Position, dice: tuple[int, int], legal: object
) -> None:
    """Every pair of single moves of the dice that is not a legal play is refused, in words."""
    moves = [
        (start, max(start - die, OFF))
        for start, die in product(range(1, 25), set(dice))
        if position.player[start]
    ]
    for first, second in product(moves, repeat=2):
        try:
            play = variant.check_play(position, dice, [first, second])
        except IllegalPlayError as error:
            assert error.why and error.why != "that play is not legal"
        else:
            assert isinstance(play, Play) and play.position in legal  # type: ignore[operator]
