"""The registry of variants: every variant tavli plays, by name.

Adding a variant is one new module (a sibling class of :class:`~tavli.engine.variant.Variant`) and one
line here; see the README, "Adding a variant".
"""

from __future__ import annotations

from functools import cache

from tavli.engine.backgammon import Backgammon
from tavli.engine.fevga import Fevga
from tavli.engine.long_nardi import LongNardi
from tavli.engine.plakoto import Plakoto
from tavli.engine.variant import Variant

BACKGAMMON = Backgammon()
LONG_NARDI = LongNardi()
PLAKOTO = Plakoto()
FEVGA = Fevga()

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (BACKGAMMON, LONG_NARDI, PLAKOTO, FEVGA)}
"""Every variant by its name, with its default options (a rule set's options may choose another
instance of the same variant: :attr:`~tavli.engine.rules.RuleSet.rules`)."""


@cache
def variant_with(name: str, options: tuple[tuple[str, object], ...]) -> Variant:
    """The variant ``name`` with ``options`` (its constructor's keyword arguments, as pairs), built
    once for each set of options; the registry's own instance when they are all its defaults.

    :raises KeyError: for a variant that is not in :data:`VARIANTS`.
    """
    variant = VARIANTS[name]
    if all(getattr(variant, option) == value for option, value in options):
        return variant
    return type(variant)(**dict(options))
