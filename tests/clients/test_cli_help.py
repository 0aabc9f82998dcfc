"""What the commands say about themselves: each option's help with its default, and the arena's
table, whose columns name what it counts."""

from __future__ import annotations

import argparse
import importlib
import re

import pytest

from tavli.clients import cli
from tavli.clients.arena_command import ArenaConfig, ArenaResults, BotTally


def _parser(command: str) -> argparse.ArgumentParser:
    """The parser of ``tavli <command>``, made as the ``tavli`` command makes it."""
    commands = argparse.ArgumentParser(prog="tavli").add_subparsers()
    importlib.import_module(f"tavli.clients.{command}_command").add_parser(commands)
    return commands.choices[command]  # type: ignore[no-any-return]


def _help(command: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        cli.main([command, "--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "arena", "serve"])
def test_every_option_with_a_default_shows_it(command: str) -> None:
    parser = _parser(command)
    formatter = parser._get_formatter()
    without = []
    for action in parser._actions:
        switch = action.nargs == 0 and not isinstance(action, argparse.BooleanOptionalAction)
        if (
            switch or action.default is None
        ):  # a switch is off, and an option with no default has none to show
            continue
        shown = formatter._expand_help(action) if action.help else ""
        if "default: " not in shown:
            without.append(action.option_strings[0])
    assert not without, f"tavli {command}: no default shown for {', '.join(without)}"


def test_the_arena_help_shows_a_percent_sign_once(capsys: pytest.CaptureFixture[str]) -> None:
    shown = " ".join(_help("arena", capsys).split())
    assert "95% confidence interval" in shown
    assert "%%" not in shown


def test_max_message_bytes_says_what_it_bounds_and_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    shown = " ".join(_help("serve", capsys).split())
    assert "--max-message-bytes BYTES the largest gRPC message the server takes or sends" in shown
    assert f"(default: {4 * 1024 * 1024}, 4 MiB)" in shown


def _table(match_length: int) -> list[str]:
    config = ArenaConfig(
        variant="backgammon", bots=("heuristic", "random"), games=2, match_length=match_length
    )
    tallies = {
        "heuristic": BotTally(games=2, wins=2, points=[1, 1]),
        "random": BotTally(games=2, wins=0, points=[-1, -1]),
    }
    return ArenaResults(config, tallies, seconds=1.0).table().splitlines()


def test_the_arena_table_names_its_columns_for_matches_in_match_play() -> None:
    title, columns, heuristic, *_ = _table(match_length=5)
    assert title.startswith("backgammon, 5-point matches")
    assert re.split(r"\s{2,}", columns.strip()) == [
        "bot",
        "matches",
        "wins",
        "gammons",
        "backgammons",
        "net wins",
        "per match",
        "95% ci",
    ]
    assert heuristic.split() == ["heuristic", "2", "2", "0", "0", "2", "+1.000", "±0.000"]


def test_the_arena_table_counts_points_in_money_games() -> None:
    _, columns, *_ = _table(match_length=0)
    assert re.split(r"\s{2,}", columns.strip()) == [
        "bot",
        "games",
        "wins",
        "gammons",
        "backgammons",
        "points",
        "ppg",
        "95% ci",
    ]


def test_a_mistyped_option_shows_the_usage_of_the_command_it_was_given_to(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["plays", "--positon-id", "4HPwATDgc/ABMA"])
    assert exited.value.code == 2
    said = capsys.readouterr().err
    assert said.startswith("usage: tavli plays ")
    assert "tavli plays: error: unrecognized arguments: --positon-id 4HPwATDgc/ABMA" in said


@pytest.mark.parametrize("flag", ["--workers", "--evaluators", "--heavy-processes"])
@pytest.mark.parametrize("given", ["0", "-1", "two"])
def test_a_count_of_processes_below_one_is_refused_in_one_line(
    flag: str, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["serve", flag, given])
    assert exited.value.code == 2
    said = capsys.readouterr().err
    assert said == (
        f"tavli serve: argument {flag}: {given!r} is not a whole number of at least 1;"
        " tavli serve --help lists the options\n"
    )
