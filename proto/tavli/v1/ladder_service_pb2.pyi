import datetime

from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tavli.v1 import board_pb2 as _board_pb2
from tavli.v1 import games_service_pb2 as _games_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AccountKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACCOUNT_KIND_UNSPECIFIED: _ClassVar[AccountKind]
    ACCOUNT_KIND_HUMAN: _ClassVar[AccountKind]
    ACCOUNT_KIND_BOT: _ClassVar[AccountKind]

class ChallengeState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHALLENGE_STATE_UNSPECIFIED: _ClassVar[ChallengeState]
    CHALLENGE_STATE_OPEN: _ClassVar[ChallengeState]
    CHALLENGE_STATE_ACCEPTED: _ClassVar[ChallengeState]
    CHALLENGE_STATE_DECLINED: _ClassVar[ChallengeState]
    CHALLENGE_STATE_CANCELLED: _ClassVar[ChallengeState]
    CHALLENGE_STATE_EXPIRED: _ClassVar[ChallengeState]

class DeclineReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECLINE_REASON_UNSPECIFIED: _ClassVar[DeclineReason]
    DECLINE_REASON_GENERIC: _ClassVar[DeclineReason]
    DECLINE_REASON_LATER: _ClassVar[DeclineReason]
    DECLINE_REASON_TOO_FAST: _ClassVar[DeclineReason]
    DECLINE_REASON_TOO_SLOW: _ClassVar[DeclineReason]
    DECLINE_REASON_VARIANT: _ClassVar[DeclineReason]
    DECLINE_REASON_RATED: _ClassVar[DeclineReason]
    DECLINE_REASON_CASUAL: _ClassVar[DeclineReason]
    DECLINE_REASON_MATCH_LENGTH: _ClassVar[DeclineReason]
    DECLINE_REASON_NO_BOT: _ClassVar[DeclineReason]
    DECLINE_REASON_ONLY_BOT: _ClassVar[DeclineReason]

class GameEndedHow(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_ENDED_HOW_UNSPECIFIED: _ClassVar[GameEndedHow]
    GAME_ENDED_HOW_PLAYED: _ClassVar[GameEndedHow]
    GAME_ENDED_HOW_ABORTED: _ClassVar[GameEndedHow]
    GAME_ENDED_HOW_CLAIMED: _ClassVar[GameEndedHow]
ACCOUNT_KIND_UNSPECIFIED: AccountKind
ACCOUNT_KIND_HUMAN: AccountKind
ACCOUNT_KIND_BOT: AccountKind
CHALLENGE_STATE_UNSPECIFIED: ChallengeState
CHALLENGE_STATE_OPEN: ChallengeState
CHALLENGE_STATE_ACCEPTED: ChallengeState
CHALLENGE_STATE_DECLINED: ChallengeState
CHALLENGE_STATE_CANCELLED: ChallengeState
CHALLENGE_STATE_EXPIRED: ChallengeState
DECLINE_REASON_UNSPECIFIED: DeclineReason
DECLINE_REASON_GENERIC: DeclineReason
DECLINE_REASON_LATER: DeclineReason
DECLINE_REASON_TOO_FAST: DeclineReason
DECLINE_REASON_TOO_SLOW: DeclineReason
DECLINE_REASON_VARIANT: DeclineReason
DECLINE_REASON_RATED: DeclineReason
DECLINE_REASON_CASUAL: DeclineReason
DECLINE_REASON_MATCH_LENGTH: DeclineReason
DECLINE_REASON_NO_BOT: DeclineReason
DECLINE_REASON_ONLY_BOT: DeclineReason
GAME_ENDED_HOW_UNSPECIFIED: GameEndedHow
GAME_ENDED_HOW_PLAYED: GameEndedHow
GAME_ENDED_HOW_ABORTED: GameEndedHow
GAME_ENDED_HOW_CLAIMED: GameEndedHow

class Account(_message.Message):
    __slots__ = ("name", "handle", "display_name", "kind", "ladder_member", "create_time")
    NAME_FIELD_NUMBER: _ClassVar[int]
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LADDER_MEMBER_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    name: str
    handle: str
    display_name: str
    kind: AccountKind
    ladder_member: bool
    create_time: _timestamp_pb2.Timestamp
    def __init__(self, name: _Optional[str] = ..., handle: _Optional[str] = ..., display_name: _Optional[str] = ..., kind: _Optional[_Union[AccountKind, str]] = ..., ladder_member: _Optional[bool] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Challenge(_message.Message):
    __slots__ = ("name", "challenger", "opponent", "rule_set", "rated", "state", "decline_reason", "create_time", "expire_time", "game")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CHALLENGER_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    DECLINE_REASON_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    EXPIRE_TIME_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    challenger: str
    opponent: str
    rule_set: _games_service_pb2.RuleSet
    rated: bool
    state: ChallengeState
    decline_reason: DeclineReason
    create_time: _timestamp_pb2.Timestamp
    expire_time: _timestamp_pb2.Timestamp
    game: str
    def __init__(self, name: _Optional[str] = ..., challenger: _Optional[str] = ..., opponent: _Optional[str] = ..., rule_set: _Optional[_Union[_games_service_pb2.RuleSet, _Mapping]] = ..., rated: _Optional[bool] = ..., state: _Optional[_Union[ChallengeState, str]] = ..., decline_reason: _Optional[_Union[DeclineReason, str]] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., expire_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., game: _Optional[str] = ...) -> None: ...

class LadderGame(_message.Message):
    __slots__ = ("game", "seat", "seat_token", "opponent", "rule_set", "rated", "challenge")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    game: str
    seat: _games_service_pb2.Seat
    seat_token: str
    opponent: str
    rule_set: _games_service_pb2.RuleSet
    rated: bool
    challenge: str
    def __init__(self, game: _Optional[str] = ..., seat: _Optional[_Union[_games_service_pb2.Seat, str]] = ..., seat_token: _Optional[str] = ..., opponent: _Optional[str] = ..., rule_set: _Optional[_Union[_games_service_pb2.RuleSet, _Mapping]] = ..., rated: _Optional[bool] = ..., challenge: _Optional[str] = ...) -> None: ...

class LadderEvent(_message.Message):
    __slots__ = ("event_id", "time", "challenge_received", "challenge_closed", "game_started", "game_ended", "rematch_offered", "notice")
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_CLOSED_FIELD_NUMBER: _ClassVar[int]
    GAME_STARTED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    REMATCH_OFFERED_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    event_id: int
    time: _timestamp_pb2.Timestamp
    challenge_received: Challenge
    challenge_closed: Challenge
    game_started: LadderGame
    game_ended: GameEnded
    rematch_offered: RematchOffered
    notice: LadderNotice
    def __init__(self, event_id: _Optional[int] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., challenge_received: _Optional[_Union[Challenge, _Mapping]] = ..., challenge_closed: _Optional[_Union[Challenge, _Mapping]] = ..., game_started: _Optional[_Union[LadderGame, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ..., rematch_offered: _Optional[_Union[RematchOffered, _Mapping]] = ..., notice: _Optional[_Union[LadderNotice, _Mapping]] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("game", "how", "winner", "rating", "deviation", "rated")
    GAME_FIELD_NUMBER: _ClassVar[int]
    HOW_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    DEVIATION_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    game: str
    how: GameEndedHow
    winner: str
    rating: float
    deviation: float
    rated: bool
    def __init__(self, game: _Optional[str] = ..., how: _Optional[_Union[GameEndedHow, str]] = ..., winner: _Optional[str] = ..., rating: _Optional[float] = ..., deviation: _Optional[float] = ..., rated: _Optional[bool] = ...) -> None: ...

class RematchOffered(_message.Message):
    __slots__ = ("game", "offered_by")
    GAME_FIELD_NUMBER: _ClassVar[int]
    OFFERED_BY_FIELD_NUMBER: _ClassVar[int]
    game: str
    offered_by: str
    def __init__(self, game: _Optional[str] = ..., offered_by: _Optional[str] = ...) -> None: ...

class LadderNotice(_message.Message):
    __slots__ = ("reason", "message", "game")
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    reason: str
    message: str
    game: str
    def __init__(self, reason: _Optional[str] = ..., message: _Optional[str] = ..., game: _Optional[str] = ...) -> None: ...

class CreateAccountRequest(_message.Message):
    __slots__ = ("handle", "display_name", "kind")
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    handle: str
    display_name: str
    kind: AccountKind
    def __init__(self, handle: _Optional[str] = ..., display_name: _Optional[str] = ..., kind: _Optional[_Union[AccountKind, str]] = ...) -> None: ...

class CreateAccountResponse(_message.Message):
    __slots__ = ("account", "api_key")
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    API_KEY_FIELD_NUMBER: _ClassVar[int]
    account: Account
    api_key: str
    def __init__(self, account: _Optional[_Union[Account, _Mapping]] = ..., api_key: _Optional[str] = ...) -> None: ...

class GetAccountRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class GetAccountResponse(_message.Message):
    __slots__ = ("account",)
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    account: Account
    def __init__(self, account: _Optional[_Union[Account, _Mapping]] = ...) -> None: ...

class SetLadderMemberRequest(_message.Message):
    __slots__ = ("member",)
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    member: bool
    def __init__(self, member: _Optional[bool] = ...) -> None: ...

class SetLadderMemberResponse(_message.Message):
    __slots__ = ("account",)
    ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    account: Account
    def __init__(self, account: _Optional[_Union[Account, _Mapping]] = ...) -> None: ...

class StreamEventsRequest(_message.Message):
    __slots__ = ("after_event_id",)
    AFTER_EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    after_event_id: int
    def __init__(self, after_event_id: _Optional[int] = ...) -> None: ...

class StreamEventsResponse(_message.Message):
    __slots__ = ("games_in_progress", "event")
    GAMES_IN_PROGRESS_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    games_in_progress: _containers.RepeatedCompositeFieldContainer[LadderGame]
    event: LadderEvent
    def __init__(self, games_in_progress: _Optional[_Iterable[_Union[LadderGame, _Mapping]]] = ..., event: _Optional[_Union[LadderEvent, _Mapping]] = ...) -> None: ...

class CreateChallengeRequest(_message.Message):
    __slots__ = ("opponent", "rule_set", "rated", "time_to_live")
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    RATED_FIELD_NUMBER: _ClassVar[int]
    TIME_TO_LIVE_FIELD_NUMBER: _ClassVar[int]
    opponent: str
    rule_set: _games_service_pb2.RuleSet
    rated: bool
    time_to_live: _duration_pb2.Duration
    def __init__(self, opponent: _Optional[str] = ..., rule_set: _Optional[_Union[_games_service_pb2.RuleSet, _Mapping]] = ..., rated: _Optional[bool] = ..., time_to_live: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class CreateChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class ListChallengesRequest(_message.Message):
    __slots__ = ("variant",)
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ...) -> None: ...

class ListChallengesResponse(_message.Message):
    __slots__ = ("challenges",)
    CHALLENGES_FIELD_NUMBER: _ClassVar[int]
    challenges: _containers.RepeatedCompositeFieldContainer[Challenge]
    def __init__(self, challenges: _Optional[_Iterable[_Union[Challenge, _Mapping]]] = ...) -> None: ...

class AcceptChallengeRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class AcceptChallengeResponse(_message.Message):
    __slots__ = ("challenge", "game")
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    game: LadderGame
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ..., game: _Optional[_Union[LadderGame, _Mapping]] = ...) -> None: ...

class DeclineChallengeRequest(_message.Message):
    __slots__ = ("name", "reason")
    NAME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    name: str
    reason: DeclineReason
    def __init__(self, name: _Optional[str] = ..., reason: _Optional[_Union[DeclineReason, str]] = ...) -> None: ...

class DeclineChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class CancelChallengeRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class CancelChallengeResponse(_message.Message):
    __slots__ = ("challenge",)
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    challenge: Challenge
    def __init__(self, challenge: _Optional[_Union[Challenge, _Mapping]] = ...) -> None: ...

class AbortGameRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class AbortGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _games_service_pb2.Game
    def __init__(self, game: _Optional[_Union[_games_service_pb2.Game, _Mapping]] = ...) -> None: ...

class ClaimGameRequest(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: str
    def __init__(self, game: _Optional[str] = ...) -> None: ...

class ClaimGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _games_service_pb2.Game
    def __init__(self, game: _Optional[_Union[_games_service_pb2.Game, _Mapping]] = ...) -> None: ...

class ListLeaderboardRequest(_message.Message):
    __slots__ = ("variant", "kind", "page_size", "page_token")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    kind: AccountKind
    page_size: int
    page_token: str
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., kind: _Optional[_Union[AccountKind, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class LeaderboardEntry(_message.Message):
    __slots__ = ("handle", "display_name", "rating", "deviation", "games", "rank")
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    DEVIATION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    handle: str
    display_name: str
    rating: float
    deviation: float
    games: int
    rank: int
    def __init__(self, handle: _Optional[str] = ..., display_name: _Optional[str] = ..., rating: _Optional[float] = ..., deviation: _Optional[float] = ..., games: _Optional[int] = ..., rank: _Optional[int] = ...) -> None: ...

class ListLeaderboardResponse(_message.Message):
    __slots__ = ("entries", "next_page_token")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[LeaderboardEntry]
    next_page_token: str
    def __init__(self, entries: _Optional[_Iterable[_Union[LeaderboardEntry, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ListRatingHistoryRequest(_message.Message):
    __slots__ = ("handle", "variant", "page_size")
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    handle: str
    variant: _board_pb2.Variant
    page_size: int
    def __init__(self, handle: _Optional[str] = ..., variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., page_size: _Optional[int] = ...) -> None: ...

class RatingChange(_message.Message):
    __slots__ = ("game", "rating", "deviation", "time", "opponent", "won")
    GAME_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    DEVIATION_FIELD_NUMBER: _ClassVar[int]
    TIME_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    WON_FIELD_NUMBER: _ClassVar[int]
    game: str
    rating: float
    deviation: float
    time: _timestamp_pb2.Timestamp
    opponent: str
    won: bool
    def __init__(self, game: _Optional[str] = ..., rating: _Optional[float] = ..., deviation: _Optional[float] = ..., time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., opponent: _Optional[str] = ..., won: _Optional[bool] = ...) -> None: ...

class ListRatingHistoryResponse(_message.Message):
    __slots__ = ("changes",)
    CHANGES_FIELD_NUMBER: _ClassVar[int]
    changes: _containers.RepeatedCompositeFieldContainer[RatingChange]
    def __init__(self, changes: _Optional[_Iterable[_Union[RatingChange, _Mapping]]] = ...) -> None: ...

class ListOnlineAccountsRequest(_message.Message):
    __slots__ = ("variant", "page_size", "page_token")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    page_size: int
    page_token: str
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class OnlineAccount(_message.Message):
    __slots__ = ("handle", "display_name", "kind", "rating", "deviation", "games", "ladder_member")
    HANDLE_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    DEVIATION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    LADDER_MEMBER_FIELD_NUMBER: _ClassVar[int]
    handle: str
    display_name: str
    kind: AccountKind
    rating: float
    deviation: float
    games: int
    ladder_member: bool
    def __init__(self, handle: _Optional[str] = ..., display_name: _Optional[str] = ..., kind: _Optional[_Union[AccountKind, str]] = ..., rating: _Optional[float] = ..., deviation: _Optional[float] = ..., games: _Optional[int] = ..., ladder_member: _Optional[bool] = ...) -> None: ...

class ListOnlineAccountsResponse(_message.Message):
    __slots__ = ("accounts", "next_page_token")
    ACCOUNTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    accounts: _containers.RepeatedCompositeFieldContainer[OnlineAccount]
    next_page_token: str
    def __init__(self, accounts: _Optional[_Iterable[_Union[OnlineAccount, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...
