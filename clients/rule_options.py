"""Rule options that ``tavli play`` and ``tavli arena`` share: how they are written on the command
line, and how they are checked, by the engine's own rule set and clock rules, before any game is
made."""

from __future__ import annotations

import argparse

from tavli.engine.clock import ClockRules

from tavli.engine.rules import Backgammons, InvalidRuleSetError, RuleSet
from tavli.engine.variant import VariantName

BACKGAMMONS: dict[str, Backgammons] = {"counted": "COUNTED", "as-gammon": "AS_GAMMON"}
"""The words of ``--backgammons``, by the engine's names of the option's values."""


def add_backgammons_option(parser: argparse.ArgumentParser) -> None:
    """``--backgammons counted|as-gammon``: how a backgammon is scored (README, "Games and matches")."""
    parser.add_argument(
        "--backgammons", choices=tuple(BACKGAMMONS), default="counted",
        help="how a backgammon scores: counted, 3 times the cube; as-gammon, as a gammon, 2 times the cube"
             " (backgammon only; default: %(default)s)",
    )


def backgammons_of(arguments: argparse.Namespace) -> Backgammons:
    """The ``backgammons`` option ``--backgammons`` names."""
    return BACKGAMMONS[arguments.backgammons]


def rules_problem(variant: VariantName, backgammons: Backgammons) -> str | None:
    """What the engine finds wrong with these options together, in words, or ``None``."""
    try:
        RuleSet(variant=variant, backgammons=backgammons)
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
