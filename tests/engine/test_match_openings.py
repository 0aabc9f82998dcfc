"""Who opens each game of a match (RULES.md, ``match_openings``), ``ALTERNATE`` above all: only
game 1 starts with the opening throw; each later game is opened by the side that did not open
the game before, who throws both dice."""

from __future__ import annotations

import pytest

from tavli.engine.dice import SeededDice
from tavli.engine.events import Side
from tavli.engine.game import Phase
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.engine.snapshot import snapshot_of, state_of_snapshot

# The same code on either engine (who opens each game: throws, no play): run once.
pytestmark = pytest.mark.no_core


def _resign_game(match: Match, loser: Side) -> None:
    """The game in play resigned by ``loser`` (a single game), accepted by the other side."""
    match.resign(loser, "single")
    match.accept(1 - loser)  # type: ignore[arg-type]


def _openers(match: Match, losers: list[Side]) -> list[Side | None]:
    """The opener of each game, each game resigned in turn by the side in ``losers``."""
    openers: list[Side | None] = []
    for loser in losers:
        game = match.state.game
        if game.phase is Phase.OPENING:
            match.roll(0)
        openers.append(match.state.game.opener)
        _resign_game(match, loser)
    return openers


@pytest.mark.parametrize("losers", [[0, 0, 0, 0], [1, 0, 1, 1], [0, 1, 0, 1]])
def test_alternate_openings_take_turns_whoever_wins(losers: list[Side]) -> None:
    match = Match(RuleSet(match_length=9, match_openings="ALTERNATE"), dice=SeededDice("alternate"))
    first, second, third, fourth = _openers(match, losers)
    assert first is not None
    assert (second, third, fourth) == (1 - first, first, 1 - first)


def test_a_later_game_starts_rolling_for_its_opener_with_no_opening_throw() -> None:
    match = Match(RuleSet(match_length=5, match_openings="ALTERNATE"), dice=SeededDice("rolling"))
    match.roll(0)
    first = match.state.game.opener
    assert first is not None
    _resign_game(match, first)  # the opener loses: the winner of game 1 does not open game 2
    game = match.state.game
    assert game.number == 2 and game.phase is Phase.ROLLING and game.turn == game.opener == 1 - first


def test_winner_opens_and_every_game_are_unchanged() -> None:
    winner_opens = Match(RuleSet(match_length=5, match_openings="WINNER_OPENS"), dice=SeededDice("w"))
    winner_opens.roll(0)
    _resign_game(winner_opens, 0)
    assert winner_opens.state.game.opener == winner_opens.state.game.turn == 1
    every_game = Match(RuleSet(match_length=5), dice=SeededDice("e"))
    every_game.roll(0)
    _resign_game(every_game, 0)
    assert every_game.state.game.phase is Phase.OPENING and every_game.state.game.opener is None


def test_a_snapshot_at_a_games_start_keeps_its_opener() -> None:
    rules = RuleSet(match_length=7, match_openings="ALTERNATE")
    match = Match(rules, dice=SeededDice("snapshot"))
    _openers(match, [0, 1])
    data = snapshot_of(match.state)
    assert data is not None
    assert state_of_snapshot(rules, data) == match.state
    after = Match.replay(rules, match.events)
    assert after.state == match.state
