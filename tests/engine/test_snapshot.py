"""A snapshot of a match at a game's start folds on to exactly what the whole log folds to."""

from __future__ import annotations

import json

import pytest

from tavli.engine.clock import ClockRules
from tavli.engine.match import Match
from tavli.engine.rules import RuleSet
from tavli.engine.snapshot import snapshot_of, state_of_snapshot
from tests.games import bot_match

RULE_SETS = [
    RuleSet(),
    RuleSet(match_length=15),
    RuleSet(match_length=11, match_openings="WINNER_OPENS"),
    RuleSet(match_length=21, clock=ClockRules(reserve=1e6, delay=2.0)),
    RuleSet(beavers=True, jacoby=True, automatic_doubles=True, auto_play_forced=True),
    RuleSet(variant="long-nardi", match_length=11),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: repr(rules)[:60])
@pytest.mark.parametrize("seed", range(4))
def test_folding_on_from_any_games_start_ends_where_folding_the_whole_log_does(
    rules: RuleSet, seed: int
) -> None:
    whole = bot_match(rules, seed=seed, games=6, double=0.05, resign=0.02, beaver=0.3)
    replayed = Match.replay(rules, whole.events)
    starts = game_starts(rules, whole)
    assert starts, "the match should run to more than one game"
    for at in starts:
        state = Match.replay(rules, whole.events[:at]).state
        written = snapshot_of(state)
        assert written is not None, f"no snapshot at the start of game {state.game.number}"
        read = state_of_snapshot(rules, json.loads(json.dumps(written)))
        assert read == state
        resumed = Match.replay(rules, whole.events, start=(at, read))
        assert resumed.state == replayed.state
        assert resumed.events == replayed.events
        assert resumed.game_started == replayed.game_started


def game_starts(rules: RuleSet, match: Match) -> list[int]:
    """Where each game after the first starts in ``match``'s log, folded from event 0."""
    starts = []
    folded = Match(rules)
    for event in match.events:
        folded.extend([event])
        if folded.game_started[0] == folded.version and not folded.state.over:
            starts.append(folded.version)
    return starts


def test_a_game_under_way_has_no_snapshot() -> None:
    match = bot_match(RuleSet(), seed=1, events=5)
    assert match.state.game.number == 1 and match.state.game.last_play is not None
    assert snapshot_of(match.state) is None


def test_a_match_that_is_over_has_no_snapshot() -> None:
    match = bot_match(RuleSet(match_length=1), seed=1)
    assert match.state.over
    assert snapshot_of(match.state) is None


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data.update(format=99),
        lambda data: data.pop("score"),
        lambda data: data["game"].update(turn=2),
        lambda data: data["game"].update(phase="sleeping"),
        lambda data: data["finished"].append(["x"]),
        lambda data: data.update(clock=[[1.0], None, 0.0]),
    ],
)
def test_a_snapshot_that_is_not_one_this_engine_writes_is_refused(damage) -> None:  # type: ignore[no-untyped-def]
    rules = RuleSet(match_length=3, clock=ClockRules(reserve=60.0))
    match = bot_match(rules, seed=2, games=1)
    written = snapshot_of(match.state)
    assert written is not None
    damage(written)
    with pytest.raises(ValueError):
        state_of_snapshot(rules, written)
