"""Properties every position and roll must have, checked on random positions with hypothesis.

Positions are built the way a board is set up: each side's 15 checkers are spread over its points,
its bar (backgammon only) and its tray of checkers borne off, and a point holds checkers of one side
at most. Backgammon's point n of one side is the other side's 25 - n; long nardi's is n + 12 or
n - 12. Some positions keep a side in its home board, so that bearing off comes up often.
"""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Callable

import gnubg_nn
import pytest
from hypothesis import assume, given, settings, strategies as st

from tavli.engine import BACKGAMMON, BAR, LONG_NARDI, OFF, InvalidPositionError, Position, Variant

CHECKERS = 15

dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def _positions(draw: st.DrawFn, *, opponent_point: Callable[[int], int], has_bar: bool) -> Position:
    sides: list[list[int]] = []
    taken: set[int] = set()  # the player's points that already hold a checker of either side
    for side in range(2):
        # How far from home this side's checkers may stand: only its home board, or anywhere.
        farthest = draw(st.sampled_from([6, 6, 12, 24]))
        slots = [OFF, *range(1, farthest + 1)] + ([BAR] if has_bar and farthest == 24 else [])
        to_player = (lambda point: point) if side == 0 else opponent_point
        allowed = [slot for slot in slots if slot in (OFF, BAR) or to_player(slot) not in taken]
        counts = [0] * 26
        for slot in draw(st.lists(st.sampled_from(allowed), min_size=CHECKERS, max_size=CHECKERS)):
            counts[slot] += 1
        on_board = [slot for slot in allowed if slot != OFF]
        if counts[OFF] == CHECKERS and on_board:  # a side with all its checkers off has already won
            counts[OFF] -= 1
            counts[draw(st.sampled_from(on_board))] += 1
        # With no point left open to it, the side has borne off all 15: a finished game, whose
        # position asks for no play.
        assume(counts[OFF] < CHECKERS)
        taken |= {to_player(point) for point in range(1, 25) if counts[point]}
        sides.append(counts)
    return Position(tuple(sides[0]), tuple(sides[1]))


backgammon_positions = _positions(opponent_point=BACKGAMMON.opponent_point, has_bar=True)
long_nardi_positions = _positions(opponent_point=LONG_NARDI.opponent_point, has_bar=False)


def _resulting_positions(variant: Variant, position: Position, roll: tuple[int, int]) -> list[Position]:
    return [play.position for play in variant.legal_plays(position, roll)]


# Backgammon


@settings(max_examples=200, deadline=None)
@given(backgammon_positions)
def test_the_strategy_builds_only_positions_that_can_occur(position: Position) -> None:
    BACKGAMMON.validate(position)


@settings(max_examples=200, deadline=None)
@given(backgammon_positions)
def test_a_position_id_is_14_characters_and_reads_back_as_the_same_position(position: Position) -> None:
    position_id = position.position_id()
    assert len(position_id) == 14
    assert Position.from_id(position_id) == position


# Any 80 bits: random bytes are mostly too many checkers; with about a third of the bits set,
# about half are positions.
position_keys = st.one_of(
    st.binary(min_size=10, max_size=10).map(lambda key: int.from_bytes(key, "little")),
    st.lists(st.sampled_from([0, 0, 1]), min_size=80, max_size=80).map(
        lambda bits: sum(bit << index for index, bit in enumerate(bits))
    ),
)


def _position_id(key: int) -> str:
    return base64.b64encode(key.to_bytes(10, "little"))[:14].decode("ascii")


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(position_keys)
def test_any_position_id_reads_as_gnu_backgammon_reads_it_or_is_refused(key: int) -> None:
    # Bits after the 50th 0-bit (the last point's end) say nothing: they are read as unset.
    # (gnubg-nn's reader would write past its board on them, so it is given the key without them.)
    bits = f"{key:080b}"[::-1]
    fiftieth_zero = [index for index, bit in enumerate(bits) if bit == "0"][49:50]
    meaningful = key & ((1 << fiftieth_zero[0]) - 1) if fiftieth_zero else key
    opponent, player = gnubg_nn.board_from_position_id(_position_id(meaningful))
    if sum(opponent) > CHECKERS or sum(player) > CHECKERS:
        with pytest.raises(InvalidPositionError, match="a side has 15"):
            Position.from_id(_position_id(key))
    else:
        expected = Position((CHECKERS - sum(player), *player), (CHECKERS - sum(opponent), *opponent))
        assert Position.from_id(_position_id(key)) == expected


@st.composite
def _with_checkers_on_the_bar(draw: st.DrawFn) -> Position:
    """A backgammon position after one to four of the player's checkers were hit (taken from any
    point, or from those borne off)."""
    position = draw(backgammon_positions)
    player = list(position.player)
    for _ in range(draw(st.integers(1, 4))):
        hit = draw(st.sampled_from([point for point in range(BAR) if player[point]]))
        player[hit] -= 1
        player[BAR] += 1
    return Position(tuple(player), position.opponent)


doubles = st.integers(1, 6).map(lambda die: (die, die))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(backgammon_positions, dice)
def test_the_legal_plays_lead_to_the_positions_gnu_backgammon_finds(
    position: Position, roll: tuple[int, int]
) -> None:
    _agrees_with_gnu_backgammon(position, roll)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_with_checkers_on_the_bar(), st.one_of(doubles, dice))
def test_entering_from_the_bar_leads_to_the_positions_gnu_backgammon_finds(
    position: Position, roll: tuple[int, int]
) -> None:
    _agrees_with_gnu_backgammon(position, roll)


def _agrees_with_gnu_backgammon(position: Position, roll: tuple[int, int]) -> None:
    board = gnubg_nn.board_from_position_id(position.position_id())
    expected = set()
    for key in gnubg_nn.moves(board, *roll):
        opponent, player = gnubg_nn.boardfromkey(key)
        expected.add(
            Position((CHECKERS - sum(player), *player), (CHECKERS - sum(opponent), *opponent)).position_id()
        )
    found = {result.position_id() for result in _resulting_positions(BACKGAMMON, position, roll)}
    assert found == (expected or {position.position_id()})


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(backgammon_positions, dice)
def test_every_legal_play_is_read_back_from_its_own_notation(
    position: Position, roll: tuple[int, int]
) -> None:
    for play in BACKGAMMON.legal_plays(position, roll):
        read = BACKGAMMON.parse_play(position, roll, play.notation())
        assert read.position == play.position, play.notation()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(backgammon_positions, dice)
def test_pips_drop_by_the_dice_played_and_rise_for_the_opponent_only_by_hits(
    position: Position, roll: tuple[int, int]
) -> None:
    mover_before, opponent_before = position.pip_count()
    for play in BACKGAMMON.legal_plays(position, roll):
        mover_after, opponent_after = play.position.pip_count()
        # A step moves its checker by its die, except that a higher die bears off from a lower point.
        for step in play.steps:
            if step.end == OFF:
                assert step.die >= step.start
            else:
                assert step.die == step.start - step.end
        assert mover_before - mover_after == sum(step.start - step.end for step in play.steps)
        # A blot hit on the mover's point p stood on the opponent's 25 - p and goes to its bar, 25.
        hit_from = [BACKGAMMON.opponent_point(step.end) for step in play.steps if step.hit]
        assert opponent_after - opponent_before == sum(BAR - point for point in hit_from)
        assert play.position.opponent[BAR] - position.opponent[BAR] == len(hit_from)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(backgammon_positions, dice)
def test_every_legal_play_uses_as_many_dice_and_only_dice_rolled(
    position: Position, roll: tuple[int, int]
) -> None:
    plays = BACKGAMMON.legal_plays(position, roll)
    assert len({len(play.steps) for play in plays}) == 1
    rolled = Counter(roll * 2 if roll[0] == roll[1] else roll)
    for play in plays:
        assert not Counter(step.die for step in play.steps) - rolled


@settings(max_examples=300, deadline=None)
@given(backgammon_positions, dice)
def test_the_legal_plays_lead_to_distinct_positions(position: Position, roll: tuple[int, int]) -> None:
    results = _resulting_positions(BACKGAMMON, position, roll)
    assert len(results) == len(set(results))
    assert len(BACKGAMMON.legal_plays(position, roll)) == len(results)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(backgammon_positions, dice)
def test_the_order_of_the_dice_does_not_change_the_legal_plays(
    position: Position, roll: tuple[int, int]
) -> None:
    first, second = roll
    assert set(BACKGAMMON.legal_plays(position, (first, second))) == set(
        BACKGAMMON.legal_plays(position, (second, first))
    )


# Long nardi


@settings(max_examples=200, deadline=None)
@given(long_nardi_positions)
def test_the_strategy_builds_only_long_nardi_positions_that_can_occur(position: Position) -> None:
    LONG_NARDI.validate(position)


@settings(max_examples=200, deadline=None)
@given(long_nardi_positions)
def test_a_long_nardi_position_id_reads_back_as_the_same_position(position: Position) -> None:
    position_id = position.position_id()
    assert len(position_id) == 14
    assert Position.from_id(position_id) == position


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(long_nardi_positions, dice)
def test_every_legal_long_nardi_play_is_read_back_from_its_own_notation(
    position: Position, roll: tuple[int, int]
) -> None:
    for play in LONG_NARDI.legal_plays(position, roll):
        read = LONG_NARDI.parse_play(position, roll, play.notation())
        assert read.position == play.position, play.notation()


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(long_nardi_positions, dice)
def test_the_legal_long_nardi_plays_lead_to_distinct_positions(
    position: Position, roll: tuple[int, int]
) -> None:
    results = _resulting_positions(LONG_NARDI, position, roll)
    assert len(results) == len(set(results))
    assert len({len(play.steps) for play in LONG_NARDI.legal_plays(position, roll)}) == 1


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(long_nardi_positions, dice)
def test_the_order_of_the_dice_does_not_change_the_legal_long_nardi_plays(
    position: Position, roll: tuple[int, int]
) -> None:
    first, second = roll
    assert set(LONG_NARDI.legal_plays(position, (first, second))) == set(
        LONG_NARDI.legal_plays(position, (second, first))
    )


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(long_nardi_positions, dice)
def test_no_legal_long_nardi_play_builds_six_in_a_row_with_no_opposing_checker_past_it(
    position: Position, roll: tuple[int, int]
) -> None:
    for play in LONG_NARDI.legal_plays(position, roll):
        if play.steps:
            assert LONG_NARDI.six_in_a_row(play.position) is None, play.notation()
