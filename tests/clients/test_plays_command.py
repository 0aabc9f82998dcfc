"""``tavli plays`` for backgammon's starts and tables: ``--variant nackgammon|hypergammon-N|portes|tavla``
and ``--home-hit-and-run``."""

from __future__ import annotations

import json

import pytest

from tavli.clients import cli
from tavli.engine import Position
from tavli.engine.rules import RuleSet

# A blot on the player's 4-point, the 7-point held: 10/4* then 4/1 would move the hitter on.
HITTER = Position.from_points({10: 1}, {21: 1, 18: 2, 12: 12}).position_id()


def _plays(capsys: pytest.CaptureFixture[str], *arguments: str) -> list[dict[str, str]]:
    assert cli.main(["plays", *arguments, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("name", "start"),
    [("nackgammon", "NACKGAMMON"), ("hypergammon-1", "HYPERGAMMON_1"), ("hypergammon-3", "HYPERGAMMON_3")],
)
def test_a_start_lists_its_plays_from_its_own_start(
    capsys: pytest.CaptureFixture[str], name: str, start: str
) -> None:
    rules = RuleSet(start=start).rules  # type: ignore[arg-type]
    expected = rules.legal_plays(rules.start_position(), (3, 1)).notations()
    assert [play["play"] for play in _plays(capsys, "--variant", name, "--dice", "3", "1")] == expected


def test_tavla_keeps_the_hitter_where_it_hit_and_portes_does_not(capsys: pytest.CaptureFixture[str]) -> None:
    tavla = _plays(capsys, "--variant", "tavla", "--position-id", HITTER, "--dice", "6", "3")
    portes = _plays(capsys, "--variant", "portes", "--position-id", HITTER, "--dice", "6", "3")
    allowed = _plays(
        capsys,
        "--variant",
        "tavla",
        "--home-hit-and-run",
        "allowed",
        "--position-id",
        HITTER,
        "--dice",
        "6",
        "3",
    )
    assert [play["play"] for play in tavla] == ["10/4*"]
    assert [play["play"] for play in portes] == [play["play"] for play in allowed] == ["10/4*/1"]


def test_hit_and_run_with_long_nardi_is_refused_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(["plays", "--variant", "long-nardi", "--home-hit-and-run", "forbidden", "--dice", "3", "1"])
        == 2
    )
    assert "nothing is hit in long nardi" in capsys.readouterr().err


def test_a_hypergammon_position_id_of_other_checkers_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(
            ["plays", "--variant", "hypergammon-2", "--position-id", "4HPwATDgc/ABMA", "--dice", "3", "1"]
        )
        == 2
    )
    assert "a side has 2" in capsys.readouterr().err
