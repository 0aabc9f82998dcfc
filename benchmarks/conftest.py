"""Benchmarks report speed as ratios to a baseline timed in the same run, never as absolute times.

Each benchmark records its fastest round under a name: the work is deterministic, so a slower
round only measures what else the shared machine was doing. At the end of the session every ratio
listed in ``RATIOS`` whose two sides ran is printed, then any notes the benchmarks left (sanity
checks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

FASTEST: dict[str, float] = {}
NOTES: list[str] = []

# (what, measured, baseline): "measured runs at N x the baseline's speed". Both sides of a ratio do
# the same work (the same positions, or the same number of games).
RATIOS = [
    ("backgammon enumeration vs gnubg-nn", "engine-backgammon", "gnubg-backgammon"),
    (
        "backgammon enumeration, each play's Position ID, vs gnubg-nn",
        "engine-backgammon-ids",
        "gnubg-backgammon",
    ),
    (
        "long nardi enumeration, each play's Position ID, vs backgammon's",
        "engine-long-nardi-ids",
        "engine-backgammon-ids",
    ),
    ("backgammon repeated query (cached) vs gnubg-nn", "engine-backgammon-cached", "gnubg-backgammon"),
    ("long nardi enumeration vs backgammon enumeration", "engine-long-nardi", "engine-backgammon"),
    (
        "applying a known play (position_after) vs enumerating the position",
        "engine-position-after",
        "engine-backgammon",
    ),
    (
        "applying a known play (position_after) vs gnubg-nn enumerating the position",
        "engine-position-after",
        "gnubg-backgammon",
    ),
    (
        "parsing and checking a play (parse_play, cached) vs enumerating the position",
        "engine-parse-play",
        "engine-backgammon",
    ),
    (
        "parsing and checking a play (parse_play, cached) vs gnubg-nn enumerating",
        "engine-parse-play",
        "gnubg-backgammon",
    ),
    ("whole random backgammon games vs OpenSpiel's", "engine-game-backgammon", "openspiel-game-backgammon"),
    ("whole random backgammon games vs gnubg-nn's", "engine-game-backgammon", "gnubg-game-backgammon"),
    ("whole random long nardi games vs backgammon games", "engine-game-long-nardi", "engine-game-backgammon"),
    (
        "OpenSpiel's positions (no doubles): enumeration vs OpenSpiel legal_actions()",
        "engine-openspiel-positions",
        "openspiel-openspiel-positions",
    ),
    (
        "OpenSpiel's positions (no doubles): enumeration vs gnubg-nn",
        "engine-openspiel-positions",
        "gnubg-openspiel-positions",
    ),
    (
        "OpenSpiel's positions (with doubles): enumeration vs gnubg-nn",
        "engine-openspiel-all",
        "gnubg-openspiel-all",
    ),
]


@pytest.fixture
def timed(benchmark: Any) -> Callable[..., Any]:
    """``timed(name, function)``: benchmark ``function`` and remember its fastest round under ``name``."""

    def run(name: str, function: Callable[[], Any], *, rounds: int = 7) -> Any:
        result = benchmark.pedantic(function, rounds=rounds, iterations=1, warmup_rounds=1)
        if benchmark.stats is not None:  # None under --benchmark-disable, a quick run of each once
            FASTEST[name] = benchmark.stats.stats.min
        return result

    return run


@pytest.fixture
def note() -> Callable[[str], None]:
    """``note(text)``: a line printed after the ratios (a sanity check's outcome, not a timing)."""
    return NOTES.append


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = [
        f"{what}: {FASTEST[baseline] / FASTEST[measured]:.3f}x the baseline's speed"
        for what, measured, baseline in RATIOS
        if measured in FASTEST and baseline in FASTEST
    ]
    if lines:
        terminalreporter.section("speed ratios (same run)")
        for line in lines:
            terminalreporter.write_line(line)
    if NOTES:
        terminalreporter.section("checks (same run)")
        for line in NOTES:
            terminalreporter.write_line(line)
