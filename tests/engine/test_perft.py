"""Perft files: for each position and roll, the number of distinct legal plays an outside
generator found (GNU Backgammon's for backgammon, the independent reference for long nardi)."""

from __future__ import annotations

import pytest

from tavli.engine import BACKGAMMON, LONG_NARDI, Position, Variant
from tests.conftest import DATA


def read_perft(name: str) -> list[tuple[str, tuple[int, int], int]]:
    rows = []
    with open(DATA / name, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            position_id, dice, count = line.split()
            rows.append((position_id, (int(dice[0]), int(dice[1])), int(count)))
    return rows


@pytest.mark.parametrize(
    ("name", "variant"), [("perft-backgammon.txt", BACKGAMMON), ("perft-long-nardi.txt", LONG_NARDI)]
)
def test_number_of_distinct_plays_matches_the_perft_file(name: str, variant: Variant) -> None:
    rows = read_perft(name)
    assert len(rows) == 2000
    wrong = [
        (position_id, dice, expected, len(variant.legal_plays(Position.from_id(position_id), dice)))
        for position_id, dice, expected in rows
        if len(variant.legal_plays(Position.from_id(position_id), dice)) != expected
    ]
    assert wrong == []
    assert any(dice[0] == dice[1] for _, dice, _ in rows)
