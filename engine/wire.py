"""Plays written as the API sends them: tavli.v1's ``Play`` message in protobuf's wire format.

A server lists a position's plays many thousand times a second, and its answer is mostly these
messages; the compiled core writes them straight from its own data (``CompiledPlays.plays_field``)
and this module is the readable reference it is held to. It is also the one writer of every other
``Play`` and ``Step`` the server sends (a validation's play, a game's last play, an event's steps),
and what the steps alone decide it writes once: a play's fields but its Position ID, and each
step's field. The bytes are those protobuf writes for the same message (tests/server/test_answers.py
compares the two): fields in the order of their numbers, a field at its default value (0, "",
false) left out.

The numbers are board.proto's: a ``Play`` is its notation (1), its steps (2, each a ``Step``: its
from_point 1, to_point 2, die 3 and hit 4), the Position ID after it (3) and whether it hits (4).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

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
    return b"".join(message_field(field, play_message(steps, position_id)) for steps, position_id in plays)


def play_message(steps: tuple[Step, ...], position_id: str) -> bytes:
    """The ``Play`` message of the play that makes ``steps`` and leaves ``position_id``."""
    before, after = _play_around_position(steps)
    return before + _string_field(_POSITION_ID, position_id) + after


def steps_field(field: int, steps: Iterable[Step]) -> bytes:
    """``steps`` as the repeated ``Step`` field number ``field`` of a message (a ``Play``'s, a
    ``LastPlay``'s, a ``GameEvent``'s)."""
    return b"".join([_step_field(field, step) for step in steps])


def message_field(number: int, content: bytes) -> bytes:
    """A message field (or a string's or bytes') number ``number`` holding ``content``."""
    return _varint(number << 3 | _LENGTH_DELIMITED) + _varint(len(content)) + content


# About 170 bytes each. Plays of the same roll share their steps across many positions: on positions
# new to the server, this many answer about three plays in four.
@lru_cache(maxsize=65536)
def _play_around_position(steps: tuple[Step, ...]) -> tuple[bytes, bytes]:
    """The fields of a ``Play`` that depend on its steps alone, those before its Position ID (the
    notation, the steps) and after it (whether it hits): written once for each play's steps."""
    before = _string_field(_NOTATION, format_steps(steps)) + steps_field(_STEPS, steps)
    return before, _varint_field(_HITS, any(step.hit for step in steps))


# A step is one of a few thousand (its start, end, die and hit): each written once.
@lru_cache(maxsize=8192)
def _step_field(field: int, step: Step) -> bytes:
    start, end, die, hit = step
    message = b"".join(
        [
            _varint_field(_FROM_POINT, start),
            _varint_field(_TO_POINT, end),
            _varint_field(_DIE, die),
            _varint_field(_HIT, hit),
        ]
    )
    return message_field(field, message)


def _string_field(number: int, text: str) -> bytes:
    return message_field(number, text.encode("ascii")) if text else b""


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
