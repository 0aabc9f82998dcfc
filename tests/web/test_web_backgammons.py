"""A table where backgammons are not counted (``backgammons: AS_GAMMON``), in Debian's Chromium: a
backgammon made by the player's own last play at the table is scored as a gammon, 2 times the cube,
and the page says so."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tavli.clients.client import TavliClient
from tavli.engine.events import Played
from tavli.engine.match import Match
from tavli.engine.matfile import export_mat
from tavli.server.app import Running
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2
from tests.browser import (  # what the browser tests share
    by,
    open_seat,
    screenshot,
)
from tests.games import BACKGAMMON_GAME, as_gammon_match_with_a_backgammon

PLAYERS = ("Alice", "Bob")


def record_before_the_backgammon() -> tuple[str, Played]:
    """The AS_GAMMON match's record up to the play that ends its game 3 with a backgammon on the
    board, and that play."""
    match = as_gammon_match_with_a_backgammon()
    for count in range(1, len(match.events) + 1):
        if len(Match.replay(match.rules, match.events[:count]).state.finished) == BACKGAMMON_GAME:
            last = match.events[count - 1]
            assert isinstance(last, Played)
            before = Match.replay(match.rules, match.events[: count - 1])
            return export_mat(before, players=PLAYERS), last
    raise AssertionError(f"game {BACKGAMMON_GAME} never ended")


def test_a_backgammon_made_at_the_table_scores_a_gammon_and_the_page_says_so(
    page: Page, server: Running, client: TavliClient
) -> None:
    record, last = record_before_the_backgammon()
    seats = client.import_match(record)
    assert seats[0].game().rule_set.backgammons == games_pb2.BACKGAMMONS_AS_GAMMON
    winner = seats[last.side]
    open_seat(page, server, winner)

    field = by(page, "notation-input")
    expect(field).to_be_enabled()
    field.fill(last.notation)
    field.press("Enter")

    game_over = by(page, "dialog-game-over")
    expect(game_over).to_be_visible()
    expect(game_over).to_contain_text("a gammon")
    expect(game_over).to_contain_text("2 points")
    screenshot(page, "game-over-backgammon-as-gammon")
    finished = winner.game().finished_games[BACKGAMMON_GAME - 1]
    assert (finished.result, finished.points) == (board_pb2.GAME_RESULT_GAMMON, 2)
