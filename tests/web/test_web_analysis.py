"""GNU Backgammon's judgement at the web table, in a real browser (tests/browser.py's rig): the
Hint lists the plays AnalysisService ranks for the same position and roll, draws the one chosen
and makes it, and before a roll gives the cube decision the service gives; a table for two shows
hints only where it was created with them, on both pages; and the review after a 1-point match
against the computer shows the statistics AnalyzeMatch gives for the same game.

The DOM contract these tests read: `hint` (hidden where the table offers none) with `hint-button`,
`hint-plies`, `hint-note`, `hint-cube`, its `hint-entry` items (each a button with
`data-notation` and `aria-pressed`) and `hint-play`; the board's `board-arrows` (`data-steps`:
"from/to" per step); `hints-rule` (the table's choice in words); `review` with `review-button`,
`review-progress`, `review-stats` (a row per statistic, `data-stat`, a cell per player, `data-player`),
`review-graph`, its `review-decision` items (`data-mark`) and `review-detail`
(`review-detail-text`, `review-show-played`, `review-show-best`, `review-back`).
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tavli.clients.client import Seat, TavliClient
from tavli.server.app import Running
from tavli.v1 import analysis_service_pb2 as analysis_pb2, board_pb2, games_service_pb2 as games_pb2
from tests.browser import (
    MOST_ACTIONS,
    TURN_TIMEOUT_MS,
    ClickingPlayer,
    attribute,
    by,
    describe,
    event_count,
    open_context,
    open_seat,
    page_errors,
    play_pages_to_match_over,
    screenshot,
    start_computer_game,
    wait_for_events_past,
    wait_until_actionable,
)
from tests.server_play import all_events
from tests.web.test_web_home import serious_violations


def ranked_notations(client: TavliClient, game: games_pb2.Game) -> list[str]:
    """The plays the server ranks for the game's position and roll at 0 plies, best first."""
    request = analysis_pb2.ListRankedPlaysRequest(
        variant=board_pb2.VARIANT_BACKGAMMON,
        position=board_pb2.Position(position_id=game.position_id),
        dice=list(game.dice),
        context=analysis_pb2.GameContext(match_length=game.rule_set.match_length, cube_value=1, plies=0),
    )
    return [ranked.play.notation for ranked in client.analysis.ListRankedPlays(request, timeout=60).plays]


def to_my_play(player: ClickingPlayer) -> None:
    """Act (throw, roll, answer) until the page has a roll to play."""
    for _ in range(20):
        assert wait_until_actionable(player.page), (
            f"the page never came to act: {describe(player.page)}; {page_errors(player.page)}"
        )
        if (
            attribute(player.page, "data-phase") == "PLAYING"
            and attribute(player.page, "data-my-turn") == "true"
        ):
            return
        player.act()
    raise AssertionError("the page never came to play a roll")


def hinted(page: Page) -> list[str]:
    """Ask for the hint and read the plays it lists."""
    by(page, "hint-button").click()
    expect(by(page, "hint-entry").first).to_be_visible(timeout=TURN_TIMEOUT_MS)
    return [
        button.get_attribute("data-notation") or ""
        for button in by(page, "hint-entry").locator("button").all()
    ]


def test_the_hint_lists_the_plays_the_server_ranks_and_a_hinted_play_can_be_made(
    page: Page, server: Running, client: TavliClient
) -> None:
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="heuristic", match_length=1, name="Anna"
    )
    player = ClickingPlayer(page, client, name, seat=0)
    to_my_play(player)
    game = client.game(name)
    listed = hinted(page)
    assert listed == ranked_notations(client, game)
    chosen = len(listed) - 1  # the worst, so that the page makes what it was shown, not its own choice
    by(page, "hint-entry").nth(chosen).locator("button").click()
    expect(by(page, "hint-entry").nth(chosen).locator("button")).to_have_attribute("aria-pressed", "true")
    legal = {play.notation: play for play in player.legal().plays}
    steps = " ".join(f"{step.from_point}/{step.to_point}" for step in legal[listed[chosen]].steps)
    expect(by(page, "board-arrows")).to_have_attribute("data-steps", steps)
    screenshot(page, "hint-plays", full_page=True)
    assert serious_violations(page, "hint") == []
    before = event_count(page)
    by(page, "hint-play").click()
    wait_for_events_past(page, before)
    plays = [
        event
        for event in all_events(client, name)
        if event.kind == games_pb2.EVENT_KIND_PLAY and event.seat == games_pb2.SEAT_0
    ]
    assert plays[-1].notation == listed[chosen]
    expect(by(page, "hint-entry")).to_have_count(0)  # the next state asks afresh


def error_mark(loss: float) -> str:
    """GNU Backgammon's mark of a decision that lost ``loss`` (its own thresholds, `show analysis`)."""
    return next((mark for mark, least in (("??", 0.12), ("?", 0.06), ("?!", 0.03)) if loss >= least), "")


def two_person_table(client: TavliClient, *, hints_allowed: bool) -> tuple[Seat, Seat]:
    seats = client.create_game(match_length=1, players=("Anna", "Bob"), hints_allowed=hints_allowed)
    seats[0].roll()  # the throw for who starts: its winner has the roll to play
    return seats


def test_a_table_for_two_shows_hints_only_where_it_was_created_with_them(
    browser: Browser, server: Running, client: TavliClient
) -> None:
    contexts = [open_context(browser) for _ in range(2)]
    try:
        pages = [page for _, page in contexts]
        without = two_person_table(client, hints_allowed=False)
        for page, seat in zip(pages, without):
            open_seat(page, server, seat)
            expect(by(page, "hints-rule")).to_have_text(
                "Hints are off at this table: it was created without them."
            )
            expect(by(page, "hint")).to_be_hidden()
        allowed = two_person_table(client, hints_allowed=True)
        for page, seat in zip(pages, allowed):
            open_seat(page, server, seat)
            expect(by(page, "hints-rule")).to_contain_text("Hints are allowed at this table")
            expect(by(page, "hint")).to_be_visible()
        game = client.game(allowed[0].name)
        on_roll = pages[0 if game.turn == games_pb2.SEAT_0 else 1]
        expect(by(on_roll, "game")).to_have_attribute("data-my-turn", "true", timeout=TURN_TIMEOUT_MS)
        assert hinted(on_roll) == ranked_notations(client, game)
        screenshot(on_roll, "hint-table-for-two", full_page=True)
    finally:
        for context, _ in contexts:
            context.close()


def test_the_review_shows_the_statistics_analyze_match_gives_for_the_game(
    page: Page, server: Running, client: TavliClient
) -> None:
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="heuristic", match_length=1, name="Anna"
    )
    play_pages_to_match_over(client, name, [ClickingPlayer(page, client, name, seat=0)], MOST_ACTIONS)
    by(page, "match-over-close").click()
    expect(by(page, "review")).to_be_visible()
    by(page, "review-button").click()
    expect(by(page, "review-stats")).to_be_visible(timeout=TURN_TIMEOUT_MS * 4)
    analysis = client.analyze_match(game=name, plies=0)
    shown = {
        row.get_attribute("data-stat"): [cell.inner_text() for cell in row.locator("td").all()]
        for row in by(page, "review-stats").locator("tbody tr").all()
    }
    assert [header.inner_text() for header in by(page, "review-stats").locator("thead th").all()][1:] == [
        player.name for player in analysis.players
    ]
    assert shown["unforced_moves"] == [str(player.unforced_moves) for player in analysis.players]
    assert shown["error_rate"] == [f"{player.error_rate:.1f}" for player in analysis.players]
    assert shown["pr"] == [f"{player.pr:.1f}" for player in analysis.players]
    assert shown["rating"] == [player.rating for player in analysis.players]
    assert by(page, "review-decision").count() == len(analysis.decisions)
    dots = by(page, "review-graph").locator("circle.review-equity-point")
    assert dots.count() == len(analysis.decisions)
    assert [dot.get_attribute("data-index") for dot in dots.all()] == [
        str(index) for index in range(len(analysis.decisions))
    ]
    expect(by(page, "review-graph").locator("svg")).to_have_attribute(
        "aria-label", re.compile("^Equity and error graph")
    )
    marks = [
        button.get_attribute("data-mark") for button in by(page, "review-decision").locator("button").all()
    ]
    assert marks == [error_mark(decision.loss) for decision in analysis.decisions]
    chequer = next(
        i
        for i, d in enumerate(analysis.decisions)
        if d.kind == analysis_pb2.DECISION_KIND_CHEQUER and d.played
    )
    by(page, "review-decision").nth(chequer).locator("button").click()
    expect(by(page, "review-detail-text")).to_contain_text(f"played {analysis.decisions[chequer].played}")
    expect(by(page, "board-arrows")).to_be_visible()
    by(page, "review-show-best").click()
    expect(by(page, "review-show-best")).to_have_attribute("aria-pressed", "true")
    screenshot(page, "review", full_page=True)
    assert serious_violations(page, "review") == []
    by(page, "review-back").click()
    expect(by(page, "review-detail")).to_be_hidden()


CUBE_ACTIONS = {
    analysis_pb2.CUBE_ACTION_NO_DOUBLE: "No double",
    analysis_pb2.CUBE_ACTION_DOUBLE_TAKE: "Double, take",
    analysis_pb2.CUBE_ACTION_DOUBLE_PASS: "Double, pass",
    analysis_pb2.CUBE_ACTION_TOO_GOOD: "Too good to double",
}


def test_before_a_roll_the_hint_gives_the_cube_decision_the_server_gives(
    page: Page, server: Running, client: TavliClient
) -> None:
    name = start_computer_game(
        page, server.web_port, variant="backgammon", bot="heuristic", match_length=0, name="Anna", cube=True
    )
    player = ClickingPlayer(page, client, name, seat=0)
    for _ in range(20):
        assert wait_until_actionable(player.page), f"the page never came to act: {describe(page)}"
        if attribute(page, "data-phase") == "ROLLING" and by(page, "double-button").is_enabled():
            break
        player.act()
    else:
        raise AssertionError("the page never came to a roll with the cube to offer")
    game = client.game(name)
    request = analysis_pb2.GetCubeDecisionRequest(
        variant=board_pb2.VARIANT_BACKGAMMON,
        position=board_pb2.Position(position_id=game.position_id),
        context=analysis_pb2.GameContext(
            cube_value=game.cube_value,
            cube_owner=analysis_pb2.CUBE_OWNER_PLAYER
            if game.cube_owner == game.turn
            else analysis_pb2.CUBE_OWNER_UNSPECIFIED,
            plies=0,
        ),
    )
    decision = client.analysis.GetCubeDecision(request, timeout=60)
    by(page, "hint-button").click()
    expect(by(page, "hint-cube")).to_contain_text(f"Proper cube action: {CUBE_ACTIONS[decision.action]}.")
    expect(by(page, "hint-entry")).to_have_count(0)
