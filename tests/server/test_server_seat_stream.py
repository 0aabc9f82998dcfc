"""PlaySeat end to end: a seat held on one stream sees every change of its game as it is stored,
the other seat's moves included, and its actions are made and refused exactly as the unary RPCs
make and refuse them, without the stream ending; a lost stream is resumed without losing or
repeating anything, and a seat is held by one stream at a time.

Every stream opened here has a deadline and every wait for one of its messages a bound, so that a
bug makes a test fail rather than hang.
"""

from __future__ import annotations

import queue
import random
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2

from tavli.clients import bots
from tavli.clients.arena_command import ArenaConfig, run_arena
from tavli.clients.client import Seat, SeatStream, TavliClient
from tavli.clients.seat_driver import play_match, play_seat
from tavli.server.app import Running, ServerConfig, create_server
from tavli.server.quotas import QuotaLimits
from tavli.v1 import games_service_pb2 as games_pb2
from tests.server_play import (
    RPC_TIMEOUT,
    Policy,
    act_once,
    all_events,
    connected,
    error_info,
    play_actions,
    running_server,
)

SEAT_0, SEAT_1 = games_pb2.SEAT_0, games_pb2.SEAT_1
STREAM_DEADLINE = 60.0  # a stream opened here ends by itself after this, whatever happens
WITHIN = 10.0  # how long a message the server owes may take at most


class RawStream:
    """A PlaySeat call made by hand: messages sent one by one, the server's read on a thread of
    their own, so that each can be waited for with a bound."""

    _END = object()

    def __init__(self, client: TavliClient, *first: games_pb2.PlaySeatRequest) -> None:
        self.requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
        for message in first:
            self.requests.put(message)
        self.call = client.games.PlaySeat(iter(self.requests.get, self._END), timeout=STREAM_DEADLINE)
        self.messages: queue.SimpleQueue[Any] = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()

    @classmethod
    def joined(cls, client: TavliClient, seat: Seat, token: str | None = None) -> RawStream:
        join = games_pb2.JoinSeat(name=seat.name, seat_token=seat.token if token is None else token)
        return cls(client, games_pb2.PlaySeatRequest(join=join))

    def send(self, **message: Any) -> None:
        self.requests.put(games_pb2.PlaySeatRequest(**message))

    def act(self, **action: Any) -> games_pb2.PlaySeatResponse:
        """Send one action and return its answer (views coming before it are passed over)."""
        self.send(action=games_pb2.SeatAction(**action))
        for _ in range(100):
            response = self.next()
            if response.HasField("answer"):
                return response
        raise AssertionError("no answer came among 100 messages")

    def next(self, within: float = WITHIN) -> games_pb2.PlaySeatResponse:
        try:
            message = self.messages.get(timeout=within)
        except queue.Empty:
            raise AssertionError(f"no message came within {within} s") from None
        assert isinstance(message, games_pb2.PlaySeatResponse), f"the stream ended: {message!r}"
        return message

    def end(self, within: float = WITHIN) -> grpc.RpcError | None:
        """How the stream ends (None: with OK); fails if a message comes first."""
        try:
            message = self.messages.get(timeout=within)
        except queue.Empty:
            raise AssertionError(f"the stream did not end within {within} s") from None
        assert not isinstance(message, games_pb2.PlaySeatResponse), f"a message came: {message}"
        return message  # type: ignore[no-any-return]

    def close(self) -> None:
        self.requests.put(self._END)
        self.call.cancel()

    def _read(self) -> None:
        try:
            for message in self.call:
                self.messages.put(message)
        except grpc.RpcError as error:
            self.messages.put(error)
            return
        self.messages.put(None)


def refusal_of(response: games_pb2.PlaySeatResponse) -> tuple[int, str, str, str]:
    """An answer's refusal: (code, ErrorInfo reason, domain, message)."""
    assert response.answer.HasField("refusal"), f"the action was made: {response.answer}"
    refusal = response.answer.refusal
    info = error_details_pb2.ErrorInfo()
    assert len(refusal.details) == 1 and refusal.details[0].Unpack(info)
    return refusal.code, info.reason, info.domain, refusal.message


def unary_refusal(call: Any, request: Any) -> tuple[int, str, str, str]:
    """The same as :func:`refusal_of`, for a unary call expected to fail."""
    with pytest.raises(grpc.RpcError) as failure:
        call(request, timeout=RPC_TIMEOUT)
    code, reason, domain = error_info(failure.value)
    return code.value[0], reason, domain, failure.value.details()


def without_update_time(game: games_pb2.Game) -> games_pb2.Game:
    copy = games_pb2.Game()
    copy.CopyFrom(game)
    copy.ClearField("update_time")
    return copy


@pytest.fixture(scope="module")
def server() -> Iterator[Running]:
    with running_server() as running:
        yield running


@pytest.fixture(scope="module")
def clients(server: Running) -> Iterator[tuple[TavliClient, TavliClient, TavliClient]]:
    """Three connections to one server: seat 0's, seat 1's and a third."""
    with (
        connected(server.port) as first,
        connected(server.port) as second,
        connected(server.port) as third,
    ):
        yield first, second, third


def new_game(clients: tuple[TavliClient, ...], **options: Any) -> tuple[Seat, Seat]:
    """A new seeded game: seat 0 acts over the first connection, seat 1 over the second."""
    options.setdefault("dice_seed", f"seat-stream-{uuid.uuid4()}")
    seat_0, seat_1 = clients[0].create_game(**options)
    return seat_0, Seat(clients[1], seat_1.name, 1, seat_1.token, seat_1.last_seen)


def joined_again(
    client: TavliClient, seat: Seat, within: float = 5.0
) -> tuple[RawStream, games_pb2.PlaySeatResponse]:
    """A stream of ``seat`` joined as soon as the server has let go of the seat's old one, and the
    view it starts with."""
    deadline = time.monotonic() + within
    while True:
        stream = RawStream.joined(client, seat)
        try:
            first = stream.messages.get(timeout=WITHIN)
        except queue.Empty:
            raise AssertionError("the join was not answered") from None
        if isinstance(first, games_pb2.PlaySeatResponse):
            return stream, first
        assert first is not None and error_info(first)[1] == "SEAT_ALREADY_STREAMING", first
        assert time.monotonic() < deadline, f"the seat was still held after {within} s"
        time.sleep(0.02)


# --- whole matches ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "length", "options"),
    [("backgammon", 3, {"cube": True}), ("long-nardi", 2, {})],
)
def test_two_bots_play_a_whole_match_over_two_streams(clients, variant, length, options) -> None:
    played = play_match(
        clients[2],
        (bots.create("random", seed=1), bots.create("random", seed=2)),
        variant=variant,
        match_length=length,
        dice_seed=f"two-streams-{variant}",
        stream=True,
        max_actions=5_000,
        **options,
    )

    game = played.game
    assert game.phase == games_pb2.PHASE_MATCH_OVER
    assert max(game.score) >= length and sum(f.points for f in game.finished_games) == sum(game.score)
    assert without_update_time(clients[0].game(played.name)) == without_update_time(game)
    kinds = {event.kind for event in all_events(clients[0], played.name)}
    assert {games_pb2.EVENT_KIND_ROLL, games_pb2.EVENT_KIND_PLAY} <= kinds
    if options.get("cube"):
        assert games_pb2.EVENT_KIND_DOUBLE in kinds  # the cube was turned on the stream


def test_over_streams_and_over_unary_calls_the_same_bots_and_dice_play_the_same_match(clients) -> None:
    def played(stream: bool) -> games_pb2.Game:
        return play_match(
            clients[2],
            (bots.create("random", seed=7), bots.create("heuristic", seed=8)),
            match_length=3,
            cube=True,
            dice_seed="same-match",
            stream=stream,
            engine_plays=not stream,
        ).game

    over_streams, over_unary = played(True), played(False)
    assert list(over_streams.finished_games) == list(over_unary.finished_games)
    assert over_streams.event_count == over_unary.event_count


def test_a_stream_joined_to_a_finished_match_shows_it_and_ends_with_ok(clients) -> None:
    seats = new_game(clients, match_length=1)
    play_match_on(seats)
    stream = RawStream.joined(clients[0], seats[0])
    view = stream.next()
    assert view.game.phase == games_pb2.PHASE_MATCH_OVER and not view.legal_actions.actions
    assert stream.end() is None


def play_match_on(seats: tuple[Seat, Seat]) -> games_pb2.Game:
    game = seats[0].game()
    policy = Policy(random.Random(5))
    for _ in range(5_000):
        if game.phase == games_pb2.PHASE_MATCH_OVER:
            return game
        game = act_once(seats, game, policy)
    raise AssertionError("the match did not end")


# --- what a seat is shown ------------------------------------------------------------------------


def test_the_other_seat_s_action_is_pushed_to_a_seat_at_once(clients) -> None:
    seats = new_game(clients, match_length=1)
    stream = RawStream.joined(clients[1], seats[1])
    try:
        joined = stream.next()
        assert joined.seat == SEAT_1 and not joined.HasField("answer")
        assert joined.game.event_count == 0 and list(joined.legal_actions.actions) == [games_pb2.ACTION_ROLL]

        game = play_actions(seats, Policy(random.Random(2)), 1)  # the throw for who starts, by seat 0
        pushed = stream.next()
        assert not pushed.HasField("answer")
        assert without_update_time(pushed.game) == without_update_time(game)
        assert pushed.legal_actions.etag == game.etag

        # Whoever is on turn now is shown it, the seat that plays with every legal play.
        if game.turn == SEAT_1:
            listed = seats[1].legal_actions()
            assert pushed.legal_actions == listed
            assert games_pb2.ACTION_PLAY in listed.actions and listed.plays
        else:
            assert not pushed.legal_actions.plays
            game = play_actions(seats, Policy(random.Random(2)), 1)  # seat 0's opening play
            pushed = stream.next()
            assert pushed.game.last_play.seat == SEAT_0 and pushed.game.last_play.notation
            assert pushed.game.etag == game.etag
    finally:
        stream.close()


def test_a_seat_s_own_action_is_answered_once_with_its_request_id_and_no_extra_view(clients) -> None:
    seats = new_game(clients, match_length=1)
    stream = RawStream.joined(clients[0], seats[0])
    try:
        stream.next()
        answer = stream.act(roll=games_pb2.SeatAction.RollDice(), request_id="first-roll")
        assert answer.answer.request_id == "first-roll" and not answer.answer.HasField("refusal")
        assert answer.game.event_count == clients[0].game(seats[0].name).event_count > 0
        with pytest.raises(AssertionError, match="no message came"):
            stream.next(within=0.3)  # nothing more: the answer was the view of that state
    finally:
        stream.close()


# --- refusals, on a stream that goes on ------------------------------------------------------------


def test_an_illegal_play_is_refused_in_words_as_play_move_refuses_it_and_the_stream_goes_on(clients) -> None:
    seats = new_game(clients, match_length=1)
    game = play_actions(seats, Policy(random.Random(3)), 1)  # the throw for who starts
    mover = seats[0] if game.turn == SEAT_0 else seats[1]
    stream = RawStream.joined(clients[2], mover)
    try:
        stream.next()
        # Bearing off from the start: never legal, whatever the dice.
        refused = refusal_of(stream.act(play=games_pb2.SeatAction.PlayMove(notation="6/off"), etag=game.etag))
        unary = games_pb2.PlayMoveRequest(
            name=mover.name, seat_token=mover.token, etag=game.etag, notation="6/off"
        )
        assert refused == unary_refusal(clients[2].games.PlayMove, unary)
        code, reason, domain, message = refused
        assert (code, reason, domain) == (
            grpc.StatusCode.FAILED_PRECONDITION.value[0],
            "ILLEGAL_PLAY",
            "tavli",
        )
        assert "off" in message and "your" in message

        no_double = refusal_of(stream.act(take=games_pb2.SeatAction.TakeDouble()))  # none was offered
        take = games_pb2.TakeDoubleRequest(name=mover.name, seat_token=mover.token)
        assert no_double == unary_refusal(clients[2].games.TakeDouble, take)
        assert no_double[0] == grpc.StatusCode.FAILED_PRECONDITION.value[0] and no_double[3]

        legal = stream.act(
            play=games_pb2.SeatAction.PlayMove(notation=mover.legal_actions().plays[0].notation)
        )
        assert not legal.answer.HasField("refusal")
        assert legal.game.event_count > game.event_count
    finally:
        stream.close()


def test_a_stale_etag_is_refused_with_the_game_now_and_the_stream_goes_on(clients) -> None:
    seats = new_game(clients, match_length=1)
    stream = RawStream.joined(clients[0], seats[0])
    try:
        first = stream.next()
        rolled = stream.act(roll=games_pb2.SeatAction.RollDice(), etag=first.game.etag)
        assert not rolled.answer.HasField("refusal")
        on_turn = seats[0] if rolled.game.turn == SEAT_0 else seats[1]

        stale = stream.act(roll=games_pb2.SeatAction.RollDice(), etag=first.game.etag, request_id="stale")
        code, reason, domain, message = refusal_of(stale)
        assert (code, reason, domain) == (grpc.StatusCode.ABORTED.value[0], "STALE_ETAG", "tavli")
        assert first.game.etag in message and rolled.game.etag in message
        assert stale.answer.request_id == "stale"
        assert stale.game.etag == rolled.game.etag == clients[0].game(seats[0].name).etag  # the game now

        if on_turn is seats[0]:
            play = rolled.legal_actions.plays[0].notation
            after = stream.act(play=games_pb2.SeatAction.PlayMove(notation=play), etag=stale.game.etag)
            assert not after.answer.HasField("refusal")
            assert after.game.last_play.seat == SEAT_0
        else:
            not_turn = stream.act(roll=games_pb2.SeatAction.RollDice(), etag=stale.game.etag)
            assert refusal_of(not_turn)[1] == "NOT_YOUR_TURN"
    finally:
        stream.close()


def test_an_action_past_its_bounds_or_naming_nothing_is_refused_and_the_stream_goes_on(clients) -> None:
    seats = new_game(clients, match_length=1)
    stream = RawStream.joined(clients[0], seats[0])
    try:
        stream.next()
        too_long = stream.act(play=games_pb2.SeatAction.PlayMove(notation="24/23 " * 100))
        code, reason, _, message = refusal_of(too_long)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT.value[0], "FIELD_TOO_LONG")
        assert "notation" in message and "at most 128" in message
        nothing = stream.act(request_id="empty")
        assert refusal_of(nothing)[:2] == (grpc.StatusCode.INVALID_ARGUMENT.value[0], "INVALID_ARGUMENT")
        assert "roll, play" in refusal_of(nothing)[3]
        assert not stream.act(roll=games_pb2.SeatAction.RollDice()).answer.HasField("refusal")
    finally:
        stream.close()


# --- the join and what ends a stream -------------------------------------------------------------


def test_a_wrong_token_or_an_unknown_game_ends_the_stream_with_its_reason(clients) -> None:
    seats = new_game(clients)
    wrong = RawStream.joined(clients[0], seats[0], token="not-a-token")
    error = wrong.end()
    assert error is not None and error_info(error) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "WRONG_SEAT_TOKEN",
        "tavli",
    )
    unknown = RawStream(
        clients[0],
        games_pb2.PlaySeatRequest(join=games_pb2.JoinSeat(name="games/0000", seat_token=seats[0].token)),
    )
    error = unknown.end()
    assert error is not None and error_info(error) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND", "tavli")


@pytest.mark.parametrize(
    ("messages", "words"),
    [
        (
            [games_pb2.PlaySeatRequest(action=games_pb2.SeatAction(roll=games_pb2.SeatAction.RollDice()))],
            "join",
        ),
        ([games_pb2.PlaySeatRequest()], "join"),
        ([], "ended before it joined"),
        (
            [games_pb2.PlaySeatRequest(join=games_pb2.JoinSeat(name="games/" + "0" * 100, seat_token="x"))],
            "at most 64",
        ),
        ([games_pb2.PlaySeatRequest(join=games_pb2.JoinSeat(seat_token="x"))], "name the game"),
    ],
    ids=["an action first", "an empty message first", "nothing", "a name too long", "no name"],
)
def test_a_stream_that_does_not_start_with_a_join_is_refused_in_words(clients, messages, words) -> None:
    stream = RawStream(clients[0], *messages)
    stream.requests.put(RawStream._END)  # the client has nothing more to say
    error = stream.end()
    assert error is not None
    code, _, domain = error_info(error)
    assert (code, domain) == (grpc.StatusCode.INVALID_ARGUMENT, "tavli")
    assert words in error.details()


@pytest.mark.parametrize(
    "second",
    [
        games_pb2.PlaySeatRequest(join=games_pb2.JoinSeat(name="games/x", seat_token="x")),
        games_pb2.PlaySeatRequest(),
    ],
    ids=["a second join", "a message that is neither"],
)
def test_a_second_join_or_an_empty_message_ends_a_joined_stream(clients, second) -> None:
    seats = new_game(clients)
    stream = RawStream.joined(clients[0], seats[0])
    stream.next()
    stream.requests.put(second)
    error = stream.end()
    assert error is not None and error_info(error)[::2] == (grpc.StatusCode.INVALID_ARGUMENT, "tavli")
    assert "join" in error.details() or "action" in error.details()


def test_a_client_closing_its_side_ends_the_stream_with_ok_once_its_actions_are_answered(clients) -> None:
    seats = new_game(clients)
    stream = RawStream.joined(clients[0], seats[0])
    stream.send(action=games_pb2.SeatAction(roll=games_pb2.SeatAction.RollDice()))
    stream.requests.put(RawStream._END)
    assert not stream.next().HasField("answer")
    assert stream.next().HasField("answer")
    assert stream.end() is None


# --- one stream per seat, and resuming ------------------------------------------------------------


def test_a_second_stream_for_a_seat_is_refused_until_the_first_has_ended(clients) -> None:
    seats = new_game(clients)
    first = RawStream.joined(clients[0], seats[0])
    first.next()
    second = RawStream.joined(clients[1], seats[0])
    error = second.end()
    assert error is not None
    assert error_info(error) == (grpc.StatusCode.FAILED_PRECONDITION, "SEAT_ALREADY_STREAMING", "tavli")
    assert "another stream" in error.details()
    other_seat = RawStream.joined(clients[1], seats[1])  # the other seat is not held
    assert other_seat.next().seat == SEAT_1

    first.close()
    again, view = joined_again(clients[1], seats[0])
    assert view.seat == SEAT_0
    again.close()
    other_seat.close()


def test_a_stream_whose_client_went_away_lets_go_of_its_seat_promptly() -> None:
    with running_server() as server, connected(server.port) as creator:
        seats = creator.create_game(dice_seed="gone")
        gone = TavliClient.connect(f"127.0.0.1:{server.port}", timeout=RPC_TIMEOUT)
        stream = RawStream.joined(gone, seats[0])
        stream.next()
        gone.close()  # the connection is gone, without a word
        started = time.monotonic()
        again, view = joined_again(creator, seats[0])
        assert view.seat == SEAT_0
        assert time.monotonic() - started < 5.0
        again.close()


def test_a_dropped_stream_resumes_mid_game_and_a_retried_request_id_is_made_once(server, clients) -> None:
    seats = new_game(clients, match_length=1)
    play_actions(seats, Policy(random.Random(4)), 6)
    mover_index = 0 if seats[0].game().turn == SEAT_0 else 1
    mover = seats[mover_index]
    dropped_client = TavliClient.connect(f"127.0.0.1:{server.port}", timeout=RPC_TIMEOUT)
    stream = RawStream.joined(dropped_client, mover)
    view = stream.next()
    if games_pb2.ACTION_ROLL in view.legal_actions.actions:
        action: dict[str, Any] = {"roll": games_pb2.SeatAction.RollDice()}
    else:
        action = {"play": games_pb2.SeatAction.PlayMove(notation=view.legal_actions.plays[0].notation)}
    first = stream.act(request_id="retried", etag=view.game.etag, **action)
    assert not first.answer.HasField("refusal")
    dropped_client.close()  # the connection drops before the client saw anything more

    again, resumed = joined_again(clients[2], mover)
    assert not resumed.HasField("answer")
    assert without_update_time(resumed.game) == without_update_time(first.game)  # the game now, at once
    retried = again.act(request_id="retried", etag=view.game.etag, **action)  # its answer was "lost"
    assert not retried.answer.HasField("refusal") and retried.answer.request_id == "retried"
    assert retried.game == first.game  # the first answer again
    assert clients[0].game(mover.name).event_count == first.game.event_count  # made once
    again.close()

    # The game goes on over the seat's resumed stream to its end, nothing lost.
    with clients[2].stream_seat(mover.name, mover.token, resume=True) as resumed_seat:
        other = seats[1 - mover_index]
        with clients[1].stream_seat(other.name, other.token) as other_seat:
            game = play_two_streams(resumed_seat, other_seat, mover_index)
    events = all_events(clients[0], mover.name)
    assert [event.sequence for event in events] == list(range(game.event_count))
    assert game.phase == games_pb2.PHASE_MATCH_OVER


def play_two_streams(stream: SeatStream, other: SeatStream, index: int) -> games_pb2.Game:
    """Play both streams to the end with random bots, the other on a thread of its own."""
    results: dict[str, Any] = {}

    def other_side() -> None:
        try:
            results["other"] = play_seat(
                other, bots.create("random", seed=9), throws_opening=False, wait=WITHIN
            )
        except BaseException as error:  # noqa: BLE001 - reported below
            results["error"] = error

    thread = threading.Thread(target=other_side, daemon=True)
    thread.start()
    game = play_seat(stream, bots.create("random", seed=8), wait=WITHIN)
    thread.join(timeout=STREAM_DEADLINE)
    assert not thread.is_alive() and "error" not in results, results.get("error")
    return max(game, results["other"], key=lambda seen: seen.event_count)


def test_a_request_id_first_used_on_a_unary_call_is_answered_the_same_on_the_stream(clients) -> None:
    seats = new_game(clients)
    unary = clients[0].games.RollDice(
        games_pb2.RollDiceRequest(
            name=seats[0].name, seat_token=seats[0].token, etag="0", request_id="both-ways"
        ),
        timeout=RPC_TIMEOUT,
    )
    stream = RawStream.joined(clients[0], seats[0])
    try:
        stream.next()
        answer = stream.act(roll=games_pb2.SeatAction.RollDice(), etag="0", request_id="both-ways")
        assert not answer.answer.HasField("refusal")
        assert answer.game == unary.game
        assert clients[0].game(seats[0].name).event_count == unary.game.event_count
        reused = stream.act(double=games_pb2.SeatAction.OfferDouble(), request_id="both-ways")
        assert refusal_of(reused)[1] == "REQUEST_ID_REUSED"
    finally:
        stream.close()


# --- limits and shutdown ---------------------------------------------------------------------------


def test_seat_streams_count_as_open_streams_of_their_game_as_watches_do() -> None:
    with running_server(quotas=QuotaLimits(streams_per_game=2)) as server, connected(server.port) as client:
        seat_0, seat_1 = client.create_game(dice_seed="streams")
        streams = [RawStream.joined(client, seat_0), RawStream.joined(client, seat_1)]
        for stream in streams:
            stream.next()  # both open: two streams of the two the game may have
        watch = client.games.WatchGame(games_pb2.WatchGameRequest(name=seat_0.name), timeout=STREAM_DEADLINE)
        with pytest.raises(grpc.RpcError) as refused:
            next(watch)
        assert error_info(refused.value) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "TOO_MANY_STREAMS", "tavli")
        streams[1].close()
        third, view = joined_again(client, seat_1)  # a stream closed is a stream given back
        assert view.seat == SEAT_1
        for stream in (streams[0], third):
            stream.close()


def test_a_server_shutting_down_ends_its_seat_streams_with_unavailable() -> None:
    running = create_server(ServerConfig(host="127.0.0.1", port=0, db=None, allow_seeded_dice=True))
    with connected(running.port) as client:
        seat_0, _ = client.create_game(dice_seed="shutdown")
        stream = RawStream.joined(client, seat_0)
        stream.next()
        started = time.monotonic()
        running.stop(grace=5.0)
        error = stream.end()
        assert error is not None and error_info(error) == (
            grpc.StatusCode.UNAVAILABLE,
            "SHUTTING_DOWN",
            "tavli",
        )
        assert time.monotonic() - started < 3.0  # at once, not after the grace


# --- the arena -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "length", "games"), [("backgammon", 0, 4), ("long-nardi", 1, 2)])
def test_the_arena_over_streams_and_over_unary_calls_tallies_the_same_results(
    clients, variant, length, games
) -> None:
    results = {}
    for transport in ("stream", "unary"):
        config = ArenaConfig(
            variant=variant,
            bots=("heuristic", "random"),
            games=games,
            match_length=length,
            seed=11,
            parallel=2,
            transport=transport,  # type: ignore[arg-type]
        )
        results[transport] = run_arena(clients[2], config).as_json()
    stream, unary = results["stream"], results["unary"]
    assert (stream["transport"], unary["transport"]) == ("stream", "unary")
    assert set(stream) == set(unary) and stream["games_per_second"] > 0 and unary["games_per_second"] > 0
    assert stream["bots"] == unary["bots"]  # the same dice and the same bots: the same results
    assert [tally["games"] for tally in stream["bots"].values()] == [games, games]
