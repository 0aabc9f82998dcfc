"""The checked path's refusals agree with the generator's legal plays.

Each variant lists its legal plays with fast generator code (``generate_plays`` and its helpers),
and explains a refused play with slower checked code, ``Variant.step``: one step at a time, a
:class:`Step` if the rules allow it now, else the reason in a player's words. The two are written
apart, so these tests tie them together on reachable positions (random games from the start, and
the positions of the perft corpora) and every roll:

- every step the generator takes is one the checked path allows, exactly as the generator made it;
- every first step the checked path allows begins a legal play, unless the maximum-use rule or the
  variant's rule for whole plays (``refusal_of_play``) rules out every play it begins: a step is
  legal or not on its own, and a whole play's refusal never comes from ``step``;
- every first step the checked path refuses begins no legal play;
- all the plays the checked path allows, step by step, put through the maximum-use rule and
  ``refusal_of_play``, lead to exactly the positions the legal plays lead to;
- every refusal is a sentence for a player, not a traceback or a repr.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from tavli.engine import BACKGAMMON, BAR, LONG_NARDI, OFF, Position, Step, Variant
from tests.engine.test_perft import read_perft

Dice = tuple[int, int]
Steps = tuple[Step, ...]

VARIANTS = [pytest.param(BACKGAMMON, id="backgammon"), pytest.param(LONG_NARDI, id="long-nardi")]
CORPORA = {BACKGAMMON.name: "perft-backgammon.txt", LONG_NARDI.name: "perft-long-nardi.txt"}
ROLLS: list[Dice] = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]  # the 21 rolls
STARTS = range(OFF, BAR + 1)  # every index a step could be asked to start from, off and the bar too
EXAMPLES = settings(
    max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


# --- reachable positions ------------------------------------------------------------------------


def played_to(variant: Variant, seed: int, turns: int) -> Position:
    """The position on roll after up to ``turns`` turns of random legal plays from the start (the
    last one before the game ends, if it ends sooner)."""
    rng = random.Random(seed)
    position = variant.start_position()
    for _ in range(turns):
        plays = list(variant.legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6))))
        after = rng.choice(plays).position
        if variant.result(after) is not None:
            break
        position = after.swapped()
    return position


@cache
def corpus_positions(variant: Variant) -> list[Position]:
    """The distinct positions of the variant's perft corpus, in file order."""
    ids = dict.fromkeys(position_id for position_id, _, _ in read_perft(CORPORA[variant.name]))
    return [Position.from_id(position_id) for position_id in ids]


def positions(variant: Variant) -> st.SearchStrategy[Position]:
    """Reachable positions: a random game's, from the opening to the bear-off, or a corpus one."""
    from_games = st.builds(played_to, st.just(variant), st.integers(0, 2**32 - 1), st.integers(0, 300))
    return st.one_of(from_games, st.sampled_from(corpus_positions(variant)))


# --- the checked path, on its own ---------------------------------------------------------------


def first_steps(variant: Variant, position: Position, dice: Dice) -> dict[tuple[int, int], Step | str]:
    """What the checked path says of every first step of the turn: by (start, die), each start
    0-25 and each die of the roll, the step it allows or its refusal."""
    return {
        (start, die): variant.step(position, start, die, taken=(), dice=dice)
        for die in dict.fromkeys(dice)
        for start in STARTS
    }


def checked_sequences(variant: Variant, position: Position, dice: Dice) -> dict[Steps, Position]:
    """Every sequence of steps the checked path allows with ``dice``, the empty one included, each
    with the position it leads to: each step asked of ``step`` with the steps before it as
    ``taken``. Sequences of the same first step and the same later steps in another order come
    once (``taken`` is what has been played this turn, whatever its order). Later steps are tried
    from the starts with a checker on them; first steps from every start."""
    dice_of_turn = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    found: dict[Steps, Position] = {(): position}
    seen: set[tuple[Step, tuple[Step, ...]]] = set()
    frontier: list[tuple[Steps, Position, list[int]]] = [((), position, dice_of_turn)]
    while frontier:
        following = []
        for taken, board, left in frontier:
            for die in dict.fromkeys(left):
                for start in STARTS:
                    if taken and not board.player[start]:
                        continue
                    outcome = variant.step(board, start, die, taken=taken, dice=dice)
                    if isinstance(outcome, str):
                        continue
                    steps = taken + (outcome,)
                    key = (steps[0], tuple(sorted(steps[1:])))
                    if key in seen:
                        continue
                    seen.add(key)
                    after = variant.position_after(board, (outcome,))
                    found[steps] = after
                    rest = list(left)
                    rest.remove(die)
                    if rest:
                        following.append((steps, after, rest))
        frontier = following
    return found


def checked_refusals(variant: Variant, position: Position, dice: Dice) -> list[str]:
    """The refusals the checked path gives on the way through :func:`checked_sequences`: of every
    first step, and of every later step from a start with a checker on it."""
    refusals = [
        outcome for outcome in first_steps(variant, position, dice).values() if isinstance(outcome, str)
    ]
    dice_of_turn = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    for steps, board in checked_sequences(variant, position, dice).items():
        if not steps or len(steps) == len(dice_of_turn):
            continue
        left = list(dice_of_turn)
        for step in steps:
            left.remove(step.die)
        for die in dict.fromkeys(left):
            for start in STARTS:
                if board.player[start]:
                    outcome = variant.step(board, start, die, taken=steps, dice=dice)
                    if isinstance(outcome, str):
                        refusals.append(outcome)
    return refusals


def allowed_by_the_whole_play_rules(
    variant: Variant, dice: Dice, sequences: dict[Steps, Position]
) -> dict[Steps, Position]:
    """The sequences the maximum-use rule and the variant's rule for whole plays leave: of those
    ``refusal_of_play`` does not refuse, the ones using the most dice; of one-die plays of two
    different dice, the higher die's when it can be played."""
    allowed = {steps: after for steps, after in sequences.items() if variant.refusal_of_play(after) is None}
    if not allowed:
        return {}
    most = max(map(len, allowed))
    allowed = {steps: after for steps, after in allowed.items() if len(steps) == most}
    if most == 1 and dice[0] != dice[1]:
        higher = {steps: after for steps, after in allowed.items() if steps[0].die == max(dice)}
        allowed = higher or allowed
    return allowed


# --- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_step_the_generator_takes_is_explained_as_legal(variant: Variant) -> None:
    """Each step of each legal play, replayed in order, is the very step ``step`` allows: the
    same start, end, die and hit."""

    @EXAMPLES
    @given(positions(variant))
    def check(position: Position) -> None:
        for dice in ROLLS:
            for play in variant.legal_plays(position, dice):
                board = position
                taken: Steps = ()
                for step in play.steps:
                    outcome = variant.step(board, step.start, step.die, taken=taken, dice=dice)
                    assert outcome == step, (
                        f"{position.position_id()} {dice}: the legal play {play.notation()} takes {step},"
                        f" after {taken}, but the checked path says {outcome!r}"
                    )
                    taken += (step,)
                    board = variant.position_after(board, (step,))
                assert board == play.position

    check()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_first_step_the_checked_path_allows_begins_a_legal_play(variant: Variant) -> None:
    """A first step ``step`` allows begins some legal play, in some order of its steps, unless
    every play it begins is ruled out as a whole: by the maximum-use rule (the legal plays use
    more dice, or the higher die where only one die can be played) or by ``refusal_of_play``."""

    @EXAMPLES
    @given(positions(variant))
    def check(position: Position) -> None:
        for dice in ROLLS:
            legal = variant.legal_plays(position, dice)
            reached = {play.position for play in legal}
            most = legal.dice_used
            higher_die_only = (
                most == 1 and dice[0] != dice[1] and all(play.steps[0].die == dice[0] for play in legal)
            )
            by_first: dict[Step, list[tuple[Steps, Position]]] = {}
            for steps, after in checked_sequences(variant, position, dice).items():
                if steps:
                    by_first.setdefault(steps[0], []).append((steps, after))
            for (_, die), outcome in first_steps(variant, position, dice).items():
                if isinstance(outcome, str):
                    continue
                begun = by_first[outcome]
                if any(len(steps) == most and after in reached for steps, after in begun):
                    continue
                # It begins no legal play: only the rules for whole plays may be why.
                whole = [len(steps) for steps, after in begun if variant.refusal_of_play(after) is None]
                fewer = max(whole, default=-1) < most
                lower_die = higher_die_only and die < dice[0]
                assert fewer or lower_die, (
                    f"{position.position_id()} {dice}: the checked path allows {outcome} first, and plays"
                    f" of {max(whole)} dice from it, but no legal play ({[p.notation() for p in legal]})"
                    " begins with it"
                )

    check()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_first_step_the_checked_path_refuses_begins_no_legal_play(variant: Variant) -> None:
    """A first step ``step`` refuses, from any start with either die, is the first step of no
    legal play: a refusal names a step the generator refuses too."""

    @EXAMPLES
    @given(positions(variant))
    def check(position: Position) -> None:
        for dice in ROLLS:
            legal = variant.legal_plays(position, dice)
            firsts = {(play.steps[0].start, play.steps[0].die): play for play in legal if play.steps}
            for (start, die), outcome in first_steps(variant, position, dice).items():
                if isinstance(outcome, str):
                    assert (start, die) not in firsts, (
                        f"{position.position_id()} {dice}: the legal play {firsts[start, die].notation()}"
                        f" begins with the {die} from {start}, which the checked path refuses: {outcome}"
                    )

    check()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_checked_path_allows_exactly_the_legal_plays(variant: Variant) -> None:
    """Every sequence of steps ``step`` allows, put through the maximum-use rule and
    ``refusal_of_play``, leads to a legal play's position, and every legal play's position is
    reached so, with as many dice."""

    @EXAMPLES
    @given(positions(variant))
    def check(position: Position) -> None:
        for dice in ROLLS:
            legal = variant.legal_plays(position, dice)
            sequences = checked_sequences(variant, position, dice)
            allowed = allowed_by_the_whole_play_rules(variant, dice, sequences)
            if not allowed:  # nothing can be played: the turn passes
                allowed = {(): position}
            where = f"{position.position_id()} {dice}"
            assert set(allowed.values()) == {play.position for play in legal}, where
            assert {len(steps) for steps in allowed} == {legal.dice_used}, where

    check()


_POINT = re.compile(r"(\d+)-point")
_DIE = re.compile(r"\bthe (\d+)\b")


@pytest.mark.parametrize("variant", VARIANTS)
def test_refusals_are_a_players_words(variant: Variant) -> None:
    """Every refusal of ``step`` is a non-empty sentence in words: no traceback, exception, repr or
    code, and any point it names is one of the 24, any die one from 1 to 6."""

    @EXAMPLES
    @given(positions(variant))
    def check(position: Position) -> None:
        for dice in ROLLS:
            for refusal in checked_refusals(variant, position, dice):
                assert isinstance(refusal, str) and refusal.strip() == refusal != "", repr(refusal)
                for marker in ("Traceback", "Error", "Exception", "Step(", "Position", "None", "\n"):
                    assert marker not in refusal, refusal
                assert not set(refusal) & set("<>{}[]()=_\\"), refusal
                assert all(1 <= int(point) <= 24 for point in _POINT.findall(refusal)), refusal
                assert all(1 <= int(die) <= 6 for die in _DIE.findall(refusal)), refusal

    check()


def test_the_positions_tried_include_the_bar_and_the_bear_off() -> None:
    """The random games reach the positions whose rules differ most: a checker on the bar, and
    every checker home."""
    games = [played_to(BACKGAMMON, seed, turns) for seed in range(20) for turns in (30, 150)]
    assert any(position.player[BAR] for position in games)
    assert any(not any(position.player[7:26]) for position in games)
    nardi = [played_to(LONG_NARDI, seed, 150) for seed in range(20)]
    assert any(not any(position.player[7:26]) for position in nardi)
