"""Answers that list plays, built from the engine's data in bulk.

An answer that lists a position's plays is mostly their ``Play`` messages: the engine writes
them all at once, as the bytes of the answer's repeated field (``LegalPlays.plays_field``: in C
with the compiled core), and protobuf reads the answer from its other fields' bytes joined to
those, once. A validation's one play in each answer of a batch is serialized once for its steps
(cached), the play's Position ID filled in; a Plakoto play that leaves a checker pinned has a
longer Position ID (its pins after a colon), and its answer is built field by field.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TypeVar

from google.protobuf.message import Message

from tavli.engine import LegalPlays, Play
from tavli.engine.play import steps_code, steps_of_code
from tavli.server import convert
from tavli.v1 import rules_service_pb2 as pb

_PLACEHOLDER = "\0" * 14  # never in a notation, and as long as a Position ID

Listing = TypeVar("Listing", bound=Message)


def legal_plays_response(legal: LegalPlays) -> pb.ListLegalPlaysResponse:
    """The ListLegalPlays answer of ``legal``."""
    return with_plays(pb.ListLegalPlaysResponse(dice_used=legal.dice_used), legal)


def with_plays(answer: Listing, legal: LegalPlays) -> Listing:
    """``answer`` (a message with a ``repeated Play plays`` field and none in it yet) with the
    plays of ``legal`` in that field."""
    listing = type(answer)
    field = listing.DESCRIPTOR.fields_by_name["plays"].number
    return listing.FromString(answer.SerializeToString() + legal.plays_field(field))


def batch_response(answers: Sequence[Play | pb.ValidatePlayResponse]) -> pb.BatchValidatePlaysResponse:
    """The BatchValidatePlays answer: for each request in turn, its legal play, or the answer
    that says why it is not one."""
    known = _kept_pieces()
    pieces: list[bytes] = []
    for answer in answers:
        if isinstance(answer, Play) and len(position_id := answer.position.position_id()) == len(
            _PLACEHOLDER
        ):
            before, after = _piece(known, steps_code(answer.steps))
            pieces += (before, position_id.encode("ascii"), after)
        else:
            if isinstance(answer, Play):
                answer = pb.ValidatePlayResponse(legal=True, play=convert.play_message(answer))
            pieces.append(pb.BatchValidatePlaysResponse(responses=[answer]).SerializeToString())
    return pb.BatchValidatePlaysResponse.FromString(b"".join(pieces))


# The pieces of the plays' steps validated, about 200 bytes each: the serialized answer of a batch
# of that play alone, split around its Position ID. The older half goes when they are more than the
# most kept (only before an answer: an answer's own pieces stay until it is made).
_PIECES: dict[int, tuple[bytes, bytes]] = {}
_MOST_PIECES = 65536


def _kept_pieces() -> dict[int, tuple[bytes, bytes]]:
    """The pieces kept, the older half gone if they are the most kept."""
    if len(_PIECES) >= _MOST_PIECES:
        for older in list(itertools.islice(_PIECES, len(_PIECES) // 2)):
            del _PIECES[older]
    return _PIECES


def _piece(known: dict[int, tuple[bytes, bytes]], code: int) -> tuple[bytes, bytes]:
    """The piece of a batch's answer for the play whose steps are ``code``: made once, kept in
    ``known``."""
    piece = known.get(code)
    if piece is None:
        play = convert.steps_play_message(steps_of_code(code), _PLACEHOLDER)
        alone = pb.BatchValidatePlaysResponse(responses=[pb.ValidatePlayResponse(legal=True, play=play)])
        before, placeholder, after = alone.SerializeToString().partition(_PLACEHOLDER.encode("ascii"))
        assert placeholder, "the placeholder Position ID is serialized as it is"
        piece = known[code] = before, after
    return piece
