"""What is wrong with a match record, in a player's words, and the errors that carry it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tavli.engine.errors import TavliError

if TYPE_CHECKING:
    from tavli.engine.events import Side


class RulesUnknown(Exception):
    """A header whose rules tavli cannot play (another variant, tags that do not go together)."""


class MatFileError(TavliError):
    """A .mat file that holds no readable match, or records something the rules do not allow.

    ``problems`` holds every problem found; the message and the attributes ``why`` (the first
    problem's ``reason``), ``game``, ``move_number``, ``side``, ``action`` and ``line`` are the first one's.
    """

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        first = self.problems[0]
        self.why, self.game, self.move_number = first.reason, first.game, first.move
        self.side, self.action, self.line = first.side, first.action, first.line
        more = len(self.problems) - 1
        super().__init__(
            str(first) + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")
        )


@dataclass(frozen=True, slots=True)
class Problem:
    """Something a match record gets wrong, where it stands and why, in a player's words.

    ``game`` and ``move`` are ``None`` where the problem is not in a game or not on a move line;
    ``side`` is the column that acted (0 the left), ``None`` when nobody did (a score line).
    """

    reason: str
    game: int | None = None
    move: int | None = None
    line: int | None = None
    side: Side | None = None
    player: str | None = field(default=None, compare=False)
    action: str = field(default="", compare=False)  # what was attempted: "plays '6/2 6/1' with 4-5"

    def __str__(self) -> str:
        where = []
        if self.game is not None:
            where.append(f"game {self.game}")
        if self.move is not None:
            where.append(f"move {self.move}")
        if self.side is not None:
            where.append(f"player {self.side}" + (f" ({self.player})" if self.player else ""))
        if self.line is not None:
            where.append(f"line {self.line}")
        return (", ".join(where) + ": " if where else "") + self.message

    @property
    def message(self) -> str:
        """The problem in words, without where it stands: what was attempted, then why not."""
        return f"{self.action}: {self.reason}" if self.action else self.reason


# --- the checker's words for what the compiled core's pass finds as well ---------------------
# (``summary`` words the core's findings with these, so that both say each problem alike.)

RESULT_WITHOUT_LOSER = (
    "the result does not say who lost (it stands at the line's start, in neither player's"
    " column, and no other result line or score line says who won)"
)


def points_in_words(points: int) -> str:
    """``2 points``, ``1 point``: as a result is written."""
    return f"{points} point" + ("" if points == 1 else "s")


def cube_turned_to(value: int) -> str:
    """A double written with another value than ``value``, the one it turns the cube to."""
    return f"that turns the cube to {value}"


def resignation_worth_at_most(points: int, cube: int) -> str:
    """A result worth more than any resignation (``points`` at most) with the cube at ``cube``."""
    return f"a resignation is worth at most {points_in_words(points)} with the cube at {cube}"


def match_not_won(winner: int, score: int, length: int) -> str:
    """A result written "and the match" that leaves its winner at ``score`` of ``length``."""
    return f"player {winner} has {score} of the {length} points of the match: the match is not won"


__all__ = [
    "RESULT_WITHOUT_LOSER",
    "MatFileError",
    "Problem",
    "RulesUnknown",
    "cube_turned_to",
    "match_not_won",
    "points_in_words",
    "resignation_worth_at_most",
]
