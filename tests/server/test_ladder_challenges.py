"""LadderService: accounts over the API, keys in metadata, challenges and seeks answered every way,
the event stream, and the refusals a careless or hostile client meets."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from google.protobuf.duration_pb2 import Duration

from tavli.server.app import Running
from tavli.server.ladder import LadderSettings
from tavli.v1 import (
    board_pb2 as board_pb,
    games_service_pb2 as games_pb,
    games_service_pb2_grpc,
    ladder_service_pb2 as pb,
    ladder_service_pb2_grpc,
)
from tests.ladder_rig import Caller, EventReader, keyed, make_account
from tests.server_play import RPC_TIMEOUT, error_info, running_server

MATCH = games_pb.RuleSet(variant=board_pb.VARIANT_BACKGAMMON, match_length=1)


@pytest.fixture
def server() -> Iterator[Running]:
    settings = LadderSettings(open_accounts=True, challenges_per_account=3, shortest_challenge_seconds=0.5)
    with running_server(ladder=settings) as running:
        yield running


@pytest.fixture
def channel(server: Running) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as opened:
        yield opened


def refused(call: object, *arguments: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as raised:
        call(*arguments)  # type: ignore[operator]
    code, reason, _ = error_info(raised.value)
    return code, reason


def test_accounts_made_over_the_api_only_where_the_operator_allows(channel: grpc.Channel) -> None:
    stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
    made = stub.CreateAccount(
        pb.CreateAccountRequest(handle="Alice", display_name="Alice A.", kind=pb.ACCOUNT_KIND_BOT),
        timeout=RPC_TIMEOUT,
    )
    assert made.account.name == "accounts/alice" and made.account.kind == pb.ACCOUNT_KIND_BOT
    assert made.api_key.startswith("tvk_")
    me = Caller(channel, made.api_key).GetAccount(pb.GetAccountRequest())
    assert me.account.handle == "alice" and me.account.display_name == "Alice A."  # type: ignore[attr-defined]
    assert refused(stub.CreateAccount, pb.CreateAccountRequest(handle="ALICE")) == (
        grpc.StatusCode.ALREADY_EXISTS,
        "HANDLE_TAKEN",
    )
    assert refused(stub.CreateAccount, pb.CreateAccountRequest(handle="a b")) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "INVALID_HANDLE",
    )
    with running_server() as closed, grpc.insecure_channel(f"127.0.0.1:{closed.port}") as other:
        refusal = refused(
            ladder_service_pb2_grpc.LadderServiceStub(other).CreateAccount,
            pb.CreateAccountRequest(handle="bob"),
        )
        assert refusal == (grpc.StatusCode.PERMISSION_DENIED, "ACCOUNT_CREATION_CLOSED")


def test_a_call_for_an_account_without_its_key_or_with_a_forged_one_is_refused(
    server: Running, channel: grpc.Channel
) -> None:
    stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
    assert refused(stub.GetAccount, pb.GetAccountRequest()) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "MISSING_API_KEY",
    )
    key = make_account(server, "alice")
    for forged in (key[:-1] + ("A" if key[-1] != "A" else "B"), "tvk_" + "x" * 43, "", key + " extra"):
        code, reason = refused(Caller(channel, forged).GetAccount, pb.GetAccountRequest())
        assert code == grpc.StatusCode.UNAUTHENTICATED and reason in ("UNKNOWN_API_KEY", "MISSING_API_KEY")
    server.ladder.accounts.revoke("alice")
    assert refused(Caller(channel, key).GetAccount, pb.GetAccountRequest()) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "UNKNOWN_API_KEY",
    )


def test_keys_are_never_logged(channel: grpc.Channel, capfd: pytest.CaptureFixture[str]) -> None:
    stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
    made = stub.CreateAccount(pb.CreateAccountRequest(handle="alice"), timeout=RPC_TIMEOUT)
    refused(Caller(channel, made.api_key + "x").GetAccount, pb.GetAccountRequest())
    Caller(channel, made.api_key).GetAccount(pb.GetAccountRequest())
    Caller(channel, made.api_key).ListChallenges(pb.ListChallengesRequest())
    logged = "".join(capfd.readouterr())
    for method in ("CreateAccount", "GetAccount"):
        assert f"LadderService/{method}" in logged
    assert "UNAUTHENTICATED" in logged
    assert made.api_key[4:] not in logged


def test_a_challenge_declined_with_a_reason_then_one_accepted_starts_a_game_with_a_seat_each(
    server: Running, channel: grpc.Channel
) -> None:
    alice, bob = (Caller(channel, make_account(server, handle)) for handle in ("alice", "bob"))
    alice_events, bob_events = EventReader(channel, alice.key), EventReader(channel, bob.key)
    try:
        assert list(alice_events.started().games_in_progress) == []
        bob_events.started()
        first = alice.CreateChallenge(pb.CreateChallengeRequest(opponent="Bob", rule_set=MATCH, rated=True))
        received = bob_events.next()
        assert received.event_id == 1 and received.challenge_received.name == first.challenge.name  # type: ignore[attr-defined]
        assert received.challenge_received.challenger == "alice" and received.challenge_received.rated
        bob.DeclineChallenge(
            pb.DeclineChallengeRequest(name=first.challenge.name, reason=pb.DECLINE_REASON_TOO_FAST)
        )  # type: ignore[attr-defined]
        declined = alice_events.next().challenge_closed
        assert declined.state == pb.CHALLENGE_STATE_DECLINED
        assert declined.decline_reason == pb.DECLINE_REASON_TOO_FAST
        assert bob_events.next().challenge_closed.state == pb.CHALLENGE_STATE_DECLINED

        second = alice.CreateChallenge(pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH))
        bob_events.next()
        accepted = bob.AcceptChallenge(pb.AcceptChallengeRequest(name=second.challenge.name))  # type: ignore[attr-defined]
        game = accepted.game  # type: ignore[attr-defined]
        closed = alice_events.next().challenge_closed
        assert closed.state == pb.CHALLENGE_STATE_ACCEPTED and closed.game == game.game
        started = {"alice": alice_events.next().game_started, "bob": bob_events.next().game_started}
        assert {started["alice"].seat, started["bob"].seat} == {games_pb.SEAT_0, games_pb.SEAT_1}
        assert started["bob"] == game
        assert started["alice"].opponent == "bob" and started["bob"].opponent == "alice"
        assert started["alice"].seat_token != started["bob"].seat_token
        # Each token holds its own seat, and each account's key acts for it.
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        who = "alice" if started["alice"].seat == games_pb.SEAT_0 else "bob"
        rolled = games.RollDice(
            games_pb.RollDiceRequest(name=game.game, seat_token=started[who].seat_token),
            metadata=keyed({"alice": alice.key, "bob": bob.key}[who]),
            timeout=RPC_TIMEOUT,
        )
        assert rolled.game.event_count > 0
        assert started["alice"].rule_set.match_length == 1
    finally:
        alice_events.close()
        bob_events.close()


def test_a_ladder_seat_wants_its_own_accounts_key_in_force(server: Running, channel: grpc.Channel) -> None:
    alice, bob = (Caller(channel, make_account(server, handle)) for handle in ("alice", "bob"))
    seek = alice.CreateChallenge(pb.CreateChallengeRequest(rule_set=MATCH))
    game = bob.AcceptChallenge(pb.AcceptChallengeRequest(name=seek.challenge.name)).game  # type: ignore[attr-defined]
    bob_token = game.seat_token
    games = games_service_pb2_grpc.GamesServiceStub(channel)
    roll = games_pb.RollDiceRequest(name=game.game, seat_token=bob_token)
    created = games.GetGame(games_pb.GetGameRequest(name=game.game), timeout=RPC_TIMEOUT).game.event_count
    for metadata in ((), keyed(alice.key), keyed("tvk_forged")):
        code, reason, _ = error_info(
            pytest.raises(grpc.RpcError, games.RollDice, roll, metadata=metadata, timeout=RPC_TIMEOUT).value
        )
        assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_YOUR_SEAT")
    assert (
        games.GetGame(games_pb.GetGameRequest(name=game.game), timeout=RPC_TIMEOUT).game.event_count
        == created
    )
    games.RollDice(roll, metadata=keyed(bob.key), timeout=RPC_TIMEOUT)
    # A key revoked mid-game acts no more, on a seat stream as in a call.
    server.ladder.accounts.revoke("bob")
    before = games.GetGame(games_pb.GetGameRequest(name=game.game), timeout=RPC_TIMEOUT).game.event_count
    code, reason, _ = error_info(
        pytest.raises(grpc.RpcError, games.RollDice, roll, metadata=keyed(bob.key), timeout=RPC_TIMEOUT).value
    )
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_YOUR_SEAT")
    join = games_pb.PlaySeatRequest(join=games_pb.JoinSeat(name=game.game, seat_token=bob_token))
    stream = games.PlaySeat(iter([join]), metadata=keyed(bob.key), timeout=RPC_TIMEOUT)
    with pytest.raises(grpc.RpcError) as raised:
        list(stream)
    assert error_info(raised.value)[:2] == (grpc.StatusCode.PERMISSION_DENIED, "NOT_YOUR_SEAT")
    assert (
        games.GetGame(games_pb.GetGameRequest(name=game.game), timeout=RPC_TIMEOUT).game.event_count == before
    )


def test_only_the_right_account_answers_a_challenge_and_only_once(
    server: Running, channel: grpc.Channel
) -> None:
    alice, bob, carol = (
        Caller(channel, make_account(server, handle)) for handle in ("alice", "bob", "carol")
    )
    challenge = alice.CreateChallenge(pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH)).challenge  # type: ignore[attr-defined]
    assert refused(carol.AcceptChallenge, pb.AcceptChallengeRequest(name=challenge.name)) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_CHALLENGE",
    )
    assert refused(alice.AcceptChallenge, pb.AcceptChallengeRequest(name=challenge.name)) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "CHALLENGE_TO_SELF",
    )
    assert refused(bob.CancelChallenge, pb.CancelChallengeRequest(name=challenge.name)) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_CHALLENGE",
    )
    cancelled = alice.CancelChallenge(pb.CancelChallengeRequest(name=challenge.name)).challenge  # type: ignore[attr-defined]
    assert cancelled.state == pb.CHALLENGE_STATE_CANCELLED
    for call, request in (
        (bob.AcceptChallenge, pb.AcceptChallengeRequest(name=challenge.name)),
        (bob.DeclineChallenge, pb.DeclineChallengeRequest(name=challenge.name)),
        (alice.CancelChallenge, pb.CancelChallengeRequest(name=challenge.name)),
    ):
        assert refused(call, request) == (grpc.StatusCode.FAILED_PRECONDITION, "CHALLENGE_CLOSED")
    assert refused(bob.AcceptChallenge, pb.AcceptChallengeRequest(name="challenges/nope")) == (
        grpc.StatusCode.NOT_FOUND,
        "CHALLENGE_NOT_FOUND",
    )
    assert refused(alice.CreateChallenge, pb.CreateChallengeRequest(opponent="alice", rule_set=MATCH)) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "CHALLENGE_TO_SELF",
    )
    assert refused(alice.CreateChallenge, pb.CreateChallengeRequest(opponent="nobody", rule_set=MATCH)) == (
        grpc.StatusCode.NOT_FOUND,
        "ACCOUNT_NOT_FOUND",
    )
    bad_rules = games_pb.RuleSet(variant=board_pb.VARIANT_BACKGAMMON, match_length=1, beavers=True)
    assert refused(alice.CreateChallenge, pb.CreateChallengeRequest(rule_set=bad_rules))[0] == (
        grpc.StatusCode.INVALID_ARGUMENT
    )


def test_a_flood_of_challenges_is_refused_with_a_reason_and_a_stream_too_many(
    server: Running, channel: grpc.Channel
) -> None:
    alice = Caller(channel, make_account(server, "alice"))
    for _ in range(3):
        alice.CreateChallenge(pb.CreateChallengeRequest(rule_set=MATCH))
    assert refused(alice.CreateChallenge, pb.CreateChallengeRequest(rule_set=MATCH)) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "TOO_MANY_CHALLENGES",
    )
    assert len(alice.ListChallenges(pb.ListChallengesRequest()).challenges) == 3  # type: ignore[attr-defined]
    readers = [EventReader(channel, alice.key) for _ in range(4)]
    try:
        for reader in readers:
            reader.started()
        extra = EventReader(channel, alice.key)
        with pytest.raises(grpc.RpcError) as raised:
            extra.next()
        assert error_info(raised.value)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS")
    finally:
        for reader in readers:
            reader.close()


def test_a_challenge_nobody_answers_expires_and_both_sides_are_told(
    server: Running, channel: grpc.Channel
) -> None:
    alice, bob = (Caller(channel, make_account(server, handle)) for handle in ("alice", "bob"))
    alice_events = EventReader(channel, alice.key)
    try:
        alice_events.started()
        alice.CreateChallenge(
            pb.CreateChallengeRequest(
                opponent="bob", rule_set=MATCH, time_to_live=Duration(nanos=500_000_000)
            )
        )
        assert refused(
            alice.CreateChallenge,
            pb.CreateChallengeRequest(rule_set=MATCH, time_to_live=Duration(nanos=100_000_000)),
        ) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT")
        expired = alice_events.next().challenge_closed  # the sweep expires it half a second on
        assert expired.state == pb.CHALLENGE_STATE_EXPIRED
        assert bob.ListChallenges(pb.ListChallengesRequest()).challenges == []  # type: ignore[attr-defined]
    finally:
        alice_events.close()


def test_a_game_is_aborted_before_its_first_roll_and_not_after(
    server: Running, channel: grpc.Channel
) -> None:
    alice, bob = (Caller(channel, make_account(server, handle)) for handle in ("alice", "bob"))
    for aborted in (True, False):
        seek = alice.CreateChallenge(pb.CreateChallengeRequest(rule_set=MATCH)).challenge  # type: ignore[attr-defined]
        game = bob.AcceptChallenge(pb.AcceptChallengeRequest(name=seek.name)).game  # type: ignore[attr-defined]
        games = games_service_pb2_grpc.GamesServiceStub(channel)
        roll = games_pb.RollDiceRequest(name=game.game, seat_token=game.seat_token)
        if aborted:
            alice.AbortGame(pb.AbortGameRequest(game=game.game))
            code, reason, _ = error_info(
                pytest.raises(
                    grpc.RpcError, games.RollDice, roll, metadata=keyed(bob.key), timeout=RPC_TIMEOUT
                ).value
            )
            assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_ABORTED")
        else:
            games.RollDice(roll, metadata=keyed(bob.key), timeout=RPC_TIMEOUT)
            assert refused(alice.AbortGame, pb.AbortGameRequest(game=game.game)) == (
                grpc.StatusCode.FAILED_PRECONDITION,
                "GAME_STARTED",
            )
    assert refused(
        Caller(channel, make_account(server, "carol")).AbortGame, pb.AbortGameRequest(game=game.game)
    ) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "NOT_YOUR_SEAT",
    )


HOSTILE_TEXTS = (
    "",
    "\x00",
    "x" * 5000,
    "challenges/../../etc",
    "games/" + "f" * 16,
    "ALICE",
    "accounts/bob",
    "'; --",
)


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_no_request_a_client_can_send_faults_the_ladder(
    server: Running, channel: grpc.Channel, text: str
) -> None:
    alice = Caller(channel, make_account(server, "alice"))
    make_account(server, "bob")
    service = pb.DESCRIPTOR.services_by_name["LadderService"]
    for method in service.methods:
        if method.server_streaming:
            continue
        request_type = getattr(pb, method.input_type.name)
        request = request_type()
        for field in method.input_type.fields:
            if field.type == field.TYPE_STRING:
                setattr(request, field.name, text)
            elif field.type == field.TYPE_ENUM:
                setattr(request, field.name, 99)
            elif field.type in (field.TYPE_UINT32, field.TYPE_UINT64):
                setattr(request, field.name, 2**32 - 1)
        # (a key is metadata: grpc's client itself refuses to send one holding NUL)
        for caller in (alice, Caller(channel, text if text.isprintable() and text else "tvk_")):
            try:
                getattr(caller, method.name)(request)
            except grpc.RpcError as error:
                code, reason, domain = error_info(error)
                assert code not in (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN), (method.name, reason)
                assert domain == "tavli" and reason
    assert [account.handle for account in server.ladder.records.accounts()] == ["alice", "bob"]


def test_a_match_between_a_person_and_a_bot_is_not_rated(server: Running, channel: grpc.Channel) -> None:
    person, bot = (
        Caller(channel, make_account(server, "carol", bot=False)),
        Caller(channel, make_account(server, "gnu")),
    )
    challenge = person.CreateChallenge(pb.CreateChallengeRequest(opponent="gnu", rule_set=MATCH, rated=True))
    game = bot.AcceptChallenge(pb.AcceptChallengeRequest(name=challenge.challenge.name)).game  # type: ignore[attr-defined]
    assert challenge.challenge.rated and not game.rated  # type: ignore[attr-defined]
    assert server.ladder.records.ladder_game(game.game).rated is False  # type: ignore[union-attr]


def test_bots_join_and_leave_the_ladder_and_people_do_not_join_it(
    server: Running, channel: grpc.Channel
) -> None:
    person, bot = (
        Caller(channel, make_account(server, "carol", bot=False)),
        Caller(channel, make_account(server, "gnu")),
    )
    assert refused(person.SetLadderMember, pb.SetLadderMemberRequest(member=True)) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "NOT_A_BOT",
    )
    assert bot.SetLadderMember(pb.SetLadderMemberRequest(member=True)).account.ladder_member  # type: ignore[attr-defined]
    assert [account.handle for account in server.ladder.records.ladder_members()] == ["gnu"]
    assert not bot.SetLadderMember(pb.SetLadderMemberRequest(member=False)).account.ladder_member  # type: ignore[attr-defined]
    assert server.ladder.records.ladder_members() == []
