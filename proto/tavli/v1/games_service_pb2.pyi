import datetime

from google.protobuf import any_pb2 as _any_pb2
from google.protobuf import duration_pb2 as _duration_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from tavli.v1 import board_pb2 as _board_pb2
from tavli.v1 import match_record_pb2 as _match_record_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Seat(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_UNSPECIFIED: _ClassVar[Seat]
    SEAT_0: _ClassVar[Seat]
    SEAT_1: _ClassVar[Seat]

class CubeMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CUBE_MODE_UNSPECIFIED: _ClassVar[CubeMode]
    CUBE_MODE_CUBE: _ClassVar[CubeMode]
    CUBE_MODE_NO_CUBE: _ClassVar[CubeMode]

class Opening(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OPENING_UNSPECIFIED: _ClassVar[Opening]
    OPENING_PLAY_OPENING_DICE: _ClassVar[Opening]
    OPENING_WINNER_ROLLS_AGAIN: _ClassVar[Opening]

class MatchOpenings(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_OPENINGS_UNSPECIFIED: _ClassVar[MatchOpenings]
    MATCH_OPENINGS_EVERY_GAME: _ClassVar[MatchOpenings]
    MATCH_OPENINGS_WINNER_OPENS: _ClassVar[MatchOpenings]
    MATCH_OPENINGS_ALTERNATE: _ClassVar[MatchOpenings]

class Backgammons(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BACKGAMMONS_UNSPECIFIED: _ClassVar[Backgammons]
    BACKGAMMONS_COUNTED: _ClassVar[Backgammons]
    BACKGAMMONS_AS_GAMMON: _ClassVar[Backgammons]

class DiceMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DICE_MODE_UNSPECIFIED: _ClassVar[DiceMode]
    DICE_MODE_SEEDED: _ClassVar[DiceMode]
    DICE_MODE_VERIFIABLE: _ClassVar[DiceMode]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_OPENING: _ClassVar[Phase]
    PHASE_ROLLING: _ClassVar[Phase]
    PHASE_DOUBLED: _ClassVar[Phase]
    PHASE_PLAYING: _ClassVar[Phase]
    PHASE_RESIGNING: _ClassVar[Phase]
    PHASE_MATCH_OVER: _ClassVar[Phase]

class Action(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ACTION_UNSPECIFIED: _ClassVar[Action]
    ACTION_ROLL: _ClassVar[Action]
    ACTION_PLAY: _ClassVar[Action]
    ACTION_DOUBLE: _ClassVar[Action]
    ACTION_TAKE: _ClassVar[Action]
    ACTION_DROP: _ClassVar[Action]
    ACTION_BEAVER: _ClassVar[Action]
    ACTION_RESIGN: _ClassVar[Action]
    ACTION_ACCEPT: _ClassVar[Action]
    ACTION_REJECT: _ClassVar[Action]

class GameEnd(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GAME_END_UNSPECIFIED: _ClassVar[GameEnd]
    GAME_END_PLAY: _ClassVar[GameEnd]
    GAME_END_DROP: _ClassVar[GameEnd]
    GAME_END_RESIGNATION: _ClassVar[GameEnd]
    GAME_END_TIME: _ClassVar[GameEnd]
    GAME_END_MOTHER: _ClassVar[GameEnd]
    GAME_END_DRAW: _ClassVar[GameEnd]

class EventKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EVENT_KIND_UNSPECIFIED: _ClassVar[EventKind]
    EVENT_KIND_OPENING_THROW: _ClassVar[EventKind]
    EVENT_KIND_ROLL: _ClassVar[EventKind]
    EVENT_KIND_PLAY: _ClassVar[EventKind]
    EVENT_KIND_DOUBLE: _ClassVar[EventKind]
    EVENT_KIND_TAKE: _ClassVar[EventKind]
    EVENT_KIND_DROP: _ClassVar[EventKind]
    EVENT_KIND_BEAVER: _ClassVar[EventKind]
    EVENT_KIND_RESIGN: _ClassVar[EventKind]
    EVENT_KIND_ACCEPT: _ClassVar[EventKind]
    EVENT_KIND_REJECT: _ClassVar[EventKind]
    EVENT_KIND_DICE_COMMITTED: _ClassVar[EventKind]
    EVENT_KIND_SEED_REVEALED: _ClassVar[EventKind]
    EVENT_KIND_TIME_RAN_OUT: _ClassVar[EventKind]
    EVENT_KIND_REMATCH_OFFERED: _ClassVar[EventKind]
    EVENT_KIND_REMATCH_ACCEPTED: _ClassVar[EventKind]
SEAT_UNSPECIFIED: Seat
SEAT_0: Seat
SEAT_1: Seat
CUBE_MODE_UNSPECIFIED: CubeMode
CUBE_MODE_CUBE: CubeMode
CUBE_MODE_NO_CUBE: CubeMode
OPENING_UNSPECIFIED: Opening
OPENING_PLAY_OPENING_DICE: Opening
OPENING_WINNER_ROLLS_AGAIN: Opening
MATCH_OPENINGS_UNSPECIFIED: MatchOpenings
MATCH_OPENINGS_EVERY_GAME: MatchOpenings
MATCH_OPENINGS_WINNER_OPENS: MatchOpenings
MATCH_OPENINGS_ALTERNATE: MatchOpenings
BACKGAMMONS_UNSPECIFIED: Backgammons
BACKGAMMONS_COUNTED: Backgammons
BACKGAMMONS_AS_GAMMON: Backgammons
DICE_MODE_UNSPECIFIED: DiceMode
DICE_MODE_SEEDED: DiceMode
DICE_MODE_VERIFIABLE: DiceMode
PHASE_UNSPECIFIED: Phase
PHASE_OPENING: Phase
PHASE_ROLLING: Phase
PHASE_DOUBLED: Phase
PHASE_PLAYING: Phase
PHASE_RESIGNING: Phase
PHASE_MATCH_OVER: Phase
ACTION_UNSPECIFIED: Action
ACTION_ROLL: Action
ACTION_PLAY: Action
ACTION_DOUBLE: Action
ACTION_TAKE: Action
ACTION_DROP: Action
ACTION_BEAVER: Action
ACTION_RESIGN: Action
ACTION_ACCEPT: Action
ACTION_REJECT: Action
GAME_END_UNSPECIFIED: GameEnd
GAME_END_PLAY: GameEnd
GAME_END_DROP: GameEnd
GAME_END_RESIGNATION: GameEnd
GAME_END_TIME: GameEnd
GAME_END_MOTHER: GameEnd
GAME_END_DRAW: GameEnd
EVENT_KIND_UNSPECIFIED: EventKind
EVENT_KIND_OPENING_THROW: EventKind
EVENT_KIND_ROLL: EventKind
EVENT_KIND_PLAY: EventKind
EVENT_KIND_DOUBLE: EventKind
EVENT_KIND_TAKE: EventKind
EVENT_KIND_DROP: EventKind
EVENT_KIND_BEAVER: EventKind
EVENT_KIND_RESIGN: EventKind
EVENT_KIND_ACCEPT: EventKind
EVENT_KIND_REJECT: EventKind
EVENT_KIND_DICE_COMMITTED: EventKind
EVENT_KIND_SEED_REVEALED: EventKind
EVENT_KIND_TIME_RAN_OUT: EventKind
EVENT_KIND_REMATCH_OFFERED: EventKind
EVENT_KIND_REMATCH_ACCEPTED: EventKind

class RuleSet(_message.Message):
    __slots__ = ("variant", "match_length", "cube", "cube_limit", "crawford", "jacoby", "beavers", "automatic_doubles", "automatic_doubles_limit", "opening", "match_openings", "auto_play_forced", "clock", "backgammons", "start", "home_hit_and_run", "pinned_blocks_bear_off", "mother_exception", "mother_value", "first_checker", "fevga_primes", "fevga_quarter_test")
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    MATCH_LENGTH_FIELD_NUMBER: _ClassVar[int]
    CUBE_FIELD_NUMBER: _ClassVar[int]
    CUBE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    CRAWFORD_FIELD_NUMBER: _ClassVar[int]
    JACOBY_FIELD_NUMBER: _ClassVar[int]
    BEAVERS_FIELD_NUMBER: _ClassVar[int]
    AUTOMATIC_DOUBLES_FIELD_NUMBER: _ClassVar[int]
    AUTOMATIC_DOUBLES_LIMIT_FIELD_NUMBER: _ClassVar[int]
    OPENING_FIELD_NUMBER: _ClassVar[int]
    MATCH_OPENINGS_FIELD_NUMBER: _ClassVar[int]
    AUTO_PLAY_FORCED_FIELD_NUMBER: _ClassVar[int]
    CLOCK_FIELD_NUMBER: _ClassVar[int]
    BACKGAMMONS_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    HOME_HIT_AND_RUN_FIELD_NUMBER: _ClassVar[int]
    PINNED_BLOCKS_BEAR_OFF_FIELD_NUMBER: _ClassVar[int]
    MOTHER_EXCEPTION_FIELD_NUMBER: _ClassVar[int]
    MOTHER_VALUE_FIELD_NUMBER: _ClassVar[int]
    FIRST_CHECKER_FIELD_NUMBER: _ClassVar[int]
    FEVGA_PRIMES_FIELD_NUMBER: _ClassVar[int]
    FEVGA_QUARTER_TEST_FIELD_NUMBER: _ClassVar[int]
    variant: _board_pb2.Variant
    match_length: int
    cube: CubeMode
    cube_limit: int
    crawford: bool
    jacoby: bool
    beavers: bool
    automatic_doubles: bool
    automatic_doubles_limit: int
    opening: Opening
    match_openings: MatchOpenings
    auto_play_forced: bool
    clock: ClockRules
    backgammons: Backgammons
    start: _board_pb2.Start
    home_hit_and_run: _board_pb2.HomeHitAndRun
    pinned_blocks_bear_off: bool
    mother_exception: bool
    mother_value: int
    first_checker: _board_pb2.FirstChecker
    fevga_primes: _board_pb2.FevgaPrimes
    fevga_quarter_test: _board_pb2.FevgaQuarterTest
    def __init__(self, variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., match_length: _Optional[int] = ..., cube: _Optional[_Union[CubeMode, str]] = ..., cube_limit: _Optional[int] = ..., crawford: _Optional[bool] = ..., jacoby: _Optional[bool] = ..., beavers: _Optional[bool] = ..., automatic_doubles: _Optional[bool] = ..., automatic_doubles_limit: _Optional[int] = ..., opening: _Optional[_Union[Opening, str]] = ..., match_openings: _Optional[_Union[MatchOpenings, str]] = ..., auto_play_forced: _Optional[bool] = ..., clock: _Optional[_Union[ClockRules, _Mapping]] = ..., backgammons: _Optional[_Union[Backgammons, str]] = ..., start: _Optional[_Union[_board_pb2.Start, str]] = ..., home_hit_and_run: _Optional[_Union[_board_pb2.HomeHitAndRun, str]] = ..., pinned_blocks_bear_off: _Optional[bool] = ..., mother_exception: _Optional[bool] = ..., mother_value: _Optional[int] = ..., first_checker: _Optional[_Union[_board_pb2.FirstChecker, str]] = ..., fevga_primes: _Optional[_Union[_board_pb2.FevgaPrimes, str]] = ..., fevga_quarter_test: _Optional[_Union[_board_pb2.FevgaQuarterTest, str]] = ...) -> None: ...

class ClockRules(_message.Message):
    __slots__ = ("reserve", "reserve_per_point", "delay", "move_limit")
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    RESERVE_PER_POINT_FIELD_NUMBER: _ClassVar[int]
    DELAY_FIELD_NUMBER: _ClassVar[int]
    MOVE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    reserve: _duration_pb2.Duration
    reserve_per_point: _duration_pb2.Duration
    delay: _duration_pb2.Duration
    move_limit: _duration_pb2.Duration
    def __init__(self, reserve: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., reserve_per_point: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., delay: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ..., move_limit: _Optional[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]] = ...) -> None: ...

class Clocks(_message.Message):
    __slots__ = ("remaining", "running", "turn_start_time", "delay_end_time", "deadline")
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    RUNNING_FIELD_NUMBER: _ClassVar[int]
    TURN_START_TIME_FIELD_NUMBER: _ClassVar[int]
    DELAY_END_TIME_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    remaining: _containers.RepeatedCompositeFieldContainer[_duration_pb2.Duration]
    running: Seat
    turn_start_time: _timestamp_pb2.Timestamp
    delay_end_time: _timestamp_pb2.Timestamp
    deadline: _timestamp_pb2.Timestamp
    def __init__(self, remaining: _Optional[_Iterable[_Union[datetime.timedelta, _duration_pb2.Duration, _Mapping]]] = ..., running: _Optional[_Union[Seat, str]] = ..., turn_start_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., delay_end_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., deadline: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class Game(_message.Message):
    __slots__ = ("name", "rule_set", "etag", "event_count", "score", "game_number", "phase", "turn", "position_id", "board", "dice", "cube_value", "cube_owner", "crawford", "resignation", "last_play", "finished_games", "winner", "dice_commitment", "create_time", "update_time", "to_act", "dice_mode", "seat0_player", "seat1_player", "seat0_board", "pip_counts", "clocks", "rematch", "variant", "next_variant", "hints_allowed", "omitted_finished_game_count")
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    EVENT_COUNT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    POSITION_ID_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    CUBE_VALUE_FIELD_NUMBER: _ClassVar[int]
    CUBE_OWNER_FIELD_NUMBER: _ClassVar[int]
    CRAWFORD_FIELD_NUMBER: _ClassVar[int]
    RESIGNATION_FIELD_NUMBER: _ClassVar[int]
    LAST_PLAY_FIELD_NUMBER: _ClassVar[int]
    FINISHED_GAMES_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    DICE_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    CREATE_TIME_FIELD_NUMBER: _ClassVar[int]
    UPDATE_TIME_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DICE_MODE_FIELD_NUMBER: _ClassVar[int]
    SEAT0_PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEAT1_PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEAT0_BOARD_FIELD_NUMBER: _ClassVar[int]
    PIP_COUNTS_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    REMATCH_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    NEXT_VARIANT_FIELD_NUMBER: _ClassVar[int]
    HINTS_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    OMITTED_FINISHED_GAME_COUNT_FIELD_NUMBER: _ClassVar[int]
    name: str
    rule_set: RuleSet
    etag: str
    event_count: int
    score: _containers.RepeatedScalarFieldContainer[int]
    game_number: int
    phase: Phase
    turn: Seat
    position_id: str
    board: _board_pb2.Board
    dice: _containers.RepeatedScalarFieldContainer[int]
    cube_value: int
    cube_owner: Seat
    crawford: bool
    resignation: Resignation
    last_play: LastPlay
    finished_games: _containers.RepeatedCompositeFieldContainer[FinishedGame]
    winner: Seat
    dice_commitment: str
    create_time: _timestamp_pb2.Timestamp
    update_time: _timestamp_pb2.Timestamp
    to_act: _containers.RepeatedScalarFieldContainer[Seat]
    dice_mode: DiceMode
    seat0_player: Player
    seat1_player: Player
    seat0_board: _board_pb2.Board
    pip_counts: _containers.RepeatedScalarFieldContainer[int]
    clocks: Clocks
    rematch: Rematch
    variant: _board_pb2.Variant
    next_variant: _board_pb2.Variant
    hints_allowed: bool
    omitted_finished_game_count: int
    def __init__(self, name: _Optional[str] = ..., rule_set: _Optional[_Union[RuleSet, _Mapping]] = ..., etag: _Optional[str] = ..., event_count: _Optional[int] = ..., score: _Optional[_Iterable[int]] = ..., game_number: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., turn: _Optional[_Union[Seat, str]] = ..., position_id: _Optional[str] = ..., board: _Optional[_Union[_board_pb2.Board, _Mapping]] = ..., dice: _Optional[_Iterable[int]] = ..., cube_value: _Optional[int] = ..., cube_owner: _Optional[_Union[Seat, str]] = ..., crawford: _Optional[bool] = ..., resignation: _Optional[_Union[Resignation, _Mapping]] = ..., last_play: _Optional[_Union[LastPlay, _Mapping]] = ..., finished_games: _Optional[_Iterable[_Union[FinishedGame, _Mapping]]] = ..., winner: _Optional[_Union[Seat, str]] = ..., dice_commitment: _Optional[str] = ..., create_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., update_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., to_act: _Optional[_Iterable[_Union[Seat, str]]] = ..., dice_mode: _Optional[_Union[DiceMode, str]] = ..., seat0_player: _Optional[_Union[Player, _Mapping]] = ..., seat1_player: _Optional[_Union[Player, _Mapping]] = ..., seat0_board: _Optional[_Union[_board_pb2.Board, _Mapping]] = ..., pip_counts: _Optional[_Iterable[int]] = ..., clocks: _Optional[_Union[Clocks, _Mapping]] = ..., rematch: _Optional[_Union[Rematch, _Mapping]] = ..., variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., next_variant: _Optional[_Union[_board_pb2.Variant, str]] = ..., hints_allowed: _Optional[bool] = ..., omitted_finished_game_count: _Optional[int] = ...) -> None: ...

class Rematch(_message.Message):
    __slots__ = ("offered_by", "game")
    OFFERED_BY_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    offered_by: Seat
    game: str
    def __init__(self, offered_by: _Optional[_Union[Seat, str]] = ..., game: _Optional[str] = ...) -> None: ...

class Player(_message.Message):
    __slots__ = ("display_name", "player_id")
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_ID_FIELD_NUMBER: _ClassVar[int]
    display_name: str
    player_id: str
    def __init__(self, display_name: _Optional[str] = ..., player_id: _Optional[str] = ...) -> None: ...

class Resignation(_message.Message):
    __slots__ = ("seat", "result", "points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: Seat
    result: _board_pb2.GameResult
    points: int
    def __init__(self, seat: _Optional[_Union[Seat, str]] = ..., result: _Optional[_Union[_board_pb2.GameResult, str]] = ..., points: _Optional[int] = ...) -> None: ...

class LastPlay(_message.Message):
    __slots__ = ("seat", "dice", "notation", "steps", "position_id_before", "seat0_board_before")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    POSITION_ID_BEFORE_FIELD_NUMBER: _ClassVar[int]
    SEAT0_BOARD_BEFORE_FIELD_NUMBER: _ClassVar[int]
    seat: Seat
    dice: _containers.RepeatedScalarFieldContainer[int]
    notation: str
    steps: _containers.RepeatedCompositeFieldContainer[_board_pb2.Step]
    position_id_before: str
    seat0_board_before: _board_pb2.Board
    def __init__(self, seat: _Optional[_Union[Seat, str]] = ..., dice: _Optional[_Iterable[int]] = ..., notation: _Optional[str] = ..., steps: _Optional[_Iterable[_Union[_board_pb2.Step, _Mapping]]] = ..., position_id_before: _Optional[str] = ..., seat0_board_before: _Optional[_Union[_board_pb2.Board, _Mapping]] = ...) -> None: ...

class FinishedGame(_message.Message):
    __slots__ = ("game_number", "winner", "result", "points", "cube_value", "ended_by", "variant")
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    CUBE_VALUE_FIELD_NUMBER: _ClassVar[int]
    ENDED_BY_FIELD_NUMBER: _ClassVar[int]
    VARIANT_FIELD_NUMBER: _ClassVar[int]
    game_number: int
    winner: Seat
    result: _board_pb2.GameResult
    points: int
    cube_value: int
    ended_by: GameEnd
    variant: _board_pb2.Variant
    def __init__(self, game_number: _Optional[int] = ..., winner: _Optional[_Union[Seat, str]] = ..., result: _Optional[_Union[_board_pb2.GameResult, str]] = ..., points: _Optional[int] = ..., cube_value: _Optional[int] = ..., ended_by: _Optional[_Union[GameEnd, str]] = ..., variant: _Optional[_Union[_board_pb2.Variant, str]] = ...) -> None: ...

class OpeningThrow(_message.Message):
    __slots__ = ("seat0_die", "seat1_die")
    SEAT0_DIE_FIELD_NUMBER: _ClassVar[int]
    SEAT1_DIE_FIELD_NUMBER: _ClassVar[int]
    seat0_die: int
    seat1_die: int
    def __init__(self, seat0_die: _Optional[int] = ..., seat1_die: _Optional[int] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("sequence", "kind", "seat", "dice", "notation", "forced", "resignation_result", "opening_throws", "game_number", "dice_commitment", "dice_seed", "steps", "event_time", "reason", "rematch_game")
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    RESIGNATION_RESULT_FIELD_NUMBER: _ClassVar[int]
    OPENING_THROWS_FIELD_NUMBER: _ClassVar[int]
    GAME_NUMBER_FIELD_NUMBER: _ClassVar[int]
    DICE_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    DICE_SEED_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    EVENT_TIME_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    REMATCH_GAME_FIELD_NUMBER: _ClassVar[int]
    sequence: int
    kind: EventKind
    seat: Seat
    dice: _containers.RepeatedScalarFieldContainer[int]
    notation: str
    forced: bool
    resignation_result: _board_pb2.GameResult
    opening_throws: _containers.RepeatedCompositeFieldContainer[OpeningThrow]
    game_number: int
    dice_commitment: str
    dice_seed: str
    steps: _containers.RepeatedCompositeFieldContainer[_board_pb2.Step]
    event_time: _timestamp_pb2.Timestamp
    reason: str
    rematch_game: str
    def __init__(self, sequence: _Optional[int] = ..., kind: _Optional[_Union[EventKind, str]] = ..., seat: _Optional[_Union[Seat, str]] = ..., dice: _Optional[_Iterable[int]] = ..., notation: _Optional[str] = ..., forced: _Optional[bool] = ..., resignation_result: _Optional[_Union[_board_pb2.GameResult, str]] = ..., opening_throws: _Optional[_Iterable[_Union[OpeningThrow, _Mapping]]] = ..., game_number: _Optional[int] = ..., dice_commitment: _Optional[str] = ..., dice_seed: _Optional[str] = ..., steps: _Optional[_Iterable[_Union[_board_pb2.Step, _Mapping]]] = ..., event_time: _Optional[_Union[datetime.datetime, _timestamp_pb2.Timestamp, _Mapping]] = ..., reason: _Optional[str] = ..., rematch_game: _Optional[str] = ...) -> None: ...

class CreateGameRequest(_message.Message):
    __slots__ = ("rule_set", "dice_mode", "dice_seed", "request_id", "seat0_player", "seat1_player", "hints_allowed")
    RULE_SET_FIELD_NUMBER: _ClassVar[int]
    DICE_MODE_FIELD_NUMBER: _ClassVar[int]
    DICE_SEED_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT0_PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEAT1_PLAYER_FIELD_NUMBER: _ClassVar[int]
    HINTS_ALLOWED_FIELD_NUMBER: _ClassVar[int]
    rule_set: RuleSet
    dice_mode: DiceMode
    dice_seed: str
    request_id: str
    seat0_player: Player
    seat1_player: Player
    hints_allowed: bool
    def __init__(self, rule_set: _Optional[_Union[RuleSet, _Mapping]] = ..., dice_mode: _Optional[_Union[DiceMode, str]] = ..., dice_seed: _Optional[str] = ..., request_id: _Optional[str] = ..., seat0_player: _Optional[_Union[Player, _Mapping]] = ..., seat1_player: _Optional[_Union[Player, _Mapping]] = ..., hints_allowed: _Optional[bool] = ...) -> None: ...

class CreateGameResponse(_message.Message):
    __slots__ = ("game", "seat0_token", "seat1_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT0_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT1_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: Game
    seat0_token: str
    seat1_token: str
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ..., seat0_token: _Optional[str] = ..., seat1_token: _Optional[str] = ...) -> None: ...

class ImportMatchRequest(_message.Message):
    __slots__ = ("record", "dice_mode", "dice_seed", "request_id", "seat0_player", "seat1_player")
    RECORD_FIELD_NUMBER: _ClassVar[int]
    DICE_MODE_FIELD_NUMBER: _ClassVar[int]
    DICE_SEED_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT0_PLAYER_FIELD_NUMBER: _ClassVar[int]
    SEAT1_PLAYER_FIELD_NUMBER: _ClassVar[int]
    record: _match_record_pb2.MatchRecord
    dice_mode: DiceMode
    dice_seed: str
    request_id: str
    seat0_player: Player
    seat1_player: Player
    def __init__(self, record: _Optional[_Union[_match_record_pb2.MatchRecord, _Mapping]] = ..., dice_mode: _Optional[_Union[DiceMode, str]] = ..., dice_seed: _Optional[str] = ..., request_id: _Optional[str] = ..., seat0_player: _Optional[_Union[Player, _Mapping]] = ..., seat1_player: _Optional[_Union[Player, _Mapping]] = ...) -> None: ...

class ImportMatchResponse(_message.Message):
    __slots__ = ("game", "seat0_token", "seat1_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT0_TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEAT1_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: Game
    seat0_token: str
    seat1_token: str
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ..., seat0_token: _Optional[str] = ..., seat1_token: _Optional[str] = ...) -> None: ...

class GetGameRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class GetGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class ListGamesRequest(_message.Message):
    __slots__ = ("page_size", "page_token")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListGamesResponse(_message.Message):
    __slots__ = ("games", "next_page_token")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    games: _containers.RepeatedCompositeFieldContainer[Game]
    next_page_token: str
    def __init__(self, games: _Optional[_Iterable[_Union[Game, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class RollDiceRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class RollDiceResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class PlayMoveRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id", "notation", "steps")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    notation: str
    steps: _board_pb2.PlaySteps
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ..., notation: _Optional[str] = ..., steps: _Optional[_Union[_board_pb2.PlaySteps, _Mapping]] = ...) -> None: ...

class PlayMoveResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class OfferDoubleRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class OfferDoubleResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class TakeDoubleRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class TakeDoubleResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class DropDoubleRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class DropDoubleResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class BeaverDoubleRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class BeaverDoubleResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class OfferResignationRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id", "result")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    result: _board_pb2.GameResult
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ..., result: _Optional[_Union[_board_pb2.GameResult, str]] = ...) -> None: ...

class OfferResignationResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class AcceptResignationRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class AcceptResignationResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class RejectResignationRequest(_message.Message):
    __slots__ = ("name", "seat_token", "etag", "request_id")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    etag: str
    request_id: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., etag: _Optional[str] = ..., request_id: _Optional[str] = ...) -> None: ...

class RejectResignationResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class ListLegalActionsRequest(_message.Message):
    __slots__ = ("name", "seat", "seat_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat: Seat
    seat_token: str
    def __init__(self, name: _Optional[str] = ..., seat: _Optional[_Union[Seat, str]] = ..., seat_token: _Optional[str] = ...) -> None: ...

class ListLegalActionsResponse(_message.Message):
    __slots__ = ("actions", "plays", "etag", "seat")
    ACTIONS_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    actions: _containers.RepeatedScalarFieldContainer[Action]
    plays: _containers.RepeatedCompositeFieldContainer[_board_pb2.Play]
    etag: str
    seat: Seat
    def __init__(self, actions: _Optional[_Iterable[_Union[Action, str]]] = ..., plays: _Optional[_Iterable[_Union[_board_pb2.Play, _Mapping]]] = ..., etag: _Optional[str] = ..., seat: _Optional[_Union[Seat, str]] = ...) -> None: ...

class ListGameEventsRequest(_message.Message):
    __slots__ = ("name", "page_size", "page_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    page_size: int
    page_token: str
    def __init__(self, name: _Optional[str] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListGameEventsResponse(_message.Message):
    __slots__ = ("events", "next_page_token")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[GameEvent]
    next_page_token: str
    def __init__(self, events: _Optional[_Iterable[_Union[GameEvent, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class ExportMatchRequest(_message.Message):
    __slots__ = ("name", "format")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    name: str
    format: _match_record_pb2.MatchRecordFormat
    def __init__(self, name: _Optional[str] = ..., format: _Optional[_Union[_match_record_pb2.MatchRecordFormat, str]] = ...) -> None: ...

class ExportMatchResponse(_message.Message):
    __slots__ = ("mat", "sgf")
    MAT_FIELD_NUMBER: _ClassVar[int]
    SGF_FIELD_NUMBER: _ClassVar[int]
    mat: str
    sgf: str
    def __init__(self, mat: _Optional[str] = ..., sgf: _Optional[str] = ...) -> None: ...

class WatchGameRequest(_message.Message):
    __slots__ = ("name", "from_sequence")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FROM_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    name: str
    from_sequence: int
    def __init__(self, name: _Optional[str] = ..., from_sequence: _Optional[int] = ...) -> None: ...

class WatchGameResponse(_message.Message):
    __slots__ = ("event", "game")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    event: GameEvent
    game: Game
    def __init__(self, event: _Optional[_Union[GameEvent, _Mapping]] = ..., game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class PlaySeatRequest(_message.Message):
    __slots__ = ("join", "action")
    JOIN_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    join: JoinSeat
    action: SeatAction
    def __init__(self, join: _Optional[_Union[JoinSeat, _Mapping]] = ..., action: _Optional[_Union[SeatAction, _Mapping]] = ...) -> None: ...

class JoinSeat(_message.Message):
    __slots__ = ("name", "seat_token")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ...) -> None: ...

class SeatAction(_message.Message):
    __slots__ = ("etag", "request_id", "roll", "play", "double", "take", "drop", "beaver", "resign", "accept", "reject")
    class RollDice(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class PlayMove(_message.Message):
        __slots__ = ("notation", "steps")
        NOTATION_FIELD_NUMBER: _ClassVar[int]
        STEPS_FIELD_NUMBER: _ClassVar[int]
        notation: str
        steps: _board_pb2.PlaySteps
        def __init__(self, notation: _Optional[str] = ..., steps: _Optional[_Union[_board_pb2.PlaySteps, _Mapping]] = ...) -> None: ...
    class OfferDouble(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class TakeDouble(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class DropDouble(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class BeaverDouble(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class OfferResignation(_message.Message):
        __slots__ = ("result",)
        RESULT_FIELD_NUMBER: _ClassVar[int]
        result: _board_pb2.GameResult
        def __init__(self, result: _Optional[_Union[_board_pb2.GameResult, str]] = ...) -> None: ...
    class AcceptResignation(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    class RejectResignation(_message.Message):
        __slots__ = ()
        def __init__(self) -> None: ...
    ETAG_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ROLL_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    DOUBLE_FIELD_NUMBER: _ClassVar[int]
    TAKE_FIELD_NUMBER: _ClassVar[int]
    DROP_FIELD_NUMBER: _ClassVar[int]
    BEAVER_FIELD_NUMBER: _ClassVar[int]
    RESIGN_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_FIELD_NUMBER: _ClassVar[int]
    REJECT_FIELD_NUMBER: _ClassVar[int]
    etag: str
    request_id: str
    roll: SeatAction.RollDice
    play: SeatAction.PlayMove
    double: SeatAction.OfferDouble
    take: SeatAction.TakeDouble
    drop: SeatAction.DropDouble
    beaver: SeatAction.BeaverDouble
    resign: SeatAction.OfferResignation
    accept: SeatAction.AcceptResignation
    reject: SeatAction.RejectResignation
    def __init__(self, etag: _Optional[str] = ..., request_id: _Optional[str] = ..., roll: _Optional[_Union[SeatAction.RollDice, _Mapping]] = ..., play: _Optional[_Union[SeatAction.PlayMove, _Mapping]] = ..., double: _Optional[_Union[SeatAction.OfferDouble, _Mapping]] = ..., take: _Optional[_Union[SeatAction.TakeDouble, _Mapping]] = ..., drop: _Optional[_Union[SeatAction.DropDouble, _Mapping]] = ..., beaver: _Optional[_Union[SeatAction.BeaverDouble, _Mapping]] = ..., resign: _Optional[_Union[SeatAction.OfferResignation, _Mapping]] = ..., accept: _Optional[_Union[SeatAction.AcceptResignation, _Mapping]] = ..., reject: _Optional[_Union[SeatAction.RejectResignation, _Mapping]] = ...) -> None: ...

class PlaySeatResponse(_message.Message):
    __slots__ = ("seat", "game", "legal_actions", "answer")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    ANSWER_FIELD_NUMBER: _ClassVar[int]
    seat: Seat
    game: Game
    legal_actions: ListLegalActionsResponse
    answer: SeatActionAnswer
    def __init__(self, seat: _Optional[_Union[Seat, str]] = ..., game: _Optional[_Union[Game, _Mapping]] = ..., legal_actions: _Optional[_Union[ListLegalActionsResponse, _Mapping]] = ..., answer: _Optional[_Union[SeatActionAnswer, _Mapping]] = ...) -> None: ...

class SeatActionAnswer(_message.Message):
    __slots__ = ("request_id", "refusal")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    REFUSAL_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    refusal: SeatActionRefusal
    def __init__(self, request_id: _Optional[str] = ..., refusal: _Optional[_Union[SeatActionRefusal, _Mapping]] = ...) -> None: ...

class SeatActionRefusal(_message.Message):
    __slots__ = ("code", "message", "details")
    CODE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    code: int
    message: str
    details: _containers.RepeatedCompositeFieldContainer[_any_pb2.Any]
    def __init__(self, code: _Optional[int] = ..., message: _Optional[str] = ..., details: _Optional[_Iterable[_Union[_any_pb2.Any, _Mapping]]] = ...) -> None: ...

class OfferRematchRequest(_message.Message):
    __slots__ = ("name", "seat_token", "request_id", "etag")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    request_id: str
    etag: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., request_id: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class OfferRematchResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: Game
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ...) -> None: ...

class AcceptRematchRequest(_message.Message):
    __slots__ = ("name", "seat_token", "request_id", "etag")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_token: str
    request_id: str
    etag: str
    def __init__(self, name: _Optional[str] = ..., seat_token: _Optional[str] = ..., request_id: _Optional[str] = ..., etag: _Optional[str] = ...) -> None: ...

class AcceptRematchResponse(_message.Message):
    __slots__ = ("game", "rematch", "seat_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    REMATCH_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: Game
    rematch: Game
    seat_token: str
    def __init__(self, game: _Optional[_Union[Game, _Mapping]] = ..., rematch: _Optional[_Union[Game, _Mapping]] = ..., seat_token: _Optional[str] = ...) -> None: ...
