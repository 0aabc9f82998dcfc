"""``tavli plays`` answers from the engine alone, so it lists Plakoto's plays (pins in its Position
IDs) before the API offers the game, and backgammon's starts and tables (``--variant
nackgammon|hypergammon-N|portes|tavla``, ``--home-hit-and-run``); ``tavli play`` and ``tavli arena``,
which need the server, offer only the variants the API names."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tavli.clients import cli
from tavli.engine import PLAKOTO, Position
from tavli.engine.rules import RuleSet

# A blot on the player's 4-point, the 7-point held: 10/4* then 4/1 would move the hitter on.
HITTER = Position.from_points({10: 1}, {21: 1, 18: 2, 12: 12}).position_id()


def _plays(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """What ``tavli plays`` with ``arguments`` exits with and says on standard output and error."""
    try:
        code = cli.main(["plays", *arguments])
    except SystemExit as exited:
        code = exited.code
    said = capsys.readouterr()
    return int(code or 0), said.out, said.err


def _listed(capsys: pytest.CaptureFixture[str], *arguments: str) -> list[dict[str, str]]:
    """The plays ``tavli plays --json`` lists."""
    code, out, _ = _plays(capsys, *arguments, "--json")
    assert code == 0
    return json.loads(out)  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("name", "start"),
    [("nackgammon", "NACKGAMMON"), ("hypergammon-1", "HYPERGAMMON_1"), ("hypergammon-3", "HYPERGAMMON_3")],
)
def test_a_start_lists_its_plays_from_its_own_start(
    capsys: pytest.CaptureFixture[str], name: str, start: str
) -> None:
    rules = RuleSet(start=start).rules  # type: ignore[arg-type]
    expected = rules.legal_plays(rules.start_position(), (3, 1)).notations()
    assert [play["play"] for play in _listed(capsys, "--variant", name, "--dice", "3", "1")] == expected


def test_tavla_keeps_the_hitter_where_it_hit_and_portes_does_not(capsys: pytest.CaptureFixture[str]) -> None:
    tavla = _listed(capsys, "--variant", "tavla", "--position-id", HITTER, "--dice", "6", "3")
    portes = _listed(capsys, "--variant", "portes", "--position-id", HITTER, "--dice", "6", "3")
    allowed = _listed(
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
    assert "forbidding hit-and-run in the home board is not a rule of long nardi" in capsys.readouterr().err


def test_a_hypergammon_position_id_of_other_checkers_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        cli.main(
            ["plays", "--variant", "hypergammon-2", "--position-id", "4HPwATDgc/ABMA", "--dice", "3", "1"]
        )
        == 2
    )
    assert "a side has 2" in capsys.readouterr().err


def test_plakoto_plays_from_the_start(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _plays(capsys, "--variant", "plakoto", "--dice", "6", "1", "--json")
    plays = json.loads(out)
    assert code == 0 and {play["play"] for play in plays} == {"24/23 24/18", "24/17"}
    expected = PLAKOTO.legal_plays(PLAKOTO.start_position(), (6, 1)).position_ids()
    assert sorted(play["position_id"] for play in plays) == sorted(expected)


def test_a_position_id_with_pins_is_read_for_plakoto_and_refused_for_backgammon(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pinned = "VRAusSRwxjEKIw:m24,o4,o9,o20"
    code, out, _ = _plays(
        capsys, "--variant", "plakoto", "--position-id", pinned, "--dice", "3", "2", "--json"
    )
    listed = {play["position_id"] for play in json.loads(out)}
    assert code == 0 and listed == set(PLAKOTO.legal_plays(Position.from_id(pinned), (3, 2)).position_ids())
    code, _, said = _plays(capsys, "--variant", "backgammon", "--position-id", pinned, "--dice", "3", "2")
    assert code == 2 and "backgammon has no pinned checkers" in said


@pytest.mark.parametrize("command", ["play", "arena"])
def test_the_commands_that_play_through_the_server_offer_every_variant_and_the_tavli_match(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    said = capsys.readouterr().out
    assert "{backgammon,fevga,long-nardi,plakoto,tavli" in said


def test_tavli_plays_judges_one_games_rules_not_the_tavli_match(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["plays", "--help"])
    said = capsys.readouterr().out
    assert "plakoto" in said and "tavli," not in said and ",tavli" not in said


def test_the_readmes_sample_of_tavli_plays_is_what_it_prints(capsys: pytest.CaptureFixture[str]) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    ((command, shown),) = re.findall(r"\n    \$ tavli plays (.*)\n((?:    \S.*\n)+)", readme)
    code, out, _ = _plays(capsys, *shlex.split(command))
    assert code == 0
    assert out.splitlines() == [line.removeprefix("    ") for line in shown.splitlines()]
