"""Between the API's messages and the engine's objects, both ways, in one place."""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp

from tavli.engine import BAR, VARIANTS, GameResult, InvalidDiceError, Play, Position, Variant, wire
from tavli.engine.backgammon import HOME_HIT_AND_RUN_VALUES, START_VALUES, HomeHitAndRun, Start
from tavli.engine.clock import ClockRules
from tavli.engine.events import (
    Beavered,
    DiceCommitted,
    Doubled,
    Dropped,
    Event,
    OpeningThrown,
    Played,
    RematchAccepted,
    RematchOffered,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    SeedRevealed,
    Side,
    TimeRanOut,
    Took,
)
from tavli.engine.fevga import (
    FEVGA_PRIMES_VALUES,
    FEVGA_QUARTER_TEST_VALUES,
    FIRST_CHECKER_VALUES,
    FevgaPrimes,
    FevgaQuarterTest,
    FirstChecker,
)
from tavli.engine.game import Action, FinishedGame, LastPlay, MatchState, Phase, seats_to_act
from tavli.engine.play import Dice, Step, check_dice, format_steps
from tavli.engine.position import Pins
from tavli.engine.rules import DEFAULT_CUBE_LIMIT, TAVLI, MatchVariant, RuleSet
from tavli.server.errors import BadRequest
from tavli.server.players import NOBODY, Players, SeatPlayer, player_message
from tavli.v1 import board_pb2, games_service_pb2 as games_pb2

if TYPE_CHECKING:
    from tavli.server.game_views import DiceMode

_VARIANT_ENUMS: dict[str, board_pb2.Variant] = {
    name: getattr(board_pb2, enum)
    for name in VARIANTS
    if (enum := "VARIANT_" + name.upper().replace("-", "_")) in board_pb2.Variant.DESCRIPTOR.values_by_name
}
"""Each variant's API enum, derived from its name: a new variant needs only its enum value (the API
offers no variant of the engine that has none yet)."""
_VARIANT_NAMES: dict[int, str] = {number: name for name, number in _VARIANT_ENUMS.items()}
SERVED_VARIANTS = tuple(VARIANTS[name] for name in _VARIANT_ENUMS)
"""The engine's variants that the API offers: those with an enum value."""
_MATCH_VARIANT_ENUMS: dict[str, board_pb2.Variant] = {**_VARIANT_ENUMS, TAVLI: board_pb2.VARIANT_TAVLI}
"""What a rule set may play: a variant, or the tavli match of three (which no rule query judges)."""
_MATCH_VARIANT_NAMES: dict[int, str] = {number: name for name, number in _MATCH_VARIANT_ENUMS.items()}
_STARTS: dict[Start, board_pb2.Start] = {
    start: getattr(board_pb2, f"START_{start}") for start in START_VALUES
}
_START_NAMES: dict[int, Start] = {number: start for start, number in _STARTS.items()}
_HOME_HIT_AND_RUNS: dict[HomeHitAndRun, board_pb2.HomeHitAndRun] = {
    value: getattr(board_pb2, f"HOME_HIT_AND_RUN_{value}") for value in HOME_HIT_AND_RUN_VALUES
}
_RESIGNABLE = (GameResult.SINGLE, GameResult.GAMMON, GameResult.BACKGAMMON, GameResult.MARS)
"""The results a resignation may offer (a mother loss and a draw come only from a play)."""
_RESULTS: dict[GameResult, board_pb2.GameResult] = {
    result: getattr(board_pb2, enum)
    for result in GameResult
    if (enum := "GAME_RESULT_" + result.value.upper()) in board_pb2.GameResult.DESCRIPTOR.values_by_name
}
_RESULT_LEVELS: dict[int, str] = {
    number: result.value for result, number in _RESULTS.items() if result in _RESIGNABLE
}
_FIRST_CHECKERS: dict[FirstChecker, board_pb2.FirstChecker] = {
    value: getattr(board_pb2, f"FIRST_CHECKER_{value}") for value in FIRST_CHECKER_VALUES
}
_FEVGA_PRIMES: dict[FevgaPrimes, board_pb2.FevgaPrimes] = {
    value: getattr(board_pb2, f"FEVGA_PRIMES_{value}") for value in FEVGA_PRIMES_VALUES
}
_FEVGA_QUARTER_TESTS: dict[FevgaQuarterTest, board_pb2.FevgaQuarterTest] = {
    value: getattr(board_pb2, f"FEVGA_QUARTER_TEST_{value}") for value in FEVGA_QUARTER_TEST_VALUES
}


_Value = TypeVar("_Value", bound=str)


class _RulesQuery(Protocol):
    """A stateless query's rule fields (ListLegalPlaysRequest, ValidatePlayRequest, ...)."""

    @property
    def variant(self) -> int: ...

    @property
    def start(self) -> int: ...

    @property
    def home_hit_and_run(self) -> int: ...

    @property
    def first_checker(self) -> int: ...

    @property
    def fevga_primes(self) -> int: ...

    @property
    def fevga_quarter_test(self) -> int: ...

    @property
    def pinned_blocks_bear_off(self) -> bool: ...

    @property
    def mother_exception(self) -> bool: ...

    def HasField(self, field_name: str) -> bool: ...  # protobuf's name


def _either(choices: Sequence[str]) -> str:
    """``"A, B or C"``."""
    return " or ".join(filter(None, (", ".join(choices[:-1]), choices[-1])))


_VARIANT_CHOICES = _either([board_pb2.Variant.Name(number) for number in _VARIANT_ENUMS.values()])
"""``VARIANT_BACKGAMMON, VARIANT_LONG_NARDI, ...``, for messages that ask for one game's rules."""
_MATCH_VARIANT_CHOICES = _either([board_pb2.Variant.Name(number) for number in _MATCH_VARIANT_ENUMS.values()])
"""The same with ``VARIANT_TAVLI``, for a rule set."""
_RESULT_CHOICES = "GAME_RESULT" + _either(
    [board_pb2.GameResult.Name(number).removeprefix("GAME_RESULT") for number in _RESULT_LEVELS]
)
"""``GAME_RESULT_SINGLE, _GAMMON, _BACKGAMMON or _MARS``, for messages that ask what to resign."""

_PHASES = {
    Phase.OPENING: games_pb2.PHASE_OPENING,
    Phase.ROLLING: games_pb2.PHASE_ROLLING,
    Phase.DOUBLED: games_pb2.PHASE_DOUBLED,
    Phase.PLAYING: games_pb2.PHASE_PLAYING,
    Phase.RESIGNING: games_pb2.PHASE_RESIGNING,
    Phase.MATCH_OVER: games_pb2.PHASE_MATCH_OVER,
}
_GAME_ENDS = {
    "play": games_pb2.GAME_END_PLAY,
    "drop": games_pb2.GAME_END_DROP,
    "resignation": games_pb2.GAME_END_RESIGNATION,
    "time": games_pb2.GAME_END_TIME,
    "mother": games_pb2.GAME_END_MOTHER,
    "draw": games_pb2.GAME_END_DRAW,
}
_DICE_MODES: dict[DiceMode, games_pb2.DiceMode] = {
    "system": games_pb2.DICE_MODE_UNSPECIFIED,
    "seeded": games_pb2.DICE_MODE_SEEDED,
    "verifiable": games_pb2.DICE_MODE_VERIFIABLE,
}
_DICE_MODE_NAMES: dict[int, DiceMode] = {number: name for name, number in _DICE_MODES.items()}
_ACTIONS: dict[Action, games_pb2.Action] = {
    action: getattr(games_pb2, f"ACTION_{action.name}") for action in Action
}
_EVENT_KINDS = {
    OpeningThrown: games_pb2.EVENT_KIND_OPENING_THROW,
    Rolled: games_pb2.EVENT_KIND_ROLL,
    Played: games_pb2.EVENT_KIND_PLAY,
    Doubled: games_pb2.EVENT_KIND_DOUBLE,
    Took: games_pb2.EVENT_KIND_TAKE,
    Dropped: games_pb2.EVENT_KIND_DROP,
    Beavered: games_pb2.EVENT_KIND_BEAVER,
    ResignationOffered: games_pb2.EVENT_KIND_RESIGN,
    ResignationAccepted: games_pb2.EVENT_KIND_ACCEPT,
    ResignationRejected: games_pb2.EVENT_KIND_REJECT,
    DiceCommitted: games_pb2.EVENT_KIND_DICE_COMMITTED,
    SeedRevealed: games_pb2.EVENT_KIND_SEED_REVEALED,
    TimeRanOut: games_pb2.EVENT_KIND_TIME_RAN_OUT,
    RematchOffered: games_pb2.EVENT_KIND_REMATCH_OFFERED,
    RematchAccepted: games_pb2.EVENT_KIND_REMATCH_ACCEPTED,
}


# --- requests to the engine ----------------------------------------------------------------


def variant_of(variant: int) -> Variant:
    """:raises BadRequest: for VARIANT_UNSPECIFIED, VARIANT_TAVLI (a kind of match, not one game's
    rules) or an unknown number."""
    if variant == board_pb2.VARIANT_TAVLI:
        raise BadRequest(
            "a tavli match plays Portes, Plakoto and Fevga in turn: name the game whose rules apply,"
            f" {_VARIANT_CHOICES}"
        )
    name = _VARIANT_NAMES.get(variant)
    if name is None:
        raise BadRequest(f"choose a variant: {_VARIANT_CHOICES}")
    return VARIANTS[name]


def match_variant_of(variant: int) -> MatchVariant:
    """What a rule set may play, by its enum (a variant, or the tavli match).

    :raises BadRequest: for VARIANT_UNSPECIFIED or an unknown number.
    """
    name = _MATCH_VARIANT_NAMES.get(variant)
    if name is None:
        raise BadRequest(f"choose a variant: {_MATCH_VARIANT_CHOICES}")
    return cast(MatchVariant, name)


_ENUM_OPTION_FIELDS = ("start", "home_hit_and_run", "first_checker", "fevga_primes", "fevga_quarter_test")
_BOOL_OPTION_FIELDS = ("pinned_blocks_bear_off", "mother_exception")
"""A stateless query's fields for the options that change how checkers move (enums, unset 0;
and optional booleans)."""


def rules_of_request(request: _RulesQuery) -> Variant:
    """The rules a stateless query names: its variant, with the options it gives that change how
    checkers move (``start``, ``home_hit_and_run``, Plakoto's and Fevga's).

    :raises BadRequest: for VARIANT_UNSPECIFIED or an unknown number.
    :raises InvalidRuleSetError: for an option the variant does not have.
    """
    variant = variant_of(request.variant)
    gives_options = any(getattr(request, name) for name in _ENUM_OPTION_FIELDS) or any(
        request.HasField(name) for name in _BOOL_OPTION_FIELDS
    )
    if not gives_options:
        return variant  # the variant's defaults, the common query: no rule set to build
    return rule_set_of_request(request).rules


def rule_set_of_request(request: _RulesQuery, *, mother_value: int = 0) -> RuleSet:
    """The rule set of a stateless query: its variant with the options it gives.

    :raises BadRequest: for VARIANT_UNSPECIFIED or an unknown number.
    :raises InvalidRuleSetError: for an option the variant does not have.
    """
    return RuleSet(
        variant=variant_of(request.variant).name,
        mother_value=mother_value or 2,
        **move_options_of(request),
    )


def move_options_of(request: _RulesQuery | games_pb2.RuleSet) -> dict[str, Any]:
    """The options that change how checkers move, as a query or a rule set gives them (unset:
    the rule book's defaults)."""
    return {
        "start": start_of(request.start),
        "home_hit_and_run": home_hit_and_run_of(request.home_hit_and_run),
        "first_checker": _enum_value(_FIRST_CHECKERS, request.first_checker, "PAST_START"),
        "fevga_primes": _enum_value(_FEVGA_PRIMES, request.fevga_primes, "START_QUARTER_AND_UNBLOCK"),
        "fevga_quarter_test": _enum_value(_FEVGA_QUARTER_TESTS, request.fevga_quarter_test, "PLAY"),
        "pinned_blocks_bear_off": (
            request.pinned_blocks_bear_off if request.HasField("pinned_blocks_bear_off") else True
        ),
        "mother_exception": request.mother_exception if request.HasField("mother_exception") else True,
    }


def _enum_value(values: Mapping[_Value, int], number: int, unset: _Value) -> _Value:
    """The engine's value of an API enum's ``number`` (unset: ``unset``; a number the enum does not
    define never gets here: the server refuses it first, whatever the field)."""
    return next((value for value, enum in values.items() if enum == number), unset)


def start_of(start: int) -> Start:
    """The engine's ``start`` for an API ``Start`` (unset: STANDARD)."""
    return _START_NAMES.get(start, "STANDARD")


def home_hit_and_run_of(value: int) -> HomeHitAndRun:
    """The engine's ``home_hit_and_run`` for an API ``HomeHitAndRun`` (unset: ALLOWED)."""
    return "FORBIDDEN" if value == board_pb2.HOME_HIT_AND_RUN_FORBIDDEN else "ALLOWED"


def position_of(variant: Variant, message: board_pb2.Position) -> Position:
    """The position a request gives, checked against the variant.

    :raises BadRequest: when no form is set.
    :raises InvalidPositionError: for a malformed or impossible position.
    """
    form = message.WhichOneof("form")
    if form == "position_id":
        position = Position.from_id(message.position_id, checkers=variant.checkers)
    elif form == "xgid":
        from tavli.engine.xgid import parse_xgid

        position = parse_xgid(message.xgid).position.with_checkers(variant.checkers)
    elif form == "board":
        position = _position_of_board(message.board, variant.checkers)
    else:
        raise BadRequest("give the position as a position_id, an xgid or a board")
    variant.check_valid(position)
    return position


def _position_of_board(board: board_pb2.Board, checkers: int) -> Position:
    sides = []
    for name, points, bar in (
        ("player", board.player_points, board.player_bar),
        ("opponent", board.opponent_points, board.opponent_bar),
    ):
        if len(points) != 24:
            raise BadRequest(f"{name}_points must hold 24 counts (points 1-24), not {len(points)}")
        counts = {point: count for point, count in enumerate(points, start=1) if count}
        if bar:
            counts[BAR] = bar
        sides.append(counts)
    position = Position.from_points(sides[0], sides[1], checkers=checkers)
    if not board.player_pinned_points and not board.opponent_pinned_points:
        return position
    pins = Pins(tuple(sorted(board.player_pinned_points)), tuple(sorted(board.opponent_pinned_points)))
    return Position.from_id(f"{position.position_id()}:{pins.text()}", checkers=checkers)


def dice_of(dice: Sequence[int]) -> Dice:
    """:raises InvalidDiceError: unless two dice of 1-6."""
    if len(dice) != 2:
        raise InvalidDiceError(f"give the two dice rolled, not {len(dice)}")
    return check_dice(tuple(dice))


def rules_of(message: games_pb2.RuleSet) -> RuleSet:
    """:raises BadRequest, InvalidRuleSetError: for a missing variant or options that clash."""
    name = _MATCH_VARIANT_NAMES.get(message.variant)
    if name is None:
        raise BadRequest(f"the rule set needs a variant: {_MATCH_VARIANT_CHOICES}")
    cube = {games_pb2.CUBE_MODE_CUBE: True, games_pb2.CUBE_MODE_NO_CUBE: False}.get(message.cube)
    opening = {
        games_pb2.OPENING_PLAY_OPENING_DICE: "PLAY_OPENING_DICE",
        games_pb2.OPENING_WINNER_ROLLS_AGAIN: "WINNER_ROLLS_AGAIN",
    }.get(message.opening)
    match_openings = {
        games_pb2.MATCH_OPENINGS_EVERY_GAME: "EVERY_GAME",
        games_pb2.MATCH_OPENINGS_WINNER_OPENS: "WINNER_OPENS",
        games_pb2.MATCH_OPENINGS_ALTERNATE: "ALTERNATE",
    }.get(message.match_openings)
    backgammons = {
        games_pb2.BACKGAMMONS_COUNTED: "COUNTED",
        games_pb2.BACKGAMMONS_AS_GAMMON: "AS_GAMMON",
    }.get(message.backgammons)
    return RuleSet(
        variant=name,  # type: ignore[arg-type]
        match_length=message.match_length,
        cube=cube,
        cube_limit=message.cube_limit if message.HasField("cube_limit") else DEFAULT_CUBE_LIMIT,
        crawford=message.crawford if message.HasField("crawford") else True,
        jacoby=message.jacoby,
        beavers=message.beavers,
        automatic_doubles=message.automatic_doubles,
        automatic_doubles_limit=(
            message.automatic_doubles_limit if message.HasField("automatic_doubles_limit") else 1
        ),
        opening=opening,  # type: ignore[arg-type]
        match_openings=match_openings,  # type: ignore[arg-type]
        auto_play_forced=message.auto_play_forced,
        backgammons=backgammons,  # type: ignore[arg-type]
        clock=_clock_rules_of(message.clock) if message.HasField("clock") else None,
        mother_value=message.mother_value or 2,
        **move_options_of(message),
    )


_NANOS_PER_SECOND = 1_000_000_000


def _clock_rules_of(message: games_pb2.ClockRules) -> ClockRules:
    """:raises BadRequest: for a negative duration, or one whose nanos are a second or more
    (google.protobuf.Duration keeps them under 1,000,000,000); the rule set checks the rest."""
    seconds = {}
    for name in ("reserve", "reserve_per_point", "delay", "move_limit"):
        duration = getattr(message, name)
        words = name.replace("_", " ")
        if duration.seconds < 0 or duration.nanos < 0:
            raise BadRequest(f"the clock's {words} cannot be negative")
        if duration.nanos >= _NANOS_PER_SECOND:
            raise BadRequest(
                f"the clock's {words} has {duration.nanos:,} nanos: a Duration's nanos are under one second"
                " (999,999,999 at most); put whole seconds in its seconds"
            )
        seconds[name] = duration.seconds + duration.nanos / 1e9
    return ClockRules(**seconds)


def dice_mode_of(mode: int) -> DiceMode:
    """:raises BadRequest: for a number DiceMode does not define."""
    name = _DICE_MODE_NAMES.get(mode)
    if name is None:
        raise BadRequest(f"unknown dice_mode {mode}")
    return name


def resign_level_of(result: int) -> str:
    """:raises BadRequest: for GAME_RESULT_UNSPECIFIED."""
    level = _RESULT_LEVELS.get(result)
    if level is None:
        raise BadRequest(f"say what to resign: {_RESULT_CHOICES}")
    return level


def seat_of(seat: int) -> Side:
    """:raises BadRequest: for SEAT_UNSPECIFIED."""
    if seat == games_pb2.SEAT_0:
        return 0
    if seat == games_pb2.SEAT_1:
        return 1
    raise BadRequest("name a seat: SEAT_0 or SEAT_1")


# --- the engine to responses -----------------------------------------------------------------


def variant_message(variant: Variant | MatchVariant) -> board_pb2.Variant:
    """The API's enum of ``variant`` (a variant, or a kind of match by its name)."""
    return _MATCH_VARIANT_ENUMS[variant if isinstance(variant, str) else variant.name]


def seat_message(side: Side | None) -> games_pb2.Seat:
    if side is None:
        return games_pb2.SEAT_UNSPECIFIED
    return games_pb2.SEAT_0 if side == 0 else games_pb2.SEAT_1


def result_message(result: GameResult | None) -> board_pb2.GameResult:
    return board_pb2.GAME_RESULT_UNSPECIFIED if result is None else _RESULTS[result]


def board_message(position: Position) -> board_pb2.Board:
    """The Board of ``position``."""
    player, opponent = position
    pins = position.pins
    return board_pb2.Board(
        player_points=player[1:25],
        player_bar=player[BAR],
        opponent_points=opponent[1:25],
        opponent_bar=opponent[BAR],
        player_pinned_points=pins.player,
        opponent_pinned_points=pins.opponent,
    )


def play_message(play: Play) -> board_pb2.Play:
    return board_pb2.Play.FromString(wire.play_message(play.steps, play.position.position_id()))


def moves_of(steps: Sequence[board_pb2.Step]) -> list[tuple[int, int]]:
    """A play given as steps, as the engine's ``check_play`` takes it: each step's start and end."""
    return [(step.from_point, step.to_point) for step in steps]


@functools.lru_cache(maxsize=1024)
def rules_message(rules: RuleSet) -> games_pb2.RuleSet:
    """The RuleSet of ``rules``, built once for each rule set in use (every version of a game
    shows it): shared, so never changed (a message built with it holds a copy)."""
    return games_pb2.RuleSet(
        variant=_MATCH_VARIANT_ENUMS[rules.variant],
        match_length=rules.match_length,
        cube=games_pb2.CUBE_MODE_CUBE if rules.cube else games_pb2.CUBE_MODE_NO_CUBE,
        cube_limit=rules.cube_limit,
        crawford=rules.crawford,
        jacoby=rules.jacoby,
        beavers=rules.beavers,
        automatic_doubles=rules.automatic_doubles,
        automatic_doubles_limit=rules.automatic_doubles_limit,
        opening=getattr(games_pb2, f"OPENING_{rules.opening}"),
        match_openings=getattr(games_pb2, f"MATCH_OPENINGS_{rules.match_openings}"),
        auto_play_forced=rules.auto_play_forced,
        backgammons=getattr(games_pb2, f"BACKGAMMONS_{rules.backgammons}"),
        clock=None if rules.clock is None else _clock_rules_message(rules.clock),
        start=_STARTS[rules.start],
        home_hit_and_run=_HOME_HIT_AND_RUNS[rules.home_hit_and_run],
        pinned_blocks_bear_off=rules.pinned_blocks_bear_off,
        mother_exception=rules.mother_exception,
        mother_value=rules.mother_value,
        first_checker=_FIRST_CHECKERS[rules.first_checker],
        fevga_primes=_FEVGA_PRIMES[rules.fevga_primes],
        fevga_quarter_test=_FEVGA_QUARTER_TESTS[rules.fevga_quarter_test],
    )


def _clock_rules_message(clock: ClockRules) -> games_pb2.ClockRules:
    message = games_pb2.ClockRules()
    for name in ("reserve", "reserve_per_point", "delay", "move_limit"):
        seconds = getattr(clock, name)
        if seconds:
            getattr(message, name).CopyFrom(_duration(seconds))
    return message


def clocks_message(state: MatchState) -> games_pb2.Clocks | None:
    """Both seats' clocks in ``state``; None in a game without clocks."""
    clock, rules = state.clock, state.rules.clock
    if clock is None or rules is None:
        return None
    message = games_pb2.Clocks(running=seat_message(clock.running))
    if not math.isinf(clock.remaining[0]):
        message.remaining.extend(_duration(seconds) for seconds in clock.remaining)
    deadline, delay_ends = clock.deadline(rules), clock.delay_ends(rules)
    if deadline is not None and delay_ends is not None:
        message.turn_start_time.CopyFrom(timestamp(clock.started))
        message.delay_end_time.CopyFrom(timestamp(delay_ends))
        message.deadline.CopyFrom(timestamp(deadline))
    return message


def actions_message(actions: Sequence[Action]) -> list[games_pb2.Action]:
    return [_ACTIONS[action] for action in actions]


class BuildCount:
    """How many Game messages this process has built: one for each stored version of a game,
    whoever shows it (read by the tests and benchmarks that hold the server to it)."""

    def __init__(self) -> None:
        self.games = 0


BUILT = BuildCount()


def serialized_game(
    name: str,
    rules: RuleSet,
    state: MatchState,
    *,
    event_count: int,
    dice_commitment: str,
    dice_mode: DiceMode,
    created: float,
    updated: float,
    players: Players = NOBODY,
    hints_allowed: bool = False,
    finished_from: int = 0,
) -> bytes:
    """The Game resource for a match state, serialized; with ``finished_from``, as a stream's
    message after its first shows it to a stream that has sent that many finished games: only the
    games after them, and their number in ``omitted_finished_game_count``.

    Its numbers and text are one message serialized at once; the messages in it that one version
    shares with the next (the rule set, the boards, the players, the finished games) are written
    once each and joined as they are (a message's fields may come in any order)."""
    BUILT.games += 1
    game = state.game
    seat0_position = game.position_of(0)
    parts = [
        games_pb2.Game(
            name=name,
            etag=str(event_count),
            event_count=event_count,
            score=list(state.score),
            game_number=game.number,
            phase=_PHASES[game.phase],
            turn=seat_message(game.turn),
            position_id=game.position.position_id(),
            dice=list(game.dice or ()),
            cube_value=game.cube_value,
            cube_owner=seat_message(game.cube_owner),
            crawford=game.crawford,
            winner=seat_message(state.winner),
            dice_commitment=dice_commitment,
            dice_mode=_DICE_MODES[dice_mode],
            to_act=[seat_message(side) for side in seats_to_act(state)],
            pip_counts=list(seat0_position.pip_count()),
            variant=variant_message(state.game_rules.rules),
            next_variant=variant_message(state.next_game_rules.rules),
            hints_allowed=hints_allowed,
            omitted_finished_game_count=finished_from,
        ).SerializeToString(),
        _rules_field(rules),
        _board_field(_GAME_BOARD, game.position),
        _board_field(_GAME_SEAT0_BOARD, seat0_position),
        _created_field(created),
        _timestamp_field(_GAME_UPDATE_TIME, updated),
        _player_field(_GAME_SEAT0_PLAYER, players[0]),
        _player_field(_GAME_SEAT1_PLAYER, players[1]),
    ]
    clocks = clocks_message(state)
    if clocks is not None:
        parts.append(wire.message_field(_GAME_CLOCKS, clocks.SerializeToString()))
    if state.rematch is not None:
        rematch = games_pb2.Rematch(
            offered_by=seat_message(state.rematch.offered_by), game=state.rematch.game or ""
        )
        parts.append(wire.message_field(_GAME_REMATCH, rematch.SerializeToString()))
    if game.resignation is not None:
        seat, result = game.resignation
        resignation = games_pb2.Resignation(
            seat=seat_message(seat), result=_RESULTS[result], points=result.multiplier * game.cube_value
        )
        parts.append(wire.message_field(_GAME_RESIGNATION, resignation.SerializeToString()))
    if game.last_play is not None:
        parts.append(wire.message_field(_GAME_LAST_PLAY, _last_play(game.last_play)))
    parts.extend(
        _finished_game_field(finished, variant_message(rules.for_game(finished.number).rules))
        for finished in state.finished[finished_from:]
    )
    return b"".join(parts)


# Every version shows the last play until the next one (two in a row, the play's and the roll's
# after it: a small cache serves many games at once, and holds few positions alive).
@functools.lru_cache(maxsize=256)
def _last_play(last: LastPlay) -> bytes:
    """The LastPlay message of ``last``, serialized."""
    before = last.before if last.side == 0 else last.before.swapped()
    return (
        games_pb2.LastPlay(
            seat=seat_message(last.side), dice=list(last.dice), position_id_before=last.before.position_id()
        ).SerializeToString()
        + _board_field(_LAST_PLAY_BOARD_BEFORE, before)
        + _last_play_moves(last.play.steps)
    )


# A version's rule set is its game's: one message for each rule set in use.
@functools.lru_cache(maxsize=1024)
def _rules_field(rules: RuleSet) -> bytes:
    return wire.message_field(_GAME_RULE_SET, rules_message(rules).SerializeToString())


def _board_field(number: int, position: Position) -> bytes:
    return wire.message_field(number, _board(position))


# A version's board is the last version's until a play moves it, its seat 0's board is the same
# board half the time, and its last play's board before is the last version's seat 0's: a board
# is asked for again within a version or two.
@functools.lru_cache(maxsize=1024)
def _board(position: Position) -> bytes:
    return board_message(position).SerializeToString()


@functools.lru_cache(maxsize=1024)
def _created_field(seconds: float) -> bytes:
    """A game's creation time, the same in all its versions."""
    return _timestamp_field(_GAME_CREATE_TIME, seconds)


@functools.lru_cache(maxsize=1024)
def _player_field(number: int, player: SeatPlayer) -> bytes:
    message = player_message(player)
    return b"" if message is None else wire.message_field(number, message.SerializeToString())


# A match's finished games are shown by every version after them.
@functools.lru_cache(maxsize=1024)
def _finished_game_field(finished: FinishedGame, variant: board_pb2.Variant) -> bytes:
    message = games_pb2.FinishedGame(
        game_number=finished.number,
        winner=seat_message(finished.winner),
        result=_RESULTS[finished.result],
        points=finished.points,
        cube_value=finished.cube_value,
        ended_by=_GAME_ENDS[finished.ended_by],
        variant=variant,
    )
    return wire.message_field(_GAME_FINISHED_GAMES, message.SerializeToString())


def _timestamp_field(number: int, seconds: float) -> bytes:
    return wire.message_field(number, timestamp(seconds).SerializeToString())


(
    _GAME_RULE_SET,
    _GAME_BOARD,
    _GAME_SEAT0_BOARD,
    _GAME_CREATE_TIME,
    _GAME_UPDATE_TIME,
    _GAME_SEAT0_PLAYER,
    _GAME_SEAT1_PLAYER,
    _GAME_CLOCKS,
    _GAME_REMATCH,
    _GAME_RESIGNATION,
    _GAME_LAST_PLAY,
    _GAME_FINISHED_GAMES,
) = (
    games_pb2.Game.DESCRIPTOR.fields_by_name[name].number
    for name in (
        "rule_set",
        "board",
        "seat0_board",
        "create_time",
        "update_time",
        "seat0_player",
        "seat1_player",
        "clocks",
        "rematch",
        "resignation",
        "last_play",
        "finished_games",
    )
)
_LAST_PLAY_BOARD_BEFORE = games_pb2.LastPlay.DESCRIPTOR.fields_by_name["seat0_board_before"].number

_LAST_PLAY_STEPS = games_pb2.LastPlay.DESCRIPTOR.fields_by_name["steps"].number


# A game shows its last play in every version until the next play: the play's notation and steps
# are written once for each play's steps (the text and the Step messages are most of a LastPlay).
@functools.lru_cache(maxsize=4096)
def _last_play_moves(steps: tuple[Step, ...]) -> bytes:
    """The fields of a LastPlay that its steps alone decide: its notation and its steps."""
    notation = games_pb2.LastPlay(notation=format_steps(steps)).SerializeToString()
    return notation + wire.steps_field(_LAST_PLAY_STEPS, steps)


_EVENT_STEPS = games_pb2.GameEvent.DESCRIPTOR.fields_by_name["steps"].number


def event_message(sequence: int, event: Event) -> games_pb2.GameEvent:
    message = games_pb2.GameEvent(sequence=sequence, kind=_EVENT_KINDS[type(event)])
    side = getattr(event, "side", None)
    message.seat = seat_message(side)
    if event.at is not None:
        message.event_time.CopyFrom(timestamp(event.at))
    if isinstance(event, OpeningThrown):
        message.opening_throws.extend(
            games_pb2.OpeningThrow(seat0_die=first, seat1_die=second) for first, second in event.throws
        )
    elif isinstance(event, Rolled):
        message.dice.extend(event.dice)
    elif isinstance(event, Played):
        message.notation = event.notation
        message.MergeFromString(wire.steps_field(_EVENT_STEPS, event.steps))
        message.forced = event.forced
    elif isinstance(event, ResignationOffered):
        message.resignation_result = _RESULTS[GameResult(event.level)]
    elif isinstance(event, DiceCommitted):
        message.game_number = event.game
        message.dice_commitment = event.commitment
    elif isinstance(event, SeedRevealed):
        message.game_number = event.game
        message.dice_seed = event.seed
    elif isinstance(event, TimeRanOut):
        message.reason = f"seat {event.side}'s time ran out"
    elif isinstance(event, RematchAccepted):
        message.rematch_game = event.game
    return message


def _duration(seconds: float) -> Duration:
    duration = Duration()
    duration.FromNanoseconds(round(seconds * 1e9))
    return duration


def timestamp(seconds: float) -> Timestamp:
    """``seconds`` since the epoch, to the nanosecond (what ``Timestamp.FromNanoseconds`` makes,
    without its Python-level steps: every version of a game shows one)."""
    whole, nanos = divmod(int(seconds * 1e9), 1_000_000_000)
    return Timestamp(seconds=whole, nanos=nanos)
