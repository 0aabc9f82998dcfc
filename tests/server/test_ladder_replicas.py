"""The ladder on PostgreSQL replicas: an account's events reach its stream on another replica
through the store's notifications, numbered without gap or repeat whichever replica told them."""

from __future__ import annotations

import queue
from pathlib import Path

import grpc
import pytest

from tavli.server import ladder_events
from tavli.server.ladder import LadderSettings
from tavli.v1 import board_pb2 as board_pb, games_service_pb2 as games_pb, ladder_service_pb2 as pb
from tests.ladder_rig import Caller, EventReader, make_account
from tests.postgres import fresh_database
from tests.server_play import running_server

MATCH = games_pb.RuleSet(variant=board_pb.VARIANT_BACKGAMMON, match_length=1)


def test_events_reach_a_stream_on_another_replica_through_notifications(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A look at the store an hour apart: only a notification brings a stream another replica's event.
    monkeypatch.setattr(ladder_events, "POLL_SECONDS", 3600.0)
    url, key_file = fresh_database(postgres_url), tmp_path / "server.key"
    slow = LadderSettings(heartbeat_seconds=3600.0, grace_seconds=3 * 3600.0)  # no look on a heartbeat either
    with (
        running_server(db=url, key_file=key_file, ladder=slow) as first,
        running_server(db=url, key_file=key_file, ladder=slow) as second,
        grpc.insecure_channel(f"127.0.0.1:{first.port}") as to_first,
        grpc.insecure_channel(f"127.0.0.1:{second.port}") as to_second,
    ):
        alice = Caller(to_first, make_account(first, "alice"))
        bob_key = make_account(first, "bob")
        carol = Caller(to_second, make_account(second, "carol"))
        bob_events = EventReader(to_second, bob_key)
        try:
            bob_events.started()
            heard = None
            for _ in range(100):  # the replica's listener connects in its own time: until it hears one
                alice.CreateChallenge(pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH))
                try:
                    heard = bob_events.events.get(timeout=0.3)
                    break
                except queue.Empty:
                    continue
            assert isinstance(heard, pb.LadderEvent), heard
            carol.CreateChallenge(pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH))
            alice.CreateChallenge(pb.CreateChallengeRequest(opponent="bob", rule_set=MATCH))
            challengers = []
            ids = [heard.event_id]
            while True:
                event = bob_events.next()
                ids.append(event.event_id)
                challengers.append(event.challenge_received.challenger)
                if challengers[-2:] == ["carol", "alice"]:
                    break
            assert ids == list(range(1, len(ids) + 1))  # every challenge made, in order, once
        finally:
            bob_events.close()
