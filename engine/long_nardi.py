"""Long nardi: no hitting, the head rule and the six-in-a-row rule."""

from __future__ import annotations

from typing import ClassVar

from tavli.engine import core
from tavli.engine.errors import InvalidPositionError
from tavli.engine.play import Dice, Play, Step
from tavli.engine.position import BAR, OFF, Checkers, Point, Position
from tavli.engine.variant import (
    GameResult,
    Variant,
    VariantName,
    bear_off_refusal,
    bear_off_start,
    is_better_way,
)

HEAD: Point = 24
_START: Checkers = tuple(15 if point == HEAD else 0 for point in range(26))
_FIRST_TURN_DOUBLES = (3, 4, 6)  # the rolls that let two checkers leave the head on a first turn

# The mover's points in the order the opponent passes them: the opponent's 1-point is the mover's
# 13, its 12 the mover's 24, its 13 the mover's 1 and its 24 the mover's 12.
_ALONG_OPPONENTS_PATH = tuple(range(13, 25)) + tuple(range(1, 13))

_new = tuple.__new__


class LongNardi(Variant):
    """Long nardi as RULES.md describes it. My point ``p`` is the opponent's ``p ± 12``."""

    name: ClassVar[VariantName] = "long-nardi"
    title = "long nardi"
    hits = False
    cube = False
    default_opening = "WINNER_ROLLS_AGAIN"
    fixed_opening = True
    resign_levels = (GameResult.SINGLE, GameResult.MARS)
    mat_variation = "Long Nardi"
    gnubg_variant = None
    same_way_round = True
    example_plays = ("24/18 13/8", "24/13", "13/7(2)", "6/off")
    compiled_rules: int | None = core.LONG_NARDI_RULES

    def start_position(self) -> Position:
        return Position.trusted(_START, _START)

    def opponent_point(self, point: Point) -> Point:
        return point + 12 if point <= 12 else point - 12

    def validate(self, position: Position) -> None:
        for name, checkers in (("the player", position.player), ("the opponent", position.opponent)):
            if checkers[BAR]:
                raise InvalidPositionError(f"{name} has a checker on the bar; {self.title} has no bar")
        super().validate(position)

    def most_to_lose(self, position: Position) -> GameResult:
        return GameResult.SINGLE if position.player[OFF] else GameResult.MARS

    def result(self, position: Position) -> GameResult | None:
        for winner, loser in ((position.player, position.opponent), (position.opponent, position.player)):
            if winner[OFF] == 15:
                return GameResult.SINGLE if loser[OFF] else GameResult.MARS
        return None

    def six_in_a_row(self, position: Position) -> tuple[Point, ...] | None:
        """The mover's six points in a row that break the rule, if it holds any, else ``None``.

        Six points in a row along the opponent's path break the rule unless an opponent checker
        is already past them: on a lower opponent point than the run's first, or borne off.
        """
        player, opponent = position
        if opponent[OFF]:
            return None
        run = 0
        for index, point in enumerate(_ALONG_OPPONENTS_PATH):
            run = run + 1 if player[point] else 0
            if run >= 6:
                first = index - 4  # the opponent's number for the run's first point
                if not any(opponent[1:first]):
                    return _ALONG_OPPONENTS_PATH[index - 5 : index + 1]
        return None

    def step(
        self, position: Position, start: Point, die: int, *, taken: tuple[Step, ...], dice: Dice
    ) -> Step | str:
        player, opponent = position
        if start == OFF:
            return "a checker borne off is out of play: it cannot move again"
        if start == BAR:
            return f"{self.title} has no bar: every checker moves from a point"
        if not player[start]:
            return f"you have no checker on your {start}-point"
        refusal = self.refusal_to_move(player, start, taken=taken, dice=dice)
        if refusal is not None:
            return refusal
        end = start - die
        if end <= 0:
            return bear_off_refusal(player, start, die, outside="outside your home board")
        if not open_points(opponent)[end]:
            return f"the {die} is blocked by the opponent's checker on your {end}-point"
        return self.refusal_to_land(player, start, end) or Step(start, end, die, False)

    def refusal_to_move(
        self, player: Checkers, start: Point, *, taken: tuple[Step, ...], dice: Dice
    ) -> str | None:
        """Why the checker on ``start`` may not move now, for the rule on which checkers move (the
        head rule): the step's part of :meth:`step` that variants on this board change."""
        if start != HEAD:
            return None
        left_head = sum(1 for step in taken if step.start == HEAD)
        first_turn = player[HEAD] + left_head == 15
        if left_head < _head_leavers(first_turn, dice):
            return None
        if left_head == 1:
            return "only one checker may leave the head this turn"
        return "only two checkers may leave the head, even on a first turn"

    def refusal_to_land(self, player: Checkers, start: Point, end: Point) -> str | None:
        """Why a checker may not step from ``start`` to the open point ``end``, for a rule judged
        on each step's board (none in long nardi)."""
        return None

    def refusal_of_play(self, position: Position) -> str | None:
        if self.six_in_a_row(position) is None:
            return None
        return "that play would build six points in a row with no opposing checker past them"

    def _step_sequences(self, position: Position, dice: Dice) -> list[Play]:
        search = _Search(position, dice)
        high, low = dice
        if high == low:
            search.double(high, 4, HEAD, ())
            candidates = search.doubles
        else:
            search.two(high, low)
            search.two(low, high)
            candidates = [_new(Play, (steps, result)) for result, steps in search.found.items()]
        # Every sequence, finished or not, is a candidate: when all the longer ones build a
        # forbidden run, a shorter one is the play.
        return [play for play in candidates if self.six_in_a_row(play.position) is None]


def _head_leavers(first_turn: bool, dice: Dice) -> int:
    """How many checkers may leave the head this turn."""
    return 2 if first_turn and dice[0] == dice[1] and dice[0] in _FIRST_TURN_DOUBLES else 1


def open_points(opponent: Checkers) -> list[bool]:
    """For each of the mover's points (0-24), whether it is open to the mover: no opponent
    checker stands on it. The blocking rule, stated once: a point with any opponent checker on it
    is blocked (there is no hitting). The mover's point p is the opponent's p + 12 or p - 12; off
    (index 0) is not a point, and bearing off is judged apart.
    """
    return [False] + [not opponent[p + 12 if p <= 12 else p - 12] for p in range(1, 25)]


class _Search:
    """Every sequence of steps, each prefix included, under the blocking and head rules."""

    __slots__ = ("doubles", "found", "head_leavers", "may_bear_off", "open", "player", "position")

    def __init__(self, position: Position, dice: Dice) -> None:
        player, opponent = position
        self.position = position
        self.player = list(player)
        self.open = open_points(opponent)
        self.head_leavers = _head_leavers(player[HEAD] == 15, dice)
        self.may_bear_off = sum(player[7:25]) < 4
        self.found: dict[Position, tuple[Step, ...]] = {}
        self.doubles: list[Play] = [_new(Play, ((), position))]

    def steps(self, die: int, highest: Point, left_head: int) -> list[Step]:
        """The single steps with ``die`` from points no higher than ``highest``."""
        player = self.player
        open_ = self.open
        lowest_start = die + 1
        steps = [
            _new(Step, (start, start - die, die, False))
            for start in range(highest, lowest_start - 1, -1)
            if player[start] and open_[start - die] and (start != HEAD or left_head < self.head_leavers)
        ]
        if self.may_bear_off:
            start = bear_off_start(player, die, highest)
            if start is not None:
                steps.append(_new(Step, (start, OFF, die, False)))
        return steps

    def current(self) -> Position:
        return _new(Position, (tuple(self.player), self.position.opponent))

    def record(self, steps: tuple[Step, ...]) -> None:
        result = self.current()
        if is_better_way(steps, self.found.get(result)):
            self.found[result] = steps

    def two(self, first: int, second: int) -> None:
        player = self.player
        self.record(())
        for step in self.steps(first, HEAD, 0):
            player[step.start] -= 1
            player[step.end] += 1
            self.record((step,))
            for step2 in self.steps(second, HEAD, 1 if step.start == HEAD else 0):
                player[step2.start] -= 1
                player[step2.end] += 1
                self.record((step, step2))
                player[step2.start] += 1
                player[step2.end] -= 1
            player[step.start] += 1
            player[step.end] -= 1

    def double(self, die: int, left: int, highest: Point, steps: tuple[Step, ...]) -> None:
        # As in backgammon, a double's steps go from the highest start down, and each multiset of
        # starts, so each resulting position, is reached once. Every prefix is recorded.
        player = self.player
        left_head = sum(1 for step in steps if step.start == HEAD)
        for step in self.steps(die, highest, left_head):
            player[step.start] -= 1
            player[step.end] += 1
            sequence = steps + (step,)
            self.doubles.append(_new(Play, (sequence, self.current())))
            if left > 1:
                self.double(die, left - 1, step.start, sequence)
            player[step.start] += 1
            player[step.end] -= 1
