import datetime

from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tavli.v1 import board_pb2 as _board_pb2
from tavli.v1 import games_service_pb2 as _games_service_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots", "max_match_length")
    BOTS_FIELD_NUMBER: _ClassVar[int]
    MAX_MATCH_LENGTH_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    max_match_length: int
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ..., max_match_length: _Optional[int] = ...) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("name", "description", "variants")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    VARIANTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    variants: _containers.RepeatedScalarFieldContainer[_board_pb2.Variant]
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., variants: _Optional[_Iterable[_Union[_board_pb2.Variant, str]]] = ...) -> None: ...

class SeatBotRequest(_message.Message):
    __slots__ = ("name", "seat_token", "bot")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    bot: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., bot: _Optional[str] = ...) -> None: ...

class SeatBotResponse(_message.Message):
    __slots__ = ("seat", "bot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    seat: _games_service_pb2.Seat
    bot: str
    def __init__(self, seat: _Optional[_Union[_games_service_pb2.Seat, str]] = ..., bot: _Optional[str] = ...) -> None: ...

class GetSeatBotRequest(_message.Message):
    __slots__ = ("name", "seat")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat: _games_service_pb2.Seat
    def __init__(self, name: _Optional[str] = ..., seat: _Optional[_Union[_games_service_pb2.Seat, str]] = ...) -> None: ...

class GetSeatBotResponse(_message.Message):
    __slots__ = ("seat", "bot", "description", "seat_time")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    SEAT_TIME_FIELD_NUMBER: _ClassVar[int]
    seat: _games_service_pb2.Seat
    bot: str
    description: str
    seat_time: _timestamp_pb2.Timestamp
    def __init__(self, seat: _Optional[_Union[_games_service_pb2.Seat, str]] = ..., bot: _Optional[str] = ..., description: _Optional[str] = ..., seat_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
