"""Rule options that ``tavli play`` and ``tavli arena`` share: how they are written on the command
line, and how they are checked, by the engine's own rule set, before any game is made."""

from __future__ import annotations

import argparse

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
