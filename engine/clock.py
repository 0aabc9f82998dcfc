"""Clocks: a reserve of time for each seat, a delay on every turn, a limit on any one turn.

RULES.md names no clock; tavli follows tournament practice (README "Clocks"). The clock of the
seat expected to act runs from the moment it may act: the seat on turn while it rolls and plays,
the seat answering a double or an offer to resign. No clock runs during the throw for who
starts (either seat may throw it). Each time the running clock passes to the other seat, or a
new game starts, a new turn begins: the first ``delay`` seconds of a turn are not taken from
the reserve (Bronstein delay), and no turn may last longer than ``move_limit``. In match play
the reserve lasts the whole match; in money play every game starts with a full one.

Everything here is arithmetic on times the caller gives (seconds since the epoch): the engine
never reads a clock itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tavli.engine.events import Side

MOST_SECONDS = 30 * 24 * 3600.0
"""The longest any clock setting may be: thirty days."""


@dataclass(frozen=True, slots=True)
class ClockRules:
    """How much time each seat has, in seconds; 0 leaves a setting out.

    ``reserve`` is each seat's time for the match (for each game, in money play), and
    ``reserve_per_point`` more for every point of the match's length (as tournaments give it).
    With no reserve at all only ``move_limit`` bounds the time, turn by turn.
    """

    reserve: float = 0.0
    reserve_per_point: float = 0.0
    delay: float = 0.0
    move_limit: float = 0.0

    def problems(self, match_length: int) -> list[str]:
        """What is wrong with these settings for a match of ``match_length`` (0: money play)."""
        problems = []
        for name in ("reserve", "reserve_per_point", "delay", "move_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                problems.append(f"the clock's {name.replace('_', ' ')} is a number of seconds")
            elif not 0 <= value <= MOST_SECONDS:
                problems.append(
                    f"the clock's {name.replace('_', ' ')} is between 0 and {MOST_SECONDS:.0f} seconds (30 "
                    "days)"
                )
        if problems:
            return problems
        if self.reserve_per_point and not match_length:
            problems.append("a reserve per point needs a match length; money play has none")
        if not (self.reserve or self.reserve_per_point or self.move_limit):
            problems.append("a clock needs a reserve, a reserve per point or a move limit")
        return problems

    def reserve_for(self, match_length: int) -> float:
        """Each seat's whole reserve; infinite when the clock has none (only a move limit)."""
        whole = self.reserve + self.reserve_per_point * match_length
        return whole or math.inf


@dataclass(frozen=True, slots=True)
class Clock:
    """Both seats' clocks at one moment of the game.

    ``remaining`` is each seat's reserve left, the running seat's as it was when its turn
    started at ``started``; ``running`` is the seat whose clock runs, or None.
    """

    remaining: tuple[float, float]
    running: Side | None = None
    started: float = 0.0

    def deadline(self, rules: ClockRules) -> float | None:
        """When the running seat loses on time; None when no clock runs."""
        if self.running is None:
            return None
        ends = self.started + rules.delay + self.remaining[self.running]
        if rules.move_limit:
            ends = min(ends, self.started + rules.move_limit)
        return ends

    def delay_ends(self, rules: ClockRules) -> float | None:
        """When the running turn's delay is over and its reserve starts to run; None when no clock runs."""
        return None if self.running is None else self.started + rules.delay

    def charged(self, rules: ClockRules, at: float) -> tuple[float, float]:
        """Both reserves once the running turn, ended at ``at``, is taken from its seat's."""
        if self.running is None:
            return self.remaining
        used = max(0.0, at - self.started - rules.delay)
        left = list(self.remaining)
        left[self.running] = max(0.0, left[self.running] - used)
        return left[0], left[1]

    def passed_to(self, running: Side | None, at: float) -> Clock:
        """The clock once a new turn starts at ``at`` for ``running`` (or none runs)."""
        return Clock(self.remaining, running, at)


def full_clock(rules: ClockRules, match_length: int) -> Clock:
    """Both clocks at the start of a match (or of a money game), neither running."""
    reserve = rules.reserve_for(match_length)
    return Clock((reserve, reserve))
