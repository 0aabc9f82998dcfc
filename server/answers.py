"""Answers that list plays, built from the engine's data in bulk.

Protobuf writes every byte of them. For each play's steps it writes one piece, once (cached):
the serialized answer that holds that play alone, its Position ID a placeholder of the same
length (every Position ID is 14 characters). An answer is its plays' pieces, each with its
play's Position ID in place of the placeholder, joined: protobuf reads a repeated field sent in
pieces as one list, so the joined bytes are the answer, read once into the message returned.
The engine fills the pieces in for all the plays at once (``LegalPlays.position_ids_within``: in C
with the compiled core), against a message built field by field for each play.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import TypeVar

from google.protobuf.message import Message

from tavli.engine import LegalPlays, Play
from tavli.engine.play import Step, format_steps, steps_code, steps_of_code
from tavli.server import convert
from tavli.v1 import board_pb2, rules_service_pb2 as pb

_PLACEHOLDER = "\0" * 14  # never in a notation, and as long as a Position ID

Listing = TypeVar("Listing", bound=Message)


def legal_plays_response(legal: LegalPlays) -> pb.ListLegalPlaysResponse:
    """The ListLegalPlays answer of ``legal``."""
    return with_plays(pb.ListLegalPlaysResponse(dice_used=legal.dice_used), legal)


def with_plays(answer: Listing, legal: LegalPlays) -> Listing:
    """``answer`` (a message with a ``repeated Play plays`` field and none in it yet) with the
    plays of ``legal`` in that field."""
    listing = type(answer)
    known = _LISTED.setdefault(listing, {})
    if len(known) >= _MOST_LISTED:  # the older half goes, between answers: never one's own pieces
        for older in list(itertools.islice(known, len(known) // 2)):
            del known[older]
    while True:
        try:
            plays = legal.position_ids_within(known)
            break
        except KeyError as missing:  # steps not seen before: their piece is made, once
            _listed(listing, missing.args[0])
    return listing.FromString(answer.SerializeToString() + plays)


def batch_response(answers: Sequence[Play | pb.ValidatePlayResponse]) -> pb.BatchValidatePlaysResponse:
    """The BatchValidatePlays answer: for each request in turn, its legal play, or the answer
    that says why it is not one."""
    pieces = []
    for answer in answers:
        if isinstance(answer, Play):
            before, after = _validated(steps_code(answer.steps))
            pieces += (before, answer.position.position_id().encode("ascii"), after)
        else:
            pieces.append(pb.BatchValidatePlaysResponse(responses=[answer]).SerializeToString())
    return pb.BatchValidatePlaysResponse.FromString(b"".join(pieces))


# For each kind of answer, the pieces of the plays' steps seen, about 200 bytes each: plays of the
# same roll share their steps across many positions. The older half goes when they are more than
# the most kept (only before an answer: an answer's own pieces stay until it is made).
_LISTED: dict[type[Message], dict[int, tuple[bytes, bytes]]] = {}
_MOST_LISTED = 65536


def _listed(listing: type[Message], code: int) -> None:
    known = _LISTED[listing]
    known[code] = _around_placeholder(listing(plays=[_play_message(code)]))


@lru_cache(maxsize=16384)
def _validated(code: int) -> tuple[bytes, bytes]:
    response = pb.ValidatePlayResponse(legal=True, play=_play_message(code))
    return _around_placeholder(pb.BatchValidatePlaysResponse(responses=[response]))


def _play_message(code: int) -> board_pb2.Play:
    # Read from the serialized fields, each written by protobuf once: a play's message is its
    # fields' bytes one after the other, and a step's are shared by every play that makes it.
    steps = steps_of_code(code)
    fields = [board_pb2.Play(notation=format_steps(steps)).SerializeToString()]
    fields += [_step_field(step) for step in steps]
    fields.append(_PLACEHOLDER_FIELD)
    if any(step.hit for step in steps):
        fields.append(_HITS_FIELD)
    return board_pb2.Play.FromString(b"".join(fields))


@cache  # a step is one of some 9,000 (start, end, die, hit)
def _step_field(step: Step) -> bytes:
    return board_pb2.Play(steps=convert.step_messages((step,))).SerializeToString()


_PLACEHOLDER_FIELD = board_pb2.Play(position_id=_PLACEHOLDER).SerializeToString()
_HITS_FIELD = board_pb2.Play(hits=True).SerializeToString()


def _around_placeholder(message: Message) -> tuple[bytes, bytes]:
    before, placeholder, after = message.SerializeToString().partition(_PLACEHOLDER.encode("ascii"))
    assert placeholder, "the placeholder Position ID is serialized as it is"
    return before, after
