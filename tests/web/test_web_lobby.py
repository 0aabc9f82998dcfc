"""The lobby in Chromium: people sign in with their accounts' keys, see who is online and the open
seeks live, accept a seek or challenge a ladder bot and land at the game's table in their own
seats; the leaderboards show what ListLeaderboard gives; names are shown as text; axe-core finds
nothing serious. Every wait has a timeout; every process started here is stopped after."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import grpc
import pytest
from google.protobuf.duration_pb2 import Duration
from playwright.sync_api import Browser, BrowserContext, Locator, Page, expect

from tavli.clients.client import TavliClient
from tavli.server.app import Running
from tavli.server.ladder import LadderSettings
from tavli.server.ladder_records import LadderGameRecord
from tavli.v1 import board_pb2 as board_pb, games_service_pb2 as games_pb, ladder_service_pb2 as pb
from tests.browser import (
    PHONE,
    TURN_TIMEOUT_MS,
    ClickingPlayer,
    attribute,
    by,
    fail_with_screenshot,
    fragment_token,
    game_root,
    open_context,
    screenshot,
    show_rules,
    url,
)
from tests.ladder_rig import Caller, EventReader, make_account
from tests.server_play import all_events, connected, running_server, stop_process
from tests.web.test_web_home import serious_violations

TAVLI = [sys.executable, "-m", "tavli.clients.cli"]
A_SEAT = re.compile("^SEAT_[01]$")  # a table's page once it knows its seat
TURNS = 40  # a bound on the turns a test plays to reach what it wants


@pytest.fixture()
def lobby_server() -> Iterator[Running]:
    with running_server(web_port=0, log_rpcs=False, ladder=LadderSettings(open_accounts=True)) as running:
        yield running


@pytest.fixture()
def client(lobby_server: Running) -> Iterator[TavliClient]:
    with connected(lobby_server.port) as native:
        yield native


def person(server: Running, handle: str, name: str) -> str:
    """A person's account, as `tavli accounts create HANDLE --name NAME` makes it; its key."""
    _, key = server.ladder.accounts.create(handle, name, "human")
    return key


def signed_in(browser: Browser, server: Running, key: str, who: str) -> tuple[BrowserContext, Page]:
    """A browser of its own at the lobby, signed in with ``key``."""
    context, page = open_context(browser)
    page.goto(url(server, "#/lobby"))
    by(page, "account-key").fill(key)
    by(page, "sign-in").click()
    expect(by(page, "signed-in-as")).to_contain_text(who)
    return context, page


def online_entry(page: Page, handle: str) -> Locator:
    return page.locator(f'[data-testid="online-account"][data-handle="{handle}"]')


def play_until(players: list[ClickingPlayer], done: Callable[[], bool]) -> None:
    """Each page does what it waits for, in turn, until ``done()``; at most TURNS rounds."""
    for _ in range(TURNS):
        if done():
            return
        acted = [player.act() for player in players]
        if not any(acted):
            time.sleep(0.1)  # the other side (a bot, the server) is acting: look again
    fail_with_screenshot(players[0].page, "lobby-game", "the game never came to what the test waits for")


def test_a_seek_posted_by_one_person_is_seen_live_and_accepted_by_another(
    browser: Browser, lobby_server: Running, client: TavliClient
) -> None:
    ann_key = person(lobby_server, "ann", "Ann Lee")
    ben_key = person(lobby_server, "ben", "Ben Ortiz")
    ann_context, ann = signed_in(browser, lobby_server, ann_key, "Ann Lee")
    ben_context, ben = signed_in(browser, lobby_server, ben_key, "Ben Ortiz")
    try:
        assert ann_key not in ann.url and ben_key not in ben.url  # the key is kept, never in an address
        expect(online_entry(ben, "ann")).to_contain_text("Ann Lee")
        expect(online_entry(ann, "ben")).to_contain_text("1500 ± 350")
        show_rules(ann, "lobby-")
        by(ann, "lobby-setting-match-length").fill("1")
        by(ann, "post-challenge").click()
        expect(by(ann, "seek")).to_have_count(1)
        expect(by(ann, "seek")).to_contain_text("(you)")
        seek = by(ben, "seek")
        expect(seek).to_have_count(1)  # seen without a reload, as the lobby reads the seeks again
        expect(seek).to_contain_text("Backgammon · match to 1")
        screenshot(ann, "lobby-seek-posted", full_page=True)
        screenshot(ben, "lobby-seek-seen", full_page=True)
        by(ben, "accept-seek").click()
        for page in (ann, ben):
            expect(game_root(page)).to_have_attribute("data-seat", A_SEAT, timeout=TURN_TIMEOUT_MS)
        name = attribute(ann, "data-game-name")
        assert name and attribute(ben, "data-game-name") == name
        seats = {attribute(ann, "data-seat"), attribute(ben, "data-seat")}
        assert seats == {"SEAT_0", "SEAT_1"}
        game_id, ann_token = fragment_token(ann.url)
        assert ann_token != fragment_token(ben.url)[1] and name == f"games/{game_id}"
        expect(by(ann, "way-home")).to_have_text("← Lobby")
        players = [
            ClickingPlayer(page, client, name, 0 if attribute(page, "data-seat") == "SEAT_0" else 1, label)
            for page, label in ((ann, "ann"), (ben, "ben"))
        ]
        play_until(players, lambda: any(player.plays_clicked for player in players))
        plays = [event for event in all_events(client, name) if event.kind == games_pb.EVENT_KIND_PLAY]
        assert plays, "a play was clicked but the server has none"
        screenshot(ann, "lobby-game-ann", full_page=True)
        screenshot(ben, "lobby-game-ben", full_page=True)
    finally:
        ann_context.close()
        ben_context.close()


def test_a_person_challenges_an_online_ladder_bot_and_the_bot_plays(
    browser: Browser, lobby_server: Running, client: TavliClient
) -> None:
    _, bot_key = lobby_server.ladder.accounts.create("robo", "Robo the Random", "bot")
    cyd_key = person(lobby_server, "cyd", "Cyd")
    bot = subprocess.Popen(
        [
            *TAVLI,
            "bot",
            "--ladder",
            "--key",
            bot_key,
            "--server",
            f"127.0.0.1:{lobby_server.port}",
            "--bot",
            "random",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    context: BrowserContext | None = None
    try:
        context, page = signed_in(browser, lobby_server, cyd_key, "Cyd")
        robo = online_entry(page, "robo")
        expect(robo).to_have_attribute("data-kind", "bot", timeout=TURN_TIMEOUT_MS)
        expect(robo).to_contain_text("on the ladder")
        screenshot(page, "lobby-online-bot", full_page=True)
        robo.get_by_test_id("challenge-account").click()
        expect(by(page, "challenge-opponent")).to_have_value("robo")
        show_rules(page, "lobby-")
        by(page, "lobby-setting-match-length").fill("1")
        by(page, "post-challenge").click()
        expect(game_root(page)).to_have_attribute("data-seat", A_SEAT, timeout=TURN_TIMEOUT_MS)
        name = attribute(page, "data-game-name")
        seat = 0 if attribute(page, "data-seat") == "SEAT_0" else 1
        player = ClickingPlayer(page, client, name, seat, "cyd")
        bot_seat = games_pb.SEAT_1 if seat == 0 else games_pb.SEAT_0

        def bot_played() -> bool:
            events = all_events(client, name)
            return any(event.kind == games_pb.EVENT_KIND_PLAY and event.seat == bot_seat for event in events)

        play_until([player], bot_played)
        screenshot(page, "lobby-game-against-bot", full_page=True)
    finally:
        if context is not None:
            context.close()
        stop_process(bot)


def test_a_challenge_to_a_person_shows_at_once_and_is_declined_with_a_reason_from_the_list(
    browser: Browser, lobby_server: Running
) -> None:
    challenger = make_account(lobby_server, "zed")
    context, page = signed_in(browser, lobby_server, person(lobby_server, "kim", "Kim"), "Kim")
    with grpc.insecure_channel(f"127.0.0.1:{lobby_server.port}") as channel:
        zed = Caller(channel, challenger)
        events = EventReader(channel, challenger)
        try:
            events.started()
            clocked = games_pb.RuleSet(
                variant=board_pb.VARIANT_BACKGAMMON,
                match_length=3,
                clock=games_pb.ClockRules(reserve=Duration(seconds=60), delay=Duration(seconds=5)),
            )
            zed.CreateChallenge(pb.CreateChallengeRequest(opponent="kim", rule_set=clocked))
            incoming = by(page, "incoming-challenge")
            # The challenger's rating stands beside the name once the list of who is online is read.
            expect(incoming).to_contain_text(
                re.compile(r"zed (\d+ )?challenges you: Backgammon · match to 3 · cube · 1:00 \+ 5 s delay")
            )
            expect(by(page, "lobby-news")).to_contain_text("zed challenges you")
            screenshot(page, "lobby-challenge-received", full_page=True)
            by(page, "decline-reason").select_option(label="The clock is too fast")
            by(page, "decline-challenge").click()
            expect(incoming).to_have_count(0)
            closed = events.next()
            assert closed.challenge_closed.state == pb.CHALLENGE_STATE_DECLINED
            assert closed.challenge_closed.decline_reason == pb.DECLINE_REASON_TOO_FAST
        finally:
            events.close()
            context.close()


def test_a_lobby_game_that_ends_takes_both_players_back_to_the_lobby(
    browser: Browser, lobby_server: Running
) -> None:
    lee_key, max_key = person(lobby_server, "lee", "Lee"), person(lobby_server, "max", "Max")
    lee_context, lee = signed_in(browser, lobby_server, lee_key, "Lee")
    max_context, max_page = signed_in(browser, lobby_server, max_key, "Max")
    try:
        by(lee, "challenge-opponent").fill("max")
        by(lee, "post-challenge").click()
        expect(by(lee, "outgoing-challenge")).to_contain_text("waiting for an answer")
        by(max_page, "accept-challenge").click()
        for page in (lee, max_page):
            expect(game_root(page)).to_have_attribute("data-seat", A_SEAT, timeout=TURN_TIMEOUT_MS)
        name = attribute(lee, "data-game-name")
        with grpc.insecure_channel(f"127.0.0.1:{lobby_server.port}") as channel:
            Caller(channel, lee_key).AbortGame(pb.AbortGameRequest(game=name))
        for page in (lee, max_page):
            expect(by(page, "signed-in-as")).to_be_visible(timeout=TURN_TIMEOUT_MS)
            assert page.url.endswith("#/lobby")
            expect(by(page, "lobby-news")).to_contain_text("was aborted before its first roll")
        screenshot(max_page, "lobby-back-after-game", full_page=True)
    finally:
        lee_context.close()
        max_context.close()


def rated(server: Running, game: str, seats: tuple[str, str], winner: int) -> None:
    """A rated backgammon match between ``seats`` that ``winner`` won, as the ladder records one."""
    record = LadderGameRecord(game, seats, "backgammon", True, "", time.time())
    server.ladder.records.add_ladder_game(record)
    server.ladder.records.end_ladder_game(record, "played", winner, time.time(), lambda seat, rating: b"")


def test_the_leaderboards_show_what_list_leaderboard_gives_and_a_players_history(
    browser: Browser, lobby_server: Running, client: TavliClient
) -> None:
    for handle, name in (("dee", "Dee"), ("eli", "Eli"), ("fay", "فاي")):
        person(lobby_server, handle, name)
    for handle in ("bot-a", "bot-b"):
        lobby_server.ladder.accounts.create(handle, "", "bot")
    rated(lobby_server, "games/p1", ("dee", "eli"), 0)
    rated(lobby_server, "games/p2", ("dee", "fay"), 0)
    rated(lobby_server, "games/b1", ("bot-a", "bot-b"), 1)
    context, page = signed_in(browser, lobby_server, person(lobby_server, "gus", "Gus"), "Gus")
    try:
        for kind, select in ((pb.ACCOUNT_KIND_HUMAN, "1"), (pb.ACCOUNT_KIND_BOT, "2")):
            by(page, "board-kind").select_option(select)
            board = client.ladder.ListLeaderboard(
                pb.ListLeaderboardRequest(variant=board_pb.VARIANT_BACKGAMMON, kind=kind)
            )
            entries = by(page, "board-entry")
            expect(entries).to_have_count(len(board.entries))
            for index, entry in enumerate(board.entries):
                row = entries.nth(index)
                expect(row).to_have_attribute("data-handle", entry.handle)
                expect(row.get_by_test_id("board-rating")).to_have_text(
                    f"{round(entry.rating)} ± {round(entry.deviation)}"
                )
            if kind == pb.ACCOUNT_KIND_HUMAN:
                assert board.entries[0].handle == "dee"
                screenshot(page, "lobby-leaderboard-people", full_page=True)
        by(page, "board-kind").select_option("1")
        page.locator('[data-testid="board-entry"][data-handle="dee"]').get_by_test_id("board-player").click()
        expect(by(page, "history-entries").locator("li")).to_have_count(2)
        expect(by(page, "rating-history")).to_contain_text("Won against")
    finally:
        context.close()


def test_names_are_text_a_reload_keeps_the_player_signed_in_and_sign_out_forgets_the_key(
    browser: Browser, lobby_server: Running
) -> None:
    hostile = '<img src=x onerror="document.title=1">\u202eevil'
    mallory_context, _ = signed_in(browser, lobby_server, person(lobby_server, "mallory", hostile), "evil")
    context, page = signed_in(browser, lobby_server, person(lobby_server, "hal", "Hal"), "Hal")
    try:
        entry = online_entry(page, "mallory")
        expect(entry).to_be_visible(timeout=TURN_TIMEOUT_MS)
        assert entry.locator("img").count() == 0
        assert entry.locator("bdi").first.inner_text() == hostile
        page.reload()
        expect(by(page, "signed-in-as")).to_contain_text("Hal")
        by(page, "sign-out").click()
        expect(by(page, "sign-in-form")).to_be_visible()
        assert page.evaluate("Object.values(localStorage).join(' ')").find("tvk_") == -1
        page.reload()
        expect(by(page, "sign-in-form")).to_be_visible()
    finally:
        context.close()
        mallory_context.close()


def test_a_person_makes_an_account_on_a_server_that_allows_it_and_axe_finds_nothing_serious(
    browser: Browser, lobby_server: Running
) -> None:
    context, page = open_context(browser)
    try:
        page.goto(url(lobby_server, "#/"))
        by(page, "lobby-link").click()
        expect(by(page, "sign-in-form")).to_be_visible()
        found = serious_violations(page, "lobby, signed out")
        screenshot(page, "lobby-sign-in", full_page=True)
        by(page, "new-handle").fill("ivy")
        by(page, "new-display-name").fill("Ivy")
        by(page, "create-account").click()
        expect(by(page, "made-key")).to_contain_text("tvk_")  # shown once, to be kept
        screenshot(page, "lobby-account-made", full_page=True)
        by(page, "go-on-signed-in").click()
        expect(by(page, "signed-in-as")).to_contain_text("Ivy")
        assert lobby_server.ladder.records.account("ivy") is not None
        expect(online_entry(page, "ivy")).to_be_visible(timeout=TURN_TIMEOUT_MS)
        found += serious_violations(page, "lobby, signed in")
        screenshot(page, "lobby-signed-in", full_page=True)
        page.set_viewport_size(PHONE)  # one column on a phone
        screenshot(page, "lobby-signed-in-phone", full_page=True)
        print("\n".join(found) or "axe-core: no serious or critical violations")
        assert found == [], "axe-core found serious or critical violations:\n" + "\n".join(found)
    finally:
        context.close()
