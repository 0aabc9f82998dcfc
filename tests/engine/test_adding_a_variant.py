"""Adding a variant is one module: the README's worked example (longgammon), run as written.

The module in the README is executed as it stands and registered for the test's duration; games,
matches, resignations and .mat files then work for it with no other change to the engine.
"""

from __future__ import annotations

import random
import re
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavli.engine import BACKGAMMON, GameResult, Position, Variant, variants
from tavli.engine.match import Match
from tavli.engine.matfile import export_mat, import_mat
from tavli.engine.rules import RuleSet

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_module(path: str) -> types.ModuleType:
    """The Python block of the README that starts with the comment ``# <path>``, as a module."""
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.DOTALL)
    (source,) = [block for block in blocks if block.startswith(f"# {path}\n")]
    module = types.ModuleType(path.removesuffix(".py").replace("/", "."))
    exec(compile(source, path, "exec"), module.__dict__)  # noqa: S102 - the README's example, run as written
    return module


@pytest.fixture
def longgammon(monkeypatch: pytest.MonkeyPatch) -> Iterator[Variant]:
    variant: Variant = readme_module("engine/longgammon.py").Longgammon()
    monkeypatch.setitem(variants.VARIANTS, variant.name, variant)
    yield variant


def test_the_new_variant_starts_from_its_own_position_and_moves_as_backgammon(longgammon: Variant) -> None:
    start = longgammon.start_position()
    longgammon.validate(start)
    assert sum(start.player) == 15 and start.player[24] == 15
    assert start != BACKGAMMON.start_position()
    plays = {play.notation() for play in longgammon.legal_plays(start, (3, 1))}
    assert plays == {"24/23 24/21", "24/20"}
    assert longgammon.hits and longgammon.cube and longgammon.resign_levels == BACKGAMMON.resign_levels


def test_whole_matches_of_the_new_variant_are_played_scored_and_exported(longgammon: Variant) -> None:
    rules = RuleSet(variant="longgammon", match_length=3)  # type: ignore[arg-type]
    rng = random.Random(5)
    match = Match(rules)
    for _ in range(5_000):
        state = match.state
        if state.over:
            break
        side = state.game.turn if state.game.phase.value != "opening" else 0
        plays = match.legal_plays()
        if plays:
            match.play(side, rng.choice(plays))
        else:
            match.roll(side)
    assert match.state.over and max(match.state.score) >= 3
    assert all(game.result in GameResult for game in match.state.finished)
    text = export_mat(match)
    assert '; [Variation "Longgammon"]' in text
    imported = import_mat(text)
    assert imported.rules == rules and imported.score == match.state.score


def test_a_position_of_the_new_variant_is_checked_by_its_rules(longgammon: Variant) -> None:
    start = longgammon.start_position()
    play = longgammon.check_play(start, (6, 5), [(24, 18), (18, 13)])
    assert play.notation() == "24/13"
    assert isinstance(play.position, Position)
