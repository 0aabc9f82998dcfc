"""Bounds on everything a client can send, checked before a handler sees the request.

gRPC's message size limit (``ServerConfig.max_message_bytes``) bounds a request as a whole; within
it, one field could still hold megabytes of notation, a batch a hundred thousand items, or an
enum a number the API does not define. :func:`check_request` walks any request message through
its descriptor, set fields only, nested messages and repeated fields included, and refuses the
first field past its bound with an error naming the field, its size and the bound. Text holding
NUL is refused here too, for every store alike: PostgreSQL cannot keep it in text, and a name or
id the server could not store must not mean one thing on SQLite and another on PostgreSQL.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeAlias

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from tavli.engine.notation import MAX_NOTATION_LENGTH
from tavli.engine.xgid import MAX_XGID_LENGTH
from tavli.server.errors import BadRequest, FieldTooLong, ServiceError, TooManyItems, UnknownEnumValue

BATCH_ITEMS = "tavli.v1.BatchValidatePlaysRequest.requests"
"""The key of the number of plays a BatchValidatePlays may hold."""

MATCH_RECORD_TEXT = "tavli.v1.MatchRecord.text"
MATCH_RECORD_DATA = "tavli.v1.MatchRecord.data"
"""The keys of a .mat record's length, as its text (in characters) or its bytes."""

MOST_MATCH_RECORD = 1 << 20
"""A .mat record's most characters or bytes: 1 MiB. A long match is tens of kilobytes, a money
session of 300 games 250 KB; a record fits the server's messages (4 MiB) even if each of its
characters takes three bytes, and its check stays within seconds (see :mod:`tavli.server.match_records`)."""

MOST_GAME_EVENTS = 100_000
"""The most events a game's log holds, imported or played: a 1 MiB record (the longest taken) holds
about 80,000, a money session of 500 games as many. A game's cost in memory, in its store and for
a watcher from its first event grows with its log; this bounds it."""

FIELD_LIMITS: Mapping[str, int] = MappingProxyType(
    {
        # Text, in characters.
        "notation": MAX_NOTATION_LENGTH,  # 128: a play written sensibly is at most about 30
        "position_id": 32,  # a Position ID is 14 characters
        "xgid": MAX_XGID_LENGTH,  # 128: an XGID is at most about 70
        "name": 64,  # a game's name, "games/" and 16 hex digits
        "game": 64,  # a game's name too (AnalyzeMatchRequest.game)
        "seat_token": 128,  # the server's tokens are 32 characters
        "etag": 64,  # the server's etags are an event count
        "request_id": 128,  # a UUID is 36 characters
        "page_token": 512,
        "dice_seed": 256,
        "display_name": 64,  # a name shown for a seat (server/players.py)
        "player_id": 64,  # the caller's own id of a seat's player
        # Repeated fields, in items.
        "dice": 4,  # two are rolled; up to four (a double written out) get the engine's own answer
        "player_points": 26,  # 24 counts; a client adding the bar and off gets the engine's answer
        "opponent_points": 26,
        "player_pinned_points": 24,  # Plakoto: each side's pinned checkers, a point each
        "opponent_pinned_points": 24,
        "steps": 8,  # a play has at most four
        BATCH_ITEMS: 1000,
        # A whole .mat record, in characters or bytes.
        MATCH_RECORD_TEXT: MOST_MATCH_RECORD,
        MATCH_RECORD_DATA: MOST_MATCH_RECORD,
    }
)
"""The bound of each field named, by its name (``notation``) or its full name
(``tavli.v1.BatchValidatePlaysRequest.requests``, which wins over the name). A text or bytes
field's bound is its length; a repeated field's is its number of items."""


@dataclass(frozen=True, slots=True)
class RequestLimits:
    """The bounds :func:`check_request` holds a request to.

    ``text_length`` bounds every string (in characters) and bytes field (in bytes) not named in
    ``fields``, and the items of repeated string and bytes fields; ``items`` bounds every
    repeated field not named in ``fields``. Enum fields always hold a value the API defines.
    To change one bound: ``RequestLimits(fields={**FIELD_LIMITS, "dice_seed": 64})``.

    :raises ValueError: for a bound that is not a whole number of at least 1.
    """

    text_length: int = 1024
    items: int = 64
    fields: Mapping[str, int] = field(default_factory=lambda: FIELD_LIMITS)
    _plans: dict[FieldDescriptor, _Plan] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        bounds = {"text_length": self.text_length, "items": self.items, **self.fields}
        for name, bound in bounds.items():
            if type(bound) is not int or bound < 1:
                raise ValueError(f"the bound of {name} is a whole number of at least 1, not {bound!r}")
        object.__setattr__(self, "_plans", {})

    def __reduce__(self) -> tuple[type[RequestLimits], tuple[int, int, dict[str, int]]]:
        # Sent to worker processes: the bounds alone (the plans are made again there).
        return RequestLimits, (self.text_length, self.items, dict(self.fields))

    def limit_of(self, descriptor: FieldDescriptor) -> int:
        """The bound of a field: its length, or its number of items if it is repeated."""
        default = self.items if descriptor.is_repeated else self.text_length
        return self.fields.get(descriptor.full_name, self.fields.get(descriptor.name, default))


# What a field's values need checking for. A field of numbers or booleans needs nothing (its wire
# type bounds each value); a repeated field or a map needs its number of items, then each item
# checked as its kind of value says.
_NOTHING, _TEXT, _BYTES, _ENUM, _MESSAGE, _REPEATED, _MAP = range(7)
_KINDS = {
    FieldDescriptor.TYPE_STRING: _TEXT,
    FieldDescriptor.TYPE_BYTES: _BYTES,
    FieldDescriptor.TYPE_ENUM: _ENUM,
    FieldDescriptor.TYPE_MESSAGE: _MESSAGE,
    FieldDescriptor.TYPE_GROUP: _MESSAGE,
}

# (kind, bound, the enum's numbers, the kind of each item): worked out once per field and kept in
# the limits, so that the walk reads one tuple a field.
_Plan: TypeAlias = tuple[int, int, frozenset[int], int]


def check_request(message: Message, limits: RequestLimits) -> None:
    """Check every set field of ``message``, and of the messages within it, against ``limits``.

    :raises FieldTooLong: for a text or bytes field longer than its bound.
    :raises TooManyItems: for a repeated field (or a map) with more items than its bound.
    :raises UnknownEnumValue: for an enum field holding a number its enum does not define.
    :raises BadRequest: for text holding NUL (0x0000), which no store keeps.
    """
    try:
        _check_message(message, limits)
    except _Refusal as refusal:
        raise refusal.error(refusal.words()) from None


class _Refusal(Exception):
    """A field past its bound, raised from deep in the walk. On the way out each message adds its
    own field to ``path``, so that paths cost nothing until something is refused."""

    def __init__(self, error: type[ServiceError], name: str, what: str) -> None:
        super().__init__(what)
        self.error = error
        self.path = [name]
        self.what = what

    def words(self) -> str:
        return f"{'.'.join(reversed(self.path))} {self.what}"


def _check_message(message: Message, limits: RequestLimits) -> None:
    # Single fields are checked inline, not by calling _check_item: on a typical request the walk
    # then costs little more than ListFields itself; a call a field made it a third dearer.
    plans = limits._plans
    for descriptor, value in message.ListFields():
        plan = plans.get(descriptor)
        if plan is None:
            plan = plans[descriptor] = _plan_of(descriptor, limits)
        kind, bound, numbers, item_kind = plan
        if kind == _MESSAGE:
            try:
                _check_message(value, limits)
            except _Refusal as refusal:
                refusal.path.append(descriptor.name)
                raise
        elif kind == _ENUM:
            if value not in numbers:
                raise _unknown_enum(descriptor, value, descriptor.name)
        elif kind == _TEXT or kind == _BYTES:
            if len(value) > bound:
                raise _too_long(kind, value, bound, descriptor.name)
            if kind == _TEXT and _NUL in value:
                raise _holds_nul(descriptor.name)
        elif kind == _REPEATED or kind == _MAP:
            if len(value) > bound:
                raise _Refusal(
                    TooManyItems, descriptor.name, f"holds {len(value):,} items; at most {bound:,}"
                )
            if kind == _MAP:
                _check_map(descriptor, value, limits)
            elif item_kind != _NOTHING:
                for index, item in enumerate(value):
                    _check_item(descriptor, item_kind, item, limits, f"{descriptor.name}[{index}]")


def _check_item(descriptor: FieldDescriptor, kind: int, value: Any, limits: RequestLimits, name: str) -> None:
    """One item of a repeated field or a map, of the ``kind`` its field holds; text is held to
    ``limits.text_length`` (the field's own bound counts its items)."""
    if kind == _MESSAGE:
        try:
            _check_message(value, limits)
        except _Refusal as refusal:
            refusal.path.append(name)
            raise
    elif kind == _ENUM:
        if value not in _enum_numbers(descriptor):
            raise _unknown_enum(descriptor, value, name)
    elif kind == _TEXT or kind == _BYTES:
        if len(value) > limits.text_length:
            raise _too_long(kind, value, limits.text_length, name)
        if kind == _TEXT and _NUL in value:
            raise _holds_nul(name)


def _unknown_enum(descriptor: FieldDescriptor, value: int, name: str) -> _Refusal:
    enum = descriptor.enum_type
    assert enum is not None, "an enum field has its enum type"
    defined = ", ".join(f"{number.name} ({number.number})" for number in enum.values)
    return _Refusal(UnknownEnumValue, name, f"is {value}, which {enum.full_name} does not define: {defined}")


def _too_long(kind: int, value: str | bytes, bound: int, name: str) -> _Refusal:
    unit = "characters" if kind == _TEXT else "bytes"
    return _Refusal(FieldTooLong, name, f"is {len(value):,} {unit}; at most {bound:,}")


_NUL = "\x00"


def _holds_nul(name: str) -> _Refusal:
    words = "holds a control character (0x0000): NUL, which no store keeps in text; write it without"
    return _Refusal(BadRequest, name, words)


def _check_map(descriptor: FieldDescriptor, entries: Mapping[Any, Any], limits: RequestLimits) -> None:
    """A map's keys and values, each checked as the field of the map's entry message holding it."""
    entry = descriptor.message_type
    assert entry is not None, "a map field has its entry message"
    key_field, value_field = entry.fields
    key_kind, value_kind = _KINDS.get(key_field.type, _NOTHING), _KINDS.get(value_field.type, _NOTHING)
    for key, value in entries.items():
        name = f"{descriptor.name}[{key!r}]"
        _check_item(key_field, key_kind, key, limits, name)
        _check_item(value_field, value_kind, value, limits, name)


def _plan_of(descriptor: FieldDescriptor, limits: RequestLimits) -> _Plan:
    kind = _KINDS.get(descriptor.type, _NOTHING)
    bound = limits.limit_of(descriptor)
    entry = descriptor.message_type
    if entry is not None and entry.GetOptions().map_entry:
        return _MAP, bound, frozenset(), _NOTHING
    if descriptor.is_repeated:
        return _REPEATED, bound, _enum_numbers(descriptor), kind
    return kind, bound, _enum_numbers(descriptor), _NOTHING


@functools.cache
def _enum_numbers(descriptor: FieldDescriptor) -> frozenset[int]:
    """The numbers an enum field's enum defines (none for other fields)."""
    if descriptor.enum_type is None:
        return frozenset()
    return frozenset(descriptor.enum_type.values_by_number)
