"""tavli's rules engine: positions, legal plays, notation and games, in pure Python.

The names below are loaded when first asked for, each from its own module: a program that needs
only part of the engine (``tavli check-match`` reading a record with the compiled core) does not
pay for building every variant at its start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavli.engine.lazy_names import lazy_names

if TYPE_CHECKING:
    from tavli.engine.backgammon import Backgammon
    from tavli.engine.errors import (
        AmbiguousPlayError,
        GameOverError,
        IllegalPlayError,
        InvalidDiceError,
        InvalidPlayError,
        InvalidPositionError,
        TavliError,
    )
    from tavli.engine.fevga import Fevga
    from tavli.engine.long_nardi import LongNardi
    from tavli.engine.plakoto import Plakoto
    from tavli.engine.play import Play, Step
    from tavli.engine.position import BAR, OFF, Pins, Position
    from tavli.engine.variant import GameResult, LegalPlays, Variant
    from tavli.engine.variants import BACKGAMMON, FEVGA, LONG_NARDI, PLAKOTO, VARIANTS

# Each public name and the module it comes from.
_MODULES = {
    "Backgammon": "backgammon",
    "AmbiguousPlayError": "errors",
    "GameOverError": "errors",
    "IllegalPlayError": "errors",
    "InvalidDiceError": "errors",
    "InvalidPlayError": "errors",
    "InvalidPositionError": "errors",
    "TavliError": "errors",
    "Fevga": "fevga",
    "LongNardi": "long_nardi",
    "Plakoto": "plakoto",
    "Play": "play",
    "Step": "play",
    "BAR": "position",
    "OFF": "position",
    "Pins": "position",
    "Position": "position",
    "GameResult": "variant",
    "LegalPlays": "variant",
    "Variant": "variant",
    "BACKGAMMON": "variants",
    "FEVGA": "variants",
    "LONG_NARDI": "variants",
    "PLAKOTO": "variants",
    "VARIANTS": "variants",
}


__getattr__, __dir__ = lazy_names(__name__, _MODULES, globals())


__all__ = [
    "BACKGAMMON",
    "BAR",
    "FEVGA",
    "LONG_NARDI",
    "OFF",
    "PLAKOTO",
    "VARIANTS",
    "AmbiguousPlayError",
    "Backgammon",
    "Fevga",
    "GameOverError",
    "GameResult",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidPlayError",
    "InvalidPositionError",
    "LegalPlays",
    "LongNardi",
    "Pins",
    "Plakoto",
    "Play",
    "Position",
    "Step",
    "TavliError",
    "Variant",
]
