"""The game record at the web table, in a real browser (tests/browser.py's rig): the move list
against the server's own log for whole 1-point matches of both variants, a position shown from
the list against the server's position at that moment, stepping through a finished game to its
stored final position, the .mat download against the server's export, rematches (against the
computer, and at a table for two with two browsers), and the one message a missing game or a
wrong token shows.

The DOM contract these tests read, beside tests/web/test_web_browser.py's: the move list `record`
(`data-viewing`: the sequence of the entry shown, "" live) with its `record-entry` buttons
(`data-sequence`: the entry's last event, `data-kind`, `data-game`, `aria-current` on the one
shown), `record-result`, the steps `record-first`/`record-previous`/`record-next`/`record-last`,
`record-live` (back to the game), `record-viewing` (what is shown) and `record-download`; the
board's `data-checkers` (both sides' points, bar and off, from the page's seat, as
``checkers_key`` writes them) and `data-viewing-record` on `game`; the table's messages
`messages` (`last-event`, `refusal`); `rematch` (`rematch-button`, `rematch-accept`,
`rematch-text`); and `unavailable` (`unavailable-text`, `unavailable-home`).
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, Error as PlaywrightError, Page, Response, expect

from tavli.clients.client import TavliClient
from tavli.server.app import Running
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.browser import (  # what the browser tests share
    MOST_ACTIONS,
    ClickingPlayer,
    by,
    expected_entries,
    fragment_token,
    game_root,
    open_context,
    play_pages_to_match_over,
    screenshot,
    start_computer_game,
    url,
)
from tests.server_play import Policy, all_events, play_to_end

# The events that make an entry of the move list; a roll is one entry with the play after it.
CHECKERS = 15


def states_after(client: TavliClient, name: str) -> dict[int, games_pb2.Game]:
    """The server's state just after each event of the log, by the event's sequence."""
    final = client.game(name)
    states: dict[int, games_pb2.Game] = {}
    for message in client.watch(name, 0):
        states[message.event.sequence] = message.game
        if message.event.sequence + 1 >= final.event_count:
            break
    return states


def checkers_key(board: board_pb2.Board, my_seat: int) -> str:
    """A board from seat 0's side (Game.seat0_board) as the page's data-checkers writes it from
    ``my_seat``'s: my 24 points, bar and off, then the other side's."""

    def side(points: list[int], bar: int) -> str:
        counts = list(points) + [0] * (24 - len(points))
        return f"{','.join(map(str, counts))}/{bar}/{CHECKERS - sum(counts) - bar}"

    seat0 = side(list(board.player_points), board.player_bar)
    seat1 = side(list(board.opponent_points), board.opponent_bar)
    return f"{seat0}|{seat1}" if my_seat == 0 else f"{seat1}|{seat0}"


def dice_high_first(dice: list[int]) -> str:
    return "-".join(str(die) for die in sorted(dice, reverse=True))


def entry(page: Page, sequence: int) -> object:
    return by(page, "record").locator(f'[data-testid="record-entry"][data-sequence="{sequence}"]')


def look_at_the_board(page: Page) -> None:
    """Close the match-over dialog (the board stays)."""
    by(page, "match-over-close").click()
    expect(page.locator('dialog[data-testid="dialog-match-over"]')).not_to_be_visible()


# --- the move list of a whole match, each variant -------------------------------------------------


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_the_move_list_is_the_servers_log_and_shows_each_position(
    page: Page, server: Running, client: TavliClient, variant: str
) -> None:
    name = start_computer_game(
        page, server.web_port, variant=variant, bot="heuristic", match_length=1, name="Tester"
    )
    player = ClickingPlayer(page, client, name, 0, label=variant)
    final = play_pages_to_match_over(client, name, [player], MOST_ACTIONS)
    look_at_the_board(page)

    events = all_events(client, name)
    wanted = expected_entries(events)
    shown = by(page, "record-entry")
    expect(shown).to_have_count(len(wanted))
    sequences = [int(s) for s in shown.evaluate_all("(es) => es.map((e) => e.dataset.sequence)")]
    assert sequences == [event.sequence for event in wanted]
    texts = shown.all_inner_texts()
    by_sequence = {event.sequence: event for event in events}
    for text, event in zip(texts, wanted):
        if event.kind == games_pb2.EVENT_KIND_PLAY:
            rolled = by_sequence.get(event.sequence - 1)
            assert (event.notation or "no move") in text, (
                f"{text!r} does not show the play {event.notation!r}"
            )
            if rolled is not None and rolled.kind == games_pb2.EVENT_KIND_ROLL:
                assert text.startswith(f"{dice_high_first(list(rolled.dice))}:"), (
                    f"{text!r} does not show the roll {list(rolled.dice)}"
                )
    results = by(page, "record-result")
    expect(results).to_have_count(len(final.finished_games))
    assert "wins" in results.last.inner_text() or "win" in results.last.inner_text()
    screenshot(page, f"record-move-list-{variant}", full_page=True)

    # Any entry shows the server's position after it, read-only, until back to the game.
    states = states_after(client, name)
    middle = wanted[len(wanted) // 2]
    entry(page, middle.sequence).click()
    expect(game_root(page)).to_have_attribute("data-viewing-record", "true")
    expect(by(page, "record")).to_have_attribute("data-viewing", str(middle.sequence))
    at = states[middle.sequence]
    expect(by(page, "board")).to_have_attribute("data-checkers", checkers_key(at.seat0_board, 0))
    expect(by(page, "pips-me")).to_have_text(f"Pips: {at.pip_counts[0]}")
    expect(by(page, "pips-them")).to_have_text(f"Pips: {at.pip_counts[1]}")
    expect(by(page, "record-viewing")).to_contain_text("read-only")
    expect(by(page, "last-event")).to_be_in_viewport()
    if variant == "backgammon":
        screenshot(page, "record-position-viewed", full_page=True)

    # Stepping: the first entry, one on with the arrow key, the last with End: the stored final board.
    by(page, "record-first").click()
    expect(by(page, "record")).to_have_attribute("data-viewing", str(wanted[0].sequence))
    expect(by(page, "board")).to_have_attribute(
        "data-checkers", checkers_key(states[wanted[0].sequence].seat0_board, 0)
    )
    page.keyboard.press("ArrowRight")
    expect(by(page, "record")).to_have_attribute("data-viewing", str(wanted[1].sequence))
    expect(by(page, "board")).to_have_attribute(
        "data-checkers", checkers_key(states[wanted[1].sequence].seat0_board, 0)
    )
    page.keyboard.press("End")
    expect(by(page, "record")).to_have_attribute("data-viewing", str(wanted[-1].sequence))
    expect(by(page, "board")).to_have_attribute("data-checkers", checkers_key(final.seat0_board, 0))
    expect(by(page, "record-next")).to_be_disabled()
    by(page, "record-previous").click()
    expect(by(page, "record")).to_have_attribute("data-viewing", str(wanted[-2].sequence))
    by(page, "record-live").click()
    expect(game_root(page)).to_have_attribute("data-viewing-record", "false")
    expect(by(page, "board")).to_have_attribute("data-checkers", checkers_key(final.seat0_board, 0))


def test_the_mat_download_is_the_servers_export(page: Page, server: Running, client: TavliClient) -> None:
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="random", match_length=1, name="Tester"
    )
    player = ClickingPlayer(page, client, name, 0, label="download")
    play_pages_to_match_over(client, name, [player], MOST_ACTIONS)
    look_at_the_board(page)
    with page.expect_download() as waiting:
        by(page, "record-download").click()
    download = waiting.value
    game_id, _ = fragment_token(page.url)
    assert download.suggested_filename == f"tavli-{game_id}.mat"
    path = download.path()
    assert path is not None
    with open(path, encoding="utf-8") as saved:
        assert saved.read() == client.export_mat(name)


# --- a game that cannot be shown ------------------------------------------------------------------


def test_a_missing_game_shows_one_message_and_the_way_home(page: Page, server: Running) -> None:
    page.goto(url(server, "#/game/nosuchgame/sometoken"))
    expect(by(page, "unavailable")).to_be_visible()
    expect(by(page, "unavailable-text")).to_contain_text('no game "nosuchgame"')
    expect(by(page, "unavailable")).to_have_count(1)
    assert page.get_by_text("nosuchgame", exact=False).count() == 1, "the message is said once"
    expect(by(page, "board")).to_have_count(0)
    expect(by(page, "roll-button")).to_have_count(0)
    expect(by(page, "refusal")).to_have_count(0)
    page.goto(url(server, "#/watch/nosuchgame"))
    expect(by(page, "unavailable-text")).to_contain_text('no game "nosuchgame"')
    by(page, "unavailable-home").click()
    expect(by(page, "computer-form")).to_be_visible()


def test_a_wrong_token_shows_one_message_and_no_table(
    page: Page, server: Running, client: TavliClient
) -> None:
    seats = client.create_game(match_length=1)
    game_id = seats[0].name.removeprefix("games/")
    page.goto(url(server, f"#/game/{game_id}/not-a-seat-token"))
    expect(by(page, "unavailable")).to_be_visible()
    expect(by(page, "unavailable-text")).to_contain_text("holds no seat")
    expect(by(page, "board")).to_have_count(0)
    expect(by(page, "roll-button")).to_have_count(0)
    screenshot(page, "record-wrong-token", full_page=True)
    by(page, "unavailable-watch").click()
    expect(game_root(page)).to_have_attribute("data-game-name", seats[0].name)
    expect(by(page, "roll-button")).to_have_count(0)
    expect(by(page, "notation-input")).to_have_count(0)


# --- rematches --------------------------------------------------------------------------------------


def test_a_rematch_against_the_computer_starts_at_once(
    page: Page, server: Running, client: TavliClient
) -> None:
    name = start_computer_game(
        page, server.web_port, variant="long-nardi", bot="random", match_length=1, name="Tester"
    )
    player = ClickingPlayer(page, client, name, 0, label="rematch-computer")
    finished = play_pages_to_match_over(client, name, [player], MOST_ACTIONS)
    dialog = page.locator('dialog[data-testid="dialog-match-over"]')
    expect(dialog.get_by_test_id("rematch")).to_be_visible()
    screenshot(page, "record-match-over-rematch", full_page=True)
    dialog.get_by_test_id("rematch-button").click()
    expect(game_root(page)).not_to_have_attribute("data-game-name", name)
    new_name = game_root(page).get_attribute("data-game-name") or ""
    game_id, token = fragment_token(page.url)
    assert new_name == f"games/{game_id}"
    new = client.game(new_name)
    assert new.rule_set == finished.rule_set
    assert (new.seat0_player, new.seat1_player) == (finished.seat0_player, finished.seat1_player)
    seat = client.games.ListLegalActions(
        games_pb2.ListLegalActionsRequest(name=new_name, seat_token=token), timeout=client.timeout
    )
    assert seat.seat == games_pb2.SEAT_0
    # The computer is seated again: it plays its turns of the new match as the page plays its own.
    player = ClickingPlayer(page, client, new_name, 0, label="rematch-computer-2")
    for _ in range(30):
        if client.game(new_name).event_count >= 4:
            break
        if not player.act():
            page.wait_for_timeout(200)
    assert any(event.seat == games_pb2.SEAT_1 for event in all_events(client, new_name)[1:]), (
        "the computer never acted in the rematch"
    )


def test_a_rematch_at_a_table_for_two(browser: Browser, server: Running, client: TavliClient) -> None:
    seats = client.create_game(match_length=1, players=("Anna", "Bob"))
    name = seats[0].name
    pages: list[Page] = []
    seen: dict[int, list[str]] = {0: [], 1: []}
    contexts = []
    try:
        for index, seat in enumerate(seats):
            context, page = open_context(browser)
            contexts.append(context)
            page.on(
                "request", lambda request, i=index: seen[i].append(request.url + (request.post_data or ""))
            )
            page.on("response", lambda response, i=index: seen[i].append(_body(response)))
            page.goto(url(server, f"#/game/{name.removeprefix('games/')}/{seat.token}"))
            expect(game_root(page)).to_have_attribute("data-seat", f"SEAT_{index}")
            pages.append(page)
        play_to_end(seats, Policy(random.Random(9)))
        for page in pages:
            expect(page.locator('dialog[data-testid="dialog-match-over"]')).to_be_visible()
        anna, bob = pages
        expect(by(anna, "rematch-button")).to_have_text("Offer a rematch")
        by(anna, "rematch-button").click()
        expect(by(anna, "rematch-text")).to_contain_text("waiting for Bob")
        expect(by(anna, "rematch-button")).to_be_hidden()
        expect(by(bob, "rematch-text")).to_have_text("Anna offers a rematch.")
        expect(by(bob, "last-event")).to_have_text("Anna offered a rematch.")
        screenshot(bob, "record-rematch-offered", full_page=True)
        by(bob, "rematch-button").click()
        for page in pages:
            expect(game_root(page)).not_to_have_attribute("data-game-name", name)
        new_name = client.game(name).rematch.game
        tokens = []
        for index, page in enumerate(pages):
            expect(game_root(page)).to_have_attribute("data-game-name", new_name)
            expect(game_root(page)).to_have_attribute("data-seat", f"SEAT_{index}")
            tokens.append(fragment_token(page.url)[1])
    finally:
        for context in contexts:
            context.close()
    assert tokens[0] != tokens[1]
    for index, token in enumerate(tokens):
        held = client.games.ListLegalActions(
            games_pb2.ListLegalActionsRequest(name=new_name, seat_token=token), timeout=client.timeout
        )
        assert held.seat == (games_pb2.SEAT_0 if index == 0 else games_pb2.SEAT_1)
    # No seat's token ever reached the other seat's page, in a request or an answer.
    for index, token in enumerate(tokens):
        other = 1 - index
        assert not any(token in text for text in seen[other]), (
            f"seat {index}'s new token reached seat {other}'s page"
        )
        assert not any(seats[index].token in text for text in seen[other])


def _body(response: Response) -> str:
    try:
        return response.text()
    except PlaywrightError:  # a body the browser did not keep (a stream cut off, a redirect)
        return ""


# --- messages where the eyes are --------------------------------------------------------------------


def test_the_tables_message_is_in_view_beside_the_board_on_a_phone(
    phone_page: Page, server: Running, client: TavliClient
) -> None:
    page = phone_page
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="random", match_length=1, name="Tester"
    )
    player = ClickingPlayer(page, client, name, 0, label="phone-messages", tap=True)
    for _ in range(20):  # the throw for who starts, and the turns until the computer has acted
        events = all_events(client, name)
        if any(
            event.seat == games_pb2.SEAT_1 and event.kind != games_pb2.EVENT_KIND_OPENING_THROW
            for event in events
        ):
            break
        if not player.act():
            page.wait_for_timeout(200)
    page.evaluate("window.scrollTo(0, 0)")
    message = by(page, "last-event")
    expect(message).not_to_be_empty()
    expect(message).to_be_in_viewport()
    board = by(page, "board").bounding_box()
    shown = message.bounding_box()
    assert board is not None and shown is not None and shown["y"] >= board["y"] + board["height"] - 1, (
        "the message is not under the board"
    )
    assert by(page, "status").inner_text().startswith(message.inner_text())
    screenshot(page, "record-phone-message", full_page=False)
