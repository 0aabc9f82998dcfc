"""Whole games for a bot without an engine: actions per second over PlaySeat streams against the
same games over unary calls, in the same run.

    .venv/bin/python -m benchmarks.seats [--seconds 6] [--games 16] [--processes 2] [--rounds 3]
                                         [--profile]

Starts ``tavli serve --host 127.0.0.1 --port P --db :memory:`` as ``benchmarks.load`` starts it
(logs to /dev/null, still formatted; seeded dice allowed; no per-client quota in the way) and stops
it at the end. The bot knows no rules: what it may do, and every legal play, it asks the server,
and it picks a play at random. Two transports take turns, ``--rounds`` each, the first of the two
alternating from round to round; each round keeps ``--games`` one-point backgammon games (no cube)
going at once for ``--seconds``, spread over ``--processes`` client processes (grpc.aio, one
channel each), a new game started as each one ends:

- ``unary``: one coroutine a game plays both seats in turn, as ``benchmarks.load``'s games do:
  RollDice (the opening throw by seat 0), then on each turn ListLegalActions for the plays and
  PlayMove, each action's answer carrying the game on: the cheapest way a client can play over
  unary calls (it neither watches the game nor polls it);
- ``stream``: each seat a coroutine on a PlaySeat stream of its own: the server sends every state
  with the seat's legal actions and plays, and the seat answers with its action on the stream.

An action is a RollDice or a PlayMove the server made (an opening throw, a roll, a play); both
transports make the same kinds. Prints a table of every round (actions per second, the server's
and the client processes' CPU time an action), each transport's best, and stream / unary from
the best rounds and round by round (target >= 2x). ``--profile`` then samples the server with
py-spy (``--gil``) during one more round of each transport and prints where its time goes.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from benchmarks import hot_path
from benchmarks.load import LOOPBACK, free_port, run_clients, start_server, stop_server, wait_until_serving

Transport = Literal["unary", "stream"]
TRANSPORTS: tuple[Transport, Transport] = ("unary", "stream")
RPC_TIMEOUT = 30.0
START_DELAY = 3.0  # spawned interpreters need a moment to import grpc and connect


@dataclass
class Outcome:
    """What one client process measured."""

    started: float = 0.0
    finished: float = 0.0
    actions: int = 0
    games: int = 0  # finished within the round
    cpu: float = 0.0  # seconds of this client process's CPU time within the round
    errors: list[str] = field(default_factory=list)


@dataclass
class Round:
    transport: Transport
    seconds: float
    actions: int
    games: int
    server_cpu: float  # seconds
    client_cpu: float  # seconds, every client process's
    errors: list[str]

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


# --- the bots ------------------------------------------------------------------------------------


def _new_game_request() -> Any:
    from tavli.v1 import games_service_pb2 as pb

    return pb.CreateGameRequest(
        rule_set=pb.RuleSet(variant=1, match_length=1, cube=pb.CUBE_MODE_NO_CUBE),
        dice_mode=pb.DICE_MODE_SEEDED,
        dice_seed=uuid.uuid4().hex,
        request_id=str(uuid.uuid4()),
    )


async def unary_game(games: Any, rng: random.Random, outcome: Outcome, stop: float) -> None:
    """One game, both seats in turn on this coroutine, until it ends or ``stop``."""
    from tavli.v1 import games_service_pb2 as pb

    created = await games.CreateGame(_new_game_request(), timeout=RPC_TIMEOUT)
    tokens = {pb.SEAT_0: created.seat0_token, pb.SEAT_1: created.seat1_token}
    game = created.game
    while game.phase != pb.PHASE_MATCH_OVER:
        if time.time() >= stop:
            return
        seat = pb.SEAT_0 if game.phase == pb.PHASE_OPENING else game.turn
        common = {"name": game.name, "seat_token": tokens[seat], "request_id": str(uuid.uuid4())}
        if game.phase in (pb.PHASE_OPENING, pb.PHASE_ROLLING):
            request = pb.RollDiceRequest(etag=game.etag, **common)
            game = (await games.RollDice(request, timeout=RPC_TIMEOUT)).game
        else:
            listed = await games.ListLegalActions(
                pb.ListLegalActionsRequest(name=game.name, seat=seat), timeout=RPC_TIMEOUT
            )
            play = pb.PlayMoveRequest(etag=listed.etag, notation=rng.choice(listed.plays).notation, **common)
            game = (await games.PlayMove(play, timeout=RPC_TIMEOUT)).game
        outcome.actions += 1
    outcome.games += 1


async def stream_game(games: Any, rng: random.Random, outcome: Outcome, stop: float) -> None:
    """One game, each seat on a PlaySeat stream of its own, until it ends or ``stop``."""
    from tavli.v1 import games_service_pb2 as pb

    created = await games.CreateGame(_new_game_request(), timeout=RPC_TIMEOUT)
    seats = ((pb.SEAT_0, created.seat0_token), (pb.SEAT_1, created.seat1_token))
    both = asyncio.gather(
        *(_stream_seat(games, created.game.name, seat, token, rng, outcome) for seat, token in seats)
    )
    try:  # a seat waits for its opponent's moves: at ``stop`` both are called off
        await asyncio.wait_for(both, timeout=max(0.0, stop - time.time()))
    except TimeoutError:
        return
    outcome.games += 1


async def _stream_seat(
    games: Any, name: str, seat: int, token: str, rng: random.Random, outcome: Outcome
) -> None:
    """One seat on its stream until the match is over: acts on each view that asks it to roll or
    play (at the opening, seat 0 throws), one action in flight at a time, written to the call as
    grpc.aio lets a client write (no queue, no request iterator for grpc to drain in a task of its
    own)."""
    import grpc.aio

    from tavli.v1 import games_service_pb2 as pb

    call = games.PlaySeat(timeout=RPC_TIMEOUT * 10)  # written to directly: no request iterator
    await call.write(pb.PlaySeatRequest(join=pb.JoinSeat(name=name, seat_token=token)))
    waiting = False  # for the answer to the action sent
    acted_on = ""  # the etag of the state acted on last: a view of it may come again
    try:
        while (response := await call.read()) is not grpc.aio.EOF:
            if response.HasField("answer"):
                waiting = False
                if response.answer.HasField("refusal"):
                    raise RuntimeError(f"an action was refused: {response.answer.refusal.message}")
                outcome.actions += 1
            view = response.game
            if view.phase == pb.PHASE_MATCH_OVER:
                return
            actions = response.legal_actions.actions
            etag = response.legal_actions.etag
            if waiting or etag == acted_on or (view.phase == pb.PHASE_OPENING and seat != pb.SEAT_0):
                continue
            if pb.ACTION_ROLL in actions:
                action = pb.SeatAction(roll=pb.SeatAction.RollDice())
            elif pb.ACTION_PLAY in actions:
                notation = rng.choice(response.legal_actions.plays).notation
                action = pb.SeatAction(play=pb.SeatAction.PlayMove(notation=notation))
            else:
                continue
            action.etag = acted_on = etag
            action.request_id = str(uuid.uuid4())
            await call.write(pb.PlaySeatRequest(action=action))
            waiting = True
        raise RuntimeError("the stream ended before the match")
    finally:
        call.cancel()


# --- a round -------------------------------------------------------------------------------------


def client_process(
    transport: Transport, port: int, games: int, seed: int, start_at: float, seconds: float, results: Any
) -> None:
    """``games`` games at a time on one channel from ``start_at`` (wall clock) for ``seconds``;
    puts an :class:`Outcome`."""
    try:
        outcome = asyncio.run(_client(transport, port, games, seed, start_at, seconds))
    except Exception as error:  # noqa: BLE001  (report it rather than leave the parent waiting)
        outcome = Outcome(errors=[f"{type(error).__name__}: {error}"])
    results.put(outcome)


async def _client(
    transport: Transport, port: int, games: int, seed: int, start_at: float, seconds: float
) -> Outcome:
    import grpc

    from tavli.v1 import games_service_pb2_grpc

    game = unary_game if transport == "unary" else stream_game
    outcome = Outcome()
    async with grpc.aio.insecure_channel(f"{LOOPBACK}:{port}") as channel:
        stub = games_service_pb2_grpc.GamesServiceStub(channel)
        await game(stub, random.Random(seed), Outcome(), time.time() + 0.5)  # warm the channel
        await asyncio.sleep(max(0.0, start_at - time.time()))
        outcome.started = time.time()
        cpu_before = time.process_time()
        stop = outcome.started + seconds

        async def games_in_turn(number: int) -> None:
            rng = random.Random(seed * 1000 + number)
            while time.time() < stop and len(outcome.errors) < 20:
                try:
                    await game(stub, rng, outcome, stop)
                except grpc.aio.AioRpcError as error:
                    outcome.errors.append(f"{error.code().name}: {error.details()}")
                except RuntimeError as error:
                    outcome.errors.append(str(error))

        await asyncio.gather(*(games_in_turn(number) for number in range(games)))
        outcome.finished = time.time()
        outcome.cpu = time.process_time() - cpu_before
    return outcome


def measure(
    transport: Transport,
    *,
    port: int,
    server_pid: int,
    games: int,
    processes: int,
    seconds: float,
    seed: int,
    profile: Path | None = None,
) -> Round:
    context = multiprocessing.get_context("spawn")  # no grpc state inherited through fork
    results = context.Queue()
    start_at = time.time() + START_DELAY
    shares = [games // processes + (index < games % processes) for index in range(processes)]
    workers = [
        context.Process(
            target=client_process,
            args=(transport, port, share, seed * 100 + index, start_at, seconds, results),
        )
        for index, share in enumerate(shares)
        if share
    ]
    outcomes, server_cpu, window = run_clients(
        workers,
        results,
        start_at=start_at,
        seconds=seconds,
        server_pid=server_pid,
        profile=profile,
        answer_within=120.0,
    )
    return Round(
        transport=transport,
        seconds=window,
        actions=sum(o.actions for o in outcomes),
        games=sum(o.games for o in outcomes),
        server_cpu=server_cpu,
        client_cpu=sum(o.cpu for o in outcomes),
        errors=[error for o in outcomes for error in o.errors],
    )


# --- the report ----------------------------------------------------------------------------------


def report(rounds: list[Round]) -> None:
    print(
        f"{'transport':<10} {'actions':>8} {'actions/s':>10} {'games':>6} {'server ms/action':>17}"
        f" {'clients ms/action':>18}  errors"
    )
    for round_ in rounds:
        server, clients = (
            (1000 * cpu / round_.actions if round_.actions else float("nan"))
            for cpu in (round_.server_cpu, round_.client_cpu)
        )
        errors = f"{len(round_.errors)}: {round_.errors[0]}" if round_.errors else ""
        print(
            f"{round_.transport:<10} {round_.actions:>8} {round_.actions_per_second:>10.1f} {round_.games:>6}"
            f" {server:>17.2f} {clients:>18.2f}  {errors}"
        )
    best = {
        transport: max(r.actions_per_second for r in rounds if r.transport == transport)
        for transport in TRANSPORTS
    }
    print(
        f"\nbest rounds: unary {best['unary']:.1f} actions/s, stream {best['stream']:.1f}:"
        f" stream / unary {best['stream'] / best['unary']:.2f}x (target >= 2x)"
    )
    pairs = zip(
        [r for r in rounds if r.transport == "unary"],
        [r for r in rounds if r.transport == "stream"],
        strict=False,
    )
    ratios = [stream.actions_per_second / unary.actions_per_second for unary, stream in pairs]
    print("round by round: " + ", ".join(f"{ratio:.2f}x" for ratio in ratios))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--games", type=int, default=16, help="games played at once")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    arguments = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, 1, Path(folder))
        try:
            wait_until_serving(port, server)
            common = {
                "port": port,
                "server_pid": server.pid,
                "games": arguments.games,
                "processes": arguments.processes,
                "seconds": arguments.seconds,
            }
            rounds = []
            for number in range(arguments.rounds):
                order = TRANSPORTS if number % 2 == 0 else TRANSPORTS[::-1]
                for transport in order:
                    rounds.append(measure(transport, seed=number, **common))  # type: ignore[arg-type]
            report(rounds)
            if arguments.profile:
                for transport in TRANSPORTS:
                    raw = Path(folder) / f"{transport}.txt"
                    measure(transport, seed=arguments.rounds, profile=raw, **common)  # type: ignore[arg-type]
                    print(f"\nserver, {transport}:")
                    print("\n".join(hot_path.summarize(raw)))
        finally:
            stop_server(server)


if __name__ == "__main__":
    main()
