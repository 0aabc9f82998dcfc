"""What the ladder's tests share: accounts made on a running server, calls made with a key,
event streams read on a thread of their own, and a Glicko-2 computed apart from the server's."""

from __future__ import annotations

import math
import queue
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import grpc

from tavli.server.app import Running
from tavli.v1 import ladder_service_pb2 as pb, ladder_service_pb2_grpc
from tests.server_play import RPC_TIMEOUT


def make_account(running: Running, handle: str, *, bot: bool = True) -> str:
    """Make an account on ``running`` as the operator would; returns its API key."""
    _, key = running.ladder.accounts.create(handle, "", "bot" if bot else "human")
    return key


def wait_for_a_game_played_into(running: Running, *, within: float = 60.0) -> None:
    """Return once a ladder game on ``running`` has been played into (a bound, not a wait).

    :raises AssertionError: if none is within ``within`` seconds.
    """
    for _ in range(int(within * 100)):
        started = running.ladder.records.games_in_progress()
        if started and running.store.event_count(started[0].game) > 4:
            return
        threading.Event().wait(0.01)
    raise AssertionError("the ladder started no game")


def keyed(key: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {key}"),)


@dataclass
class Caller:
    """LadderService called with one account's key."""

    channel: grpc.Channel
    key: str
    stub: ladder_service_pb2_grpc.LadderServiceStub = field(init=False)

    def __post_init__(self) -> None:
        self.stub = ladder_service_pb2_grpc.LadderServiceStub(self.channel)

    def __getattr__(self, method: str) -> object:
        call = getattr(self.stub, method)

        def called(request: object) -> object:
            return call(request, metadata=keyed(self.key), timeout=RPC_TIMEOUT)

        return called


class EventReader:
    """One account's StreamEvents, read on a thread of its own into a queue."""

    def __init__(self, channel: grpc.Channel, key: str, after: int = 0) -> None:
        stub = ladder_service_pb2_grpc.LadderServiceStub(channel)
        self.call = stub.StreamEvents(pb.StreamEventsRequest(after_event_id=after), metadata=keyed(key))
        self.first: pb.StreamEventsResponse | None = None
        self.events: queue.Queue[pb.LadderEvent | BaseException] = queue.Queue()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for response in self.call:
                if self.first is None:
                    self.first = response
                    self.events.put(pb.LadderEvent())  # marks the first message read
                else:
                    self.events.put(response.event)
        except BaseException as error:  # noqa: BLE001 - handed to the test's thread
            self.events.put(error)

    def started(self) -> pb.StreamEventsResponse:
        marker = self.events.get(timeout=RPC_TIMEOUT)
        assert isinstance(marker, pb.LadderEvent), marker
        assert self.first is not None
        return self.first

    def next(self) -> pb.LadderEvent:
        event = self.events.get(timeout=RPC_TIMEOUT)
        if isinstance(event, BaseException):
            raise event
        return event

    def take(self, count: int) -> list[pb.LadderEvent]:
        return [self.next() for _ in range(count)]

    def close(self) -> None:
        self.call.cancel()
        self._thread.join(RPC_TIMEOUT)


@dataclass(frozen=True)
class Glicko:
    """A rating as Glickman's paper writes it, worked out here apart from the server's module."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06


def glicko_after(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = 0.5) -> Glicko:
    """The paper's steps 2 to 8, its volatility found by bisection (not the paper's Illinois
    iteration the server uses), to a tolerance far below what the tests compare."""
    scale = 173.7178
    mu, phi, sigma = (player.rating - 1500) / scale, player.deviation / scale, player.volatility
    terms = []
    for opponent, score in results:
        g = 1 / math.sqrt(1 + 3 * (opponent.deviation / scale) ** 2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - (opponent.rating - 1500) / scale)))
        terms.append((g, e, score))
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in terms)
    delta = v * sum(g * (score - e) for g, e, score in terms)
    a = math.log(sigma**2)

    def f(x: float) -> float:
        return (
            math.exp(x) * (delta**2 - phi**2 - v - math.exp(x)) / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / tau**2
        )

    low, high = a - 20.0, a + 20.0  # f falls from positive to negative over this range
    for _ in range(200):
        middle = (low + high) / 2
        if f(middle) > 0:
            low = middle
        else:
            high = middle
    new_sigma = math.exp(low / 2)
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * sum(g * (score - e) for g, e, score in terms)
    return Glicko(1500 + scale * new_mu, scale * new_phi, new_sigma)


def events_of(reader: EventReader, kind: str, count: int) -> Iterator[pb.LadderEvent]:
    """The next ``count`` events of ``kind`` the reader gets, skipping others."""
    found = 0
    while found < count:
        event = reader.next()
        if event.WhichOneof("kind") == kind:
            found += 1
            yield event
