"""Fevga: long nardi's board and way round, with the first checker and the prime rules.

Both sides start on their 24-point and move the same way round, a single checker holds a point and
nothing is hit, as in long nardi (whose board this variant shares). In place of the head rule, a side
moves one checker only until that checker has passed the opponent's start; in place of six in a row,
the starting-quarter rule and the unblocking duty (RULES.md "Fevga", and its options).
"""

from __future__ import annotations

from typing import Literal

from tavli.engine import core
from tavli.engine.long_nardi import HEAD, LongNardi, open_points
from tavli.engine.play import PLAIN_STEPS, Dice, Play, Step
from tavli.engine.position import OFF, Checkers, Point, Position
from tavli.engine.variant import (
    GameResult,
    LegalPlays,
    bear_off_start,
    dice_with_rest,
    is_better_way,
)

FirstChecker = Literal["PAST_START", "INTO_START_QUARTER"]
FevgaPrimes = Literal["START_QUARTER_AND_UNBLOCK", "NO_PRIME_UNLESS_PASSED", "NONE"]
FevgaQuarterTest = Literal["PLAY", "STEP"]

FIRST_CHECKER_VALUES: tuple[FirstChecker, ...] = ("PAST_START", "INTO_START_QUARTER")
FEVGA_PRIMES_VALUES: tuple[FevgaPrimes, ...] = ("START_QUARTER_AND_UNBLOCK", "NO_PRIME_UNLESS_PASSED", "NONE")
FEVGA_QUARTER_TEST_VALUES: tuple[FevgaQuarterTest, ...] = ("PLAY", "STEP")

START_QUARTER: tuple[Point, ...] = tuple(range(19, 25))
"""A side's starting quarter, its points 19-24: it may never hold all six (the default primes)."""

# The highest point on which a side's checker frees its other checkers from the first-checker rule:
# past the opponent's start (the mover's 12-point) by default, or on it.
_FIRST_CHECKER_FREE_FROM = {"PAST_START": 11, "INTO_START_QUARTER": 12}

_QUARTER_REFUSAL = "that would leave you holding all six points of your starting quarter"
_UNBLOCK_REFUSAL = "you must open one of the six points in front of your opponent's checkers"
_FIRST_CHECKER_REFUSAL = "until a checker has passed your opponent's start you move only your first checker"


class Fevga(LongNardi):
    """Fevga as RULES.md describes it, with its options as the rule set names them (defaults first).

    A rule set's instance comes from :func:`tavli.engine.variants.variant_with`, which builds each
    set of options once.
    """

    name = "fevga"
    title = "fevga"
    resign_levels = (GameResult.SINGLE, GameResult.GAMMON)
    default_match_openings = "WINNER_OPENS"
    mat_variation = "Fevga"
    example_plays = ("24/18 18/13", "24/13", "13/7(2)", "6/off")
    compiled_rules: int | None = core.FEVGA_RULES
    move_options = ("first_checker", "fevga_primes", "fevga_quarter_test")

    def __init__(
        self,
        *,
        first_checker: FirstChecker = "PAST_START",
        fevga_primes: FevgaPrimes = "START_QUARTER_AND_UNBLOCK",
        fevga_quarter_test: FevgaQuarterTest = "PLAY",
    ) -> None:
        """:raises ValueError: for an option's value the rule book does not name."""
        for option, value, values in (
            ("first_checker", first_checker, FIRST_CHECKER_VALUES),
            ("fevga_primes", fevga_primes, FEVGA_PRIMES_VALUES),
            ("fevga_quarter_test", fevga_quarter_test, FEVGA_QUARTER_TEST_VALUES),
        ):
            if value not in values:
                raise ValueError(f"{option} is {' or '.join(values)}, not {value!r}")
        self.first_checker = first_checker
        self.fevga_primes = fevga_primes
        self.fevga_quarter_test = fevga_quarter_test
        # The compiled core plays the default options only.
        if (first_checker, fevga_primes, fevga_quarter_test) != (
            "PAST_START",
            "START_QUARTER_AND_UNBLOCK",
            "PLAY",
        ):
            self.compiled_rules = None

    def __repr__(self) -> str:
        options = ", ".join(f"{option}={getattr(self, option)!r}" for option in self.move_options)
        return f"Fevga({options})"

    def most_to_lose(self, position: Position) -> GameResult:
        return GameResult.SINGLE if position.player[OFF] else GameResult.GAMMON

    def result(self, position: Position) -> GameResult | None:
        for winner, loser in ((position.player, position.opponent), (position.opponent, position.player)):
            if winner[OFF] == 15:
                return GameResult.SINGLE if loser[OFF] else GameResult.GAMMON
        return None

    # The first checker.

    def first_checker_starts(self, player: Checkers | list[int]) -> tuple[Point, ...] | None:
        """The points the side may move from while its first checker has not yet passed the
        opponent's start, or ``None`` once it has (any checker may then move).

        The first checker is the one that has left the 24-point; while all stand there, any one of
        them. (Play never has two checkers off the 24-point before one has passed; a given position
        that has lets either move.)
        """
        if any(player[OFF : _FIRST_CHECKER_FREE_FROM[self.first_checker] + 1]):
            return None
        left = tuple(point for point in range(HEAD - 1, 0, -1) if player[point])
        return left or (HEAD,)

    # The primes.

    def holds_start_quarter(self, player: Checkers | list[int]) -> bool:
        """Whether the side holds all six points of its starting quarter."""
        return all(player[point] for point in START_QUARTER)

    def prime_to_open(self, position: Position) -> tuple[Point, ...] | None:
        """The six points the side on roll must leave one of empty this turn (the unblocking duty),
        or ``None`` when it has no such duty: every opposing checker on the board stands on one
        point, the opponent's 7-point or higher, and the side holds the six points in front of it."""
        if self.fevga_primes != "START_QUARTER_AND_UNBLOCK":
            return None
        player, opponent = position
        occupied = [point for point in range(1, 25) if opponent[point]]
        if len(occupied) != 1 or occupied[0] < 7:
            return None
        prime = tuple(self.opponent_point(point) for point in range(occupied[0] - 1, occupied[0] - 7, -1))
        return prime if all(player[point] for point in prime) else None

    def refusal_of_play(self, position: Position) -> str | None:
        if self.fevga_primes == "NO_PRIME_UNLESS_PASSED":
            return super().refusal_of_play(position)
        quarter_judged_here = (
            self.fevga_primes == "START_QUARTER_AND_UNBLOCK" and self.fevga_quarter_test == "PLAY"
        )
        if quarter_judged_here and self.holds_start_quarter(position.player):
            return f"{_QUARTER_REFUSAL} after your play"
        return None

    def refusal_of_duty(self, position: Position, dice: Dice, after: Position) -> str | None:
        prime = self.prime_to_open(position)
        if prime is None or not all(after.player[point] for point in prime):
            return None
        opening = self._opening_plays(self.legal_plays(position, dice), prime)
        if not opening:
            return None  # no play the other rules allow opens the prime: the duty lapses
        return f"{_UNBLOCK_REFUSAL}: {opening[0].notation()} does"

    # The checked path: long nardi's step, with these two rules in place of the head rule.

    def refusal_to_move(
        self, player: Checkers, start: Point, *, taken: tuple[Step, ...], dice: Dice
    ) -> str | None:
        starts = self.first_checker_starts(player)
        if starts is None or start in starts:
            return None
        return f"{_FIRST_CHECKER_REFUSAL}, the one on your {starts[0]}-point"

    def refusal_to_land(self, player: Checkers, start: Point, end: Point) -> str | None:
        return _QUARTER_REFUSAL if self._step_test_forbids(player, start, end) else None

    def _step_test_forbids(self, player: Checkers | list[int], start: Point, end: Point) -> bool:
        """Whether the step from ``start`` to ``end`` leaves the starting quarter held, under the
        quarter test of each step (``fevga_quarter_test`` = ``STEP``)."""
        if self.fevga_primes != "START_QUARTER_AND_UNBLOCK" or self.fevga_quarter_test != "STEP":
            return False
        return all(player[point] - (point == start) + (point == end) > 0 for point in START_QUARTER)

    # The generator.

    def _pure_plays(self, position: Position, dice: Dice) -> LegalPlays:
        legal = super()._pure_plays(position, dice)
        prime = self.prime_to_open(position)
        if prime is None:
            return legal
        return LegalPlays(position, dice, self._opening_plays(legal, prime) or list(legal))

    @staticmethod
    def _opening_plays(legal: LegalPlays, prime: tuple[Point, ...]) -> list[Play]:
        return [play for play in legal if not all(play.position.player[point] for point in prime)]

    def _step_sequences(self, position: Position, dice: Dice) -> list[Play]:
        # Every order of the dice and of the checkers is followed, one die at a time: the first
        # checker may have to move before another can (24/9 24/19 with 5-5). Boards reached with
        # the same dice left are followed once. Every sequence, finished or not, is a candidate:
        # when all the longer ones break a rule judged on the whole play, a shorter one is the play.
        high, low = dice
        opponent = position.opponent
        open_ = open_points(opponent)
        found: dict[Position, tuple[Step, ...]] = {position: ()}
        layer: dict[tuple[Checkers, tuple[int, ...]], tuple[Step, ...]] = {
            (position.player, (high,) * 4 if high == low else (high, low)): ()
        }
        while layer:
            following: dict[tuple[Checkers, tuple[int, ...]], tuple[Step, ...]] = {}
            for (player, left), steps in layer.items():
                for die, rest in dice_with_rest(left):
                    for step in self._steps(player, die, open_):
                        board = list(player)
                        board[step.start] -= 1
                        board[step.end] += 1
                        after = tuple(board)
                        sequence = steps + (step,)
                        following.setdefault((after, rest), sequence)
                        result = Position.trusted(after, opponent)
                        if is_better_way(sequence, found.get(result)):
                            found[result] = sequence
            layer = following
        return [
            Play.trusted(steps, result)
            for result, steps in found.items()
            if self.refusal_of_play(result) is None
        ]

    def _steps(self, player: Checkers, die: int, open_: list[bool]) -> list[Step]:
        """The single steps with ``die`` that the rules allow now (the unchecked twin of :meth:`step`)."""
        starts = self.first_checker_starts(player)
        moves = PLAIN_STEPS[die]
        steps = [
            moves[start]
            for start in (starts or range(HEAD, die, -1))
            if start > die
            and player[start]
            and open_[start - die]
            and not self._step_test_forbids(player, start, start - die)
        ]
        start = bear_off_start(player, die, 6)
        if start is not None and (starts is None or start in starts):
            steps.append(Step(start, OFF, die, False))
        return steps
