"""A Python client for the tavli server: typed, with Python exceptions that carry the server's reason.

    with TavliClient.connect("127.0.0.1:50051") as tavli:
        seat_0, seat_1 = tavli.create_game(variant="backgammon", match_length=5, dice_seed="arena-1")
        seat_0.roll()                       # the throw for who starts
        game = seat_0.game()
        ...
        seat_1.play("24/18 13/8")

A :class:`Seat` is a game and the token of one of its seats: it acts for that seat only. Every
action sends the etag of the state the seat last saw (so a decision made on a stale state is
refused, not misapplied) and a fresh request_id (so the library's own retries are safe).

A :class:`SeatStream` holds a seat on one PlaySeat stream, the way a bot or a GUI is best seated:
the server sends it every new state of the game, the other seat's moves included, with what the
seat may do then, and its actions (the same methods as a Seat's) are answered on the stream:

    with tavli.stream_seat(seat_1.name, seat_1.token) as stream:
        for view in stream:                 # the game and the seat's legal actions, as they change
            if games_pb2.ACTION_ROLL in view.legal_actions.actions:
                stream.roll()
"""

from __future__ import annotations

import ipaddress
import json
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Self, get_args

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavli.engine import BACKGAMMON, VARIANTS, GameResult
from tavli.engine.rules import TAVLI, MatchVariant
from tavli.engine.variant import VariantName
from tavli.v1 import (
    analysis_service_pb2 as analysis_pb2,
    analysis_service_pb2_grpc,
    board_pb2,
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
    ladder_service_pb2 as ladder_pb2,
    ladder_service_pb2_grpc,
    match_record_pb2,
    rules_service_pb2 as rules_pb2,
    rules_service_pb2_grpc,
)

ResignLevel = Literal["single", "gammon", "backgammon", "mars"]

# The API's enum numbers for the names a Python program uses, and back: derived from the names,
# so a new variant needs only its engine module and its enum value (none: the API lacks it yet).
VARIANT_ENUMS: dict[VariantName, board_pb2.Variant] = {
    variant.name: getattr(board_pb2, enum)
    for variant in VARIANTS.values()
    if (enum := "VARIANT_" + variant.name.upper().replace("-", "_"))
    in board_pb2.Variant.DESCRIPTOR.values_by_name
}
VARIANT_NAMES: dict[board_pb2.Variant, VariantName] = {number: name for name, number in VARIANT_ENUMS.items()}
MATCH_VARIANT_ENUMS: dict[MatchVariant, board_pb2.Variant] = {
    name: number for name, number in VARIANT_ENUMS.items()
}
"""What a rule set may play: the variants, and the tavli match (a rule set's variant, never a game's)."""
MATCH_VARIANT_ENUMS[TAVLI] = board_pb2.VARIANT_TAVLI
GAME_RESULTS: dict[board_pb2.GameResult, GameResult] = {
    getattr(board_pb2, enum): result
    for result in GameResult
    if (enum := "GAME_RESULT_" + result.value.upper()) in board_pb2.GameResult.DESCRIPTOR.values_by_name
}
"""The engine's result of each API ``GameResult``."""
RESULT_ENUMS: dict[ResignLevel, board_pb2.GameResult] = {
    result.resign_level: number
    for number, result in GAME_RESULTS.items()
    if result.value in get_args(ResignLevel)
}
"""The API's ``GameResult`` of each level a resignation offers (never a mother loss or a draw)."""
RESULT_LEVELS: dict[board_pb2.GameResult, ResignLevel] = {
    number: level for level, number in RESULT_ENUMS.items()
}
_OPTION_ENUMS: dict[str, tuple[Any, str]] = {
    "opening": (games_pb2, "OPENING_"),
    "match_openings": (games_pb2, "MATCH_OPENINGS_"),
    "backgammons": (games_pb2, "BACKGAMMONS_"),
    "start": (board_pb2, "START_"),
    "home_hit_and_run": (board_pb2, "HOME_HIT_AND_RUN_"),
    "first_checker": (board_pb2, "FIRST_CHECKER_"),
    "fevga_primes": (board_pb2, "FEVGA_PRIMES_"),
    "fevga_quarter_test": (board_pb2, "FEVGA_QUARTER_TEST_"),
}
"""The rule set's options whose values are API enums: each enum's module and its values' prefix."""
GAMES_SERVICE = games_pb2.DESCRIPTOR.services_by_name["GamesService"].full_name


_STREAM_RESET = ("RST_STREAM", "Stream removed")
"""What grpc's transport says of a stream reset under a call (INTERNAL, never the server's own
answer: the server says what went wrong in words and an ErrorInfo)."""


class TavliServerError(Exception):
    """An error status from the server: ``status`` (a grpc.StatusCode), ``reason`` (the stable
    ErrorInfo reason, e.g. ``ILLEGAL_PLAY``) and ``message`` (why, in words); for a match
    record refused (``INVALID_MATCH_RECORD``, ``UNREADABLE_MATCH_RECORD``), ``problems`` holds
    its problems as the status details carry them."""

    def __init__(
        self,
        status: grpc.StatusCode,
        reason: str,
        message: str,
        problems: Sequence[match_record_pb2.MatchProblem] = (),
    ) -> None:
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message
        self.problems = tuple(problems)

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> TavliServerError:
        reason = ""
        problems = []
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        if status is not None:
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                problem = match_record_pb2.MatchProblem()
                if detail.Unpack(info):
                    reason = info.reason
                elif detail.Unpack(problem):
                    problems.append(problem)
        return cls(error.code(), reason, error.details() or "", problems)

    @property
    def connection_lost(self) -> bool:
        """Whether the connection was lost under the call (the server out of reach or restarting,
        or a proxy or the transport reset the call's stream) rather than the server answering."""
        if self.status == grpc.StatusCode.UNAVAILABLE:
            return True
        reset = any(words in self.message for words in _STREAM_RESET)
        return self.status == grpc.StatusCode.INTERNAL and not self.reason and reset

    @property
    def worth_trying_again(self) -> bool:
        """Whether what failed is worth trying again: the connection was lost under it, or its
        deadline passed (the server may be restarting)."""
        return self.connection_lost or self.status == grpc.StatusCode.DEADLINE_EXCEEDED


def _call(method: Any, request: Any, **kwargs: Any) -> Any:
    try:
        return method(request, **kwargs)
    except grpc.RpcError as error:
        raise TavliServerError.from_rpc_error(error) from None


# A request with a request_id is safe to send again: the server answers a repeat with its first
# answer. Sent again while the server is unreachable (restarting, or a full disk), or when a proxy
# between (nginx, a replica behind it dying mid-call) reset the call's stream, a few times over
# about ten seconds.
_RETRY_PAUSES = (0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 3.0)


def worth_sending_again(error: grpc.RpcError) -> bool:
    """Whether a call that carries a request_id should be sent again after failing with ``error``
    (see :attr:`TavliServerError.worth_trying_again`)."""
    return TavliServerError.from_rpc_error(error).worth_trying_again


def balanced_channel(addresses: Sequence[str]) -> grpc.Channel:
    """A channel that spreads calls over replicas at ``addresses`` (IP ``host:port`` each),
    round robin, leaving out any whose health check is not SERVING (a replica stopping, or one
    that cannot reach its database). For a DNS name that resolves to every replica, give
    ``dns:///NAME:PORT`` to a channel of your own with the same ``grpc.service_config``.

    :raises ValueError: for an address that is not an IP address and port.
    """
    families = {_address_family(address) for address in addresses}
    if len(families) != 1:
        raise ValueError("give the replicas' addresses all as IPv4 or all as IPv6 addresses with their ports")
    config = {
        "loadBalancingConfig": [{"round_robin": {}}],
        "healthCheckConfig": {"serviceName": GAMES_SERVICE},
    }
    target = f"{families.pop()}:{','.join(addresses)}"
    return grpc.insecure_channel(target, options=[("grpc.service_config", json.dumps(config))])


def _address_family(address: str) -> str:
    host, _, port = address.rpartition(":")
    try:
        version = ipaddress.ip_address(host.strip("[]")).version
    except ValueError:
        raise ValueError(
            f"{address!r} is not an IP address and port (for a name, use dns:///NAME:PORT)"
        ) from None
    if not port.isdigit():
        raise ValueError(f"{address!r} has no port")
    return f"ipv{version}"


def _call_again_while_unavailable(method: Any, request: Any, **kwargs: Any) -> Any:
    for pause in _RETRY_PAUSES:
        try:
            return method(request, **kwargs)
        except grpc.RpcError as error:
            if not worth_sending_again(error):
                raise TavliServerError.from_rpc_error(error) from None
        time.sleep(pause)
    return _call(method, request, **kwargs)


def with_api_key(channel: grpc.Channel, api_key: str) -> grpc.Channel:
    """``channel`` with the metadata ``authorization: Bearer KEY`` on every call: each acts for
    the account whose key ``api_key`` is (LadderService, and the seats of the games it starts)."""
    return grpc.intercept_channel(channel, _ApiKey(api_key))


class _ApiKey(
    grpc.UnaryUnaryClientInterceptor,
    grpc.UnaryStreamClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    def __init__(self, api_key: str) -> None:
        self._metadata = ("authorization", f"Bearer {api_key}")

    def _with_key(self, details: Any) -> Any:
        return details._replace(metadata=[*(details.metadata or ()), self._metadata])

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_key(details), request)

    def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._with_key(details), request)

    def intercept_stream_unary(self, continuation: Any, details: Any, requests: Any) -> Any:
        return continuation(self._with_key(details), requests)

    def intercept_stream_stream(self, continuation: Any, details: Any, requests: Any) -> Any:
        return continuation(self._with_key(details), requests)


@dataclass
class TavliClient:
    """A connection to a tavli server."""

    channel: grpc.Channel
    timeout: float = 30.0
    rules: rules_service_pb2_grpc.RulesServiceStub = field(init=False)
    games: games_service_pb2_grpc.GamesServiceStub = field(init=False)
    analysis: analysis_service_pb2_grpc.AnalysisServiceStub = field(init=False)
    ladder: ladder_service_pb2_grpc.LadderServiceStub = field(init=False)

    def __post_init__(self) -> None:
        self.rules = rules_service_pb2_grpc.RulesServiceStub(self.channel)
        self.games = games_service_pb2_grpc.GamesServiceStub(self.channel)
        self.analysis = analysis_service_pb2_grpc.AnalysisServiceStub(self.channel)
        self.ladder = ladder_service_pb2_grpc.LadderServiceStub(self.channel)

    @classmethod
    def connect(
        cls, address: str | Sequence[str], *, timeout: float = 30.0, api_key: str | None = None
    ) -> TavliClient:
        """Connect without TLS to ``host:port``, or to several replicas' addresses at once
        (:func:`balanced_channel`); use :class:`TavliClient` with your own channel for TLS.
        ``api_key``: every call acts for the account whose key it is (:func:`with_api_key`)."""
        channel = grpc.insecure_channel(address) if isinstance(address, str) else balanced_channel(address)
        return cls(channel if api_key is None else with_api_key(channel, api_key), timeout=timeout)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- rules ------------------------------------------------------------------------------

    def legal_plays(
        self, variant: VariantName, position_id: str, dice: tuple[int, int]
    ) -> list[board_pb2.Play]:
        request = rules_pb2.ListLegalPlaysRequest(
            variant=VARIANT_ENUMS[variant],
            position=board_pb2.Position(position_id=position_id),
            dice=list(dice),
        )
        return list(_call(self.rules.ListLegalPlays, request, timeout=self.timeout).plays)

    def validate_play(
        self, variant: VariantName, position_id: str, dice: tuple[int, int], notation: str
    ) -> rules_pb2.ValidatePlayResponse:
        request = rules_pb2.ValidatePlayRequest(
            variant=VARIANT_ENUMS[variant],
            position=board_pb2.Position(position_id=position_id),
            dice=list(dice),
            notation=notation,
        )
        return _call(self.rules.ValidatePlay, request, timeout=self.timeout)  # type: ignore[no-any-return]

    def validate_match(self, record: str | bytes) -> rules_pb2.ValidateMatchResponse:
        """Check a match record (.mat or GNU Backgammon's SGF), its text or its file's bytes: what
        it holds and every problem (``problems`` empty: :meth:`import_match` takes it).

        :raises TavliServerError: UNREADABLE_MATCH_RECORD for a text that holds no match.
        """
        request = rules_pb2.ValidateMatchRequest(record=_match_record(record))
        return _call(self.rules.ValidateMatch, request, timeout=self.timeout)  # type: ignore[no-any-return]

    # --- games ------------------------------------------------------------------------------

    def create_game(
        self,
        *,
        variant: MatchVariant = BACKGAMMON.name,
        match_length: int = 0,
        dice_seed: str = "",
        verifiable_dice: bool = False,
        players: tuple[str, str] | None = None,
        hints_allowed: bool = False,
        **options: Any,
    ) -> tuple[Seat, Seat]:
        """Create a game; returns its two seats. ``players`` names who sits at each seat (seat 0
        first); ``hints_allowed`` lets them ask for hints (Game.hints_allowed); ``options`` are
        RuleSet fields (``cube=...`` takes True/False,
        enum-valued options such as ``opening`` or ``first_checker`` take the engine's names,
        ``clock`` an :class:`~tavli.engine.clock.ClockRules` in seconds). ``variant`` ``"tavli"`` is
        the Greek tavli match."""
        rule_set = games_pb2.RuleSet(variant=MATCH_VARIANT_ENUMS[variant], match_length=match_length)
        for name, value in options.items():
            if value is None:
                continue  # the rule set's default
            if name == "clock":
                for setting in ("reserve", "reserve_per_point", "delay", "move_limit"):
                    getattr(rule_set.clock, setting).FromNanoseconds(round(getattr(value, setting) * 1e9))
                continue
            if name == "cube":
                value = games_pb2.CUBE_MODE_CUBE if value else games_pb2.CUBE_MODE_NO_CUBE
            elif name in _OPTION_ENUMS:
                module, prefix = _OPTION_ENUMS[name]
                value = getattr(module, f"{prefix}{value}")
            setattr(rule_set, name, value)
        request = games_pb2.CreateGameRequest(
            rule_set=rule_set,
            dice_mode=_dice_mode(dice_seed, verifiable_dice),
            dice_seed=dice_seed,
            request_id=str(uuid.uuid4()),
            hints_allowed=hints_allowed,
        )
        for seat_field, player in _seated(players).items():
            getattr(request, seat_field).CopyFrom(player)
        created = _call_again_while_unavailable(self.games.CreateGame, request, timeout=self.timeout)
        return _seats(self, created)

    def import_match(
        self,
        record: str | bytes,
        *,
        dice_seed: str = "",
        verifiable_dice: bool = False,
        players: tuple[str, str] | None = None,
    ) -> tuple[Seat, Seat]:
        """Store a match played elsewhere from its record, .mat or SGF (its text or its file's bytes);
        returns its two seats, to play on from where the record stops. The dice after the record
        come as :meth:`create_game`'s do; the players are the record's unless ``players`` names
        them.

        :raises TavliServerError: INVALID_MATCH_RECORD, with ``problems``, for a record with
            problems (nothing is stored); UNREADABLE_MATCH_RECORD for one that holds no match.
        """
        request = games_pb2.ImportMatchRequest(
            record=_match_record(record),
            dice_mode=_dice_mode(dice_seed, verifiable_dice),
            dice_seed=dice_seed,
            request_id=str(uuid.uuid4()),
            **_seated(players),
        )
        imported = _call_again_while_unavailable(self.games.ImportMatch, request, timeout=self.timeout)
        return _seats(self, imported)

    def game(self, name: str) -> games_pb2.Game:
        game: games_pb2.Game = _call(
            self.games.GetGame, games_pb2.GetGameRequest(name=name), timeout=self.timeout
        ).game
        return game

    def watch(self, name: str, from_sequence: int = 0) -> Iterator[games_pb2.WatchGameResponse]:
        """The game's events from ``from_sequence`` on, each with the state after it, as they come:
        each game whole, the finished games the server sent earlier on the stream put back."""
        stream = self.games.WatchGame(games_pb2.WatchGameRequest(name=name, from_sequence=from_sequence))
        before = games_pb2.Game()
        try:
            for message in stream:
                before = with_finished_games_sent(message.game, before)
                yield message
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.CANCELLED:
                raise TavliServerError.from_rpc_error(error) from None
        finally:
            stream.cancel()

    def export_mat(self, name: str) -> str:
        """The game's match record in the .mat format."""
        request = games_pb2.ExportMatchRequest(name=name)
        mat: str = _call(self.games.ExportMatch, request, timeout=self.timeout).mat
        return mat

    def export_sgf(self, name: str) -> str:
        """The game's match record as GNU Backgammon's SGF.

        :raises TavliServerError: FORMAT_CANNOT_RECORD for a game of rules SGF cannot record.
        """
        request = games_pb2.ExportMatchRequest(name=name, format=match_record_pb2.MATCH_RECORD_FORMAT_SGF)
        sgf: str = _call(self.games.ExportMatch, request, timeout=self.timeout).sgf
        return sgf

    # --- analysis ---------------------------------------------------------------------------

    def ranked_plays(
        self,
        variant: VariantName,
        position_id: str,
        dice: tuple[int, int],
        context: analysis_pb2.GameContext | None = None,
    ) -> list[analysis_pb2.RankedPlay]:
        """GNU Backgammon's ranking of the roll's legal plays in a position seen from the side on
        roll, best first, in the match or money game ``context`` gives (money play, centred
        cube and 0 plies without it).

        :raises TavliServerError: as AnalysisService.ListRankedPlays fails (NO_EVALUATOR, ...).
        """
        request = analysis_pb2.ListRankedPlaysRequest(
            variant=VARIANT_ENUMS[variant],
            position=board_pb2.Position(position_id=position_id),
            dice=list(dice),
            context=context,
        )
        return list(_call(self.analysis.ListRankedPlays, request, timeout=self.timeout).plays)

    def analyze_match(
        self,
        *,
        record: str | bytes | None = None,
        game: str = "",
        plies: int = 0,
        on_progress: Callable[[analysis_pb2.AnalysisProgress], None] | None = None,
    ) -> MatchAnalysis:
        """GNU Backgammon's review of a match: a match record (.mat or SGF, its text or its
        file's bytes) or a stored game's name, at 0, 1 or 2 plies. ``on_progress`` is told how
        far the server has come while it works (no deadline applies: a long match at 2 plies
        takes minutes).

        :raises TavliServerError: as AnalysisService.AnalyzeMatch fails (NO_EVALUATOR,
            INVALID_MATCH_RECORD, CPU_BUDGET_SPENT, EVALUATOR_UNAVAILABLE, ...).
        """
        if (record is None) == (not game):
            raise ValueError("analyse either a match record or a stored game")
        request = analysis_pb2.AnalyzeMatchRequest(plies=plies)
        if record is None:
            request.game = game
        else:
            request.record.CopyFrom(_match_record(record))
        decisions: list[analysis_pb2.AnalyzedDecision] = []
        stream = self.analysis.AnalyzeMatch(request)
        try:
            for message in stream:
                item = message.WhichOneof("item")
                if item == "progress" and on_progress is not None:
                    on_progress(message.progress)
                elif item == "decision":
                    decisions.append(message.decision)
                elif item == "statistics":
                    return MatchAnalysis(decisions, list(message.statistics.players))
        except grpc.RpcError as error:
            raise TavliServerError.from_rpc_error(error) from None
        finally:
            stream.cancel()
        raise TavliServerError(
            grpc.StatusCode.UNAVAILABLE, "", "the analysis ended before its statistics came"
        )

    def stream_seat(self, name: str, token: str, *, resume: bool = False) -> SeatStream:
        """Hold the seat ``token`` holds at game ``name`` on a PlaySeat stream (see :class:`SeatStream`).
        ``resume``: a stream of this seat was lost (by this program, or by an earlier run of it):
        while the server has not yet let go of it, join again for a few seconds.

        :raises TavliServerError: if the server refuses the join (GAME_NOT_FOUND, WRONG_SEAT_TOKEN,
            SEAT_ALREADY_STREAMING).
        """
        return SeatStream(self, name, token, resume=resume)

    # --- accounts, challenges and the ladder (a client connected with an API key) ------------

    def account(self) -> ladder_pb2.Account:
        """The account this client's key acts for."""
        return _call(self.ladder.GetAccount, ladder_pb2.GetAccountRequest(), timeout=self.timeout).account  # type: ignore[no-any-return]

    def join_ladder(self, member: bool = True) -> ladder_pb2.Account:
        """Join the ladder (a bot's account), or leave it."""
        request = ladder_pb2.SetLadderMemberRequest(member=member)
        return _call(self.ladder.SetLadderMember, request, timeout=self.timeout).account  # type: ignore[no-any-return]

    def events(self, after_event_id: int = 0) -> Iterator[ladder_pb2.StreamEventsResponse]:
        """The account's event stream from the event after ``after_event_id`` (open until the
        server ends it or the caller stops iterating): first the games in progress, then events.

        :raises TavliServerError: if the server refuses or ends the stream.
        """
        call = self.ladder.StreamEvents(ladder_pb2.StreamEventsRequest(after_event_id=after_event_id))
        try:
            yield from call
        except grpc.RpcError as error:
            raise TavliServerError.from_rpc_error(error) from None
        finally:
            call.cancel()

    def challenge(
        self, opponent: str, rule_set: games_pb2.RuleSet, *, rated: bool = True
    ) -> ladder_pb2.Challenge:
        """Challenge the account ``opponent`` ("" for an open seek) to a match of ``rule_set``."""
        request = ladder_pb2.CreateChallengeRequest(opponent=opponent, rule_set=rule_set, rated=rated)
        return _call(self.ladder.CreateChallenge, request, timeout=self.timeout).challenge  # type: ignore[no-any-return]

    def accept_challenge(self, name: str) -> ladder_pb2.LadderGame:
        """Accept the challenge ``name``: the game it starts, with this account's seat token."""
        request = ladder_pb2.AcceptChallengeRequest(name=name)
        return _call(self.ladder.AcceptChallenge, request, timeout=self.timeout).game  # type: ignore[no-any-return]

    def decline_challenge(self, name: str, reason: ladder_pb2.DeclineReason) -> ladder_pb2.Challenge:
        request = ladder_pb2.DeclineChallengeRequest(name=name, reason=reason)
        return _call(self.ladder.DeclineChallenge, request, timeout=self.timeout).challenge  # type: ignore[no-any-return]

    def leaderboard(
        self, variant: MatchVariant = "backgammon", *, bots: bool = True
    ) -> list[ladder_pb2.LeaderboardEntry]:
        """The first page of ``variant``'s leaderboard, of bots or of people."""
        request = ladder_pb2.ListLeaderboardRequest(
            variant=MATCH_VARIANT_ENUMS[variant],
            kind=ladder_pb2.ACCOUNT_KIND_BOT if bots else ladder_pb2.ACCOUNT_KIND_HUMAN,
            page_size=200,
        )
        return list(_call(self.ladder.ListLeaderboard, request, timeout=self.timeout).entries)


@dataclass(frozen=True)
class MatchAnalysis:
    """A match reviewed: every decision in the match's order, and both players' statistics."""

    decisions: list[analysis_pb2.AnalyzedDecision]
    players: list[analysis_pb2.PlayerStatistics]


def _match_record(record: str | bytes) -> match_record_pb2.MatchRecord:
    """A .mat record as the API takes it: text as its text, bytes as the file's data."""
    if isinstance(record, bytes):
        return match_record_pb2.MatchRecord(data=record)
    return match_record_pb2.MatchRecord(text=record)


def _seated(players: tuple[str, str] | None) -> dict[str, games_pb2.Player]:
    """The request fields that name who sits at each seat."""
    if players is None:
        return {}
    return {
        "seat0_player": games_pb2.Player(display_name=players[0]),
        "seat1_player": games_pb2.Player(display_name=players[1]),
    }


def _dice_mode(dice_seed: str, verifiable_dice: bool) -> games_pb2.DiceMode:
    """The DiceMode of a new game: verifiable, seeded by ``dice_seed``, or the system's."""
    if verifiable_dice:
        return games_pb2.DICE_MODE_VERIFIABLE
    return games_pb2.DICE_MODE_SEEDED if dice_seed else games_pb2.DICE_MODE_UNSPECIFIED


def _seats(
    client: TavliClient, made: games_pb2.CreateGameResponse | games_pb2.ImportMatchResponse
) -> tuple[Seat, Seat]:
    """The two seats of a game just made, from the answer that holds their tokens."""
    name = made.game.name
    return Seat(client, name, 0, made.seat0_token, made.game), Seat(
        client, name, 1, made.seat1_token, made.game
    )


@dataclass
class Seat:
    """One seat of one game: acts with that seat's token, on the last state it saw."""

    client: TavliClient
    name: str
    index: Literal[0, 1]
    token: str
    last_seen: games_pb2.Game
    _etag: str = ""

    @property
    def seat(self) -> games_pb2.Seat:
        """This seat as the API's Seat enum."""
        return games_pb2.SEAT_0 if self.index == 0 else games_pb2.SEAT_1

    @property
    def etag(self) -> str:
        """The etag of the state this seat last saw: its next action applies only to that state."""
        return self._etag or self.last_seen.etag

    def observe(self, game: games_pb2.Game) -> None:
        """Adopt a state of the game read elsewhere (a watch, the other seat's answer): this
        seat's next action then applies to that state."""
        self.last_seen = game
        self._etag = game.etag

    def game(self) -> games_pb2.Game:
        """The game now (and remember its etag for the next action)."""
        self.last_seen = self.client.game(self.name)
        self._etag = self.last_seen.etag
        return self.last_seen

    def legal_actions(self) -> games_pb2.ListLegalActionsResponse:
        """What this seat may do now (and remember the etag of that state for the next action)."""
        request = games_pb2.ListLegalActionsRequest(name=self.name, seat=self.seat)
        response = _call(self.client.games.ListLegalActions, request, timeout=self.client.timeout)
        self._etag = response.etag
        return response  # type: ignore[no-any-return]

    def roll(self) -> games_pb2.Game:
        return self._act(self.client.games.RollDice, games_pb2.RollDiceRequest)

    def play(self, play: str | Sequence[Sequence[int]]) -> games_pb2.Game:
        """Make a play: in standard notation, or as its steps (each a start and an end, such as
        an engine ``Step``), as a GUI that moves checkers sends it."""
        if isinstance(play, str):
            return self._act(self.client.games.PlayMove, games_pb2.PlayMoveRequest, notation=play)
        steps = board_pb2.PlaySteps(
            steps=[board_pb2.Step(from_point=step[0], to_point=step[1]) for step in play]
        )
        return self._act(self.client.games.PlayMove, games_pb2.PlayMoveRequest, steps=steps)

    def double(self) -> games_pb2.Game:
        return self._act(self.client.games.OfferDouble, games_pb2.OfferDoubleRequest)

    def take(self) -> games_pb2.Game:
        return self._act(self.client.games.TakeDouble, games_pb2.TakeDoubleRequest)

    def drop(self) -> games_pb2.Game:
        return self._act(self.client.games.DropDouble, games_pb2.DropDoubleRequest)

    def beaver(self) -> games_pb2.Game:
        return self._act(self.client.games.BeaverDouble, games_pb2.BeaverDoubleRequest)

    def resign(self, level: ResignLevel) -> games_pb2.Game:
        return self._act(
            self.client.games.OfferResignation, games_pb2.OfferResignationRequest, result=RESULT_ENUMS[level]
        )

    def accept(self) -> games_pb2.Game:
        return self._act(self.client.games.AcceptResignation, games_pb2.AcceptResignationRequest)

    def reject(self) -> games_pb2.Game:
        return self._act(self.client.games.RejectResignation, games_pb2.RejectResignationRequest)

    def _act(self, method: Any, request_type: Any, **fields: Any) -> games_pb2.Game:
        request = request_type(
            name=self.name,
            seat_token=self.token,
            etag=self.etag,
            request_id=str(uuid.uuid4()),
            **fields,
        )
        self.last_seen = _call_again_while_unavailable(method, request, timeout=self.client.timeout).game
        self._etag = self.last_seen.etag
        return self.last_seen


# --- a seat on a stream --------------------------------------------------------------------------

_CLOSE = object()  # ends the requests of a connection


class SeatStream:
    """One seat of one game held on a PlaySeat stream.

    Iterating gives the seat's view each time it changes: a ``PlaySeatResponse`` with the game
    and ``legal_actions`` (the legal plays too when the seat has to play), the newest only when
    several came while the seat was acting; it ends after the view that shows the match over.
    The actions are a :class:`Seat`'s, so a :class:`~tavli.clients.seat_driver.SeatDriver` drives
    either: each is sent with the etag of the state last seen and a fresh request_id, and
    returns the game after it (the next view iterating gives), or raises
    :class:`TavliServerError` with the refusal; the stream goes on, and the refusal's view, the
    game now, is the next one iterating gives.

    A lost connection is resumed by itself, or by :meth:`resume`: the stream joins again and the
    server sends the game now; an action whose answer was lost is sent again with its request_id,
    so that it is made once. ``timeout`` (the client's by default) bounds each wait for the join
    and for an answer; the wait for the other seat is bounded only if :meth:`views` is told to.
    """

    def __init__(
        self,
        client: TavliClient,
        name: str,
        token: str,
        *,
        timeout: float | None = None,
        resume: bool = False,
    ) -> None:
        self.client = client
        self.name = name
        self.token = token
        self.timeout = client.timeout if timeout is None else timeout
        self.latest = games_pb2.PlaySeatResponse()
        self._etag = ""
        self._unseen = False  # whether iterating has yet to give ``latest``
        self._connection: _Connection | None = None
        self._closed = False
        self._join(resume=resume)

    # --- what a Seat has -------------------------------------------------------------------

    @property
    def seat(self) -> games_pb2.Seat:
        """This seat as the API's Seat enum."""
        return self.latest.seat

    @property
    def index(self) -> Literal[0, 1]:
        return 0 if self.latest.seat == games_pb2.SEAT_0 else 1

    @property
    def last_seen(self) -> games_pb2.Game:
        return self.latest.game

    @property
    def etag(self) -> str:
        """The etag of the state this seat last saw: its next action applies only to that state."""
        return self._etag or self.latest.game.etag

    @property
    def over(self) -> bool:
        """Whether the newest view shows the match over."""
        return self.latest.game.phase == games_pb2.PHASE_MATCH_OVER

    def observe(self, game: games_pb2.Game) -> None:
        """Make the next action on ``game``, a state read elsewhere."""
        self._etag = game.etag

    def game(self) -> games_pb2.Game:
        """The newest state the server has sent (no call is made)."""
        self._take_arrived()
        self._etag = ""
        return self.latest.game

    def legal_actions(self) -> games_pb2.ListLegalActionsResponse:
        """What this seat may do in the newest state the server has sent (no call is made)."""
        self.game()
        return self.latest.legal_actions

    def roll(self) -> games_pb2.Game:
        return self._act(roll=games_pb2.SeatAction.RollDice())

    def play(self, play: str | Sequence[Sequence[int]]) -> games_pb2.Game:
        """Make a play: in standard notation, or as its steps (each a start and an end)."""
        if isinstance(play, str):
            return self._act(play=games_pb2.SeatAction.PlayMove(notation=play))
        steps = [board_pb2.Step(from_point=step[0], to_point=step[1]) for step in play]
        return self._act(play=games_pb2.SeatAction.PlayMove(steps=board_pb2.PlaySteps(steps=steps)))

    def double(self) -> games_pb2.Game:
        return self._act(double=games_pb2.SeatAction.OfferDouble())

    def take(self) -> games_pb2.Game:
        return self._act(take=games_pb2.SeatAction.TakeDouble())

    def drop(self) -> games_pb2.Game:
        return self._act(drop=games_pb2.SeatAction.DropDouble())

    def beaver(self) -> games_pb2.Game:
        return self._act(beaver=games_pb2.SeatAction.BeaverDouble())

    def resign(self, level: ResignLevel) -> games_pb2.Game:
        return self._act(resign=games_pb2.SeatAction.OfferResignation(result=RESULT_ENUMS[level]))

    def accept(self) -> games_pb2.Game:
        return self._act(accept=games_pb2.SeatAction.AcceptResignation())

    def reject(self) -> games_pb2.Game:
        return self._act(reject=games_pb2.SeatAction.RejectResignation())

    # --- the stream ------------------------------------------------------------------------

    def __iter__(self) -> Iterator[games_pb2.PlaySeatResponse]:
        return self.views()

    def views(self, *, timeout: float | None = None) -> Iterator[games_pb2.PlaySeatResponse]:
        """The seat's views as they come (see the class); each wait for the next one is bounded
        by ``timeout`` seconds, if given.

        :raises TimeoutError: if none came within ``timeout``.
        :raises TavliServerError: if the stream fails and cannot be resumed.
        """
        while True:
            self._take_arrived()
            if self._unseen:
                self._unseen = False
                yield self.latest
                continue
            if self.over:
                return
            try:
                self._adopt(self._open().receive(timeout))
            except _Lost as lost:
                if self._closed:
                    return
                if lost.timed_out:
                    raise TimeoutError(f"no news of {self.name} came within {timeout} s") from None
                if not lost.worth_joining_again:
                    raise lost.error() from None
                self.resume()

    def send(self, action: games_pb2.SeatAction) -> games_pb2.PlaySeatResponse:
        """Send one action and return its answer, refused or not (``answer.refusal`` says),
        taking in the views that come before it. If the connection is lost before the answer
        comes, the stream is resumed and the action sent again: give it a request_id.

        :raises TavliServerError: if the stream fails and cannot be resumed, or has ended (the
            match is over: MATCH_OVER).
        """
        request = games_pb2.PlaySeatRequest(action=action)
        for pause in (*_RETRY_PAUSES, None):
            connection = self._open()
            connection.send(request)
            try:
                while True:
                    response = self._adopt(connection.receive(self.timeout))
                    if response.HasField("answer"):
                        return response
            except _Lost as lost:
                if self._closed or pause is None or not lost.worth_joining_again:
                    raise lost.error() from None
            time.sleep(pause)
            self.resume()
        raise AssertionError("unreachable")

    def resume(self) -> None:
        """Let go of this stream and join again: the server sends the game now.

        :raises TavliServerError: if the server refuses the join.
        """
        self._hang_up()
        self._closed = False
        self._join(resume=True)

    def close(self) -> None:
        """Let go of the seat: the stream ends, and another may join it. May be called from
        another thread than the seat's: a wait for a view there ends, an action fails."""
        self._closed = True
        connection = self._connection
        if connection is not None:
            connection.hang_up()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- inside ------------------------------------------------------------------------------

    def _act(self, **action: Any) -> games_pb2.Game:
        response = self.send(games_pb2.SeatAction(etag=self.etag, request_id=str(uuid.uuid4()), **action))
        if response.answer.HasField("refusal"):
            raise _refusal_error(response.answer.refusal)
        return response.game

    def _join(self, *, resume: bool) -> None:
        """Open a stream and take in the view it starts with, trying again while the server
        cannot be reached and, when resuming, while it has not yet let go of the old stream.

        :raises TavliServerError: if the server refuses the join.
        """
        for pause in (*_RETRY_PAUSES, None):
            connection = _Connection(self.client, games_pb2.JoinSeat(name=self.name, seat_token=self.token))
            self._connection = connection  # so that close(), from another thread, hangs it up
            try:
                self._adopt(connection.receive(self.timeout))
            except _Lost as lost:
                self._hang_up()
                again = lost.worth_joining_again and (resume or lost.reason != "SEAT_ALREADY_STREAMING")
                if self._closed or pause is None or not again:
                    raise lost.error() from None
                time.sleep(pause)
                continue
            return

    def _open(self) -> _Connection:
        if self._closed:
            raise TavliServerError(grpc.StatusCode.CANCELLED, "", "the seat's stream was closed")
        if self._connection is None:
            self._join(resume=True)
        assert self._connection is not None
        return self._connection

    def _take_arrived(self) -> None:
        """Take in the messages that have come, without waiting for any."""
        while self._connection is not None:
            response = self._connection.arrived()
            if response is None:
                return
            self._adopt(response)

    def _adopt(self, response: games_pb2.PlaySeatResponse) -> games_pb2.PlaySeatResponse:
        with_finished_games_sent(response.game, self.latest.game)
        self.latest = response
        self._etag = ""
        self._unseen = True
        return response

    def _hang_up(self) -> None:
        if self._connection is not None:
            self._connection.hang_up()
            self._connection = None


_STATUS_CODES = {code.value[0]: code for code in grpc.StatusCode}


def with_finished_games_sent(game: games_pb2.Game, before: games_pb2.Game) -> games_pb2.Game:
    """``game``, a stream's message, made whole: the finished games it leaves out because the
    stream sent them earlier (``Game.omitted_finished_game_count``) taken from ``before``, the
    stream's previous game, already whole. Changes ``game`` and returns it."""
    omitted = game.omitted_finished_game_count
    if omitted:
        finished = [*before.finished_games[:omitted], *game.finished_games]
        del game.finished_games[:]
        game.finished_games.extend(finished)
        game.ClearField("omitted_finished_game_count")
    return game


def _refusal_error(refusal: games_pb2.SeatActionRefusal) -> TavliServerError:
    reason = ""
    for detail in refusal.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            reason = info.reason
    return TavliServerError(_STATUS_CODES.get(refusal.code, grpc.StatusCode.UNKNOWN), reason, refusal.message)


class _Lost(Exception):
    """A stream ended (``failure``: its error, None when it ended with OK) or went quiet
    (``timed_out``) before the message waited for."""

    def __init__(self, failure: grpc.RpcError | None, *, timed_out: bool = False) -> None:
        super().__init__(failure)
        self.failure = failure
        self.timed_out = timed_out
        self.reason = TavliServerError.from_rpc_error(failure).reason if failure is not None else ""

    @property
    def worth_joining_again(self) -> bool:
        """Whether the stream is worth joining again: the connection was lost (or the server is
        restarting), or the server had not yet let go of the seat's previous stream."""
        if self.timed_out:
            return True
        if self.failure is None:
            return False
        return worth_sending_again(self.failure) or self.reason == "SEAT_ALREADY_STREAMING"

    def error(self) -> TavliServerError:
        if self.timed_out:
            late = "the server did not answer in time"
            return TavliServerError(grpc.StatusCode.DEADLINE_EXCEEDED, "", late)
        if self.failure is None:
            over = "the match is over: the server ended the stream"
            return TavliServerError(grpc.StatusCode.FAILED_PRECONDITION, "MATCH_OVER", over)
        return TavliServerError.from_rpc_error(self.failure)


class _End:
    """The last item of a connection's messages: how its stream ended (``status`` None: OK)."""

    def __init__(self, status: grpc.RpcError | None) -> None:
        self.status = status


class _Connection:
    """One PlaySeat call: its requests queued for grpc's sending thread, its messages read into
    a queue by a thread of its own (so that a wait for one can time out, or not wait at all)."""

    def __init__(self, client: TavliClient, join: games_pb2.JoinSeat) -> None:
        self._requests: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._requests.put(games_pb2.PlaySeatRequest(join=join))
        self._messages: queue.SimpleQueue[games_pb2.PlaySeatResponse | _End] = queue.SimpleQueue()
        self._call = client.games.PlaySeat(iter(self._requests.get, _CLOSE))
        threading.Thread(target=self._read, name="tavli-seat-stream", daemon=True).start()

    def send(self, request: games_pb2.PlaySeatRequest) -> None:
        self._requests.put(request)

    def receive(self, timeout: float | None) -> games_pb2.PlaySeatResponse:
        """The next message.

        :raises _Lost: if the stream has ended, or nothing came within ``timeout`` seconds.
        """
        try:
            message = self._messages.get(timeout=timeout)
        except queue.Empty:
            raise _Lost(None, timed_out=True) from None
        if isinstance(message, _End):
            self._messages.put(message)  # the end stays the end for whoever reads next
            raise _Lost(message.status)
        return message

    def arrived(self) -> games_pb2.PlaySeatResponse | None:
        """The next message if one has come (and it is not the stream's end)."""
        try:
            message = self._messages.get_nowait()
        except queue.Empty:
            return None
        if isinstance(message, _End):
            self._messages.put(message)
            return None
        return message

    def hang_up(self) -> None:
        self._requests.put(_CLOSE)
        self._call.cancel()

    def _read(self) -> None:
        status = None
        try:
            for message in self._call:
                self._messages.put(message)
        except grpc.RpcError as error:
            status = error
        self._messages.put(_End(status))
