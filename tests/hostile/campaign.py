"""What the hostile tests share: `tavli serve` run as a process group and killed or stopped as a
whole, errors read whatever shape they come in, an oracle that replays a game's stored log and
says what every read of it may have shown, patient seats that retry through a killed server with
the same request_id, a crowd of asyncio watchers run in a process of its own, and the figures
each test records.

Every server started here listens on 127.0.0.1 and runs in a session of its own, so that stopping
it reaches its worker processes too; every RPC made here has a timeout.

Run as ``python -m tests.hostile.campaign crowd ...`` this module is the watcher crowd (see :func:`crowd`).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import math
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavli.clients.client import Seat, TavliClient, TavliServerError, worth_sending_again
from tavli.engine.events import (
    Beavered,
    DiceCommitted,
    Doubled,
    Dropped,
    Event,
    OpeningThrown,
    Played,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    SeedRevealed,
    Took,
)
from tavli.engine.game import MatchState, apply, new_match, seats_to_act
from tavli.engine.play import Step
from tavli.engine.rules import RuleSet
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2, games_service_pb2_grpc
from tests.server_play import REPO, RPC_TIMEOUT, free_port, serve_command, wait_until_serving

# The reasons the rules give for refusing an action now (FAILED_PRECONDITION), as the API lists them.
RULE_REASONS = frozenset(
    {
        "NOT_YOUR_TURN",
        "WRONG_PHASE",
        "DOUBLE_PENDING",
        "RESIGNATION_PENDING",
        "CUBE_UNAVAILABLE",
        "BEAVER_UNAVAILABLE",
        "RESIGNATION_UNAVAILABLE",
        "ILLEGAL_PLAY",
        "MATCH_OVER",
    }
)
# Codes no client input may ever produce.
SERVER_FAULTS = frozenset({grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN})


# --- `tavli serve` as a process group -------------------------------------------------------------


@dataclass
class Served:
    """A ``tavli serve`` process (the supervisor, with ``--workers``), leader of its own group."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    workers: int = 1

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid


def serve(
    *arguments: str,
    log: Path,
    port: int | None = None,
    workers: int = 1,
    within: float = 30.0,
    descriptors: int | None = None,
) -> Served:
    """Start ``tavli serve --log-json`` on 127.0.0.1 (``port``, or a free one) in a session of its
    own, standard error appended to ``log``; return once it answers (with ``workers`` > 1, once
    every worker has logged that it serves). ``descriptors``: the most files it may have open
    (its soft and hard limit), as a small machine's would be."""
    port = port or free_port()
    command = serve_command("--port", str(port), "--log-json", *arguments)
    if descriptors is not None:
        command = ["prlimit", f"--nofile={descriptors}:{descriptors}", "--", *command]
    if workers > 1:
        command += ["--workers", str(workers)]
    start = log.stat().st_size if log.exists() else 0
    with open(log, "ab") as error_file:  # the child keeps its own copy
        process = subprocess.Popen(
            command,
            cwd=REPO,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=error_file,
            start_new_session=True,
        )
    served = Served(process, port, log, workers)
    try:
        wait_until_serving(served.address, process, within=within)
        if workers > 1:
            deadline = time.monotonic() + within
            while serving_lines(log, start) < workers:
                assert process.poll() is None, f"tavli serve exited with {process.returncode}"
                assert time.monotonic() < deadline, (
                    f"not every one of {workers} workers served within {within} s"
                )
                time.sleep(0.05)
    except BaseException:
        kill_group(served)
        raise
    return served


def serving_lines(log: Path, start: int = 0) -> int:
    """How many "serving" lines the log holds after byte ``start``."""
    with open(log, "rb") as lines:
        lines.seek(start)
        return sum(1 for line in lines if b'"event": "serving"' in line)


def group_members(group: int) -> list[int]:
    """The live (not zombie) processes of process group ``group``."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields_after_name = stat[stat.rfind(")") + 2 :].split()
        state, process_group = fields_after_name[0], int(fields_after_name[2])
        if process_group == group and state != "Z":
            members.append(int(entry.name))
    return members


def kill_group(served: Served, *, within: float = 10.0) -> None:
    """SIGKILL the server's whole process group (supervisor and workers) and wait until none is left."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(served.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        served.process.wait(timeout=within)
    deadline = time.monotonic() + within
    while group_members(served.pid):
        if time.monotonic() > deadline:
            raise AssertionError(f"processes {group_members(served.pid)} outlived SIGKILL of their group")
        time.sleep(0.02)


def stop(served: Served, *, within: float = 20.0) -> int | None:
    """SIGTERM the server (the supervisor forwards it to its workers) and wait for it to exit;
    SIGKILL its group if it does not within ``within`` s. Returns its exit status (None if killed)."""
    status: int | None = None
    if served.process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(served.pid, signal.SIGTERM)
        try:
            status = served.process.wait(timeout=within)
        except subprocess.TimeoutExpired:
            status = None
    else:
        status = served.process.returncode
    if group_members(served.pid) or served.process.poll() is None:
        kill_group(served)
    return status


def tracebacks(log: Path) -> list[str]:
    """The tracebacks in a server's log, each as its log event and the exception's last line."""
    found = []
    for raw in log.read_text(errors="replace").splitlines():
        if "Traceback" not in raw:
            continue
        try:
            line = json.loads(raw)
        except ValueError:
            found.append(raw[:300])
            continue
        text = str(line.get("exception", "")) or raw
        last = [part for part in text.strip().splitlines() if part.strip()][-1:]
        found.append(f"{line.get('event')} in {line.get('method')}: {' '.join(last)[:300]}")
    return found


# --- errors -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """A failed call: its status, its ErrorInfo's reason and domain (empty without one) and its words."""

    status: grpc.StatusCode
    reason: str
    domain: str
    message: str

    def __str__(self) -> str:
        return f"{self.status.name}/{self.reason or '-'}: {self.message[:200]}"


def refusal_of(error: grpc.RpcError) -> Refusal:
    reason = domain = ""
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except ValueError:  # a status whose details do not match its code
        status = None
    if status is not None:
        for detail in status.details:
            info = error_details_pb2.ErrorInfo()
            if detail.Unpack(info):
                reason, domain = info.reason, info.domain
    return Refusal(error.code(), reason, domain, error.details() or "")  # type: ignore[attr-defined]


def is_rules_refusal(refusal: Refusal) -> bool:
    """A loser of a race: refused for a stale etag, or by the rules with one of their reasons."""
    if refusal.status is grpc.StatusCode.ABORTED:
        return refusal.reason == "STALE_ETAG"
    return refusal.status is grpc.StatusCode.FAILED_PRECONDITION and refusal.reason in RULE_REASONS


# --- the oracle: a stored log replayed ------------------------------------------------------------

_SEATS = {games_pb2.SEAT_0: 0, games_pb2.SEAT_1: 1}
_LEVELS = {
    board_pb2.GAME_RESULT_SINGLE: "single",
    board_pb2.GAME_RESULT_GAMMON: "gammon",
    board_pb2.GAME_RESULT_BACKGAMMON: "backgammon",
    board_pb2.GAME_RESULT_MARS: "mars",
}
_ANSWERS = {
    games_pb2.EVENT_KIND_DOUBLE: Doubled,
    games_pb2.EVENT_KIND_TAKE: Took,
    games_pb2.EVENT_KIND_DROP: Dropped,
    games_pb2.EVENT_KIND_BEAVER: Beavered,
    games_pb2.EVENT_KIND_ACCEPT: ResignationAccepted,
    games_pb2.EVENT_KIND_REJECT: ResignationRejected,
}


def seat_number(side: int | None) -> int:
    """The API's Seat enum for an engine side (None: SEAT_UNSPECIFIED)."""
    return (
        games_pb2.SEAT_UNSPECIFIED if side is None else (games_pb2.SEAT_0 if side == 0 else games_pb2.SEAT_1)
    )


def rules_of(message: games_pb2.RuleSet) -> RuleSet:
    """The engine's rule set for a Game's rule_set (which the server gives with defaults filled in)."""
    variant = {board_pb2.VARIANT_BACKGAMMON: "backgammon", board_pb2.VARIANT_LONG_NARDI: "long-nardi"}[
        message.variant
    ]
    options: dict[str, Any] = {
        "variant": variant,
        "match_length": message.match_length,
        "jacoby": message.jacoby,
        "beavers": message.beavers,
        "automatic_doubles": message.automatic_doubles,
        "auto_play_forced": message.auto_play_forced,
    }
    if message.cube != games_pb2.CUBE_MODE_UNSPECIFIED:
        options["cube"] = message.cube == games_pb2.CUBE_MODE_CUBE
    if message.HasField("cube_limit"):
        options["cube_limit"] = message.cube_limit
    if message.HasField("crawford"):
        options["crawford"] = message.crawford
    if message.HasField("automatic_doubles_limit"):
        options["automatic_doubles_limit"] = message.automatic_doubles_limit
    if message.opening != games_pb2.OPENING_UNSPECIFIED:
        options["opening"] = games_pb2.Opening.Name(message.opening).removeprefix("OPENING_")
    if message.match_openings != games_pb2.MATCH_OPENINGS_UNSPECIFIED:
        options["match_openings"] = games_pb2.MatchOpenings.Name(message.match_openings).removeprefix(
            "MATCH_OPENINGS_"
        )
    return RuleSet(**options)


def event_of(message: games_pb2.GameEvent) -> Event:
    """The engine's event for one GameEvent of a log."""
    kind = message.kind
    side = _SEATS.get(message.seat)
    if kind == games_pb2.EVENT_KIND_OPENING_THROW:
        throws = tuple((throw.seat0_die, throw.seat1_die) for throw in message.opening_throws)
        return OpeningThrown(throws, side)  # type: ignore[arg-type]
    if kind == games_pb2.EVENT_KIND_ROLL:
        return Rolled(side, tuple(message.dice))  # type: ignore[arg-type]
    if kind == games_pb2.EVENT_KIND_PLAY:
        steps = tuple(Step(step.from_point, step.to_point, step.die, step.hit) for step in message.steps)
        return Played(side, steps, message.notation, message.forced)  # type: ignore[arg-type]
    if kind == games_pb2.EVENT_KIND_RESIGN:
        return ResignationOffered(side, _LEVELS[message.resignation_result])  # type: ignore[arg-type]
    if kind == games_pb2.EVENT_KIND_DICE_COMMITTED:
        return DiceCommitted(message.game_number, message.dice_commitment, 0)
    if kind == games_pb2.EVENT_KIND_SEED_REVEALED:
        return SeedRevealed(message.game_number, message.dice_seed)
    return _ANSWERS[kind](side)  # type: ignore[arg-type]


@dataclass(frozen=True)
class View:
    """What a reader of a game can see of its state, compared between the served and the replayed."""

    phase: int
    turn: int
    to_act: tuple[int, ...]
    position_id: str
    dice: tuple[int, ...]
    cube_value: int
    cube_owner: int
    crawford: bool
    score: tuple[int, ...]
    game_number: int
    winner: int
    finished_games: int


def view_of_game(game: games_pb2.Game) -> View:
    return View(
        phase=game.phase,
        turn=game.turn,
        to_act=tuple(game.to_act),
        position_id=game.position_id,
        dice=tuple(game.dice),
        cube_value=game.cube_value,
        cube_owner=game.cube_owner,
        crawford=game.crawford,
        score=tuple(game.score),
        game_number=game.game_number,
        winner=game.winner,
        finished_games=len(game.finished_games),
    )


def view_of_state(state: MatchState) -> View:
    game = state.game
    return View(
        phase=games_pb2.Phase.Value(f"PHASE_{game.phase.name}"),
        turn=seat_number(game.turn),
        to_act=tuple(seat_number(side) for side in seats_to_act(state)),
        position_id=game.position.position_id(),
        dice=tuple(game.dice or ()),
        cube_value=game.cube_value,
        cube_owner=seat_number(game.cube_owner),
        crawford=game.crawford,
        score=tuple(state.score),
        game_number=game.number,
        winner=seat_number(state.winner),
        finished_games=len(state.finished),
    )


def replay_views(rule_set: games_pb2.RuleSet, events: Sequence[games_pb2.GameEvent]) -> list[View]:
    """The view after each prefix of the log: element k is the state after k events.

    :raises AssertionError: if the log does not replay under the rules.
    """
    state = new_match(rules_of(rule_set))
    views = [view_of_state(state)]
    for message in events:
        try:
            state = apply(state, event_of(message))
        except Exception as error:  # noqa: BLE001 - any failure to replay is the finding
            raise AssertionError(f"event {message.sequence} ({message}) does not replay: {error}") from None
        views.append(view_of_state(state))
    return views


def stored_log(
    stub: games_service_pb2_grpc.GamesServiceStub, name: str, *, page_size: int = 64
) -> list[games_pb2.GameEvent]:
    """A game's whole log through ListGameEvents, every page, checked to run 0, 1, 2, ..."""
    events: list[games_pb2.GameEvent] = []
    token = ""
    for _ in range(10_000):
        request = games_pb2.ListGameEventsRequest(name=name, page_size=page_size, page_token=token)
        page = stub.ListGameEvents(request, timeout=RPC_TIMEOUT)
        events.extend(page.events)
        token = page.next_page_token
        if not token:
            break
    else:
        raise AssertionError(f"ListGameEvents of {name} never gave its last page")
    assert [event.sequence for event in events] == list(range(len(events))), (
        f"{name}: the log's sequences have gaps"
    )
    return events


@dataclass
class StoredGame:
    """A game as stored: its log, the view after each prefix of it, and GetGame's answer."""

    name: str
    events: list[games_pb2.GameEvent]
    views: list[View]
    game: games_pb2.Game

    def problem_with(self, event_count: int, view: View, what: str) -> str | None:
        """Why a read or an answer showing ``view`` at ``event_count`` shows what was not stored."""
        if event_count > len(self.events):
            return f"{what}: event_count {event_count} beyond the stored log of {len(self.events)}"
        if view != self.views[event_count]:
            stored = self.views[event_count]
            return f"{what}: at event_count {event_count} showed {view}, the log replays to {stored}"
        return None


def read_stored(
    stub: games_service_pb2_grpc.GamesServiceStub, name: str, *, page_size: int = 64
) -> StoredGame:
    """Read a game (no one acting on it) and check that its log replays to the state GetGame serves."""
    events = stored_log(stub, name, page_size=page_size)
    game = stub.GetGame(games_pb2.GetGameRequest(name=name), timeout=RPC_TIMEOUT).game
    assert game.event_count == len(events), (
        f"{name}: GetGame says {game.event_count} events, the log holds {len(events)}"
    )
    views = replay_views(game.rule_set, events)
    assert view_of_game(game) == views[-1], (
        f"{name}: GetGame serves {view_of_game(game)}, the log replays to {views[-1]}"
    )
    return StoredGame(name, events, views, game)


@dataclass
class Etags:
    """Which etag each (game, event_count) was shown with: one state, one etag."""

    seen: dict[tuple[str, int], str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, name: str, event_count: int, etag: str, what: str) -> None:
        with self.lock:
            earlier = self.seen.setdefault((name, event_count), etag)
            if earlier != etag:
                self.problems.append(
                    f"{what}: {name} at {event_count} had etag {etag!r}, elsewhere {earlier!r}"
                )


# --- patient seats: acting through a server that is killed and restarted ---------------------------

# A client over its quota backs off and retries: the server says which limit it hit.
RETRIED_REASONS = frozenset({"RATE_LIMITED", "TOO_MANY_CALLS"})


def reconnecting_client(address: str, *, timeout: float = RPC_TIMEOUT) -> TavliClient:
    """A client whose channel reconnects within a fraction of a second of a restart (gRPC's
    default backoff grows to minutes), on a subchannel of its own."""
    options = [
        ("grpc.initial_reconnect_backoff_ms", 100),
        ("grpc.min_reconnect_backoff_ms", 100),
        ("grpc.max_reconnect_backoff_ms", 400),
        ("grpc.use_local_subchannel_pool", 1),
    ]
    return TavliClient(grpc.insecure_channel(address, options=options), timeout=timeout)


@dataclass(frozen=True)
class Acknowledged:
    """An action the server acknowledged: what it was and the state its answer showed."""

    name: str
    method: str
    request_id: str
    event_count: int
    etag: str
    view: View


@dataclass
class PatientSeat(Seat):
    """A seat that retries an action the server could not answer (UNAVAILABLE, a deadline, a
    proxy's stream reset) with the same request_id until ``patience`` s have passed, and remembers
    every acknowledged answer."""

    patience: float = 90.0
    acknowledged: list[Acknowledged] = field(default_factory=list)
    retries: int = 0

    def legal_actions(self) -> games_pb2.ListLegalActionsResponse:
        request = games_pb2.ListLegalActionsRequest(name=self.name, seat=self.seat)
        response = self._patiently(self.client.games.ListLegalActions, request)
        self._etag = response.etag
        return response  # type: ignore[no-any-return]

    def game(self) -> games_pb2.Game:
        self.last_seen = self._patiently(
            self.client.games.GetGame, games_pb2.GetGameRequest(name=self.name)
        ).game
        self._etag = self.last_seen.etag
        return self.last_seen

    def _act(self, method: Any, request_type: Any, **fields: Any) -> games_pb2.Game:
        request = request_type(
            name=self.name, seat_token=self.token, etag=self.etag, request_id=str(uuid.uuid4()), **fields
        )
        game = self._patiently(method, request).game
        self.acknowledged.append(
            Acknowledged(
                self.name,
                request_type.DESCRIPTOR.name,
                request.request_id,
                game.event_count,
                game.etag,
                view_of_game(game),
            )
        )
        self.last_seen = game
        self._etag = game.etag
        return game  # type: ignore[no-any-return]

    def _patiently(self, method: Any, request: Any) -> Any:
        deadline = time.monotonic() + self.patience
        # Sent again once the channel is connected, not over and over at a server still down
        # (a hundred seats doing that while it restarts made tens of thousands of calls).
        again = False
        while True:
            try:
                return method(request, timeout=self.client.timeout, wait_for_ready=again)
            except grpc.RpcError as error:
                refusal = refusal_of(error)
                # As the project's client does (a proxy's stream reset too), and past a quota.
                retried = worth_sending_again(error) or refusal.reason in RETRIED_REASONS
                if not retried or time.monotonic() > deadline:
                    raise
                self.retries += 1
                again = True
                time.sleep(0.05 + 0.1 * random.random())


@dataclass
class OneShotSeat(Seat):
    """A seat that sends each action once: the server's answer is what it raises, not the end of
    the client library's own retries (which go on for ten seconds while it hears UNAVAILABLE)."""

    def _act(self, method: Any, request_type: Any, **fields: Any) -> games_pb2.Game:
        request = request_type(
            name=self.name, seat_token=self.token, etag=self.etag, request_id=str(uuid.uuid4()), **fields
        )
        try:
            game = method(request, timeout=self.client.timeout).game
        except grpc.RpcError as error:
            raise TavliServerError.from_rpc_error(error) from None
        self.last_seen = game
        self._etag = game.etag
        return game  # type: ignore[no-any-return]


def random_action(
    seats: Sequence[Seat], game: games_pb2.Game, rng: random.Random, *, resign_rate: float = 0.0
) -> games_pb2.Game:
    """The seat the game waits for makes one of its legal actions, chosen at random (resigning
    now and then, so that games end sooner); returns the game after it."""
    index = 0 if game.to_act[0] == games_pb2.SEAT_0 else 1
    seat = seats[index]
    legal = seat.legal_actions()
    actions = set(legal.actions)
    if games_pb2.ACTION_PLAY in actions:
        return seat.play(rng.choice(legal.plays).notation)
    if games_pb2.ACTION_ACCEPT in actions:
        return seat.accept() if rng.random() < 0.7 else seat.reject()
    if games_pb2.ACTION_TAKE in actions:
        return seat.take() if rng.random() < 0.7 else seat.drop()
    if games_pb2.ACTION_RESIGN in actions and rng.random() < resign_rate:
        nardi = game.rule_set.variant == board_pb2.VARIANT_LONG_NARDI
        return seat.resign(rng.choice(["single", "mars"] if nardi else ["single", "gammon"]))
    if games_pb2.ACTION_DOUBLE in actions and rng.random() < 0.1:
        return seat.double()
    if games_pb2.ACTION_ROLL in actions:
        return seat.roll()
    raise AssertionError(
        f"seat {index} is waited for in phase {game.phase} and may do only {sorted(actions)}"
    )


# --- the watcher crowd: many asyncio streams in a process of their own ------------------------------


async def _crowd(address: str, names: list[str], count: int, channels: int, status: Path) -> None:
    stubs = []
    opened = []
    for _ in range(channels):
        channel = grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        opened.append(channel)
        stubs.append(games_service_pb2_grpc.GamesServiceStub(channel))
    received = [0] * count  # messages each watcher has had
    ended: collections.Counter[str] = collections.Counter()

    async def watch(number: int) -> None:
        call = stubs[number % channels].WatchGame(games_pb2.WatchGameRequest(name=names[number % len(names)]))
        try:
            async for _ in call:
                received[number] += 1
            ended["OK"] += 1
        except grpc.aio.AioRpcError as error:
            ended[error.code().name] += 1

    def write(final: bool) -> None:
        by_name: dict[str, list[int]] = collections.defaultdict(list)
        for number, messages in enumerate(received):
            by_name[names[number % len(names)]].append(messages)
        report = {
            "watchers": count,
            "first_message": sum(1 for messages in received if messages),
            "messages": sum(received),
            "ended": dict(ended),
            "fewest_by_game": {name: min(counts) for name, counts in by_name.items()},
            "final": final,
        }
        partial = status.with_suffix(".part")
        partial.write_text(json.dumps(report))
        partial.replace(status)

    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    tasks = [asyncio.create_task(watch(number)) for number in range(count)]
    while not stopping.is_set():
        write(final=False)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stopping.wait(), 0.2)
    write(final=False)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in opened:
        await channel.close()
    write(final=True)


def crowd(argv: Sequence[str]) -> None:
    """``python -m tests.hostile.campaign crowd --address A --count N --channels C --status FILE NAME...``:
    open N WatchGame streams on C channels, spread over the games named, and keep FILE up to date
    with how many have had their first message; stop on SIGTERM."""
    parser = argparse.ArgumentParser(prog="tests.hostile.campaign crowd")
    parser.add_argument("--address", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--channels", type=int, default=4)
    parser.add_argument("--status", type=Path, required=True)
    parser.add_argument("names", nargs="+")
    arguments = parser.parse_args(argv)
    asyncio.run(
        _crowd(arguments.address, arguments.names, arguments.count, arguments.channels, arguments.status)
    )


@dataclass
class Crowd:
    """A running watcher crowd and the status file it keeps."""

    process: subprocess.Popen[bytes]
    status_file: Path

    def status(self) -> dict[str, Any]:
        try:
            return json.loads(self.status_file.read_text())  # type: ignore[no-any-return]
        except (OSError, ValueError):
            return {}

    def wait_for_first_messages(self, count: int, *, within: float) -> dict[str, Any]:
        """Wait until ``count`` watchers have had their first message (or time runs out); the status."""
        deadline = time.monotonic() + within
        while True:
            status = self.status()
            if status.get("first_message", 0) >= count or time.monotonic() > deadline:
                return status
            assert self.process.poll() is None, f"the watcher crowd exited with {self.process.returncode}"
            time.sleep(0.1)

    def stop(self) -> dict[str, Any]:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        return self.status()


@contextlib.contextmanager
def watcher_crowd(
    address: str, names: Sequence[str], count: int, status_file: Path, *, channels: int = 4
) -> Iterator[Crowd]:
    command = [
        sys.executable, "-m", "tests.hostile.campaign", "crowd", "--address", address, "--count", str(count),
        "--channels", str(channels), "--status", str(status_file), *names,
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    running = Crowd(process, status_file)
    try:
        yield running
    finally:
        running.stop()


# --- figures ------------------------------------------------------------------------------------


class Figures(dict[str, Any]):
    """What a test measured. Written, with whether the test got to its end, as one JSON line to
    ``hostile-figures.jsonl`` in pytest's base temporary directory (and to the file named by the
    environment variable TAVLI_HOSTILE_FIGURES, if set), and printed."""

    def passed(self) -> None:
        """Mark the test as having come through every assertion."""
        self["verdict"] = "pass"


@pytest.fixture(name="figures")
def figures_fixture(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Figures]:
    """The figures of the test that asks for ``figures`` (import this into the test module)."""
    recorded = Figures()
    started = time.monotonic()
    yield recorded
    recorded.setdefault("verdict", "fail (figures pending)")
    recorded["seconds"] = round(time.monotonic() - started, 1)
    line = json.dumps({"test": request.node.nodeid, **recorded}, default=str)
    print(f"\nFIGURES {line}")
    paths = [tmp_path_factory.getbasetemp() / "hostile-figures.jsonl"]
    if os.environ.get("TAVLI_HOSTILE_FIGURES"):
        paths.append(Path(os.environ["TAVLI_HOSTILE_FIGURES"]))
    for path in paths:
        with open(path, "a") as out:
            out.write(line + "\n")


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile of ``samples``."""
    ordered = sorted(samples)
    return ordered[max(1, math.ceil(len(ordered) * fraction)) - 1]


def timed(call: Callable[[], object]) -> tuple[float, grpc.RpcError | None]:
    """How long ``call`` took in ms, and the error it failed with, if any."""
    started = time.perf_counter()
    try:
        call()
    except grpc.RpcError as error:
        return (time.perf_counter() - started) * 1000, error
    return (time.perf_counter() - started) * 1000, None


if __name__ == "__main__":
    if sys.argv[1:2] == ["crowd"]:
        crowd(sys.argv[2:])
    else:
        sys.exit("usage: python -m tests.hostile.campaign crowd ...")
