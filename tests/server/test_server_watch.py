"""WatchGame end to end: a watcher sees every event in order, each with the state after it, and one
that loses its connection resumes from the next sequence number without missing anything.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from tavli.clients.client import Seat, TavliClient
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import Policy, act_once, all_events, connected, running_server

WATCH_DEADLINE = 60.0  # the stream ends by itself after this, whatever happens


class Watcher:
    """A WatchGame stream read on a thread of its own; it hangs up by itself after ``hang_up_after``
    messages, if given."""

    def __init__(
        self, client: TavliClient, name: str, from_sequence: int = 0, *, hang_up_after: int | None = None
    ) -> None:
        self.call = client.games.WatchGame(
            games_pb2.WatchGameRequest(name=name, from_sequence=from_sequence), timeout=WATCH_DEADLINE
        )
        self.received: list[games_pb2.WatchGameResponse] = []
        self.error: grpc.RpcError | None = None
        self.hang_up_after = hang_up_after
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for response in self.call:
                self.received.append(response)
                if self.hang_up_after is not None and len(self.received) >= self.hang_up_after:
                    self.call.cancel()
                    return
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.CANCELLED:  # type: ignore[attr-defined]
                self.error = error

    def wait_for(self, count: int, *, within: float = 15.0) -> None:
        deadline = time.monotonic() + within
        while len(self.received) < count:
            assert self.error is None, f"the stream failed: {self.error}"
            assert time.monotonic() < deadline, (
                f"only {len(self.received)} of {count} events came within {within} s"
            )
            time.sleep(0.01)

    def hang_up(self) -> None:
        self.call.cancel()
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()
        assert self.error is None, f"the stream failed: {self.error}"


@pytest.fixture(scope="module")
def clients() -> Iterator[tuple[TavliClient, TavliClient, TavliClient]]:
    """Three connections to one server: seat 0's, seat 1's and the watcher's."""
    with (
        running_server() as server,
        connected(server.port) as first,
        connected(server.port) as second,
        connected(server.port) as third,
    ):
        yield first, second, third


def new_game(clients: tuple[TavliClient, ...], **options: object) -> tuple[Seat, Seat]:
    seat_0, seat_1 = clients[0].create_game(**options)  # type: ignore[arg-type]
    return seat_0, Seat(clients[1], seat_1.name, 1, seat_1.token, seat_1.last_seen)


def without_update_time(game: games_pb2.Game) -> games_pb2.Game:
    copy = games_pb2.Game()
    copy.CopyFrom(game)
    copy.ClearField("update_time")
    return copy


@pytest.mark.parametrize("variant", ["backgammon", "long-nardi"])
def test_a_watcher_sees_every_event_in_order_with_the_state_after_it(clients, variant) -> None:
    seats = new_game(clients, variant=variant, match_length=1)
    watcher = Watcher(clients[2], seats[0].name)
    try:
        # The state after each action, as the acting seat was told it.
        after_action: dict[int, games_pb2.Game] = {}
        game = seats[0].game()
        policy = Policy(random.Random(11))
        while game.phase != games_pb2.PHASE_MATCH_OVER:
            game = act_once(seats, game, policy)
            after_action[game.event_count] = game
            assert len(after_action) < 2_000
        watcher.wait_for(game.event_count)
    finally:
        watcher.hang_up()

    logged = all_events(clients[0], seats[0].name)
    assert [response.event for response in watcher.received] == logged
    assert [response.event.sequence for response in watcher.received] == list(range(game.event_count))
    for response in watcher.received:
        state, event = response.game, response.event
        assert state.event_count == event.sequence + 1
        assert state.etag == str(event.sequence + 1)
        if event.kind == games_pb2.EVENT_KIND_ROLL:
            assert list(state.dice) == list(event.dice)
        if event.kind == games_pb2.EVENT_KIND_PLAY:
            assert state.last_play.notation == event.notation
        if state.event_count in after_action:  # the last event of an action: the state it answered
            assert without_update_time(state) == without_update_time(after_action[state.event_count])
    assert without_update_time(watcher.received[-1].game) == without_update_time(seats[0].game())
    assert watcher.received[-1].game.phase == games_pb2.PHASE_MATCH_OVER


def test_a_watcher_that_reconnects_from_the_next_sequence_misses_nothing(clients) -> None:
    seats = new_game(clients, variant="backgammon", match_length=1)
    policy = Policy(random.Random(12))
    segments: list[list[games_pb2.WatchGameResponse]] = []

    # Connected from the start, it hangs up after 15 events while play goes on.
    first = Watcher(clients[2], seats[0].name, hang_up_after=15)
    try:
        game = seats[0].game()
        for _ in range(40):
            game = act_once(seats, game, policy)
        first.wait_for(15)
    finally:
        first.hang_up()
    segments.append(first.received)
    assert game.event_count > 15 and len(first.received) == 15

    # Play goes on while nobody watches; then it reconnects, and hangs up again in the backlog.
    for _ in range(20):
        game = act_once(seats, game, policy)
    second = Watcher(clients[2], seats[0].name, segments[-1][-1].event.sequence + 1, hang_up_after=10)
    try:
        second.wait_for(10)
    finally:
        second.hang_up()
    segments.append(second.received)

    # The last reconnection stays to the end of the match.
    third = Watcher(clients[2], seats[0].name, segments[-1][-1].event.sequence + 1)
    try:
        while game.phase != games_pb2.PHASE_MATCH_OVER:
            game = act_once(seats, game, policy)
        third.wait_for(game.event_count - (segments[-1][-1].event.sequence + 1))
    finally:
        third.hang_up()
    segments.append(third.received)

    watched = [response.event for segment in segments for response in segment]
    assert [event.sequence for event in watched] == list(range(game.event_count))
    assert watched == all_events(clients[0], seats[0].name)


def test_watching_from_a_sequence_beyond_the_log_waits_for_it(clients) -> None:
    seats = new_game(clients, variant="backgammon", match_length=1)
    watcher = Watcher(clients[2], seats[0].name, from_sequence=2)
    try:
        game = seats[0].roll()  # one event: the opening throw
        time.sleep(0.2)
        assert watcher.received == []
        game = act_once(seats, game, Policy(random.Random(13)))
        game = act_once(seats, game, Policy(random.Random(13)))
        watcher.wait_for(game.event_count - 2)
    finally:
        watcher.hang_up()
    assert [response.event.sequence for response in watcher.received] == list(range(2, game.event_count))
