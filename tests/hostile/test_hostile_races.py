"""Races: both seats of a game act at once without etags, and readers poll and watch meanwhile.

Each round fires a conflicting set of actions at one game at the same moment, each on a channel
of its own (over ``--workers 2``, so on both workers): the seat on roll rolling and doubling while
the other seat takes, the same action four times over, take against drop (and beaver). Whatever
order the server serializes them in, exactly one of each conflicting set wins, the losers are
refused with ABORTED (STALE_ETAG) or FAILED_PRECONDITION and the rules' reason, and afterwards:

- every game's log, read page by page, replays to the state GetGame serves;
- the log holds exactly the winners' actions, each where its answer said (nothing a loser was
  refused for was stored, and every acknowledged answer showed the state its events left);
- no read during the race (GetGame, ListGames, WatchGame) showed a state that the log does not
  replay to at that event count (no unstored dice, no phase that never was stored), and one
  state always came with one etag;
- ListGames answers throughout and lists every game.
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest

from tavli.clients.client import with_finished_games_sent
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2, games_service_pb2_grpc
from tests.hostile.campaign import (
    Etags,
    Figures,
    Refusal,
    Served,
    StoredGame,
    View,
    figures_fixture,  # noqa: F401 - the fixture `figures`
    is_rules_refusal,
    read_stored,
    refusal_of,
    serve,
    stop,
    tracebacks,
    view_of_game,
)
from tests.nginx import nginx_in_front
from tests.postgres import fresh_database
from tests.server_play import RPC_TIMEOUT
from tests.supervision import log_lines

# At least 1,000 rounds on each deployment: one process, two workers, three replicas behind nginx.
ROUNDS_PER_SERVER = int(os.environ.get("TAVLI_RACE_ROUNDS", "1000"))
REPLICA_ROUNDS = 2 * ROUNDS_PER_SERVER  # thousands across replicas, where races meet across processes
TIME_LIMIT = 75.0  # seconds of racing per 1,000 rounds, at most
CHANNELS = (
    24  # the kernel spreads connections over the workers by their ports: 24 all on one is 1 in 8 million
)

BACKGAMMON, LONG_NARDI = board_pb2.VARIANT_BACKGAMMON, board_pb2.VARIANT_LONG_NARDI
CUBE = games_pb2.CUBE_MODE_CUBE
# The games raced at once, one per driver: money play with beavers (take, drop and beaver race),
# plain money, matches with the Crawford rule, long nardi without a cube, forced plays made by the
# server.
RULE_SETS = [
    games_pb2.RuleSet(variant=BACKGAMMON, cube=CUBE, beavers=True, jacoby=True),
    games_pb2.RuleSet(variant=BACKGAMMON, cube=CUBE),
    games_pb2.RuleSet(variant=BACKGAMMON, match_length=5, cube=CUBE),
    games_pb2.RuleSet(variant=LONG_NARDI, match_length=3),
    games_pb2.RuleSet(variant=BACKGAMMON, cube=CUBE, auto_play_forced=True),
    games_pb2.RuleSet(variant=BACKGAMMON, match_length=3, cube=CUBE),
]
# The event each method's winner adds first.
EVENT_OF = {
    "RollDice": {games_pb2.EVENT_KIND_ROLL, games_pb2.EVENT_KIND_OPENING_THROW},
    "PlayMove": {games_pb2.EVENT_KIND_PLAY},
    "OfferDouble": {games_pb2.EVENT_KIND_DOUBLE},
    "TakeDouble": {games_pb2.EVENT_KIND_TAKE},
    "DropDouble": {games_pb2.EVENT_KIND_DROP},
    "BeaverDouble": {games_pb2.EVENT_KIND_BEAVER},
}
SEAT_ENUMS = (games_pb2.SEAT_0, games_pb2.SEAT_1)


@dataclass
class Attempt:
    """One action of a round and what came of it: the answer's game, or the refusal."""

    seat: int
    method: str
    outcome: games_pb2.Game | Refusal | None = None


@dataclass
class Round:
    name: str
    kind: str  # "opening", "roll or double", "roll", "answer", "play"
    base: int  # the event count the round started from
    attempts: list[Attempt]

    def last_answer(self) -> games_pb2.Game | None:
        """The game as the round left it: the answer of its last winner (each game is raced by one
        driver alone, so nothing acts on it between rounds), or None if nothing won."""
        answers = [
            attempt.outcome for attempt in self.attempts if isinstance(attempt.outcome, games_pb2.Game)
        ]
        return max(answers, key=lambda game: game.event_count, default=None)


@dataclass
class Read:
    name: str
    event_count: int
    etag: str
    view: View
    what: str


@dataclass
class Campaign:
    """Drivers racing one game each, pollers and a watcher per game, against one server."""

    address: str
    rounds_wanted: int
    seed: int
    stubs: list[games_service_pb2_grpc.GamesServiceStub] = field(default_factory=list)
    channels: list[grpc.Channel] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    reads: list[Read] = field(default_factory=list)
    watched: dict[str, list[games_pb2.WatchGameResponse]] = field(default_factory=dict)
    watch_calls: list[grpc.RpcError] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    list_games_calls: int = 0
    requests: int = 0
    done: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def time_limit(self) -> float:
        """The most seconds of racing: :data:`TIME_LIMIT` for every 1,000 rounds wanted."""
        return TIME_LIMIT * max(1.0, self.rounds_wanted / 1000)

    def __post_init__(self) -> None:
        for _ in range(CHANNELS):
            channel = grpc.insecure_channel(self.address, options=[("grpc.use_local_subchannel_pool", 1)])
            self.channels.append(channel)
            self.stubs.append(games_service_pb2_grpc.GamesServiceStub(channel))

    def close(self) -> None:
        self.done.set()
        for call in self.watch_calls:
            call.cancel()  # type: ignore[attr-defined]
        for channel in self.channels:
            channel.close()

    def run(self, slots: int) -> float:
        """Race until enough rounds are played or time runs out; the seconds it took."""
        started = time.monotonic()
        threads = [threading.Thread(target=self._drive, args=(slot,), daemon=True) for slot in range(slots)]
        threads += [threading.Thread(target=self._poll, args=(number,), daemon=True) for number in range(2)]
        for thread in threads:
            thread.start()
        deadline = started + self.time_limit
        drivers = threads[:slots]
        while time.monotonic() < deadline and len(self.rounds) < self.rounds_wanted:
            if not any(thread.is_alive() for thread in drivers):
                break
            time.sleep(0.05)
        self.done.set()
        for thread in threads:
            thread.join(timeout=RPC_TIMEOUT * 2)
        for call in self.watch_calls:
            call.cancel()  # type: ignore[attr-defined]
        return time.monotonic() - started

    # --- the players ------------------------------------------------------------------------

    def _drive(self, slot: int) -> None:
        rng = random.Random(self.seed * 100 + slot)
        stub = self.stubs[slot % CHANNELS]
        step, name = "CreateGame", ""
        try:
            name, tokens = self._new_game(stub, RULE_SETS[slot % len(RULE_SETS)])
            game: games_pb2.Game | None = None
            while not self.done.is_set():
                if game is None:
                    step = "GetGame before a round"
                    game = stub.GetGame(games_pb2.GetGameRequest(name=name), timeout=RPC_TIMEOUT).game
                    self._note(name, game, "GetGame before a round")
                if game.phase == games_pb2.PHASE_MATCH_OVER:
                    step = "CreateGame"
                    name, tokens = self._new_game(stub, RULE_SETS[slot % len(RULE_SETS)])
                    game = None
                    continue
                step = f"ListLegalActions before a round in {games_pb2.Phase.Name(game.phase)}"
                played = self._race(slot, name, tokens, game, rng)
                with self.lock:
                    self.rounds.append(played)
                game = played.last_answer()
        except grpc.RpcError as error:
            with self.lock:
                self.failures.append(f"driver {slot}: {step} of {name} failed: {refusal_of(error)}")
        except Exception as error:  # noqa: BLE001 - a driver's failure is reported by the test
            with self.lock:
                self.failures.append(f"driver {slot}: {type(error).__name__}: {error}")

    def _new_game(
        self, stub: games_service_pb2_grpc.GamesServiceStub, rule_set: games_pb2.RuleSet
    ) -> tuple[str, tuple[str, str]]:
        created = stub.CreateGame(
            games_pb2.CreateGameRequest(rule_set=rule_set, request_id=str(uuid.uuid4())), timeout=RPC_TIMEOUT
        )
        name = created.game.name
        with self.lock:
            self.names.append(name)
            self.watched[name] = []
        call = self.stubs[(len(self.names) + 1) % CHANNELS].WatchGame(
            games_pb2.WatchGameRequest(name=name), timeout=self.time_limit + 60
        )
        self.watch_calls.append(call)
        threading.Thread(target=self._watch, args=(name, call), daemon=True).start()
        return name, (created.seat0_token, created.seat1_token)

    def _race(
        self, slot: int, name: str, tokens: tuple[str, str], game: games_pb2.Game, rng: random.Random
    ) -> Round:
        stub = self.stubs[slot % CHANNELS]
        on_turn = 0 if game.turn == games_pb2.SEAT_0 else 1
        other = 1 - on_turn
        notation: dict[int, str] = {}
        if game.phase == games_pb2.PHASE_OPENING:
            kind, plan = "opening", [(0, "RollDice"), (1, "RollDice"), (0, "RollDice"), (1, "RollDice")]
        elif game.phase == games_pb2.PHASE_ROLLING:
            legal = stub.ListLegalActions(
                games_pb2.ListLegalActionsRequest(name=name, seat=SEAT_ENUMS[on_turn]), timeout=RPC_TIMEOUT
            )
            if games_pb2.ACTION_DOUBLE in legal.actions and rng.random() < 0.6:
                kind, plan = (
                    "roll or double",
                    [(on_turn, "RollDice"), (on_turn, "OfferDouble"), (other, "TakeDouble")],
                )
            else:
                kind, plan = "roll", [(on_turn, "RollDice")] * 4
        elif game.phase == games_pb2.PHASE_DOUBLED:
            legal = stub.ListLegalActions(
                games_pb2.ListLegalActionsRequest(name=name, seat=SEAT_ENUMS[other]), timeout=RPC_TIMEOUT
            )
            plan = [(other, "TakeDouble"), (other, "DropDouble")]
            if games_pb2.ACTION_BEAVER in legal.actions:
                plan.append((other, "BeaverDouble"))
            rng.shuffle(plan)
            kind = "answer"
        elif game.phase == games_pb2.PHASE_PLAYING:
            legal = stub.ListLegalActions(
                games_pb2.ListLegalActionsRequest(name=name, seat=SEAT_ENUMS[on_turn]), timeout=RPC_TIMEOUT
            )
            plays = [play.notation for play in legal.plays]
            chosen = (
                rng.sample(plays, 2) if len(plays) > 1 and rng.random() < 0.5 else [rng.choice(plays)] * 2
            )
            kind, plan = "play", [(on_turn, "PlayMove")] * 3
            notation = {0: chosen[0], 1: chosen[1], 2: chosen[0]}
        else:
            raise AssertionError(f"no race is planned for phase {games_pb2.Phase.Name(game.phase)}")
        attempts = [Attempt(seat, method) for seat, method in plan]
        calls = []
        for number, attempt in enumerate(attempts):
            request_type = getattr(games_pb2, f"{attempt.method}Request")
            fields = {"notation": notation[number]} if attempt.method == "PlayMove" else {}
            request = request_type(
                name=name, seat_token=tokens[attempt.seat], request_id=str(uuid.uuid4()), **fields
            )
            method = getattr(self.stubs[(slot + number) % CHANNELS], attempt.method)
            calls.append(method.future(request, timeout=RPC_TIMEOUT))
        for attempt, call in zip(attempts, calls):
            try:
                attempt.outcome = call.result().game
                self._note(name, attempt.outcome, f"the answer to {attempt.method}")
            except grpc.RpcError as error:
                attempt.outcome = refusal_of(error)
        with self.lock:
            self.requests += len(attempts)
        return Round(name, kind, game.event_count, attempts)

    # --- the readers ------------------------------------------------------------------------

    def _note(self, name: str, game: games_pb2.Game, what: str) -> None:
        with self.lock:
            self.reads.append(Read(name, game.event_count, game.etag, view_of_game(game), what))

    def _poll(self, number: int) -> None:
        rng = random.Random(self.seed * 1000 + number)
        polls = 0
        try:
            while not self.done.is_set():
                with self.lock:
                    names = list(self.names)
                if not names:
                    time.sleep(0.01)
                    continue
                stub = rng.choice(self.stubs)
                polls += 1
                if polls % 8 == 0:
                    page = stub.ListGames(games_pb2.ListGamesRequest(page_size=50), timeout=RPC_TIMEOUT)
                    with self.lock:
                        self.list_games_calls += 1
                    for game in page.games:
                        self._note(game.name, game, "ListGames during the race")
                else:
                    name = rng.choice(names[-len(RULE_SETS) * 2 :])
                    game = stub.GetGame(games_pb2.GetGameRequest(name=name), timeout=RPC_TIMEOUT).game
                    self._note(name, game, "GetGame polled during the race")
                time.sleep(0.002)
        except grpc.RpcError as error:
            with self.lock:
                self.failures.append(f"poller {number}: a read failed: {refusal_of(error)}")
        except Exception as error:  # noqa: BLE001
            with self.lock:
                self.failures.append(f"poller {number}: {type(error).__name__}: {error}")

    def _watch(self, name: str, call: grpc.RpcError) -> None:
        try:
            for response in call:  # type: ignore[attr-defined]
                # A message after the first leaves out the finished games the stream sent before.
                if self.watched[name]:
                    with_finished_games_sent(response.game, self.watched[name][-1].game)
                self.watched[name].append(response)
        except grpc.RpcError as error:
            hung_up = (grpc.StatusCode.CANCELLED, grpc.StatusCode.DEADLINE_EXCEEDED)
            if error.code() not in hung_up:  # type: ignore[attr-defined]
                with self.lock:
                    self.failures.append(f"watcher of {name}: {refusal_of(error)}")


def check(campaign: Campaign, stored: dict[str, StoredGame]) -> tuple[list[str], Counter[str]]:
    """Every problem the rounds, the reads and the watches show against the stored logs; and the
    refusals counted by code and reason."""
    problems: list[str] = []
    refused: Counter[str] = Counter()
    by_game: dict[str, list[Round]] = {}
    for played in campaign.rounds:
        by_game.setdefault(played.name, []).append(played)
    for name, rounds in by_game.items():
        log = stored[name]
        for number, played in enumerate(rounds):
            where = f"{name} round {number} ({played.kind}, from event {played.base})"
            winners = []
            for attempt in played.attempts:
                if isinstance(attempt.outcome, games_pb2.Game):
                    winners.append(attempt)
                else:
                    assert isinstance(attempt.outcome, Refusal)
                    refused[f"{attempt.outcome.status.name}/{attempt.outcome.reason}"] += 1
                    if not is_rules_refusal(attempt.outcome):
                        problems.append(
                            f"{where}: {attempt.method} by seat {attempt.seat} refused with {attempt.outcome}"
                        )
            if not winners:
                problems.append(f"{where}: no action won")
                continue
            winners.sort(key=lambda attempt: attempt.outcome.event_count)  # type: ignore[union-attr]
            counts = [attempt.outcome.event_count for attempt in winners]  # type: ignore[union-attr]
            if len(set(counts)) != len(counts):
                problems.append(f"{where}: two winners answered with the same event count {counts}")
            # The log grew by exactly the winners' actions, each where its answer said.
            start = played.base
            first_kinds = []
            for attempt in winners:
                end = attempt.outcome.event_count  # type: ignore[union-attr]
                if end <= start or start >= len(log.events):
                    problems.append(f"{where}: {attempt.method} answered event count {end}, after {start}")
                    break
                first = log.events[start]
                first_kinds.append(first.kind)
                if first.kind not in EVENT_OF[attempt.method] or first.seat != SEAT_ENUMS[attempt.seat]:
                    problems.append(
                        f"{where}: {attempt.method} by seat {attempt.seat} won, but event {start} is "
                        f"{games_pb2.EventKind.Name(first.kind)} by {games_pb2.Seat.Name(first.seat)}"
                    )
                start = end
            following = rounds[number + 1].base if number + 1 < len(rounds) else len(log.events)
            if start != following:
                problems.append(
                    f"{where}: the winners' answers end at event {start}, but the game went on from event "
                    f"{following} (a refused action stored, or an answer not read back)"
                )
            methods = Counter(attempt.method for attempt in winners)
            if played.kind == "opening" and first_kinds.count(games_pb2.EVENT_KIND_OPENING_THROW) != 1:
                problems.append(
                    f"{where}: {first_kinds.count(games_pb2.EVENT_KIND_OPENING_THROW)} opening throws won"
                )
            # A roll whose forced play ends a money game lets the next roll throw the next game's
            # opening: that second winner is no conflict.
            conflicting = len(winners) - (
                first_kinds[1:].count(games_pb2.EVENT_KIND_OPENING_THROW) if played.kind == "roll" else 0
            )
            if played.kind in ("roll", "play", "answer") and conflicting != 1:
                problems.append(
                    f"{where}: {len(winners)} of a conflicting set won, answering event counts {counts}; "
                    f"the log from {played.base}: {_events_text(log, played.base, start + 1)}"
                )
            if played.kind == "roll or double" and methods["RollDice"] and methods["OfferDouble"]:
                order = [attempt.method for attempt in winners]
                if order != ["OfferDouble", "TakeDouble", "RollDice"]:
                    problems.append(f"{where}: both the roll and the double won, in the order {order}")
    etags = Etags()
    for read in campaign.reads:
        problem = stored[read.name].problem_with(read.event_count, read.view, read.what)
        if problem:
            problems.append(problem)
        etags.note(read.name, read.event_count, read.etag, read.what)
    for name, responses in campaign.watched.items():
        log = stored[name]
        sequences = [response.event.sequence for response in responses]
        if sequences != list(range(len(sequences))):
            problems.append(f"watcher of {name}: sequences {sequences[:10]}... not 0, 1, 2, ...")
        for response in responses:
            sequence = response.event.sequence
            if sequence >= len(log.events) or response.event != log.events[sequence]:
                problems.append(f"watcher of {name}: event {sequence} {response.event} is not the stored one")
                continue
            problem = log.problem_with(
                response.game.event_count, view_of_game(response.game), f"watcher of {name}"
            )
            if problem or response.game.event_count != sequence + 1:
                problems.append(
                    problem
                    or f"watcher of {name}: event {sequence} came with a state at {response.game.event_count}"
                )
            etags.note(name, response.game.event_count, response.game.etag, f"watcher of {name}")
    problems.extend(etags.problems)
    return problems, refused


def _events_text(log: StoredGame, start: int, end: int) -> str:
    return "; ".join(
        f"{event.sequence} {games_pb2.EventKind.Name(event.kind).removeprefix('EVENT_KIND_')} "
        f"{games_pb2.Seat.Name(event.seat)} {list(event.dice) or ''}{event.notation}"
        for event in log.events[start:end]
    )


def listed_names(stub: games_service_pb2_grpc.GamesServiceStub) -> set[str]:
    names: set[str] = set()
    token = ""
    for _ in range(1000):
        page = stub.ListGames(games_pb2.ListGamesRequest(page_size=7, page_token=token), timeout=RPC_TIMEOUT)
        names.update(game.name for game in page.games)
        token = page.next_page_token
        if not token:
            return names
    raise AssertionError("ListGames never gave its last page")


@contextlib.contextmanager
def deployment(kind: str, folder: Path, postgres_url: str = "") -> Iterator[tuple[str, list[Served]]]:
    """The address the races go to and the servers behind it: one process or two workers on a
    SQLite file, or three replicas on PostgreSQL behind nginx."""
    if kind != "replicas":
        workers = 2 if kind == "two workers" else 1
        yield "", [serve("--db", str(folder / "games.sqlite3"), log=folder / "serve.log", workers=workers)]
        return
    url = fresh_database(postgres_url)
    key = str(folder / "server.key")
    replicas: list[Served] = []
    try:
        for number in range(3):
            replicas.append(serve("--db", url, "--key-file", key, log=folder / f"replica-{number}.log"))
        with nginx_in_front([replica.address for replica in replicas]) as address:
            yield address, replicas
    except BaseException:
        for replica in replicas:
            stop(replica)
        raise


@pytest.mark.parametrize("kind", ["one process", "two workers", "replicas"])
def test_racing_seats_leave_one_winner_and_a_log_that_replays_to_every_read(
    tmp_path: Path, figures: Figures, kind: str, request: pytest.FixtureRequest
) -> None:
    postgres_url = request.getfixturevalue("postgres_url") if kind == "replicas" else ""
    with deployment(kind, tmp_path, postgres_url) as (address, servers):
        _race(address or servers[0].address, servers, figures, kind)


def _race(address: str, servers: list[Served], figures: Figures, kind: str) -> None:
    wanted = REPLICA_ROUNDS if kind == "replicas" else ROUNDS_PER_SERVER
    campaign = Campaign(address, wanted, seed=len(kind))
    try:
        seconds = campaign.run(slots=len(RULE_SETS))
        stub = campaign.stubs[0]
        stored: dict[str, StoredGame] = {}
        unreadable = []
        for name in campaign.names:
            try:
                stored[name] = read_stored(stub, name, page_size=25)
            except (AssertionError, grpc.RpcError) as error:
                problem = refusal_of(error) if isinstance(error, grpc.RpcError) else error
                unreadable.append(f"{name} cannot be read back whole: {problem}")
        campaign.rounds = [played for played in campaign.rounds if played.name in stored]
        campaign.reads = [read for read in campaign.reads if read.name in stored]
        campaign.watched = {name: watched for name, watched in campaign.watched.items() if name in stored}
        problems, refused = check(campaign, stored)
        problems = campaign.failures + unreadable + problems
        try:
            listed = listed_names(stub)
        except grpc.RpcError as error:
            listed = set()
            problems.append(f"ListGames after the race failed: {refusal_of(error)}")
    finally:
        campaign.close()
        statuses = [stop(server) for server in servers]
    logs = [server.log for server in servers]
    winners = sum(isinstance(a.outcome, games_pb2.Game) for r in campaign.rounds for a in r.attempts)
    figures.update(
        deployment=kind,
        races=len(campaign.rounds),
        requests_racing=campaign.requests,
        winners=winners,
        refusals=dict(refused),
        rounds_by_kind=dict(Counter(r.kind for r in campaign.rounds)),
        reads_checked=len(campaign.reads),
        watch_messages_checked=sum(len(m) for m in campaign.watched.values()),
        list_games_calls=campaign.list_games_calls,
        games=len(campaign.names),
        events_stored=sum(len(s.events) for s in stored.values()),
        race_seconds=round(seconds, 1),
        problems=len(problems),
        first_problems=problems[:5],
    )
    assert not problems, f"{len(problems)} problems, the first: " + "\n".join(problems[:10])
    assert len(campaign.rounds) >= wanted, (
        f"only {len(campaign.rounds)} of {wanted} rounds in {campaign.time_limit} s"
    )
    assert set(campaign.names) <= listed, f"ListGames leaves out {len(set(campaign.names) - listed)} games"
    found = [trace for log in logs for trace in tracebacks(log)]
    assert not found, f"{len(found)} tracebacks in the servers' logs: {found[:3]}"
    assert statuses == [0] * len(servers), f"the servers exited with {statuses} on SIGTERM"
    if kind == "two workers":
        served_by = {
            line.get("worker") for line in log_lines(logs[0]) if "GamesService" in str(line.get("method", ""))
        }
        assert len(served_by - {None}) == 2, "the races did not reach both workers"
    if kind == "replicas":
        serving = [
            any("GamesService" in str(line.get("method", "")) for line in log_lines(log)) for log in logs
        ]
        assert all(serving), "the races did not reach every replica"
    figures.passed()
