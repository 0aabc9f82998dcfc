"""LadderService.ListOnlineAccounts: who has an event stream open now, on SQLite and across
PostgreSQL replicas; a stream that closes takes its account off the list. And the bounds around
it: open challenges counted in the transaction that adds one, accounts made a client an hour."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest

from tavli.server.app import Running
from tavli.server.ladder import LadderSettings
from tavli.server.ladder_records import LadderGameRecord
from tavli.server.quotas import QuotaLimits
from tavli.v1 import (
    board_pb2 as board_pb,
    games_service_pb2 as games_pb,
    ladder_service_pb2 as pb,
    ladder_service_pb2_grpc,
)
from tests.ladder_rig import Caller, EventReader, make_account
from tests.postgres import fresh_database
from tests.server_play import RPC_TIMEOUT, error_info, running_server

MATCH = games_pb.RuleSet(variant=board_pb.VARIANT_BACKGAMMON, match_length=1)
PATIENCE_SECONDS = 30.0  # for a stream's close to reach the store: a bound, never a measure


@contextlib.contextmanager
def two_servers(
    db: object, key_file: Path, **options: object
) -> Iterator[tuple[Running, Running, grpc.Channel, grpc.Channel]]:
    """Two servers on the one database ``db`` (a file, as workers share it, or PostgreSQL, as
    replicas do) and key file, each with ``options``: both, and a channel to each."""
    with (
        running_server(db=db, key_file=key_file, **options) as first,
        running_server(db=db, key_file=key_file, **options) as second,
        grpc.insecure_channel(f"127.0.0.1:{first.port}") as to_first,
        grpc.insecure_channel(f"127.0.0.1:{second.port}") as to_second,
    ):
        yield first, second, to_first, to_second


def online(channel: grpc.Channel, variant: int = board_pb.VARIANT_BACKGAMMON) -> list[pb.OnlineAccount]:
    stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
    request = pb.ListOnlineAccountsRequest(variant=variant)  # type: ignore[arg-type]
    return list(stub.ListOnlineAccounts(request, timeout=RPC_TIMEOUT).accounts)


def handles_online(channel: grpc.Channel) -> list[str]:
    return [account.handle for account in online(channel)]


def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (something the server does after a stream's client has gone)."""
    deadline = time.monotonic() + PATIENCE_SECONDS
    while not condition():
        assert time.monotonic() < deadline, "the server never came to it"
        time.sleep(0.05)


def refused(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as raised:
        call()
    code, reason, _ = error_info(raised.value)
    return code, reason


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    with running_server(db=tmp_path / "games.db") as running:
        yield running


@pytest.fixture
def channel(server: Running) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as opened:
        yield opened


def test_an_account_is_online_while_a_stream_of_its_is_open(server: Running, channel: grpc.Channel) -> None:
    alice = make_account(server, "alice", bot=False)
    robot = make_account(server, "robot")
    make_account(server, "nobody")
    assert online(channel) == []
    alice_stream = EventReader(channel, alice)
    alice_stream.started()
    robot_stream = EventReader(channel, robot)
    robot_stream.started()
    second_alice_stream = EventReader(channel, alice)
    second_alice_stream.started()
    try:
        listed = online(channel)
        assert [account.handle for account in listed] == ["alice", "robot"]
        assert [account.kind for account in listed] == [pb.ACCOUNT_KIND_HUMAN, pb.ACCOUNT_KIND_BOT]
        assert [(account.rating, account.deviation, account.games) for account in listed] == [
            (1500.0, 350.0, 0)
        ] * 2
        alice_stream.close()  # she still has a stream open
        robot_stream.close()
        until(lambda: handles_online(channel) == ["alice"])
        second_alice_stream.close()
        until(lambda: handles_online(channel) == [])
    finally:
        for stream in (alice_stream, robot_stream, second_alice_stream):
            stream.close()


def test_each_account_online_shows_its_rating_in_the_variant_asked(
    server: Running, channel: grpc.Channel
) -> None:
    keys = [make_account(server, handle) for handle in ("amber", "basil")]
    records = server.ladder.records
    game = LadderGameRecord("games/rated", ("amber", "basil"), "backgammon", True, "", time.time())
    records.add_ladder_game(game)
    assert records.end_ladder_game(game, "played", 0, time.time(), lambda seat, rating: b"")
    streams = [EventReader(channel, key) for key in keys]
    try:
        for stream in streams:
            stream.started()
        amber, basil = online(channel)
        amber_rating, _ = records.rating("amber", "backgammon")
        basil_rating, _ = records.rating("basil", "backgammon")
        assert (amber.rating, amber.deviation, amber.games) == (
            amber_rating.rating,
            amber_rating.deviation,
            1,
        )
        assert amber.rating > 1500 > basil.rating == basil_rating.rating
        assert [
            (account.rating, account.games) for account in online(channel, board_pb.VARIANT_LONG_NARDI)
        ] == [(1500.0, 0)] * 2
    finally:
        for stream in streams:
            stream.close()


def test_a_stream_whose_process_was_killed_stops_counting(server: Running, channel: grpc.Channel) -> None:
    make_account(server, "ghost")
    settings = server.ladder.settings
    long_ago = time.time() - 4 * settings.heartbeat_seconds
    server.ladder.records.open_stream("killed-with-its-process", "ghost", long_ago)  # never closed
    assert online(channel) == []
    recently = time.time() - settings.heartbeat_seconds
    server.ladder.records.open_stream("still-beating", "ghost", recently)
    assert handles_online(channel) == ["ghost"]


def test_online_accounts_come_in_pages_and_bad_pages_are_refused(
    server: Running, channel: grpc.Channel
) -> None:
    handles = ["ada", "bea", "cyd", "dot", "eve"]
    streams = [EventReader(channel, make_account(server, handle, bot=False)) for handle in handles]
    stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
    try:
        for stream in streams:
            stream.started()
        seen: list[str] = []
        token = ""
        while True:
            request = pb.ListOnlineAccountsRequest(
                variant=board_pb.VARIANT_BACKGAMMON, page_size=2, page_token=token
            )
            page = stub.ListOnlineAccounts(request, timeout=RPC_TIMEOUT)
            assert len(page.accounts) <= 2
            seen += [account.handle for account in page.accounts]
            token = page.next_page_token
            if not token:
                break
        assert seen == handles
        for bad, why in (
            (pb.ListOnlineAccountsRequest(), "INVALID_ARGUMENT"),  # no variant
            (
                pb.ListOnlineAccountsRequest(variant=board_pb.VARIANT_BACKGAMMON, page_size=201),
                "INVALID_ARGUMENT",
            ),
            (
                pb.ListOnlineAccountsRequest(variant=board_pb.VARIANT_BACKGAMMON, page_token="no such page!"),
                "INVALID_ARGUMENT",
            ),
            (
                pb.ListOnlineAccountsRequest(variant=board_pb.VARIANT_BACKGAMMON, page_token="x" * 10_000),
                "FIELD_TOO_LONG",  # (the server's bound on every text field)
            ),
        ):
            with pytest.raises(grpc.RpcError) as raised:
                stub.ListOnlineAccounts(bad, timeout=RPC_TIMEOUT)
            assert error_info(raised.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, why)
    finally:
        for stream in streams:
            stream.close()


def race(calls: int, call: Callable[[], object]) -> list[object]:
    """``calls`` threads making ``call`` at once; what each got (its answer or its error)."""
    start = threading.Barrier(calls)
    got: list[object] = []

    def one() -> None:
        start.wait()
        try:
            got.append(call())
        except grpc.RpcError as error:
            got.append(error)

    threads = [threading.Thread(target=one) for _ in range(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return got


def assert_challenges_never_pass_the_bound(callers: list[Caller], most: int) -> None:
    for _ in range(3):  # a few rounds: a race lost once is not proof
        answers = race(
            4 * most,
            lambda: callers[threading.get_ident() % len(callers)].CreateChallenge(
                pb.CreateChallengeRequest(rule_set=MATCH)
            ),
        )
        made = [answer for answer in answers if isinstance(answer, pb.CreateChallengeResponse)]
        refusals = [error_info(answer)[1] for answer in answers if isinstance(answer, grpc.RpcError)]
        assert len(made) == most and set(refusals) == {"TOO_MANY_CHALLENGES"}
        listed = callers[0].ListChallenges(pb.ListChallengesRequest())
        assert len(listed.challenges) == most  # type: ignore[attr-defined]
        for answer in made:
            callers[0].CancelChallenge(pb.CancelChallengeRequest(name=answer.challenge.name))


def test_challenges_made_at_once_never_pass_the_accounts_bound(tmp_path: Path) -> None:
    settings = LadderSettings(challenges_per_account=3)
    servers = two_servers(tmp_path / "games.db", tmp_path / "server.key", ladder=settings)
    with servers as (first, _, to_first, to_second):
        key = make_account(first, "eager")
        assert_challenges_never_pass_the_bound([Caller(to_first, key), Caller(to_second, key)], 3)


def test_accounts_made_over_the_api_are_bounded_per_address(tmp_path: Path) -> None:
    with (
        running_server(
            ladder=LadderSettings(open_accounts=True), quotas=QuotaLimits(accounts_per_client_per_hour=2)
        ) as server,
        grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel,
    ):
        stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
        for handle in ("first", "second"):
            stub.CreateAccount(pb.CreateAccountRequest(handle=handle), timeout=RPC_TIMEOUT)
        code, reason = refused(
            lambda: stub.CreateAccount(pb.CreateAccountRequest(handle="third"), timeout=RPC_TIMEOUT)
        )
        assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_ACCOUNTS")
        assert [account.handle for account in server.ladder.records.accounts()] == ["first", "second"]


def test_who_is_online_is_the_same_on_every_replica(postgres_url: str, tmp_path: Path) -> None:
    servers = two_servers(fresh_database(postgres_url), tmp_path / "server.key")
    with servers as (first, second, to_first, to_second):
        alice = make_account(first, "alice", bot=False)
        bob = make_account(second, "bob")
        alice_stream, bob_stream = EventReader(to_first, alice), EventReader(to_second, bob)
        try:
            alice_stream.started()
            bob_stream.started()
            assert handles_online(to_first) == handles_online(to_second) == ["alice", "bob"]
            alice_stream.close()
            until(lambda: handles_online(to_second) == ["bob"])
            assert handles_online(to_first) == ["bob"]
        finally:
            alice_stream.close()
            bob_stream.close()


def test_challenges_made_at_once_on_two_replicas_never_pass_the_accounts_bound(
    postgres_url: str, tmp_path: Path
) -> None:
    settings = LadderSettings(challenges_per_account=3)
    servers = two_servers(fresh_database(postgres_url), tmp_path / "server.key", ladder=settings)
    with servers as (first, _, to_first, to_second):
        key = make_account(first, "eager")
        assert_challenges_never_pass_the_bound([Caller(to_first, key), Caller(to_second, key)], 3)
