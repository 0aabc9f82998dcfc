"""The rule set of a game or match: the variant, the match length and every named option."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

from tavli.engine.backgammon import HOME_HIT_AND_RUN_VALUES, START_VALUES, HomeHitAndRun, Start
from tavli.engine.clock import ClockRules
from tavli.engine.errors import TavliError
from tavli.engine.fevga import (
    FEVGA_PRIMES_VALUES,
    FEVGA_QUARTER_TEST_VALUES,
    FIRST_CHECKER_VALUES,
    FevgaPrimes,
    FevgaQuarterTest,
    FirstChecker,
)
from tavli.engine.position import Position
from tavli.engine.variant import GameResult, Variant, VariantName
from tavli.engine.variants import VARIANTS, variant_with

Opening = Literal["PLAY_OPENING_DICE", "WINNER_ROLLS_AGAIN"]
MatchOpenings = Literal["EVERY_GAME", "WINNER_OPENS", "ALTERNATE"]
Backgammons = Literal["COUNTED", "AS_GAMMON"]
MatchVariant = VariantName | Literal["tavli"]
"""What a rule set plays: one variant, or ``"tavli"``, the Greek tavli match of three."""

TAVLI: Final = "tavli"
TAVLI_ROTATION: tuple[VariantName, ...] = ("backgammon", "plakoto", "fevga")
"""The games of a tavli match in turn (RULES.md, "The Greek tavli match"): game k is the
``(k - 1) % 3``-th, Portes (backgammon's rules without the cube), Plakoto, Fevga."""

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


def default_backgammons(variant: MatchVariant) -> Backgammons:
    """How backgammons score when a rule set does not say: as gammons in a tavli match (its Portes
    games), else counted."""
    return "AS_GAMMON" if variant == TAVLI else "COUNTED"


class InvalidRuleSetError(TavliError):
    """A rule set whose options contradict each other or the variant."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Everything that decides how a game or match is played (RULES.md names each option).

    ``match_length`` 0 is money play (games scored one after another, totals kept). ``cube`` and
    ``opening`` default to the variant's own: the cube and ``PLAY_OPENING_DICE`` in backgammon,
    no cube and ``WINNER_ROLLS_AGAIN`` in long nardi. ``match_openings`` defaults to the variant's
    in a match (``WINNER_OPENS`` in Plakoto and Fevga, else ``EVERY_GAME``) and is ``EVERY_GAME``
    in money play; ``ALTERNATE`` has the sides take turns to open a match's games. ``cube_limit`` 0
    means no limit but :data:`CUBE_CEILING`; a limit above the ceiling is capped to it (so
    ``cube_limit`` reads 2**24 afterwards), the cube being unable to go higher anyway.
    ``backgammons`` ``AS_GAMMON`` scores a backgammon as a gammon (:meth:`counted`), in a variant
    that has backgammons. ``start`` and ``home_hit_and_run`` are backgammon's (nackgammon,
    hypergammon and Turkish tavla's hit-and-run rule), ``pinned_blocks_bear_off``,
    ``mother_exception`` and ``mother_value`` (2 or 3 points) Plakoto's, ``first_checker``,
    ``fevga_primes`` and ``fevga_quarter_test`` Fevga's (RULES.md); each is refused at other than
    its default in the other variants, and :attr:`rules` is the variant built with those that
    change how checkers move.

    ``variant`` ``"tavli"`` is the Greek tavli match (a match of 1 point or more, no cube): its
    games are played by :meth:`for_game`, the rule set of Portes, Plakoto or Fevga by the game's
    number, each made of this one's options that apply to it. Its ``opening`` defaults to
    ``WINNER_ROLLS_AGAIN``, ``match_openings`` to ``WINNER_OPENS`` and ``backgammons`` (of its
    Portes games) to ``AS_GAMMON``; elsewhere ``backgammons`` defaults to ``COUNTED``. :attr:`rules`
    is then game 1's variant.

    :raises InvalidRuleSetError: for options that make no sense together ("a cube in long nardi",
        "beavers in a match").
    """

    variant: MatchVariant = "backgammon"
    match_length: int = 0
    cube: bool | None = None
    cube_limit: int = DEFAULT_CUBE_LIMIT
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: bool = False
    automatic_doubles_limit: int = 1
    opening: Opening | None = None
    match_openings: MatchOpenings | None = None
    auto_play_forced: bool = False
    backgammons: Backgammons | None = None  # None: AS_GAMMON in a tavli match, else COUNTED
    clock: ClockRules | None = None  # None: no clocks
    start: Start = "STANDARD"
    home_hit_and_run: HomeHitAndRun = "ALLOWED"
    pinned_blocks_bear_off: bool = True
    mother_exception: bool = True
    mother_value: int = 2
    first_checker: FirstChecker = "PAST_START"
    fevga_primes: FevgaPrimes = "START_QUARTER_AND_UNBLOCK"
    fevga_quarter_test: FevgaQuarterTest = "PLAY"
    _variant: Variant = field(init=False, repr=False, compare=False)
    _resign_levels: tuple[GameResult, ...] = field(init=False, repr=False, compare=False)
    _games: tuple[RuleSet, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.variant == TAVLI:
            self._set_up_tavli_match()
            return
        if self.variant not in VARIANTS:
            raise InvalidRuleSetError(
                f"unknown variant {self.variant!r}: choose {' or '.join(sorted([*VARIANTS, TAVLI]))}"
            )
        object.__setattr__(self, "_games", (self,))
        if self.backgammons is None:
            object.__setattr__(self, "backgammons", default_backgammons(self.variant))
        variant = VARIANTS[self.variant]
        object.__setattr__(self, "_variant", variant)
        if self.cube is None:
            object.__setattr__(self, "cube", variant.cube)
        if self.opening is None:
            object.__setattr__(self, "opening", variant.default_opening)
        if self.match_openings is None:
            in_match = isinstance(self.match_length, int) and self.match_length > 0
            openings = variant.default_match_openings if in_match else "EVERY_GAME"
            object.__setattr__(self, "match_openings", openings)
        self._check()
        options = tuple((name, getattr(self, name)) for name in variant.move_options)
        object.__setattr__(self, "_variant", variant_with(self.variant, options))
        levels = dict.fromkeys(self.counted(level) for level in variant.resign_levels)
        object.__setattr__(self, "_resign_levels", tuple(levels))
        if self.cube_limit > CUBE_CEILING:
            object.__setattr__(self, "cube_limit", CUBE_CEILING)

    def _set_up_tavli_match(self) -> None:
        """A tavli match's defaults, its own checks, and the rule sets of its three games."""
        for name, default in (
            ("cube", False),
            ("opening", "WINNER_ROLLS_AGAIN"),
            ("match_openings", "WINNER_OPENS"),
            ("backgammons", default_backgammons(TAVLI)),
        ):
            if getattr(self, name) is None:
                object.__setattr__(self, name, default)
        problems = []
        if not isinstance(self.match_length, int) or not 1 <= self.match_length <= MOST_MATCH_LENGTH:
            problems.append(
                f"a tavli match is played to a number of points: give a match length from 1 to"
                f" {MOST_MATCH_LENGTH}"
            )
        if self.cube:
            problems.append("a tavli match is played without a cube")
        if self.automatic_doubles or self.beavers or self.jacoby:
            problems.append("automatic doubles, beavers and Jacoby need a cube, and a tavli match has none")
        if problems:
            raise InvalidRuleSetError("; ".join(problems))
        games = tuple(self._tavli_game(name) for name in TAVLI_ROTATION)
        object.__setattr__(self, "_games", games)
        object.__setattr__(self, "_variant", games[0].rules)
        object.__setattr__(self, "_resign_levels", games[0].resign_levels)

    def _tavli_game(self, name: VariantName) -> RuleSet:
        """The rule set of a tavli match's games of variant ``name``: the match's options that
        apply to that game.

        :raises InvalidRuleSetError: naming the game, for an option its rules refuse.
        """
        variant = VARIANTS[name]
        own: dict[str, Any] = {option: getattr(self, option) for option in variant.move_options}
        if variant.pins:
            own["mother_value"] = self.mother_value
        if GameResult.BACKGAMMON in variant.resign_levels:
            own["backgammons"] = self.backgammons
        try:
            return RuleSet(
                variant=name,
                match_length=self.match_length,
                cube=False,
                opening=self.opening,
                match_openings=self.match_openings,
                auto_play_forced=self.auto_play_forced,
                clock=self.clock,
                **own,
            )
        except InvalidRuleSetError as error:
            title = "Portes" if name == "backgammon" else variant.title.capitalize()
            raise InvalidRuleSetError(f"in the tavli match's {title} games: {error}") from None

    def for_game(self, number: int) -> RuleSet:
        """The rule set game ``number`` (from 1) of the match is played by: this one, except in a
        tavli match, where it is Portes's, Plakoto's or Fevga's by the game's place in the rotation."""
        return self._games[(number - 1) % len(self._games)]

    @property
    def variants_played(self) -> tuple[Variant, ...]:
        """The variants of the match's games, with this rule set's options: one, or a tavli
        match's three in turn."""
        return tuple(game.rules for game in self._games)

    def _check(self) -> None:
        problems = []
        if not isinstance(self.match_length, int) or self.match_length < 0:
            problems.append("the match length is a whole number of points, or 0 for money play")
        elif self.match_length > MOST_MATCH_LENGTH:
            problems.append(f"a match is at most {MOST_MATCH_LENGTH} points long (the most a Match ID holds)")
        if self.cube_limit < 0 or (self.cube_limit and self.cube_limit & (self.cube_limit - 1)):
            problems.append(
                f"the cube limit is a power of two ({DEFAULT_CUBE_LIMIT} by default), or 0 for no limit"
            )
        if self.automatic_doubles_limit < 1:
            problems.append("the automatic doubles limit is at least 1")
        if self.opening not in ("PLAY_OPENING_DICE", "WINNER_ROLLS_AGAIN"):
            problems.append(f"unknown opening {self.opening!r}")
        if self.match_openings not in ("EVERY_GAME", "WINNER_OPENS", "ALTERNATE"):
            problems.append(f"unknown match openings {self.match_openings!r}")
        variant = self._variant
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
            if variant.fixed_opening and self.opening != variant.default_opening:
                problems.append(f"in {variant.title} the opening throw is not played: the winner rolls again")
            if self.automatic_doubles or self.beavers or self.jacoby:
                problems.append(
                    f"automatic doubles, beavers and Jacoby need a cube, and {variant.title} has none"
                )
        if self.match_length:
            for name in ("beavers", "jacoby", "automatic_doubles"):
                if getattr(self, name):
                    problems.append(f"{name.replace('_', ' ')} apply to money play, not to a match")
        elif self.match_openings == "WINNER_OPENS":
            problems.append(
                "the winner opens later games of a match; money games all start with the opening throw"
            )
        elif self.match_openings == "ALTERNATE":
            problems.append(
                "the sides take turns to open the games of a match;"
                " money games all start with the opening throw"
            )
        if (self.beavers or self.jacoby or self.automatic_doubles) and not self.cube:
            problems.append("beavers, Jacoby and automatic doubles need the cube")
        if self.mother_value not in (2, 3):
            problems.append(f"a mother loss is worth 2 or 3 points, not {self.mother_value!r}")
        elif self.mother_value != 2 and not variant.pins:
            problems.append(f"the mother's value is a rule of Plakoto; {variant.title} has no pins")
        problems.extend(self._move_option_problems())
        if self.clock is not None:
            problems.extend(
                self.clock.problems(self.match_length if isinstance(self.match_length, int) else 0)
            )
        if problems:
            raise InvalidRuleSetError("; ".join(problems))

    def _move_option_problems(self) -> list[str]:
        """What is wrong with the options that change how checkers move: an unknown value, or a
        value other than the default for a variant whose rules do not have the option."""
        problems = []
        variant = self._variant
        for name, (values, words) in _MOVE_OPTIONS.items():
            value = getattr(self, name)
            if value not in values:
                problems.append(f"{name} is {' or '.join(map(str, values))}, not {value!r}")
            elif value != MOVE_OPTION_DEFAULTS[name] and name not in variant.move_options:
                problems.append(f"{words} is not a rule of {variant.title}: {name} {value} does not apply")
        quarter_rule = self.fevga_primes == "START_QUARTER_AND_UNBLOCK"
        if self.fevga_quarter_test != MOVE_OPTION_DEFAULTS["fevga_quarter_test"] and not quarter_rule:
            problems.append(
                "the starting-quarter test (fevga_quarter_test) applies only with the starting-quarter rule"
                " (fevga_primes START_QUARTER_AND_UNBLOCK)"
            )
        return problems

    @property
    def rules(self) -> Variant:
        """The variant's rules for moving checkers, with this rule set's options."""
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

    def multiplier(self, result: GameResult) -> int:
        """What ``result`` is worth before the cube under this rule set: a mother loss is worth
        ``mother_value``, every other result its own multiplier."""
        return self.mother_value if result is GameResult.MOTHER else result.multiplier

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


_MOVE_OPTIONS: dict[str, tuple[tuple[object, ...], str]] = {
    "start": (START_VALUES, "a start other than the standard one"),
    "home_hit_and_run": (HOME_HIT_AND_RUN_VALUES, "forbidding hit-and-run in the home board"),
    "pinned_blocks_bear_off": ((True, False), "a pinned checker stopping the bear-off"),
    "mother_exception": ((True, False), "the mother exception"),
    "first_checker": (FIRST_CHECKER_VALUES, "the first-checker rule"),
    "fevga_primes": (FEVGA_PRIMES_VALUES, "Fevga's rule on primes"),
    "fevga_quarter_test": (FEVGA_QUARTER_TEST_VALUES, "Fevga's starting-quarter test"),
}
"""The options that change how checkers move: their values, and the rule each sets in words."""

MOVE_OPTION_VALUES: dict[str, tuple[object, ...]] = {
    name: values for name, (values, _) in _MOVE_OPTIONS.items()
}
"""Each option that changes how checkers move, with the values it may take."""

MOVE_OPTION_DEFAULTS = {
    option.name: option.default for option in fields(RuleSet) if option.name in _MOVE_OPTIONS
}
"""Each option that changes how checkers move, with its default (the rule book's)."""
