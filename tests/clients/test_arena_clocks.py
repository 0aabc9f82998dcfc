"""Clocks in the arena (``tavli arena --clock-*``): a bot that never acts in time loses on time, the
arena goes on and finishes, and the results count the time losses; bad clock options are refused.

The stalling bot keeps every decision longer than the move limit: the server records its time
loss with nobody calling, and the play it sends at last is refused; the seat driver reads the game
again and goes on without counting that play.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tavli.clients import bots
from tavli.clients.bots.base import Bot, CubeAnswer, Situation
from tavli.clients.cli import main
from tavli.clients.seat_driver import SeatDriver, play_match
from tavli.engine import Play, Position, Variant
from tavli.engine.clock import ClockRules
from tavli.engine.play import Dice
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import connected, running_server

MOVE_LIMIT = 0.5
STALL = 1.0  # longer than the move limit: the stalling bot never acts in time
BOUND = 60.0  # seconds any of these arenas may take at most


class StallingBot(Bot):
    """Keeps every decision past the move limit, then plays the first play it was offered."""

    name = "stalling"

    def __init__(self, *, seed: int | None = None) -> None:
        self.decisions = 0

    def choose_play(self, variant: Variant, position: Position, dice: Dice, plays: Sequence[Play]) -> Play:
        self._stall()
        return plays[0]

    def answer_double(self, situation: Situation) -> CubeAnswer:
        self._stall()
        return "take"

    def _stall(self) -> None:
        self.decisions += 1
        time.sleep(STALL)


@pytest.fixture
def stalling_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The arena takes bots by name: the stalling bot is named among them for the test."""
    monkeypatch.setitem(bots._MAKERS, StallingBot.name, StallingBot)
    monkeypatch.setattr(bots, "NAMES", (*bots.NAMES, StallingBot.name))
    yield


def _arena(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    assert main(["arena", *arguments, "--json"]) == 0
    return json.loads(capsys.readouterr().out), time.monotonic() - started


# --- the stalling side loses on time ----------------------------------------------------------------


@pytest.mark.parametrize("transport", [[], ["--unary"]], ids=["stream", "unary"])
def test_a_stalling_bot_loses_every_match_on_time_and_the_arena_counts_it(
    stalling_bot: None, capsys: pytest.CaptureFixture[str], transport: list[str]
) -> None:
    results, seconds = _arena(
        capsys,
        "--bots",
        "stalling,heuristic",
        "--games",
        "4",
        "--match-length",
        "3",
        "--seed",
        "7",
        "--parallel",
        "4",
        "--clock-move-limit",
        str(MOVE_LIMIT),
        *transport,
    )
    assert seconds < BOUND
    assert results["clock"] == {"reserve": 0, "reserve_per_point": 0, "delay": 0, "move_limit": MOVE_LIMIT}
    stalling, heuristic = results["bots"]["stalling"], results["bots"]["heuristic"]
    assert stalling["games"] == heuristic["games"] == 4
    assert stalling["wins"] == 0 and stalling["time_losses"] == 4
    assert heuristic["wins"] == 4 and heuristic["time_losses"] == 0
    assert stalling["points"] == -4  # a match counts -1 lost


def test_in_money_play_the_staller_loses_each_game_on_time(
    stalling_bot: None, capsys: pytest.CaptureFixture[str]
) -> None:
    results, seconds = _arena(
        capsys,
        "--bots",
        "heuristic,stalling",
        "--games",
        "4",
        "--seed",
        "8",
        "--parallel",
        "4",
        "--clock-move-limit",
        str(MOVE_LIMIT),
    )
    assert seconds < BOUND
    stalling, heuristic = results["bots"]["stalling"], results["bots"]["heuristic"]
    assert stalling["time_losses"] == 4 and stalling["wins"] == 0
    assert heuristic["time_losses"] == 0 and heuristic["wins"] == 4
    assert heuristic["points"] >= 4  # each game at the cube's value


def test_the_table_shows_the_clocks_and_the_losses_on_time(
    stalling_bot: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "arena",
                "--bots",
                "stalling,heuristic",
                "--games",
                "2",
                "--match-length",
                "1",
                "--seed",
                "9",
                "--parallel",
                "2",
                "--clock-reserve",
                "0.4",
                "--clock-delay",
                "0.2",
            ]
        )
        == 0
    )
    title, columns, *rows = capsys.readouterr().out.splitlines()
    assert title.endswith("clocks: reserve 0.4 s, delay 0.2 s")
    assert "lost on time" in columns
    shown = {row.split()[0]: row.split() for row in rows[:2]}
    assert shown["stalling"][:6] == [
        "stalling",
        "2",
        "0",
        "0",
        "0",
        "2",
    ]  # bot, matches, wins, gammons, bgs, lost
    assert shown["heuristic"][:6] == ["heuristic", "2", "2", "0", "0", "0"]


def test_a_round_robin_counts_the_time_losses_in_standings_and_results(
    stalling_bot: None, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.monotonic()
    assert (
        main(
            [
                "arena",
                "--round-robin",
                "--bots",
                "heuristic,stalling,random",
                "--games",
                "2",
                "--match-length",
                "1",
                "--seed",
                "3",
                "--parallel",
                "6",
                "--clock-move-limit",
                str(MOVE_LIMIT),
                "--json",
            ]
        )
        == 0
    )
    assert time.monotonic() - started < BOUND
    results = json.loads(capsys.readouterr().out)
    assert results["clock"]["move_limit"] == MOVE_LIMIT
    standings = {standing["bot"]: standing for standing in results["standings"]}
    assert standings["stalling"]["time_losses"] == 4 and standings["stalling"]["wins"] == 0
    assert standings["heuristic"]["time_losses"] == standings["random"]["time_losses"] == 0
    for pairing in results["pairings"]:
        staller_plays = "stalling" in pairing["bots"]
        assert all(result["lost_on_time"] == staller_plays for result in pairing["results"])
        assert all(result["winner"] != "stalling" for result in pairing["results"])


# --- the seat driver, with no arena around it -----------------------------------------------------


@pytest.mark.parametrize("stream", [True, False], ids=["stream", "unary"])
def test_play_match_ends_when_the_staller_s_time_runs_out(stream: bool) -> None:
    staller = StallingBot()
    with running_server() as server, connected(server.port) as client:
        started = time.monotonic()
        played = play_match(
            client,
            (staller, bots.create("heuristic", seed=1)),
            match_length=5,
            dice_seed="stall-5",
            stream=stream,
            clock=ClockRules(move_limit=MOVE_LIMIT),
        )
    assert time.monotonic() - started < BOUND
    assert played.game.phase == games_pb2.PHASE_MATCH_OVER
    assert played.game.winner == games_pb2.SEAT_1
    assert played.finished_games[-1].ended_by == games_pb2.GAME_END_TIME
    assert list(played.game.score) == [0, 5]
    assert staller.decisions == 1  # its one late decision, refused, and no more


def test_a_play_refused_after_the_time_loss_is_no_play() -> None:
    with running_server() as server, connected(server.port) as client:
        seats = client.create_game(match_length=3, dice_seed="late", clock=ClockRules(move_limit=MOVE_LIMIT))
        opened = seats[0].roll()
        mover = seats[0] if opened.to_act[0] == games_pb2.SEAT_0 else seats[1]
        time.sleep(MOVE_LIMIT + 0.5)  # the mover's time runs out; its view stays the one before
        driver = SeatDriver(mover, bots.create("heuristic", seed=1), engine_plays=True)
        assert driver.act(opened) is None  # refused, read again: the match is over
        now = client.game(opened.name)
    assert now.phase == games_pb2.PHASE_MATCH_OVER
    assert now.winner != opened.to_act[0]
    assert now.finished_games[-1].ended_by == games_pb2.GAME_END_TIME


# --- bad clock options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--clock-move-limit", "-1"], "the clock's move limit is between 0 and 2592000 seconds (30 days)"),
        (["--clock-reserve", "-0.5"], "the clock's reserve is between 0 and 2592000 seconds (30 days)"),
        (["--clock-reserve", "nan"], "the clock's reserve is a number of seconds"),
        (["--clock-delay", "5"], "a clock needs a reserve, a reserve per point or a move limit"),
        (
            ["--clock-reserve", "60", "--clock-reserve-per-point", "6"],
            "a reserve per point needs a match length; money play has none",
        ),
        (["--clock-reserve", "3000000"], "the clock's reserve is between 0 and 2592000 seconds (30 days)"),
    ],
)
def test_bad_clock_options_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], options: list[str], words: str
) -> None:
    assert main(["arena", "--bots", "heuristic,random", "--games", "1", *options]) == 2
    shown = capsys.readouterr()
    assert shown.out == ""
    assert shown.err == f"tavli arena: {words}\n"


def test_a_reserve_per_point_is_taken_in_match_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "arena",
                "--bots",
                "heuristic,random",
                "--games",
                "2",
                "--match-length",
                "1",
                "--seed",
                "2",
                "--clock-reserve-per-point",
                "60",
                "--clock-delay",
                "5",
                "--json",
            ]
        )
        == 0
    )
    results = json.loads(capsys.readouterr().out)
    assert results["clock"] == {"reserve": 0, "reserve_per_point": 60, "delay": 5, "move_limit": 0}
    assert sum(bot["time_losses"] for bot in results["bots"].values()) == 0


def test_without_clock_options_the_results_have_no_clocks(capsys: pytest.CaptureFixture[str]) -> None:
    results, _ = _arena(capsys, "--bots", "heuristic,random", "--games", "2", "--seed", "4")
    assert results["clock"] is None
    assert not any("time_losses" in bot for bot in results["bots"].values())  # the tallies as they were


def test_the_help_says_what_each_clock_option_is_and_its_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--clock-reserve SECONDS each side's reserve of time" in shown
    assert "--clock-reserve-per-point SECONDS more reserve for every point of the match" in shown
    assert "--clock-delay SECONDS a delay on every turn" in shown
    assert "--clock-move-limit SECONDS the most one turn may take" in shown
    assert "(default: 0, no limit)" in shown
