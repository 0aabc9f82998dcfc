"""Bots in two languages on one ladder: a Python ladder bot (`tavli bot --ladder`) and a Node one
(`node clients/node/bot.js --ladder`), each a process with its own account's key, join `tavli serve
--ladder`, are paired with nobody creating a game, play rated matches over PlaySeat, and stand on
the leaderboard with the ratings Glicko-2, worked out here from the games' own results, gives;
and the Node bot rides out a server restart mid-game, following its events and seats again.

Every process started here has a timeout and is stopped after, so that a bug fails the test
rather than hanging it.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tavli.clients.client import TavliClient
from tavli.clients.ladder_bot import LadderBot
from tavli.v1 import board_pb2 as board_pb, games_service_pb2 as games_pb, ladder_service_pb2 as pb
from tests.clients.test_node_client import NODE_CLIENT, node_executable
from tests.ladder_rig import Glicko, glicko_after, make_account, wait_for_a_game_played_into
from tests.server.test_ladder_pairing import serving_on
from tests.server_play import free_port, stop_process, tavli_serve

TAVLI = [sys.executable, "-m", "tavli.clients.cli"]
GAMES = 2  # each bot's games: the server starts no more a day (--ladder-games-per-day)
WITHIN = 180.0  # seconds for the bots' one-point matches between random bots: a bound, not a measure


def create_account(db: Path, handle: str) -> str:
    """A bot account made by the operator's command; its key (the command's last line)."""
    created = subprocess.run(
        [*TAVLI, "accounts", "create", handle, "--bot", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return created.stdout.splitlines()[-1]


def finished(name: str, process: subprocess.Popen[str]) -> str:
    """The standard output of a bot ``process`` that exits 0 within WITHIN seconds."""
    try:
        out, err = process.communicate(timeout=WITHIN)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the {name} bot did not finish its games in {WITHIN} s:\n{out}\n{err}")
    assert process.returncode == 0, f"the {name} bot failed:\n{out}\n{err}"
    return out


def handle_of(player: games_pb.Player) -> str:
    return player.player_id.removeprefix("accounts/")


def ratings_from(games: list[games_pb.Game], handles: list[str]) -> dict[str, Glicko]:
    """Every handle's rating after ``games``, each a rated match rated on its own, in the order
    they ended, from who won each as the game itself says."""
    ratings = {handle: Glicko() for handle in handles}
    for game in sorted(games, key=lambda game: game.update_time.ToNanoseconds()):
        seats = [handle_of(game.seat0_player), handle_of(game.seat1_player)]
        winner, loser = seats if game.winner == games_pb.SEAT_0 else seats[::-1]
        before = dict(ratings)
        ratings[winner] = glicko_after(before[winner], [(before[loser], 1.0)])
        ratings[loser] = glicko_after(before[loser], [(before[winner], 0.0)])
    return ratings


@pytest.mark.slow
def test_a_python_bot_and_a_node_bot_meet_on_the_ladder_and_are_rated(tmp_path: Path) -> None:
    node = node_executable()
    db = tmp_path / "tavli.sqlite3"
    keys = {handle: create_account(db, handle) for handle in ("snake", "turtle")}
    served = tavli_serve(
        "--db",
        str(db),
        "--ladder",
        "--ladder-rules",
        "backgammon:1:60+0",
        "--ladder-games-per-day",
        str(GAMES),
        stderr=tmp_path / "serve.log",
    )
    address = served.address
    bots: dict[str, subprocess.Popen[str]] = {}
    try:
        python = [*TAVLI, "bot", "--ladder", "--key", keys["snake"], "--server", address]
        bots["Python"] = subprocess.Popen(
            [*python, "--bot", "random", "--games", str(GAMES)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        javascript = [node, "bot.js", "--ladder", "--key", keys["turtle"], "--server", address]
        bots["Node"] = subprocess.Popen(
            [*javascript, "--games", str(GAMES), "--seed", "pytest"],
            cwd=NODE_CLIENT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        outputs = {name: finished(name, process) for name, process in bots.items()}
        with TavliClient.connect(address) as client:
            board = client.leaderboard("backgammon")
            history = {
                handle: client.ladder.ListRatingHistory(
                    pb.ListRatingHistoryRequest(handle=handle, variant=board_pb.VARIANT_BACKGAMMON)
                ).changes
                for handle in keys
            }
            games = [client.game(change.game) for change in history["snake"]]
    finally:
        for process in bots.values():
            if process.poll() is None:
                process.kill()
                process.communicate()
        stop_process(served.process)

    assert f"{GAMES} games ended on the ladder" in outputs["Node"]
    assert len(games) == GAMES
    assert sorted(change.game for change in history["turtle"]) == sorted(game.name for game in games)
    for game in games:  # each a match the ladder made between the two, played to its end
        assert game.phase == games_pb.PHASE_MATCH_OVER
        assert {handle_of(game.seat0_player), handle_of(game.seat1_player)} == set(keys)
        assert game.rule_set.match_length == 1
    expected = ratings_from(games, list(keys))
    assert sorted(entry.handle for entry in board) == sorted(keys)
    for entry in board:
        assert entry.games == GAMES
        assert entry.rating == pytest.approx(expected[entry.handle].rating, abs=1e-6)
        assert entry.deviation == pytest.approx(expected[entry.handle].deviation, abs=1e-6)
    assert [entry.rank for entry in board] == [1, 2] and board[0].rating >= board[1].rating


@pytest.mark.slow
def test_the_node_ladder_bot_rides_out_a_server_restart_and_finishes_its_games(tmp_path: Path) -> None:
    node = node_executable()
    db, port = tmp_path / "tavli.sqlite3", free_port()
    address = f"127.0.0.1:{port}"
    with contextlib.ExitStack() as bots:  # neither bot outlives the test, whatever failed
        with serving_on(port, db) as first:
            keys = {handle: make_account(first, handle) for handle in ("snake", "turtle")}
            python_bot = LadderBot(address, keys["snake"], "random", games=GAMES)
            bots.callback(python_bot.stop)
            python_thread = threading.Thread(target=python_bot.run, daemon=True)
            python_thread.start()
            ladder = ["--ladder", "--key", keys["turtle"], "--server", address, "--games", str(GAMES)]
            node_bot = subprocess.Popen(
                [node, "bot.js", *ladder],
                cwd=NODE_CLIENT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            bots.callback(stop_process, node_bot)
            wait_for_a_game_played_into(first)
        # The server is down mid-game; both bots try again until it is back, on the same port and database.
        with serving_on(port, db):
            output = finished("Node", node_bot)
            python_thread.join(WITHIN)
            assert not python_thread.is_alive(), "the Python bot did not finish its games"
            with TavliClient.connect(address) as client:
                board = client.leaderboard("backgammon")
    assert f"{GAMES} games ended on the ladder" in output
    assert python_bot.ended == GAMES
    assert sorted((entry.handle, entry.games) for entry in board) == [("snake", GAMES), ("turtle", GAMES)]
