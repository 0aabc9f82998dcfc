"""Games against the computer from one browser, as a player starts and leaves them: a new one can
always be started (a game left waiting for its player gives up its bot's place, and keeps the
game), and the page offers only the matches the server seats its bots at."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tavli.clients.client import TavliClient
from tavli.server.app import Running
from tavli.server.quotas import QuotaLimits
from tavli.v1 import bots_service_pb2 as pb, bots_service_pb2_grpc, games_service_pb2 as games_pb2
from tests.browser import by, game_root, screenshot, show_rules, start_computer_game, wait_until_actionable
from tests.server_play import running_server

SHARE = 2  # the bots one client may have playing at once
LONGEST = 7  # the longest match the server seats a bot at
WAIT = 60


@pytest.fixture()
def server() -> Iterator[Running]:
    quotas = QuotaLimits(bots_per_client=SHARE)
    with running_server(web_port=0, log_rpcs=False, quotas=quotas, bot_match_points=LONGEST) as running:
        yield running


def wait_until_its_bot_waits_for_me(server: Running, name: str) -> None:
    """Wait until the bot of game ``name`` has seen that it is the page's turn (the page's client
    is the browser's address)."""
    deadline = time.monotonic() + WAIT
    while name not in {seat.name for seat in server.bot_seats.waiting_for_people("127.0.0.1")}:
        assert time.monotonic() < deadline, f"the bot of {name} never waited for its player"
        time.sleep(0.05)


def test_a_new_game_against_the_computer_can_always_be_started(
    page: Page, server: Running, client: TavliClient
) -> None:
    left = []
    for number in range(SHARE + 2):
        name = start_computer_game(
            page, server.web_port, variant="backgammon", bot="random", match_length=3, name="Ann"
        )
        assert wait_until_actionable(page), f"game {number + 1} never showed the player's turn"
        wait_until_its_bot_waits_for_me(server, name)
        left.append(name)  # and the next start_computer_game goes home
    assert len(set(left)) == SHARE + 2
    bots = bots_service_pb2_grpc.BotsServiceStub(client.channel)
    for name in left:  # every game left keeps its computer opponent, to come back to
        seated = bots.GetSeatBot(pb.GetSeatBotRequest(name=name, seat=games_pb2.SEAT_1))
        assert seated.bot == "random", name
    playing = {seat.name for seat in server.bot_seats.waiting_for_people("127.0.0.1")}
    assert playing == set(left[-SHARE:])  # the oldest gave up their places


def test_the_match_length_is_limited_to_what_the_server_seats_a_bot_at(
    page: Page, server: Running, client: TavliClient
) -> None:
    page.goto(f"http://127.0.0.1:{server.web_port}/#/")
    show_rules(page)
    length = by(page, "setting-match-length")
    expect(by(page, "setting-bot").locator('option[value="random"]')).to_have_count(1)
    expect(length).to_have_attribute("max", str(LONGEST))
    length.fill(str(LONGEST + 1))
    refusal = (
        f"The computer plays matches of up to {LONGEST} points (or money play, 0): choose {LONGEST} or fewer."
    )
    expect(page.locator(f"#{length.get_attribute('aria-describedby')}")).to_have_text(refusal)
    expect(length).to_have_attribute("aria-invalid", "true")
    by(page, "start-computer-game").click()
    expect(by(page, "computer-error")).to_have_text(refusal)
    screenshot(page, "home-match-too-long-for-the-computer", full_page=True)
    assert not client.games.ListGames(games_pb2.ListGamesRequest()).games  # nothing was created
    length.fill(str(LONGEST))
    expect(length).to_have_attribute("aria-invalid", "false")
    by(page, "start-computer-game").click()
    expect(game_root(page)).to_be_visible()
    expect(by(page, "match-length")).to_contain_text(f"Match to {LONGEST} points")
