"""Backgammon: hitting, the bar, gammons and backgammons."""

from __future__ import annotations

from collections.abc import Iterable

from engine.errors import InvalidPositionError
from engine.play import Dice, Step
from engine.position import BAR, OFF, Checkers, Point, Position
from engine.variant import GameResult, Variant

_START: Checkers = tuple(2 if p == 24 else 5 if p in (6, 13) else 3 if p == 8 else 0 for p in range(26))

Sequence = tuple[tuple[Step, ...], Position]


class Backgammon(Variant):
    """Backgammon as RULES.md describes it. My point ``p`` is the opponent's point ``25 - p``."""

    name = "backgammon"

    def start_position(self) -> Position:
        return Position.trusted(_START, _START)

    def opponent_point(self, point: Point) -> Point:
        return 25 - point

    def validate(self, position: Position) -> None:
        for point in range(1, 25):
            if position.player[point] and position.opponent[25 - point]:
                raise InvalidPositionError(
                    f"both sides have checkers on the player's {point}-point"
                    f" (the opponent's {25 - point}-point)"
                )
        if position.player[OFF] == 15 and position.opponent[OFF] == 15:
            raise InvalidPositionError("both sides have borne off all their checkers")

    def result(self, position: Position) -> GameResult | None:
        for winner, loser in ((position.player, position.opponent), (position.opponent, position.player)):
            if winner[OFF] == 15:
                if loser[OFF]:
                    return GameResult.SINGLE
                # The loser's points 19-24 are the winner's home board.
                if any(loser[19:26]):
                    return GameResult.BACKGAMMON
                return GameResult.GAMMON
        return None

    def _step_sequences(self, position: Position, dice: Dice) -> Iterable[Sequence]:
        player = list(position.player)
        opponent = list(position.opponent)
        found: list[Sequence] = []
        high, low = dice
        if high == low:
            _search_double(player, opponent, high, 4, BAR, (), found)
        else:
            _search_two(player, opponent, (high, low), (), found)
            _search_two(player, opponent, (low, high), (), found)
        return found


def _steps_for(player: list[int], opponent: list[int], die: int, highest: Point) -> list[Step]:
    """The single steps with ``die`` from points no higher than ``highest``."""
    if player[BAR]:
        end = BAR - die
        blocking = opponent[die]  # the mover's point 25-d is the opponent's d-point
        if blocking >= 2:
            return []
        return [Step(BAR, end, die, blocking == 1)]
    steps = []
    all_home: bool | None = None
    for start in range(highest, 0, -1):
        if not player[start]:
            continue
        end = start - die
        if end > 0:
            blocking = opponent[25 - end]
            if blocking < 2:
                steps.append(Step(start, end, die, blocking == 1))
            continue
        if all_home is None:
            all_home = not any(player[7:26])
        if not all_home:
            break
        if end == 0 or not any(player[start + 1 : 7]):
            steps.append(Step(start, OFF, die, False))
    return steps


def _apply(player: list[int], opponent: list[int], step: Step) -> None:
    player[step.start] -= 1
    player[step.end] += 1
    if step.hit:
        opponent[25 - step.end] -= 1
        opponent[BAR] += 1


def _undo(player: list[int], opponent: list[int], step: Step) -> None:
    player[step.start] += 1
    player[step.end] -= 1
    if step.hit:
        opponent[25 - step.end] += 1
        opponent[BAR] -= 1


def _search_two(
    player: list[int], opponent: list[int], dice: tuple[int, ...], steps: tuple[Step, ...], found: list[Sequence]
) -> None:
    if dice:
        moves = _steps_for(player, opponent, dice[0], 24)
        if moves:
            for step in moves:
                _apply(player, opponent, step)
                _search_two(player, opponent, dice[1:], steps + (step,), found)
                _undo(player, opponent, step)
            return
    found.append((steps, Position.trusted(tuple(player), tuple(opponent))))


def _search_double(
    player: list[int],
    opponent: list[int],
    die: int,
    left: int,
    highest: Point,
    steps: tuple[Step, ...],
    found: list[Sequence],
) -> None:
    # The steps of a double go from the highest starting point down: any play can be reordered so,
    # and the order spares trying every permutation of the same steps.
    if left:
        moves = _steps_for(player, opponent, die, highest)
        if moves:
            for step in moves:
                _apply(player, opponent, step)
                _search_double(player, opponent, die, left - 1, step.start, steps + (step,), found)
                _undo(player, opponent, step)
            return
    found.append((steps, Position.trusted(tuple(player), tuple(opponent))))
