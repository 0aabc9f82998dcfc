"""GNU Backgammon's Match ID: everything about a match but the checkers, in 12 characters.

A Match ID goes with a Position ID (``4HPwATDgc/ABMA:cAgAAAAAAAAA``). It holds the match length and
score, the cube, whose roll it is and the dice, whether the game is under way, and any double or
resignation awaiting an answer. GNU Backgammon numbers the players 0 and 1; player 1 is the one it
draws at the bottom (``X``), player 0 the one at the top (``O``).

The key is 72 bits, written as 9 bytes little-endian in base64 without padding. From the least
significant bit:

====  =====  =================================================================================
bits  width  field
====  =====  =================================================================================
0     4      log2 of the cube value (so at most 2**15)
4     2      cube owner: 0 = player 0, 1 = player 1, 3 = centred (2 means nothing)
6     1      player on roll: the one who rolls or rolled the dice
7     1      Crawford game
8     3      game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 dropped
11    1      player to act: differs from the player on roll while a double or resignation awaits
             its answer
12    1      double offered
13    2      resignation offered: 0 none, 1 single game, 2 gammon, 3 backgammon
15    3      first die (0 before the roll)
18    3      second die
21    15     match length (0 = money play)
36    15     player 0's score
51    15     player 1's score
66    1      Jacoby rule *not* in force (set in every match and in money play without Jacoby)
67    5      unused: written 0, ignored when read
====  =====  =================================================================================

Bit 66 is not in GNU Backgammon's manual, but the program writes and reads it: a money session
with the Jacoby rule gives ``cAgAAAAAAAAA``, one without ``cAgAAAAAAAAE``.
"""

from __future__ import annotations

import base64
import binascii
import enum
from dataclasses import dataclass
from typing import Literal, TypeAlias

from tavli.engine.errors import InvalidMatchIdError

Seat: TypeAlias = Literal[0, 1]
"""A player as GNU Backgammon numbers them: 1 plays at the bottom (``X``), 0 at the top (``O``)."""

MATCH_ID_LENGTH = 12
MAX_CUBE_VALUE = 1 << 15
MAX_POINTS = (1 << 15) - 1
"""The largest match length or score 15 bits hold."""


class GameStatus(enum.IntEnum):
    """Where the current game stands; the values are the Match ID's."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(enum.IntEnum):
    """What a resigning player offers to lose; the value is the multiplier of the cube."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchInfo:
    """Every field of a Match ID.

    ``player_on_roll`` owns the dice; ``player_to_act`` is the one whose decision it is now, the
    same player except while a double or a resignation awaits the other's answer. ``dice`` is
    ``(0, 0)`` before the roll, in either order (the ID is written with the higher die first, as
    GNU Backgammon writes it, and read in the order written). ``score`` is
    ``(player 0, player 1)``. ``cube_owner`` is ``None`` while the cube is centred.
    ``jacoby`` says the Jacoby rule is in force (money play only, as GNU Backgammon writes it).

    :raises InvalidMatchIdError: if the fields cannot be written as a Match ID or contradict
        each other (a die without the other, a Crawford game in money play, a game being
        played in a match already won, a double offered in the Crawford game or by the player
        who does not own the cube).
    """

    player_on_roll: Seat
    player_to_act: Seat
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: Seat | None = None
    dice: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    game_state: GameStatus = GameStatus.PLAYING
    double_offered: bool = False
    resignation_offered: Resignation = Resignation.NONE

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise InvalidMatchIdError(problem)

    @property
    def money(self) -> bool:
        """Whether this is money play rather than a match."""
        return self.match_length == 0

    def match_id(self) -> str:
        """The 12-character Match ID."""
        return encode_match_id(self)

    @classmethod
    def from_match_id(cls, text: str) -> MatchInfo:
        """The state a Match ID stands for.

        :raises InvalidMatchIdError: if ``text`` is not a Match ID of a possible state.
        """
        return decode_match_id(text)

    def __repr__(self) -> str:
        return f"MatchInfo.from_match_id({encode_match_id(self)!r})"


def _problem(state: MatchInfo) -> str | None:
    """What makes ``state`` impossible to write or to happen, or ``None``."""
    problem = fields_problem(
        player_on_roll=state.player_on_roll,
        cube_owner=state.cube_owner,
        match_length=state.match_length,
        score=state.score,
    )
    if problem:
        return problem
    if state.player_to_act not in (0, 1):
        return f"player_to_act must be player 0 or 1, not {state.player_to_act!r}"
    value = state.cube_value
    if not _is_count(value, MAX_CUBE_VALUE) or value < 1 or value & (value - 1):
        return f"the cube shows a power of two from 1 to {MAX_CUBE_VALUE}, not {value!r}"
    if not isinstance(state.game_state, GameStatus):
        return f"game_state must be a GameStatus, not {state.game_state!r}"
    if not isinstance(state.resignation_offered, Resignation):
        return f"resignation_offered must be a Resignation, not {state.resignation_offered!r}"
    return match_state_problem(
        match_length=state.match_length,
        score=state.score,
        dice=state.dice,
        crawford=state.crawford,
        double_offered=state.double_offered,
        cube_owner=state.cube_owner,
        player_on_roll=state.player_on_roll,
        playing=state.game_state is GameStatus.PLAYING,
    )


def fields_problem(
    *, player_on_roll: object, cube_owner: object, match_length: object, score: tuple[int, ...]
) -> str | None:
    """What makes these fields of a Match ID or an XGID impossible to write, or ``None``."""
    if player_on_roll not in (0, 1):
        return f"player_on_roll must be player 0 or 1, not {player_on_roll!r}"
    if cube_owner not in (None, 0, 1):
        return f"the cube is centred (None) or owned by player 0 or 1, not {cube_owner!r}"
    if not _is_count(match_length, MAX_POINTS):
        return f"a match length is 0 (money play) to {MAX_POINTS}, not {match_length!r}"
    if len(score) != 2 or not all(_is_count(points, MAX_POINTS) for points in score):
        return f"a score is two whole numbers from 0 to {MAX_POINTS}, not {score!r}"
    return None


def match_state_problem(
    *,
    match_length: int,
    score: tuple[int, int],
    dice: tuple[int, int],
    crawford: bool,
    double_offered: bool,
    cube_owner: Seat | None,
    player_on_roll: Seat,
    playing: bool = True,
) -> str | None:
    """What makes a match state impossible in play, or ``None``: the rules a Match ID and an
    XGID both hold their fields to (dice rolled together, no Crawford game in money play, no
    double in the Crawford game nor by the side that does not own the cube, no game played in a
    match already won)."""
    if len(dice) != 2 or not all(_is_count(die, 6) for die in dice):
        return f"dice are two numbers from 1 to 6, or (0, 0) before the roll, not {dice!r}"
    if (dice[0] == 0) != (dice[1] == 0):
        return f"one die cannot be rolled without the other: {dice!r}"
    if crawford and not match_length:
        return "money play has no Crawford game"
    if double_offered:
        if crawford:
            return "nobody doubles in the Crawford game"
        if cube_owner not in (None, player_on_roll):
            return f"player {player_on_roll} cannot double: player {cube_owner} owns the cube"
    if playing and match_length and max(score) >= match_length:
        return f"no game is played at {score[0]}-{score[1]} in a match to {match_length}: the match is over"
    return None


def _is_count(value: object, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most


# (field, width) in the order of the key, least significant first.
_CUBE_LOG, _CUBE_OWNER, _ON_ROLL, _CRAWFORD, _GAME_STATE, _TO_ACT = 4, 2, 1, 1, 3, 1
_DOUBLED, _RESIGNED, _DIE, _POINTS, _NO_JACOBY = 1, 2, 3, 15, 1
_CENTRED = 3


def encode_match_id(state: MatchInfo) -> str:
    """The Match ID of ``state``, as GNU Backgammon writes it: the higher die first."""
    owner = _CENTRED if state.cube_owner is None else state.cube_owner
    high, low = max(state.dice), min(state.dice)
    fields = (
        (state.cube_value.bit_length() - 1, _CUBE_LOG),
        (owner, _CUBE_OWNER),
        (state.player_on_roll, _ON_ROLL),
        (int(state.crawford), _CRAWFORD),
        (int(state.game_state), _GAME_STATE),
        (state.player_to_act, _TO_ACT),
        (int(state.double_offered), _DOUBLED),
        (int(state.resignation_offered), _RESIGNED),
        (high, _DIE),
        (low, _DIE),
        (state.match_length, _POINTS),
        (state.score[0], _POINTS),
        (state.score[1], _POINTS),
        (int(not state.jacoby), _NO_JACOBY),
    )
    key = 0
    bit = 0
    for value, width in fields:
        key |= value << bit
        bit += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


class _KeyReader:
    """Reads the key's fields in order, least significant first."""

    def __init__(self, key: int) -> None:
        self._key = key

    def take(self, width: int) -> int:
        value = self._key & ((1 << width) - 1)
        self._key >>= width
        return value


def decode_match_id(text: str) -> MatchInfo:
    """The match state a Match ID stands for.

    The five unused high bits are ignored, as GNU Backgammon ignores them.

    :raises InvalidMatchIdError: if ``text`` is not 12 base64 characters, or holds a value no
        match can have: cube owner 2, a game state above 4, a die above 6 or without the other,
        a Crawford game in money play, a game being played at a score that has won the match,
        a double offered in the Crawford game or against the cube's owner.
    """
    if not isinstance(text, str) or len(text) != MATCH_ID_LENGTH:
        raise InvalidMatchIdError(f"{text!r} is not a Match ID: it must be 12 characters")
    try:
        raw = base64.b64decode(text, validate=True)
        if len(raw) != 9:  # "=" padding shortens it
            raise ValueError(text)
    except (binascii.Error, ValueError):
        raise InvalidMatchIdError(
            f"{text!r} is not a Match ID: only base64 letters (A-Z a-z 0-9 + /) may appear"
        ) from None
    bits = _KeyReader(int.from_bytes(raw, "little"))
    cube_log = bits.take(_CUBE_LOG)
    owner = bits.take(_CUBE_OWNER)
    on_roll = _seat(bits.take(_ON_ROLL))
    crawford = bool(bits.take(_CRAWFORD))
    game_state = bits.take(_GAME_STATE)
    to_act = _seat(bits.take(_TO_ACT))
    doubled = bool(bits.take(_DOUBLED))
    resignation = Resignation(bits.take(_RESIGNED))
    dice = (bits.take(_DIE), bits.take(_DIE))
    match_length = bits.take(_POINTS)
    score = (bits.take(_POINTS), bits.take(_POINTS))
    jacoby = not bits.take(_NO_JACOBY)
    if owner == 2:
        raise InvalidMatchIdError(f"Match ID {text!r}: cube owner 2 means nothing (0, 1 or 3)")
    if game_state > max(GameStatus):
        raise InvalidMatchIdError(f"Match ID {text!r}: there is no game state {game_state}")
    try:
        return MatchInfo(
            player_on_roll=on_roll,
            player_to_act=to_act,
            match_length=match_length,
            score=score,
            cube_value=1 << cube_log,
            cube_owner=None if owner == _CENTRED else _seat(owner),
            dice=dice,
            crawford=crawford,
            jacoby=jacoby,
            game_state=GameStatus(game_state),
            double_offered=doubled,
            resignation_offered=resignation,
        )
    except InvalidMatchIdError as error:
        raise InvalidMatchIdError(f"Match ID {text!r}: {error}") from None


def _seat(bit: int) -> Seat:
    return 1 if bit else 0
