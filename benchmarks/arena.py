"""``tavli arena`` over PlaySeat streams against the same arena over unary calls, in the same run.

    .venv/bin/python -m benchmarks.arena [--games 40] [--parallel 2] [--rounds 2] [--profile]

Starts one ``tavli serve --host 127.0.0.1 --port P --db :memory:`` subprocess (as
``benchmarks.load`` starts it: logs to /dev/null, still formatted, seeded dice allowed, no
per-client quota in the way) and stops it at the end. Then, at each ``--parallel`` (games played
at once, ``ArenaConfig.parallel``), ``run_arena`` with ``transport="stream"`` and with
``transport="unary"`` take turns, ``--rounds`` each, the first of the two alternating from round
to round: ``--games`` one-point backgammon games (no cube) between two random bots, on the same
seeded dice and bot seeds every time, so that every round plays the same games.

- ``stream``: each seat on a PlaySeat stream of its own (a thread a seat): the server sends every
  state with its legal actions and plays, the bot answers on the stream;
- ``unary``: the two seats take turns on one thread over the unary RPCs (RollDice, PlayMove), the
  plays listed with the engine in the client.

Prints the machine (nproc, the CPU model), a table of every round (games per second, the server's
CPU time a game from /proc, this process's), each transport's fastest and slowest round, and the
ratio stream / unary of games per second, from the fastest rounds and round by round (target >= 3x).
``--profile`` then samples the server and this process with py-spy (``--gil``) during one more
round of each transport at the first ``--parallel`` and prints where the time goes (the raw
samples stay in a temporary folder, its path printed; without ``--profile`` the folder is removed).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from benchmarks import hot_path
from benchmarks.load import LOOPBACK, cpu_seconds, free_port, start_server, stop_server, wait_until_serving

TRANSPORTS: tuple[Literal["stream"], Literal["unary"]] = ("stream", "unary")
SEED = 20261201


@dataclass
class Round:
    transport: str
    parallel: int
    seconds: float
    games: int
    server_cpu: float  # seconds
    client_cpu: float  # seconds, this process
    wins: tuple[int, int]  # bot A's and bot B's: the same games give the same tallies

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def machine() -> str:
    model = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return f"nproc {os.cpu_count()}, {model}"


def play(
    address: str, transport: Literal["stream", "unary"], parallel: int, games: int, server_pid: int
) -> Round:
    from tavli.clients.arena_command import ArenaConfig, run_arena
    from tavli.clients.client import TavliClient

    config = ArenaConfig(
        variant="backgammon",
        bots=("random", "random"),
        games=games,
        match_length=1,
        seed=SEED,
        parallel=parallel,
        transport=transport,
    )
    with TavliClient.connect(address) as client:
        server_before, client_before = cpu_seconds(server_pid), time.process_time()
        results = run_arena(client, config)
        server_after, client_after = cpu_seconds(server_pid), time.process_time()
    wins = tuple(tally.wins for tally in results.tallies.values())
    return Round(
        transport,
        parallel,
        results.seconds,
        games,
        server_after - server_before,
        client_after - client_before,
        (wins[0], wins[1]),
    )


def profile(
    address: str,
    transport: Literal["stream", "unary"],
    parallel: int,
    games: int,
    server_pid: int,
    folder: Path,
) -> list[str]:
    """One more round of ``transport``, the server and this process sampled by py-spy meanwhile."""
    seconds = max(2.0, games / 10)  # py-spy records for a whole number of seconds; the round may outlast it
    outputs = {
        "server": folder / f"server-{transport}.txt",
        "client (this process)": folder / f"client-{transport}.txt",
    }
    recorders = [
        hot_path.start_recording(pid, seconds, output)
        for pid, output in zip((server_pid, os.getpid()), outputs.values())
    ]
    played = play(address, transport, parallel, games, server_pid)
    for recorder in recorders:
        recorder.wait(timeout=seconds + 30)
    lines = [f"\n=== {transport}, parallel {parallel}: {played.games_per_second:.1f} games/s while sampled"]
    for who, output in outputs.items():
        lines.append(f"--- {who}, the first {seconds:.0f} s (py-spy --gil, raw samples: {output})")
        lines.extend(hot_path.summarize(output, top=18) if output.exists() else ["  (py-spy wrote nothing)"])
    return lines


def report(rounds: list[Round]) -> None:
    print(
        f"\n{'transport':<9} {'parallel':>8} {'games':>5} {'secs':>6} {'games/s':>8}"
        f" {'server CPU ms/game':>18} {'client CPU ms/game':>18} {'wins A-B':>8}"
    )
    for r in rounds:
        print(
            f"{r.transport:<9} {r.parallel:>8} {r.games:>5} {r.seconds:>6.2f} {r.games_per_second:>8.2f}"
            f" {r.server_cpu / r.games * 1000:>18.1f} {r.client_cpu / r.games * 1000:>18.1f}"
            f" {r.wins[0]:>4}-{r.wins[1]}"
        )
    print(
        "\n(client CPU: this process, which runs both bots and every seat; the same games in every round"
        " when the wins agree)"
    )
    print("\nratios (same run; speed = games/s over the baseline's)")
    for parallel in sorted({r.parallel for r in rounds}):
        by = {t: [r for r in rounds if r.parallel == parallel and r.transport == t] for t in TRANSPORTS}
        for transport, own in by.items():
            rates = [r.games_per_second for r in own]
            print(f"{transport} at parallel {parallel}: {min(rates):.2f}-{max(rates):.2f} games/s")
        best = max(r.games_per_second for r in by["stream"]) / max(r.games_per_second for r in by["unary"])
        paired = [s.games_per_second / u.games_per_second for s, u in zip(by["stream"], by["unary"])]
        same = len({r.wins for r in by["stream"] + by["unary"]}) == 1
        print(
            f"stream vs unary at parallel {parallel}: {best:.2f}x the speed (fastest rounds;"
            f" {min(paired):.2f}-{max(paired):.2f}x round by round)   [target >= 3x]"
            f"{'' if same else '   (the rounds did not all play the same games)'}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="one-point games a round (default 40)")
    parser.add_argument("--parallel", type=int, nargs="+", default=[2], help="games at once (default 2)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each transport, in turn (default 2)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="then sample the server and this process with py-spy during a round of each",
    )
    arguments = parser.parse_args()

    print(machine())
    folder = Path(tempfile.mkdtemp(prefix="tavli-arena-"))
    port = free_port()
    address = f"{LOOPBACK}:{port}"
    server = start_server(port, 1, folder)
    print(
        f"server: tavli serve subprocess, pid {server.pid}, {address}, --db :memory:;"
        f" {arguments.games} one-point backgammon games a round, random vs random"
    )
    rounds: list[Round] = []
    profiles: list[str] = []
    try:
        wait_until_serving(port, server)
        for transport in TRANSPORTS:  # warm both ways: imports, connections, the server's caches
            play(address, transport, max(arguments.parallel), min(arguments.games, 4), server.pid)
        for parallel in arguments.parallel:
            for round_ in range(arguments.rounds):
                order = TRANSPORTS if round_ % 2 == 0 else TRANSPORTS[::-1]
                for transport in order:
                    rounds.append(played := play(address, transport, parallel, arguments.games, server.pid))
                    print(
                        f"  {transport} at parallel {parallel}: {played.games_per_second:.2f} games/s",
                        flush=True,
                    )
        if arguments.profile:
            for transport in TRANSPORTS:
                profiles += profile(
                    address, transport, arguments.parallel[0], arguments.games, server.pid, folder
                )
    finally:
        stop_server(server)
        if not arguments.profile:  # a profile's raw samples stay for reading; the paths are printed
            shutil.rmtree(folder, ignore_errors=True)
    report(rounds)
    print("\n".join(profiles))


if __name__ == "__main__":
    main()
