"""What the evaluator is asked and answers: plain values, so that they cross a process boundary
as they are. A gnubg board is two tuples of 25 counts, each side on its own points 1-24 and then
its bar; the second is the side on roll."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

GnubgBoard = tuple[tuple[int, ...], tuple[int, ...]]
CubeOwnerName = Literal["centre", "player", "opponent"]
Steps = tuple[tuple[int, int], ...]  # (from, to) one die each: 25 the bar, 0 off


@dataclass(frozen=True, slots=True)
class Context:
    """The match or money game, the cube (from the side on roll's view) and the plies; money play
    with or without the Jacoby rule and beavers."""

    match_length: int = 0
    score: tuple[int, int] = (0, 0)  # (side on roll, opponent)
    crawford: bool = False
    cube_value: int = 1
    cube_owner: CubeOwnerName = "centre"
    plies: int = 0
    jacoby: bool = False  # money play only
    beavers: bool = False  # money play only


@dataclass(frozen=True, slots=True)
class Evaluation:
    """gnubg's outcome probabilities (win, win gammon, win backgammon, lose gammon, lose
    backgammon: the side on roll's) and its cubeless and cubeful equities."""

    outcomes: tuple[float, float, float, float, float]
    cubeless_equity: float
    cubeful_equity: float


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """gnubg's cube analysis for the side on roll (equities normalised to the present cube)."""

    no_double: float
    double_take: float
    double_pass: float
    action: str  # gnubg's words: "No double", "Double", "Too good to double", "Redouble", ...
    response: str  # "take", "pass" or "beaver"
    cubeless_equity: float

    @property
    def optimal(self) -> float:
        """The side on roll's equity after its proper action: doubling where both answers leave
        it at least what not doubling does (the opponent then answers as suits it best)."""
        return max(self.no_double, min(self.double_take, self.double_pass))
