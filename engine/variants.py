"""The registry of variants: every variant tavli plays, by name.

Adding a variant is one new module (a sibling class of :class:`~tavli.engine.variant.Variant`) and one
line here; see the README, "Adding a variant".
"""

from __future__ import annotations

from tavli.engine.backgammon import Backgammon
from tavli.engine.long_nardi import LongNardi
from tavli.engine.plakoto import plakoto_rules
from tavli.engine.variant import Variant

BACKGAMMON = Backgammon()
LONG_NARDI = LongNardi()
PLAKOTO = plakoto_rules()

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (BACKGAMMON, LONG_NARDI, PLAKOTO)}
"""Every variant by its name."""
