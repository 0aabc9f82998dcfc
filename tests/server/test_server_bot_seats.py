"""A computer seat that never leaves: a seat given to one of the server's bots is the game's, so the
bot plays on after the process that seated it dies (`tavli serve` killed and started again, a
worker killed, a replica behind nginx killed), one action per decision, never two.

Every process started here is stopped, and every wait has a bound.
"""

from __future__ import annotations

import itertools
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

import grpc
import psycopg
import pytest

from tavli.clients import bots
from tavli.clients.client import Seat, TavliClient, TavliServerError
from tavli.clients.seat_driver import SeatDriver
from tavli.server.postgres_store import PostgresStore
from tavli.server.quotas import QuotaLimits
from tavli.server.store import BotSeat, GameRecord
from tavli.v1 import (
    bots_service_pb2 as pb,
    bots_service_pb2_grpc,
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
)
from tests.nginx import nginx_available, nginx_in_front
from tests.postgres import fresh_database
from tests.server_play import (
    RPC_TIMEOUT,
    ServeProcess,
    all_events,
    as_web_client,
    connected,
    running_server,
    stop_process,
    tavli_serve,
)
from tests.supervision import logged, supervised, wait_for

WAIT_SECONDS = 90.0
BOT_SEAT = games_pb2.SEAT_1
ROLLING = games_pb2.PHASE_ROLLING


def bots_of(client: TavliClient) -> bots_service_pb2_grpc.BotsServiceStub:
    return bots_service_pb2_grpc.BotsServiceStub(client.channel)


def new_game_against_the_computer(client: TavliClient) -> Seat:
    """A 1-point match whose seat 1 the server's heuristic bot plays; returns seat 0's."""
    mine, theirs = client.create_game(match_length=1, players=("Ann", "Computer"))
    seated = bots_of(client).SeatBot(
        pb.SeatBotRequest(name=mine.name, seat_token=theirs.token, bot="heuristic")
    )
    assert (seated.seat, seated.bot) == (BOT_SEAT, "heuristic")
    return mine


class Opponent:
    """Seat 0, played by a random bot over unary calls: it acts on its turns and watches for the
    computer's move meanwhile, through a server that may be down for a while."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.driver = SeatDriver(seat, bots.create("random", seed=5))

    def play(self, until: Callable[[games_pb2.Game], bool], within: float = WAIT_SECONDS) -> games_pb2.Game:
        """Play until ``until(game)`` or the match is over; returns the game then."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            try:
                game = self.seat.game()
                if until(game) or game.phase == games_pb2.PHASE_MATCH_OVER:
                    return game
                if self.driver.act(game) is None:
                    self._wait_for_a_move(game)  # the computer's turn
            except TavliServerError as error:
                if error.status not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                    raise
                time.sleep(0.2)  # the server is down or starting: its clients try again
        raise AssertionError(f"{self.seat.name}: the game did not get there within {within} s")

    def _wait_for_a_move(self, game: games_pb2.Game) -> None:
        """Until the game has an event past ``game`` (watched, not polled), the server is found
        down, or a second has passed: then the game is read again."""
        request = games_pb2.WatchGameRequest(name=self.seat.name, from_sequence=game.event_count)
        watch = self.seat.client.games.WatchGame(request, timeout=1.0)
        try:
            next(watch, None)
        except grpc.RpcError as error:
            if error.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
                raise
        finally:
            watch.cancel()


def bot_plays(events: list[games_pb2.GameEvent], after: int = 0) -> int:
    return sum(
        1 for event in events[after:] if event.seat == BOT_SEAT and event.kind == games_pb2.EVENT_KIND_PLAY
    )


def computer_has_played(client: TavliClient, name: str, times: int) -> Callable[[games_pb2.Game], bool]:
    """Whether the computer has played ``times`` times in the game as last read: its log is read
    again only when the game has moved, not on every look while the computer thinks."""
    read_at, plays = -1, 0

    def played(game: games_pb2.Game) -> bool:
        nonlocal read_at, plays
        if game.event_count != read_at:
            read_at, plays = game.event_count, bot_plays(all_events(client, name))
        return plays >= times

    return played


def assert_one_action_per_decision(events: list[games_pb2.GameEvent]) -> None:
    """The stored log in order, and the bot's seat acting once per decision: each of its plays
    right after the throw it plays, each of its throws after something else than its own throw."""
    assert [event.sequence for event in events] == list(range(len(events)))
    for before, event in itertools.pairwise(events):
        if event.seat != BOT_SEAT:
            continue
        if event.kind == games_pb2.EVENT_KIND_PLAY:
            assert before.kind == games_pb2.EVENT_KIND_OPENING_THROW or (
                before.kind == games_pb2.EVENT_KIND_ROLL and before.seat == BOT_SEAT
            ), f"bot play {event.sequence} does not follow its throw"
        if event.kind == games_pb2.EVENT_KIND_ROLL:
            assert not (before.kind == event.kind and before.seat == BOT_SEAT), (
                f"bot threw twice at {event.sequence}"
            )


def assert_the_seat_names_its_bot(client: TavliClient, name: str) -> None:
    answer = bots_of(client).GetSeatBot(pb.GetSeatBotRequest(name=name, seat=BOT_SEAT), timeout=RPC_TIMEOUT)
    assert (answer.seat, answer.bot) == (BOT_SEAT, "heuristic")
    assert answer.description and answer.seat_time.seconds > 0
    person = bots_of(client).GetSeatBot(
        pb.GetSeatBotRequest(name=name, seat=games_pb2.SEAT_0), timeout=RPC_TIMEOUT
    )
    assert (person.seat, person.bot) == (games_pb2.SEAT_0, "")


def play_on_after(
    kill: Callable[[], None], client: TavliClient, opponent: Opponent
) -> list[games_pb2.GameEvent]:
    """Play until the computer has played twice, ``kill()`` the process that plays it, and play
    the match out; returns the stored log, checked."""
    name = opponent.seat.name
    opponent.play(until=computer_has_played(client, name, 2))
    killed_at = len(all_events(client, name))
    kill()
    final = opponent.play(until=lambda game: False)
    assert final.phase == games_pb2.PHASE_MATCH_OVER
    events = all_events(client, name)
    assert bot_plays(events, after=killed_at) >= 1, "the computer never played after its process was killed"
    assert_one_action_per_decision(events)
    assert_the_seat_names_its_bot(client, name)
    return events


# --- a server killed and started again --------------------------------------------------------------


def test_the_computer_plays_on_after_the_server_is_killed_and_started_again(tmp_path: Path) -> None:
    database = str(tmp_path / "games.sqlite3")
    served = tavli_serve("--db", database, "--log-json", stderr=tmp_path / "first.log")
    try:
        with TavliClient.connect(served.address, timeout=RPC_TIMEOUT) as client:
            opponent = Opponent(new_game_against_the_computer(client))

            def kill_and_start_again() -> None:
                nonlocal served
                stop_process(served.process)  # SIGKILL: no chance to let go of the seat
                served = tavli_serve(
                    "--db", database, "--log-json", port=served.port, stderr=tmp_path / "second.log"
                )

            play_on_after(kill_and_start_again, client, opponent)
        taken_up = logged(tmp_path / "second.log", "bot taken up")
        assert [line["game"] for line in taken_up] == [opponent.seat.name]
    finally:
        stop_process(served.process)


def test_a_server_stopped_gracefully_hands_its_bots_on_at_once(tmp_path: Path) -> None:
    database = str(tmp_path / "games.sqlite3")
    served = tavli_serve("--db", database, "--log-json", stderr=tmp_path / "first.log")
    try:
        with TavliClient.connect(served.address, timeout=RPC_TIMEOUT) as client:
            opponent = Opponent(new_game_against_the_computer(client))

            def stop_and_start_again() -> None:
                nonlocal served
                served.process.send_signal(signal.SIGTERM)
                assert served.process.wait(timeout=WAIT_SECONDS) == 0
                served = tavli_serve(
                    "--db", database, "--log-json", port=served.port, stderr=tmp_path / "second.log"
                )

            play_on_after(stop_and_start_again, client, opponent)
    finally:
        stop_process(served.process)


# --- workers -----------------------------------------------------------------------------------------


def test_the_computer_plays_on_after_the_worker_playing_it_is_killed(tmp_path: Path) -> None:
    with supervised(tmp_path, workers=2) as (served, log):
        with TavliClient.connect(served.address, timeout=RPC_TIMEOUT) as client:
            opponent = Opponent(new_game_against_the_computer(client))
            (seated,) = logged(log, "bot seated")
            host = int(str(seated["worker"]))

            def kill_the_host() -> None:
                os.kill(host, signal.SIGKILL)

            play_on_after(kill_the_host, client, opponent)
        taken_up = wait_for("the bot taken up", lambda: logged(log, "bot taken up"))
        assert {line["game"] for line in taken_up} == {opponent.seat.name}
        assert all(line["worker"] != host for line in taken_up)


# --- replicas behind nginx ---------------------------------------------------------------------------


def test_the_computer_plays_on_when_the_replica_playing_it_dies(postgres_url: str, tmp_path: Path) -> None:
    if not nginx_available():
        pytest.fail("nginx is needed: install Debian's nginx package (./run test does, as root)")
    url = fresh_database(postgres_url)
    key = str(tmp_path / "server.key")
    logs = [tmp_path / f"replica-{number}.log" for number in range(3)]
    served: list[ServeProcess] = []
    try:
        for log in logs:  # each started inside the try: one that fails to start stops the others
            served.append(tavli_serve("--db", url, "--key-file", key, "--log-json", stderr=log))
        with nginx_in_front([server.address for server in served]) as address:
            client = TavliClient(grpc.insecure_channel(address), timeout=RPC_TIMEOUT)
            try:
                opponent = Opponent(new_game_against_the_computer(client))
                (host,) = [number for number, log in enumerate(logs) if logged(log, "bot seated")]
                play_on_after(lambda: stop_process(served[host].process), client, opponent)
            finally:
                client.close()
        taken_up = [number for number, log in enumerate(logs) if logged(log, "bot taken up")]
        assert taken_up and host not in taken_up
    finally:
        for server in served:
            stop_process(server.process)


# --- a bot kept waiting ------------------------------------------------------------------------------


def bot_threads(name: str) -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == f"bot-{name}-1"]


def test_a_bot_kept_waiting_leaves_the_table_and_answers_when_its_opponent_acts() -> None:
    with running_server(bot_patience_seconds=0.5) as running, connected(running.port) as client:
        seat = new_game_against_the_computer(client)
        opponent = Opponent(seat)
        waiting = opponent.play(until=lambda game: game.turn == games_pb2.SEAT_0 and game.phase == ROLLING)
        wait_for("the bot off the table", lambda: not bot_threads(seat.name), within=WAIT_SECONDS)
        assert_the_seat_names_its_bot(client, seat.name)  # still the bot's seat meanwhile
        seat.observe(waiting)
        rolled = seat.roll()
        opponent.play(
            until=lambda game: game.turn == games_pb2.SEAT_0 and game.event_count > rolled.event_count + 1
        )
        assert bot_plays(all_events(client, seat.name), after=rolled.event_count) >= 1


def test_a_finished_match_keeps_its_bot_named_and_takes_no_bot_up_again() -> None:
    with running_server() as running, connected(running.port) as client:
        seat = new_game_against_the_computer(client)
        final = Opponent(seat).play(until=lambda game: False)
        assert final.phase == games_pb2.PHASE_MATCH_OVER
        wait_for("the bot gone", lambda: not bot_threads(seat.name), within=WAIT_SECONDS)
        assert_the_seat_names_its_bot(client, seat.name)
        assert running.store.bot_seats_to_take(time.time() + 3600, 10) == []


def test_the_seat_of_a_game_kept_in_a_file_is_read_back_by_the_next_server(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as running, connected(running.port) as client:
        name = new_game_against_the_computer(client).name
    with running_server(db=database) as running, connected(running.port) as client:
        assert_the_seat_names_its_bot(client, name)
        wait_for("the bot taken up", lambda: bot_threads(name), within=WAIT_SECONDS)


def test_get_seat_bot_refuses_in_words() -> None:
    with running_server() as running, connected(running.port) as client:
        mine, _ = client.create_game(match_length=1)
        for request, code in [
            (pb.GetSeatBotRequest(name="games/none", seat=BOT_SEAT), grpc.StatusCode.NOT_FOUND),
            (pb.GetSeatBotRequest(name=mine.name), grpc.StatusCode.INVALID_ARGUMENT),
        ]:
            with pytest.raises(grpc.RpcError) as refused:
                bots_of(client).GetSeatBot(request, timeout=RPC_TIMEOUT)
            assert refused.value.code() is code
            assert "internal" not in (refused.value.details() or "").lower()
        nobody = bots_of(client).GetSeatBot(pb.GetSeatBotRequest(name=mine.name, seat=BOT_SEAT))
        assert nobody.bot == "" and not nobody.HasField("seat_time")


def test_a_bot_whose_lease_is_taken_stops_and_the_seat_plays_on_with_its_next_holder(tmp_path: Path) -> None:
    with running_server(db=tmp_path / "games.sqlite3") as running, connected(running.port) as client:
        seat = new_game_against_the_computer(client)
        opponent = Opponent(seat)
        opponent.play(until=computer_has_played(client, seat.name, 1))
        # Another holder claims the seat as if this process's lease had run out.
        later = time.time() + 3600
        assert running.store.claim_bot_seats([(seat.name, 1)], "another process", later, later + 3600)
        wait_for("the bot stopped", lambda: not bot_threads(seat.name), within=WAIT_SECONDS)
        running.store.let_go_of_bot_seat(seat.name, 1, "another process")  # it stops, in turn
        final = opponent.play(until=lambda game: False)
        assert final.phase == games_pb2.PHASE_MATCH_OVER
        assert_one_action_per_decision(all_events(client, seat.name))


def test_a_bot_taken_up_after_a_restart_counts_against_the_client_that_seated_it(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    one_bot = QuotaLimits(bots_per_client=1)
    with running_server(db=database, quotas=one_bot) as running, connected(running.port) as client:
        name = new_game_against_the_computer(client).name
    with running_server(db=database, quotas=one_bot) as running, connected(running.port) as client:
        wait_for("the bot taken up", lambda: bot_threads(name), within=WAIT_SECONDS)
        assert running.bot_seats.quotas.bot_client((name, 1)) == "127.0.0.1"
        # (a bot taken up is sent off for a new one only once it has joined and is seen to wait)
        waiting = running.bot_seats.waiting_for_people
        wait_for("the bot taken up waiting for its person", lambda: waiting("127.0.0.1"), within=WAIT_SECONDS)
        # At its share, the client's next bot takes the place of the one taken up, which waits for
        # its person: counted against nobody, the taken-up bot would have stayed beside it.
        _, theirs = client.create_game(match_length=1)
        bots_of(client).SeatBot(pb.SeatBotRequest(name=theirs.name, seat_token=theirs.token, bot="heuristic"))
        wait_for("the taken-up bot off the table", lambda: not bot_threads(name), within=WAIT_SECONDS)
        assert running.bot_seats.quotas.bot_client((theirs.name, 1)) == "127.0.0.1"
        assert running.bot_seats.quotas.bot_client((name, 1)) is None
        with as_web_client(running, "203.0.113.7") as (channel, metadata):  # another client: its own share
            other = games_service_pb2_grpc.GamesServiceStub(channel).CreateGame(
                games_pb2.CreateGameRequest(rule_set=games_pb2.RuleSet(variant=1, match_length=1)),
                metadata=metadata,
            )
            request = pb.SeatBotRequest(name=other.game.name, seat_token=other.seat1_token)
            seated = bots_service_pb2_grpc.BotsServiceStub(channel).SeatBot(request, metadata=metadata)
    assert seated.seat == BOT_SEAT


# --- databases made before bot seats were stored ----------------------------------------------------


def test_a_sqlite_database_made_before_bot_seats_is_migrated_to_keep_them(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as running, connected(running.port) as client:
        mine, theirs = client.create_game(match_length=1)
    with sqlite3.connect(database) as db:  # as schema 4 left it
        db.execute("DROP TABLE bot_seats")
        db.execute("PRAGMA user_version = 4")
    with running_server(db=database) as running, connected(running.port) as client:
        bots_of(client).SeatBot(pb.SeatBotRequest(name=mine.name, seat_token=theirs.token, bot="heuristic"))
        assert_the_seat_names_its_bot(client, mine.name)


def test_a_postgresql_database_made_before_bot_seats_is_migrated_to_keep_them(postgres_url: str) -> None:
    url = fresh_database(postgres_url)
    PostgresStore(url).close()
    with psycopg.connect(url, autocommit=True) as connection:  # as schema 1 left it
        connection.execute("DROP TABLE bot_seats")
        connection.execute("UPDATE tavli_schema SET version = 1")
    store = PostgresStore(url)
    try:
        store.create(GameRecord("games/a", {}, "system"), [], b"", None)
        store.seat_bot(BotSeat("games/a", 1, "heuristic", 1.0), 0, "one", 2.0)
        assert store.bot_seats("games/a") == [BotSeat("games/a", 1, "heuristic", 1.0)]
    finally:
        store.close()


def test_a_sqlite_bot_seat_stored_before_clients_were_is_taken_up_counted_against_nobody(
    tmp_path: Path,
) -> None:
    database = tmp_path / "games.sqlite3"
    with running_server(db=database) as running, connected(running.port) as client:
        name = new_game_against_the_computer(client).name
    with sqlite3.connect(database) as db:  # as schema 6 left it
        db.execute("ALTER TABLE bot_seats DROP COLUMN client")
        db.execute("PRAGMA user_version = 6")
    with running_server(db=database) as running:
        assert [(seat.bot, seat.client) for seat in running.store.bot_seats(name)] == [("heuristic", "")]
        wait_for("the bot taken up", lambda: bot_threads(name), within=WAIT_SECONDS)
        assert running.bot_seats.quotas.bot_client((name, 1)) is None


def test_a_postgresql_bot_seat_stored_before_clients_were_reads_back_with_no_client(
    postgres_url: str,
) -> None:
    url = fresh_database(postgres_url)
    store = PostgresStore(url)
    store.create(GameRecord("games/a", {}, "system"), [], b"", None)
    store.seat_bot(BotSeat("games/a", 1, "heuristic", 1.0, client="203.0.113.7"), 0, "one", 2.0)
    store.close()
    with psycopg.connect(url, autocommit=True) as connection:  # as schema 3 left it
        connection.execute("ALTER TABLE bot_seats DROP COLUMN client")
        connection.execute("UPDATE tavli_schema SET version = 3")
    store = PostgresStore(url)
    try:
        assert store.bot_seats("games/a") == [BotSeat("games/a", 1, "heuristic", 1.0, client="")]
        store.seat_bot(BotSeat("games/a", 0, "random", 1.0, client="198.51.100.2"), 0, "one", 2.0)
        assert store.bot_seats("games/a")[0].client == "198.51.100.2"
    finally:
        store.close()
