"""Clocks in the engine: reserves, the delay, the move limit, whose clock runs, and losing on time."""

from __future__ import annotations

import math

import pytest

from tavli.engine.clock import ClockRules
from tavli.engine.events import TimeRanOut, event_from_dict
from tavli.engine.game import ActionError, Phase, apply
from tavli.engine.match import Match
from tavli.engine.rules import InvalidRuleSetError, RuleSet

START = 1_000_000.0


class Time:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def passes(self, seconds: float) -> None:
        self.now += seconds


def clocked(time: Time, *, match_length: int = 5, **clock: float) -> Match:
    """A match with ``clock``'s settings whose opening throw has been made (seat 0 or 1 to play)."""
    match = Match(RuleSet(match_length=match_length, clock=ClockRules(**clock)), now=time)
    match.roll(0)
    return match


def play_first(match: Match) -> None:
    match.play(match.state.game.turn, match.legal_plays()[0])


def remaining(match: Match) -> tuple[float, float]:
    assert match.state.clock is not None
    return match.state.clock.remaining


def test_no_clock_runs_before_the_opening_throw_then_the_starters_does() -> None:
    time = Time()
    match = Match(RuleSet(match_length=5, clock=ClockRules(reserve=60)), now=time)
    assert match.state.clock is not None and match.state.clock.running is None
    assert match.deadline is None
    time.passes(500)  # nobody's clock runs while nobody has thrown
    match.roll(1)
    starter = match.state.game.turn
    assert match.state.clock.running == starter
    assert match.deadline == START + 500 + 60


def test_time_is_taken_from_the_seat_that_used_it() -> None:
    time = Time()
    match = clocked(time, reserve=60)
    mover = match.state.game.turn
    time.passes(12)
    play_first(match)
    assert remaining(match)[mover] == 48
    assert remaining(match)[1 - mover] == 60
    assert match.state.clock.running == 1 - mover


def test_time_within_the_delay_is_not_taken_from_the_reserve() -> None:
    time = Time()
    match = clocked(time, reserve=60, delay=8)
    mover = match.state.game.turn
    time.passes(5)  # within the delay
    play_first(match)
    assert remaining(match)[mover] == 60
    other = match.state.game.turn
    assert match.deadline == time.now + 8 + 60
    time.passes(3)
    match.roll(other)
    time.passes(7)  # 10 s in all for the turn: 2 s past the delay
    play_first(match)
    assert remaining(match)[other] == 58


def test_rolling_and_playing_are_one_turn_with_one_delay() -> None:
    time = Time()
    match = clocked(time, reserve=60, delay=8)
    play_first(match)
    seat = match.state.game.turn
    started = time.now
    time.passes(6)
    match.roll(seat)
    assert match.state.clock.started == started  # the roll did not start a new turn
    time.passes(6)
    play_first(match)
    assert remaining(match)[seat] == 60 - (12 - 8)


def test_a_double_runs_the_answerers_clock() -> None:
    time = Time()
    match = clocked(time, reserve=60, delay=0)
    play_first(match)
    doubler = match.state.game.turn
    time.passes(4)
    match.double(doubler)
    assert match.state.game.phase is Phase.DOUBLED
    assert match.state.clock.running == 1 - doubler
    assert remaining(match)[doubler] == 56
    time.passes(10)
    match.take(1 - doubler)
    assert remaining(match)[1 - doubler] == 50
    assert match.state.clock.running == doubler  # back to the doubler, a new turn


def test_an_offer_to_resign_runs_the_answerers_clock() -> None:
    time = Time()
    match = clocked(time, reserve=60)
    mover = match.state.game.turn
    time.passes(2)
    match.resign(mover, "single")
    assert match.state.clock.running == 1 - mover
    time.passes(3)
    match.reject(1 - mover)
    assert remaining(match) == tuple(60 - 2 if seat == mover else 60 - 3 for seat in (0, 1))
    assert match.state.clock.running == mover


def test_a_seat_out_of_time_loses_the_match_its_opponent_scoring_what_it_needs() -> None:
    time = Time()
    match = clocked(time, match_length=7, reserve=30, delay=5)
    loser = match.state.game.turn
    deadline = match.deadline
    assert deadline == START + 35
    assert match.expire(deadline - 0.001) == []
    time.passes(100)
    events = match.expire(time.now)
    assert events == [TimeRanOut(loser)]
    assert events[0].at == deadline  # dated when it happened, not when it was noticed
    state = match.state
    assert state.over and state.winner == 1 - loser
    assert state.score[1 - loser] == 7
    finished = state.finished[-1]
    assert (finished.ended_by, finished.points, finished.winner) == ("time", 7, 1 - loser)
    assert match.expire(time.now + 100) == []  # once


def test_in_money_play_a_time_loss_costs_the_game_at_the_cube_and_the_next_game_has_full_reserves() -> None:
    time = Time()
    match = clocked(time, match_length=0, reserve=20)
    play_first(match)
    doubler = match.state.game.turn
    match.double(doubler)
    match.take(1 - doubler)
    time.passes(5)
    match.roll(doubler)
    time.passes(60)
    match.expire(time.now)
    finished = match.state.finished[-1]
    assert (finished.winner, finished.points, finished.ended_by) == (1 - doubler, 2, "time")
    assert not match.state.over
    assert match.state.game.number == 2
    assert remaining(match) == (20, 20)
    assert match.state.clock.running is None


def test_an_action_after_the_deadline_is_refused_and_changes_nothing() -> None:
    time = Time()
    match = clocked(time, reserve=10)
    mover = match.state.game.turn
    time.passes(11)
    before = len(match.events)
    with pytest.raises(ActionError) as refused:
        play_first(match)
    assert refused.value.reason == "OUT_OF_TIME"
    assert refused.value.message == "your time has run out"
    with pytest.raises(ActionError, match="your opponent's time has run out"):
        match.resign(1 - mover, "single")
    assert len(match.events) == before


def test_the_move_limit_ends_a_turn_whatever_reserve_is_left() -> None:
    time = Time()
    match = clocked(time, reserve=600, move_limit=30)
    assert match.deadline == START + 30
    time.passes(29)
    play_first(match)
    assert match.deadline == time.now + 30


def test_a_clock_with_only_a_move_limit_has_no_reserve() -> None:
    time = Time()
    match = clocked(time, move_limit=15)
    assert remaining(match) == (math.inf, math.inf)
    time.passes(14)
    play_first(match)
    assert match.deadline == time.now + 15


def test_a_reserve_per_point_grows_with_the_match_length() -> None:
    time = Time()
    match = clocked(time, match_length=7, reserve=60, reserve_per_point=120)
    assert remaining(match) == (60 + 7 * 120, 60 + 7 * 120)


def test_the_clock_comes_back_the_same_from_the_stored_log() -> None:
    time = Time()
    match = clocked(time, reserve=60, delay=3)
    for _ in range(6):
        time.passes(4.25)
        seat = match.state.game.turn
        if match.state.game.phase is Phase.ROLLING:
            match.roll(seat)
        else:
            play_first(match)
    stored = [event.to_dict() for event in match.events]
    assert all("at" in event for event in stored)
    replayed = Match.replay(match.rules, [event_from_dict(event) for event in stored], now=time)
    assert replayed.state.clock == match.state.clock
    assert replayed.deadline == match.deadline


def test_games_without_clocks_store_no_times() -> None:
    match = Match(RuleSet(match_length=3))
    match.roll(0)
    assert match.state.clock is None
    assert all("at" not in event.to_dict() for event in match.events)
    assert match.expire(math.inf) == []


@pytest.mark.parametrize(
    ("clock", "match_length", "words"),
    [
        (ClockRules(), 5, "a clock needs a reserve, a reserve per point or a move limit"),
        (ClockRules(delay=5), 5, "a clock needs a reserve"),
        (ClockRules(reserve_per_point=60), 0, "a reserve per point needs a match length"),
        (ClockRules(reserve=-1), 5, "the clock's reserve is between 0 and"),
        (ClockRules(delay=math.nan), 5, "the clock's delay is a number of seconds"),
        (ClockRules(move_limit=40 * 24 * 3600), 5, "the clock's move limit is between 0 and"),
    ],
)
def test_clock_settings_that_make_no_sense_are_refused(
    clock: ClockRules, match_length: int, words: str
) -> None:
    with pytest.raises(InvalidRuleSetError, match=words):
        RuleSet(match_length=match_length, clock=clock)


def test_a_time_loss_cannot_be_forged_before_the_deadline() -> None:
    time = Time()
    match = clocked(time, reserve=60)
    loser = match.state.game.turn
    with pytest.raises(ActionError, match="still has time"):
        apply(match.state, TimeRanOut(loser, at=START + 10))
    with pytest.raises(ActionError, match="clock is not running"):
        apply(match.state, TimeRanOut(1 - loser, at=START + 100))


def test_a_claimed_match_is_lost_as_on_time_whatever_the_clock_shows() -> None:
    time = Time()
    match = clocked(time, reserve=600)
    gone = match.state.game.turn
    match.claim(gone)
    assert match.state.winner == 1 - gone
    assert match.state.score[1 - gone] == 5  # the match's points, as a loss on time scores it
    stored = match.events[-1].to_dict()
    assert stored["claimed"] is True and event_from_dict(stored) == match.events[-1]


def test_a_claim_counts_in_a_match_without_clocks_and_a_time_loss_is_stored_as_before() -> None:
    match = Match(RuleSet(match_length=3))
    match.roll(0)
    match.claim(0)
    assert match.state.winner == 1 and match.state.score == (0, 3)
    assert "claimed" not in TimeRanOut(0, at=START).to_dict()


def test_a_match_not_yet_started_cannot_be_claimed() -> None:
    match = Match(RuleSet(match_length=3))
    with pytest.raises(ActionError, match="once it has started"):
        match.claim(0)
