"""The whole game as a state machine: phases, the cube, resignations, scoring, matches.

A :class:`MatchState` is immutable. :func:`apply` checks an event against the rules and returns
the state after it, or raises :class:`ActionError` with a stable ``reason`` and a ``message`` in
words, and then nothing has changed. A money session is a match of length 0 that never ends.

The position of the game in play is always seen from the side whose turn it is (``turn``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Literal, TypeVar

from tavli.engine.checking import GivenStep
from tavli.engine.clock import Clock, full_clock
from tavli.engine.errors import (
    NOT_YOUR_TURN,
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidPlayError,
    TavliError,
    refusal_of_play,
)
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
    ResignLevel,
    Rolled,
    SeedRevealed,
    Side,
    TimeRanOut,
    Took,
    WrittenPlay,
)
from tavli.engine.play import Dice, Play, check_dice
from tavli.engine.position import Checkers, Position
from tavli.engine.rules import CUBE_CEILING, RuleSet
from tavli.engine.variant import GameResult, LegalPlays

ErrorCode = Literal[
    "NOT_YOUR_TURN",
    "WRONG_PHASE",
    "DOUBLE_PENDING",
    "RESIGNATION_PENDING",
    "CUBE_UNAVAILABLE",
    "BEAVER_UNAVAILABLE",
    "RESIGNATION_UNAVAILABLE",
    "ILLEGAL_PLAY",
    "INVALID_PLAY",
    "AMBIGUOUS_PLAY",
    "INVALID_DICE",
    "MATCH_OVER",
    "OUT_OF_TIME",
    "MATCH_NOT_OVER",
    "REMATCH_ALREADY_OFFERED",
    "REMATCH_ALREADY_ACCEPTED",
    "NO_REMATCH_OFFERED",
]


class ActionError(TavliError):
    """An action the rules do not allow now. ``reason`` is the stable code; ``message`` says why
    in the player's words."""

    def __init__(self, reason: ErrorCode, message: str) -> None:
        self.reason = reason
        self.message = message
        super().__init__(message)


class Phase(enum.Enum):
    OPENING = "opening"  # the throw for who starts is due; either side may throw
    ROLLING = "rolling"  # the side on turn rolls, or doubles first
    DOUBLED = "doubled"  # a double waits for the other side's answer
    PLAYING = "playing"  # the dice are rolled; the side on turn plays
    RESIGNING = "resigning"  # an offer to resign waits for the other side's answer
    MATCH_OVER = "match-over"


class Action(enum.Enum):
    ROLL = "roll"
    PLAY = "play"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    RESIGN = "resign"
    ACCEPT = "accept"
    REJECT = "reject"


GameEnd = Literal["play", "mother", "draw", "drop", "resignation", "time"]
"""What ended a game: a play bearing off the last checker, a play pinning a mother (Plakoto) or
pinning both (a draw), a dropped double, an accepted resignation, or a side's time running out."""


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A game's outcome: who won (``None`` in a draw), how, what ended it and the points it scored."""

    number: int
    winner: Side | None
    result: GameResult
    points: int
    cube_value: int
    ended_by: GameEnd


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The last play made in the game, as a table shows the opponent's last play."""

    side: Side
    dice: Dice
    play: Play
    before: Position  # the position it was played in, from the mover's side


@dataclass(frozen=True, slots=True)
class GameState:
    """The game in play."""

    number: int
    position: Position  # seen from ``turn``
    turn: Side
    phase: Phase
    dice: Dice | None = None
    cube_value: int = 1
    cube_owner: Side | None = None  # None: centred
    crawford: bool = False  # this is the Crawford game: no doubling
    automatic_doubles: int = 0
    resignation: tuple[Side, GameResult] | None = None
    resumes: Phase | None = None  # the phase play resumes in if the resignation is rejected
    resign_barred: frozenset[Side] = frozenset()  # rejected offers, until the next play
    last_play: LastPlay | None = None
    opener: Side | None = None  # the side that started the game; None until the opening throw decides

    def checkers(self, side: Side) -> Checkers:
        """``side``'s checkers, from its own view."""
        return self.position.player if side == self.turn else self.position.opponent

    def position_of(self, side: Side) -> Position:
        """The position from ``side``'s view."""
        return self.position if side == self.turn else self.position.swapped()


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match (or money session, ``match_length`` 0) and the game in play."""

    rules: RuleSet
    game: GameState
    score: tuple[int, int] = (0, 0)
    finished: tuple[FinishedGame, ...] = ()
    crawford_played: bool = False  # the Crawford game has been reached (it happens once)
    winner: Side | None = None
    throws: int = 0  # how many throws have been made: the index of the next
    clock: Clock | None = None  # with clocks: both seats' time (engine.clock)
    rematch: Rematch | None = None  # once the match is over: a rematch offered, or agreed

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def game_rules(self) -> RuleSet:
        """The rule set of the game in play (of the last game, once the match is over): the
        match's own, except in a tavli match (:meth:`RuleSet.for_game`)."""
        return self.rules.for_game(self.game.number)

    @property
    def next_game_rules(self) -> RuleSet:
        """The rule set the match's next game would be played by."""
        return self.rules.for_game(self.game.number + 1)


@dataclass(frozen=True, slots=True)
class Rematch:
    """Another match of the same rules, offered by one side after the match; once the other side
    accepts it, ``game`` names it."""

    offered_by: Side
    game: str | None = None


_State = TypeVar("_State", GameState, MatchState)
# Each state's fields, and a getter of all of them at once.
_FIELDS = {
    kind: (names, attrgetter(*names))
    for kind in (GameState, MatchState)
    for names in [tuple(field.name for field in fields(kind))]
}


def _changed(state: _State, **changes: Any) -> _State:
    """``state`` with ``changes``: :func:`dataclasses.replace` for this module's frozen states, which
    ``__init__`` only stores, without replace's look at the class's fields on every call (every
    action of a game makes two of these: on a long record, a good part of checking it). A name
    that is no field is refused as ``__init__`` would refuse it: the states have slots only."""
    kind = type(state)
    names, values_of = _FIELDS[kind]
    changed = object.__new__(kind)
    for name, value in zip(names, values_of(state)):
        object.__setattr__(changed, name, value)
    for name, value in changes.items():
        object.__setattr__(changed, name, value)
    return changed


def new_match(rules: RuleSet) -> MatchState:
    """The state before the first throw of a match or money session."""
    start = rules.for_game(1).rules.start_position()
    game = GameState(number=1, position=start, turn=0, phase=Phase.OPENING)
    clock = None if rules.clock is None else full_clock(rules.clock, rules.match_length)
    return MatchState(rules=rules, game=game, clock=clock)


def other(side: Side) -> Side:
    return 1 if side == 0 else 0


# --- applying events ------------------------------------------------------------------------


def apply(state: MatchState, event: Event, after: MatchState | None = None) -> MatchState:
    """The state after ``event``; ``after`` is the state the rules give for it, when the caller
    has worked that out already (see :func:`make_play`), and only the clocks are then left.

    :raises ActionError: if the rules do not allow it now; ``state`` is unchanged.
    """
    if isinstance(event, (DiceCommitted, SeedRevealed)):
        return state
    if isinstance(event, (RematchOffered, RematchAccepted)):
        return _rematch(state, event)
    if state.over:
        raise ActionError("MATCH_OVER", "the match is over")
    if state.clock is not None:
        _check_in_time(state, event)
    if after is None:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise ActionError("WRONG_PHASE", f"{type(event).__name__} is not an action of a game")
        after = handler(state, event)
    return after if state.clock is None else _clock_after(state, event, after)


def apply_stored(state: MatchState, event: Event) -> MatchState:
    """The state after ``event`` of a stored log, which :func:`apply` allowed when it was stored:
    a play is made as it was logged, not read against the legal plays again. For a fold that
    follows what another fold decided (watchers, a process catching up); a log that may be
    damaged is read with :func:`apply`.

    :raises ActionError: for an event the state cannot take at all (a log not stored by the rules).
    """
    if not isinstance(event, Played) or state.over or state.game.phase is not Phase.PLAYING:
        return apply(state, event)
    position = state.game.position
    play = Play.trusted(event.steps, state.game_rules.rules.position_after(position, event.steps))
    return apply(state, event, make_play(state, event.side, play))


def _opening(state: MatchState, event: OpeningThrown) -> MatchState:
    game = state.game
    _expect_phase(game, Phase.OPENING, "the opening throw has been made")
    throws = event.throws
    if not throws or any(first == second for first, second in throws[-1:]):
        raise ActionError("INVALID_DICE", "the opening throw ends with two different dice")
    if any(first != second for first, second in throws[:-1]):
        raise ActionError("INVALID_DICE", "an opening throw is thrown again only after a tie")
    for throw in throws:
        check_dice(throw)
    rules = state.game_rules
    cube_value = game.cube_value
    automatic = game.automatic_doubles
    for _ in throws[:-1]:
        if (
            rules.automatic_doubles
            and automatic < rules.automatic_doubles_limit
            and _below_limit(rules, cube_value * 2)
        ):
            cube_value *= 2
            automatic += 1
    first, second = throws[-1]
    starter: Side = 0 if first > second else 1
    position = game.position if starter == game.turn else game.position.swapped()
    throws_made = state.throws + len(throws)
    if rules.opening == "PLAY_OPENING_DICE":
        dice = (first, second) if starter == 0 else (second, first)
        game = _changed(game, position=position, turn=starter, phase=Phase.PLAYING, dice=dice, opener=starter)
    else:
        game = _changed(game, position=position, turn=starter, phase=Phase.ROLLING, opener=starter)
    game = _changed(game, cube_value=cube_value, automatic_doubles=automatic)
    return _changed(state, game=game, throws=throws_made)


def _rolled(state: MatchState, event: Rolled) -> MatchState:
    game = state.game
    _expect_turn(game, event.side)
    if game.phase is Phase.PLAYING:
        raise ActionError("WRONG_PHASE", "you have already rolled: play your roll")
    _expect_phase(game, Phase.ROLLING, "you cannot roll now")
    try:
        dice = check_dice(event.dice)
    except TavliError as error:
        raise ActionError("INVALID_DICE", str(error)) from None
    game = _changed(game, phase=Phase.PLAYING, dice=dice)
    return _changed(state, game=game, throws=state.throws + 1)


def read_play(state: MatchState, side: Side, play: str | Sequence[GivenStep]) -> Play:
    """The legal play ``side`` makes now: ``play`` in standard notation, or as its steps (each a
    :class:`~tavli.engine.play.Step` or a start and an end).

    :raises ActionError: if it is not ``side``'s play to make, or the play is not legal.
    """
    game = state.game
    if state.over:
        raise ActionError("MATCH_OVER", "the match is over")
    _expect_turn(game, side)
    if game.phase is Phase.ROLLING:
        raise ActionError("WRONG_PHASE", "roll the dice first")
    _expect_phase(game, Phase.PLAYING, "you cannot play now")
    assert game.dice is not None
    variant = state.game_rules.rules
    try:
        if isinstance(play, str):
            return variant.parse_play(game.position, game.dice, play)
        return variant.check_play(game.position, game.dice, play)
    except IllegalPlayError as error:
        raise ActionError("ILLEGAL_PLAY", refusal_of_play(error)) from None
    except AmbiguousPlayError as error:
        raise ActionError("AMBIGUOUS_PLAY", refusal_of_play(error)) from None
    except InvalidPlayError as error:
        raise ActionError("INVALID_PLAY", refusal_of_play(error)) from None


def _played(state: MatchState, event: Played | WrittenPlay) -> MatchState:
    play = read_play(state, event.side, event.play if isinstance(event, WrittenPlay) else event.steps)
    return make_play(state, event.side, play)


def make_play(state: MatchState, side: Side, play: Play) -> MatchState:
    """The state after ``side`` makes ``play``, which :func:`read_play` gave for ``state``: for a
    caller that has read the play already, so that it is not checked twice."""
    game = state.game
    assert game.dice is not None
    last = LastPlay(side, game.dice, play, game.position)
    result = state.game_rules.result(play.position)
    if result is not None:
        game = _changed(game, position=play.position, last_play=last)
        ended_by: GameEnd = _ENDED_BY_PLAY.get(result, "play")
        winner = None if result is GameResult.DRAW else side
        return _end_game(_changed(state, game=game), winner, result, ended_by)
    game = _changed(
        game,
        position=play.position.swapped(),
        turn=other(side),
        phase=Phase.ROLLING,
        dice=None,
        resign_barred=frozenset(),
        last_play=last,
    )
    return _changed(state, game=game)


def _doubled(state: MatchState, event: Doubled) -> MatchState:
    game = state.game
    _expect_turn(game, event.side)
    refusal = cube_refusal(state, event.side)
    if refusal is not None:
        raise ActionError("CUBE_UNAVAILABLE", refusal)
    return _changed(state, game=_changed(game, phase=Phase.DOUBLED))


def _answer(state: MatchState, side: Side) -> GameState:
    game = state.game
    if game.phase is not Phase.DOUBLED:
        raise ActionError("WRONG_PHASE", "there is no double to answer")
    if side == game.turn:
        raise ActionError("DOUBLE_PENDING", "a double is waiting for your opponent's answer")
    return game


def _took(state: MatchState, event: Took) -> MatchState:
    game = _answer(state, event.side)
    game = _changed(game, phase=Phase.ROLLING, cube_value=game.cube_value * 2, cube_owner=event.side)
    return _changed(state, game=game)


def _dropped(state: MatchState, event: Dropped) -> MatchState:
    game = _answer(state, event.side)
    return _end_game(state, game.turn, GameResult.SINGLE, "drop")


def _beavered(state: MatchState, event: Beavered) -> MatchState:
    game = _answer(state, event.side)
    refusal = beaver_refusal(state)
    if refusal is not None:
        raise ActionError("BEAVER_UNAVAILABLE", refusal)
    game = _changed(game, phase=Phase.ROLLING, cube_value=game.cube_value * 4, cube_owner=event.side)
    return _changed(state, game=game)


def resignation_offered(state: MatchState, event: ResignationOffered) -> ResignLevel:
    """What an offer to resign offers once capped to what can still be lost (so an offer of a
    backgammon where backgammons score as gammons offers a gammon).

    :raises ActionError: if the side may not offer now, or asks for a level the variant lacks.
    """
    refusal = resign_refusal(state, event.side)
    if refusal is not None:
        reason: ErrorCode = (
            "DOUBLE_PENDING" if state.game.phase is Phase.DOUBLED else "RESIGNATION_UNAVAILABLE"
        )
        raise ActionError(reason, refusal)
    levels = [level.value for level in state.game_rules.rules.resign_levels]
    if event.level not in levels:
        raise ActionError(
            "RESIGNATION_UNAVAILABLE", f"a resignation is for a {', '.join(levels)}, not {event.level!r}"
        )
    wanted = GameResult(event.level)
    offered = min(wanted, most_that_can_be_lost(state, event.side), key=lambda result: result.multiplier)
    return offered.resign_level


def _resignation_offered(state: MatchState, event: ResignationOffered) -> MatchState:
    offered = GameResult(resignation_offered(state, event))
    game = state.game
    game = _changed(game, phase=Phase.RESIGNING, resignation=(event.side, offered), resumes=game.phase)
    return _changed(state, game=game)


def _resignation_answer(state: MatchState, side: Side) -> tuple[GameState, Side, GameResult]:
    game = state.game
    if game.phase is not Phase.RESIGNING or game.resignation is None:
        raise ActionError("WRONG_PHASE", "there is no resignation to answer")
    resigner, offered = game.resignation
    if side == resigner:
        raise ActionError("RESIGNATION_PENDING", "your resignation is waiting for your opponent's answer")
    return game, resigner, offered


def _resignation_accepted(state: MatchState, event: ResignationAccepted) -> MatchState:
    _, resigner, offered = _resignation_answer(state, event.side)
    return _end_game(state, other(resigner), offered, "resignation")


def _resignation_rejected(state: MatchState, event: ResignationRejected) -> MatchState:
    game, resigner, _ = _resignation_answer(state, event.side)
    assert game.resumes is not None
    game = _changed(
        game,
        phase=game.resumes,
        resignation=None,
        resumes=None,
        resign_barred=game.resign_barred | {resigner},
    )
    return _changed(state, game=game)


def _time_ran_out(state: MatchState, event: TimeRanOut) -> MatchState:
    clock, rules = state.clock, state.rules.clock
    if event.claimed:
        if state.game.phase is Phase.OPENING and not state.finished:
            raise ActionError("WRONG_PHASE", "a match is claimed once it has started")
    elif clock is None or rules is None:
        # A time loss in a record read from a file, which keeps no times (nor clocks): taken as
        # the record gives it, but never before the game has started.
        if event.at is not None or state.game.phase is Phase.OPENING:
            raise ActionError("WRONG_PHASE", "no clock runs in this game now")
    else:
        deadline = clock.deadline(rules)
        if clock.running != event.side or deadline is None:
            raise ActionError("WRONG_PHASE", f"seat {event.side}'s clock is not running")
        if event.at is None or event.at < deadline:
            raise ActionError("WRONG_PHASE", f"seat {event.side} still has time")
    winner = other(event.side)
    if state.rules.is_match:  # the opponent scores what it needs
        points = state.rules.match_length - state.score[winner]
    else:
        points = state.game.cube_value
    return _end_game(state, winner, GameResult.SINGLE, "time", points=points)


_HANDLERS: dict[type[Event], Callable[[MatchState, Any], MatchState]] = {
    OpeningThrown: _opening,
    Rolled: _rolled,
    Played: _played,
    WrittenPlay: _played,
    Doubled: _doubled,
    Took: _took,
    Dropped: _dropped,
    Beavered: _beavered,
    ResignationOffered: _resignation_offered,
    ResignationAccepted: _resignation_accepted,
    ResignationRejected: _resignation_rejected,
    TimeRanOut: _time_ran_out,
}


def _expect_turn(game: GameState, side: Side) -> None:
    if game.phase is Phase.DOUBLED:
        if side == game.turn:
            raise ActionError("DOUBLE_PENDING", "a double is waiting for your opponent's answer")
        raise ActionError("DOUBLE_PENDING", "a double is waiting for your answer")
    if game.phase is Phase.RESIGNING:
        assert game.resignation is not None
        if side == game.resignation[0]:
            raise ActionError("RESIGNATION_PENDING", "your resignation is waiting for your opponent's answer")
        raise ActionError("RESIGNATION_PENDING", "a resignation is waiting for your answer")
    if game.phase is Phase.OPENING:
        raise ActionError("WRONG_PHASE", "the game starts with the throw for who goes first")
    if side != game.turn:
        raise ActionError("NOT_YOUR_TURN", NOT_YOUR_TURN)


def _expect_phase(game: GameState, phase: Phase, message: str) -> None:
    if game.phase is not phase:
        raise ActionError("WRONG_PHASE", message)


def _below_limit(rules: RuleSet, value: int) -> bool:
    return value <= rules.highest_cube


def _highest_cube_in_words(rules: RuleSet) -> str:
    if rules.cube_limit:
        return f"its limit of {rules.cube_limit}"
    return f"{CUBE_CEILING:,}, the highest value a cube can take even without a limit"


# --- the cube and resignations ---------------------------------------------------------------


def cube_refusal(state: MatchState, side: Side) -> str | None:
    """Why ``side`` may not double now, or ``None`` if it may."""
    rules = state.game_rules
    game = state.game
    if not rules.cube:
        return "you cannot double: this game is played without the cube"
    if rules.match_length == 1:
        return "you cannot double: a 1-point match has no cube"
    if game.crawford:
        return "you cannot double: the Crawford game"
    if game.phase is not Phase.ROLLING or side != game.turn:
        return "you can double only on your turn, before you roll"
    if game.cube_owner is not None and game.cube_owner != side:
        return "you cannot double: your opponent owns the cube"
    if not _below_limit(rules, game.cube_value * 2):
        return f"you cannot double: the cube is already at {_highest_cube_in_words(rules)}"
    if rules.is_match and state.score[side] + game.cube_value >= rules.match_length:
        return "you cannot double: the cube's value already gives you the match"
    return None


def beaver_refusal(state: MatchState) -> str | None:
    """Why the doubled side may not beaver the double waiting for its answer, or ``None``."""
    rules = state.game_rules
    if not rules.beavers or rules.is_match:
        return "beavers are not played in this game"
    if not _below_limit(rules, state.game.cube_value * 4):
        return f"a beaver would take the cube past {_highest_cube_in_words(rules)}"
    return None


def resign_refusal(state: MatchState, side: Side) -> str | None:
    """Why ``side`` may not offer to resign now, or ``None`` if it may."""
    game = state.game
    if game.phase is Phase.DOUBLED:
        if side == game.turn:
            return "you cannot resign while your double waits for an answer"
        return "a double is waiting for your answer"
    if game.phase is Phase.RESIGNING:
        return "a resignation is already waiting for an answer"
    if game.phase is Phase.OPENING:
        return "the game has not started: it starts with the throw for who goes first"
    if side in game.resign_barred:
        return "your last offer was rejected: you may offer again after a roll has been played"
    return None


def most_that_can_be_lost(state: MatchState, side: Side) -> GameResult:
    """The most ``side`` can still lose this game by (RULES.md, Resigning), as the rule set
    counts it: never a backgammon where backgammons score as gammons."""
    game = state.game
    if _jacoby_holds(state):
        return GameResult.SINGLE
    rules = state.game_rules
    return rules.counted(rules.rules.most_to_lose(game.position_of(side)))


def _jacoby_holds(state: MatchState) -> bool:
    """Whether the Jacoby rule keeps gammons from counting: it is played and the cube is unturned."""
    return state.game_rules.jacoby and state.game.cube_owner is None


# --- ending games and matches ------------------------------------------------------------------


# A play that ends the game other than by bearing off the last checker (Plakoto's mother rule).
_ENDED_BY_PLAY: dict[GameResult, GameEnd] = {GameResult.MOTHER: "mother", GameResult.DRAW: "draw"}


def _end_game(
    state: MatchState,
    winner: Side | None,
    result: GameResult,
    ended_by: GameEnd,
    *,
    points: int | None = None,
) -> MatchState:
    """The state once the game ends: scored (nothing for a draw, ``winner`` ``None``), the match
    over if a side has reached its length, else the next game set up."""
    rules = state.game_rules
    game = state.game
    if winner is None:
        finished = FinishedGame(game.number, None, result, 0, game.cube_value, ended_by)
        state = _changed(state, finished=state.finished + (finished,))
        return _next_game(state, _next_opener(rules, game, None))
    if points is None:
        multiplier = rules.multiplier(result)
        if ended_by == "play" and _jacoby_holds(state):
            multiplier = 1
        if ended_by == "drop":
            multiplier = 1
        points = multiplier * game.cube_value
    finished = FinishedGame(game.number, winner, result, points, game.cube_value, ended_by)
    score = list(state.score)
    score[winner] += points
    state = _changed(state, score=(score[0], score[1]), finished=state.finished + (finished,))
    if rules.is_match and score[winner] >= rules.match_length:
        over = _changed(game, phase=Phase.MATCH_OVER, dice=None, resignation=None, resumes=None)
        return _changed(state, game=over, winner=winner)
    return _next_game(state, _next_opener(rules, game, winner))


def _next_opener(rules: RuleSet, game: GameState, winner: Side | None) -> Side | None:
    """Who opens the match's game after ``game``, won by ``winner`` (``None``: drawn), throwing
    both dice; ``None``: the opening throw decides (RULES.md, ``match_openings``). After a draw the
    winner-opens rule has nobody to name, and the opening throw decides; the sides still take turns."""
    if not rules.is_match:
        return None
    if rules.match_openings == "WINNER_OPENS":
        return winner
    if rules.match_openings == "ALTERNATE" and game.opener is not None:
        return other(game.opener)
    return None


def match_at(
    rules: RuleSet, number: int, score: tuple[int, int], *, crawford_played: bool, opener: Side = 0
) -> MatchState:
    """The state before game ``number`` of a match at ``score``: a game taken up from a record's own
    score line. It is the Crawford game when the rules and the score make it one and the Crawford
    game has not been played yet; ``opener`` starts it when the match's winner opens each game, or
    the sides take turns.
    """
    before = new_match(rules)
    state = _changed(
        before, game=_changed(before.game, number=number - 1), score=score, crawford_played=crawford_played
    )
    return _next_game(state, opener if rules.is_match and rules.match_openings != "EVERY_GAME" else None)


def _next_game(state: MatchState, opener: Side | None) -> MatchState:
    """The next game, opened by ``opener`` throwing both dice; ``None``: by the opening throw."""
    rules = state.game_rules
    crawford = False
    crawford_played = state.crawford_played
    at_crawford_score = max(state.score) == rules.match_length - 1
    if rules.is_match and rules.crawford and rules.uses_cube and not crawford_played and at_crawford_score:
        crawford = crawford_played = True
    number = state.game.number + 1
    start = state.rules.for_game(number).rules.start_position()
    if opener is not None:
        game = GameState(
            number=number, position=start, turn=opener, phase=Phase.ROLLING, crawford=crawford, opener=opener
        )
    else:
        game = GameState(number=number, position=start, turn=0, phase=Phase.OPENING, crawford=crawford)
    return _changed(state, game=game, crawford_played=crawford_played)


# --- rematches -----------------------------------------------------------------------------------


def _rematch(state: MatchState, event: RematchOffered | RematchAccepted) -> MatchState:
    """A rematch offered, or accepted by the side it was offered to; each once, after the match."""
    if not state.over:
        raise ActionError("MATCH_NOT_OVER", "the match is not over: a rematch is offered once it is")
    rematch = state.rematch
    if rematch is not None and rematch.game is not None:
        raise ActionError("REMATCH_ALREADY_ACCEPTED", "the rematch has already been accepted")
    if isinstance(event, RematchOffered):
        if rematch is not None:
            whose = "you have" if rematch.offered_by == event.side else "your opponent has"
            raise ActionError("REMATCH_ALREADY_OFFERED", f"{whose} already offered a rematch")
        return _changed(state, rematch=Rematch(event.side))
    if rematch is None:
        raise ActionError("NO_REMATCH_OFFERED", "no rematch has been offered")
    if rematch.offered_by == event.side:
        raise ActionError(
            "NO_REMATCH_OFFERED", "you offered the rematch: your opponent is the one to accept it"
        )
    return _changed(state, rematch=Rematch(rematch.offered_by, event.game))


# --- clocks -------------------------------------------------------------------------------------


def _check_in_time(state: MatchState, event: Event) -> None:
    """:raises ActionError: OUT_OF_TIME for an action made after the running clock ran out."""
    assert state.clock is not None and state.rules.clock is not None
    deadline = state.clock.deadline(state.rules.clock)
    if deadline is None or isinstance(event, TimeRanOut) or event.at is None or event.at <= deadline:
        return
    whose = "your" if getattr(event, "side", None) == state.clock.running else "your opponent's"
    raise ActionError("OUT_OF_TIME", f"{whose} time has run out")


def _clock_after(before: MatchState, event: Event, after: MatchState) -> MatchState:
    """``after`` with its clocks: a new turn starts when the clock passes to the other seat or
    a new game starts; the turn that ends is taken from its seat's reserve."""
    clock, rules = before.clock, before.rules.clock
    assert clock is not None and rules is not None
    at = clock.started if event.at is None else event.at  # (a log without times: none passes)
    running = clock_runs_for(after)
    new_game = after.game.number != before.game.number
    if running == clock.running and not new_game:
        return _changed(after, clock=clock)  # the same turn goes on
    if new_game and not after.rules.is_match:
        turned = full_clock(rules, 0)
    else:
        turned = Clock(clock.charged(rules, at))
    return _changed(after, clock=turned.passed_to(running, at))


def clock_runs_for(state: MatchState) -> Side | None:
    """The seat whose clock runs: the seat expected to act, or None before the throw for who
    starts (either seat may throw it) and once the match is over."""
    if state.over or state.game.phase is Phase.OPENING:
        return None
    return seats_to_act(state)[0]


# --- what may be done now ------------------------------------------------------------------------


def legal_actions(state: MatchState, side: Side) -> list[Action]:
    """The actions ``side`` may take now (for :data:`Action.PLAY`, see the game's legal plays)."""
    game = state.game
    if state.over:
        return []
    actions: list[Action] = []
    phase = game.phase
    if phase is Phase.OPENING:
        return [Action.ROLL]
    if phase is Phase.DOUBLED:
        if side != game.turn:
            actions = [Action.TAKE, Action.DROP]
            if beaver_refusal(state) is None:
                actions.append(Action.BEAVER)
        return actions
    if phase is Phase.RESIGNING:
        assert game.resignation is not None
        return [Action.ACCEPT, Action.REJECT] if side != game.resignation[0] else []
    if side == game.turn:
        if phase is Phase.ROLLING:
            actions.append(Action.ROLL)
            if cube_refusal(state, side) is None:
                actions.append(Action.DOUBLE)
        else:
            actions.append(Action.PLAY)
    if resign_refusal(state, side) is None:
        actions.append(Action.RESIGN)
    return actions


def seats_to_act(state: MatchState) -> list[Side]:
    """The sides expected to act now (either may also offer to resign at most moments)."""
    game = state.game
    if state.over:
        return []
    if game.phase is Phase.OPENING:
        return [0, 1]
    if game.phase is Phase.DOUBLED:
        return [other(game.turn)]
    if game.phase is Phase.RESIGNING:
        assert game.resignation is not None
        return [other(game.resignation[0])]
    return [game.turn]


def legal_plays(state: MatchState) -> list[Play]:
    """The legal plays of the side on turn once it has rolled; empty in other phases."""
    rolled = rolled_plays(state)
    return [] if rolled is None else list(rolled)


def rolled_plays(state: MatchState) -> LegalPlays | None:
    """The legal plays of the side on turn once it has rolled, as the variant lists them (their
    Position IDs and notation at hand in bulk); ``None`` in other phases."""
    game = state.game
    if game.phase is not Phase.PLAYING or game.dice is None:
        return None
    return state.game_rules.rules.legal_plays(game.position, game.dice)
