"""Benchmarks report speed as ratios to a baseline timed in the same run, never as absolute times.

Each benchmark records its median under a name; at the end of the session every ratio listed in
``RATIOS`` whose two sides ran is printed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

MEDIANS: dict[str, float] = {}

# (what, measured, baseline): "measured runs at N x the baseline's speed".
RATIOS = [
    ("backgammon enumeration vs gnubg-nn", "engine-backgammon", "gnubg-backgammon"),
    ("backgammon repeated query (cached) vs gnubg-nn", "engine-backgammon-cached", "gnubg-backgammon"),
    ("long nardi enumeration vs backgammon enumeration", "engine-long-nardi", "engine-backgammon"),
]


@pytest.fixture
def timed(benchmark: Any) -> Callable[..., Any]:
    """``timed(name, function)``: benchmark ``function`` and remember its median under ``name``."""

    def run(name: str, function: Callable[[], Any], *, rounds: int = 5) -> Any:
        result = benchmark.pedantic(function, rounds=rounds, iterations=1, warmup_rounds=1)
        MEDIANS[name] = benchmark.stats.stats.median
        return result

    return run


def pytest_terminal_summary(terminalreporter: Any) -> None:
    lines = [
        f"{what}: {MEDIANS[baseline] / MEDIANS[measured]:.3f}x the baseline's speed"
        for what, measured, baseline in RATIOS
        if measured in MEDIANS and baseline in MEDIANS
    ]
    if lines:
        terminalreporter.section("speed ratios (same run)")
        for line in lines:
            terminalreporter.write_line(line)
