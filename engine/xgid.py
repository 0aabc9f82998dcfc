"""eXtreme Gammon's XGID: a position and its match or money context on one line.

``XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10`` is ten fields separated by colons:

1. The board, 26 characters, seen from the bottom player (XG's player 1, who plays with upper-case
   letters; GNU Backgammon's player 1, ``X``). Character 0 is the top player's bar, characters 1-24
   the bottom player's points 1-24, character 25 the bottom player's bar. ``-`` is an empty point;
   ``A``-``O`` are 1-15 of the bottom player's checkers, ``a``-``o`` 1-15 of the top player's.
   Checkers not on the board are borne off.
2. The cube value as a power of two (``0`` = 1, ``3`` = 8).
3. Who owns the cube: ``1`` the bottom player, ``-1`` the top player, ``0`` centred.
4. Who is on roll: ``1`` the bottom player, ``-1`` the top player. While a double awaits its
   answer, the doubler (the other player must take or drop).
5. The dice: ``00`` before the roll, ``D`` when a double has been offered, otherwise the two dice
   as rolled (``52``).
6. The bottom player's score. 7. The top player's score.
8. In a match, ``1`` if this is the Crawford game. In money play, ``1`` for the Jacoby rule plus
   ``2`` for beavers.
9. The match length, ``0`` for money play.
10. The largest cube allowed, as a power of two (XG writes ``10``, a 1024-cube, by default).

GNU Backgammon reads XGIDs this way (``set xgid``); the ``XGID=`` prefix is optional here and
always written. The seats are GNU Backgammon's: player 1 is the bottom (upper-case) player,
player 0 the top (lower-case) one, as in :mod:`tavli.engine.match_id`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tavli.engine.errors import InvalidMatchIdError, InvalidPositionError
from tavli.engine.match_id import (
    MAX_CUBE_VALUE,
    MAX_POINTS,
    MatchInfo,
    Seat,
    fields_problem,
    match_state_problem,
)
from tavli.engine.position import BAR, CHECKERS_PER_SIDE, OFF, POINTS, Checkers, Position

PREFIX = "XGID="
DEFAULT_MAX_CUBE = 1 << 10
MAX_XGID_LENGTH = 128
"""The longest text read as an XGID: a real one is at most about 70 characters. Longer text is
refused before it is read, so that no field can hold a number too long to convert."""
_CUBE_LOGS = range(MAX_CUBE_VALUE.bit_length())  # 0 (a 1-cube) to 15 (2**15)
_POINTS = range(MAX_POINTS + 1)  # a score or match length, as a Match ID holds it
_FIELDS = 10
_NUMBER = re.compile(r"-?[0-9]+")
_DICE = re.compile(r"00|[1-6][1-6]")
_TOP_BAR, _BOTTOM_BAR = 0, 25
_BOTTOM: Seat = 1
_TOP: Seat = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Xgid:
    """Everything an XGID says.

    ``position`` is seen from ``player_on_roll``, like every engine position (``position.player``
    is the side on roll). ``score`` is ``(player 0, player 1)``, that is (top, bottom): the XGID
    writes it the other way round. ``cube_owner`` is ``None`` while the cube is centred.
    ``crawford`` applies to matches only; ``jacoby`` and ``beavers`` to money play only.
    ``max_cube`` is the largest cube value allowed.

    :raises InvalidMatchIdError: if the fields cannot be written as an XGID or contradict each
        other (dice rolled while a double awaits its answer, a double in the Crawford game or
        against the cube's owner, a score that has won the match).
    :raises InvalidPositionError: if both players have checkers on the same point.
    """

    position: Position
    player_on_roll: Seat
    dice: tuple[int, int] = (0, 0)
    double_offered: bool = False
    cube_value: int = 1
    cube_owner: Seat | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    max_cube: int = DEFAULT_MAX_CUBE

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem:
            raise InvalidMatchIdError(problem)
        bottom, top = _bottom_and_top(self)
        for point in POINTS:
            if bottom[point] and top[25 - point]:
                raise InvalidPositionError(f"both players have checkers on the bottom player's {point}-point")

    @property
    def player_to_act(self) -> Seat:
        """Whose decision it is: the player on roll, or the other one while a double awaits."""
        return _other(self.player_on_roll) if self.double_offered else self.player_on_roll

    def match_info(self) -> MatchInfo:
        """The same state as GNU Backgammon's Match ID fields (a game being played).

        GNU Backgammon, reading an XGID with ``D``, cannot hold a double awaiting its answer
        and steps back to the doubler's turn; this keeps the double.
        """
        return MatchInfo(
            player_on_roll=self.player_on_roll,
            player_to_act=self.player_to_act,
            match_length=self.match_length,
            score=self.score,
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            dice=self.dice,
            crawford=self.crawford,
            jacoby=self.jacoby,
            double_offered=self.double_offered,
        )

    def __str__(self) -> str:
        return format_xgid(self)

    def __repr__(self) -> str:
        return f"parse_xgid({format_xgid(self)!r})"


def _problem(xgid: Xgid) -> str | None:
    """What makes ``xgid`` impossible to write or to happen, or ``None``."""
    if not isinstance(xgid.position, Position):
        return f"position must be a Position, not {xgid.position!r}"
    problem = fields_problem(
        player_on_roll=xgid.player_on_roll,
        cube_owner=xgid.cube_owner,
        match_length=xgid.match_length,
        score=xgid.score,
    )
    if problem:
        return problem
    for name in ("cube_value", "max_cube"):
        value = getattr(xgid, name)
        if not _is_count(value) or not 1 <= value <= MAX_CUBE_VALUE or value & (value - 1):
            return f"{name} must be a power of two from 1 to {MAX_CUBE_VALUE}, not {value!r}"
    if xgid.double_offered and xgid.dice != (0, 0) and len(xgid.dice) == 2:
        return "a double is offered before the roll: the dice must be (0, 0)"
    if xgid.match_length and (xgid.jacoby or xgid.beavers):
        return "the Jacoby rule and beavers apply to money play only"
    return match_state_problem(
        match_length=xgid.match_length,
        score=xgid.score,
        dice=xgid.dice,
        crawford=xgid.crawford,
        double_offered=xgid.double_offered,
        cube_owner=xgid.cube_owner,
        player_on_roll=xgid.player_on_roll,
    )


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _other(seat: Seat) -> Seat:
    return 0 if seat else 1


def _bottom_and_top(xgid: Xgid) -> tuple[Checkers, Checkers]:
    """Both sides' checkers, each from its own view: (bottom player's, top player's)."""
    if xgid.player_on_roll == _BOTTOM:
        return xgid.position.player, xgid.position.opponent
    return xgid.position.opponent, xgid.position.player


def format_xgid(xgid: Xgid) -> str:
    """The XGID of ``xgid``, with the ``XGID=`` prefix."""
    bottom, top = _bottom_and_top(xgid)
    board = [_letter(top[BAR], lower=True)]
    for point in POINTS:
        if bottom[point]:
            board.append(_letter(bottom[point], lower=False))
        else:
            board.append(_letter(top[25 - point], lower=True))
    board.append(_letter(bottom[BAR], lower=False))
    cube_owner = {None: 0, _BOTTOM: 1, _TOP: -1}[xgid.cube_owner]
    turn = 1 if xgid.player_on_roll == _BOTTOM else -1
    dice = "D" if xgid.double_offered else f"{xgid.dice[0]}{xgid.dice[1]}"
    if xgid.match_length:
        rules = int(xgid.crawford)
    else:
        rules = int(xgid.jacoby) + 2 * int(xgid.beavers)
    fields = (
        "".join(board),
        xgid.cube_value.bit_length() - 1,
        cube_owner,
        turn,
        dice,
        xgid.score[_BOTTOM],
        xgid.score[_TOP],
        rules,
        xgid.match_length,
        xgid.max_cube.bit_length() - 1,
    )
    return PREFIX + ":".join(str(field) for field in fields)


def _letter(count: int, *, lower: bool) -> str:
    if not count:
        return "-"
    letter = chr(ord("A") + count - 1)
    return letter.lower() if lower else letter


def parse_xgid(text: str) -> Xgid:
    """The XGID ``text``, with or without its ``XGID=`` prefix.

    :raises InvalidMatchIdError: if ``text`` is longer than :data:`MAX_XGID_LENGTH` or is not
        ten colon-separated XGID fields with possible values: a cube or max cube beyond 2**15, a
        cube owner or turn other than 1, -1 (or 0 for a centred cube), dice other than ``00``,
        ``D`` or two dice 1-6, a rules flag XG does not write, a score or match length beyond
        32767 (what a Match ID holds), a score that has already won the match, a double offered
        in the Crawford game or against the cube's owner.
    :raises InvalidPositionError: if the board is not 26 characters of ``-``, ``a``-``o`` and
        ``A``-``O`` with at most 15 checkers a side, the bottom player's letters on the top
        player's bar or the other way round.
    """
    if not isinstance(text, str):
        raise InvalidMatchIdError(f"{text!r} is not an XGID: it must be a string")
    if len(text) > MAX_XGID_LENGTH:
        raise InvalidMatchIdError(
            f"not an XGID: {len(text):,} characters, and an XGID has at most {MAX_XGID_LENGTH}"
        )
    fields = text.removeprefix(PREFIX).split(":")
    if len(fields) != _FIELDS:
        raise InvalidMatchIdError(
            f"{text!r} is not an XGID: it has {len(fields)} colon-separated fields, not {_FIELDS}"
        )
    board, cube, owner, turn, dice, bottom_score, top_score, rules, length, max_cube = fields
    on_roll: Seat = _BOTTOM if _number(text, "turn", turn, {1, -1}) == 1 else _TOP
    bottom, top = _read_board(text, board)
    owner_field = _number(text, "cube owner", owner, {1, 0, -1})
    match_length = _number(text, "match length", length, _POINTS)
    rules_flags = _number(text, "Crawford/Jacoby", rules, {0, 1} if match_length else {0, 1, 2, 3})
    if dice != "D" and not _DICE.fullmatch(dice):
        raise InvalidMatchIdError(f"XGID {text!r}: the dice are 00, D or two dice from 1 to 6, not {dice!r}")
    cube_log = _number(text, "cube", cube, _CUBE_LOGS)
    max_cube_log = _number(text, "max cube", max_cube, _CUBE_LOGS)
    top_points = _number(text, "top score", top_score, _POINTS)
    bottom_points = _number(text, "bottom score", bottom_score, _POINTS)
    player, opponent = (bottom, top) if on_roll == _BOTTOM else (top, bottom)
    try:
        return Xgid(
            position=Position(player, opponent),
            player_on_roll=on_roll,
            dice=(0, 0) if dice == "D" else (int(dice[0]), int(dice[1])),
            double_offered=dice == "D",
            cube_value=1 << cube_log,
            cube_owner={0: None, 1: _BOTTOM, -1: _TOP}[owner_field],
            score=(top_points, bottom_points),
            match_length=match_length,
            crawford=bool(match_length and rules_flags),
            jacoby=bool(not match_length and rules_flags & 1),
            beavers=bool(not match_length and rules_flags & 2),
            max_cube=1 << max_cube_log,
        )
    except InvalidMatchIdError as error:
        raise InvalidMatchIdError(f"XGID {text!r}: {error}") from None
    except InvalidPositionError as error:
        raise InvalidPositionError(f"XGID {text!r}: {error}") from None


def _number(text: str, name: str, field: str, allowed: range | set[int]) -> int:
    """A whole-number field holding one of ``allowed``.

    ``text`` is at most :data:`MAX_XGID_LENGTH` characters, so ``int`` never meets a number too
    long to convert.
    """
    if not _NUMBER.fullmatch(field):
        raise InvalidMatchIdError(f"XGID {text!r}: the {name} field must be a number, not {field!r}")
    value = int(field)
    if value not in allowed:
        most = f": at most {allowed[-1]}" if isinstance(allowed, range) and value > allowed[-1] else ""
        raise InvalidMatchIdError(f"XGID {text!r}: there is no {name} {value}{most}")
    return value


def _read_board(text: str, board: str) -> tuple[Checkers, Checkers]:
    """The bottom and the top player's checkers, each from its own view."""
    if len(board) != 26:
        raise InvalidPositionError(f"XGID {text!r}: the board must be 26 characters, not {len(board)}")
    bottom = [0] * 26
    top = [0] * 26
    for index, char in enumerate(board):
        if char == "-":
            continue
        if "A" <= char <= "O" and index != _TOP_BAR:
            bottom[index] = ord(char) - ord("A") + 1  # index 25 is the bottom bar: BAR
        elif "a" <= char <= "o" and index != _BOTTOM_BAR:
            top[25 - index] = ord(char) - ord("a") + 1  # index 0 is the top bar: 25 - 0 = BAR
        else:
            raise InvalidPositionError(f"XGID {text!r}: {char!r} cannot stand at board character {index}")
    for counts, name in ((bottom, "bottom"), (top, "top")):
        on_board = sum(counts)
        if on_board > CHECKERS_PER_SIDE:
            raise InvalidPositionError(
                f"XGID {text!r} gives the {name} player {on_board} checkers; a side has 15"
            )
        counts[OFF] = CHECKERS_PER_SIDE - on_board
    return tuple(bottom), tuple(top)
