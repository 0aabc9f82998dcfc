"""The rule set of a game or match: the variant, the match length and every named option."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from tavli.engine.backgammon import STARTS, Backgammon, HomeHitAndRun, Start, backgammon_rules
from tavli.engine.clock import ClockRules
from tavli.engine.errors import TavliError
from tavli.engine.position import Position
from tavli.engine.variant import GameResult, Variant, VariantName
from tavli.engine.variants import VARIANTS

Opening = Literal["PLAY_OPENING_DICE", "WINNER_ROLLS_AGAIN"]
MatchOpenings = Literal["EVERY_GAME", "WINNER_OPENS", "ALTERNATE"]
Backgammons = Literal["COUNTED", "AS_GAMMON"]

CUBE_CEILING = 1 << 24
"""The highest value the cube ever takes, even with ``cube_limit`` 0 ("no limit").

The API carries cube values, and the points a game scores (up to three times the cube), in
32-bit unsigned fields; 2**24 leaves room for a backgammon at the highest cube. Nobody doubles or
beavers past it.
"""


DEFAULT_CUBE_LIMIT = 64
"""The cube's limit when a rule set names none: it goes no higher than 64."""

MOST_MATCH_LENGTH = 32_767
"""The longest match: a Match ID writes the length in 15 bits (and the score stays far from the
API's 32-bit fields)."""


_HIT_AND_RUN = ("ALLOWED", "FORBIDDEN")


class InvalidRuleSetError(TavliError):
    """A rule set whose options contradict each other or the variant."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything that decides how a game or match is played (RULES.md names each option).

    ``match_length`` 0 is money play (games scored one after another, totals kept). ``cube`` and
    ``opening`` default to the variant's own: the cube and ``PLAY_OPENING_DICE`` in backgammon,
    no cube and ``WINNER_ROLLS_AGAIN`` in long nardi. ``cube_limit`` 0 means no limit but
    :data:`CUBE_CEILING`; a limit above the ceiling is capped to it (so ``cube_limit`` reads
    2**24 afterwards), the cube being unable to go higher anyway. ``backgammons`` ``AS_GAMMON``
    scores a backgammon as a gammon (:meth:`counted`), in a variant that has backgammons.
    ``start`` and ``home_hit_and_run`` are options of backgammon's (nackgammon, hypergammon and
    Turkish tavla's hit-and-run rule); :attr:`rules` is the variant with them.

    :raises InvalidRuleSetError: for options that make no sense together ("a cube in long nardi",
        "beavers in a match").
    """

    variant: VariantName = "backgammon"
    match_length: int = 0
    cube: bool | None = None
    cube_limit: int = DEFAULT_CUBE_LIMIT
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: bool = False
    automatic_doubles_limit: int = 1
    opening: Opening | None = None
    match_openings: MatchOpenings = "EVERY_GAME"
    auto_play_forced: bool = False
    backgammons: Backgammons = "COUNTED"
    clock: ClockRules | None = None  # None: no clocks
    start: Start = "STANDARD"
    home_hit_and_run: HomeHitAndRun = "ALLOWED"
    _variant: Variant = field(init=False, repr=False, compare=False)
    _resign_levels: tuple[GameResult, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise InvalidRuleSetError(f"unknown variant {self.variant!r}: choose {' or '.join(sorted(VARIANTS))}")
        variant = VARIANTS[self.variant]
        options = (self.start, self.home_hit_and_run)
        if (
            isinstance(variant, Backgammon)
            and options != (variant.start, variant.home_hit_and_run)
            and self.start in STARTS  # else refused below
            and self.home_hit_and_run in _HIT_AND_RUN
        ):
            variant = backgammon_rules(*options)
        object.__setattr__(self, "_variant", variant)
        if self.cube is None:
            object.__setattr__(self, "cube", variant.cube)
        if self.opening is None:
            object.__setattr__(self, "opening", variant.default_opening)
        self._check()
        levels = dict.fromkeys(self.counted(level) for level in variant.resign_levels)
        object.__setattr__(self, "_resign_levels", tuple(levels))
        if self.cube_limit > CUBE_CEILING:
            object.__setattr__(self, "cube_limit", CUBE_CEILING)

    def _check(self) -> None:
        problems = []
        if not isinstance(self.match_length, int) or self.match_length < 0:
            problems.append("the match length is a whole number of points, or 0 for money play")
        elif self.match_length > MOST_MATCH_LENGTH:
            problems.append(f"a match is at most {MOST_MATCH_LENGTH} points long (the most a Match ID holds)")
        if self.cube_limit < 0 or (self.cube_limit and self.cube_limit & (self.cube_limit - 1)):
            problems.append(f"the cube limit is a power of two ({DEFAULT_CUBE_LIMIT} by default), or 0 for no limit")
        if self.automatic_doubles_limit < 1:
            problems.append("the automatic doubles limit is at least 1")
        if self.opening not in ("PLAY_OPENING_DICE", "WINNER_ROLLS_AGAIN"):
            problems.append(f"unknown opening {self.opening!r}")
        if self.match_openings not in ("EVERY_GAME", "WINNER_OPENS", "ALTERNATE"):
            problems.append(f"unknown match openings {self.match_openings!r}")
        variant = self._variant
        if self.start not in STARTS:
            problems.append(f"unknown start {self.start!r}: choose {', '.join(STARTS)}")
        elif self.start != "STANDARD" and not isinstance(variant, Backgammon):
            problems.append(
                f"{variant.title} has its own start: the start {self.start} is backgammon's option"
            )
        if self.home_hit_and_run not in _HIT_AND_RUN:
            problems.append(
                f"hit-and-run in the home board is ALLOWED or FORBIDDEN, not {self.home_hit_and_run!r}"
            )
        elif self.home_hit_and_run != "ALLOWED" and not variant.hits:
            problems.append(f"nothing is hit in {variant.title}, so there is no hit-and-run to forbid")
        if self.backgammons not in ("COUNTED", "AS_GAMMON"):
            problems.append(f"backgammons are COUNTED or scored AS_GAMMON, not {self.backgammons!r}")
        elif self.backgammons == "AS_GAMMON" and GameResult.BACKGAMMON not in variant.resign_levels:
            biggest = variant.resign_levels[-1]
            problems.append(
                f"{variant.title} has no backgammons to score as gammons: its biggest win, a"
                f" {biggest.value}, is worth {biggest.multiplier} already"
            )
        if not variant.cube:
            if self.cube:
                problems.append(f"{variant.title} is played without a cube")
            if self.opening != variant.default_opening:
                problems.append(f"in {variant.title} the opening throw is not played: the winner rolls again")
            if self.automatic_doubles or self.beavers or self.jacoby:
                problems.append(f"automatic doubles, beavers and Jacoby need a cube, and {variant.title} has none")
        if self.match_length:
            for name in ("beavers", "jacoby", "automatic_doubles"):
                if getattr(self, name):
                    problems.append(f"{name.replace('_', ' ')} apply to money play, not to a match")
        elif self.match_openings == "WINNER_OPENS":
            problems.append("the winner opens later games of a match; money games all start with the opening throw")
        elif self.match_openings == "ALTERNATE":
            problems.append(
                "the sides take turns to open the games of a match;"
                " money games all start with the opening throw"
            )
        if (self.beavers or self.jacoby or self.automatic_doubles) and not self.cube:
            problems.append("beavers, Jacoby and automatic doubles need the cube")
        if self.clock is not None:
            problems.extend(self.clock.problems(self.match_length if isinstance(self.match_length, int) else 0))
        if problems:
            raise InvalidRuleSetError("; ".join(problems))

    @property
    def rules(self) -> Variant:
        """The variant's rules for moving checkers."""
        return self._variant

    def counted(self, result: GameResult) -> GameResult:
        """``result`` as this rule set scores it: a backgammon is a gammon under ``AS_GAMMON``.

        Every result the game reaches (a play, a resignation's cap) passes here, so a backgammon
        is never recorded, offered or scored where the rule set counts it as a gammon.
        """
        if result is GameResult.BACKGAMMON and self.backgammons == "AS_GAMMON":
            return GameResult.GAMMON
        return result

    def result(self, position: Position) -> GameResult | None:
        """How the game in ``position`` stands won under this rule set, or ``None`` while it goes on."""
        result = self._variant.result(position)
        return None if result is None else self.counted(result)

    @property
    def resign_levels(self) -> tuple[GameResult, ...]:
        """What a game can be lost by under this rule set, least first: the variant's results,
        without the backgammon where it counts as a gammon."""
        return self._resign_levels

    @property
    def highest_cube(self) -> int:
        """The highest value the cube may take: ``cube_limit``, or :data:`CUBE_CEILING` without one."""
        return self.cube_limit or CUBE_CEILING

    @property
    def is_match(self) -> bool:
        return self.match_length > 0

    @property
    def uses_cube(self) -> bool:
        """Whether a cube is in play at all: never in a 1-point match."""
        return bool(self.cube) and self.match_length != 1
