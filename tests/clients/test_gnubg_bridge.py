"""GNU Backgammon plays at a tavli seat through its external-player socket (clients.gnubg_bridge).

These tests need Debian's gnubg (``/usr/games/gnubg``): CI installs it (``.ci/run``); without it
they fail and say how to install it. Every wait here is bounded, and gnubg is stopped after.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from tavli.clients import bots
from tavli.clients.client import TavliClient, TavliServerError
from tavli.clients.gnubg_bridge import GNUBG, FibsBoard, GnubgExternal, GnubgProcess, GnubgSeat, running_gnubg
from tavli.clients.seat_driver import SeatDriver
from tavli.engine import BACKGAMMON, Position
from tavli.server.app import ServerConfig, create_server
from tavli.v1 import games_service_pb2 as games_pb2

GAME_TIMEOUT = 120.0  # a 1-point match takes a few seconds; a 3-point match a few more

# The opening position with 5-2 to play, for the side called "You" (colour O, moving 24 -> 1):
# FIBS's rawboard fields, money play (match length 9999), then gnubg's session options.
OPENING_5_2 = (
    "board:You:Opponent:9999:0:0:"
    "0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
    "1:5:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0"
    " jacobyrule off crawfordrule on beavers off"
)


MISSING = (
    f"GNU Backgammon is missing: {GNUBG} not found. Install Debian's gnubg package "
    "(apt-get update && apt-get install -y gnubg; .ci/run does it in CI). The PyPI gnubg "
    "package will not do: it is built without the external-player socket."
)


def test_gnu_backgammon_is_installed() -> None:
    assert GNUBG.is_file(), MISSING


@pytest.fixture(scope="module")
def gnubg() -> Iterator[GnubgProcess]:
    if not GNUBG.is_file():
        pytest.fail(MISSING)
    with running_gnubg() as process:
        yield process


@pytest.fixture
def external(gnubg: GnubgProcess) -> Iterator[GnubgExternal]:
    with GnubgExternal.connect(gnubg.port, timeout=30.0) as connection:
        yield connection


# --- the board line and gnubg's answers -----------------------------------------------------------


def test_the_opening_5_2_is_drawn_as_fibs_draws_it_and_gnubg_plays_13_8_24_22(
    external: GnubgExternal,
) -> None:
    board = FibsBoard(BACKGAMMON.start_position(), dice=(5, 2))
    assert board.line() == OPENING_5_2
    assert external.ask(OPENING_5_2) == "13/8 24/22"


def test_a_board_line_from_the_other_side_swaps_the_signs() -> None:
    position = Position.from_points({6: 5, 25: 1}, {1: 2, 25: 3})  # our 6 and bar; their 1 is our 24
    fields = FibsBoard(position, dice=(3, 1)).line().split(" ")[0].split(":")
    board = [int(count) for count in fields[6:32]]
    assert board[0] == -3 and board[25] == 1  # their bar, our bar
    assert board[6] == 5 and board[24] == -2
    assert fields[45:49] == ["9", "10", "1", "3"]  # borne off, then on the bar: ours, theirs


def test_gnubg_drops_a_double_when_the_doubler_bears_off_next_roll(external: GnubgExternal) -> None:
    position = Position.from_points({6: 3, 5: 3, 4: 3}, {1: 2, 2: 1})
    assert external.decide(FibsBoard(position, doubled=True)) == "drop"


def test_gnubg_takes_an_opening_double_in_a_match(external: GnubgExternal) -> None:
    board = FibsBoard(BACKGAMMON.start_position(), match_length=5, doubled=True)
    assert external.decide(board) == "take"


def test_gnubg_rejects_a_single_game_when_it_is_winning_a_backgammon(external: GnubgExternal) -> None:
    position = Position.from_points({1: 1}, {23: 15})  # their 15 checkers sit in our home board
    assert external.decide(FibsBoard(position, resignation="single")) == "reject"
    assert external.decide(FibsBoard(position, resignation="backgammon")) == "accept"


def test_gnubg_accepts_any_resignation_when_it_is_losing(external: GnubgExternal) -> None:
    position = Position.from_points({23: 15}, {1: 1})
    assert external.decide(FibsBoard(position, resignation="single")) == "accept"


def test_gnubg_does_not_double_in_the_crawford_game(external: GnubgExternal) -> None:
    board = FibsBoard(BACKGAMMON.start_position(), match_length=5, score=(3, 4), crawford=True)
    assert external.decide(board) == "roll"


# --- whole matches on a real server ------------------------------------------------------------------


def drive_to_end(driver: SeatDriver, deadline: float) -> None:
    """Play the driver's seat until the match is over, looking at the game every few milliseconds."""
    while time.monotonic() < deadline:
        game = driver.seat.game()
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            return
        if driver.act(game) is None:
            time.sleep(0.005)  # gnubg's turn
    raise TimeoutError(f"{driver.seat.name} is not over after {GAME_TIMEOUT:g}s")


def play_match(
    gnubg: GnubgProcess, *, match_length: int, dice_seed: str
) -> tuple[games_pb2.Game, GnubgSeat, float]:
    """gnubg (seat 0, through the bridge) against the heuristic bot (seat 1) on a loopback server."""
    running = create_server(ServerConfig(host="127.0.0.1", port=0, db=None, allow_seeded_dice=True))
    started = time.monotonic()
    try:
        with (
            TavliClient.connect(f"127.0.0.1:{running.port}", timeout=10.0) as client,
            GnubgExternal.connect(gnubg.port, timeout=30.0) as external,
        ):
            gnubg_seat, bot_seat = client.create_game(match_length=match_length, dice_seed=dice_seed)
            # The bridge makes the throw for who starts; the bot's seat waits for it.
            opponent = SeatDriver(bot_seat, bots.create("heuristic", seed=1), throws_opening=False)
            failures: list[Exception] = []

            def run_opponent() -> None:
                try:
                    drive_to_end(opponent, started + GAME_TIMEOUT)
                except Exception as error:  # noqa: BLE001 - reported by the test below
                    failures.append(error)

            thread = threading.Thread(target=run_opponent, daemon=True)
            thread.start()
            bridge = GnubgSeat(gnubg_seat, external)
            final = bridge.play_to_end(timeout=GAME_TIMEOUT)
            thread.join(GAME_TIMEOUT)
            assert not thread.is_alive(), "the heuristic bot's seat did not stop"
            assert not failures, f"the heuristic bot's seat failed: {failures[0]!r}"
            return final, bridge, time.monotonic() - started
    finally:
        running.stop(0)


@pytest.mark.slow
def test_gnubg_plays_a_1_point_match_to_its_end_against_the_heuristic_bot(gnubg: GnubgProcess) -> None:
    final, bridge, seconds = play_match(gnubg, match_length=1, dice_seed="gnubg-bridge-1")
    assert final.phase == games_pb2.PHASE_MATCH_OVER
    assert final.winner in (games_pb2.SEAT_0, games_pb2.SEAT_1)
    assert [finished.winner for finished in final.finished_games] == [final.winner]
    # Every play gnubg chose went through the server, which refuses an illegal one (the bridge
    # would have raised TavliServerError ILLEGAL_PLAY): so all of them were legal.
    plays = [answer for _, answer in bridge.decisions if "/" in answer]
    assert len(plays) >= 5, bridge.decisions
    assert seconds < GAME_TIMEOUT


@pytest.mark.slow
def test_gnubg_plays_a_3_point_match_with_the_cube_to_its_end(gnubg: GnubgProcess) -> None:
    final, bridge, _ = play_match(gnubg, match_length=3, dice_seed="gnubg-bridge-3")
    assert final.phase == games_pb2.PHASE_MATCH_OVER
    assert max(final.score) >= 3
    answers = {answer for _, answer in bridge.decisions}
    assert answers & {"roll", "double"}, "gnubg was never asked whether to double"


def test_gnubg_answers_an_offer_to_resign_at_the_table(gnubg: GnubgProcess) -> None:
    running = create_server(ServerConfig(host="127.0.0.1", port=0, db=None, allow_seeded_dice=True))
    try:
        with (
            TavliClient.connect(f"127.0.0.1:{running.port}", timeout=10.0) as client,
            GnubgExternal.connect(gnubg.port, timeout=30.0) as external,
        ):
            gnubg_seat, resigner = client.create_game(match_length=1, dice_seed="gnubg-bridge-resign")
            bridge = GnubgSeat(gnubg_seat, external)
            outcome: list[games_pb2.Game | Exception] = []

            def run_bridge() -> None:
                try:
                    outcome.append(bridge.play_to_end(timeout=GAME_TIMEOUT))
                except Exception as error:  # noqa: BLE001 - reported below
                    outcome.append(error)

            thread = threading.Thread(target=run_bridge, daemon=True)
            thread.start()
            deadline = time.monotonic() + GAME_TIMEOUT
            # Resign a gammon at the first chance after the throw for who starts (again if gnubg's
            # seat acted in between).
            while True:
                assert time.monotonic() < deadline, "no chance to resign"
                if resigner.game().phase != games_pb2.PHASE_OPENING and (
                    games_pb2.ACTION_RESIGN in resigner.legal_actions().actions
                ):
                    try:
                        resigner.resign("gammon")
                        break
                    except TavliServerError:
                        pass
                time.sleep(0.005)
            thread.join(GAME_TIMEOUT)
            assert not thread.is_alive(), "the bridge did not stop"
            final = outcome[0]
            assert isinstance(final, games_pb2.Game), final
            assert final.winner == games_pb2.SEAT_0  # gnubg accepted: a gammon offered in a 1-point match
            assert "accept" in {answer for _, answer in bridge.decisions}, bridge.decisions
    finally:
        running.stop(0)
