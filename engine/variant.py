"""What every variant shares: the maximum-use rule, the legal-play view and the checked entry points.

A variant is a sibling class of :class:`Variant` that says how a step may move, where the sides
start, which of its positions are possible and how a finished game scores. Legal plays come from
its ``_step_sequences``: every sequence of steps it allows, each with the position it leads to.
The base class keeps, from those, the plays the maximum-use rule allows, each position once.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import ClassVar, Literal

from engine.errors import InvalidPositionError
from engine.play import Dice, Play, Step, check_dice
from engine.position import Point, Position

VariantName = Literal["backgammon", "long-nardi"]


class GameResult(enum.IntEnum):
    """How a finished game was won; the value is the multiplier of the stake."""

    SINGLE = 1
    GAMMON = 2  # in long nardi: a mars
    BACKGAMMON = 3


class LegalPlays:
    """The legal plays of one position and roll: iterate, ``len``, ``in`` (a play or a position)."""

    __slots__ = ("position", "dice", "_plays", "_by_position")

    def __init__(self, position: Position, dice: Dice, plays: list[Play]) -> None:
        """``plays`` must lead to distinct positions."""
        self.position = position
        self.dice = dice
        self._plays = plays
        self._by_position: dict[Position, Play] | None = None

    def __iter__(self) -> Iterator[Play]:
        return iter(self._plays)

    def __len__(self) -> int:
        return len(self._plays)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return self.leading_to(item.position) == item
        return isinstance(item, Position) and self.leading_to(item) is not None

    def leading_to(self, position: Position) -> Play | None:
        """The legal play that leads to ``position``, if there is one."""
        if self._by_position is None:
            self._by_position = {play.position: play for play in self._plays}
        return self._by_position.get(position)

    @property
    def dice_used(self) -> int:
        """How many dice every legal play uses (0 when the roll cannot be played)."""
        return self._plays[0].dice_used

    def __repr__(self) -> str:
        plays = ", ".join(play.notation() or "(no play)" for play in self)
        return f"<LegalPlays {self.position!r} {self.dice[0]}-{self.dice[1]}: {plays}>"


class Variant(ABC):
    """A rule set for moving checkers. Instances are stateless and shared."""

    name: ClassVar[VariantName]

    @abstractmethod
    def start_position(self) -> Position:
        """The position before the first roll of a game."""

    @abstractmethod
    def opponent_point(self, point: Point) -> Point:
        """The opponent's number for the mover's ``point`` (1-24)."""

    @abstractmethod
    def validate(self, position: Position) -> None:
        """Check that ``position`` can occur in this variant.

        :raises InvalidPositionError: with what makes it impossible.
        """

    @abstractmethod
    def result(self, position: Position) -> GameResult | None:
        """How the game stands won, if a side has borne off all its checkers; else ``None``.

        The winner is whichever side has borne off 15; the result says by how much.
        """

    @abstractmethod
    def _step_sequences(self, position: Position, dice: Dice) -> list[tuple[tuple[Step, ...], Position]]:
        """The positions the variant's steps reach with ``dice``, before the maximum-use rule.

        Each position comes once, with the longest sequence of steps that reaches it (of two
        one-step ways, the higher die's). Every position that a sequence which cannot be extended
        reaches must be there; others may be too (a variant whose rules judge the finished play
        needs them). The order of a double's steps may be fixed to spare permutations, as long as
        every reachable position is reached.
        """

    def legal_plays(self, position: Position, dice: Dice) -> LegalPlays:
        """The legal plays of the side on roll, each resulting position once.

        :raises InvalidDiceError: for dice that cannot be rolled.
        :raises InvalidPositionError: for a position this variant cannot have.
        """
        first, second = check_dice(dice)
        self.validate(position)
        return self._legal_plays(position, (max(first, second), min(first, second)))

    def _legal_plays(self, position: Position, dice: Dice) -> LegalPlays:
        """:meth:`legal_plays` without the checks, the higher die first: for the engine's own use."""
        return _cached_legal_plays(self, position, dice)

    def _apply_maximum_use(
        self, position: Position, dice: Dice, sequences: list[tuple[tuple[Step, ...], Position]]
    ) -> LegalPlays:
        most = max((len(steps) for steps, _ in sequences), default=0)
        if most == 0:
            return LegalPlays(position, dice, [Play.trusted((), position)])
        best = [sequence for sequence in sequences if len(sequence[0]) == most]
        if most == 1 and dice[0] != dice[1]:
            higher = max(dice)
            best = [sequence for sequence in best if sequence[0][0].die == higher] or best
        return LegalPlays(position, dice, [_new_play(Play, sequence) for sequence in best])

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


_new_play = tuple.__new__


@lru_cache(maxsize=4096)
def _cached_legal_plays(variant: Variant, position: Position, dice: Dice) -> LegalPlays:
    return variant._apply_maximum_use(position, dice, variant._step_sequences(position, dice))


def check_side(name: str, checkers: tuple[int, ...], *, bar_allowed: bool) -> None:
    """Shared validity checks for one side's checkers.

    :raises InvalidPositionError: for a checker on the bar where the variant has none.
    """
    if not bar_allowed and checkers[25]:
        raise InvalidPositionError(f"{name} has a checker on the bar, and this variant has no bar")
