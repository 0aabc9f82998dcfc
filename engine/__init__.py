"""tavli's rules engine: positions, legal plays, notation and games, in pure Python."""

from engine.backgammon import Backgammon
from engine.errors import (
    IllegalPlayError,
    InvalidDiceError,
    InvalidPlayError,
    InvalidPositionError,
    TavliError,
)
from engine.play import Play, Step
from engine.position import BAR, OFF, Position
from engine.variant import GameResult, LegalPlays, Variant

BACKGAMMON = Backgammon()

__all__ = [
    "BACKGAMMON",
    "BAR",
    "OFF",
    "Backgammon",
    "GameResult",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidPlayError",
    "InvalidPositionError",
    "LegalPlays",
    "Play",
    "Position",
    "Step",
    "TavliError",
    "Variant",
]
