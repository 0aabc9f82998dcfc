"""Rule options that ``tavli play`` and ``tavli arena`` share: how they are written on the command
line, and how they are checked, by the engine's own rule set and clock rules, before any game is
made."""

from __future__ import annotations

import argparse
from collections.abc import Collection
from typing import Any

from tavli.engine.backgammon import HomeHitAndRun
from tavli.engine.clock import ClockRules
from tavli.engine.presets import PRESETS
from tavli.engine.rules import (
    TAVLI,
    TAVLI_ROTATION,
    Backgammons,
    InvalidRuleSetError,
    MatchOpenings,
    MatchVariant,
    RuleSet,
    default_backgammons,
)
from tavli.engine.variant import Variant
from tavli.engine.variants import VARIANTS

BACKGAMMONS: dict[str, Backgammons] = {"counted": "COUNTED", "as-gammon": "AS_GAMMON"}
"""The words of ``--backgammons``, by the engine's names of the option's values."""

HOME_HIT_AND_RUN: dict[str, HomeHitAndRun] = {"allowed": "ALLOWED", "forbidden": "FORBIDDEN"}
"""The words of ``--home-hit-and-run``."""

MATCH_OPENINGS: dict[str, MatchOpenings] = {
    "every-game": "EVERY_GAME",
    "winner-opens": "WINNER_OPENS",
    "alternate": "ALTERNATE",
}
"""The words of ``--match-openings``."""

_TABLE_OPTIONS = ("variant", "start", "home_hit_and_run", "cube", "backgammons", "opening", "match_openings")

GAMES: dict[str, dict[str, Any]] = {
    **{name: {"variant": name} for name in sorted(VARIANTS)},
    TAVLI: {"variant": TAVLI},
    "nackgammon": {"variant": "backgammon", "start": "NACKGAMMON"},
    **{f"hypergammon-{n}": {"variant": "backgammon", "start": f"HYPERGAMMON_{n}"} for n in (1, 2, 3)},
    **{
        key: {name: value for name, value in PRESETS[key].rules.items() if name in _TABLE_OPTIONS}
        for key in ("portes", "tavla")
    },
}
"""What each ``--variant`` name sets: a variant, one of backgammon's starts (nackgammon,
hypergammon), a table's rules (Portes, Turkish tavla, as their presets have them) or the Greek
tavli match (Portes, Plakoto and Fevga in turn)."""

TAVLI_MATCH_LENGTH = 5
"""The length of a tavli match when ``--match`` gives none (the rule book names 3, 5 and 7 as usual)."""


def variants_played(variant: MatchVariant) -> tuple[Variant, ...]:
    """The variants a rule set of ``variant`` plays, with their default options: that one, or a
    tavli match's three (:attr:`RuleSet.variants_played` has them with a rule set's options)."""
    names = TAVLI_ROTATION if variant == TAVLI else (variant,)
    return tuple(VARIANTS[name] for name in names)


def add_variant_option(
    parser: argparse.ArgumentParser, *, what: str, variants: Collection[str] = VARIANTS
) -> None:
    """``--variant``: a variant, a start of backgammon's or a table (:data:`GAMES`), of ``variants``
    only (a command that needs the server offers those the API names)."""
    choices = tuple(name for name, options in GAMES.items() if options["variant"] in variants)
    tavli = ", tavli the Greek tavli match (Portes, Plakoto and Fevga in turn)" if TAVLI in choices else ""
    parser.add_argument(
        "--variant",
        choices=choices,
        default="backgammon",
        help=f"{what} (default: %(default)s); nackgammon and hypergammon-N are backgammon from their starts,"
        f" portes and tavla backgammon with those tables' rules{tavli}",
    )


def add_home_hit_and_run_option(parser: argparse.ArgumentParser) -> None:
    """``--home-hit-and-run allowed|forbidden`` (README, "Portes, tavla, nackgammon, hypergammon")."""
    parser.add_argument(
        "--home-hit-and-run",
        choices=tuple(HOME_HIT_AND_RUN),
        default=None,
        help="whether a checker that hits in your home board may move on in the same play"
        " (backgammon only; default: forbidden in tavla, else allowed)",
    )


def game_options(arguments: argparse.Namespace) -> dict[str, Any]:
    """The rule set's options that ``--variant`` and ``--home-hit-and-run`` name (engine names)."""
    options = dict(GAMES[arguments.variant])
    if getattr(arguments, "home_hit_and_run", None) is not None:
        options["home_hit_and_run"] = HOME_HIT_AND_RUN[arguments.home_hit_and_run]
    return options


def table_options(game: str) -> dict[str, Any]:
    """The options a game of :data:`GAMES` sets beside its variant and how it scores backgammons
    (a start of backgammon's, a table's rules); none for a variant itself or ``""``."""
    return {
        name: value for name, value in GAMES.get(game, {}).items() if name not in ("variant", "backgammons")
    }


def match_length_of(arguments: argparse.Namespace) -> int:
    """The match length ``--match`` names; without it, a table's (Portes, tavla: 5), a tavli
    match's (:data:`TAVLI_MATCH_LENGTH`), else 0."""
    if arguments.match is not None:
        return int(arguments.match)
    if arguments.variant == TAVLI:
        return TAVLI_MATCH_LENGTH
    preset = PRESETS.get(arguments.variant)
    return int(preset.rules["match_length"]) if preset is not None else 0


def add_backgammons_option(parser: argparse.ArgumentParser) -> None:
    """``--backgammons counted|as-gammon``: how a backgammon is scored (README, "Games and matches")."""
    parser.add_argument(
        "--backgammons",
        choices=tuple(BACKGAMMONS),
        default=None,
        help="how a backgammon scores: counted, 3 times the cube; as-gammon, as a gammon, 2 times the cube"
        " (backgammon only; default: as-gammon in portes, tavla and the tavli match, else counted)",
    )


def backgammons_of(arguments: argparse.Namespace, default: Backgammons | None = None) -> Backgammons:
    """The ``backgammons`` option ``--backgammons`` names; without it ``default``, or the rule set's
    default for the variant."""
    if arguments.backgammons is not None:
        return BACKGAMMONS[arguments.backgammons]
    return default or default_backgammons(GAMES[arguments.variant]["variant"])


def rules_problem(variant: MatchVariant, backgammons: Backgammons, **options: Any) -> str | None:
    """What the engine finds wrong with these options together, in words, or ``None``."""
    try:
        RuleSet(variant=variant, backgammons=backgammons, **options)
    except InvalidRuleSetError as error:
        return str(error)
    return None


_CLOCK_HELP = {
    "reserve": "each side's reserve of time for the match (for each game in money play); a side whose time"
    " runs out loses (default: 0, no reserve)",
    "reserve_per_point": "more reserve for every point of the match, as tournaments give it (default: 0)",
    "delay": "a delay on every turn: time used within it is not taken from the reserve (Bronstein);"
    " needs a reserve or a move limit (default: 0, no delay)",
    "move_limit": "the most one turn may take, whatever reserve is left: a side stuck longer loses on time"
    " (default: 0, no limit)",
}
"""Each setting of :class:`ClockRules` an option ``--clock-SETTING`` gives, in seconds (README "Clocks")."""


def add_clock_options(parser: argparse.ArgumentParser, *, reserve_per_point: bool = True) -> None:
    """``--clock-reserve``, ``--clock-reserve-per-point`` (unless ``reserve_per_point`` is false),
    ``--clock-delay`` and ``--clock-move-limit``, in seconds; 0 leaves one out."""
    for setting, words in _CLOCK_HELP.items():
        if setting != "reserve_per_point" or reserve_per_point:
            option = "--clock-" + setting.replace("_", "-")
            parser.add_argument(option, type=float, default=0.0, metavar="SECONDS", help=words)


def clock_of(arguments: argparse.Namespace) -> ClockRules | None:
    """The clocks the ``--clock-*`` options ask for, or None when they ask for none."""
    clock = ClockRules(**{setting: getattr(arguments, f"clock_{setting}", 0.0) for setting in _CLOCK_HELP})
    return None if clock == ClockRules() else clock


def clock_problem(clock: ClockRules | None, match_length: int) -> str | None:
    """What the engine finds wrong with ``clock`` in a match of ``match_length`` (0: money play),
    in words, or ``None``."""
    problems = clock.problems(match_length) if clock is not None else []
    return "; ".join(problems) or None
