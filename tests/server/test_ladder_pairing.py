"""`tavli serve --ladder`: online bots paired by rating, playing rated matches to the end over
PlaySeat with nobody creating a game, their ratings what Glicko-2 computed apart says."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavli.clients.client import TavliClient
from tavli.clients.ladder_bot import LadderBot
from tavli.engine.clock import ClockRules
from tavli.engine.rules import RuleSet
from tavli.server.app import Running, ServerConfig, create_server
from tavli.server.ladder import LadderSettings
from tavli.v1 import board_pb2 as board_pb, games_service_pb2 as games_pb, ladder_service_pb2 as pb
from tests.ladder_rig import Glicko, glicko_after, make_account, wait_for_a_game_played_into
from tests.server_play import free_port, running_server, tavli_serve

LADDER = LadderSettings(
    pairing=True,
    heartbeat_seconds=0.1,
    grace_seconds=30.0,
    pair_seconds=0.2,
    rule_sets=(RuleSet(match_length=1, clock=ClockRules(reserve=60.0)),),
)
WITHIN = 120.0  # seconds for a few one-point matches between random bots: a bound, not a measure


def play_out(bots: list[LadderBot]) -> None:
    """Run ``bots`` until each has seen its games end (each stops by itself then)."""
    threads = [threading.Thread(target=bot.run, daemon=True) for bot in bots]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WITHIN)
    for bot in bots:
        bot.stop()
    assert not any(thread.is_alive() for thread in threads), "the bots did not finish their games"


def recomputed(client: TavliClient, handles: list[str]) -> dict[str, Glicko]:
    """Every handle's rating worked out from the rated matches' results, in the order they ended."""
    results: dict[str, tuple[float, str, str]] = {}  # game: (when, winner, loser)
    for handle in handles:
        history = client.ladder.ListRatingHistory(
            pb.ListRatingHistoryRequest(handle=handle, variant=board_pb.VARIANT_BACKGAMMON)
        )
        for change in history.changes:
            winner, loser = (handle, change.opponent) if change.won else (change.opponent, handle)
            results[change.game] = (change.time.ToNanoseconds(), winner, loser)
    ratings = {handle: Glicko() for handle in handles}
    for _, winner, loser in sorted(results.values()):
        before = dict(ratings)
        ratings[winner] = glicko_after(before[winner], [(before[loser], 1.0)])
        ratings[loser] = glicko_after(before[loser], [(before[winner], 0.0)])
    return ratings


@pytest.fixture
def ladder() -> Iterator[Running]:
    with running_server(ladder=LADDER) as running:
        yield running


def test_two_bots_on_the_ladder_are_paired_and_rated_with_nobody_making_a_game(ladder: Running) -> None:
    address = f"127.0.0.1:{ladder.port}"
    keys = {handle: make_account(ladder, handle) for handle in ("gnu", "gammon")}
    bots = [LadderBot(address, key, "random", games=2) for key in keys.values()]
    play_out(bots)
    assert [bot.ended for bot in bots] == [2, 2]
    with TavliClient.connect(address) as client:
        board = client.leaderboard("backgammon")
        expected = recomputed(client, list(keys))
    assert sorted(entry.handle for entry in board) == ["gammon", "gnu"]
    for entry in board:
        assert entry.games == 2
        assert entry.rating == pytest.approx(expected[entry.handle].rating, abs=1e-6)
        assert entry.deviation == pytest.approx(expected[entry.handle].deviation, abs=1e-6)
    assert board[0].rating >= board[1].rating and board[0].rank == 1


def test_the_servers_own_bot_is_a_ladder_member_too() -> None:
    settings = LadderSettings(**{**LADDER.__dict__, "house_bots": ("random",)})
    with running_server(ladder=settings) as running:
        address = f"127.0.0.1:{running.port}"
        bot = LadderBot(address, make_account(running, "visitor"), "random", games=1)
        play_out([bot])
        with TavliClient.connect(address) as client:
            board = client.leaderboard("backgammon")
    assert bot.ended == 1
    assert sorted((entry.handle, entry.games) for entry in board) == [("server-random", 1), ("visitor", 1)]


def test_the_commands_alone_run_a_ladder_that_a_bot_joins_and_plays_on(tmp_path: Path) -> None:
    db = tmp_path / "tavli.sqlite3"
    tavli = [sys.executable, "-m", "tavli.clients.cli"]
    created = subprocess.run(
        [*tavli, "accounts", "create", "visitor", "--bot", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    key = created.stdout.splitlines()[-1]
    log = tmp_path / "serve.log"
    served = tavli_serve(
        "--db",
        str(db),
        "--ladder",
        "--ladder-bots",
        "random",
        "--ladder-rules",
        "backgammon:1:60+0",
        stderr=log,
    )
    try:
        bot = subprocess.run(
            [
                *tavli,
                "bot",
                "--ladder",
                "--server",
                served.address,
                "--bot",
                "random",
                "--games",
                "1",
            ],
            env={**os.environ, "TAVLI_API_KEY": key},  # the key off the process list
            capture_output=True,
            text=True,
            timeout=WITHIN,
            check=False,
        )
        assert bot.returncode == 0, bot.stderr
        with TavliClient.connect(served.address) as client:
            board = client.leaderboard("backgammon")
    finally:
        served.process.send_signal(signal.SIGTERM)
        assert served.process.wait(timeout=30) == 0
    assert sorted((entry.handle, entry.games) for entry in board) == [("server-random", 1), ("visitor", 1)]
    logged = log.read_text()
    assert "LadderService/StreamEvents" in logged and key[4:] not in logged


def test_bots_that_connect_again_take_up_their_games_in_progress_and_finish_them(ladder: Running) -> None:
    address = f"127.0.0.1:{ladder.port}"
    keys = {handle: make_account(ladder, handle) for handle in ("gnu", "gammon")}
    with (
        TavliClient.connect(address, api_key=keys["gnu"]) as gnu,
        TavliClient.connect(address, api_key=keys["gammon"]) as gammon,
    ):
        challenge = gnu.challenge(
            "gammon", games_pb.RuleSet(variant=board_pb.VARIANT_BACKGAMMON, match_length=1)
        )
        game = gammon.accept_challenge(challenge.name)
    # Neither bot was connected when the game started: each learns of it from its stream's first message.
    bots = [LadderBot(address, key, "random", games=1) for key in keys.values()]
    play_out(bots)
    assert [bot.ended for bot in bots] == [1, 1]
    with TavliClient.connect(address) as client:
        assert client.game(game.game).phase == games_pb.PHASE_MATCH_OVER


@contextlib.contextmanager
def serving_on(port: int, db: Path) -> Iterator[Running]:
    """A ladder server on ``port`` keeping its games in ``db``, stopped after."""
    running = create_server(ServerConfig(host="127.0.0.1", port=port, db=db, ladder=LADDER))
    try:
        yield running
    finally:
        running.stop(0)


def test_bots_ride_out_a_server_restart_and_finish_their_games(tmp_path: Path) -> None:
    db, port = tmp_path / "tavli.sqlite3", free_port()
    bots: list[LadderBot] = []
    try:
        with serving_on(port, db) as first:
            keys = [make_account(first, handle) for handle in ("gnu", "gammon")]
            bots += [LadderBot(f"127.0.0.1:{port}", key, "random", games=2) for key in keys]
            threads = [threading.Thread(target=bot.run, daemon=True) for bot in bots]
            for thread in threads:
                thread.start()
            wait_for_a_game_played_into(first, within=20.0)
        # The server is down; the bots try again until it is back, on the same port and database.
        with serving_on(port, db):
            for thread in threads:
                thread.join(WITHIN)
            assert [bot.ended for bot in bots] == [2, 2]
            assert all(not thread.is_alive() for thread in threads)
            with TavliClient.connect(f"127.0.0.1:{port}") as client:
                assert sorted(entry.games for entry in client.leaderboard("backgammon")) == [2, 2]
    finally:  # no bot outlives the test, whatever failed
        for bot in bots:
            bot.stop()
