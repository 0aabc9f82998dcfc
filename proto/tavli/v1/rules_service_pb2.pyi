from tavli.v1 import board_pb2 as _board_pb2
from tavli.v1 import match_record_pb2 as _match_record_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListLegalPlaysRequest(_message.Message):
    __slots__ = ("variant", "position", "dice", "start", "home_hit_and_run", "pinned_blocks_bear_off", "mother_exception", "first_checker", "fevga_primes", "fevga_quarter_test")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    HOME_HIT_AND_RUN_FIELD_NUMBER: _ClassVar[int]
    PINNED_BLOCKS_BEAR_OFF_FIELD_NUMBER: _ClassVar[int]
    MOTHER_EXCEPTION_FIELD_NUMBER: _ClassVar[int]
    FIRST_CHECKER_FIELD_NUMBER: _ClassVar[int]
    FEVGA_PRIMES_FIELD_NUMBER: _ClassVar[int]
    FEVGA_QUARTER_TEST_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    start: _board_pb2.Start
    home_hit_and_run: _board_pb2.HomeHitAndRun
    pinned_blocks_bear_off: bool
    mother_exception: bool
    first_checker: _board_pb2.FirstChecker
    fevga_primes: _board_pb2.FevgaPrimes
    fevga_quarter_test: _board_pb2.FevgaQuarterTest
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., start: _Optional[_Union[_board_pb2.Start, str]] = ..., home_hit_and_run: _Optional[_Union[_board_pb2.HomeHitAndRun, str]] = ..., pinned_blocks_bear_off: _Optional[bool] = ..., mother_exception: _Optional[bool] = ..., first_checker: _Optional[_Union[_board_pb2.FirstChecker, str]] = ..., fevga_primes: _Optional[_Union[_board_pb2.FevgaPrimes, str]] = ..., fevga_quarter_test: _Optional[_Union[_board_pb2.FevgaQuarterTest, str]] = ...) -> None: ...

class ListLegalPlaysResponse(_message.Message):
    __slots__ = ("plays", "dice_used")
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    DICE_USED_FIELD_NUMBER: _ClassVar[int]
    plays: _containers.RepeatedCompositeFieldContainer[_board_pb2.Play]
    dice_used: int
    def __init__(self, plays: _Optional[_Iterable[_Union[_board_pb2.Play, _Mapping]]] = ..., dice_used: _Optional[int] = ...) -> None: ...

class ValidatePlayRequest(_message.Message):
    __slots__ = ("variant", "position", "dice", "notation", "steps", "start", "home_hit_and_run", "pinned_blocks_bear_off", "mother_exception", "first_checker", "fevga_primes", "fevga_quarter_test")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    HOME_HIT_AND_RUN_FIELD_NUMBER: _ClassVar[int]
    PINNED_BLOCKS_BEAR_OFF_FIELD_NUMBER: _ClassVar[int]
    MOTHER_EXCEPTION_FIELD_NUMBER: _ClassVar[int]
    FIRST_CHECKER_FIELD_NUMBER: _ClassVar[int]
    FEVGA_PRIMES_FIELD_NUMBER: _ClassVar[int]
    FEVGA_QUARTER_TEST_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    notation: str
    steps: _board_pb2.PlaySteps
    start: _board_pb2.Start
    home_hit_and_run: _board_pb2.HomeHitAndRun
    pinned_blocks_bear_off: bool
    mother_exception: bool
    first_checker: _board_pb2.FirstChecker
    fevga_primes: _board_pb2.FevgaPrimes
    fevga_quarter_test: _board_pb2.FevgaQuarterTest
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., notation: _Optional[str] = ..., steps: _Optional[_Union[_board_pb2.PlaySteps, _Mapping]] = ..., start: _Optional[_Union[_board_pb2.Start, str]] = ..., home_hit_and_run: _Optional[_Union[_board_pb2.HomeHitAndRun, str]] = ..., pinned_blocks_bear_off: _Optional[bool] = ..., mother_exception: _Optional[bool] = ..., first_checker: _Optional[_Union[_board_pb2.FirstChecker, str]] = ..., fevga_primes: _Optional[_Union[_board_pb2.FevgaPrimes, str]] = ..., fevga_quarter_test: _Optional[_Union[_board_pb2.FevgaQuarterTest, str]] = ...) -> None: ...

class ValidatePlayResponse(_message.Message):
    __slots__ = ("legal", "play", "reason", "error")
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    legal: bool
    play: _board_pb2.Play
    reason: str
    error: str
    def __init__(self, legal: _Optional[bool] = ..., play: _Optional[_Union[_board_pb2.Play, _Mapping]] = ..., reason: _Optional[str] = ..., error: _Optional[str] = ...) -> None: ...

class BatchValidatePlaysRequest(_message.Message):
    __slots__ = ("requests",)
    REQUESTS_FIELD_NUMBER: _ClassVar[int]
    requests: _containers.RepeatedCompositeFieldContainer[ValidatePlayRequest]
    def __init__(self, requests: _Optional[_Iterable[_Union[ValidatePlayRequest, _Mapping]]] = ...) -> None: ...

class BatchValidatePlaysResponse(_message.Message):
    __slots__ = ("responses",)
    RESPONSES_FIELD_NUMBER: _ClassVar[int]
    responses: _containers.RepeatedCompositeFieldContainer[ValidatePlayResponse]
    def __init__(self, responses: _Optional[_Iterable[_Union[ValidatePlayResponse, _Mapping]]] = ...) -> None: ...

class ApplyPlayRequest(_message.Message):
    __slots__ = ("variant", "position", "dice", "notation", "start", "home_hit_and_run", "pinned_blocks_bear_off", "mother_exception", "first_checker", "fevga_primes", "fevga_quarter_test")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    HOME_HIT_AND_RUN_FIELD_NUMBER: _ClassVar[int]
    PINNED_BLOCKS_BEAR_OFF_FIELD_NUMBER: _ClassVar[int]
    MOTHER_EXCEPTION_FIELD_NUMBER: _ClassVar[int]
    FIRST_CHECKER_FIELD_NUMBER: _ClassVar[int]
    FEVGA_PRIMES_FIELD_NUMBER: _ClassVar[int]
    FEVGA_QUARTER_TEST_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    dice: _containers.RepeatedScalarFieldContainer[int]
    notation: str
    start: _board_pb2.Start
    home_hit_and_run: _board_pb2.HomeHitAndRun
    pinned_blocks_bear_off: bool
    mother_exception: bool
    first_checker: _board_pb2.FirstChecker
    fevga_primes: _board_pb2.FevgaPrimes
    fevga_quarter_test: _board_pb2.FevgaQuarterTest
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., notation: _Optional[str] = ..., start: _Optional[_Union[_board_pb2.Start, str]] = ..., home_hit_and_run: _Optional[_Union[_board_pb2.HomeHitAndRun, str]] = ..., pinned_blocks_bear_off: _Optional[bool] = ..., mother_exception: _Optional[bool] = ..., first_checker: _Optional[_Union[_board_pb2.FirstChecker, str]] = ..., fevga_primes: _Optional[_Union[_board_pb2.FevgaPrimes, str]] = ..., fevga_quarter_test: _Optional[_Union[_board_pb2.FevgaQuarterTest, str]] = ...) -> None: ...

class ApplyPlayResponse(_message.Message):
    __slots__ = ("play", "next_position_id", "result")
    PLAY_FIELD_NUMBER: _ClassVar[int]
    NEXT_POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    play: _board_pb2.Play
    next_position_id: str
    result: _board_pb2.GameResult
    def __init__(self, play: _Optional[_Union[_board_pb2.Play, _Mapping]] = ..., next_position_id: _Optional[str] = ..., result: _Optional[_Union[_board_pb2.GameResult, str]] = ...) -> None: ...

class ScorePositionRequest(_message.Message):
    __slots__ = ("variant", "position", "start", "home_hit_and_run", "pinned_blocks_bear_off", "mother_exception", "first_checker", "fevga_primes", "fevga_quarter_test", "mother_value")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    HOME_HIT_AND_RUN_FIELD_NUMBER: _ClassVar[int]
    PINNED_BLOCKS_BEAR_OFF_FIELD_NUMBER: _ClassVar[int]
    MOTHER_EXCEPTION_FIELD_NUMBER: _ClassVar[int]
    FIRST_CHECKER_FIELD_NUMBER: _ClassVar[int]
    FEVGA_PRIMES_FIELD_NUMBER: _ClassVar[int]
    FEVGA_QUARTER_TEST_FIELD_NUMBER: _ClassVar[int]
    MOTHER_VALUE_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    start: _board_pb2.Start
    home_hit_and_run: _board_pb2.HomeHitAndRun
    pinned_blocks_bear_off: bool
    mother_exception: bool
    first_checker: _board_pb2.FirstChecker
    fevga_primes: _board_pb2.FevgaPrimes
    fevga_quarter_test: _board_pb2.FevgaQuarterTest
    mother_value: int
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., start: _Optional[_Union[_board_pb2.Start, str]] = ..., home_hit_and_run: _Optional[_Union[_board_pb2.HomeHitAndRun, str]] = ..., pinned_blocks_bear_off: _Optional[bool] = ..., mother_exception: _Optional[bool] = ..., first_checker: _Optional[_Union[_board_pb2.FirstChecker, str]] = ..., fevga_primes: _Optional[_Union[_board_pb2.FevgaPrimes, str]] = ..., fevga_quarter_test: _Optional[_Union[_board_pb2.FevgaQuarterTest, str]] = ..., mother_value: _Optional[int] = ...) -> None: ...

class ScorePositionResponse(_message.Message):
    __slots__ = ("result", "player_won", "points", "player_pips", "opponent_pips")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_WON_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_PIPS_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_PIPS_FIELD_NUMBER: _ClassVar[int]
    result: _board_pb2.GameResult
    player_won: bool
    points: int
    player_pips: int
    opponent_pips: int
    def __init__(self, result: _Optional[_Union[_board_pb2.GameResult, str]] = ..., player_won: _Optional[bool] = ..., points: _Optional[int] = ..., player_pips: _Optional[int] = ..., opponent_pips: _Optional[int] = ...) -> None: ...

class ConvertPositionRequest(_message.Message):
    __slots__ = ("variant", "position", "start", "home_hit_and_run", "pinned_blocks_bear_off", "mother_exception", "first_checker", "fevga_primes", "fevga_quarter_test")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    HOME_HIT_AND_RUN_FIELD_NUMBER: _ClassVar[int]
    PINNED_BLOCKS_BEAR_OFF_FIELD_NUMBER: _ClassVar[int]
    MOTHER_EXCEPTION_FIELD_NUMBER: _ClassVar[int]
    FIRST_CHECKER_FIELD_NUMBER: _ClassVar[int]
    FEVGA_PRIMES_FIELD_NUMBER: _ClassVar[int]
    FEVGA_QUARTER_TEST_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    position: _board_pb2.Position
    start: _board_pb2.Start
    home_hit_and_run: _board_pb2.HomeHitAndRun
    pinned_blocks_bear_off: bool
    mother_exception: bool
    first_checker: _board_pb2.FirstChecker
    fevga_primes: _board_pb2.FevgaPrimes
    fevga_quarter_test: _board_pb2.FevgaQuarterTest
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., position: _Optional[_Union[_board_pb2.Position, _Mapping]] = ..., start: _Optional[_Union[_board_pb2.Start, str]] = ..., home_hit_and_run: _Optional[_Union[_board_pb2.HomeHitAndRun, str]] = ..., pinned_blocks_bear_off: _Optional[bool] = ..., mother_exception: _Optional[bool] = ..., first_checker: _Optional[_Union[_board_pb2.FirstChecker, str]] = ..., fevga_primes: _Optional[_Union[_board_pb2.FevgaPrimes, str]] = ..., fevga_quarter_test: _Optional[_Union[_board_pb2.FevgaQuarterTest, str]] = ...) -> None: ...

class ConvertPositionResponse(_message.Message):
    __slots__ = ("position_id", "xgid", "board")
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    XGID_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    position_id: str
    xgid: str
    board: _board_pb2.Board
    def __init__(self, position_id: _Optional[str] = ..., xgid: _Optional[str] = ..., board: _Optional[_Union[_board_pb2.Board, _Mapping]] = ...) -> None: ...

class ValidateMatchRequest(_message.Message):
    __slots__ = ("record",)
    RECORD_FIELD_NUMBER: _ClassVar[int]
    record: _match_record_pb2.MatchRecord
    def __init__(self, record: _Optional[_Union[_match_record_pb2.MatchRecord, _Mapping]] = ...) -> None: ...

class ValidateMatchResponse(_message.Message):
    __slots__ = ("variant", "match_length", "games", "score", "players", "problems", "problem_count", "format")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    MATCH_LENGTH_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_COUNT_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    match_length: int
    games: int
    score: _containers.RepeatedScalarFieldContainer[int]
    players: _containers.RepeatedScalarFieldContainer[str]
    problems: _containers.RepeatedCompositeFieldContainer[_match_record_pb2.MatchProblem]
    problem_count: int
    format: _match_record_pb2.MatchRecordFormat
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., match_length: _Optional[int] = ..., games: _Optional[int] = ..., score: _Optional[_Iterable[int]] = ..., players: _Optional[_Iterable[str]] = ..., problems: _Optional[_Iterable[_Union[_match_record_pb2.MatchProblem, _Mapping]]] = ..., problem_count: _Optional[int] = ..., format: _Optional[_Union[_match_record_pb2.MatchRecordFormat, str]] = ...) -> None: ...
