"""tavli's rules engine: positions, legal plays, notation and games, in pure Python."""

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
