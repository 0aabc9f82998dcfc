"""Plays written as the API sends them: tavli.v1's ``Play`` message in protobuf's wire format.

A server lists a position's plays many thousand times a second, and its answer is mostly these
messages; the compiled core writes them straight from its own data (``CompiledPlays.plays_field``)
and this module is the readable reference it is held to. The bytes are those protobuf writes for
the same message (tests/server/test_answers.py compares the two): fields in the order of
their numbers, a field at its default value (0, "", false) left out.

The numbers are board.proto's: a ``Play`` is its notation (1), its steps (2, each a ``Step``: its
from_point 1, to_point 2, die 3 and hit 4), the Position ID after it (3) and whether it hits (4).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from tavli.engine.play import Step, format_steps

_VARINT = 0
_LENGTH_DELIMITED = 2

_NOTATION, _STEPS, _POSITION_ID, _HITS = 1, 2, 3, 4
_FROM_POINT, _TO_POINT, _DIE, _HIT = 1, 2, 3, 4

_ONE_BYTE = [bytes((value,)) for value in range(0x80)]
"""The varint of each value below 128: the value's own byte (every point, die, tag and most lengths
here), looked up rather than built, since a listing writes millions of them."""


def plays_field(field: int, plays: Iterable[tuple[tuple[Step, ...], str]]) -> bytes:
    """``plays``, each its steps and the Position ID after it, as the repeated ``Play`` field
    number ``field`` of a message: the bytes to join to the message's others."""
    return b"".join(
        _length_delimited(field, play_message(steps, position_id)) for steps, position_id in plays
    )


def play_message(steps: tuple[Step, ...], position_id: str) -> bytes:
    """The ``Play`` message of the play that makes ``steps`` and leaves ``position_id``."""
    return b"".join(
        [
            _string_field(_NOTATION, format_steps(steps)),
            *map(_step_field, steps),
            _string_field(_POSITION_ID, position_id),
            _varint_field(_HITS, any(step.hit for step in steps)),
        ]
    )


@cache
def _step_field(step: Step) -> bytes:
    """One ``steps`` field of a ``Play``: written once for each step (there are a few hundred)."""
    start, end, die, hit = step
    step_message = b"".join(
        [
            _varint_field(_FROM_POINT, start),
            _varint_field(_TO_POINT, end),
            _varint_field(_DIE, die),
            _varint_field(_HIT, hit),
        ]
    )
    return _length_delimited(_STEPS, step_message)


def _string_field(number: int, text: str) -> bytes:
    return _length_delimited(number, text.encode("ascii")) if text else b""


def _length_delimited(number: int, content: bytes) -> bytes:
    return _varint(number << 3 | _LENGTH_DELIMITED) + _varint(len(content)) + content


def _varint_field(number: int, value: int) -> bytes:
    if not value:
        return b""
    return _varint(number << 3 | _VARINT) + _varint(value)


def _varint(value: int) -> bytes:
    """``value`` in seven-bit groups, the least significant first, each but the last marked."""
    if value < 0x80:
        return _ONE_BYTE[value]
    groups = bytearray()
    while value >= 0x80:
        groups.append(value & 0x7F | 0x80)
        value >>= 7
    groups.append(value)
    return bytes(groups)
