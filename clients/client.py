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
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from tavli.engine import BACKGAMMON, VARIANTS, GameResult
from tavli.engine.variant import VariantName as VariantName  # re-exported for the commands
from tavli.v1 import (
    board_pb2,
    games_service_pb2 as games_pb2,
    games_service_pb2_grpc,
    rules_service_pb2 as rules_pb2,
    rules_service_pb2_grpc,
)

ResignLevel = Literal["single", "gammon", "backgammon", "mars"]

# The API's enum numbers for the names a Python program uses, and back: derived from the names,
# so a new variant needs only its engine module and its enum value.
VARIANT_ENUMS: dict[VariantName, int] = {
    variant.name: board_pb2.Variant.Value("VARIANT_" + variant.name.upper().replace("-", "_"))
    for variant in VARIANTS.values()
}
VARIANT_NAMES: dict[int, VariantName] = {number: name for name, number in VARIANT_ENUMS.items()}
RESULT_ENUMS: dict[ResignLevel, int] = {
    result.value: board_pb2.GameResult.Value("GAME_RESULT_" + result.value.upper()) for result in GameResult
}
RESULT_LEVELS: dict[int, ResignLevel] = {number: level for level, number in RESULT_ENUMS.items()}


class TavliServerError(Exception):
    """An error status from the server: ``code`` (a grpc.StatusCode), ``reason`` (the stable
    ErrorInfo reason, e.g. ``ILLEGAL_PLAY``) and ``message`` (the reason in words)."""

    def __init__(self, code: grpc.StatusCode, reason: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message

    @classmethod
    def from_rpc_error(cls, error: grpc.RpcError) -> TavliServerError:
        reason = ""
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        if status is not None:
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    reason = info.reason
        return cls(error.code(), reason, error.details() or "")  # type: ignore[attr-defined]


def _call(method: Any, request: Any, **kwargs: Any) -> Any:
    try:
        return method(request, **kwargs)
    except grpc.RpcError as error:
        raise TavliServerError.from_rpc_error(error) from None


# A request with a request_id is safe to send again: the server answers a repeat with its first
# answer. Sent again while the server is unreachable (restarting, or a full disk), a few times
# over about ten seconds.
_RETRIED = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)
_RETRY_PAUSES = (0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 3.0)


def _call_again_while_unavailable(method: Any, request: Any, **kwargs: Any) -> Any:
    for pause in _RETRY_PAUSES:
        try:
            return method(request, **kwargs)
        except grpc.RpcError as error:
            if error.code() not in _RETRIED:  # type: ignore[attr-defined]
                raise TavliServerError.from_rpc_error(error) from None
        time.sleep(pause)
    return _call(method, request, **kwargs)


@dataclass
class TavliClient:
    """A connection to a tavli server."""

    channel: grpc.Channel
    timeout: float = 30.0
    rules: rules_service_pb2_grpc.RulesServiceStub = field(init=False)
    games: games_service_pb2_grpc.GamesServiceStub = field(init=False)

    def __post_init__(self) -> None:
        self.rules = rules_service_pb2_grpc.RulesServiceStub(self.channel)
        self.games = games_service_pb2_grpc.GamesServiceStub(self.channel)

    @classmethod
    def connect(cls, address: str, *, timeout: float = 30.0) -> TavliClient:
        """Connect without TLS to ``host:port`` (use :class:`TavliClient` with your own channel for TLS)."""
        return cls(grpc.insecure_channel(address), timeout=timeout)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> TavliClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- rules ------------------------------------------------------------------------------

    def legal_plays(self, variant: VariantName, position_id: str, dice: tuple[int, int]) -> list[board_pb2.Play]:
        request = rules_pb2.ListLegalPlaysRequest(
            variant=VARIANT_ENUMS[variant], position=board_pb2.Position(position_id=position_id), dice=list(dice)
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

    # --- games ------------------------------------------------------------------------------

    def create_game(
        self,
        *,
        variant: VariantName = BACKGAMMON.name,
        match_length: int = 0,
        dice_seed: str = "",
        verifiable_dice: bool = False,
        **options: Any,
    ) -> tuple[Seat, Seat]:
        """Create a game; returns its two seats. ``options`` are RuleSet fields (``cube=...``
        takes True/False, ``opening``/``match_openings`` take the engine's names)."""
        rule_set = games_pb2.RuleSet(variant=VARIANT_ENUMS[variant], match_length=match_length)
        for name, value in options.items():
            if name == "cube":
                value = games_pb2.CUBE_MODE_CUBE if value else games_pb2.CUBE_MODE_NO_CUBE
            elif name == "opening":
                value = getattr(games_pb2, f"OPENING_{value}")
            elif name == "match_openings":
                value = getattr(games_pb2, f"MATCH_OPENINGS_{value}")
            setattr(rule_set, name, value)
        mode = (
            games_pb2.DICE_MODE_VERIFIABLE
            if verifiable_dice
            else games_pb2.DICE_MODE_SEEDED
            if dice_seed
            else games_pb2.DICE_MODE_UNSPECIFIED
        )
        request = games_pb2.CreateGameRequest(
            rule_set=rule_set, dice_mode=mode, dice_seed=dice_seed, request_id=str(uuid.uuid4())
        )
        created = _call_again_while_unavailable(self.games.CreateGame, request, timeout=self.timeout)
        name = created.game.name
        return (
            Seat(self, name, 0, created.seat0_token, created.game),
            Seat(self, name, 1, created.seat1_token, created.game),
        )

    def game(self, name: str) -> games_pb2.Game:
        return _call(self.games.GetGame, games_pb2.GetGameRequest(name=name), timeout=self.timeout).game

    def watch(self, name: str, from_sequence: int = 0) -> Iterator[games_pb2.WatchGameResponse]:
        """The game's events from ``from_sequence`` on, each with the state after it, as they come."""
        stream = self.games.WatchGame(games_pb2.WatchGameRequest(name=name, from_sequence=from_sequence))
        try:
            yield from stream
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.CANCELLED:  # type: ignore[attr-defined]
                raise TavliServerError.from_rpc_error(error) from None
        finally:
            stream.cancel()

    def export_mat(self, name: str) -> str:
        return _call(self.games.ExportMatch, games_pb2.ExportMatchRequest(name=name), timeout=self.timeout).mat


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
    def seat(self) -> int:
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

    def play(self, play: str | Sequence[tuple[int, int]]) -> games_pb2.Game:
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
