from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class MatchRecordFormat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_RECORD_FORMAT_UNSPECIFIED: _ClassVar[MatchRecordFormat]
    MATCH_RECORD_FORMAT_MAT: _ClassVar[MatchRecordFormat]
    MATCH_RECORD_FORMAT_SGF: _ClassVar[MatchRecordFormat]
MATCH_RECORD_FORMAT_UNSPECIFIED: MatchRecordFormat
MATCH_RECORD_FORMAT_MAT: MatchRecordFormat
MATCH_RECORD_FORMAT_SGF: MatchRecordFormat

class MatchRecord(_message.Message):
    __slots__ = ("text", "data")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    text: str
    data: bytes
    def __init__(self, text: _Optional[str] = ..., data: _Optional[bytes] = ...) -> None: ...

class MatchProblem(_message.Message):
    __slots__ = ("game", "move", "line", "side", "action", "reason")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    game: int
    move: int
    line: int
    side: int
    action: str
    reason: str
    def __init__(self, game: _Optional[int] = ..., move: _Optional[int] = ..., line: _Optional[int] = ..., side: _Optional[int] = ..., action: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...
