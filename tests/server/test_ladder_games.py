"""Ladder games: events neither lost nor repeated across a restart, the games in progress told to
a reconnecting account, a player gone past the grace period losing on time, and rated matches
whose ratings the test works out itself."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.server.app import Running
from tavli.server.ladder import LadderSettings
from tavli.v1 import board_pb2 as board_pb, games_service_pb2 as games_pb, ladder_service_pb2 as pb
from tests.ladder_rig import Caller, EventReader, Glicko, events_of, glicko_after, make_account
from tests.server_play import RPC_TIMEOUT, Policy, error_info, play_to_end, running_server

MATCH = games_pb.RuleSet(variant=board_pb.VARIANT_BACKGAMMON, match_length=1)
QUICK = LadderSettings(heartbeat_seconds=0.1, grace_seconds=0.6)


def challenge_accepted(alice: Caller, bob: Caller, *, rated: bool = True) -> pb.LadderGame:
    """A rated challenge of alice's, accepted by bob; returns bob's LadderGame."""
    challenge = alice.CreateChallenge(pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH, rated=rated))
    return bob.AcceptChallenge(pb.AcceptChallengeRequest(name=challenge.challenge.name)).game  # type: ignore[attr-defined,no-any-return]


def test_events_are_neither_lost_nor_repeated_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "tavli.sqlite3"
    with running_server(db=db) as first, grpc.insecure_channel(f"127.0.0.1:{first.port}") as channel:
        alice, bob = (Caller(channel, make_account(first, handle)) for handle in ("alice", "bob"))
        bob_key = bob.key
        for _ in range(3):
            alice.CreateChallenge(pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH))
        game = challenge_accepted(alice, bob)  # bob is told of a fourth challenge, then of the game
        reader = EventReader(channel, bob.key)
        reader.started()
        seen = reader.take(2)
        reader.close()
    assert [event.event_id for event in seen] == [1, 2]
    with running_server(db=db) as second, grpc.insecure_channel(f"127.0.0.1:{second.port}") as channel:
        reader = EventReader(channel, bob_key, after=seen[-1].event_id)
        try:
            in_progress = reader.started().games_in_progress
            assert [(found.game, found.seat_token) for found in in_progress] == [(game.game, game.seat_token)]
            rest = reader.take(3)
            assert [event.event_id for event in rest] == [3, 4, 5]
            assert [event.WhichOneof("kind") for event in rest] == [
                "challenge_received",
                "challenge_received",
                "game_started",
            ]
            assert rest[-1].game_started.seat_token == game.seat_token  # derived again, never stored
            Caller(channel, make_account(second, "carol")).CreateChallenge(
                pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH)
            )
            later = reader.next()
            assert later.event_id == 6 and later.challenge_received.challenger == "carol"
        finally:
            reader.close()
    stored = db.read_bytes() + b"".join(path.read_bytes() for path in tmp_path.glob("*-wal"))
    assert game.seat_token.encode() not in stored and bob_key.encode() not in stored


@pytest.fixture
def quick() -> Iterator[tuple[Running, grpc.Channel]]:
    with (
        running_server(ladder=QUICK) as running,
        grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel,
    ):
        yield running, channel


def test_a_player_gone_past_the_grace_period_loses_as_on_time(quick: tuple[Running, grpc.Channel]) -> None:
    running, channel = quick
    alice, bob = (Caller(channel, make_account(running, handle)) for handle in ("alice", "bob"))
    alice_events, bob_events = EventReader(channel, alice.key), EventReader(channel, bob.key)
    alice_events.started()
    bob_events.started()
    game = challenge_accepted(alice, bob)
    with TavliClient.connect(f"127.0.0.1:{running.port}", api_key=bob.key) as client:
        Seat(
            client, game.game, 0 if game.seat == games_pb.SEAT_0 else 1, game.seat_token, games_pb.Game()
        ).roll()
    with pytest.raises(grpc.RpcError) as raised:  # bob is here: nothing to claim
        alice.ClaimGame(pb.ClaimGameRequest(game=game.game))
    assert error_info(raised.value)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "OPPONENT_PRESENT")
    bob_events.close()  # bob is gone; alice stays: the sweep claims the match for her
    (ended,) = events_of(alice_events, "game_ended", 1)
    alice_events.close()
    bob_back = EventReader(channel, bob.key, after=0)
    bob_back.started()
    (why,) = events_of(bob_back, "notice", 1)
    bob_back.close()
    assert why.notice.reason == "GONE_PAST_GRACE" and why.notice.game == game.game
    assert ended.game_ended.how == pb.GAME_ENDED_HOW_CLAIMED and ended.game_ended.winner == "alice"
    assert ended.game_ended.rated and ended.game_ended.rating > 1500
    with TavliClient.connect(f"127.0.0.1:{running.port}") as client:
        final = client.game(game.game)
    assert final.phase == games_pb.PHASE_MATCH_OVER
    winner = games_pb.SEAT_1 if game.seat == games_pb.SEAT_0 else games_pb.SEAT_0
    assert final.finished_games[-1].winner == winner
    assert final.finished_games[-1].ended_by == games_pb.GAME_END_TIME


def test_an_event_stream_whose_key_is_revoked_ends(quick: tuple[Running, grpc.Channel]) -> None:
    running, channel = quick
    key = make_account(running, "alice")
    reader = EventReader(channel, key)
    reader.started()
    running.ladder.accounts.revoke("alice")
    with pytest.raises(grpc.RpcError) as raised:
        reader.next()
    reader.close()
    assert error_info(raised.value)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "UNKNOWN_API_KEY")


def test_a_game_whose_player_is_gone_before_the_first_throw_is_aborted(
    quick: tuple[Running, grpc.Channel],
) -> None:
    running, channel = quick
    alice, bob = (Caller(channel, make_account(running, handle)) for handle in ("alice", "bob"))
    alice_events = EventReader(channel, alice.key)
    alice_events.started()
    game = challenge_accepted(alice, bob)  # bob never connects
    (ended,) = events_of(alice_events, "game_ended", 1)
    alice_events.close()
    assert ended.game_ended.game == game.game and ended.game_ended.how == pb.GAME_ENDED_HOW_ABORTED
    assert not ended.game_ended.rated and ended.game_ended.winner == ""
    assert running.ladder.records.games_in_progress("alice") == []


@pytest.fixture
def patient() -> Iterator[tuple[Running, grpc.Channel]]:
    """A server whose players may be gone a minute (its default) before losing a game."""
    with running_server() as running, grpc.insecure_channel(f"127.0.0.1:{running.port}") as channel:
        yield running, channel


def test_a_rematch_offered_after_a_ladder_game_is_told_to_the_other_account(
    patient: tuple[Running, grpc.Channel],
) -> None:
    running, channel = patient  # bob acts without a stream open: he must not count as gone
    alice, bob = (Caller(channel, make_account(running, handle)) for handle in ("alice", "bob"))
    game = challenge_accepted(alice, bob, rated=False)
    alice_events = EventReader(channel, alice.key)
    alice_events.started()
    bob_index = 0 if game.seat == games_pb.SEAT_0 else 1
    alice_token = running.ladder.events.key.seat_token(game.game, 1 - bob_index)
    address = f"127.0.0.1:{running.port}"
    with (
        TavliClient.connect(address, api_key=bob.key) as bob_client,
        TavliClient.connect(address, api_key=alice.key) as alice_client,
    ):
        bob_seat = Seat(bob_client, game.game, bob_index, game.seat_token, games_pb.Game())  # type: ignore[arg-type]
        alice_seat = Seat(alice_client, game.game, 1 - bob_index, alice_token, games_pb.Game())  # type: ignore[arg-type]
        bob_seat.roll()
        while bob_seat.game().phase != games_pb.PHASE_MATCH_OVER:  # bob resigns once he may
            if games_pb.ACTION_RESIGN in bob_seat.legal_actions().actions:
                bob_seat.resign("backgammon")
                alice_seat.accept()
            else:
                legal = alice_seat.legal_actions()
                if legal.plays:
                    alice_seat.play(legal.plays[0].notation)
                else:
                    alice_seat.roll()
        bob_client.games.OfferRematch(
            games_pb.OfferRematchRequest(name=game.game, seat_token=game.seat_token), timeout=RPC_TIMEOUT
        )
    (ended,) = events_of(alice_events, "game_ended", 1)
    assert not ended.game_ended.rated and ended.game_ended.winner == "alice"
    (offered,) = events_of(alice_events, "rematch_offered", 1)
    alice_events.close()
    assert offered.rematch_offered.game == game.game and offered.rematch_offered.offered_by == "bob"


def test_rated_matches_move_ratings_as_glicko_2_says_and_the_leaderboard_shows_them(
    quick: tuple[Running, grpc.Channel],
) -> None:
    running, channel = quick
    keys = {handle: make_account(running, handle) for handle in ("alice", "bob")}
    alice, bob = Caller(channel, keys["alice"]), Caller(channel, keys["bob"])
    expected = {"alice": Glicko(), "bob": Glicko()}
    rng = random.Random(7)
    readers = {handle: EventReader(channel, key) for handle, key in keys.items()}
    try:
        for reader in readers.values():
            reader.started()
        for _ in range(3):
            game = challenge_accepted(alice, bob)
            bob_index = 0 if game.seat == games_pb.SEAT_0 else 1
            clients = {
                handle: TavliClient.connect(f"127.0.0.1:{running.port}", api_key=key)
                for handle, key in keys.items()
            }
            tokens = {
                bob_index: game.seat_token,
                1 - bob_index: running.ladder.events.key.seat_token(game.game, 1 - bob_index),
            }
            owners = {bob_index: "bob", 1 - bob_index: "alice"}
            seats = tuple(
                Seat(clients[owners[index]], game.game, index, tokens[index], games_pb.Game())
                for index in (0, 1)
            )  # type: ignore[arg-type]
            final = play_to_end(seats, Policy(rng))  # type: ignore[arg-type]
            for client in clients.values():
                client.close()
            winner = owners[0 if final.finished_games[-1].winner == games_pb.SEAT_0 else 1]
            loser = "bob" if winner == "alice" else "alice"
            before = dict(expected)
            expected[winner] = glicko_after(before[winner], [(before[loser], 1.0)])
            expected[loser] = glicko_after(before[loser], [(before[winner], 0.0)])
            for handle, reader in readers.items():
                (ended,) = events_of(reader, "game_ended", 1)
                assert ended.game_ended.winner == winner and ended.game_ended.how == pb.GAME_ENDED_HOW_PLAYED
                assert ended.game_ended.rating == pytest.approx(expected[handle].rating, abs=1e-6)
                assert ended.game_ended.deviation == pytest.approx(expected[handle].deviation, abs=1e-6)
    finally:
        for reader in readers.values():
            reader.close()
    board = alice.ListLeaderboard(pb.ListLeaderboardRequest(variant=board_pb.VARIANT_BACKGAMMON))
    entries = list(board.entries)  # type: ignore[attr-defined]
    assert [entry.rank for entry in entries] == [1, 2]
    assert entries[0].rating >= entries[1].rating
    for entry in entries:
        assert entry.games == 3
        assert entry.rating == pytest.approx(expected[entry.handle].rating, abs=1e-6)
        assert entry.deviation == pytest.approx(expected[entry.handle].deviation, abs=1e-6)
    humans = alice.ListLeaderboard(
        pb.ListLeaderboardRequest(variant=board_pb.VARIANT_BACKGAMMON, kind=pb.ACCOUNT_KIND_HUMAN)
    )
    assert list(humans.entries) == []  # type: ignore[attr-defined]
    assert (
        list(alice.ListLeaderboard(pb.ListLeaderboardRequest(variant=board_pb.VARIANT_LONG_NARDI)).entries)
        == []
    )  # type: ignore[attr-defined]
    history = bob.ListRatingHistory(
        pb.ListRatingHistoryRequest(handle="bob", variant=board_pb.VARIANT_BACKGAMMON)
    )
    changes = list(history.changes)  # type: ignore[attr-defined]
    assert len(changes) == 3 and changes[0].rating == pytest.approx(expected["bob"].rating, abs=1e-6)
    assert all(change.opponent == "alice" for change in changes)
