"""Plakoto, Fevga and the Greek tavli match at the web table (Debian's Chromium, driven by
Playwright): a game started from the home page against the computer is played to the end by
clicking, the pinned checkers the server lists are the ones drawn pinned, each game of a tavli
match is drawn on its own board and named beside the score, and the page's result is the server's.
A tavli match between two people reaches its third game, Fevga, whatever the dice (the first two
games resigned at the table), and plays it to the end on both pages. The Greek games' options chosen
on the home form reach the server's rule set and are named at the table.

What these tests read of the page, besides tests/test_web_browser.py's contract: the board's
description (`board-description`, its first words the game on the board: "Plakoto, from my
side."), its pinned checkers (`g.pinned`, `data-pinned-side` me or them) and the match line
(`match-length`), the options named beside it (`rule-options`), and the form's fields of each
option (`setting-NAME`).
"""

from __future__ import annotations

import random
import re

from playwright.sync_api import Browser, Page, expect

from tavli.clients.client import TavliClient
from tavli.server.app import Running
from tavli.server.convert import rules_of
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.browser import (  # what the browser tests share
    MOST_ACTIONS,
    ClickingPlayer,
    by,
    close_game_over,
    fail_with_screenshot,
    game_root,
    open_context,
    open_seat,
    play_pages_to_match_over,
    screenshot,
    show_rules,
    start_computer_game,
    wait_until_actionable,
    waited_seats,
)

GAME_TITLES = {
    board_pb2.VARIANT_BACKGAMMON: "Portes",
    board_pb2.VARIANT_PLAKOTO: "Plakoto",
    board_pb2.VARIANT_FEVGA: "Fevga",
}
BOARD_TITLES = {
    board_pb2.VARIANT_BACKGAMMON: "Backgammon",
    board_pb2.VARIANT_PLAKOTO: "Plakoto",
    board_pb2.VARIANT_FEVGA: "Fevga",
}


def pins_shown(page: Page) -> tuple[int, int]:
    """How many of my checkers, and of theirs, the board draws pinned."""
    board = by(page, "board")
    return (
        board.locator('g.pinned[data-pinned-side="me"]').count(),
        board.locator('g.pinned[data-pinned-side="them"]').count(),
    )


def play_to_match_over(page: Page, client: TavliClient, name: str, *, pins_shot: str) -> dict[str, object]:
    """Play seat 0 by clicking until the match is over. On each of my turns the page shows what
    the server holds: the game on the board, the game named on the match line (in a tavli match)
    and the pinned checkers; the first board with pins is kept as a screenshot. As each game
    begins, the move list's parts of the games before it are marked (a property of the element,
    which a part drawn again would not have). Returns what was seen: the variants played and how
    many of my turns had pins."""
    player = ClickingPlayer(page=page, client=client, name=name, seat=0, rng=random.Random(11))
    variants: list[int] = []
    turns_with_pins = 0
    for _ in range(MOST_ACTIONS):
        if client.game(name).phase == games_pb2.PHASE_MATCH_OVER:
            expect(page.locator('dialog[data-testid="dialog-match-over"]')).to_be_visible()
            return {"variants": variants, "turns_with_pins": turns_with_pins}
        if not wait_until_actionable(page):
            if client.game(name).phase == games_pb2.PHASE_MATCH_OVER:
                continue
            fail_with_screenshot(page, "tables-stall", "the page never came to act")
        game = client.game(name)
        if game.phase == games_pb2.PHASE_PLAYING and games_pb2.SEAT_0 in game.to_act:
            if not variants or variants[-1] != game.variant:
                variants.append(game.variant)
                page.evaluate(
                    """(number) => {
                        for (const part of document.querySelectorAll('[data-testid="record-game"]'))
                            if (Number(part.dataset.game) < number) part.markedAt ??= number;
                    }""",
                    game.game_number,
                )
            description = by(page, "board-description")
            expect(description).to_contain_text(f"{BOARD_TITLES[game.variant]}, from my side.")
            if game.rule_set.variant == board_pb2.VARIANT_TAVLI:
                expect(by(page, "match-length")).to_contain_text(
                    f"game {game.game_number} of the rotation: {GAME_TITLES[game.variant]}"
                )
            board = game.seat0_board
            expected = (len(board.player_pinned_points), len(board.opponent_pinned_points))
            assert pins_shown(page) == expected, (
                f"the server pins {expected}, the page draws {pins_shown(page)}"
            )
            if expected != (0, 0):
                if turns_with_pins == 0:
                    screenshot(page, pins_shot, full_page=True)
                turns_with_pins += 1
        player.act()
    fail_with_screenshot(page, "tables-too-long", f"the match did not end within {MOST_ACTIONS} actions")
    raise AssertionError  # not reached


def check_result(page: Page, client: TavliClient, name: str) -> games_pb2.Game:
    """The match-over dialog names the server's winner and final score."""
    game = client.game(name)
    assert game.phase == games_pb2.PHASE_MATCH_OVER
    text = by(page, "match-over-text")
    winner = "You win" if game.winner == games_pb2.SEAT_0 else "Computer"
    expect(text).to_contain_text(winner)
    expect(text).to_contain_text(re.compile(rf"Tester {game.score[0]}, .* {game.score[1]}\."))
    return game


def test_a_plakoto_point_against_the_computer_is_played_to_the_end_with_its_pins_drawn(
    page: Page, server: Running, client: TavliClient
) -> None:
    name = start_computer_game(
        page, server.web_port, variant="plakoto", bot="heuristic", match_length=1, name="Tester"
    )
    seen = play_to_match_over(page, client, name, pins_shot="tables-plakoto-pins")
    game = check_result(page, client, name)
    assert game.rule_set.variant == board_pb2.VARIANT_PLAKOTO
    assert seen["variants"] == [board_pb2.VARIANT_PLAKOTO]
    finished = game.finished_games[-1]
    if finished.result != board_pb2.GAME_RESULT_DRAW:
        assert max(game.score) == finished.points >= 1
    screenshot(page, "tables-plakoto-over", full_page=True)


def test_plakotos_options_chosen_on_the_form_reach_the_server_and_the_table_names_them(
    page: Page, server: Running, client: TavliClient
) -> None:
    name = start_computer_game(
        page,
        server.web_port,
        variant="plakoto",
        bot="heuristic",
        match_length=3,
        name="Tester",
        options={"pinned-blocks-bear-off": False, "mother-value": "3"},
    )
    rules = rules_of(client.game(name).rule_set)
    assert (rules.variant, rules.match_length) == ("plakoto", 3)
    assert (rules.pinned_blocks_bear_off, rules.mother_exception, rules.mother_value) == (False, True, 3)
    assert rules.rules.pinned_blocks_bear_off is False, "the game's moves follow the option"
    expect(by(page, "rule-options")).to_have_text(
        "Rules: a pinned checker does not stop its side bearing off; a mother loss is worth 3 points"
    )


def test_fevgas_options_chosen_on_the_form_reach_a_tavli_matchs_fevga_games(
    page: Page, server: Running, client: TavliClient
) -> None:
    page.goto(f"http://127.0.0.1:{server.web_port}/#/")
    show_rules(page)
    by(page, "setting-variant").select_option("plakoto")
    expect(by(page, "setting-first-checker")).to_be_hidden()
    by(page, "setting-variant").select_option("fevga")
    expect(by(page, "setting-mother-value")).to_be_hidden()
    by(page, "setting-fevga-primes").select_option("none")
    expect(by(page, "setting-fevga-quarter-test")).to_be_disabled()
    name = start_computer_game(
        page,
        server.web_port,
        variant="tavli",
        bot="heuristic",
        match_length=3,
        name="Tester",
        options={
            "first-checker": "into-start-quarter",
            "fevga-primes": "start-quarter-and-unblock",
            "fevga-quarter-test": "step",
            "mother-exception": False,
        },
    )
    rules = rules_of(client.game(name).rule_set)
    fevga = rules.for_game(3)
    assert (fevga.variant, fevga.first_checker, fevga.fevga_primes, fevga.fevga_quarter_test) == (
        "fevga",
        "INTO_START_QUARTER",
        "START_QUARTER_AND_UNBLOCK",
        "STEP",
    )
    assert rules.for_game(2).mother_exception is False
    expect(by(page, "rule-options")).to_contain_text("the starting quarter is tested after every step")


def test_a_tavli_match_against_the_computer_plays_each_game_on_its_own_board(
    page: Page, server: Running, client: TavliClient
) -> None:
    name = start_computer_game(
        page, server.web_port, variant="tavli", bot="heuristic", match_length=3, name="Tester"
    )
    seen = play_to_match_over(page, client, name, pins_shot="tables-tavli-pins")
    game = check_result(page, client, name)
    played = [finished.variant for finished in game.finished_games]
    rotation = [board_pb2.VARIANT_BACKGAMMON, board_pb2.VARIANT_PLAKOTO, board_pb2.VARIANT_FEVGA]
    assert played == [rotation[i % 3] for i in range(len(played))]
    assert seen["variants"] == played, "each game of the match was drawn on its own board, in turn"
    assert max(game.score) >= 3
    # A finished game's moves are drawn once: each game's part of the move list is still the
    # element that was there when the next game began; and the list shows the latest moves.
    parts = page.evaluate(
        """() => [...document.querySelectorAll('[data-testid="record-game"]')]
            .map((part) => [Number(part.dataset.game), part.markedAt ?? null])"""
    )
    assert parts == [[number, number + 1] for number in range(1, len(played))] + [[len(played), None]]
    page.wait_for_function(
        """() => {
            const list = document.querySelector('[data-testid="record-list"]');
            const bottom = list.scrollTop + list.clientHeight;
            return list.scrollHeight > list.clientHeight && bottom >= list.scrollHeight - 1;
        }"""
    )
    screenshot(page, "tables-tavli-over", full_page=True)


def test_a_fevga_point_between_two_people_is_played_on_long_nardis_board(
    browser: Browser, page: Page, server: Running, client: TavliClient
) -> None:
    seats = client.create_game(
        variant="fevga", match_length=1, players=("Tester", "Friend"), dice_seed="fevga-1"
    )
    context, friend = open_context(browser)
    try:
        open_seat(page, server, seats[0])
        open_seat(friend, server, seats[1])
        for shown in (page, friend):
            expect(by(shown, "board-description")).to_contain_text("Fevga, from my side.")
        players = [
            ClickingPlayer(page=page, client=client, name=seats[0].name, seat=0, label="tester"),
            ClickingPlayer(page=friend, client=client, name=seats[1].name, seat=1, label="friend"),
        ]
        game = play_pages_to_match_over(client, seats[0].name, players, most_actions=2 * MOST_ACTIONS)
        assert [finished.variant for finished in game.finished_games] == [board_pb2.VARIANT_FEVGA]
        winner, loser = (page, friend) if game.winner == games_pb2.SEAT_0 else (friend, page)
        expect(by(winner, "match-over-text")).to_contain_text("You win the match")
        expect(by(loser, "match-over-text")).not_to_contain_text("You win")
        screenshot(friend, "tables-fevga-over", full_page=True)
    finally:
        context.close()


def show_game(pages: tuple[Page, ...], game: games_pb2.Game) -> None:
    """Every page draws the game's board and names it, with its number, on the match line."""
    for shown in pages:
        expect(by(shown, "board-description")).to_contain_text(f"{BOARD_TITLES[game.variant]}, from my side.")
        expect(by(shown, "match-length")).to_contain_text(
            f"game {game.game_number} of the rotation: {GAME_TITLES[game.variant]}"
        )


def resign_game(client: TavliClient, players: list[ClickingPlayer], number: int, resigner: int) -> None:
    """Play game ``number`` of the match by clicking until the page of seat ``resigner`` is to roll,
    then resign a single game there; the other page accepts in its dialog, and both close the game's
    end to go on to the next game."""
    name = players[0].name
    pages = tuple(player.page for player in players)
    for _ in range(MOST_ACTIONS):
        game = client.game(name)
        if game.game_number > number:
            for player in players:
                close_game_over(player.page)
            return
        waited = waited_seats(game)
        if game.game_number == number and game.phase == games_pb2.PHASE_ROLLING and waited == [resigner]:
            show_game(pages, game)
            resigning = players[resigner].page
            by(resigning, "resign-button").click()
            by(resigning, "resign-single").click()
            expect(game_root(resigning)).to_have_attribute("data-phase", "RESIGNING")
            accepting = players[1 - resigner]
            assert wait_until_actionable(accepting.page), "the resignation was never put to the other page"
            assert accepting.act() == "answered resignation"
            continue
        player = players[waited[0]] if waited else players[0]
        if not wait_until_actionable(player.page):
            fail_with_screenshot(
                player.page, "tavli-resign-stall", f"game {number}: the page never came to act"
            )
        player.act()
    raise AssertionError(f"game {number} did not end within {MOST_ACTIONS} actions")


def test_a_tavli_match_between_two_people_reaches_fevga_and_plays_it_in_the_browser(
    browser: Browser, page: Page, server: Running, client: TavliClient
) -> None:
    # A match to 2: Portes resigned by the friend, Plakoto by the tester, and at 1-1 the third
    # game, Fevga, decides the match whoever wins it.
    seats = client.create_game(
        variant="tavli", match_length=2, players=("Tester", "Friend"), dice_seed="tavli-to-fevga"
    )
    name = seats[0].name
    context, friend = open_context(browser)
    try:
        open_seat(page, server, seats[0])
        open_seat(friend, server, seats[1])
        players = [
            ClickingPlayer(page=page, client=client, name=name, seat=0, label="tester"),
            ClickingPlayer(page=friend, client=client, name=name, seat=1, label="friend"),
        ]
        resign_game(client, players, 1, resigner=1)
        resign_game(client, players, 2, resigner=0)
        game = client.game(name)
        assert (game.game_number, game.variant, list(game.score)) == (3, board_pb2.VARIANT_FEVGA, [1, 1])
        show_game((page, friend), game)
        screenshot(friend, "tables-tavli-fevga", full_page=True)
        final = play_pages_to_match_over(client, name, players, most_actions=2 * MOST_ACTIONS)
        finished = list(final.finished_games)
        assert [f.variant for f in finished] == [
            board_pb2.VARIANT_BACKGAMMON,
            board_pb2.VARIANT_PLAKOTO,
            board_pb2.VARIANT_FEVGA,
        ]
        assert [f.ended_by for f in finished[:2]] == [games_pb2.GAME_END_RESIGNATION] * 2
        assert finished[2].ended_by == games_pb2.GAME_END_PLAY and finished[2].points >= 1
        assert players[0].plays_clicked and players[1].plays_clicked, "Fevga was played on both pages"
        winner, loser = (page, friend) if final.winner == games_pb2.SEAT_0 else (friend, page)
        expect(by(winner, "match-over-text")).to_contain_text("You win the match")
        expect(by(loser, "match-over-text")).not_to_contain_text("You win")
    finally:
        context.close()
