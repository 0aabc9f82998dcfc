"""The rule vectors of RULES.md, computed by an independent implementation: the engine must agree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tavli.engine import BACKGAMMON, LONG_NARDI, Position, Variant

FILES = {
    "backgammon-rules.jsonl": BACKGAMMON,
    "long-nardi.jsonl": LONG_NARDI,
    "long-nardi-six-in-a-row.jsonl": LONG_NARDI,
}


def _rows(vectors_dir: Path, name: str) -> list[dict[str, object]]:
    with open(vectors_dir / name, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize("name", sorted(FILES))
def test_engine_agrees_with_every_rule_vector(vectors_dir: Path, name: str) -> None:
    variant: Variant = FILES[name]
    rows = _rows(vectors_dir, name)
    assert len(rows) >= 100
    disagreements = []
    for row in rows:
        position = Position.from_id(str(row["position_id"]))
        dice = tuple(row["dice"])  # type: ignore[arg-type]
        results = sorted(play.position.position_id() for play in variant.legal_plays(position, dice))
        if results != row["expected"]:
            disagreements.append((row["position_id"], dice, row.get("kind")))
    assert disagreements == []


def test_vectors_cover_the_rules_that_are_easy_to_get_wrong(vectors_dir: Path) -> None:
    kinds = {row.get("kind") for name in FILES for row in _rows(vectors_dir, name)}
    assert {"higher-die", "partial", "bear-off", "blocked", "past"} <= kinds
