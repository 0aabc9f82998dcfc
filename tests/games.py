"""Seeded games: a supply of positions as they arise in play, for cross-checks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Literal

from tavli.engine import BAR, Play, Position, Variant
from tavli.engine.play import Dice

Style = Literal["random", "blitz"]


def positions_from_games(
    variant: Variant, *, seed: int, count: int, style: Style = "random"
) -> Iterator[tuple[Position, Dice]]:
    """``count`` (position, roll) pairs from seeded games, side on roll first.

    ``random`` plays any legal play; ``blitz`` hits and closes its home board whenever it can
    (in backgammon), which brings the bar and closed boards that random play seldom reaches.
    """
    rng = random.Random(seed)
    produced = 0
    while True:
        position = variant.start_position()
        while variant.result(position) is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield position, dice
            produced += 1
            if produced == count:
                return
            plays = list(variant.legal_plays(position, dice))
            if style == "blitz":
                best = max(_blitz_value(play) for play in plays)
                plays = [play for play in plays if _blitz_value(play) == best]
            position = rng.choice(plays).position.swapped()


def _blitz_value(play: Play) -> int:
    player, opponent = play.position
    home_points = sum(1 for point in range(1, 7) if player[point] >= 2)
    return 2 * opponent[BAR] + 3 * home_points
