"""``tavli plays`` answers from the engine alone, so it lists Plakoto's plays (pins in its Position
IDs) before the API offers the game; ``tavli play`` and ``tavli arena``, which need the server,
offer only the variants the API names."""

from __future__ import annotations

import json

import pytest

from tavli.clients import cli
from tavli.engine import PLAKOTO, Position


def _plays(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """What ``tavli plays`` with ``arguments`` exits with and says on standard output and error."""
    try:
        code = cli.main(["plays", *arguments])
    except SystemExit as exited:
        code = exited.code
    said = capsys.readouterr()
    return int(code or 0), said.out, said.err


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
def test_the_commands_that_need_the_server_offer_only_the_variants_the_api_names(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    said = capsys.readouterr().out
    assert "{backgammon,long-nardi}" in said and "plakoto" not in said
