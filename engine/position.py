"""Positions: both sides' checkers, seen from the side on roll.

Each side counts the points from its own view. A side's checkers are a tuple of 26 counts indexed
by point: index 0 holds the checkers it has borne off, 1-24 the points, 25 the bar. The counts
always add up to the checkers a side has (15, or hypergammon's 1, 2 or 3), so a step that bears a
checker off simply moves it to index 0.

A :class:`Position` is variant-neutral data. Which point of one side is which point of the other,
and what makes a position possible, is the variant's business (see :mod:`tavli.engine.variant`).

Counts alone cannot say who pinned whom where one checker of each side shares a point (Plakoto).
A position with pinned checkers is a :class:`PinnedPosition`, a subclass carrying its :class:`Pins`
beside the pair, so that positions without pins, all of backgammon's and long nardi's, stay the
bare pair and pay nothing for them.
"""

from __future__ import annotations

import base64
import binascii
import operator
import re
from functools import lru_cache
from typing import NamedTuple, Self, TypeAlias

from tavli.engine import core
from tavli.engine.errors import InvalidPositionError

Point: TypeAlias = int
"""A point number from the mover's view: 1-24, with :data:`OFF` and :data:`BAR` at either end."""

Checkers: TypeAlias = tuple[int, ...]
"""One side's checker counts, indexed by :data:`Point` (length 26)."""

OFF: Point = 0
BAR: Point = 25
CHECKERS_PER_SIDE = 15
"""The checkers a side has in every game but hypergammon; the most a side ever has."""
POINTS = range(1, 25)
HOME_BOARD = range(1, 7)


class Pins(NamedTuple):
    """The pinned checkers of a position: ``player``'s on the player's points, ``opponent``'s on
    the opponent's points, each ascending. A point holds at most one pinned checker."""

    player: tuple[Point, ...] = ()
    opponent: tuple[Point, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.player or self.opponent)

    def swapped(self) -> Pins:
        """The same pins seen from the other side."""
        return Pins(self.opponent, self.player)

    def text(self) -> str:
        """The pins as the rule book writes them after a Position ID's colon: ``m7,o18``."""
        return _pins_text(self)

    @classmethod
    def from_text(cls, text: str) -> Pins:
        """The pins written as ``m7,o18`` (any order; each ``m<p>`` or ``o<q>`` with p, q from 1 to 24).

        :raises InvalidPositionError: for text that is not a list of pins, or a point pinned twice.
        """
        sides: dict[str, list[Point]] = {"m": [], "o": []}
        for part in text.split(","):
            match = _PIN.fullmatch(part)
            if match is None:
                raise InvalidPositionError(
                    f"cannot read the pin {part!r}: write m<point> for a pinned checker of the side on roll,"
                    " o<point> for one of the other side's, each point 1-24 (m7,o18)"
                )
            side, point = match["side"], int(match["point"])
            if point in sides[side]:
                whose = "the side on roll" if side == "m" else "the other side"
                raise InvalidPositionError(
                    f"the pin {part} is written twice: {whose} has one checker pinned there"
                )
            sides[side].append(point)
        return cls(tuple(sorted(sides["m"])), tuple(sorted(sides["o"])))


@lru_cache(maxsize=4096)  # a game's positions, and a roll's plays, share a few sets of pins
def _pins_text(pins: Pins) -> str:
    return ",".join([f"m{point}" for point in pins.player] + [f"o{point}" for point in pins.opponent])


NO_PINS = Pins()
_PIN = re.compile(r"(?P<side>[mo])(?P<point>[1-9]|1[0-9]|2[0-4])")


class _PositionFields(NamedTuple):
    player: Checkers
    opponent: Checkers


class Position(_PositionFields):
    """Both sides' checkers; ``player`` is the side on roll, ``opponent`` the other side.

    An immutable pair ``(player, opponent)``: a tuple rather than a dataclass because the move
    generator makes one for every legal play, and a tuple is the cheapest immutable object Python
    builds. The constructor checks the shape (26 non-negative counts, each side as many checkers,
    1 to 15); whether the two sides can stand together, with as many checkers as the game has, is
    checked by a variant's ``validate``.

    :raises InvalidPositionError: if either side's counts are malformed.
    """

    __slots__ = ()

    pins: Pins = NO_PINS
    """The pinned checkers (a :class:`PinnedPosition` has some; every other position none)."""

    def __new__(cls, player: Checkers, opponent: Checkers) -> Self:
        _check_counts("player", player)
        _check_counts("opponent", opponent)
        if sum(player) != sum(opponent):
            raise InvalidPositionError(
                f"the player has {sum(player)} checkers and the opponent {sum(opponent)}:"
                " both sides have as many"
            )
        return tuple.__new__(cls, (player, opponent))

    @classmethod
    def trusted(cls, player: Checkers, opponent: Checkers) -> Position:
        """A position built without checks, for counts the engine itself derived from a valid one."""
        return tuple.__new__(cls, (player, opponent))

    @staticmethod
    def with_pins(player: Checkers, opponent: Checkers, pins: Pins) -> Position:
        """A position built without checks, pinned checkers and all: a :class:`PinnedPosition`
        when ``pins`` has any, else the bare pair."""
        if pins:
            return PinnedPosition(player, opponent, pins)
        return tuple.__new__(Position, (player, opponent))

    def swapped(self) -> Position:
        """The same position seen from the other side: the opponent is now on roll."""
        return Position.trusted(self.opponent, self.player)

    def pip_count(self) -> tuple[int, int]:
        """The pips (player, opponent) each side needs to bear off; the bar counts 25."""
        return pips(self.player), pips(self.opponent)

    def borne_off(self) -> tuple[int, int]:
        """How many checkers (player, opponent) each side has borne off."""
        return self.player[OFF], self.opponent[OFF]

    def position_id(self) -> str:
        """The GNU Backgammon Position ID: 14 characters, the opponent's checkers encoded first."""
        return encode_position_id(self)

    def __repr__(self) -> str:
        return f"Position.from_id({encode_position_id(self)!r})"

    @classmethod
    def from_id(cls, position_id: str, *, checkers: int = CHECKERS_PER_SIDE) -> Position:
        """The position written as a GNU Backgammon Position ID, of a game with ``checkers`` a side
        (the ID writes only the checkers on the board: the rest are borne off), with its pins after
        a colon if it has any (``...:m7,o18``).

        :raises InvalidPositionError: if the ID is malformed, or a pin stands where the pinned
            side has no checker.
        """
        return decode_position_id(position_id, checkers)

    @classmethod
    def from_points(
        cls, player: dict[Point, int], opponent: dict[Point, int], *, checkers: int = CHECKERS_PER_SIDE
    ) -> Position:
        """A position from ``{point: count}`` maps, of a game with ``checkers`` a side; checkers not
        placed are borne off.

        :raises InvalidPositionError: if a side has more checkers than that or a bad point.
        """
        return cls(
            _side_from_points("player", player, checkers), _side_from_points("opponent", opponent, checkers)
        )

    def with_checkers(self, checkers: int) -> Position:
        """The same checkers on the board and the bar, in a game of ``checkers`` a side: the rest
        borne off (a form that writes only the board, as XGID does, is read so).

        :raises InvalidPositionError: if a side has more than that many on the board.
        """
        return Position(
            _side_from_points("player", dict(enumerate(self.player[1:], start=1)), checkers),
            _side_from_points("opponent", dict(enumerate(self.opponent[1:], start=1)), checkers),
        )

    @property
    def checkers(self) -> int:
        """How many checkers each side has: 15, or 1-3 in hypergammon."""
        return sum(self.player)


class PinnedPosition(Position):
    """A position with pinned checkers: the pair, and its :attr:`pins` beside it.

    Equal only to a position with the same checkers and the same pins; never to a bare pair,
    since a position without pins is never a :class:`PinnedPosition` (:meth:`Position.with_pins`).
    """

    pins: Pins
    _hash: int

    def __new__(cls, player: Checkers, opponent: Checkers, pins: Pins) -> Self:
        position = tuple.__new__(cls, (player, opponent))
        position.pins = pins
        # A move generator keeps positions in sets and dictionaries: hashed once, here.
        position._hash = hash((tuple.__hash__(position), pins))
        return position

    def __getnewargs__(self) -> tuple[Checkers, Checkers, Pins]:
        return self.player, self.opponent, self.pins

    def __eq__(self, other: object) -> bool:
        return tuple.__eq__(self, other) is True and self.pins == getattr(other, "pins", NO_PINS)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return self._hash

    def swapped(self) -> Position:
        return PinnedPosition(self.opponent, self.player, self.pins.swapped())

    def position_id(self) -> str:
        return f"{encode_position_id(self)}:{self.pins.text()}"

    def __repr__(self) -> str:
        return f"Position.from_id({self.position_id()!r})"


def point_name(point: Point) -> str:
    """A point's name in notation and in a player's words: ``"off"``, ``"1"`` to ``"24"``, ``"bar"``."""
    return "off" if point == OFF else "bar" if point == BAR else str(point)


def pips(checkers: Checkers) -> int:
    """One side's pip count."""
    return sum(map(operator.mul, _POINTS, checkers))


_POINTS = range(26)
"""Each point's number, the pips a checker there needs: off is 0, the bar 25."""


def _side_from_points(name: str, points: dict[Point, int], checkers: int) -> Checkers:
    counts = [0] * 26
    for point, count in points.items():
        if not 1 <= point <= BAR:
            raise InvalidPositionError(f"{name}: there is no point {point}")
        counts[point] = count
    on_board = sum(counts)
    if on_board > checkers:
        raise InvalidPositionError(f"{name} has {on_board} checkers; a side has {checkers}")
    counts[OFF] = checkers - on_board
    return tuple(counts)


def _check_counts(name: str, checkers: object) -> None:
    if not isinstance(checkers, tuple) or len(checkers) != 26:
        raise InvalidPositionError(f"{name}: expected a tuple of 26 counts (off, points 1-24, bar)")
    if any(not isinstance(count, int) or count < 0 for count in checkers):
        raise InvalidPositionError(f"{name}: checker counts must be whole numbers of at least 0")
    total = sum(checkers)
    if not 1 <= total <= CHECKERS_PER_SIDE:
        raise InvalidPositionError(f"{name} has {total} checkers; a side has 1 to {CHECKERS_PER_SIDE}")


# GNU Backgammon's Position ID: for each side, opponent first, for each of its points 1-24 and then
# the bar, as many 1-bits as checkers followed by a 0-bit; the bits packed least significant first
# into 10 bytes and written in base64 without the padding.


def encode_position_id(position: Position) -> str:
    """The Position ID of ``position``."""
    if core.compiled is not None:
        return core.compiled.encode_position_id(position)  # type: ignore[no-any-return]
    player, _ = _side_bits(position.player)
    opponent, opponent_length = _side_bits(position.opponent)
    key = player << opponent_length | opponent
    return binascii.b2a_base64(key.to_bytes(10, "little"), newline=False)[:14].decode("ascii")


@lru_cache(maxsize=8192)
def _side_bits(checkers: Checkers) -> tuple[int, int]:
    # A side's bits as a number, most significant first, and how many there are: the opponent's
    # come first in the ID, so lowest in the key. Plays of one roll share the opponent's side,
    # and often most of the player's.
    bits = "".join([_ZERO_THEN_ONES[count] for count in checkers[25:0:-1]])
    return int(bits, 2), len(bits)


_ZERO_THEN_ONES = ["0" + "1" * count for count in range(16)]


@lru_cache(maxsize=8192)  # a GUI or a batch sends the same positions again and again
def decode_position_id(position_id: str, checkers: int = CHECKERS_PER_SIDE) -> Position:
    """The position a Position ID stands for, in a game of ``checkers`` a side.

    :raises InvalidPositionError: if it is not a Position ID of a position with that many a side.
    """
    compiled = core.compiled
    if (
        checkers == CHECKERS_PER_SIDE  # the core reads IDs of 15 a side
        and compiled is not None
        and (position := compiled.decode_position_id(position_id)) is not None
    ):
        return position  # type: ignore[no-any-return]
    if isinstance(position_id, str) and ":" in position_id:
        return _decode_with_pins(position_id, checkers)
    if not isinstance(position_id, str) or len(position_id) != 14:
        raise InvalidPositionError(f"{position_id!r} is not a Position ID: it must be 14 characters")
    try:
        raw = base64.b64decode(position_id + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPositionError(
            f"{position_id!r} is not a Position ID: only base64 letters may appear"
        ) from None
    # Bit i of the key is character i of ``bits``: runs of 1s split by 0s, one run a point.
    bits = format(int.from_bytes(raw, "little"), "080b")[::-1]
    runs = [len(ones) for ones in bits.split("0", 50)[:50]]
    runs += [0] * (50 - len(runs))  # fewer than 50 zeros: too many checkers, found below
    sides: list[Checkers] = []
    for runs_of_side, name in ((runs[:25], "opponent"), (runs[25:], "player")):
        on_board = sum(runs_of_side)
        if on_board > checkers:
            raise InvalidPositionError(
                f"Position ID {position_id!r} gives the {name} {on_board} checkers; a side has {checkers}"
            )
        sides.append((checkers - on_board, *runs_of_side))
    return Position.trusted(player=sides[1], opponent=sides[0])


def _decode_with_pins(text: str, checkers: int) -> Position:
    """A Position ID with its pins after the colon; each pin must stand on a checker of its side."""
    position_id, _, pins_text = text.partition(":")
    position = decode_position_id(position_id, checkers)
    pins = Pins.from_text(pins_text)
    sides = (("side on roll", position.player, pins.player), ("other side", position.opponent, pins.opponent))
    for name, counts, points in sides:
        for point in points:
            if not counts[point]:
                raise InvalidPositionError(
                    f"{text!r} pins a checker of the {name} on its {point}-point, where it has none"
                )
    return Position.with_pins(position.player, position.opponent, pins)
