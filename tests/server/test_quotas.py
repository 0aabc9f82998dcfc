"""Per-client quotas: token buckets, calls at once, streams per client and per game, live games."""

from __future__ import annotations

import asyncio
import threading
from typing import Self

import pytest

from tavli.server.errors import LimitReached
from tavli.server.quotas import QuotaLimits, Quotas

CLIENT = "127.0.0.1"
OTHER = "10.0.0.2"


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def quotas(clock: FakeClock, **limits: float) -> Quotas:
    return Quotas(QuotaLimits(**limits), clock=clock)  # type: ignore[arg-type]


def call(quotas: Quotas, client: str = CLIENT) -> None:
    with quotas.admit_call(client):
        pass


class _Refused:
    """``pytest.raises(LimitReached)`` that also checks the reason, and keeps the error."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.error: LimitReached | None = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, error_type: object, error: BaseException | None, traceback: object) -> bool:
        assert isinstance(error, LimitReached), f"expected LimitReached {self.reason}, got {error!r}"
        assert error.reason == self.reason, f"expected {self.reason}, got {error.reason}: {error.message}"
        self.error = error
        return True


# --- calls a second -------------------------------------------------------------------------------


def test_a_quiet_client_may_make_a_whole_burst_at_once_and_not_one_more() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=10, call_burst=30)
    for _ in range(30):
        call(limits)
    with _Refused("RATE_LIMITED") as refusal:
        call(limits)
    assert refusal.error is not None
    assert refusal.error.message == "more than 10 calls a second from 127.0.0.1 (bursts of 30); slow down"
    assert refusal.error.status.name == "RESOURCE_EXHAUSTED"


def test_the_bucket_refills_at_the_rate_and_never_past_the_burst() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=10, call_burst=30)
    for _ in range(30):
        call(limits)
    clock.advance(0.5)  # five tokens back
    for _ in range(5):
        call(limits)
    with _Refused("RATE_LIMITED"):
        call(limits)
    clock.advance(3600)  # an hour refills no more than a burst
    for _ in range(30):
        call(limits)
    with _Refused("RATE_LIMITED"):
        call(limits)


def test_a_steady_client_at_the_rate_is_never_refused() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=100, call_burst=1)
    for _ in range(1000):
        call(limits)
        clock.advance(0.01)


def test_a_refused_call_costs_no_token() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=1, call_burst=1)
    call(limits)
    for _ in range(100):
        with _Refused("RATE_LIMITED"):
            call(limits)
    clock.advance(1)
    call(limits)


def test_each_client_has_its_own_bucket() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=1, call_burst=2)
    call(limits)
    call(limits)
    with _Refused("RATE_LIMITED"):
        call(limits)
    call(limits, OTHER)
    call(limits, OTHER)


def test_streams_take_tokens_from_the_same_bucket() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=1, call_burst=2)
    with limits.open_stream(CLIENT, "games/a"):
        call(limits)
        with _Refused("RATE_LIMITED"):
            call(limits)
        with _Refused("RATE_LIMITED"), limits.open_stream(CLIENT, "games/a"):
            pass


# --- calls at once --------------------------------------------------------------------------------


def test_calls_at_once_are_bounded_and_a_slot_comes_back_when_a_call_ends() -> None:
    limits = quotas(FakeClock(), concurrent_calls=3)
    first, second, third = (limits.admit_call(CLIENT) for _ in range(3))
    with first, second, third:
        with _Refused("TOO_MANY_CALLS") as refusal:
            call(limits)
        assert refusal.error is not None
        assert refusal.error.message == "more than 3 calls at once from 127.0.0.1; wait for some to end"
        call(limits, OTHER)  # another client's calls are its own
    call(limits)


def test_a_call_that_raises_gives_its_slot_back() -> None:
    limits = quotas(FakeClock(), concurrent_calls=1)
    for _ in range(5):
        with pytest.raises(ZeroDivisionError), limits.admit_call(CLIENT):
            raise ZeroDivisionError
    call(limits)
    assert limits.clients_remembered() == 1  # its bucket alone: it holds no call


def test_a_cancelled_call_gives_its_slot_back() -> None:
    limits = quotas(FakeClock(), concurrent_calls=1)

    async def handler() -> None:
        with limits.admit_call(CLIENT):
            await asyncio.sleep(3600)

    async def cancel_one() -> None:
        task = asyncio.create_task(handler())
        await asyncio.sleep(0)
        with _Refused("TOO_MANY_CALLS"):
            call(limits)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_one())
    call(limits)


def test_a_rate_limited_call_holds_no_slot() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=1, call_burst=1, concurrent_calls=1)
    call(limits)
    with _Refused("RATE_LIMITED"):
        call(limits)
    clock.advance(1)
    call(limits)


def test_an_admission_is_entered_once() -> None:
    limits = quotas(FakeClock())
    admission = limits.admit_call(CLIENT)
    with admission, pytest.raises(RuntimeError), admission:
        pass


# --- streams --------------------------------------------------------------------------------------


def test_open_streams_per_client_are_bounded() -> None:
    limits = quotas(FakeClock(), streams_per_client=2)
    with limits.open_stream(CLIENT, "games/a"), limits.open_stream(CLIENT, "games/b"):
        with _Refused("TOO_MANY_STREAMS") as refusal, limits.open_stream(CLIENT, "games/c"):
            pass
        assert refusal.error is not None
        assert refusal.error.message == "more than 2 open streams from 127.0.0.1; close some"
        with limits.open_stream(OTHER, "games/c"):
            pass
    with limits.open_stream(CLIENT, "games/c"):
        pass


def test_open_streams_per_game_are_bounded_across_clients() -> None:
    limits = quotas(FakeClock(), streams_per_game=2)
    with limits.open_stream("10.0.0.1", "games/a"), limits.open_stream("10.0.0.2", "games/a"):
        with _Refused("TOO_MANY_STREAMS") as refusal, limits.open_stream("10.0.0.3", "games/a"):
            pass
        assert refusal.error is not None
        assert refusal.error.message == "more than 2 open streams on games/a; close some"
        with limits.open_stream("10.0.0.3", "games/b"):
            pass
    with limits.open_stream("10.0.0.3", "games/a"):
        pass


def test_streams_on_no_game_count_only_for_their_client() -> None:
    limits = quotas(FakeClock(), streams_per_game=1, streams_per_client=3)
    with (
        limits.open_stream(CLIENT),
        limits.open_stream(CLIENT),
        limits.open_stream(CLIENT),
        _Refused("TOO_MANY_STREAMS"),
        limits.open_stream(CLIENT),
    ):
        pass


def test_streams_do_not_take_the_calls_at_once() -> None:
    limits = quotas(FakeClock(), concurrent_calls=1, streams_per_client=5)
    with limits.open_stream(CLIENT, "games/a"), limits.open_stream(CLIENT, "games/a"):
        call(limits)


def test_a_stream_that_fails_gives_back_its_client_and_game_slots() -> None:
    limits = quotas(FakeClock(), streams_per_client=1, streams_per_game=1)
    for _ in range(5):
        with pytest.raises(ConnectionError), limits.open_stream(CLIENT, "games/a"):
            raise ConnectionError("the client went away")
    with limits.open_stream(CLIENT, "games/a"):
        pass
    assert limits.clients_remembered() == 1


# --- live games -----------------------------------------------------------------------------------


def test_live_games_per_client_are_bounded_until_one_is_over() -> None:
    limits = quotas(FakeClock(), live_games_per_client=2)
    limits.count_game(CLIENT, "games/a")
    limits.count_game(CLIENT, "games/b")
    with _Refused("TOO_MANY_GAMES") as refusal:
        limits.count_game(CLIENT, "games/c")
    assert refusal.error is not None
    assert refusal.error.message == "more than 2 live games created by 127.0.0.1; finish some first"
    limits.count_game(OTHER, "games/c")
    limits.release_game("games/a")
    limits.count_game(CLIENT, "games/d")
    assert limits.live_games(CLIENT) == 2


def test_counting_a_game_again_or_releasing_an_unknown_one_changes_nothing() -> None:
    limits = quotas(FakeClock(), live_games_per_client=1)
    limits.count_game(CLIENT, "games/a")
    limits.count_game(CLIENT, "games/a")  # a retried create
    assert limits.live_games(CLIENT) == 1
    limits.release_game("games/never")
    limits.release_game("games/a")
    limits.release_game("games/a")
    assert limits.live_games(CLIENT) == 0
    assert limits.clients_remembered() == 0


# --- memory ---------------------------------------------------------------------------------------


def test_a_hundred_thousand_clients_are_forgotten_once_their_buckets_would_be_full() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=10_000, call_burst=20_000)  # an empty bucket refills in 2 s
    for number in range(100_000):
        call(limits, f"client-{number}")
        clock.advance(0.0001)  # 10 s in all
    # Only those seen in the last 2 s are remembered: forgetting the others changes nothing.
    assert limits.clients_remembered() <= 20_000 + 10
    clock.advance(2)
    for _ in range(20_000 // 7):
        call(limits, "client-0")
    assert limits.clients_remembered() == 1


def test_memory_is_bounded_even_by_clients_who_keep_calling() -> None:
    clock = FakeClock()
    limits = quotas(clock, calls_per_second=1, call_burst=10, clients_remembered=1000)
    for number in range(100_000):
        call(limits, f"client-{number}")
    assert limits.clients_remembered() <= 1000


def test_clients_holding_calls_streams_or_games_are_remembered_however_old() -> None:
    clock = FakeClock()
    limits = quotas(
        clock, concurrent_calls=1, streams_per_client=1, live_games_per_client=1, clients_remembered=10
    )
    limits.count_game(CLIENT, "games/a")
    with limits.admit_call(CLIENT), limits.open_stream(CLIENT, "games/a"):
        for number in range(1000):
            call(limits, f"client-{number}")
        clock.advance(3600)
        with _Refused("TOO_MANY_CALLS"):
            call(limits)
        with _Refused("TOO_MANY_STREAMS"), limits.open_stream(CLIENT, "games/b"):
            pass
        with _Refused("TOO_MANY_GAMES"):
            limits.count_game(CLIENT, "games/b")


# --- threads ----------------------------------------------------------------------------------------


def test_threads_calling_at_once_never_pass_the_limits() -> None:
    limits = Quotas(QuotaLimits(calls_per_second=1, call_burst=4_000, concurrent_calls=4))
    admitted = []
    most_at_once = 0
    at_once = 0
    counting = threading.Lock()

    def caller() -> None:
        nonlocal at_once, most_at_once
        for _ in range(500):
            try:
                with limits.admit_call(CLIENT):
                    with counting:
                        at_once += 1
                        most_at_once = max(most_at_once, at_once)
                        admitted.append(1)
                    with counting:
                        at_once -= 1
            except LimitReached:
                pass

    threads = [threading.Thread(target=caller) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads)
    assert most_at_once <= 4
    # 8,000 attempts, of which a burst of 4,000 and the few tokens refilled meanwhile pass.
    assert 0 < len(admitted) <= 4_000 + 60


# --- limits -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["calls_per_second", "call_burst", "concurrent_calls", "streams_per_game"])
def test_limits_are_positive(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        QuotaLimits(**{name: 0})


def test_cpu_spent_is_earned_back_at_the_budgets_rate_and_never_past_a_minutes_worth() -> None:
    clock = FakeClock()
    limits = quotas(clock, cpu_seconds_per_minute=30)
    limits.charge_cpu("a", 45.0)
    assert limits.cpu_left("a") == -15.0
    with pytest.raises(LimitReached) as refused:
        limits.check_cpu_left("a")
    assert refused.value.reason == "CPU_BUDGET_SPENT" and "try again in 31 s" in str(refused.value)
    clock.advance(40)  # 20 s earned back
    assert limits.cpu_left("a") == pytest.approx(5.0)
    limits.check_cpu_left("a")
    clock.advance(3600)
    assert limits.cpu_left("a") == 30.0
    assert limits.clients_remembered() <= 1


def test_a_client_makes_no_more_accounts_an_hour_than_its_quota_and_the_count_falls_back() -> None:
    clock = FakeClock()
    limits = quotas(clock, accounts_per_client_per_hour=3)
    for _ in range(3):
        limits.count_account("a")
    with _Refused("TOO_MANY_ACCOUNTS") as refused:
        limits.count_account("a")
    assert refused.error is not None and "try again in 20 minutes" in refused.error.message
    limits.count_account("b")  # another address's quota is its own
    clock.advance(1199)  # not quite the 20 minutes one account takes to fall back
    with _Refused("TOO_MANY_ACCOUNTS"):
        limits.count_account("a")
    clock.advance(1)
    limits.count_account("a")
    with _Refused("TOO_MANY_ACCOUNTS"):  # the refusal counted nothing, the account just made did
        limits.count_account("a")
    clock.advance(3 * 3600)
    limits.count_account("c")  # forgetting those whose count is back at zero
    assert limits.clients_remembered() == 1


def test_a_client_has_no_more_bots_than_its_share_and_a_bot_counts_once() -> None:
    limits = quotas(FakeClock(), bots_per_client=2)
    limits.count_bot("a", ("games/1", 1))
    limits.count_bot("a", ("games/1", 1))  # the same seat again
    limits.count_bot("a", ("games/2", 0))
    with pytest.raises(LimitReached) as refused:
        limits.count_bot("a", ("games/3", 0))
    assert refused.value.reason == "TOO_MANY_BOTS"
    limits.count_bot("b", ("games/3", 0))  # another client's share is its own
    limits.release_bot(("games/1", 1))
    limits.count_bot("a", ("games/3", 1))
    assert limits.bot_client(("games/3", 1)) == "a"
