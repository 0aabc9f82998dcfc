from tavli.v1 import board_pb2 as _board_pb2
from tavli.v1 import match_record_pb2 as _match_record_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CubeOwner(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CUBE_OWNER_UNSPECIFIED: _ClassVar[CubeOwner]
    CUBE_OWNER_PLAYER: _ClassVar[CubeOwner]
    CUBE_OWNER_OPPONENT: _ClassVar[CubeOwner]

class CubeAction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CUBE_ACTION_UNSPECIFIED: _ClassVar[CubeAction]
    CUBE_ACTION_NO_DOUBLE: _ClassVar[CubeAction]
    CUBE_ACTION_DOUBLE_TAKE: _ClassVar[CubeAction]
    CUBE_ACTION_DOUBLE_PASS: _ClassVar[CubeAction]
    CUBE_ACTION_TOO_GOOD: _ClassVar[CubeAction]

class CubeResponse(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CUBE_RESPONSE_UNSPECIFIED: _ClassVar[CubeResponse]
    CUBE_RESPONSE_TAKE: _ClassVar[CubeResponse]
    CUBE_RESPONSE_PASS: _ClassVar[CubeResponse]

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_CHEQUER: _ClassVar[DecisionKind]
    DECISION_KIND_CUBE: _ClassVar[DecisionKind]
CUBE_OWNER_UNSPECIFIED: CubeOwner
CUBE_OWNER_PLAYER: CubeOwner
CUBE_OWNER_OPPONENT: CubeOwner
CUBE_ACTION_UNSPECIFIED: CubeAction
CUBE_ACTION_NO_DOUBLE: CubeAction
CUBE_ACTION_DOUBLE_TAKE: CubeAction
CUBE_ACTION_DOUBLE_PASS: CubeAction
CUBE_ACTION_TOO_GOOD: CubeAction
CUBE_RESPONSE_UNSPECIFIED: CubeResponse
CUBE_RESPONSE_TAKE: CubeResponse
CUBE_RESPONSE_PASS: CubeResponse
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_CHEQUER: DecisionKind
DECISION_KIND_CUBE: DecisionKind

class GameContext(_message.Message):
    __slots__ = ("match_length", "player_score", "opponent_score", "crawford", "cube_value", "cube_owner", "plies", "jacoby", "beavers")
    MATCH_LENGTH_FIELD_NUMBER: _ClassVar[int]
    PLAYER_SCORE_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_SCORE_FIELD_NUMBER: _ClassVar[int]
    CRAWFORD_FIELD_NUMBER: _ClassVar[int]
    CUBE_VALUE_FIELD_NUMBER: _ClassVar[int]
    CUBE_OWNER_FIELD_NUMBER: _ClassVar[int]
    PLIES_FIELD_NUMBER: _ClassVar[int]
    JACOBY_FIELD_NUMBER: _ClassVar[int]
    BEAVERS_FIELD_NUMBER: _ClassVar[int]
    match_length: int
    player_score: int
    opponent_score: int
    crawford: bool
    cube_value: int
    cube_owner: CubeOwner
    plies: int
    jacoby: bool
    beavers: bool
    def __init__(self, match_length: _Optional[int] = ..., player_score: _Optional[int] = ..., opponent_score: _Optional[int] = ..., crawford: _Optional[bool] = ..., cube_value: _Optional[int] = ..., cube_owner: _Optional[_Union[CubeOwner, str]] = ..., plies: _Optional[int] = ..., jacoby: _Optional[bool] = ..., beavers: _Optional[bool] = ...) -> None: ...

class Outcomes(_message.Message):
    __slots__ = ("player_wins", "player_wins_gammon", "player_wins_backgammon", "opponent_wins", "opponent_wins_gammon", "opponent_wins_backgammon")
    PLAYER_WINS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_WINS_GAMMON_FIELD_NUMBER: _ClassVar[int]
    PLAYER_WINS_BACKGAMMON_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_WINS_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_WINS_GAMMON_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_WINS_BACKGAMMON_FIELD_NUMBER: _ClassVar[int]
    player_wins: float
    player_wins_gammon: float
    player_wins_backgammon: float
    opponent_wins: float
    opponent_wins_gammon: float
    opponent_wins_backgammon: float
    def __init__(self, player_wins: _Optional[float] = ..., player_wins_gammon: _Optional[float] = ..., player_wins_backgammon: _Optional[float] = ..., opponent_wins: _Optional[float] = ..., opponent_wins_gammon: _Optional[float] = ..., opponent_wins_backgammon: _Optional[float] = ...) -> None: ...

class EvaluatePositionRequest(_message.Message):
    __slots__ = ("variant", "position", "context")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    context: GameContext
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., context: _Optional[_Union[GameContext, _Mapping]] = ...) -> None: ...

class EvaluatePositionResponse(_message.Message):
    __slots__ = ("outcomes", "cubeless_equity", "cubeful_equity")
    OUTCOMES_FIELD_NUMBER: _ClassVar[int]
    CUBELESS_EQUITY_FIELD_NUMBER: _ClassVar[int]
    CUBEFUL_EQUITY_FIELD_NUMBER: _ClassVar[int]
    outcomes: Outcomes
    cubeless_equity: float
    cubeful_equity: float
    def __init__(self, outcomes: _Optional[_Union[Outcomes, _Mapping]] = ..., cubeless_equity: _Optional[float] = ..., cubeful_equity: _Optional[float] = ...) -> None: ...

class ListRankedPlaysRequest(_message.Message):
    __slots__ = ("variant", "position", "dice", "context")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    context: GameContext
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., context: _Optional[_Union[GameContext, _Mapping]] = ...) -> None: ...

class RankedPlay(_message.Message):
    __slots__ = ("play", "equity", "loss")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    EQUITY_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    play: _board_pb2.Play
    equity: float
    loss: float
    def __init__(self, play: _Optional[_Union[_board_pb2.Play, _Mapping]] = ..., equity: _Optional[float] = ..., loss: _Optional[float] = ...) -> None: ...

class ListRankedPlaysResponse(_message.Message):
    __slots__ = ("plays",)
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[RankedPlay]
    def __init__(self, plays: _Optional[_Iterable[_Union[RankedPlay, _Mapping]]] = ...) -> None: ...

class GetCubeDecisionRequest(_message.Message):
    __slots__ = ("variant", "position", "context")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    context: GameContext
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., context: _Optional[_Union[GameContext, _Mapping]] = ...) -> None: ...

class GetCubeDecisionResponse(_message.Message):
    __slots__ = ("no_double_equity", "double_take_equity", "double_pass_equity", "action", "response", "cubeless_equity")
    NO_DOUBLE_EQUITY_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_TAKE_EQUITY_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_PASS_EQUITY_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    CUBELESS_EQUITY_FIELD_NUMBER: _ClassVar[int]
    no_double_equity: float
    double_take_equity: float
    double_pass_equity: float
    action: CubeAction
    response: CubeResponse
    cubeless_equity: float
    def __init__(self, no_double_equity: _Optional[float] = ..., double_take_equity: _Optional[float] = ..., double_pass_equity: _Optional[float] = ..., action: _Optional[_Union[CubeAction, str]] = ..., response: _Optional[_Union[CubeResponse, str]] = ..., cubeless_equity: _Optional[float] = ...) -> None: ...

class AnalyzeMatchRequest(_message.Message):
    __slots__ = ("game", "record", "plies")
    GAME_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    PLIES_FIELD_NUMBER: _ClassVar[int]
    game: str
    record: _match_record_pb2.MatchRecord
    plies: int
    def __init__(self, game: _Optional[str] = ..., record: _Optional[_Union[_match_record_pb2.MatchRecord, _Mapping]] = ..., plies: _Optional[int] = ...) -> None: ...

class AnalysisProgress(_message.Message):
    __slots__ = ("analyzed", "total")
    ANALYZED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    analyzed: int
    total: int
    def __init__(self, analyzed: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class AnalyzedDecision(_message.Message):
    __slots__ = ("game", "move", "player", "side", "kind", "unforced", "dice", "played", "best", "loss", "luck", "equity")
    GAME_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    SIDE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    UNFORCED_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    LUCK_FIELD_NUMBER: _ClassVar[int]
    EQUITY_FIELD_NUMBER: _ClassVar[int]
    game: int
    move: int
    player: str
    side: int
    kind: DecisionKind
    unforced: bool
    dice: _containers.RepeatedScalarFieldContainer[int]
    played: str
    best: str
    loss: float
    luck: float
    equity: float
    def __init__(self, game: _Optional[int] = ..., move: _Optional[int] = ..., player: _Optional[str] = ..., side: _Optional[int] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., unforced: _Optional[bool] = ..., dice: _Optional[_Iterable[int]] = ..., played: _Optional[str] = ..., best: _Optional[str] = ..., loss: _Optional[float] = ..., luck: _Optional[float] = ..., equity: _Optional[float] = ...) -> None: ...

class PlayerStatistics(_message.Message):
    __slots__ = ("name", "moves", "unforced_moves", "cube_decisions", "chequer_error_rate", "cube_error_rate", "error_rate", "snowie_error_rate", "pr", "luck_rate", "rating", "chequer_error", "cube_error", "luck")
    NAME_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    UNFORCED_MOVES_FIELD_NUMBER: _ClassVar[int]
    CUBE_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    CHEQUER_ERROR_RATE_FIELD_NUMBER: _ClassVar[int]
    CUBE_ERROR_RATE_FIELD_NUMBER: _ClassVar[int]
    ERROR_RATE_FIELD_NUMBER: _ClassVar[int]
    SNOWIE_ERROR_RATE_FIELD_NUMBER: _ClassVar[int]
    PR_FIELD_NUMBER: _ClassVar[int]
    LUCK_RATE_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    CHEQUER_ERROR_FIELD_NUMBER: _ClassVar[int]
    CUBE_ERROR_FIELD_NUMBER: _ClassVar[int]
    LUCK_FIELD_NUMBER: _ClassVar[int]
    name: str
    moves: int
    unforced_moves: int
    cube_decisions: int
    chequer_error_rate: float
    cube_error_rate: float
    error_rate: float
    snowie_error_rate: float
    pr: float
    luck_rate: float
    rating: str
    chequer_error: float
    cube_error: float
    luck: float
    def __init__(self, name: _Optional[str] = ..., moves: _Optional[int] = ..., unforced_moves: _Optional[int] = ..., cube_decisions: _Optional[int] = ..., chequer_error_rate: _Optional[float] = ..., cube_error_rate: _Optional[float] = ..., error_rate: _Optional[float] = ..., snowie_error_rate: _Optional[float] = ..., pr: _Optional[float] = ..., luck_rate: _Optional[float] = ..., rating: _Optional[str] = ..., chequer_error: _Optional[float] = ..., cube_error: _Optional[float] = ..., luck: _Optional[float] = ...) -> None: ...

class MatchStatistics(_message.Message):
    __slots__ = ("players",)
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    players: _containers.RepeatedCompositeFieldContainer[PlayerStatistics]
    def __init__(self, players: _Optional[_Iterable[_Union[PlayerStatistics, _Mapping]]] = ...) -> None: ...

class AnalyzeMatchResponse(_message.Message):
    __slots__ = ("progress", "decision", "statistics")
    PROGRESS_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    STATISTICS_FIELD_NUMBER: _ClassVar[int]
    progress: AnalysisProgress
    decision: AnalyzedDecision
    statistics: MatchStatistics
    def __init__(self, progress: _Optional[_Union[AnalysisProgress, _Mapping]] = ..., decision: _Optional[_Union[AnalyzedDecision, _Mapping]] = ..., statistics: _Optional[_Union[MatchStatistics, _Mapping]] = ...) -> None: ...
