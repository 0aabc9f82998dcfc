"""The web table against the computer in Debian's Chromium, across a server killed with SIGKILL and
started again on the same SQLite file and ports, and across the `--workers` worker playing the
computer killed: the computer plays on, whether the page is reloaded or left as it was (it follows
the game through WatchGame, reconnecting by itself)."""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tavli.clients.client import TavliClient
from tavli.v1 import games_service_pb2 as games_pb2
from tests.browser import (  # what the browser tests share
    MOST_ACTIONS,
    ClickingPlayer,
    game_root,
    start_computer_game,
    wait_until_actionable,
)
from tests.server_play import RPC_TIMEOUT, ServeProcess, all_events, free_port, stop_process, tavli_serve
from tests.supervision import exited_pids, logged, supervised, wait_for

START_SECONDS = 60.0
PLAYS_TO_SEE = 2  # the computer's plays that show it at work, before the kill and after


def expect_the_stored_events_shown(page: Page, client: TavliClient, name: str) -> None:
    """The page comes to show as many events as the server has stored, both read at the same
    moment: the computer may still be acting when the player's last play is seen."""
    wait_for(
        "the page showing the events the server stored",
        lambda: game_root(page).get_attribute("data-event-count") == str(len(all_events(client, name))),
    )


def wait_for_the_web_port(port: int) -> None:
    """Wait until the web port takes connections: it opens just after the native one answers."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise AssertionError(f"the web port {port} did not open within {START_SECONDS} s") from None
            time.sleep(0.05)


class RestartableServer:
    """`tavli serve` on a SQLite file, with a web port; killed and started again on the same
    file and ports."""

    def __init__(self, folder: Path) -> None:
        self.database = str(folder / "games.sqlite3")
        self.web_port = free_port()
        self.process: ServeProcess = self._start(port=None)

    def _start(self, port: int | None) -> ServeProcess:
        served = tavli_serve("--db", self.database, "--web-port", str(self.web_port), port=port)
        try:
            wait_for_the_web_port(self.web_port)
        except AssertionError:
            stop_process(served.process)
            raise
        return served

    def kill_and_start_again(self) -> None:
        stop_process(self.process.process)  # SIGKILL: the bot has no chance to let go of its seat
        self.process = self._start(port=self.process.port)

    def stop(self) -> None:
        stop_process(self.process.process)


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[RestartableServer]:
    served = RestartableServer(tmp_path)
    try:
        yield served
    finally:
        served.stop()


def computer_plays(client: TavliClient, name: str, after: int = 0) -> int:
    return sum(
        1
        for event in all_events(client, name)[after:]
        if event.seat == games_pb2.SEAT_1 and event.kind == games_pb2.EVENT_KIND_PLAY
    )


def play_until_the_computer_has_played(
    client: TavliClient, name: str, player: ClickingPlayer, plays: int, *, after: int = 0
) -> None:
    """The page plays its seat until the computer has made ``plays`` plays since event ``after``
    (or the match is over, which a 1-point match may be first)."""
    for _ in range(MOST_ACTIONS):
        if computer_plays(client, name, after) >= plays:
            return
        if client.game(name).phase == games_pb2.PHASE_MATCH_OVER:
            assert computer_plays(client, name, after) >= 1, f"{player.label}: the computer never played"
            return
        if wait_until_actionable(player.page):
            player.act()
    raise AssertionError(
        f"{player.label}: the computer made fewer than {plays} plays in {MOST_ACTIONS} actions"
    )


@pytest.mark.parametrize("reload", [False, True], ids=["page-left-as-it-was", "page-reloaded"])
def test_the_computer_plays_on_after_the_server_is_killed_and_started_again(
    page: Page, server: RestartableServer, reload: bool
) -> None:
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="heuristic", match_length=1, name="Tester"
    )
    with TavliClient.connect(server.process.address, timeout=RPC_TIMEOUT) as client:
        player = ClickingPlayer(page, client, name, 0, label="before the kill")
        play_until_the_computer_has_played(client, name, player, PLAYS_TO_SEE)
        killed_at = len(all_events(client, name))

        server.kill_and_start_again()
        if reload:
            page.reload()
            expect(game_root(page)).to_have_attribute("data-game-name", name)

        player.label = "after the kill"
        play_until_the_computer_has_played(client, name, player, PLAYS_TO_SEE, after=killed_at)
        # The page, reloaded or reconnected by itself, shows what the server stored.
        expect_the_stored_events_shown(page, client, name)


@pytest.mark.parametrize("reload", [False, True], ids=["page-left-as-it-was", "page-reloaded"])
def test_the_computer_plays_on_after_the_worker_playing_it_is_killed(
    page: Page, tmp_path: Path, reload: bool
) -> None:
    web_port = free_port()
    with supervised(tmp_path, 2, "--web-port", str(web_port)) as (served, log):
        wait_for_the_web_port(web_port)
        name = start_computer_game(
            page, web_port, variant="backgammon", bot="heuristic", match_length=1, name="Tester"
        )
        with TavliClient.connect(served.address, timeout=RPC_TIMEOUT) as client:
            player = ClickingPlayer(page, client, name, 0, label="before the kill")
            play_until_the_computer_has_played(client, name, player, PLAYS_TO_SEE)
            (seated,) = logged(log, "bot seated")
            killed_at = len(all_events(client, name))
        victim = int(str(seated["worker"]))
        os.kill(victim, signal.SIGKILL)
        # Connections made while the kernel tears the worker down are reset; a player reloads
        # once the port is whole again, and the page left alone reconnects by itself.
        wait_for("the killed worker reaped", lambda: victim in exited_pids(log))
        if reload:
            page.reload()
            expect(game_root(page)).to_have_attribute("data-game-name", name)
        # A new connection: the one above may have been the killed worker's.
        with TavliClient.connect(served.address, timeout=RPC_TIMEOUT) as client:
            player = ClickingPlayer(page, client, name, 0, label="after the kill")
            play_until_the_computer_has_played(client, name, player, PLAYS_TO_SEE, after=killed_at)
            expect_the_stored_events_shown(page, client, name)
