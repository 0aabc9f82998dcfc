"""tavli's rules engine: positions, legal plays, notation and games, in pure Python."""

from engine.backgammon import Backgammon
from engine.errors import (
    GameOverError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
    TavliError,
)
from engine.long_nardi import LongNardi
from engine.play import Play, Step
from engine.position import BAR, OFF, Position
from engine.variant import GameResult, LegalPlays, Variant

BACKGAMMON = Backgammon()
LONG_NARDI = LongNardi()
VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (BACKGAMMON, LONG_NARDI)}

__all__ = [
    "BACKGAMMON",
    "BAR",
    "LONG_NARDI",
    "OFF",
    "VARIANTS",
    "Backgammon",
    "GameOverError",
    "GameResult",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidPlayError",
    "InvalidPositionError",
    "LegalPlays",
    "LongNardi",
    "Play",
    "Position",
    "Step",
    "TavliError",
    "Variant",
]
