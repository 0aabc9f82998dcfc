"""``random``: a uniformly random legal play; the cube and resignations at random, rarely.

The baseline every other bot is measured against. Seeded, so a game between two seeded bots on
seeded dice is the same game every time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tavli.clients.bots.base import Bot, CubeAnswer, ResignLevel, Situation
from tavli.engine import Play, Position, Variant
from tavli.engine.play import Dice

DOUBLE_RATE = 0.05
"""How often it doubles when it may: rarely, so that games between random bots still end in play."""


class RandomBot(Bot):
    name = "random"
    description = "Plays any legal play at random and doubles on a whim: for a first game."

    def __init__(self, *, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def choose_play(self, variant: Variant, position: Position, dice: Dice, plays: Sequence[Play]) -> Play:
        return plays[self.random.randrange(len(plays))]

    def offer_double(self, situation: Situation) -> bool:
        return self.random.random() < DOUBLE_RATE

    def answer_double(self, situation: Situation) -> CubeAnswer:
        answers: list[CubeAnswer] = ["take", "take", "drop"]  # takes twice as often as it drops
        if situation.beavers_allowed:
            answers.append("beaver")
        return self.random.choice(answers)

    def accept_resignation(self, situation: Situation, offered: ResignLevel) -> bool:
        return self.random.random() < 0.5

    def resign(self, situation: Situation) -> ResignLevel | None:
        return None
