"""The interface every bot implements: choose a play, and answer the cube and resignations.

A bot sees positions from its own side (``position.player`` is the bot) and plays through the
engine's objects; the driver that seats it at a game does the talking to the server.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Literal

from tavli.engine import Play, Position, Variant
from tavli.engine.play import Dice

CubeAnswer = Literal["take", "drop", "beaver"]
ResignLevel = Literal["single", "gammon", "backgammon", "mars"]


@dataclass(frozen=True)
class Situation:
    """What a bot knows besides the board when it decides about the cube or a resignation."""

    variant: Variant
    position: Position  # from the bot's side
    cube_value: int
    cube_owner: Literal["bot", "opponent", "centre"]
    score: tuple[int, int]  # (bot, opponent)
    match_length: int  # 0 for money play
    crawford: bool
    beavers_allowed: bool = False


class Bot(ABC):
    """A player. Only :meth:`choose_play` is required; the others default to a cautious player
    that never doubles, always takes, and accepts no resignation."""

    name: ClassVar[str]
    description: ClassVar[str] = ""
    """What the bot is, in a sentence for a player choosing an opponent."""

    @classmethod
    def plays(cls, variant: Variant) -> bool:
        """Whether this kind of bot can play ``variant`` (every variant, unless a bot says otherwise)."""
        return True

    @abstractmethod
    def choose_play(self, variant: Variant, position: Position, dice: Dice, plays: Sequence[Play]) -> Play:
        """One of ``plays`` (never empty: a roll that cannot be played offers the empty play)."""

    def offer_double(self, situation: Situation) -> bool:
        """Whether to double now, before rolling (asked only when doubling is allowed)."""
        return False

    def answer_double(self, situation: Situation) -> CubeAnswer:
        """Take, drop, or (when ``situation.beavers_allowed``) beaver the double offered."""
        return "take"

    def accept_resignation(self, situation: Situation, offered: ResignLevel) -> bool:
        """Whether to accept the opponent's offer to resign ``offered``."""
        return False

    def resign(self, situation: Situation) -> ResignLevel | None:
        """An offer to resign to make now, or ``None`` to play on."""
        return None
