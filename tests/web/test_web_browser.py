"""The web table in a real browser (Debian's Chromium, driven by Playwright): whole games against
the computer by clicking, in both variants; a refused move and the server's reason; the cube;
two browsers at one table through a shared link; a watcher; typed plays; the phone layout; and a
screenshot of each kind of screen (see tests/browser.py for where they go).

The page's DOM contract, as these tests read it: the home screen's `computer-form` (`setting-*`
fields, `start-computer-game`), `table-form` (`table-setting-*`, `create-table`, `share-link`,
`open-my-seat`), the watch form (`watch-name`, `watch-from`, `watch-button`) and `games-list`
(`game-entry` links with `data-game-name`); the game screen `game` (`data-game-name`,
`data-phase`, `data-my-turn`, `data-event-count`) with its `board` (an SVG whose hit targets are
`[data-point=N]` in the viewing player's numbering, `data-selected`/`data-target` while moving),
`dice`, `cube`, `board-description`, the controls (`roll-button`, `double-button`,
`resign-button`, `undo-button`, `submit-play`, `notation-input`, `notation-submit`), `status`,
`refusal`, `score`, `last-play`, `watching-banner`, and the dialogs `dialog-double`,
`dialog-resign-answer`, `dialog-game-over`, `dialog-match-over` (`match-over-text`).
"""

from __future__ import annotations

import random
import re
import urllib.parse

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from tavli.clients.client import Seat, TavliClient
from tavli.server.app import Running
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2, rules_service_pb2 as rules_pb2
from tests.browser import (  # what the browser tests share
    MOST_ACTIONS,
    PHONE,
    ClickingPlayer,
    by,
    controls_enabled,
    event_count,
    fragment_token,
    game_root,
    open_context,
    open_home_tab,
    open_seat,
    play_pages_to_match_over,
    point,
    screenshot,
    show_rules,
    start_computer_game,
    url,
    wait_until_actionable,
)
from tests.server_play import Policy, act_once

# A bound on the pages' actions (rolls, plays, answers) in one 1-point match: players that avoid
# hitting finish backgammon in some 50 of them, long nardi in some 100.
SEAT_CONTROLS = (
    "roll-button",
    "double-button",
    "resign-button",
    "undo-button",
    "submit-play",
    "notation-input",
    "notation-submit",
)


def names(game: games_pb2.Game) -> tuple[str, str]:
    return game.seat0_player.display_name, game.seat1_player.display_name


def assert_match_over_text(text: str, game: games_pb2.Game, my_seat: int | None) -> None:
    """The match-over text names the winner (the server's) and the final score (the server's)."""
    winner = 0 if game.winner == games_pb2.SEAT_0 else 1
    shown_names = names(game)
    if my_seat is not None and winner == my_seat:
        assert re.search(r"\byou win", text, re.IGNORECASE), f"the winner (me) is not in {text!r}"
    else:
        assert shown_names[winner] in text and "win" in text.lower(), (
            f"the winner {shown_names[winner]!r} is not in {text!r}"
        )
    for seat in (0, 1):
        pattern = re.escape(shown_names[seat]) + r"\s*:?\s*" + str(game.score[seat]) + r"\b"
        assert re.search(pattern, text), (
            f"seat {seat}'s final score {shown_names[seat]} {game.score[seat]} is not in {text!r}"
        )


def to_my_turn_to_play(seats: tuple[Seat, Seat], seat_index: int = 0) -> games_pb2.Game:
    """Play natively (seeded random plays) until seat ``seat_index`` has rolled and must play."""
    policy = Policy(random.Random(1))
    game = seats[0].game()
    for _ in range(50):
        if game.phase == games_pb2.PHASE_PLAYING and game.turn == seats[seat_index].seat:
            return game
        game = act_once(seats, game, policy)
    raise AssertionError("seat never came to play")


# --- 1. whole games against the computer, by clicking ------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "screenshots"),
    [("backgammon", True), ("long-nardi", False)],
)
def test_a_whole_match_against_the_computer_by_clicking(
    page: Page, server: Running, client: TavliClient, variant: str, screenshots: bool
) -> None:
    if screenshots:  # (home.png and home-phone.png are test_web_home.py's)
        page.goto(url(server))
        expect(by(page, "computer-form")).to_be_visible()
        expect(by(page, "games-list")).to_be_attached()
    name = start_computer_game(
        page, server.web_port, variant=variant, bot="heuristic", match_length=1, name="Tester"
    )
    game_id, token = fragment_token(page.url)  # the page's own seat, in its address's fragment
    assert f"games/{game_id}" == name and token
    created = client.game(name)
    assert created.rule_set.match_length == 1
    assert created.rule_set.variant == (
        board_pb2.VARIANT_BACKGAMMON if variant == "backgammon" else board_pb2.VARIANT_LONG_NARDI
    )
    assert created.seat0_player.display_name == "Tester"
    if screenshots:
        expect(game_root(page)).not_to_have_attribute("data-phase", "UNSPECIFIED")
        screenshot(page, "game-start", full_page=True)
    player = ClickingPlayer(
        page, client, name, 0, label=variant, shot_selected="game-checker-selected" if screenshots else None
    )
    final = play_pages_to_match_over(client, name, [player], MOST_ACTIONS)
    assert final.phase == games_pb2.PHASE_MATCH_OVER
    assert player.plays_clicked > 0, "the page never played a roll by clicking"
    text = by(page, "match-over-text").inner_text()
    assert_match_over_text(text, final, my_seat=0)
    expect(game_root(page)).to_have_attribute("data-phase", "MATCH_OVER")
    expect(game_root(page)).to_have_attribute("data-event-count", str(final.event_count))
    assert max(final.score) >= 1
    score = by(page, "score").inner_text()
    assert re.search(rf"\bYou\D*\b{final.score[0]}\b", score), (
        f"my score {final.score[0]} is not in {score!r}"
    )
    assert re.search(re.escape(final.seat1_player.display_name) + rf"\s*:?\s*{final.score[1]}\b", score), (
        f"the computer's score {final.score[1]} is not in {score!r}"
    )
    if screenshots:
        screenshot(page, "match-over", full_page=True)


# --- the settings panel -------------------------------------------------------------------------


def test_the_settings_panel_makes_the_rule_set_and_clocks_show(
    page: Page, server: Running, client: TavliClient
) -> None:
    page.goto(url(server))
    form = by(page, "computer-form")
    expect(form).to_be_visible()
    show_rules(page)
    by(page, "setting-variant").select_option("backgammon")
    expect(by(page, "setting-bot").locator('option[value="random"]')).to_have_count(1)
    by(page, "setting-bot").select_option("random")
    by(page, "setting-match-length").fill("0")
    by(page, "setting-name").fill("Settler")
    by(page, "setting-cube").set_checked(True)
    expect(by(page, "setting-beavers")).to_be_enabled()
    by(page, "setting-beavers").set_checked(True)
    by(page, "setting-jacoby").set_checked(True)
    by(page, "setting-auto-play-forced").set_checked(False)
    by(page, "setting-opening").select_option("winner-rolls-again")
    by(page, "setting-clock-reserve").fill("600")
    by(page, "setting-clock-delay").fill("5")
    screenshot(page, "settings-panel-computer", of=form)
    by(page, "start-computer-game").click()
    root = game_root(page)
    expect(root).to_have_attribute("data-game-name", re.compile(r"^games/."))
    name = root.get_attribute("data-game-name") or ""
    rules = client.game(name).rule_set
    assert rules.variant == board_pb2.VARIANT_BACKGAMMON and rules.match_length == 0
    assert rules.cube == games_pb2.CUBE_MODE_CUBE and rules.beavers and rules.jacoby
    assert not rules.auto_play_forced
    assert rules.opening == games_pb2.OPENING_WINNER_ROLLS_AGAIN
    assert rules.clock.reserve.ToSeconds() == 600 and rules.clock.delay.ToSeconds() == 5
    assert client.game(name).seat0_player.display_name == "Settler"
    for clock in ("clock-me", "clock-them"):
        expect(by(page, clock)).to_be_visible()
        expect(by(page, clock)).to_contain_text(re.compile(r"\b(10:00|9:[0-5]\d)\b"))
    expect(by(page, "match-length")).to_be_visible()

    # A match: the Crawford rule and how later games start.
    page.goto(url(server))
    show_rules(page)
    by(page, "setting-variant").select_option("backgammon")
    by(page, "setting-match-length").fill("3")
    expect(by(page, "setting-crawford")).to_be_enabled()
    by(page, "setting-crawford").set_checked(False)
    by(page, "setting-match-openings").select_option("winner-opens")
    by(page, "setting-clock-reserve").fill("")
    by(page, "setting-clock-delay").fill("")
    by(page, "start-computer-game").click()
    expect(root).not_to_have_attribute("data-game-name", name)
    expect(root).to_have_attribute("data-game-name", re.compile(r"^games/."))
    match = client.game(root.get_attribute("data-game-name") or "")
    assert match.rule_set.match_length == 3 and not match.rule_set.crawford
    assert match.rule_set.match_openings == games_pb2.MATCH_OPENINGS_WINNER_OPENS
    assert not match.rule_set.HasField("clock")
    expect(by(page, "clock-me")).to_be_hidden()
    expect(by(page, "match-length")).to_contain_text("3")

    # Long nardi: no cube, and the bots that play it.
    page.goto(url(server))
    show_rules(page)
    by(page, "setting-variant").select_option("long-nardi")
    expect(by(page, "setting-bot").locator('option[value="heuristic"]')).to_have_count(1)
    by(page, "setting-bot").select_option("heuristic")
    by(page, "setting-match-length").fill("1")
    by(page, "start-computer-game").click()
    expect(root).to_have_attribute("data-game-name", re.compile(r"^games/."))
    nardi = client.game(root.get_attribute("data-game-name") or "")
    assert nardi.rule_set.variant == board_pb2.VARIANT_LONG_NARDI
    assert nardi.rule_set.cube == games_pb2.CUBE_MODE_NO_CUBE
    expect(by(page, "board").locator('[data-testid="cube"]')).to_have_count(0)
    expect(by(page, "board-description")).to_contain_text("Long nardi")


# --- 2. an illegal move: refused, with the server's reason, and nothing sent -----------------------


def blocked_attempt(
    game: games_pb2.Game, legal: games_pb2.ListLegalActionsResponse
) -> tuple[int, int] | None:
    """A checker of the seat on turn that can move now, and a point one of its dice would take it to
    that the opponent holds (two or more checkers): (from, to) in the mover's numbering."""
    sources = {play.steps[0].from_point for play in legal.plays if play.steps}
    board = game.board  # seen from the seat on turn
    for source in sorted(sources, reverse=True):
        for die in sorted(set(game.dice)):
            to = source - die
            if 1 <= to <= 24 and board.opponent_points[25 - to - 1] >= 2:
                return source, to
    return None


def test_an_illegal_move_is_refused_with_the_servers_reason(
    page: Page, server: Running, client: TavliClient
) -> None:
    seats = None
    attempt = None
    for number in range(60):  # a seeded game where seat 0 opens with a die blocked somewhere
        seats = client.create_game(
            variant="backgammon", match_length=1, dice_seed=f"blocked-{number}", players=("Tester", "Other")
        )
        game = to_my_turn_to_play(seats)
        attempt = blocked_attempt(game, seats[0].legal_actions())
        if attempt:
            break
    assert seats is not None and attempt is not None, "no seeded game gave a blocked point to try"
    game = seats[0].game()
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    open_seat(page, server, seats[0])
    expect(game_root(page)).to_have_attribute("data-my-turn", "true")
    expect(game_root(page)).to_have_attribute("data-phase", "PLAYING")
    before_page = event_count(page)
    source, blocked = attempt
    sent.clear()  # (the page may have probed which seat its token holds: a refused RollDice)
    point(page, source).click()
    expect(point(page, source)).to_have_attribute("data-selected", "true")
    expect(point(page, blocked)).not_to_have_attribute("data-target", "true")
    point(page, blocked).click()
    refusal = by(page, "refusal")
    expect(refusal).not_to_be_empty()
    expect(refusal).to_be_visible()
    shown = refusal.inner_text().strip()
    # The server's own reason for the same attempt.
    request = rules_pb2.ValidatePlayRequest(
        variant=board_pb2.VARIANT_BACKGAMMON,
        position=board_pb2.Position(position_id=game.position_id),
        dice=list(game.dice),
        steps=board_pb2.PlaySteps(steps=[board_pb2.Step(from_point=source, to_point=blocked)]),
    )
    judged = client.rules.ValidatePlay(request, timeout=10)
    assert not judged.legal
    assert shown == judged.reason, f"the page shows {shown!r}, the server says {judged.reason!r}"
    assert "blocked" in shown
    expect(refusal).to_have_attribute("role", "alert")
    screenshot(page, "refusal", full_page=True)
    # Nothing was sent: the game is where it was, and no action went to the server.
    after = client.game(seats[0].name)
    assert after.event_count == game.event_count and after.etag == game.etag
    assert event_count(page) == before_page == game.event_count
    expect(game_root(page)).to_have_attribute("data-my-turn", "true")
    actions = [
        sent_url
        for sent_url in sent
        if re.search(r"/tavli\.v1\.GamesService/(PlayMove|RollDice|OfferDouble)$", sent_url)
    ]
    assert actions == [], f"the page sent an action for a refused attempt: {actions}"
    # And the turn can still be played.
    player = ClickingPlayer(page, client, seats[0].name, 0, label="after-refusal")
    player.play_by_clicking()
    assert client.game(seats[0].name).event_count > game.event_count


# --- 3. the cube ---------------------------------------------------------------------------------


# How the board's text alternative may name the cube's owner, seen from the page's seat.
OWNER_WORDS = {
    "mine": r"(mine|yours|owned by you|you own it)",
    "theirs": r"(theirs|owned by (?!you\b)[^.]+|they own it)",
    "middle": r"(in the middle|centred|centered|in the centre|in the center|nobody owns it)",
}


def cube_owner_word(game: games_pb2.Game, my_seat: int) -> str:
    if game.cube_owner == games_pb2.SEAT_UNSPECIFIED:
        return "middle"
    return "mine" if game.cube_owner == (games_pb2.SEAT_0 if my_seat == 0 else games_pb2.SEAT_1) else "theirs"


def assert_cube_shown(page: Page, game: games_pb2.Game, my_seat: int) -> None:
    """The board's cube and its text alternative show the server's cube value and owner (the
    cube's face 64 while it is centred at 1, as a real cube)."""
    cube = by(page, "board").locator('[data-testid="cube"]')
    centred = game.cube_value == 1 and game.cube_owner == games_pb2.SEAT_UNSPECIFIED
    expect(cube).to_have_text(re.compile(rf"^\s*{64 if centred else game.cube_value}\s*$"))
    owner = OWNER_WORDS[cube_owner_word(game, my_seat)]
    expect(by(page, "board-description")).to_contain_text(
        re.compile(rf"\bcube:?\s*{game.cube_value}\b[^.]*{owner}", re.IGNORECASE)
    )


def test_a_double_offered_from_the_page_and_one_taken_in_its_dialog(
    page: Page, server: Running, client: TavliClient
) -> None:
    seats = client.create_game(
        variant="backgammon", match_length=0, dice_seed="cube-1", cube=True, players=("Tester", "Other")
    )
    me, other = seats
    policy = Policy(random.Random(3))
    game = me.game()
    for _ in range(50):  # natively, to seat 0's turn to roll (it may double then)
        if game.phase == games_pb2.PHASE_ROLLING and game.turn == games_pb2.SEAT_0:
            break
        game = act_once(seats, game, policy)
    assert game.phase == games_pb2.PHASE_ROLLING and game.cube_value == 1
    open_seat(page, server, me)
    expect(game_root(page)).to_have_attribute("data-my-turn", "true")
    assert_cube_shown(page, game, 0)
    double = by(page, "double-button")
    expect(double).to_be_enabled()
    before = event_count(page)
    double.click()
    expect(game_root(page)).to_have_attribute("data-phase", "DOUBLED")
    doubled = client.game(me.name)
    assert doubled.phase == games_pb2.PHASE_DOUBLED and doubled.event_count == before + 1
    # The other seat, natively, takes: the cube is 2 and theirs.
    other.observe(doubled)
    taken = other.take()
    expect(game_root(page)).to_have_attribute("data-event-count", str(taken.event_count))
    assert taken.cube_value == 2 and taken.cube_owner == games_pb2.SEAT_1
    assert_cube_shown(page, taken, 0)
    # Seat 0 rolls and plays on the page; then seat 1 (natively) redoubles and the page takes.
    player = ClickingPlayer(page, client, me.name, 0, label="cube")
    for _ in range(10):
        game = client.game(me.name)
        if game.turn == games_pb2.SEAT_1 and game.phase == games_pb2.PHASE_ROLLING:
            break
        assert game.turn == games_pb2.SEAT_0, "seat 0 should be on turn"
        assert wait_until_actionable(page), "the page never showed its turn"
        player.act()
    other.game()
    redoubled = other.double()
    assert redoubled.phase == games_pb2.PHASE_DOUBLED
    dialog = page.locator('dialog[data-testid="dialog-double"]')
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("4")
    screenshot(page, "dialog-double", full_page=True)
    by(page, "take-button").click()
    expect(dialog).not_to_be_visible()
    expect(game_root(page)).to_have_attribute("data-event-count", str(redoubled.event_count + 1))
    after = client.game(me.name)
    assert after.cube_value == 4 and after.cube_owner == games_pb2.SEAT_0
    assert_cube_shown(page, after, 0)


# --- resignations, the end of a game and of a match ------------------------------------------------


def test_resignations_offered_and_answered_on_the_page(
    page: Page, server: Running, client: TavliClient
) -> None:
    seats = client.create_game(
        variant="backgammon", match_length=2, dice_seed="resign-1", cube=False, players=("Tester", "Other")
    )
    me, other = seats
    policy = Policy(random.Random(2))
    game = me.game()
    for _ in range(50):  # natively, to seat 0's turn to roll
        if game.phase == games_pb2.PHASE_ROLLING and game.turn == games_pb2.SEAT_0:
            break
        game = act_once(seats, game, policy)
    open_seat(page, server, me)
    root = game_root(page)
    expect(root).to_have_attribute("data-my-turn", "true")
    # The page offers to resign a single game; the other seat (natively) rejects it.
    resign = by(page, "resign-button")
    expect(resign).to_be_enabled()
    resign.click()
    offer = page.locator('dialog[data-testid="dialog-resign-offer"]')
    expect(offer).to_be_visible()
    expect(by(page, "resign-single")).to_be_visible()
    expect(by(page, "resign-gammon")).to_be_visible()
    expect(by(page, "resign-backgammon")).to_be_visible()
    by(page, "resign-single").click()
    expect(root).to_have_attribute("data-phase", "RESIGNING")
    offered = client.game(me.name)
    assert offered.phase == games_pb2.PHASE_RESIGNING
    assert (
        offered.resignation.seat == games_pb2.SEAT_0
        and offered.resignation.result == board_pb2.GAME_RESULT_SINGLE
    )
    other.observe(offered)
    rejected = other.reject()
    expect(root).to_have_attribute("data-event-count", str(rejected.event_count))
    expect(root).to_have_attribute("data-phase", "ROLLING")
    expect(root).to_have_attribute("data-my-turn", "true")
    # The other seat offers to resign: the page accepts in its dialog, and game 1 is over.
    other.game()
    assert games_pb2.ACTION_RESIGN in other.legal_actions().actions
    resigned = other.resign("single")
    answer = page.locator('dialog[data-testid="dialog-resign-answer"]')
    expect(answer).to_be_visible()
    screenshot(page, "dialog-resign-answer", full_page=True)
    by(page, "accept-resignation").click()
    game_over = page.locator('dialog[data-testid="dialog-game-over"]')
    expect(game_over).to_be_visible()
    after_game_1 = client.game(me.name)
    assert list(after_game_1.score) == [1, 0] and after_game_1.event_count > resigned.event_count
    expect(by(page, "game-over-text")).to_contain_text("1 point")
    expect(by(page, "game-over-text")).to_contain_text(re.compile(r"\byou win", re.IGNORECASE))
    screenshot(page, "dialog-game-over", full_page=True)
    by(page, "next-game-button").click()
    expect(game_over).not_to_be_visible()
    expect(by(page, "score")).to_contain_text(re.compile(r"\bYou\D*\b1\b"))
    # Game 2: the page throws for who starts; the other seat resigns again and the page accepts.
    player = ClickingPlayer(page, client, me.name, 0, label="resign")
    for _ in range(10):
        game = client.game(me.name)
        if game.phase in (games_pb2.PHASE_ROLLING, games_pb2.PHASE_PLAYING) and game.turn == games_pb2.SEAT_1:
            break
        assert wait_until_actionable(page), "the page never showed its turn in game 2"
        player.act()
    other.game()
    other.resign("single")
    expect(answer).to_be_visible()
    by(page, "accept-resignation").click()
    match_over = page.locator('dialog[data-testid="dialog-match-over"]')
    expect(match_over).to_be_visible()
    final = client.game(me.name)
    assert final.phase == games_pb2.PHASE_MATCH_OVER and list(final.score) == [2, 0]
    assert_match_over_text(by(page, "match-over-text").inner_text(), final, my_seat=0)
    by(page, "home-button").click()
    expect(by(page, "computer-form")).to_be_visible()


# --- 4. two browsers at one table, through a shared link ----------------------------------------------


def test_two_browsers_play_a_match_through_a_shared_link(
    browser: Browser, server: Running, client: TavliClient
) -> None:
    context_a, page_a = open_context(browser)
    context_b, page_b = open_context(browser)
    requests: list[Request] = []
    page_a.on("request", lambda request: requests.append(request))
    page_b.on("request", lambda request: requests.append(request))
    try:
        page_a.goto(url(server))
        open_home_tab(page_a, "table")
        show_rules(page_a, "table-")
        form = by(page_a, "table-form")
        expect(form).to_be_visible()
        by(page_a, "table-setting-variant").select_option("backgammon")
        by(page_a, "table-setting-match-length").fill("1")
        by(page_a, "table-setting-name").fill("Anna")
        screenshot(page_a, "settings-panel", of=form)
        by(page_a, "create-table").click()
        share = by(page_a, "share-link")
        expect(share).to_be_visible()
        expect(share).to_have_attribute("readonly", "")
        expect(share).to_have_value(re.compile(r"#/game/"))
        link = share.input_value()
        parsed = urllib.parse.urlsplit(link)
        game_id, token_b = fragment_token(link)
        assert parsed.query == "" and token_b not in parsed.path, (
            f"the seat token is outside the fragment: {link}"
        )
        assert (parsed.hostname, parsed.port) == ("127.0.0.1", server.web_port)
        name = f"games/{game_id}"
        screenshot(page_a, "table-created", full_page=True)
        my_seat = by(page_a, "open-my-seat")
        href = my_seat.get_attribute("href") or ""
        token_a = fragment_token(urllib.parse.urljoin(link, href))[1]
        assert token_a != token_b
        my_seat.click()
        expect(game_root(page_a)).to_have_attribute("data-game-name", name)
        page_b.goto(link)
        expect(game_root(page_b)).to_have_attribute("data-game-name", name)
        players = [
            ClickingPlayer(page_a, client, name, 0, label="browser-A", rng=random.Random(11)),
            ClickingPlayer(page_b, client, name, 1, label="browser-B", rng=random.Random(12)),
        ]
        final = play_pages_to_match_over(client, name, players, MOST_ACTIONS)
        assert final.phase == games_pb2.PHASE_MATCH_OVER
        assert players[0].plays_clicked > 0 and players[1].plays_clicked > 0
        text_a = by(page_a, "match-over-text").inner_text()
        text_b = by(page_b, "match-over-text").inner_text()
        assert_match_over_text(text_a, final, my_seat=0)
        assert_match_over_text(text_b, final, my_seat=1)
        for each in (page_a, page_b):
            expect(game_root(each)).to_have_attribute("data-phase", "MATCH_OVER")
            expect(game_root(each)).to_have_attribute("data-event-count", str(final.event_count))
        screenshot(page_b, "match-over-other-browser", full_page=True)
    finally:
        context_a.close()
        context_b.close()
    # The tokens went to the server only in the calls' bodies: never in an address or a Referer.
    assert requests, "no request seen"
    for request in requests:
        for token in (token_a, token_b):
            assert token not in request.url, f"a seat token in a request's address: {request.url}"
            assert token not in (request.headers.get("referer") or ""), (
                f"a seat token in a Referer: {request.url}"
            )


# --- 5. a watcher -------------------------------------------------------------------------------------


def test_a_watcher_follows_a_game_played_through_the_api(
    page: Page, server: Running, client: TavliClient
) -> None:
    seats = client.create_game(
        variant="backgammon", match_length=3, dice_seed="watch-1", players=("Anna", "Boris")
    )
    name = seats[0].name
    policy = Policy(random.Random(5))
    game = seats[0].game()
    for _ in range(6):  # a few events before the watcher comes: it replays them from the start
        game = act_once(seats, game, policy)
    page.goto(url(server, f"#/watch/{name.removeprefix('games/')}?from=start"))
    root = game_root(page)
    expect(root).to_have_attribute("data-game-name", name)
    expect(root).to_have_attribute("data-event-count", str(game.event_count))
    expect(by(page, "watching-banner")).to_be_visible()
    assert controls_enabled(page, SEAT_CONTROLS) == [], "a watcher has seat controls enabled"
    plays_seen = 0
    description = by(page, "board-description").inner_text()
    for _ in range(40):
        game = act_once(seats, game, policy)
        expect(root).to_have_attribute("data-event-count", str(game.event_count))
        expect(root).to_have_attribute("data-phase", games_pb2.Phase.Name(game.phase).removeprefix("PHASE_"))
        if game.last_play.notation and game.phase == games_pb2.PHASE_ROLLING:
            # A play was just made: its notation is shown, and the board has changed.
            expect(by(page, "last-play")).to_contain_text(game.last_play.notation)
            expect(by(page, "board-description")).not_to_have_text(description)
            description = by(page, "board-description").inner_text()
            plays_seen += 1
        if plays_seen >= 4:
            break
    assert plays_seen >= 4
    expect(by(page, "watching-banner")).to_be_visible()
    assert controls_enabled(page, SEAT_CONTROLS) == [], "a watcher has seat controls enabled"
    screenshot(page, "watch", full_page=True)

    # The watch form opens the same page from the game's name.
    page.goto(url(server, "#/"))
    open_home_tab(page, "watch")
    by(page, "watch-name").fill(name)
    by(page, "watch-from").select_option("start")
    by(page, "watch-button").click()
    expect(page).to_have_url(
        re.compile(r"#/watch/(games/|games%2F)?" + re.escape(name.removeprefix("games/")) + r"\?from=start$")
    )
    expect(game_root(page)).to_have_attribute("data-game-name", name)
    expect(game_root(page)).to_have_attribute("data-event-count", str(client.game(name).event_count))
    expect(by(page, "watching-banner")).to_be_visible()

    # The home page lists the game, and its entry opens the watch page.
    page.goto(url(server, "#/"))
    open_home_tab(page, "watch")
    entry = by(page, "games-list").locator(f'[data-testid="game-entry"][data-game-name="{name}"]')
    expect(entry).to_be_visible()
    screenshot(page, "home-games-list", full_page=True)
    entry.click()
    expect(page).to_have_url(re.compile(r"#/watch/" + re.escape(name.removeprefix("games/"))))
    expect(game_root(page)).to_have_attribute("data-game-name", name)
    expect(game_root(page)).to_have_attribute("data-event-count", str(client.game(name).event_count))
    expect(by(page, "watching-banner")).to_be_visible()


# --- keyboard play ------------------------------------------------------------------------------------


def test_a_play_typed_in_notation_and_sent_with_enter(
    page: Page, server: Running, client: TavliClient
) -> None:
    seats = client.create_game(
        variant="backgammon", match_length=1, dice_seed="typed-1", players=("Tester", "Other")
    )
    game = to_my_turn_to_play(seats)
    open_seat(page, server, seats[0])
    expect(game_root(page)).to_have_attribute("data-my-turn", "true")
    plays = [play for play in seats[0].legal_actions().plays if play.notation]
    assert plays
    notation = plays[-1].notation
    field = by(page, "notation-input")
    expect(field).to_be_enabled()
    field.click()
    field.press_sequentially(notation)
    field.press("Enter")
    expect(game_root(page)).not_to_have_attribute("data-event-count", str(game.event_count))
    after = client.game(seats[0].name)
    assert after.event_count > game.event_count
    assert after.last_play.seat == games_pb2.SEAT_0
    assert after.last_play.notation == notation
    expect(by(page, "refusal")).to_be_empty()


# --- the phone layout ---------------------------------------------------------------------------------


def test_the_game_screen_at_a_phone_size(phone_page: Page, server: Running, client: TavliClient) -> None:
    page = phone_page
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="heuristic", match_length=1, name="Phone"
    )
    player = ClickingPlayer(
        page, client, name, 0, label="phone", shot_selected="phone-game-checker-selected", tap=True
    )
    for _ in range(20):  # to the page's first play, by tapping the board
        if player.plays_clicked:
            break
        assert wait_until_actionable(page), "the page never showed its turn"
        if player.act() == "match-over":
            break
    assert player.plays_clicked, "no play made on the phone"
    screenshot(page, "phone-game", full_page=True)
    # The board fits the phone's width: nothing to scroll sideways.
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    svg_box = by(page, "board").locator("svg").bounding_box()
    assert (
        svg_box is not None and svg_box["x"] >= 0 and svg_box["x"] + svg_box["width"] <= PHONE["width"] + 0.5
    )
