"""Legal-play enumeration over the fixed corpora, side by side with GNU Backgammon's generator.

    .venv/bin/python -m pytest benchmarks/test_engine_speed.py
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine import BACKGAMMON, LONG_NARDI, Position, Variant
from tests.test_perft import read_perft

Corpus = list[tuple[Position, tuple[int, int]]]


def load(name: str) -> Corpus:
    return [
        (Position.from_id(position_id), (max(dice), min(dice))) for position_id, dice, _ in read_perft(name)
    ]


BACKGAMMON_CORPUS = load("perft-backgammon.txt")
LONG_NARDI_CORPUS = load("perft-long-nardi.txt")


def enumerate_all(variant: Variant, corpus: Corpus) -> int:
    return sum(len(variant.generate_plays(position, dice)) for position, dice in corpus)


def test_engine_backgammon(timed: Callable[..., Any]) -> None:
    assert timed("engine-backgammon", lambda: enumerate_all(BACKGAMMON, BACKGAMMON_CORPUS)) > 30_000


def test_engine_backgammon_cached(timed: Callable[..., Any]) -> None:
    def query_twice() -> int:
        # What a GUI does: list the plays, then validate the chosen one; the second is a cache hit.
        return sum(len(BACKGAMMON.legal_plays(position, dice)) for position, dice in BACKGAMMON_CORPUS)

    query_twice()
    assert timed("engine-backgammon-cached", query_twice) > 30_000


def test_engine_long_nardi(timed: Callable[..., Any]) -> None:
    assert timed("engine-long-nardi", lambda: enumerate_all(LONG_NARDI, LONG_NARDI_CORPUS)) > 10_000


def test_gnubg_backgammon(timed: Callable[..., Any]) -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    boards = [([list(p.opponent[1:26]), list(p.player[1:26])], dice) for p, dice in BACKGAMMON_CORPUS]

    def enumerate_gnubg() -> int:
        return sum(len(gnubg_nn.moves(board, dice[0], dice[1])) or 1 for board, dice in boards)

    assert timed("gnubg-backgammon", enumerate_gnubg) > 30_000
