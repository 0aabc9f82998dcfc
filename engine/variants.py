"""The registry of variants: every variant tavli plays, by name.

Adding a variant is one new module (a sibling class of :class:`~tavli.engine.variant.Variant`) and one
line here; see the README, "Adding a variant".
"""

from __future__ import annotations

from tavli.engine.backgammon import backgammon_rules
from tavli.engine.long_nardi import LongNardi
from tavli.engine.variant import Variant

BACKGAMMON = backgammon_rules()
LONG_NARDI = LongNardi()

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (BACKGAMMON, LONG_NARDI)}
"""Every variant by its name, with its default options (a rule set's options may choose another
instance of the same variant: :attr:`~tavli.engine.rules.RuleSet.rules`)."""
