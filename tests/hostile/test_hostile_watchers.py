"""Watchers and what they cost the server: a crowd of 1,000 open WatchGame streams, clients that
freeze without reading, watches of finished matches, SIGTERM with watchers open, and a soak.

- With 1,000 WatchGame streams open (grpc.aio, in a process of their own, on four channels),
  health checks and every RPC still answer within 100 ms at p99 (the p99 of about 200 calls made
  meanwhile; measured again once before failing, the machine being shared).
- Clients that open WatchGame streams and never read them (raw HTTP/2 connections that grant
  the server no window, or a window they never read out; gRPC calls never iterated) harm nobody:
  another client plays a whole match, with a watcher that sees every event, at the same speed.
- A watch of a finished match sends every event up to the last and ends; a watch open when the
  match ends ends after its last event.
- On SIGTERM open watchers are closed at once with UNAVAILABLE, and the server exits well
  within its grace period.
- A soak of concurrent games for 90 s: the server's memory (RSS), threads and open descriptors
  are flat, the last third of the run against the first third after a 20 s warm-up (the games a
  cycle of seeded ones, so that the server's bounded caches are full by then).
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import statistics
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavli.clients.client import Seat, TavliClient, TavliServerError
from tavli.v1 import (
    board_pb2,
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
    rules_service_pb2 as rules_pb2,
)
from tests.hostile.campaign import (
    Figures,
    figures_fixture,  # noqa: F401 - the fixture `figures`
    percentile,
    random_action,
    refusal_of,
    serve,
    stop,
    stored_log,
    timed,
    tracebacks,
    watcher_crowd,
)
from tests.server_play import MOST_ACTIONS, RPC_TIMEOUT
from tests.supervision import log_lines

CROWD = 1_000
P99_BOUND_MS = 100.0
CALLS = 200
CALL_TIMEOUT = 2.0
START_ID = "4HPwATDgc/ABMA"


def seats_on(clients: list[TavliClient], **options: object) -> tuple[Seat, Seat]:
    """A new game whose seats act through two different connections."""
    seat_0, seat_1 = clients[0].create_game(**options)  # type: ignore[arg-type]
    other = clients[1 % len(clients)]
    return seat_0, Seat(other, seat_1.name, 1, seat_1.token, seat_1.last_seen)


def play(seats: tuple[Seat, Seat], actions: int, rng: random.Random) -> games_pb2.Game:
    game = seats[0].game()
    for _ in range(actions):
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            break
        game = random_action(seats, game, rng)
    return game


def probe_calls(
    client: TavliClient, live: tuple[Seat, Seat], rng: random.Random
) -> list[tuple[str, Callable[[], object]]]:
    """One call of every kind a client makes: health, every read, the rules, a create, an action."""
    health = health_pb2_grpc.HealthStub(client.channel)
    name = live[0].name
    position = board_pb2.Position(position_id=START_ID)
    validate = rules_pb2.ValidatePlayRequest(
        variant=board_pb2.VARIANT_BACKGAMMON, position=position, dice=[3, 1], notation="8/5 6/5"
    )
    rule_set = games_pb2.RuleSet(variant=board_pb2.VARIANT_BACKGAMMON)
    games, rules = client.games, client.rules

    def act() -> object:
        game = live[0].game()
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            return game
        return random_action(live, game, rng)

    return [
        ("Health.Check", lambda: health.Check(health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT)),
        ("GetGame", lambda: games.GetGame(games_pb2.GetGameRequest(name=name), timeout=CALL_TIMEOUT)),
        (
            "ListGames",
            lambda: games.ListGames(games_pb2.ListGamesRequest(page_size=20), timeout=CALL_TIMEOUT),
        ),
        (
            "ListGameEvents",
            lambda: games.ListGameEvents(
                games_pb2.ListGameEventsRequest(name=name, page_size=50), timeout=CALL_TIMEOUT
            ),
        ),
        (
            "ListLegalActions",
            lambda: games.ListLegalActions(
                games_pb2.ListLegalActionsRequest(name=name, seat=games_pb2.SEAT_0), timeout=CALL_TIMEOUT
            ),
        ),
        (
            "ExportMatch",
            lambda: games.ExportMatch(games_pb2.ExportMatchRequest(name=name), timeout=CALL_TIMEOUT),
        ),
        (
            "CreateGame",
            lambda: games.CreateGame(games_pb2.CreateGameRequest(rule_set=rule_set), timeout=CALL_TIMEOUT),
        ),
        (
            "ListLegalPlays",
            lambda: rules.ListLegalPlays(
                rules_pb2.ListLegalPlaysRequest(
                    variant=board_pb2.VARIANT_BACKGAMMON,
                    position=position,
                    dice=[rng.randint(1, 6), rng.randint(1, 6)],
                ),
                timeout=CALL_TIMEOUT,
            ),
        ),
        ("ValidatePlay", lambda: rules.ValidatePlay(validate, timeout=CALL_TIMEOUT)),
        (
            "BatchValidatePlays",
            lambda: rules.BatchValidatePlays(
                rules_pb2.BatchValidatePlaysRequest(requests=[validate] * 4), timeout=CALL_TIMEOUT
            ),
        ),
        (
            "ApplyPlay",
            lambda: rules.ApplyPlay(
                rules_pb2.ApplyPlayRequest(
                    variant=board_pb2.VARIANT_BACKGAMMON, position=position, dice=[3, 1], notation="8/5 6/5"
                ),
                timeout=CALL_TIMEOUT,
            ),
        ),
        (
            "ScorePosition",
            lambda: rules.ScorePosition(
                rules_pb2.ScorePositionRequest(variant=board_pb2.VARIANT_BACKGAMMON, position=position),
                timeout=CALL_TIMEOUT,
            ),
        ),
        (
            "ConvertPosition",
            lambda: rules.ConvertPosition(
                rules_pb2.ConvertPositionRequest(variant=board_pb2.VARIANT_BACKGAMMON, position=position),
                timeout=CALL_TIMEOUT,
            ),
        ),
        ("an action (ListLegalActions, then the action)", act),
    ]


def measure(calls: list[tuple[str, Callable[[], object]]], count: int) -> dict[str, object]:
    """Make ``count`` calls, the kinds in turn; their p99 and worst in ms, and what failed. Stops
    early once so many have failed that the p99 is past the timeout anyway."""
    samples: list[float] = []
    failures: Counter[str] = Counter()
    slowest: dict[str, float] = {}
    while len(samples) < count:
        for label, call in calls:
            try:
                ms, error = timed(call)
            except TavliServerError as error:  # an action refused: the client raises its own error
                ms, failure = CALL_TIMEOUT * 1000, f"{label}: {error.status.name}"
            else:
                failure = f"{label}: {refusal_of(error)}" if error is not None else None
            samples.append(ms)
            slowest[label] = max(slowest.get(label, 0.0), ms)
            if failure:
                failures[failure[:120]] += 1
        if sum(failures.values()) > count // 100 + 5:
            break
    return {
        "calls": len(samples),
        "p99_ms": round(percentile(samples, 0.99), 1),
        "median_ms": round(statistics.median(samples), 1),
        "max_ms": round(max(samples), 1),
        "slowest_by_call": {
            label: round(ms, 1) for label, ms in sorted(slowest.items(), key=lambda item: -item[1])[:4]
        },
        "failed": dict(failures),
    }


@pytest.mark.alone
def test_a_thousand_open_watchers_leave_every_rpc_answering_within_100_ms_at_p99(
    tmp_path: Path, figures: Figures
) -> None:
    log = tmp_path / "serve.log"
    served = serve("--db", str(tmp_path / "games.sqlite3"), log=log)
    rng = random.Random(3)
    clients = [TavliClient.connect(served.address, timeout=RPC_TIMEOUT) for _ in range(2)]
    try:
        watched = []
        for number in range(50):
            seats = seats_on(clients, variant="backgammon" if number % 3 else "long-nardi")
            play(seats, 3, rng)
            watched.append(seats[0].name)
        seat_0, seat_1 = seats_on(clients, variant="backgammon", cube=True)
        seat_0.roll()
        # The live game's seats act through a client that gives up as soon as a probe call does.
        prober = TavliClient.connect(served.address, timeout=CALL_TIMEOUT)
        clients.append(prober)
        live = (
            Seat(prober, seat_0.name, 0, seat_0.token, seat_0.last_seen),
            Seat(prober, seat_1.name, 1, seat_1.token, seat_1.last_seen),
        )
        names = [*watched, live[0].name]
        with watcher_crowd(served.address, names, CROWD, tmp_path / "crowd.json") as crowd:
            opened = time.monotonic()
            status = crowd.wait_for_first_messages(CROWD, within=30.0)
            seconds_to_open = time.monotonic() - opened
            calls = probe_calls(prober, live, rng)
            first = measure(calls, CALLS)
            # Measured again only when slow but answering: a shared machine's hiccup, not starvation.
            slow = first["p99_ms"] > P99_BOUND_MS and not first["failed"]  # type: ignore[operator]
            second = measure(calls, CALLS) if slow else None
            try:
                final_count = clients[0].game(live[0].name).event_count
            except TavliServerError:
                final_count = -1
            deadline = time.monotonic() + (10 if status.get("first_message", 0) >= CROWD else 0)
            while (
                crowd.status().get("fewest_by_game", {}).get(live[0].name, 0) < final_count
                and time.monotonic() < deadline
            ):
                time.sleep(0.1)
            caught_up = crowd.status().get("fewest_by_game", {}).get(live[0].name, 0)
            crowd_final = crowd.stop()
    finally:
        for client in clients:
            client.close()
        stop(served)
    kept = second or first
    figures.update(
        watchers=CROWD,
        watchers_with_their_first_message=status.get("first_message", 0),
        seconds_to_open_them=round(seconds_to_open, 1),
        watch_messages=crowd_final.get("messages"),
        streams_ended=crowd_final.get("ended"),
        calls_measured=kept["calls"],
        p99_ms=kept["p99_ms"],
        first_measurement=first,
        second_measurement=second,
        live_game_events=final_count,
        fewest_live_events_a_watcher_had=caught_up,
    )
    assert status.get("first_message", 0) >= CROWD, (
        f"only {status.get('first_message', 0)} of {CROWD} watchers had their first message within 30 s"
    )
    assert not kept["failed"], f"calls failed with {CROWD} watchers open: {kept['failed']}"
    assert kept["p99_ms"] <= P99_BOUND_MS, (
        f"p99 {kept['p99_ms']} ms with {CROWD} watchers open (twice measured): {first} / {second}"
    )
    assert caught_up >= final_count, (
        f"the live game's watchers had only {caught_up} of its {final_count} events"
    )
    assert not tracebacks(log), tracebacks(log)[:3]
    figures.passed()


# --- frozen clients --------------------------------------------------------------------------------

_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA, _HEADERS, _SETTINGS = 0x0, 0x1, 0x4
_END_STREAM, _ACK, _END_HEADERS = 0x1, 0x1, 0x4
_INITIAL_WINDOW_SIZE = 0x4


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return len(payload).to_bytes(3, "big") + bytes([kind, flags]) + stream.to_bytes(4, "big") + payload


def _hpack_length(value: int) -> bytes:
    if value < 127:
        return bytes([value])
    encoded = bytearray([127])
    value -= 127
    while value >= 128:
        encoded.append(value % 128 + 128)
        value //= 128
    encoded.append(value)
    return bytes(encoded)


def _header(name: str, value: str) -> bytes:
    # HPACK's literal header field without indexing, its name given as text: no table to keep.
    raw_name, raw_value = name.encode(), value.encode()
    return b"\x00" + _hpack_length(len(raw_name)) + raw_name + _hpack_length(len(raw_value)) + raw_value


class FrozenConnection:
    """A raw HTTP/2 connection that opens WatchGame streams and never reads a byte: with
    ``window`` 0 it grants the server no room to send at all; with None, the default 64 KB that
    it then never reads out (its receive buffer kept small)."""

    def __init__(self, port: int, name: str, *, streams: int, window: int | None) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.socket.settimeout(5)
        self.socket.connect(("127.0.0.1", port))
        settings = b"" if window is None else struct.pack(">HI", _INITIAL_WINDOW_SIZE, window)
        self.socket.sendall(_PREFACE + _frame(_SETTINGS, 0, 0, settings))
        time.sleep(0.05)  # the server's SETTINGS has been sent by now: acknowledge it unread
        self.socket.sendall(_frame(_SETTINGS, _ACK, 0))
        body = games_pb2.WatchGameRequest(name=name).SerializeToString()
        for number in range(streams):
            stream = 1 + 2 * number
            headers = b"".join(
                _header(key, value)
                for key, value in (
                    (":method", "POST"),
                    (":scheme", "http"),
                    (":path", "/tavli.v1.GamesService/WatchGame"),
                    (":authority", f"127.0.0.1:{port}"),
                    ("content-type", "application/grpc"),
                    ("te", "trailers"),
                )
            )
            self.socket.sendall(_frame(_HEADERS, _END_HEADERS, stream, headers))
            self.socket.sendall(
                _frame(_DATA, _END_STREAM, stream, b"\0" + len(body).to_bytes(4, "big") + body)
            )

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.socket.close()


def play_a_watched_match(clients: list[TavliClient], rng: random.Random) -> dict[str, object]:
    """Play a whole 1-point match with a watcher on it; the latencies, and whether the watcher saw it all."""
    try:
        seats = seats_on(clients, variant="backgammon", match_length=1)
    except TavliServerError as error:
        return {
            "actions": 0,
            "p99_ms": None,
            "watcher_saw_every_event": False,
            "failed": f"CreateGame: {error.status.name}",
        }
    received: list[games_pb2.WatchGameResponse] = []
    call = clients[1].games.WatchGame(games_pb2.WatchGameRequest(name=seats[0].name), timeout=120)

    def read() -> None:
        with contextlib.suppress(grpc.RpcError):
            for response in call:
                received.append(response)  # noqa: PERF402 - read as they come, while others look

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    samples: list[float] = []
    game = seats[0].game()
    started = time.monotonic()
    failure = None
    for _ in range(MOST_ACTIONS):
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            break
        before = time.perf_counter()
        try:
            game = random_action(seats, game, rng)
        except TavliServerError as error:
            failure = f"{error.status.name}: {error.message}"
            samples.append(RPC_TIMEOUT * 1000)
            break
        samples.append((time.perf_counter() - before) * 1000 / 2)  # two calls: the legal actions, the action
    deadline = time.monotonic() + 10
    while len(received) < game.event_count and time.monotonic() < deadline:
        time.sleep(0.02)
    call.cancel()
    reader.join(timeout=10)
    try:
        logged = stored_log(clients[0].games, seats[0].name)
    except grpc.RpcError as error:
        failure, logged = failure or str(refusal_of(error)), []
    return {
        "actions": len(samples),
        "seconds": round(time.monotonic() - started, 1),
        "p99_ms": round(percentile(samples, 0.99), 1) if samples else None,
        "watcher_saw_every_event": bool(logged) and [r.event for r in received[: len(logged)]] == logged,
        "failed": failure,
    }


@pytest.mark.alone
def test_clients_that_never_read_their_watches_harm_nobody_else(tmp_path: Path, figures: Figures) -> None:
    log = tmp_path / "serve.log"
    served = serve("--db", str(tmp_path / "games.sqlite3"), log=log)
    rng = random.Random(9)
    clients = [TavliClient.connect(served.address, timeout=RPC_TIMEOUT) for _ in range(2)]
    frozen: list[FrozenConnection] = []
    unread_channel = grpc.insecure_channel(served.address, options=[("grpc.use_local_subchannel_pool", 1)])
    unread_calls = []
    try:
        # A long money session: its log is far larger than the 64 KB a frozen reader lets through.
        long_game = seats_on(clients, variant="backgammon", cube=True)
        play(long_game, 400, rng)
        undisturbed = play_a_watched_match(clients, rng)
        for number in range(20):
            frozen.append(
                FrozenConnection(served.port, long_game[0].name, streams=2, window=0 if number % 2 else None)
            )
        stub = games_service_pb2_grpc.GamesServiceStub(unread_channel)
        unread_calls = [
            stub.WatchGame(games_pb2.WatchGameRequest(name=long_game[0].name), timeout=120) for _ in range(10)
        ]
        time.sleep(1.0)  # let the server fill every window it was given
        disturbed = play_a_watched_match(clients, rng)
        if not disturbed["failed"] and disturbed["p99_ms"] > P99_BOUND_MS:  # type: ignore[operator]
            disturbed = play_a_watched_match(clients, rng)
        health = health_pb2_grpc.HealthStub(clients[0].channel)
        try:
            serving = health.Check(health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT).status
        except grpc.RpcError as error:
            serving = str(refusal_of(error))
    finally:
        for connection in frozen:
            connection.close()
        for call in unread_calls:
            call.cancel()
        unread_channel.close()
        # The frozen streams reached the server: each logs its line once its connection is gone.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and served.process.poll() is None:
            ended = [
                line
                for line in log_lines(log)
                if line.get("event") == "rpc" and line.get("method", "").endswith("/WatchGame")
            ]
            if len(ended) >= 50:
                break
            time.sleep(0.2)
        for client in clients:
            client.close()
        stop(served)
    ended = [
        line
        for line in log_lines(log)
        if line.get("event") == "rpc" and line.get("method", "").endswith("/WatchGame")
    ]
    figures.update(
        frozen_streams=len(frozen) * 2,
        unread_grpc_watchers=len(unread_calls),
        match_without_them=undisturbed,
        match_with_them=disturbed,
        frozen_streams_the_server_logged=len(ended) - 2,
        tracebacks_logged=len(tracebacks(log)),
    )
    assert not disturbed["failed"] and disturbed["watcher_saw_every_event"], (
        f"the match played beside frozen clients: {disturbed}"
    )
    assert disturbed["p99_ms"] <= P99_BOUND_MS, (
        f"p99 {disturbed['p99_ms']} ms beside frozen clients (alone: {undisturbed['p99_ms']} ms)"
    )
    assert serving == health_pb2.HealthCheckResponse.SERVING
    assert len(ended) >= 2 + 50, (
        f"the server logged {len(ended)} WatchGame calls; the frozen ones did not all reach it"
    )
    assert not tracebacks(log), tracebacks(log)[:3]
    figures.passed()


# --- watches that end --------------------------------------------------------------------------------


def test_a_watch_of_a_finished_match_ends_after_its_last_event(tmp_path: Path, figures: Figures) -> None:
    log = tmp_path / "serve.log"
    served = serve("--db", str(tmp_path / "games.sqlite3"), log=log)
    rng = random.Random(4)
    clients = [TavliClient.connect(served.address, timeout=RPC_TIMEOUT) for _ in range(2)]
    outcomes: dict[str, object] = {}
    try:
        # Open while the match is played: it ends once the match does.
        seats = seats_on(clients, variant="backgammon", match_length=1, verifiable_dice=True)
        received: list[games_pb2.WatchGameResponse] = []
        live_call = clients[1].games.WatchGame(games_pb2.WatchGameRequest(name=seats[0].name), timeout=15)

        def read() -> None:
            try:
                for response in live_call:
                    received.append(response)  # noqa: PERF402 - read as they come
                outcomes["live"] = "OK"
            except grpc.RpcError as error:
                outcomes["live"] = error.code().name

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        final = play(seats, MOST_ACTIONS, rng)
        ended_at = time.monotonic()
        reader.join(timeout=15)
        outcomes["live_seconds_after_the_end"] = round(time.monotonic() - ended_at, 2)
        logged = stored_log(clients[0].games, seats[0].name)
        # Opened after the match is over: every event, then the end.
        started = time.monotonic()
        later: list[games_pb2.WatchGameResponse] = []
        try:
            for response in clients[0].games.WatchGame(
                games_pb2.WatchGameRequest(name=seats[0].name), timeout=8
            ):
                later.append(response)  # noqa: PERF402 - kept even if the stream then fails
            outcomes["after"] = "OK"
        except grpc.RpcError as error:
            outcomes["after"] = error.code().name
        outcomes["after_seconds"] = round(time.monotonic() - started, 2)
    finally:
        for client in clients:
            client.close()
        stop(served)
    figures.update(events=len(logged), **outcomes)
    assert final.phase == games_pb2.PHASE_MATCH_OVER
    assert [response.event for response in later] == logged, (
        "the watch of the finished match did not send its whole log"
    )
    assert later[-1].game.phase == games_pb2.PHASE_MATCH_OVER
    assert outcomes.get("after") == "OK" and outcomes["after_seconds"] < 5, (
        f"the watch of a finished match did not end: {outcomes}"
    )
    assert [response.event for response in received] == logged, "the watch open at the end missed events"
    assert outcomes.get("live") == "OK" and outcomes["live_seconds_after_the_end"] < 5, (
        f"the watch open at the end did not end: {outcomes}"
    )
    figures.passed()


def test_sigterm_closes_open_watchers_at_once_with_unavailable(tmp_path: Path, figures: Figures) -> None:
    log = tmp_path / "serve.log"
    served = serve("--db", str(tmp_path / "games.sqlite3"), log=log)
    rng = random.Random(6)
    clients = [TavliClient.connect(served.address, timeout=RPC_TIMEOUT) for _ in range(3)]
    ends: list[tuple[float, str, str]] = []
    first_messages = threading.Semaphore(0)
    lock = threading.Lock()
    try:
        names = []
        for _ in range(3):
            seats = seats_on(clients, variant="backgammon")
            play(seats, 5, rng)
            names.append(seats[0].name)

        def watch(number: int) -> None:
            call = clients[number % 3].games.WatchGame(
                games_pb2.WatchGameRequest(name=names[number % 3]), timeout=30
            )
            code, reason = "OK", ""
            try:
                for count, _ in enumerate(call):
                    if count == 0:
                        first_messages.release()
            except grpc.RpcError as error:
                refusal = refusal_of(error)
                code, reason = refusal.status.name, refusal.reason
            with lock:
                ends.append((time.monotonic(), code, reason))

        watchers = [threading.Thread(target=watch, args=(number,), daemon=True) for number in range(30)]
        for thread in watchers:
            thread.start()
        for _ in watchers:
            assert first_messages.acquire(timeout=15), "a watcher never had its first message"
        signalled = time.monotonic()
        os.kill(served.pid, signal.SIGTERM)
        try:
            status = served.process.wait(timeout=15)
        except Exception:  # noqa: BLE001 - a server that does not exit is the finding
            status = None
        exited = time.monotonic() - signalled
        for thread in watchers:
            thread.join(timeout=10)
    finally:
        for client in clients:
            client.close()
        stop(served)
    latest = max((at - signalled for at, _, _ in ends), default=float("inf"))
    codes = Counter(f"{code}/{reason or '-'}" for _, code, reason in ends)
    grace = next(
        (line.get("grace_seconds") for line in log_lines(log) if line.get("event") == "stopping"), None
    )
    figures.update(
        watchers=len(watchers),
        closed_by_code=dict(codes),
        last_watcher_closed_after_s=round(latest, 2),
        exited_after_s=round(exited, 2),
        exit_status=status,
        grace_seconds=grace,
    )
    assert len(ends) == len(watchers), f"{len(watchers) - len(ends)} watchers were still open"
    assert all(code == "UNAVAILABLE" for _, code, _ in ends), (
        f"watchers closed with {dict(codes)}, not UNAVAILABLE"
    )
    assert latest < 1.5, f"the last watcher was closed {latest:.1f} s after SIGTERM, not at once"
    assert status == 0, f"the server exited with {status}"
    assert exited < 3.0, f"the server took {exited:.1f} s to exit (grace {grace} s)"
    figures.passed()


# --- the soak --------------------------------------------------------------------------------------

SOAK_SECONDS = float(os.environ.get("TAVLI_SOAK_SECONDS", "90"))
WARM_UP = 20.0
SOAK_PLAYERS = 6
# The games of the soak are a cycle of seeded ones, each played by a player seeded alike, so that
# after the first cycle every position is one the server has seen: its bounded caches (legal plays
# of 4,096 positions and rolls, 65,536 plays' steps serialized, ...) are then full and stay so,
# and what memory does next is what the server keeps per game, per call and per stream. With
# random dice those caches take minutes to fill, and their growth hides a leak of that size.
SOAK_SEEDS = 12


def process_figures(pid: int) -> tuple[int, int, int]:
    """The process's resident memory (KiB), threads and open descriptors, from /proc."""
    rss = threads = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
        elif line.startswith("Threads:"):
            threads = int(line.split()[1])
    return rss, threads, len(os.listdir(f"/proc/{pid}/fd"))


def test_a_soak_of_concurrent_games_leaves_memory_threads_and_descriptors_flat(
    tmp_path: Path, figures: Figures
) -> None:
    log = tmp_path / "serve.log"
    # Few games kept in memory, so that the games finished are let go and memory can be flat.
    served = serve(
        "--db", str(tmp_path / "games.sqlite3"), "--games-in-memory", "32", "--allow-seeded-dice", log=log
    )
    stopping = threading.Event()
    tally: Counter[str] = Counter()
    errors: list[str] = []
    lock = threading.Lock()

    def player(number: int) -> None:
        clients = [TavliClient.connect(served.address, timeout=RPC_TIMEOUT) for _ in range(2)]
        cycle = number
        try:
            while not stopping.is_set():
                cycle += SOAK_PLAYERS
                seed = cycle % SOAK_SEEDS
                rng = random.Random(seed)
                options = {"variant": "long-nardi" if seed % 3 == 2 else "backgammon", "match_length": 1}
                seats = seats_on(clients, dice_seed=f"soak-{seed}", **options)
                watch = clients[1].games.WatchGame(games_pb2.WatchGameRequest(name=seats[0].name), timeout=60)
                game = seats[0].game()
                actions = 0
                while game.phase != games_pb2.PHASE_MATCH_OVER and not stopping.is_set():
                    game = random_action(seats, game, rng, resign_rate=0.01)
                    actions += 1
                    if actions % 10 == 0:  # a refused request now and then
                        with contextlib.suppress(grpc.RpcError):
                            clients[0].games.RollDice(
                                games_pb2.RollDiceRequest(name=seats[0].name, seat_token="wrong"),
                                timeout=RPC_TIMEOUT,
                            )
                if (
                    game.phase == games_pb2.PHASE_MATCH_OVER and rng.random() < 0.5
                ):  # read it to the end, or hang up
                    with contextlib.suppress(grpc.RpcError):
                        for response in watch:
                            if response.game.phase == games_pb2.PHASE_MATCH_OVER:
                                break
                watch.cancel()
                clients[0].export_mat(seats[0].name)
                clients[0].games.ListGames(games_pb2.ListGamesRequest(page_size=20), timeout=RPC_TIMEOUT)
                with lock:
                    tally["games"] += 1
                    tally["actions"] += actions
        except Exception as error:  # noqa: BLE001 - reported by the test
            with lock:
                errors.append(f"player {number}: {type(error).__name__}: {error}")
        finally:
            for client in clients:
                client.close()

    samples: list[tuple[float, int, int, int]] = []
    threads = [threading.Thread(target=player, args=(number,), daemon=True) for number in range(SOAK_PLAYERS)]
    try:
        started = time.monotonic()
        for thread in threads:
            thread.start()
        while time.monotonic() - started < SOAK_SECONDS and not errors:
            samples.append((time.monotonic() - started, *process_figures(served.pid)))
            time.sleep(0.5)
        stopping.set()
        for thread in threads:
            thread.join(timeout=30)
    finally:
        stopping.set()
        status = stop(served)
    measured = [sample for sample in samples if sample[0] >= WARM_UP]
    third = max(1, len(measured) // 3)
    first, last = measured[:third], measured[-third:]
    rss_first = statistics.mean(sample[1] for sample in first) / 1024
    rss_last = statistics.mean(sample[1] for sample in last) / 1024
    threads_first, threads_last = max(sample[2] for sample in first), max(sample[2] for sample in last)
    fds_first, fds_last = max(sample[3] for sample in first), max(sample[3] for sample in last)
    rss_allowed = max(4.0, 0.05 * rss_first)
    slope = (
        statistics.linear_regression(
            [sample[0] for sample in measured], [sample[1] / 1024 for sample in measured]
        ).slope
        if len(measured) > 2
        else 0.0
    )
    figures.update(
        soak_seconds=round(samples[-1][0], 1) if samples else 0,
        games_played=tally["games"],
        actions=tally["actions"],
        samples=len(samples),
        rss_mib_first_third=round(rss_first, 1),
        rss_mib_last_third=round(rss_last, 1),
        rss_growth_allowed_mib=round(rss_allowed, 1),
        rss_mib_per_minute_after_warm_up=round(slope * 60, 2),
        threads_first_third=threads_first,
        threads_last_third=threads_last,
        fds_first_third=fds_first,
        fds_last_third=fds_last,
        rss_mib_every_5_s=[round(sample[1] / 1024, 1) for sample in samples[::10]],
        errors=errors[:3],
    )
    assert not errors, errors[:3]
    assert len(measured) >= 30, f"only {len(measured)} samples after warm-up"
    assert rss_last - rss_first <= rss_allowed, f"RSS grew from {rss_first:.1f} to {rss_last:.1f} MiB"
    assert threads_last <= threads_first + 2, f"threads grew from {threads_first} to {threads_last}"
    assert fds_last <= fds_first + 4, f"open descriptors grew from {fds_first} to {fds_last}"
    assert status == 0, f"the server exited with {status} on SIGTERM"
    assert not tracebacks(log), tracebacks(log)[:3]
    figures.passed()
