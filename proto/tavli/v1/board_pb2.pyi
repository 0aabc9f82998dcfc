from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Variant(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VARIANT_UNSPECIFIED: _ClassVar[Variant]
    VARIANT_BACKGAMMON: _ClassVar[Variant]
    VARIANT_LONG_NARDI: _ClassVar[Variant]
    VARIANT_PLAKOTO: _ClassVar[Variant]
    VARIANT_FEVGA: _ClassVar[Variant]
    VARIANT_TAVLI: _ClassVar[Variant]

class FirstChecker(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FIRST_CHECKER_UNSPECIFIED: _ClassVar[FirstChecker]
    FIRST_CHECKER_PAST_START: _ClassVar[FirstChecker]
    FIRST_CHECKER_INTO_START_QUARTER: _ClassVar[FirstChecker]

class FevgaPrimes(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FEVGA_PRIMES_UNSPECIFIED: _ClassVar[FevgaPrimes]
    FEVGA_PRIMES_START_QUARTER_AND_UNBLOCK: _ClassVar[FevgaPrimes]
    FEVGA_PRIMES_NO_PRIME_UNLESS_PASSED: _ClassVar[FevgaPrimes]
    FEVGA_PRIMES_NONE: _ClassVar[FevgaPrimes]

class FevgaQuarterTest(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FEVGA_QUARTER_TEST_UNSPECIFIED: _ClassVar[FevgaQuarterTest]
    FEVGA_QUARTER_TEST_PLAY: _ClassVar[FevgaQuarterTest]
    FEVGA_QUARTER_TEST_STEP: _ClassVar[FevgaQuarterTest]

class Start(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    START_UNSPECIFIED: _ClassVar[Start]
    START_STANDARD: _ClassVar[Start]
    START_NACKGAMMON: _ClassVar[Start]
    START_HYPERGAMMON_1: _ClassVar[Start]
    START_HYPERGAMMON_2: _ClassVar[Start]
    START_HYPERGAMMON_3: _ClassVar[Start]

class HomeHitAndRun(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    HOME_HIT_AND_RUN_UNSPECIFIED: _ClassVar[HomeHitAndRun]
    HOME_HIT_AND_RUN_ALLOWED: _ClassVar[HomeHitAndRun]
    HOME_HIT_AND_RUN_FORBIDDEN: _ClassVar[HomeHitAndRun]

class GameResult(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_RESULT_UNSPECIFIED: _ClassVar[GameResult]
    GAME_RESULT_SINGLE: _ClassVar[GameResult]
    GAME_RESULT_GAMMON: _ClassVar[GameResult]
    GAME_RESULT_BACKGAMMON: _ClassVar[GameResult]
    GAME_RESULT_MARS: _ClassVar[GameResult]
    GAME_RESULT_MOTHER: _ClassVar[GameResult]
    GAME_RESULT_DRAW: _ClassVar[GameResult]
VARIANT_UNSPECIFIED: Variant
VARIANT_BACKGAMMON: Variant
VARIANT_LONG_NARDI: Variant
VARIANT_PLAKOTO: Variant
VARIANT_FEVGA: Variant
VARIANT_TAVLI: Variant
FIRST_CHECKER_UNSPECIFIED: FirstChecker
FIRST_CHECKER_PAST_START: FirstChecker
FIRST_CHECKER_INTO_START_QUARTER: FirstChecker
FEVGA_PRIMES_UNSPECIFIED: FevgaPrimes
FEVGA_PRIMES_START_QUARTER_AND_UNBLOCK: FevgaPrimes
FEVGA_PRIMES_NO_PRIME_UNLESS_PASSED: FevgaPrimes
FEVGA_PRIMES_NONE: FevgaPrimes
FEVGA_QUARTER_TEST_UNSPECIFIED: FevgaQuarterTest
FEVGA_QUARTER_TEST_PLAY: FevgaQuarterTest
FEVGA_QUARTER_TEST_STEP: FevgaQuarterTest
START_UNSPECIFIED: Start
START_STANDARD: Start
START_NACKGAMMON: Start
START_HYPERGAMMON_1: Start
START_HYPERGAMMON_2: Start
START_HYPERGAMMON_3: Start
HOME_HIT_AND_RUN_UNSPECIFIED: HomeHitAndRun
HOME_HIT_AND_RUN_ALLOWED: HomeHitAndRun
HOME_HIT_AND_RUN_FORBIDDEN: HomeHitAndRun
GAME_RESULT_UNSPECIFIED: GameResult
GAME_RESULT_SINGLE: GameResult
GAME_RESULT_GAMMON: GameResult
GAME_RESULT_BACKGAMMON: GameResult
GAME_RESULT_MARS: GameResult
GAME_RESULT_MOTHER: GameResult
GAME_RESULT_DRAW: GameResult

class Position(_message.Message):
    __slots__ = ("position_id", "xgid", "board")
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    XGID_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    position_id: str
    xgid: str
    board: Board
    def __init__(self, position_id: _Optional[str] = ..., xgid: _Optional[str] = ..., board: _Optional[_Union[Board, _Mapping]] = ...) -> None: ...

class Board(_message.Message):
    __slots__ = ("player_points", "player_bar", "opponent_points", "opponent_bar", "player_pinned_points", "opponent_pinned_points")
    PLAYER_POINTS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_BAR_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_POINTS_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_BAR_FIELD_NUMBER: _ClassVar[int]
    PLAYER_PINNED_POINTS_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_PINNED_POINTS_FIELD_NUMBER: _ClassVar[int]
    player_points: _containers.RepeatedScalarFieldContainer[int]
    player_bar: int
    opponent_points: _containers.RepeatedScalarFieldContainer[int]
    opponent_bar: int
    player_pinned_points: _containers.RepeatedScalarFieldContainer[int]
    opponent_pinned_points: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, player_points: _Optional[_Iterable[int]] = ..., player_bar: _Optional[int] = ..., opponent_points: _Optional[_Iterable[int]] = ..., opponent_bar: _Optional[int] = ..., player_pinned_points: _Optional[_Iterable[int]] = ..., opponent_pinned_points: _Optional[_Iterable[int]] = ...) -> None: ...

class Step(_message.Message):
    __slots__ = ("from_point", "to_point", "die", "hit")
    FROM_POINT_FIELD_NUMBER: _ClassVar[int]
    TO_POINT_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    HIT_FIELD_NUMBER: _ClassVar[int]
    from_point: int
    to_point: int
    die: int
    hit: bool
    def __init__(self, from_point: _Optional[int] = ..., to_point: _Optional[int] = ..., die: _Optional[int] = ..., hit: _Optional[bool] = ...) -> None: ...

class PlaySteps(_message.Message):
    __slots__ = ("steps",)
    STEPS_FIELD_NUMBER: _ClassVar[int]
    steps: _containers.RepeatedCompositeFieldContainer[Step]
    def __init__(self, steps: _Optional[_Iterable[_Union[Step, _Mapping]]] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("notation", "steps", "position_id", "hits")
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    HITS_FIELD_NUMBER: _ClassVar[int]
    notation: str
    steps: _containers.RepeatedCompositeFieldContainer[Step]
    position_id: str
    hits: bool
    def __init__(self, notation: _Optional[str] = ..., steps: _Optional[_Iterable[_Union[Step, _Mapping]]] = ..., position_id: _Optional[str] = ..., hits: _Optional[bool] = ...) -> None: ...
